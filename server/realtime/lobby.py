"""Socket.IO for the screens that watch the whole room, not one game: the phones' lobby and
the table view (/tv). Pushed, never polled.

    watch_lobby   {}  -> {"ok": true, "games": [lobby entries], "tonight": tonight's body}
    unwatch_lobby {}  -> {"ok": true}

A watching socket is in the room `LOBBY` and hears:

    lobby    {"game": <lobby entry>}   a game was created or changed (a seat claimed, a
                                       move: its seq and status, over, closed): upsert by id
    tonight  <tonight's body>          the evening's standings changed (a game finished,
                                       a new evening)

The entries are the ones `GET /api/games` lists (`views.lobby_entry`), made under the game's
lock as the service announces the change, so they reach the room in the game's seq order.
Watching reads only; it holds no seat and sends no token.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from flask_socketio import SocketIO, join_room, leave_room

import server.tables.views as views
from server.realtime.sockets import acked
from server.tables.events import Appended, StateChanged, TableNews
from server.tables.service import GameService
from server.web.schemas import Strict

#: The room of every socket watching the lobby.
LOBBY = "lobby"


class Nothing(Strict):
    """A message with no fields."""


class LobbyEmitters(NamedTuple):
    """The lobby's pushes, subscribed by the host's wiring (`server.host.wire`): `news`
    to the service, `tonight` to tonight's standings."""

    news: Callable[[TableNews], None]
    tonight: Callable[[dict[str, Any]], None]


def init_lobby(socketio: SocketIO, service: GameService, tonight: Any) -> LobbyEmitters:
    """Register `watch_lobby`/`unwatch_lobby`; return the pushes of lobby entries as games
    change and of tonight's standings as they change (`tonight`:
    server.ladder.tonight.Tonight)."""

    def on_news(news: TableNews) -> None:
        if isinstance(news, (Appended, StateChanged)):
            socketio.emit("lobby", {"game": views.lobby_entry(news.table)}, to=LOBBY)

    def on_tonight(body: dict[str, Any]) -> None:
        socketio.emit("tonight", body, to=LOBBY)

    def watch(msg: dict) -> dict:
        join_room(LOBBY)
        return {"games": service.lobby(), "tonight": tonight.body()}

    def unwatch(msg: dict) -> dict:
        leave_room(LOBBY)
        return {}

    socketio.on_event("watch_lobby", acked(Nothing, watch))
    socketio.on_event("unwatch_lobby", acked(Nothing, unwatch))
    return LobbyEmitters(on_news, on_tonight)
