"""Corner Claim's errors: the shared ones (`engine.errors`) and the rules only Corner Claim has
(a placement's shape and contacts, passing, a legal-list query's piece)."""

from __future__ import annotations

from ..errors import *  # noqa: F403 - a Corner Claim command may raise any shared error
from ..errors import EngineError, IllegalMoveError, TurnError


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


class CannotPassError(TurnError):
    code = "cannot_pass"


class NoSuchPieceError(EngineError):
    """A piece name that is not one of the game's pieces (a legal-list query)."""

    code = "bad_piece"
    family = "illegal"
