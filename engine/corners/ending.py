"""How a game of Corners ended, in words, and the solo race's outcome."""

from __future__ import annotations

from ..rules import Outcome
from . import practice as P
from .state import State
from .variants import COLOURS


def ending(state: State) -> str:
    """How the game ended, in words, with colours and move numbers: "Black filled
    White's home on move 41", "White's time ran out", "Draw: the same position three
    times"; "" while it is played."""
    if state.end is None:
        return ""
    reason, winner = state.end
    number = (len(state.moves) + 1) // 2  # the number of the last move made
    deadline, limit = state.variant.deadline, state.variant.limit
    loser = COLOURS[2 - winner].capitalize() if winner else ""
    if reason == "target":
        if not winner:
            return f"Draw: both sides filled the other's home on move {number}"
        return (f"{COLOURS[winner - 1].capitalize()} filled {loser}'s home "
                f"on move {number}")
    if reason == "deadline":
        if not winner:
            return f"Draw: both sides still had pieces at home after move {deadline}"
        count = state.at_home(3 - winner)
        pieces = "a piece" if count == 1 else f"{count} pieces"
        return f"{loser} still had {pieces} at home after move {deadline}"
    if reason == "home_return":
        return (f"{loser} moved back into its home on move {number}, after the "
                f"deadline (move {deadline})")
    if reason == "move_limit":
        white, black = state.in_target(1), state.in_target(2)
        if not winner:
            return (f"Draw at the move limit (move {limit}): {white} pieces each in "
                    "the other's home")
        won, lost = (white, black) if winner == 1 else (black, white)
        return (f"{COLOURS[winner - 1].capitalize()} had more pieces in the other's home "
                f"at the move limit (move {limit}): {won} to {lost}")
    if reason == "repetition":
        return "Draw: the same position three times"
    if reason == "no_move":
        stuck = COLOURS[len(state.moves) % 2].capitalize()
        return f"Draw: {stuck} had no legal move after move {number}"
    if reason == "timeout":
        return f"{loser}'s time ran out"
    if reason == "resigned":
        return f"{loser} left the game" if 3 - winner in state.left else f"{loser} resigned"
    if reason == "draw_agreed":
        return "Draw agreed"
    return ""


def solo_outcome(state: State) -> Outcome:
    """The solo race's one seat: a win once the target is filled, a loss if it gave up."""
    scores = (state.in_target(1),)
    if state.end is None:
        return Outcome((), ("draw",), scores, "playing", (1,))
    reason = state.end[0]
    made = sum(1 for m in state.moves if m.seq)
    best = P.best_known(state.variant.name)
    if reason == "target":
        known = f" (the best known: {best[0]})" if best else ""
        ending = f"White filled the target in {made} move{'s' * (made != 1)}{known}"
        return Outcome((1,), ("win",), scores, reason, (2,), ending)
    if reason == "resigned":
        ending = f"White gave up the race after {made} move{'s' * (made != 1)}"
    elif reason == "move_limit":
        ending = (f"White did not fill the target by the race's limit "
                  f"(move {state.variant.solo_limit})")
    else:
        ending = f"White has no move left after {made} move{'s' * (made != 1)}"
    return Outcome((), ("loss",), scores, reason, (0,), ending)

