"""Distinct errors for distinct failures, each with a stable `code` and a human message.

The server maps each code to one HTTP status; the message is shown to players as it is.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "engine_error"

    def __init__(self, message: str, **details) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class NotationError(EngineError):
    """The move text could not be read as cells in Pentobi's notation."""

    code = "bad_notation"


class IllegalMoveError(EngineError):
    """A well-formed placement that the rules forbid; `code` names the rule."""

    code = "illegal_move"


class NotAPieceError(IllegalMoveError):
    code = "not_a_piece"


class PieceUsedError(IllegalMoveError):
    code = "piece_used"


class OffBoardError(IllegalMoveError):
    code = "off_board"


class OverlapError(IllegalMoveError):
    code = "overlap"


class StartCellError(IllegalMoveError):
    code = "start_cell"


class EdgeContactError(IllegalMoveError):
    code = "edge_contact"


class NoCornerContactError(IllegalMoveError):
    code = "no_corner_contact"


class TurnError(EngineError):
    """The action is well formed but not allowed now (turn, game over, left seat)."""

    code = "turn"


class NotYourTurnError(TurnError):
    code = "not_your_turn"


class GameOverError(TurnError):
    code = "game_over"


class SeatLeftError(TurnError):
    code = "seat_left"


class CannotPassError(TurnError):
    code = "cannot_pass"


class NothingToUndoError(TurnError):
    code = "nothing_to_undo"


class StaleSeqError(EngineError):
    """The client acted on an older `seq` than the log's latest."""

    code = "stale_seq"


class BadSeatError(EngineError):
    code = "bad_seat"


class LogError(EngineError):
    """A malformed, out-of-order or unknown-version event log."""

    code = "bad_log"


class NoSuchGameError(EngineError):
    """The host offers no game (or no variant) by that name."""

    code = "no_such_game"


class BadOptionError(EngineError):
    """A variant option that does not exist or has a value it does not allow."""

    code = "bad_option"


class NoSuchPieceError(EngineError):
    """A piece name that is not one of the game's pieces (a legal-list query)."""

    code = "bad_piece"


class TimeUpError(TurnError):
    """The clock of the side to move ran out before this: the flag fall comes first."""

    code = "time_up"


class TakebackRefusedError(TurnError):
    """A takeback the game does not allow (Corners: a rated variant played with a clock)."""

    code = "takeback_refused"


class NoDrawOfferError(TurnError):
    """Accepting or declining a draw that the other side has not offered."""

    code = "no_draw_offer"


class DrawOfferRefusedError(TurnError):
    """A draw offer not allowed now (one is pending, or the seat offered since its last move)."""

    code = "draw_offer_refused"


class NotYourPieceError(IllegalMoveError):
    code = "not_your_piece"


class UnreachableError(IllegalMoveError):
    """The piece cannot get to that square by a step or a chain of jumps."""

    code = "unreachable"


class NotAChainError(IllegalMoveError):
    """A path given in full that is not a chain of jumps the piece can make."""

    code = "not_a_chain"


class LockInError(IllegalMoveError):
    """The move would lock in a piece of the other side (no step and no jump left)."""

    code = "locks_in"


class BadSetupError(BadOptionError):
    """A marble setup that is not 36 letters of the right colours in the right numbers
    (Corner's `setups` option); `details["problem"]` is "type", "length", "letter" or
    "count"."""

    code = "bad_setup"
