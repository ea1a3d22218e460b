"""Time: every command passes the host's wall clock (`now=time.time()`). After every commit
the table's one timer is armed at `Rules.deadline` (a chess clock's flag); when it fires, the
event `Rules.expire` gives is committed like any other (a flag falls with nobody connected).
A command that arrives after a deadline whose timer has not fired yet first commits what is
due (`due`, committed by the write path). At start-up every running game gets
`Rules.resume`'s event, if any (the time the host was down is not charged), unless another
process of the host stayed up (`server.tables.upkeep`)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from engine.events import Event
from server.tables.table import Table
from server.tables.tableset import TableSet

log = logging.getLogger(__name__)

#: Seconds a clock's timer fires after its deadline (so the rules see the time is up).
SLACK = 0.005

#: on_deadline(table, timer): a table's timer fired (the write path commits what is due).
OnDeadline = Callable[[Table, threading.Timer], None]


class Clocks:
    """Each table's one timer. `on_deadline(table, timer)` runs when a timer fires; nothing
    is armed once `stopped` is set."""

    def __init__(self, tables: TableSet, stopped: threading.Event, *,
                 on_deadline: OnDeadline) -> None:
        self.tables = tables
        self.stopped = stopped
        self.on_deadline = on_deadline

    def arm(self, table: Table, *, at_least: float = 0.0) -> None:
        """(Re-)arm the table's one timer at its game's deadline, or none if it has none or
        is finished; the caller holds the lock."""
        old, table.clock_timer = table.clock_timer, None
        if old is not None:
            old.cancel()
        if self.stopped.is_set() or table.finished:
            return
        deadline = table.deadline()
        if deadline is None:
            return
        delay = max(deadline - time.time(), at_least) + SLACK

        def fire() -> None:
            self.on_deadline(table, timer)  # this timer: a re-armed table ignores it

        timer = threading.Timer(delay, fire)
        timer.daemon = True
        table.clock_timer = timer
        timer.start()

    @staticmethod
    def due(table: Table) -> Event | None:
        """The event the game's clock has made due by now (`Rules.expire`: a flag that
        fell), or None; the caller holds the lock."""
        if table.finished:
            return None
        clock, state = table.clock, table.state
        if clock is None:
            return None
        deadline = clock.deadline(state)
        now = time.time()
        if deadline is None or deadline > now:
            return None
        return clock.expire(state, now)

    def stop(self) -> None:
        """Cancel every timer (the host is shutting down)."""
        for table in self.tables.all():
            with table.lock:
                for timer in (table.clock_timer, table.undo_timer):
                    if timer is not None:
                        timer.cancel()
                table.clock_timer = None
