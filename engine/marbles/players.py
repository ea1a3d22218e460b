"""Corner's computer players (`Computer`: the levels of `engine.marbles.ai`), its hints
(`Hints`), its review of a finished game's moves (`Analysis`: `engine.marbles.analysis`)
and the computer that plays on for a seat that left a 4-player game (`Replacement`)."""

from __future__ import annotations

from ..capabilities import Computer, Hints, Replacement
from ..rules import ReviewModule
from .state import State


class MarblesPlayers(Computer, Hints, ReviewModule, Replacement):
    """The computer levels, the hint at `hint_level`, the move review and the replacement."""

    hint_level = 3
    review_module = "engine.marbles.analysis"
    #: The computer level the host seats for a player who leaves a 4-player game.
    left_seat_level = 3

    def plays_on(self, state: State, seat: int) -> bool:
        """Whether `seat` has left but the game goes on with the seat played by the computer
        (the 4-player game, until both seats of a team have left)."""
        return seat in state.left and not state.over

    def replacement_level(self, state: State, seat: int) -> int | None:
        """`left_seat_level` for a seat that left and plays on, else None."""
        return self.left_seat_level if self.plays_on(state, seat) else None

    def choose_move(self, state: State, seat: int, *, level: int, seed: int) -> str | None:
        from .ai import choose_move

        return choose_move(state, seat, level=level, seed=seed)

    def warm_up(self) -> float:
        return 0.0

    def hint(self, state: State, seat: int) -> str | None:
        """The move of level `hint_level`."""
        return self.choose_move(state, seat, level=self.hint_level, seed=0)

