"""Corner's `Chance` capability: each round's deal, drawn by the host with its random generator
(or the game's given setups) and appended like any other event; and the fold of a deal."""

from __future__ import annotations

import random
from dataclasses import replace

from ..capabilities import Chance
from . import errors as E
from .board import parse_setup, random_setup, setup_text
from .events import RoundDealt
from .state import NO_COUNTS, State


class MarblesChance(Chance):
    """The deals of a game's rounds."""

    def chance(self, state: State, rng: random.Random) -> RoundDealt | None:
        """The next round's deal when one is due: the given setup for the round if there is
        one, else the 36 marbles shuffled with `rng`."""
        if not state.deal_due:
            return None
        number = state.round + 1
        setup = (state.given[number - 1] if number <= len(state.given)
                 else random_setup(rng))
        return RoundDealt(seq=state.seq + 1, round=number, setup=setup)

    def _dealt(self, state: State, event: RoundDealt) -> State:
        if not state.deal_due:
            raise E.LogError("no deal is due now" + (" (the game is over)" if state.over
                                                     else " (a round is under way)"))
        if event.round != state.round + 1:
            raise E.LogError(f"the deal is for round {state.round + 1}, not {event.round}")
        try:
            board = parse_setup(event.setup, event.round)
        except E.BadSetupError as e:
            raise E.LogError(e.message) from None
        if setup_text(board) != event.setup:
            raise E.LogError(f"round {event.round}'s setup must be 36 capital letters")
        if event.round <= len(state.given) and state.given[event.round - 1] != event.setup:
            raise E.LogError(f"round {event.round} must be dealt the given setup")
        return replace(state, seq=event.seq, round=event.round, setup=event.setup,
                       board=board, arrows=(None,) * state.seats, counts=NO_COUNTS,
                       moves=(), playing=True, before=None)

