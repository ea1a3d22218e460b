"""Corner's line of the host's catalog: its options, a variant spec per table size, and the
computer levels (`engine.marbles.ai`)."""

from __future__ import annotations

from ..rules import LevelSpec, OptionSpec, VariantSpec

OPTIONS = (
    OptionSpec("rounds", "Rounds", 2, "int", 1, 10,
               description="rounds in the game; with 2 each colour starts once"),
    OptionSpec("setups", "Setups of the first rounds", [], "strings", 0, 10,
               description="36 letters each (a1…f1, a2…, f6) of Y R G B W S K: 8 yellow, "
               "7 red, 6 green, 5 blue, 4 white, 3 grey (S), 3 black (K); later rounds are "
               "dealt at random; a rematch is dealt at random", rematch=False,
               placeholder="36 letters of YRGBWSK; a comma between setups"),
)
VARIANT_SPECS = {
    "2p": VariantSpec("2p", "2 players", (2,), ("red", "yellow"), rated=True, options=OPTIONS,
                      description="red against yellow"),
    "4p": VariantSpec("4p", "4 players in two teams", (4,),
                      ("red", "yellow", "red", "yellow"), rated=False, options=OPTIONS,
                      description="seats 1 and 3 (red) against seats 2 and 4 (yellow)",
                      leaving="The computer plays your seat for the rest of the game, so your "
                      "partner plays on and your team can still win. If your partner has "
                      "left too, your team loses."),
}


def level_specs() -> dict[int, LevelSpec]:
    from .ai import LEVELS

    return {n: LevelSpec(n, lv.name, lv.description, lv.seconds) for n, lv in LEVELS.items()}
