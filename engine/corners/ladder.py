"""What the ladder sees of a Corners game: whether it is played for practice (`Practice`: the
option, a set-up position, the solo race, all off the ladder) and each seat's points and
stats (`Ladder`)."""

from __future__ import annotations

from ..capabilities import Ladder, Practice
from ..rules import LadderSeat
from .state import State


class CornersLadder(Practice, Ladder):
    """Practice games, and each seat's pieces home."""

    def practice(self, state: State) -> bool:
        """A practice game (the option, a set-up position, the solo race): off the ladder."""
        return state.practice

    def ladder(self, state: State) -> tuple[LadderSeat, ...]:
        outcome = self.outcome(state)
        return tuple(LadderSeat(outcome.points[s - 1], {
            "pieces_home": state.in_target(s),
            "filled_target": state.in_target(s) == state.variant.pieces,
        }) for s in state.seats)

