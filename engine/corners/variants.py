"""The variants: each side's home, the move directions, the lock-in rule, the deadlines.

White's home is in the a1 corner, black's is its point mirror in the h8 corner; each side's
target is the other side's home.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import JUMPS_4, JUMPS_8, NEIGHBOURS_4, NEIGHBOURS_8, mirror, parse_square, square

#: The move number after black's move of which a piece still at home loses, and the last one.
DEADLINE = 40
DIAGONAL_DEADLINE = 30
MOVE_LIMIT = 80


@dataclass(frozen=True)
class Variant:
    name: str
    label: str
    white_home: tuple[int, ...]  # squares, ascending
    diagonal: bool  # eight directions (and locking in allowed) rather than four
    deadline: int
    rated: bool
    description: str
    limit: int = MOVE_LIMIT
    homes: tuple[frozenset[int], frozenset[int]] = field(init=False, repr=False,
                                                         compare=False)

    def __post_init__(self) -> None:
        black = frozenset(mirror(s) for s in self.white_home)
        object.__setattr__(self, "homes", (frozenset(self.white_home), black))

    @property
    def pieces(self) -> int:
        return len(self.white_home)

    @property
    def locking_allowed(self) -> bool:
        return self.diagonal

    @property
    def neighbours(self):
        return NEIGHBOURS_8 if self.diagonal else NEIGHBOURS_4

    @property
    def jumps(self):
        return JUMPS_8 if self.diagonal else JUMPS_4

    def home(self, seat: int) -> frozenset[int]:
        return self.homes[seat - 1]

    def target(self, seat: int) -> frozenset[int]:
        return self.homes[2 - seat]

    def start_board(self) -> tuple[int, ...]:
        board = [0] * 64
        for s in self.homes[0]:
            board[s] = 1
        for s in self.homes[1]:
            board[s] = 2
        return tuple(board)


def _box(cols: int, rows: int) -> tuple[int, ...]:
    return tuple(sorted(square(c, r) for c in range(cols) for r in range(rows)))


def _named(*names: str) -> tuple[int, ...]:
    return tuple(sorted(parse_square(n) for n in names))


VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant("classic-3x3", "Classic 3×3", _box(3, 3), False, DEADLINE, True,
            "9 pieces each, homes a1–c3 and f6–h8, orthogonal moves, no locking in"),
    Variant("classic-3x4", "Classic 3×4", _box(4, 3), False, DEADLINE, True,
            "12 pieces each, homes a1–d3 and e6–h8, orthogonal moves, no locking in"),
    Variant("diagonal-3x3", "Diagonal 3×3", _box(3, 3), True, DIAGONAL_DEADLINE, True,
            "9 pieces each, homes a1–c3 and f6–h8, moves in eight directions, locking in "
            "allowed, home deadline at move 30"),
    Variant("diagonal-3x4", "Diagonal 3×4", _box(4, 3), True, DIAGONAL_DEADLINE, False,
            "12 pieces each, homes a1–d3 and e6–h8, moves in eight directions, locking in "
            "allowed, home deadline at move 30"),
    Variant("triangle", "Triangle", _named("a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3",
                                           "b3", "a4"), False, DEADLINE, False,
            "10 pieces each in a triangle (a1–d1, a2–c2, a3–b3, a4), orthogonal moves"),
    Variant("4x4", "4×4", _box(4, 4), False, DEADLINE, False,
            "16 pieces each, homes a1–d4 and e5–h8, orthogonal moves"),
)}
