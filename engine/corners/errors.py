"""Corners' errors: the shared ones (`engine.errors`) and the rules only Corners has (its
clock, draw offers, takebacks in a rated game with a clock, a move's path, a `.cgn` record)."""

from __future__ import annotations

from ..errors import *  # noqa: F403 - a Corners command may raise any shared error
from ..errors import IllegalMoveError, LogError, TurnError


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


class RecordError(LogError):
    """A `.cgn` record that cannot be read or replayed; the message names the line."""

    code = "bad_record"
