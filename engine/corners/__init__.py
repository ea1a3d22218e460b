"""Corners (Ugolki), a race of pieces from one corner of an 8×8 board (16×16 for Halma) to
the opposite one.

`rules` holds the events, the state, the clock and the ends, and `RULES`, the game's
`engine.rules.Rules`; `board`, `variants` and `moves` the squares, the homes and the move
generator under it; `ai` the computer levels; `perft` counts move sequences for testing;
`record` writes and reads the `.cgn` text record. Only `engine.registry` imports this package
from outside it.
"""

from .rules import (
    GAME,
    RULES,
    ClockResumed,
    CornersRules,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    FlagFell,
    Moved,
    Resigned,
    State,
    move_list,
    new_game,
    perft,
    setup_state,
    start_state,
)

__all__ = ["GAME", "RULES", "ClockResumed", "CornersRules", "DrawAccepted", "DrawDeclined",
           "DrawOffered", "FlagFell", "Moved", "Resigned", "State", "move_list", "new_game",
           "perft", "setup_state", "start_state"]
