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
from server.tables.writes import Action, WritePath, require_playing

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
        def check(table: Table) -> None:
            table.require_seat_token(seat, token)
            require_playing(table)

        def decide(table: Table) -> Action | None:
            if table.over:
                raise from_engine(GameOverError("the game is over: no more takebacks"))
            mine = {s for t in device_tokens for s in table.seats_of(t)}
            others = [s for s in table.humans()
                      if not table.same_device(seat, s) and s not in mine]
            if not others:
                return lambda g: g.undo(seat, seq=seq, now=time.time())
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
            self._ask(table, UndoRequest(seat, seq, others, expires_in=self.timeout,
                                         expires_at=time.time() + self.timeout))
            return None

        return self.writes.command(game_id, decide, check=check, answer=_answer)

    def _ask(self, table: Table, request: UndoRequest) -> None:
        """Keep the request where every process sees it, time it out, announce it."""
        self.coord.save_undo(table, request)
        table.undo_request = request
        timer = threading.Timer(self.timeout, self.expire, (table, request))
        timer.daemon = True
        table.undo_timer = timer
        timer.start()
        self.notify(UndoChanged(table, {"undo_request": request.to_dict()}))

    def answer(self, game_id: str, seat: int, accept: bool,
               token: str | None) -> dict[str, Any]:
        def decide(table: Table) -> Action | None:
            request = table.undo_request
            if request is None or seat not in request.waiting:
                raise ApiError("no_undo_request", f"no takeback is waiting for seat {seat}")
            if not accept:
                self.coord.save_undo(table, None)
                self.drop(table, reason="declined", by=seat)
                return None
            request = dataclasses.replace(
                request, waiting=[s for s in request.waiting if s != seat],
                accepted=[*request.accepted, seat])
            if request.waiting:
                self.coord.save_undo(table, request)
            table.undo_request = request
            if not request.waiting:  # everyone accepted: taken back
                return lambda g: g.undo(request.seat, seq=request.seq, now=time.time())
            self.notify(UndoChanged(table, {"undo_request": request.to_dict()}))
            return None

        return self.writes.command(game_id, decide,
                                   check=lambda table: table.require_seat_token(seat, token),
                                   answer=_answer)

    def expire(self, table: Table, request: UndoRequest) -> None:
        """The request's time is up: dropped, once for the host, if it is still pending."""
        def check(table: Table) -> bool:
            return table.undo_request is not None and \
                table.undo_request.key() == request.key()

        def decide(table: Table) -> None:
            self.coord.save_undo(table, None)  # one process wins; the others read it
            self.drop(table, reason="timeout")

        try:
            self.writes.command(table.id, decide, check=check, clock=False)
        except Exception:
            log.info("game %s: the takeback request's timeout went to another process "
                     "or the store is away", table.id)

    def drop(self, table: Table, *, reason: str, by: int | None = None) -> None:
        """Drop the pending request (if any) and announce why."""
        news = undo_dropped(table, reason=reason, by=by)
        if news is not None:
            self.notify(news)


def _answer(table: Table, event: dict[str, Any] | None) -> dict[str, Any]:
    """A takeback command's answer: the event if the move was taken back, else the request
    still waiting (None once declined)."""
    request = None if event is not None or table.undo_request is None else \
        table.undo_request.to_dict()
    return {"event": event, "undo_request": request}
