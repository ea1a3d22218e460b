"""The games this process holds: its tables by id, folded from the store at start-up, the
finished ones parked beyond the most recently used, and the periodic scan of a shared host."""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING

from engine import registry
from engine.core import Game
from engine.errors import EngineError
from server.errors import ApiError
from server.store import GameRecord, SeatRecord, StoreUnavailable, load_game
from server.tables.events import Scanned
from server.tables.table import Table

if TYPE_CHECKING:
    from server.tables.core import Core

log = logging.getLogger(__name__)


class TableSet:
    """Thread-safe: `lock` guards the set (a table's own lock guards the table)."""

    #: Finished games kept folded in memory (the most recently used); older ones are parked:
    #: a summary stays, the `Game` is folded again from the store when someone asks.
    KEEP_FINISHED = 32

    def __init__(self, core: Core) -> None:
        self.core = core
        self.lock = threading.Lock()
        self._tables: dict[str, Table] = {}
        self._loaded_finished: dict[str, Table] = {}  # finished games with their Game, LRU

    # -- start-up --------------------------------------------------------------------------
    def load(self) -> None:
        """Fold every stored game, then let each running one resume."""
        registry.games()  # the built-in games and their event types, before any log is read
        store = self.core.store
        last = store.finish_times()  # each game's latest event time, for the lobby's order
        for record in store.games():
            try:
                game = self.fold(record.id)
            except EngineError:
                log.exception("game %s: its stored log does not fold; skipped", record.id)
                continue
            table = self.new_table(record, game, store.seats(record.id))
            table.changed_at = last.get(record.id, record.created_at)
            self._tables[record.id] = table
        self.core.coord.start(self.all())
        for table in self.all():
            with table.lock:
                self._resume(table)

    def _resume(self, table: Table) -> None:
        """A running game's clock restarts now, its timer is armed, what chance left due is
        drawn, and seats that left and play on are computer seats. A game closed on its
        record before closing was an event gets its `game_closed` now."""
        core = self.core
        if table.record.closed and table.game.closed is None and not table.over:
            try:
                core.writes.commit(table, lambda g: g.close("closed"))
            except Exception:  # still shown as closed, from its record
                log.exception("game %s: could not log that it was closed", table.id)
        if table.finished:
            return
        core.clocks.resume(table)
        core.writes.draw_chance(table)
        for seat in sorted(table.left):
            core.seating.replace_leaver(table, seat)
        core.clocks.arm(table)

    def fold(self, game_id: str) -> Game:
        return load_game(self.core.store, game_id)

    def new_table(self, record: GameRecord, game: Game, seats: list[SeatRecord]) -> Table:
        return Table(record, game, seats, loader=lambda: self.fold(record.id))

    # -- the set ---------------------------------------------------------------------------
    def add(self, table: Table) -> Table:
        """Hold `table`, or the one already held under its id."""
        with self.lock:
            return self._tables.setdefault(table.id, table)

    def table(self, game_id: str) -> Table:
        """The game `game_id` (loaded from a shared store if another process made it);
        unknown_game if there is none."""
        with self.lock:
            table = self._tables.get(game_id)
        if table is None:
            table = self.core.coord.load_stored(game_id)
        if table is None:
            raise ApiError("unknown_game", f"there is no game {game_id!r}", game_id=game_id)
        self.touch(table)
        return table

    def held(self) -> dict[str, Table]:
        with self.lock:
            return dict(self._tables)

    def known(self) -> set[str]:
        with self.lock:
            return set(self._tables)

    def all(self) -> list[Table]:
        with self.lock:
            return list(self._tables.values())

    # -- memory: finished games ------------------------------------------------------------
    def touch(self, table: Table) -> None:
        """Note a use of a finished game; park the least recently used beyond KEEP_FINISHED."""
        if table.parked or not table.finished:
            return
        with self.lock:
            self._loaded_finished.pop(table.id, None)
            self._loaded_finished[table.id] = table
            excess = len(self._loaded_finished) - self.KEEP_FINISHED
            oldest = list(self._loaded_finished.values())[:max(excess, 0)]
        for old in oldest:
            if old is table or not old.lock.acquire(blocking=False):
                continue  # in use right now: parked on a later call
            try:
                if old.parked or old.park():
                    self.core.presence.forget(old.id)
                    with self.lock:
                        if self._loaded_finished.get(old.id) is old:
                            del self._loaded_finished[old.id]
            finally:
                old.lock.release()

    def park_finished(self) -> int:
        """Park every finished game (after start-up, once the ladder has read them)."""
        parked = 0
        for table in self.all():
            with table.lock:
                parked += table.park()
            with self.lock:
                self._loaded_finished.pop(table.id, None)
        return parked

    # -- a shared host's scan ----------------------------------------------------------------
    def scan(self) -> None:
        """Catch every game up and do the work that is due, once for the host: an expired
        takeback request, a flag that fell, a deal. (The bot runner hears `Scanned` and
        looks at computer seats.) Run every few seconds by each process of a shared host."""
        core = self.core
        if core.stopped:
            return
        try:
            core.coord.refresh()
        except StoreUnavailable:
            return  # the database is away: nothing can be done until it is back
        now = time.time()
        running = [t for t in self.all() if not t.parked and not t.finished]
        core.seating.scan_presence(running)
        for table in running:
            with table.lock:
                request = table.undo_request
                if request is not None and request.expires_at <= now:
                    core.takebacks.expire(table, request)
                deadline = table.deadline()
                if deadline is not None and deadline <= now and table.clock_timer is None:
                    core.clocks.arm(table)
                core.writes.draw_chance(table)
            core.notify(Scanned(table))
