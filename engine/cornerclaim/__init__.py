"""Corner Claim, the corner-touch polyomino game (Blokus rules): 2 players on 14×14 (Duo),
3 or 4 on 20×20.

`rules` holds the placement check, turns, scoring and results (`RULES`), `state` the state,
`preparation`, `ladder` and `legal_json` the capabilities the rules bring;
`pieces`, `board`, `position`, `notation` and `variants` the bitboard move generator under it;
`ai` the computer levels; `sgf` Pentobi's `.blksgf` records; `gtp` the Go Text Protocol
session; `game` puts them together behind the host's seam (`game.CORNER_CLAIM`, registered;
not imported here, so the rules and the board load without the computer players).
Only `engine.registry` imports this package from outside it.
"""

__all__ = ["GAME", "RULES", "CornerClaimRules", "PiecePlaced", "State", "new_game",
           "no_seat_can_place", "setup_state"]


def __getattr__(name: str):
    """The rules' names, imported on first use: `from engine.cornerclaim.board import …`
    (a benchmark, the players' tables) does not pay for loading the rules module."""
    if name in __all__:
        from . import rules

        return getattr(rules, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
