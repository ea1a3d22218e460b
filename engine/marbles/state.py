"""Corner's state: the immutable value folded from a game's log (the deal, the arrows, the
marbles taken, the rounds played, how it ended)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .board import CELLS, EMPTY, SIZE, cell_name, line_name, side_scores
from .moves import is_opening, side_of, takes


class Take(NamedTuple):
    """One move of the round: the arrow's new line, and the cell and colour taken (None for
    the opening placement)."""

    seq: int
    seat: int
    line: int
    cell: int | None
    colour: int | None


class RoundScore(NamedTuple):
    """A finished round: its deal, its starter, each side's marbles per colour and score."""

    round: int
    setup: str
    starter: int
    counts: tuple[tuple[int, ...], tuple[int, ...]]
    scores: tuple[int, int]


NO_COUNTS = ((0,) * 6, (0,) * 6)


@dataclass(frozen=True)
class State:
    """The fold of a game's log. `board[cell]` is a colour code or EMPTY; `arrows` one line
    (or None, not placed yet this round) per seat; `counts[side][colour]` the marbles each
    side took this round; `moves` the round's moves; `playing` says a round is under way
    (False before the first deal, between rounds and at the end); `history` the finished
    rounds; `end` the reason once the game is over; `forfeit` the side that forfeited by
    leaving. `before` is the state before the latest move (for takebacks)."""

    variant: str
    seats: int
    seq: int
    players: tuple[str, ...]
    round_count: int
    given: tuple[str, ...]
    round: int = 0
    setup: str = ""
    board: tuple[int, ...] = (EMPTY,) * CELLS
    arrows: tuple[int | None, ...] = ()
    counts: tuple[tuple[int, ...], tuple[int, ...]] = NO_COUNTS
    moves: tuple[Take, ...] = ()
    playing: bool = False
    history: tuple[RoundScore, ...] = ()
    left: frozenset[int] = frozenset()
    end: str | None = None
    forfeit: int | None = None
    before: State | None = field(default=None, compare=False, repr=False)

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def starter(self) -> int:
        """The seat that opens the current round: red (1) in odd rounds, yellow (2) in even."""
        return 1 if self.round % 2 == 1 else 2

    @property
    def to_move(self) -> int | None:
        if self.end is not None or not self.playing:
            return None
        return (self.starter - 1 + len(self.moves)) % self.seats + 1

    @property
    def deal_due(self) -> bool:
        """Whether the next event must be a deal (before the first round, between rounds)."""
        return self.end is None and not self.playing and self.round < self.round_count

    @property
    def opening(self) -> bool:
        """Whether the move due is the round's opening placement."""
        return self.playing and is_opening(self.arrows)

    def round_scores(self) -> tuple[int, int]:
        """Each side's score in the current round so far (the doubling as it stands)."""
        return side_scores(self.counts)

    def totals(self, live: bool = False) -> tuple[int, int]:
        """Each side's total over the finished rounds (and the round under way if `live`)."""
        red = sum(r.scores[0] for r in self.history)
        yellow = sum(r.scores[1] for r in self.history)
        if live and self.playing:
            now = self.round_scores()
            red, yellow = red + now[0], yellow + now[1]
        return red, yellow

    def legal_moves(self, seat: int) -> list[tuple[int, int | None]]:
        """`seat`'s moves now as (line, cell taken or None for an opening placement)."""
        if self.to_move != seat:
            return []
        if is_opening(self.arrows):
            return [(line, None) for line in range(SIZE)]
        return list(takes(self.board, self.arrows, seat))

    def move_text(self, seat: int, line: int, cell: int | None) -> str:
        return line_name(side_of(seat), line) if cell is None else cell_name(cell)
