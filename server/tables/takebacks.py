"""Takebacks: at once when everyone at the table sits at the requester's device, else a
request every person at another device must accept before it lapses (computers are not
asked). A pending request is dropped by any new event; on a shared host it is kept on the
game's record, so any process answers it and times it out."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

from engine.errors import EngineError, GameOverError, StaleSeqError
from server.errors import ApiError, from_engine
from server.tables.coordination import Coordination
from server.tables.events import Notify, UndoChanged, undo_dropped
from server.tables.table import Table, UndoRequest
from server.tables.writes import WritePath, require_playing

log = logging.getLogger(__name__)


class Takebacks:
    def __init__(self, writes: WritePath, coord: Coordination, notify: Notify, *,
                 timeout: float) -> None:
        self.writes = writes
        self.coord = coord
        self.notify = notify
        self.timeout = timeout

    def undo(self, game_id: str, seat: int, seq: int, token: str | None, *,
             device_tokens: Iterable[str] = ()) -> dict[str, Any]:
        with self.coord.locked(game_id) as table:
            table.require_seat_token(seat, token)
            require_playing(table)
            self.writes.catch_up(table)
            if table.over:
                raise from_engine(GameOverError("the game is over: no more takebacks"))
            mine = {s for t in device_tokens for s in table.seats_of(t)}
            others = [s for s in table.humans()
                      if not table.same_device(seat, s) and s not in mine]
            if not others:
                event = self.writes.commit(table, lambda g: g.undo(seat, seq=seq,
                                                                   now=time.time()))
                return {"event": event, "undo_request": None}
            if table.undo_request is not None:
                raise ApiError("undo_pending", "a takeback is already waiting for an answer",
                               undo_request=table.undo_request.to_dict())
            if seq != table.game.seq:
                raise from_engine(StaleSeqError(
                    f"the game has moved on: you acted on {seq}, the latest is "
                    f"{table.game.seq}", latest=table.game.seq))
            try:
                table.game.rules.undo(table.state, seat, now=time.time())  # anything to take back?
            except EngineError as e:
                raise from_engine(e) from None
            request = UndoRequest(seat, seq, others, expires_in=self.timeout,
                                  expires_at=time.time() + self.timeout)
            self.coord.save_undo(table, request)
            table.undo_request = request
            timer = threading.Timer(self.timeout, self.expire, (table, request))
            timer.daemon = True
            table.undo_timer = timer
            timer.start()
            self.notify(UndoChanged(table, {"undo_request": request.to_dict()}))
            return {"event": None, "undo_request": request.to_dict()}

    def answer(self, game_id: str, seat: int, accept: bool,
               token: str | None) -> dict[str, Any]:
        with self.coord.locked(game_id) as table:
            table.require_seat_token(seat, token)
            request = table.undo_request
            if request is None or seat not in request.waiting:
                raise ApiError("no_undo_request", f"no takeback is waiting for seat {seat}")
            if not accept:
                self.coord.save_undo(table, None)
                self.drop(table, reason="declined", by=seat)
                return {"event": None, "undo_request": None}
            request = dataclasses.replace(
                request, waiting=[s for s in request.waiting if s != seat],
                accepted=[*request.accepted, seat])
            if request.waiting:
                self.coord.save_undo(table, request)
            table.undo_request = request
            if request.waiting:
                self.notify(UndoChanged(table, {"undo_request": request.to_dict()}))
                return {"event": None, "undo_request": request.to_dict()}
            self.writes.catch_up(table)
            event = self.writes.commit(table, lambda g: g.undo(request.seat, seq=request.seq,
                                                               now=time.time()))
            return {"event": event, "undo_request": None}

    def expire(self, table: Table, request: UndoRequest) -> None:
        with table.lock:
            try:
                self.coord.sync(table)
                if table.undo_request is None or \
                        table.undo_request.key() != request.key():
                    return
                self.coord.save_undo(table, None)  # one process wins; the others read it
            except Exception:
                log.info("game %s: the takeback request's timeout went to another process "
                         "or the store is away", table.id)
                return
            self.drop(table, reason="timeout")

    def drop(self, table: Table, *, reason: str, by: int | None = None) -> None:
        """Drop the pending request (if any) and announce why."""
        news = undo_dropped(table, reason=reason, by=by)
        if news is not None:
            self.notify(news)
