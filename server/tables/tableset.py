"""The games this process holds: its tables by id, folded from the store at start-up, and
the finished ones parked beyond the most recently used."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from engine import registry
from engine.core import Game
from engine.errors import EngineError
from server.errors import ApiError
from server.store import EventStore, GameRecord, SeatRecord, load_game
from server.tables.table import Table

log = logging.getLogger(__name__)


class TableSet:
    """Thread-safe: `lock` guards the set (a table's own lock guards the table)."""

    #: Finished games kept folded in memory (the most recently used); older ones are parked:
    #: a summary stays, the `Game` is folded again from the store when someone asks.
    KEEP_FINISHED = 32

    def __init__(self, store: EventStore, presence: Any, *,
                 load_stored: Callable[[str], Table | None]) -> None:
        """`load_stored(game_id)`: a game this process does not hold, folded from the store
        (one another process of the host created), or None."""
        self.store = store
        self.presence = presence
        self.load_stored = load_stored
        self.lock = threading.Lock()
        self._tables: dict[str, Table] = {}
        self._loaded_finished: dict[str, Table] = {}  # finished games with their Game, LRU

    # -- start-up --------------------------------------------------------------------------
    def load(self) -> None:
        """Fold every stored game (a log that does not fold is skipped)."""
        registry.games()  # the built-in games and their event types, before any log is read
        store = self.store
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

    def fold(self, game_id: str) -> Game:
        return load_game(self.store, game_id)

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
            table = self.load_stored(game_id)
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
                    self.presence.forget(old.id)
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
