"""Corners' computer players (`Computer`: the levels of `engine.corners.ai`), its hints
(`Hints`) and its review of a finished game's moves (`Analysis`: `engine.corners.analysis`).
Each loads its search with its first use."""

from __future__ import annotations

from ..capabilities import Computer, Hints
from ..rules import ReviewModule
from . import practice as P
from .state import State

#: The practice hint's budget of CPU time (the strongest level's search, cut short).
HINT_SECONDS = 0.4


class CornersPlayers(Computer, Hints, ReviewModule):
    """The computer levels, the hint at `hint_level` and the move review."""

    hint_level = 3
    review_module = "engine.corners.analysis"

    def choose_move(self, state: State, seat: int, *, level: int, seed: int) -> str | None:
        from .ai import choose_move

        return choose_move(state, seat, level=level, seed=seed)

    def warm_up(self) -> float:
        """Nothing to ready: the levels search from the first move."""
        return 0.0

    def hint(self, state: State, seat: int) -> str | None:
        """The move of level `hint_level` (a practice game: the strongest level, its search cut
        to `HINT_SECONDS` of CPU time so the answer comes within a second); the solo race's:
        the first move of a beam search's line (`solo.best_move`)."""
        if state.solo:
            return P.solo_hint(state)
        if state.practice:
            from .ai import LEVELS, choose_move

            return choose_move(state, seat, level=max(LEVELS), seed=0, seconds=HINT_SECONDS)
        return self.choose_move(state, seat, level=self.hint_level, seed=0)

