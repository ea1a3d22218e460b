"""Corners (Ugolki), a race of pieces from one corner of an 8×8 board (16×16 for Halma) to
the opposite one.

`rules` holds the core of the game's `engine.rules.Rules` (the fold and the commands) and
`RULES`; `events`, `state`, `ending` and `view` its events, its state, the words of an ending
and what the host sees; `clock`, `actions`, `players`, `cgn` and `ladder` its capabilities;
`board`, `variants` and `moves` the squares, the homes and the move generator under it;
`ai` the computer levels; `perft` counts move sequences for testing; `record` writes and
reads the `.cgn` text record. Only `engine.registry` imports this package from outside it.
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
