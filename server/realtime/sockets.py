"""Socket.IO: one room per game, events pushed in seq order, commands with acknowledgements.

Every client→server event gets an acknowledgement: `{"ok": true, ...}` or the REST error
shape `{"error": {"code", "message", "details"}}`. Commands call the same `GameService`
methods as REST, so no check is written twice. The service announces changes while it holds
the game's lock; emitting only queues packets, so rooms see events in seq order and a
`join` (which also holds the lock) gets exactly the events a later broadcast will not repeat.
The full contract is in docs/api.md.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any, NamedTuple

import marshmallow as ma
from flask import request
from flask_socketio import SocketIO, join_room, leave_room
from marshmallow import fields, validate
from socketio.packet import Packet

import server.tables.views as views
import server.web.schemas as S
from engine import boundedjson
from server.errors import ApiError, error_body, from_store
from server.store import StoreError
from server.tables.events import Appended, PresenceChanged, StateChanged, TableNews, UndoChanged
from server.tables.service import GameService
from server.tables.table import Table
from server.web.limits import RateLimiter

log = logging.getLogger(__name__)

TOKEN = fields.String(validate=validate.Length(min=1, max=200))
GAME_ID = fields.String(required=True, validate=validate.Length(min=1, max=64))


class BoundedJson:
    """The JSON a packet is read and written with: read through engine.boundedjson (nesting
    and number length bounded before the parse), written as python-socketio writes it."""

    loads = staticmethod(boundedjson.loads)
    dumps = staticmethod(json.dumps)


class JsonPacket(Packet):
    """A Socket.IO packet of JSON only. The host never sends bytes, so python-socketio's scan
    of every pushed state for binary parts (a walk over the whole state, per push and per
    process) is skipped. What a client sends is read with its JSON bounded (`BoundedJson`):
    a packet past a bound fails to decode with a JsonLimitError, which server.realtime.guard
    answers."""

    uses_binary_events = False
    json = BoundedJson


class JoinMsg(S.Strict):
    game_id = GAME_ID
    last_seq = fields.Integer(load_default=0, strict=True, validate=S.SEQ)
    tokens = fields.List(TOKEN, load_default=list, validate=validate.Length(max=4))


class GameMsg(S.Strict):
    game_id = GAME_ID


class MoveMsg(S.MoveRequest):
    game_id = GAME_ID
    token = TOKEN


class ActionMsg(S.ActionRequest):
    game_id = GAME_ID
    token = TOKEN


class UndoMsg(S.UndoRequest):
    game_id = GAME_ID
    token = TOKEN


class UndoAnswerMsg(S.UndoAnswer):
    game_id = GAME_ID
    token = TOKEN


class SeatMsg(S.SeatOnly):
    game_id = GAME_ID
    token = TOKEN


#: Handlers that change something: each costs one write of the socket's rate limit.
WRITES = ("move", "action", "undo", "undo_answer", "leave", "declare_left")


def acked(schema: type[ma.Schema], fn: Callable[[dict], dict],
           limit: Callable[[], None] | None = None) -> Callable[..., dict]:
    """Validate the payload with `schema`, run `fn`, and turn any failure into an error ack.

    Any number of arguments is accepted so that a malformed emit (none, or several) gets an
    error ack rather than a TypeError inside Flask-SocketIO and no answer at all."""
    loader = schema()  # one instance for every message (building one per message cost 2 %)

    def handler(*args: Any) -> dict:
        try:
            if len(args) != 1 or not isinstance(args[0], dict):
                raise ApiError("bad_request", "the message must be one JSON object")
            if limit is not None:
                limit()
            try:
                msg = loader.load(args[0])
            except ma.ValidationError as e:
                raise ApiError("invalid_request", "the message is not valid",
                               errors=e.messages) from None
            return {"ok": True, **fn(msg)}
        except ApiError as e:
            return e.body()
        except StoreError as e:
            return from_store(e).body()
        except Exception:
            log.exception("socket handler failed")
            return error_body("internal", "the host failed on this message")

    return handler


def pushed_state(table: Table, presence: Any) -> dict[str, Any]:
    """The state the room is pushed with the table's latest event, built once per seq: the
    push and the REST answer to the command that made the event send the same dict. The
    caller holds `table.lock`."""
    return table.memo(PUSHED_STATE, lambda: views.game_body(table, presence))


PUSHED_STATE = "pushed_state"  # its key in `Table.memo`


class Emitters(NamedTuple):
    """What `init_realtime` gives the host's wiring: the listener that pushes the service's
    news to the game rooms (`server.host.wire` subscribes it) and the `thinking` emitter."""

    news: Callable[[TableNews], None]
    thinking: Callable[[str, int, bool], None]


def init_realtime(socketio: SocketIO, service: GameService,
                  limiter: RateLimiter | None = None) -> Emitters:
    """Register the handlers; return the room pushes (`Emitters`), subscribed by the host's
    wiring. `limiter` (writes per second per socket) applies to the handlers in WRITES."""

    def emit_state(news: TableNews) -> None:
        table = news.table
        room = table.id
        if isinstance(news, Appended):
            socketio.emit("event", {"game_id": room, "event": news.event,
                                    "state": pushed_state(table, service.presence)}, to=room)
        elif isinstance(news, StateChanged):
            socketio.emit("state", {"game_id": room,
                                    "state": views.game_body(table, service.presence)}, to=room)
        elif isinstance(news, PresenceChanged):
            socketio.emit("presence", news.body, to=room)
        elif isinstance(news, UndoChanged):
            socketio.emit("undo_request", {"game_id": room, **news.body}, to=room)

    def thinking(game_id: str, seat: int, value: bool) -> None:
        socketio.emit("thinking", {"game_id": game_id, "seat": seat, "thinking": value},
                      to=game_id)

    seen = getattr(socketio.server.manager, "seen", None)  # OrderedRedisManager's

    def join(msg: dict) -> dict:
        # In the room first, then the catch-up, under the game's lock: an event saved after
        # it (here or by another process) is pushed; one saved before is in the answer (an
        # event can be in both when another process saved it meanwhile: seq tells).
        join_room(service.table(msg["game_id"]).id)
        with service.locked(msg["game_id"]) as table:
            seats = service.join(request.sid, table.id, msg["tokens"])
            events = [e.to_dict() for e in table.game.events_since(msg["last_seq"])]
            if seen is not None:  # the room's pushes on this process start after this seq
                seen(table.id, table.game.seq)
            return {"seats": seats, "events": events,
                    "state": views.game_body(table, service.presence)}

    def unjoin(msg: dict) -> dict:
        leave_room(msg["game_id"])
        service.unjoin(request.sid, msg["game_id"])
        return {}

    def move(msg: dict) -> dict:
        return {"event": service.move(msg["game_id"], msg["seat"], msg["move"], msg["seq"],
                                      msg.get("token"))}

    def action(msg: dict) -> dict:
        return {"event": service.act(msg["game_id"], msg["seat"], msg["action"], msg["seq"],
                                     msg.get("token"))}

    def undo(msg: dict) -> dict:
        return service.undo(msg["game_id"], msg["seat"], msg["seq"], msg.get("token"),
                            device_tokens=msg.get("device_tokens", ()))

    def undo_answer(msg: dict) -> dict:
        return service.undo_answer(msg["game_id"], msg["seat"], msg["accept"], msg.get("token"))

    def leave(msg: dict) -> dict:
        return {"event": service.leave(msg["game_id"], msg["seat"], msg.get("token"))}

    def declare_left(msg: dict) -> dict:
        return {"event": service.declare_left(msg["game_id"], msg["seat"], msg.get("token"))}

    handlers = {
        "join": (JoinMsg, join), "unjoin": (GameMsg, unjoin), "move": (MoveMsg, move),
        "action": (ActionMsg, action), "undo": (UndoMsg, undo),
        "undo_answer": (UndoAnswerMsg, undo_answer),
        "leave": (SeatMsg, leave), "declare_left": (SeatMsg, declare_left),
    }
    def limit() -> None:
        limiter.check(f"sid:{request.sid}")

    for name, (schema, fn) in handlers.items():
        checked = limit if limiter is not None and name in WRITES else None
        socketio.on_event(name, acked(schema, fn, checked))

    def on_disconnect(reason: Any = None) -> None:
        # Only a real disconnect gets here: server.realtime.guard refuses a client's EVENT
        # named `disconnect`, which python-socketio would dispatch to this handler too.
        if limiter is not None:
            limiter.forget(f"sid:{request.sid}")
        service.disconnect(request.sid)

    socketio.on_event("disconnect", on_disconnect)

    return Emitters(emit_state, thinking)


def resync_rooms(socketio: SocketIO, service: GameService) -> None:
    """Send every game room this process serves its game's current state, to this process's
    sockets only: after the message queue was away, they may have missed events of other
    processes (the phone shows the state it is sent, and a rejoin fetches the events)."""
    rooms = list(socketio.server.manager.rooms.get("/", {}))
    known = service.known()
    for room in rooms:
        if room not in known:
            continue
        try:
            with service.locked(room) as table:
                socketio.emit("state", {"game_id": room,
                                        "state": views.game_body(table, service.presence)},
                              to=room, ignore_queue=True)
        except Exception:
            log.exception("could not resync the sockets of game %s", room)
