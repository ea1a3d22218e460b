"""Corners' line of the host's catalog: its options, the clocks the lobby offers, a variant
spec per board, and the computer levels (`engine.corners.ai`)."""

from __future__ import annotations

from ..rules import LevelSpec, OptionSpec, PresetSpec, VariantSpec
from . import practice as P
from .variants import COLOURS, VARIANTS

OPTIONS = (
    OptionSpec("reserve_s", "Time reserve (seconds)", 300, "int", 0, 3 * 3600,
               description="each side's time for the game; 0 plays without a clock",
               computer_default=0),
    OptionSpec("increment_s", "Increment (seconds a move)", 3, "int", 0, 600,
               description="added to the mover's time after each of its moves"),
)

def _clock(minutes: int, increment: int) -> PresetSpec:
    return PresetSpec(f"{minutes}+{increment}", (("reserve_s", minutes * 60),
                                                 ("increment_s", increment)),
                      f"{minutes} minute{'s' * (minutes != 1)} each, {increment} s a move")


#: The clocks the lobby offers with one tap: minutes each + seconds a move, or none.
CLOCKS = (_clock(1, 0), _clock(3, 2), _clock(5, 3), _clock(10, 5),
          PresetSpec("No clock", (("reserve_s", 0),), "no time limit"))
#: Two seats, or one: the solo race.
VARIANT_SPECS = {v.name: VariantSpec(v.name, v.label, (2, 1), COLOURS, rated=v.rated,
                                     options=OPTIONS + P.options(v),
                                     description=v.description + "; 1 player: the solo race",
                                     presets=CLOCKS, presets_label="Clock")
                 for v in VARIANTS.values()}


def level_specs() -> dict[int, LevelSpec]:
    from .ai import LEVELS

    return {n: LevelSpec(n, lv.name, lv.description, lv.seconds) for n, lv in LEVELS.items()}
