"""What clients see: a game's public state (GET /api/games/{id}, the socket's `state`) and
its lobby line. Every fact comes from the engine's state (board, open corners, pieces left,
scores, outcome); nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

from engine.cornerclaim import RULES, PiecePlaced

from .presence import Presence
from .table import Table


def seat_body(table: Table, seat: int, presence: Presence) -> dict[str, Any]:
    record = table.seats[seat - 1]
    state = table.state
    claimed = bool(record.token_hash) or record.kind == "computer"
    human = record.kind != "computer"
    connected = presence.connected(table.id, seat) if human else True
    left = seat in state.left
    return {
        "seat": seat,
        "colour": state.variant.colours[seat - 1],
        "kind": record.kind,
        "name": record.name or (state.players[seat - 1] if claimed else None),
        "level": record.level,
        "claimed": claimed,
        "connected": connected,
        "away": human and claimed and not connected and not left and not table.finished,
        "left": left,
        "score": state.score(seat),
        "pieces_left": state.pieces_left(seat),
        "open_corners": state.open_corners(seat),
        "can_move": state.can_move(seat) and not table.record.closed,
    }


def last_move(table: Table) -> dict[str, Any] | None:
    """The placement that counts last (after any takeback), or None."""
    placements = table.state.placements
    if not placements:
        return None
    seq, seat, move = placements[-1]
    event = table.game.events[seq - 1]
    text = event.move if isinstance(event, PiecePlaced) else table.state.move_str(move)
    return {"seat": seat, "move": text, "seq": seq}


def game_body(table: Table, presence: Presence) -> dict[str, Any]:
    """The full public state of a game; the caller holds `table.lock`."""
    state = table.state
    result = RULES.outcome(state).to_dict() if table.finished else None
    return {
        "id": table.id,
        "variant": state.variant.name,
        "size": state.variant.size,
        "status": table.status,
        "closed": table.record.closed,
        "seq": table.game.seq,
        "to_move": None if table.finished else state.to_move,
        "board": state.board(),
        "seats": [seat_body(table, s, presence) for s in state.seats],
        "result": result,
        "last_move": last_move(table),
        "undo_request": table.undo_request.to_dict() if table.undo_request else None,
        "rematch_id": table.record.rematch_id,
    }


def lobby_entry(table: Table) -> dict[str, Any]:
    """One line of the lobby: enough to pick a game to join or watch."""
    state = table.state
    return {
        "id": table.id,
        "variant": state.variant.name,
        "status": table.status,
        "seq": table.game.seq,
        "created_at": table.record.created_at,
        "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "claimed":
                   bool(s.token_hash) or s.kind == "computer"} for s in table.seats],
        "open_seats": table.unclaimed() if not table.finished else [],
    }
