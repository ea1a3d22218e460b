"""What clients see: a game's public state (GET /api/games/{id}, the socket's `state`) and
its lobby line. Every fact comes from the engine's state (board, open corners, pieces left,
scores, outcome); nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

from engine.cornerclaim import RULES, PiecePlaced

from .presence import Presence
from .table import Table


def _seat_facts(table: Table, seat: int) -> dict[str, Any]:
    """The parts of a seat's line that change only with the seq (or the game closing)."""
    state = table.state
    return {
        "colour": state.variant.colours[seat - 1],
        "left": seat in state.left,
        "score": state.score(seat),
        "pieces_left": state.pieces_left(seat),
        "open_corners": state.open_corners(seat),
        "can_move": state.can_move(seat) and not table.record.closed,
    }


def _seq_facts(table: Table) -> dict[str, Any]:
    """Everything of the state that is a function of (seq, closed): built once per move and
    shared by every broadcast and GET until the game moves on (treat it as read-only)."""
    state = table.state
    finished = table.finished
    return {
        "variant": state.variant.name,
        "size": state.variant.size,
        "to_move": None if finished else state.to_move,
        "board": state.board(),
        "seats": {s: _seat_facts(table, s) for s in state.seats},
        "result": RULES.outcome(state).to_dict() if finished else None,
        "last_move": last_move(table),
    }


def seq_facts(table: Table) -> dict[str, Any]:
    return table.memo("state", lambda: _seq_facts(table))


def seat_body(table: Table, seat: int, presence: Presence,
              facts: dict[str, Any] | None = None) -> dict[str, Any]:
    record = table.seats[seat - 1]
    fixed = (facts or seq_facts(table))["seats"][seat]
    claimed = bool(record.token_hash) or record.kind == "computer"
    human = record.kind != "computer"
    connected = presence.connected(table.id, seat) if human else True
    left = fixed["left"]
    return {
        "seat": seat,
        "colour": fixed["colour"],
        "kind": record.kind,
        "name": record.name or (table.state.players[seat - 1] if claimed else None),
        "level": record.level,
        "claimed": claimed,
        "connected": connected,
        "away": human and claimed and not connected and not left and not table.finished,
        "left": left,
        "score": fixed["score"],
        "pieces_left": fixed["pieces_left"],
        "open_corners": fixed["open_corners"],
        "can_move": fixed["can_move"],
    }


def last_move(table: Table) -> dict[str, Any] | None:
    """The placement that counts last (after any takeback), or None."""
    placements = table.state.placements
    if not placements:
        return None
    seq, seat, move = placements[-1]
    event = table.game.events_since(seq - 1)[0]  # not `events`: that copies the whole log
    text = event.move if isinstance(event, PiecePlaced) else table.state.move_str(move)
    return {"seat": seat, "move": text, "seq": seq}


def game_body(table: Table, presence: Presence) -> dict[str, Any]:
    """The full public state of a game; the caller holds `table.lock`.

    The board, scores, pieces and corners come from `seq_facts` (built once per seq); only
    the seats' people and presence, the status and the pending takeback are read each time.
    The lists inside are shared between calls: callers serialise the body, never change it."""
    facts = seq_facts(table)
    return {
        "id": table.id,
        "variant": facts["variant"],
        "size": facts["size"],
        "status": table.status,
        "closed": table.record.closed,
        "seq": table.game.seq,
        "to_move": facts["to_move"],
        "board": facts["board"],
        "seats": [seat_body(table, s, presence, facts) for s in facts["seats"]],
        "result": facts["result"],
        "last_move": facts["last_move"],
        "undo_request": table.undo_request.to_dict() if table.undo_request else None,
        "rematch_id": table.record.rematch_id,
    }


def presence_body(table: Table, presence: Presence) -> dict[str, Any]:
    """Who is connected and who is away, per seat (the socket's `presence` push)."""
    facts = seq_facts(table)
    seats = []
    for s in facts["seats"]:
        body = seat_body(table, s, presence, facts)
        seats.append({"seat": s, "connected": body["connected"], "away": body["away"]})
    return {"game_id": table.id, "seats": seats}


def lobby_entry(table: Table) -> dict[str, Any]:
    """One line of the lobby: enough to pick a game to join or watch."""
    return {
        "id": table.id,
        "variant": table.variant,
        "status": table.status,
        "seq": table.seq,
        "created_at": table.record.created_at,
        "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "claimed":
                   bool(s.token_hash) or s.kind == "computer"} for s in table.seats],
        "open_seats": table.unclaimed() if not table.finished else [],
    }
