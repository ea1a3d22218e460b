"""Corner's `Ladder` capability: each seat's points and its side's marbles, rounds won and
colours held alone."""

from __future__ import annotations

from ..capabilities import Ladder
from ..rules import LadderSeat
from .board import TAKEABLE
from .moves import side_of
from .state import State


class MarblesLadder(Ladder):
    """Each seat's ladder points and its side's stats."""

    def ladder(self, state: State) -> tuple[LadderSeat, ...]:
        outcome = self.outcome(state)
        out = []
        for s in range(1, state.seats + 1):
            side = side_of(s)
            marbles = sum(sum(r.counts[side]) for r in state.history)
            won = sum(1 for r in state.history if r.scores[side] > r.scores[1 - side])
            doubled = sum(1 for r in state.history for c in TAKEABLE
                          if r.counts[side][c] and not r.counts[1 - side][c])
            out.append(LadderSeat(outcome.points[s - 1],
                                  {"marbles": marbles, "rounds_won": won, "doubled": doubled}))
        return tuple(out)

