"""What the host answers about a game without changing it: its state, the lobby, its log and
records, the legal moves of a seat and a hint. Each read takes the game's lock (caught up with
a shared store when it can be reached)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from engine.capabilities import Hints, Records, capability
from engine.core import Game
from engine.errors import EngineError, GameOverError, NotYourTurnError
from engine.events import Event, log_to_json
from engine.rules import legal_json
from server.errors import ApiError, from_engine
from server.store import StoreUnavailable
from server.tables import views
from server.tables.coordination import Coordination
from server.tables.table import Table
from server.tables.tableset import TableSet
from server.tables.writes import require_playing

#: hinter(game id, game, seq, seat) -> move text or None: where hints are computed (the
#: game's events up to `seq` are the position's).
Hinter = Callable[[str, Game, int, int], "str | None"]


class Reads:
    def __init__(self, coord: Coordination, tables: TableSet, presence: Any, *,
                 hinter: Hinter | None) -> None:
        self.coord = coord
        self.tables = tables
        self.presence = presence
        #: Where hints are computed (the bot pool's workers); None: in the caller's thread.
        self.hinter = hinter

    def state(self, game_id: str) -> dict[str, Any]:
        with self.coord.locked(game_id, reading=True) as table:
            return views.game_body(table, self.presence)

    def lobby(self) -> list[dict[str, Any]]:
        try:
            self.coord.refresh()
        except StoreUnavailable:
            pass  # the games this process holds
        result = []
        for table in self.tables.all():
            with table.lock:
                result.append(views.lobby_entry(table))
        return result

    def events_since(self, game_id: str, since: int) -> list[dict[str, Any]]:
        with self.coord.locked(game_id, reading=True) as table:
            return [e.to_dict() for e in table.game.events_since(max(since, 0))]

    def log_json(self, game_id: str) -> str:
        """The game's JSON log as a record to keep: its `game_created` names each seat as
        the game shows it (`views.seat_names`: who claimed it, "Computer L3")."""
        with self.coord.locked(game_id, reading=True) as table:
            return log_to_json(_named_events(table))

    def export(self, game_id: str, fmt: str) -> tuple[str, str, str]:
        """(game id, text, mimetype) of the game's record in its format `fmt`; no_such_format
        if its game has none by that name."""
        with self.coord.locked(game_id, reading=True) as table:
            rules = table.rules
            spec = rules.formats.get(fmt)
            records = capability(rules, Records)
            if spec is None or records is None:
                raise ApiError("no_such_format", f"{rules.title} has no .{fmt} records",
                               formats=sorted(rules.formats))
            try:
                named = Game.from_events(_named_events(table))
                return rules.game, records.export(named, fmt), spec.mimetype
            except EngineError as e:
                raise from_engine(e) from None

    def legal_json(self, game_id: str, seat: int, query: str | None = None,
                   seq: int | None = None) -> bytes:
        """The legal moves of `seat` now as compact JSON, built once per (seq, seat, query)
        from the rules' `legal_json`: a phone that asks again, or piece by piece, costs a
        dict lookup. `seq`: the seq the asker shows; on a host of several processes a table
        at that seq answers without first reading the store's head (the asker was pushed
        that event, so the table has it; a later event would be in the answer's `seq`)."""
        with self.coord.locked(game_id, reading=True, at_seq=seq) as table:
            table.seat(seat)
            return table.memo(("legal_json", seat, query),
                              lambda: _legal_bytes(table, seat, query))

    def hint(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        """The move the game's hint suggests for `seat` now (its token required; only on its
        turn). Computed by `hinter` outside the game's lock, once per seq."""
        with self.coord.locked(game_id, reading=True) as table:
            table.require_seat_token(seat, token)
            rules = table.rules
            hints = capability(rules, Hints)
            if hints is None or hints.hint_level is None:
                raise ApiError("no_hints", f"{rules.title} gives no hints", game=rules.game)
            require_playing(table)
            if table.finished:
                raise from_engine(GameOverError("the game is over"))
            if table.to_move != seat:
                raise from_engine(NotYourTurnError(
                    f"it is seat {table.to_move}'s turn, not seat {seat}'s",
                    to_move=table.to_move))
            seq = table.game.seq
            cached = table.memo(("hint", seat), dict)  # filled below once computed
            if cached:
                return cached["body"]
            game, state = table.game, table.state
        try:
            if self.hinter is not None:
                move = self.hinter(game_id, game, seq, seat)
            else:
                move = hints.hint(state, seat)
        except EngineError as e:
            raise from_engine(e) from None
        body = {"seat": seat, "seq": seq, "move": move}
        with table.lock:
            if table.game.seq == seq:
                table.memo(("hint", seat), dict)["body"] = body
        return body


def _legal_bytes(table: Table, seat: int, query: str | None) -> bytes:
    try:
        moves = legal_json(table.rules, table.state, seat, query)
    except EngineError as e:  # a query the game does not know (bad_piece)
        raise from_engine(e) from None
    if table.finished:  # closed by the host: the query was checked, nothing is legal
        moves = b"[]"
    head = json.dumps({"seat": seat, "seq": table.game.seq}, separators=(",", ":"))
    return b"".join((head[:-1].encode(), b',"moves":', moves, b"}"))


def _named_events(table: Table) -> list[Event]:
    """The game's log with its `game_created` naming the seats as the game shows them (the
    names given at creation may since have changed: a seat claimed, a computer seated)."""
    events = list(table.game.events)
    events[0] = dataclasses.replace(events[0], players=views.seat_names(table))
    return events
