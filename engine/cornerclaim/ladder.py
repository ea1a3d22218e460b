"""Corner Claim's `Ladder` capability: each seat's points and whether it placed every piece,
the single square last, and the squares it had left."""

from __future__ import annotations

from ..capabilities import Ladder
from ..rules import LadderSeat
from .pieces import PIECES, SINGLE
from .state import State


class CornerClaimLadder(Ladder):
    """Each seat's ladder points and stats."""

    def ladder(self, state: State) -> tuple[LadderSeat, ...]:
        outcome = self.outcome(state)
        pos = state.position
        out = []
        for s in state.seats:
            c = s - 1
            all_placed = pos.all_placed(c)
            out.append(LadderSeat(outcome.points[c], {
                "all_placed": all_placed,
                "single_last": all_placed and pos.last_piece[c] == SINGLE,
                "squares_left": sum(PIECES[i].size for i in pos.pieces_left(c)),
            }))
        return tuple(out)

