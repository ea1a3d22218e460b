"""The games' rules, pure: no I/O, no threads, no web framework.

`engine.core` holds the game-agnostic log (events, `Game`, the fold), `engine.rules` the seam
every game supplies (`Rules`, `Outcome` and the catalog's value types) and `engine.registry`
the games this host offers. Each game is a package of its own: `engine.cornerclaim` is
Corner Claim (its rules, pieces, board, computer players and `.blksgf` records).
"""

from . import registry  # noqa: E402,F401 - a log of a built-in game folds from any entry
