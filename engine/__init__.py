"""The games' rules, pure: no I/O, no threads, no web framework.

`engine.core` holds the game-agnostic log (events, `Game`, the fold), `engine.rules` the
required core every game writes (`Rules`, `BaseRules`, `Outcome` and the catalog's value
types), `engine.capabilities` what a game may do beyond it (a clock, chance, actions,
computer players, hints, records, GTP), `engine.errors` the errors every game shares and
`engine.registry` the games this host offers. Each game is a package of its own, with its
rules, its errors, its move generation and its computer players: `engine.cornerclaim`
(Corner Claim, with Pentobi's `.blksgf` records and GTP), `engine.corners` (Corners) and
`engine.marbles` (Corner, the marble game).
"""

from . import registry  # noqa: E402,F401 - a log of a built-in game folds from any entry
