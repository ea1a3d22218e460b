"""The errors every game shares, each with a stable `code`, a `family` and a human message.

A game's own errors (a rule only it has: Corner Claim's corner contact, Corners' clock) live
with the game, in its `errors` module, which also offers these shared ones, so a game's rules
read all their errors from one place. Every error says what kind of refusal it is by its
`family`:

- "malformed": the request cannot be read (a bad seat, a broken log);
- "illegal": it can be read but the rules forbid it (a move, an option, a setup);
- "not_now": it is allowed, but not at this moment (not your turn, the game is over, a
  stale seq).

The server answers a code by its own status where it has one, else by the family (400, 422,
409), so it names no game's codes; the message is shown to players as it is.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "engine_error"
    family = "malformed"

    def __init__(self, message: str, **details) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class NotationError(EngineError):
    """The move text could not be read as the game's notation (cells, squares, lines)."""

    code = "bad_notation"
    family = "illegal"


class IllegalMoveError(EngineError):
    """A well-formed move that the rules forbid; `code` names the rule."""

    code = "illegal_move"
    family = "illegal"


class TurnError(EngineError):
    """The action is well formed but not allowed now (turn, game over, left seat)."""

    code = "turn"
    family = "not_now"


class NotYourTurnError(TurnError):
    code = "not_your_turn"


class GameOverError(TurnError):
    code = "game_over"


class SeatLeftError(TurnError):
    code = "seat_left"


class NothingToUndoError(TurnError):
    code = "nothing_to_undo"


class StaleSeqError(EngineError):
    """The client acted on an older `seq` than the log's latest."""

    code = "stale_seq"
    family = "not_now"


class BadSeatError(EngineError):
    code = "bad_seat"


class LogError(EngineError):
    """A malformed, out-of-order or unknown-version event log."""

    code = "bad_log"


class NoSuchGameError(EngineError):
    """The host offers no game (or no variant) by that name."""

    code = "no_such_game"
    family = "illegal"


class BadOptionError(EngineError):
    """A variant option that does not exist or has a value it does not allow."""

    code = "bad_option"
    family = "illegal"


#: The families, in the order above.
FAMILIES = ("malformed", "illegal", "not_now")

__all__ = ["FAMILIES", "BadOptionError", "BadSeatError", "EngineError", "GameOverError",
           "IllegalMoveError", "LogError", "NoSuchGameError", "NotationError",
           "NotYourTurnError", "NothingToUndoError", "SeatLeftError", "StaleSeqError",
           "TurnError"]
