"""What clients see: a game's public state (GET /api/games/{id}, the socket's `state`) and
its lobby line. Every fact comes from the game's rules (`Rules.public_view`, `.outcome`,
`.to_move`); nothing here decides a rule, and the envelope is the same for every game: only
`board` and each seat's `view` are the game's own.
"""

from __future__ import annotations

from typing import Any

from engine.capabilities import Actions, Takebacks, capability
from engine.events import GameClosed, GameCreated
from engine.rules import abandoned, computer_names, is_practice, outcome_of
from server.realtime.presence import Presence
from server.tables.table import Table


def seat_name(table: Table, seat: int) -> str | None:
    """The name a seat goes by: its player's, the computer's ("Computer L3"; two computer
    seats of one level are numbered, "Computer L3 (1)" and "Computer L3 (2)"), or None for a
    seat nobody named (a guest: shown by its colour, and no ladder player). A player who left
    a game the computer plays on for them keeps their name."""
    record = table.seats[seat - 1]
    if record.kind == "computer" and not record.name:
        return computer_names([s.level if s.kind == "computer" and not s.name else None
                               for s in table.seats])[seat - 1]
    return record.name or None


def seat_names(table: Table) -> tuple[str, ...]:
    """Every seat's name for records and replays: a guest's is its colour ("Yellow")."""
    seats = seq_facts(table)["seats"]
    return tuple(seat_name(table, s) or seats[s]["colour"].capitalize() for s in seats)


def result(table: Table) -> dict[str, Any] | None:
    """The game's result once it is finished (a closed game's: abandoned), else None."""
    if not table.finished:
        return None
    outcome = outcome_of(table.game)
    if table.closed and table.game.closed is None:  # closed on the record only
        outcome = abandoned(outcome, "closed")
    return outcome.to_dict()


def _seq_facts(table: Table) -> dict[str, Any]:
    """Everything of the state that is a function of (seq, closed): built once per move and
    shared by every broadcast and GET until the game moves on (treat it as read-only)."""
    rules, state = table.rules, table.state
    view = rules.public_view(state)
    closed = table.closed
    finished = table.finished
    own = capability(rules, Actions)
    return {
        "game": table.record.game,
        "variant": table.variant,
        "options": table.options,
        "practice": is_practice(rules, state),
        "to_move": None if finished else rules.to_move(state),
        "board": view.board,
        "seats": {s: {"colour": seat.colour, "left": seat.left, "score": seat.score,
                      "can_move": seat.can_move and not closed,
                      "out_of_moves": seat.out_of_moves and not closed,
                      "actions": [] if finished or own is None
                      else list(own.available_actions(state, s)),
                      "view": seat.view}
                  for s, seat in enumerate(view.seats, start=1)},
        "result": result(table),
        "last_move": view.last_move,
        "last_step": last_step(table),
        "undo": undo_facts(table),
    }


def undo_facts(table: Table) -> dict[str, Any]:
    """Whether the game takes takebacks now, and the game's words for why not
    (`Rules.takeback_refusal`, the same check its `undo` refuses with)."""
    takebacks = capability(table.rules, Takebacks)
    reason = None if takebacks is None or table.finished else takebacks.takeback_refusal(
        table.state)
    return {"allowed": not reason, "reason": reason or None}


def last_step(table: Table) -> dict[str, Any] | None:
    """The latest event as a replay words it (`Rules.step`): {seq, kind, seat, text}; None
    at the start and once the host closed the game (`closed` says so)."""
    game = table.game
    event = game.events_since(game.seq - 1)[0]  # the last one, not a copy of the log
    if isinstance(event, (GameCreated, GameClosed)):
        return None
    step = table.rules.step(table.state, event)
    return {"seq": event.seq, "kind": step.kind, "seat": step.seat, "text": step.text}


def seq_facts(table: Table) -> dict[str, Any]:
    return table.memo("state", lambda: _seq_facts(table))


def presence_keys(table: Table) -> list[tuple[str, int]]:
    """The seats whose presence a state shows: every seat not played by the computer."""
    return [(table.id, s.seat) for s in table.seats if s.kind != "computer"]


def connected_seats(table: Table, presence: Presence) -> dict[tuple[str, int], bool] | None:
    """Whether each human seat is connected, asked in one round trip when presence is
    shared (Redis: `connected_many`); None to ask seat by seat."""
    many = getattr(presence, "connected_many", None)
    if many is None:
        return None
    return many(presence_keys(table))


def seat_body(table: Table, seat: int, presence: Presence,
              facts: dict[str, Any] | None = None,
              connected_map: dict[tuple[str, int], bool] | None = None) -> dict[str, Any]:
    record = table.seats[seat - 1]
    fixed = (facts or seq_facts(table))["seats"][seat]
    claimed = bool(record.token_hash) or record.kind == "computer"
    human = record.kind != "computer"
    if not human:
        connected = True
    elif connected_map is not None:
        connected = connected_map.get((table.id, seat), False)
    else:
        connected = presence.connected(table.id, seat)
    left = fixed["left"]
    return {
        "seat": seat,
        "colour": fixed["colour"],
        "kind": record.kind,
        "name": seat_name(table, seat),
        "level": record.level,
        "claimed": claimed,
        "connected": connected,
        "away": human and claimed and not connected and not left and not table.finished,
        "left": left,
        "score": fixed["score"],
        "can_move": fixed["can_move"],
        "out_of_moves": fixed["out_of_moves"],
        "actions": fixed["actions"] if human else [],
        "view": fixed["view"],
    }


def game_body(table: Table, presence: Presence) -> dict[str, Any]:
    """The full public state of a game; the caller holds `table.lock`.

    The board, scores and the seats' game facts come from `seq_facts` (built once per seq);
    only the seats' people and presence, the status and the pending takeback are read each
    time. The lists inside are shared between calls: callers serialise the body, never
    change it."""
    facts = seq_facts(table)
    connected = connected_seats(table, presence)
    return {
        "id": table.id,
        "game": facts["game"],
        "variant": facts["variant"],
        "options": facts["options"],
        "practice": facts["practice"],
        "status": table.status,
        "closed": table.closed,
        "seq": table.game.seq,
        "to_move": facts["to_move"],
        "board": facts["board"],
        "seats": [seat_body(table, s, presence, facts, connected) for s in facts["seats"]],
        "result": facts["result"],
        "last_move": facts["last_move"],
        "last_step": facts["last_step"],
        "undo": facts["undo"],
        "undo_request": table.undo_request.to_dict() if table.undo_request else None,
        "rematch_id": table.record.rematch_id,
    }


def presence_body(table: Table, presence: Presence) -> dict[str, Any]:
    """Who is connected and who is away, per seat (the socket's `presence` push)."""
    facts = seq_facts(table)
    connected = connected_seats(table, presence)
    seats = []
    for s in facts["seats"]:
        body = seat_body(table, s, presence, facts, connected)
        seats.append({"seat": s, "connected": body["connected"], "away": body["away"]})
    return {"game_id": table.id, "seats": seats}


def lobby_entry(table: Table) -> dict[str, Any]:
    """One line of the lobby: enough to pick a game to join or watch."""
    return {
        "id": table.id,
        "game": table.record.game,
        "variant": table.variant,
        "options": table.options,
        "practice": table.practice,
        "status": table.status,
        "seq": table.seq,
        "created_at": table.record.created_at,
        "updated_at": max(table.changed_at, table.record.created_at),
        "rematch_of": table.record.rematch_of,
        "seats": [{"seat": s.seat, "kind": s.kind, "name": seat_name(table, s.seat), "claimed":
                   bool(s.token_hash) or s.kind == "computer"} for s in table.seats],
        "open_seats": table.unclaimed() if not table.finished else [],
    }
