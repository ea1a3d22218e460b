"""Corner Claim, the corner-touch polyomino game (Blokus rules): 2 players on 14×14 (Duo),
3 or 4 on 20×20.

`rules` holds the state, the placement check, turns, scoring and results (`RULES`);
`pieces`, `board`, `position`, `notation` and `variants` the bitboard move generator under it;
`ai` the computer levels; `sgf` Pentobi's `.blksgf` records; `gtp` the Go Text Protocol
session; `game` puts them together behind the host's seam (`CORNER_CLAIM`, registered).
Only `engine.registry` imports this package from outside it.
"""

from .game import CORNER_CLAIM
from .rules import (
    GAME,
    RULES,
    CornerClaimRules,
    PiecePlaced,
    State,
    new_game,
    no_seat_can_place,
    setup_state,
)

__all__ = ["CORNER_CLAIM", "GAME", "RULES", "CornerClaimRules", "PiecePlaced", "State", "new_game",
           "no_seat_can_place", "setup_state"]
