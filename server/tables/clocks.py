"""Time: every command passes the host's wall clock (`now=time.time()`). After every commit
the table's one timer is armed at `Rules.deadline` (a chess clock's flag); when it fires, the
event `Rules.expire` gives is committed like any other (a flag falls with nobody connected).
A command that arrives after a deadline whose timer has not fired yet first commits what is
due (`catch_up`). At start-up every running game gets `Rules.resume`'s event, if any (the
time the host was down is not charged), unless another process of the host stayed up."""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING

from engine.errors import GameOverError
from server.errors import ApiError, from_engine
from server.tables.coordination import JOB_TTL
from server.tables.table import Table
from server.tables.writes import RETRY, appended

if TYPE_CHECKING:
    from server.tables.core import Core

log = logging.getLogger(__name__)

#: Seconds a clock's timer fires after its deadline (so the rules see the time is up).
SLACK = 0.005


class Clocks:
    def __init__(self, core: Core) -> None:
        self.core = core

    def resume(self, table: Table) -> None:
        """At start-up: a running game's clock restarts now (`Rules.resume`)."""
        try:
            clock = table.clock
            event = None if clock is None or self.core.coord.clocks_running() else \
                clock.resume(table.state, time.time())
            if event is not None:
                self.core.writes.commit(table, lambda g: appended(g, event))
        except Exception:  # a game that cannot resume must not keep the host from starting
            log.exception("game %s: could not resume its clock", table.id)

    def arm(self, table: Table, *, at_least: float = 0.0) -> None:
        """(Re-)arm the table's one timer at its game's deadline, or none if it has none or
        is finished; the caller holds the lock."""
        old, table.clock_timer = table.clock_timer, None
        if old is not None:
            old.cancel()
        if self.core.stopped or table.finished:
            return
        deadline = table.deadline()
        if deadline is None:
            return
        delay = max(deadline - time.time(), at_least) + SLACK

        def fire() -> None:
            self._deadline_reached(table, timer)  # this timer: a re-armed table ignores it

        timer = threading.Timer(delay, fire)
        timer.daemon = True
        table.clock_timer = timer
        timer.start()

    def _deadline_reached(self, table: Table, timer: threading.Timer) -> None:
        core = self.core
        with table.lock:
            if table.clock_timer is not timer or core.stopped:
                return  # re-armed or cancelled meanwhile
            table.clock_timer = None
            try:
                core.coord.sync(table)
                if not core.coord.take_flag(table):
                    self.arm(table, at_least=JOB_TTL)  # another process commits the flag
                    return
                self.catch_up(table)
            except ApiError:  # the game ended: nothing more is due
                return
            except Exception:
                log.exception("game %s: could not commit what its clock made due", table.id)
                self.arm(table, at_least=RETRY)
                return
            if table.clock_timer is None:
                self.arm(table)  # not due yet after all (the timer fired early)

    def catch_up(self, table: Table) -> None:
        """Commit what the game's clock has made due by now (a flag that fell) before a
        command runs on it; game_over if that ended the game. The caller holds the lock."""
        if table.finished:
            return
        clock, state = table.clock, table.state
        if clock is None:
            return
        deadline = clock.deadline(state)
        now = time.time()
        if deadline is None or deadline > now:
            return
        event = clock.expire(state, now)
        if event is None:
            return
        self.core.writes.commit(table, lambda g: appended(g, event))
        if table.finished:
            raise from_engine(GameOverError("the game is over: the time ran out",
                                            seq=table.game.seq))

    def stop(self) -> None:
        """Cancel every timer (the host is shutting down)."""
        for table in self.core.tables.all():
            with table.lock:
                for timer in (table.clock_timer, table.undo_timer):
                    if timer is not None:
                        timer.cancel()
                table.clock_timer = None
