"""What the host does by itself, with no command asking: at start-up each running game's
clock resumes, what chance left due is drawn and seats that left are played on; on a shared
host, the periodic scan catches every game up and does the work that is due."""

from __future__ import annotations

import logging
import threading
import time

from server.store import StoreUnavailable
from server.tables.clocks import Clocks
from server.tables.coordination import Coordination
from server.tables.events import Notify, Scanned
from server.tables.seating import Seating
from server.tables.table import Table
from server.tables.tableset import TableSet
from server.tables.takebacks import Takebacks
from server.tables.writes import Action, WritePath, appended, doing, nothing

log = logging.getLogger(__name__)


class Upkeep:
    def __init__(self, coord: Coordination, tables: TableSet, writes: WritePath,
                 clocks: Clocks, seating: Seating, takebacks: Takebacks, notify: Notify, *,
                 stopped: threading.Event) -> None:
        self.coord = coord
        self.tables = tables
        self.writes = writes
        self.clocks = clocks
        self.seating = seating
        self.takebacks = takebacks
        self.notify = notify
        self.stopped = stopped

    # -- start-up --------------------------------------------------------------------------
    def start(self) -> None:
        """After the games were folded: the coordination's start, then each game resumes."""
        tables = self.tables.all()
        self.coord.start(tables)
        for table in tables:
            with table.lock:
                self.resume(table)

    def resume(self, table: Table) -> None:
        """A running game's clock restarts now, its timer is armed, what chance left due is
        drawn, and seats that left and play on are computer seats. A game closed on its
        record before closing was an event gets its `game_closed` now. Each through the
        write path, on the table caught up at start-up."""
        writes = self.writes
        if table.record.closed and table.game.closed is None and not table.over:
            try:
                writes.command(table, doing(lambda g: g.close("closed")), clock=False)
            except Exception:  # still shown as closed, from its record
                log.exception("game %s: could not log that it was closed", table.id)
        if table.finished:
            return
        try:  # the clock restarts, then what chance left due is drawn
            writes.command(table, self._resumed, clock=False)
        except Exception:  # a game that cannot resume must not keep the host from starting
            log.exception("game %s: could not resume its clock", table.id)
        writes.command(table, self._replace_leavers, clock=False)
        self.clocks.arm(table)

    def _resumed(self, table: Table) -> Action | None:
        """`Rules.resume`'s event (a running clock restarts now), unless another process of
        the host kept the game's clock running."""
        clock = table.clock
        if clock is None or self.coord.clocks_running():
            return None
        event = clock.resume(table.state, time.time())
        return None if event is None else (lambda g: appended(g, event))

    def _replace_leavers(self, table: Table) -> None:
        self.seating.replace_leavers(table)

    # -- a shared host's scan ----------------------------------------------------------------
    def scan(self) -> None:
        """Catch every game up and do the work that is due, once for the host: an expired
        takeback request, a flag that fell, a deal. (The bot runner hears `Scanned` and
        looks at computer seats.) Run every few seconds by each process of a shared host."""
        if self.stopped.is_set():
            return
        try:
            self.coord.refresh()
        except StoreUnavailable:
            return  # the database is away: nothing can be done until it is back
        now = time.time()
        running = [t for t in self.tables.all() if not t.parked and not t.finished]
        self.seating.scan_presence(running)
        for table in running:
            with table.lock:
                request = table.undo_request
                if request is not None and request.expires_at <= now:
                    self.takebacks.expire(table, request)
                deadline = table.deadline()
                if deadline is not None and deadline <= now and table.clock_timer is None:
                    self.clocks.arm(table)
                self.writes.command(table, nothing, clock=False)  # a deal left due
            self.notify(Scanned(table))
