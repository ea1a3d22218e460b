"""The variants: the board's size, each side's home, the move directions, the lock-in rule,
the deadlines.

White's home is in the a1 corner, black's is its point mirror in the opposite corner (h8, or
p16 on Halma's 16×16); each side's target is the other side's home.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import Geometry, geometry

GAME = "corners"
COLOURS = ("white", "black")
#: Every end reason, as `Outcome.reason` and the public view's `status` give it.
REASONS = ("target", "deadline", "home_return", "move_limit", "repetition", "no_move",
           "timeout", "resigned", "draw_agreed")
#: The move number after black's move of which a piece still at home loses, and the last one.
DEADLINE = 40
DIAGONAL_DEADLINE = 30
MOVE_LIMIT = 80
HALMA_DEADLINE = 60
HALMA_LIMIT = 150


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
    size: int = 8  # columns and rows
    homes: tuple[frozenset[int], frozenset[int]] = field(init=False, repr=False,
                                                         compare=False)
    #: The board (`board.Geometry`) and, for the variant's directions, per square its
    #: neighbours and its jumps as (over, landing) pairs.
    board: Geometry = field(init=False, repr=False, compare=False)
    neighbours: tuple = field(init=False, repr=False, compare=False)
    jumps: tuple = field(init=False, repr=False, compare=False)

    @property
    def solo_limit(self) -> int:
        """The solo race's last move: twice the two-player game's limit (the best known races
        take a fifth of it), so that a race, and a record of one, has an end."""
        return 2 * self.limit

    def __post_init__(self) -> None:
        g = geometry(self.size)
        black = frozenset(g.mirror(s) for s in self.white_home)
        object.__setattr__(self, "homes", (frozenset(self.white_home), black))
        object.__setattr__(self, "board", g)
        object.__setattr__(self, "neighbours", g.neighbours_8 if self.diagonal
                           else g.neighbours_4)
        object.__setattr__(self, "jumps", g.jumps_8 if self.diagonal else g.jumps_4)

    @property
    def squares(self) -> int:
        """The board's number of squares (size²)."""
        return self.size * self.size

    @property
    def pieces(self) -> int:
        return len(self.white_home)

    @property
    def locking_allowed(self) -> bool:
        return self.diagonal

    def home(self, seat: int) -> frozenset[int]:
        return self.homes[seat - 1]

    def target(self, seat: int) -> frozenset[int]:
        return self.homes[2 - seat]

    def start_board(self) -> tuple[int, ...]:
        board = [0] * self.squares
        for s in self.homes[0]:
            board[s] = 1
        for s in self.homes[1]:
            board[s] = 2
        return tuple(board)


def _box(cols: int, rows: int) -> tuple[int, ...]:
    g = geometry(8)
    return tuple(sorted(g.square(c, r) for c in range(cols) for r in range(rows)))


def _named(*names: str, size: int = 8) -> tuple[int, ...]:
    g = geometry(size)
    return tuple(sorted(g.parse_square(n) for n in names))


def _rows(*widths: int, size: int) -> tuple[int, ...]:
    """A home in the a1 corner: `widths[r]` squares from the a column in row r + 1."""
    g = geometry(size)
    return tuple(sorted(g.square(c, r) for r, w in enumerate(widths) for c in range(w)))


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
    Variant("halma-16x16", "Halma 16×16", _rows(5, 5, 4, 3, 2, size=16), True,
            HALMA_DEADLINE, False,
            "16×16 board, 19 pieces each in the corners a1 and p16 (rows of 5, 5, 4, 3, 2), "
            "moves in eight directions, locking in allowed, home deadline at move 60, "
            "game limit 150 moves", limit=HALMA_LIMIT, size=16),
)}
