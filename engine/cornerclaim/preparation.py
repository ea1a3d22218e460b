"""Corner Claim's `HostPreparation` capability: what a long-running host builds and bounds
once, before the first game's phones wait for it."""

from __future__ import annotations

from ..capabilities import HostPreparation
from .variants import VARIANTS

#: Entries per generation of the small-window move cache in a long-running host: bounded, it
#: levels off within the first minutes of a party at no measurable cost per move.
SMALL_WINDOW_LIMIT = 8_000


class CornerClaimPreparation(HostPreparation):
    """The placement tables of every board size, and a bound on the small-window cache."""

    def prepare_host(self) -> None:
        """Build every board size's placement tables now (30–60 ms each, or the first game's
        phones wait for them) and bound the small-window move cache, which otherwise grows
        with every new game for as long as the host runs (docs/performance.md)."""
        from .board import BoardConst
        from .position import bound_small_window

        for size in sorted({v.size for v in VARIANTS.values()}):
            BoardConst.get(size)
        bound_small_window(SMALL_WINDOW_LIMIT)

