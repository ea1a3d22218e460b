"""Corner Claim's state: the immutable value folded from a game's log (the position, the
placements in play order, the seats that left), and whose turn follows a placement."""

from __future__ import annotations

from dataclasses import dataclass, field

from .pieces import PIECES
from .position import Position
from .variants import Variant


@dataclass(frozen=True, eq=False)
class State:
    """The fold of a game's log. `position` must not be mutated (copy it to explore)."""

    variant: Variant
    seq: int
    players: tuple[str, ...]
    placements: tuple[tuple[int, int, int], ...]  # (seq, seat, move id), in play order
    left: frozenset[int]
    position: Position = field(repr=False)
    to_move: int | None  # seat to place next; None when the game is over

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    def key(self) -> tuple:
        return (self.seq, self.players, self.placements, self.same_position_key())

    def same_position_key(self) -> tuple:
        """What the players see: board, hands, who left, whose turn (not the log's seq)."""
        seats = tuple(s for _, s, _ in self.placements)
        return (self.position.key(), self.left, self.to_move, seats)

    @property
    def nu_seats(self) -> int:
        return self.variant.nu_seats

    @property
    def seats(self) -> range:
        return range(1, self.variant.nu_seats + 1)

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def move_str(self, move: int) -> str:
        return self.position.bc.move_to_str(move)

    def legal_moves(self, seat: int) -> list[int]:
        """Legal move ids of `seat` now (empty for a seat that left or when it is over).

        Generated from the small-window tables: a host asks once per position, over many
        unrelated games, where the wide tables' bounded cache would keep missing (slower there:
        docs/performance.md has today's figure). Searches that revisit positions call
        `Position.legal_moves` with the wide tables directly.
        """
        if seat in self.left or self.is_over:
            return []
        return self.position.legal_moves(seat - 1, narrow=True)

    def can_move(self, seat: int) -> bool:
        return seat not in self.left and not self.is_over and self.position.has_moves(seat - 1)

    def open_corners(self, seat: int) -> list[str]:
        """Cells the seat may build from (its attach points), as names."""
        return self.position.bc.cell_names(self.position.attach_points(seat - 1))

    def pieces_left(self, seat: int) -> list[str]:
        return [PIECES[i].name for i in self.position.pieces_left(seat - 1)]

    def score(self, seat: int) -> int:
        return self.position.score(seat - 1)

    def board(self) -> list[list[int]]:
        """Rows top (row n) to bottom (row 1); each cell 0 or the seat that covers it.

        Reads each colour's cells as a string of bits (one `format` per colour, then a
        `find` per covered cell): the host builds this once per move for every game."""
        pos = self.position
        bc = pos.bc
        n, stride = bc.size, bc.stride
        length = n * stride
        bits = [format(occ >> bc.origin, "b")[::-1].ljust(length, "0")
                for occ in pos.occupied]
        rows = []
        for y in range(n - 1, -1, -1):
            lo = y * stride
            row = [0] * n
            for c, text in enumerate(bits):
                segment = text[lo:lo + n]
                i = segment.find("1")
                while i >= 0:
                    row[i] = c + 1
                    i = segment.find("1", i + 1)
            rows.append(row)
        return rows

    def last_placement_seq(self, seat: int) -> int | None:
        return next((q for q, s, _ in reversed(self.placements) if s == seat), None)


def next_to_move(variant: Variant, pos: Position, placements, left) -> int | None:
    """The seat after the last placer (or seat 1) that is still seated and can place."""
    n = variant.nu_seats
    if n == 2 and left:
        return None  # two seats: leaving is resigning
    start = placements[-1][1] % n if placements else 0
    for i in range(n):
        c = (start + i) % n
        if c + 1 not in left and pos.has_moves(c):
            return c + 1
    return None
