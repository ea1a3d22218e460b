"""Corner Claim as the host offers it: the rules (`rules.CornerClaimRules`) with the computer
players (`ai`), Pentobi's `.blksgf` records (`sgf`) and the GTP engine (`gtp`) behind the same
`engine.rules.Rules` seam. `CORNER_CLAIM` is what `engine.registry` registers.

The rules module knows none of these, so the players, the records and GTP can use the rules
without a loop back to this one.
"""

from __future__ import annotations

from ..capabilities import Computer, Gtp, Hints, QuickMove, Records
from ..errors import EngineError
from ..rules import LevelSpec, ReviewModule
from .gtp import GtpSession
from .levels import HINT_LEVEL, LEVELS
from .rules import CornerClaimRules, State
from .sgf import game_to_sgf, load_game

#: About how long a level takes a move on a home PC, rounded up from `scripts/bench_ai.py`'s
#: time per move (docs/performance.md): the one-ply levels answer at once, the searches run
#: their playouts (longer on the 20×20 boards), level 6 thinks for its 3 s budget.
LEVEL_SECONDS = {1: 0.01, 2: 0.01, 3: 0.1, 4: 0.3, 5: 1.0, 6: 3.0}
#: The fixed rating the ladder gives each level, set from their strength against each other
#: (each level beats the one below it about three games in four, ~200 points).
LEVEL_RATINGS = {1: 800.0, 2: 1000.0, 3: 1250.0, 4: 1450.0, 5: 1650.0, 6: 1850.0}


def _level_specs() -> dict[int, LevelSpec]:
    return {n: LevelSpec(n, lv.name, lv.description, LEVEL_SECONDS[n], LEVEL_RATINGS[n])
            for n, lv in LEVELS.items()}


class CornerClaim(CornerClaimRules, Computer, QuickMove, Hints, Records, Gtp, ReviewModule):
    """Corner Claim with its computer levels, hints, records, GTP and a review of a finished
    game's moves."""

    hint_level = HINT_LEVEL
    review_module = "engine.cornerclaim.analysis"

    levels = _level_specs()

    def choose_move(self, state: State, seat: int, *, level: int, seed: int) -> str | None:
        from . import ai  # the players load with their first use

        move = ai.choose_move(state, seat, level=level, seed=seed)
        return None if move is None else state.move_str(move)

    def hint(self, state: State, seat: int) -> str | None:
        from . import ai  # the players load with their first use

        move = ai.hint(state, seat)
        return None if move is None else state.move_str(move)

    def quick_move(self, state: State, seat: int, *, level: int, seed: int) -> str | None:
        """The move a host answers while `warm_up` still compiles the search in the
        background (`ai.quick_move`: nothing compiled, a fraction of a second). An optional
        verb: a game without one has its moves wait for its warm-up."""
        from . import ai  # the players load with their first use

        move = ai.quick_move(state, seat, level=level, seed=seed)
        return None if move is None else state.move_str(move)

    def warm_up(self) -> float:
        from . import ai  # the players load with their first use

        return ai.warm_up()

    def export(self, game, fmt: str) -> str:
        if fmt != "blksgf":
            raise EngineError(f"Corner Claim has no {fmt} format", formats=sorted(self.formats))
        return game_to_sgf(game)

    def read(self, text: str):
        """A `.blksgf` record (SGF: it starts with "(;"), else None."""
        if not text.lstrip().startswith("("):
            return None
        return load_game(text)

    def gtp_session(self, variant: str, **options):
        """A Go Text Protocol session (`gtp.GtpSession`) on an empty board of `variant`."""
        return GtpSession(variant, **options)


CORNER_CLAIM = CornerClaim()
