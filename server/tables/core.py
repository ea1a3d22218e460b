"""What the service's parts share: the store, the coordination of the host's processes, the
table set, presence, the listeners, and each part (write path, clocks, takebacks, seating,
creation, reads), so one part reaches another as `core.clocks.arm(table)`."""

from __future__ import annotations

import logging
import random
import time
from typing import Any

from server.store import EventStore
from server.tables.clocks import Clocks
from server.tables.coordination import Coordination
from server.tables.creation import Creation
from server.tables.events import Appended, Listener, StateChanged, Synced, TableNews
from server.tables.reads import Hinter, Reads
from server.tables.seating import Seating
from server.tables.table import Table
from server.tables.tableset import TableSet
from server.tables.takebacks import Takebacks
from server.tables.writes import WritePath

log = logging.getLogger(__name__)


class Core:
    def __init__(self, store: EventStore, coord: Coordination, presence: Any, *,
                 undo_timeout: float, away_grace: float, max_games: int,
                 hinter: Hinter | None) -> None:
        self.store = store
        self.coord = coord
        self.presence = presence
        self.listeners: list[Listener] = []
        #: The host's random source for what chance decides (`Rules.chance`: a deal).
        self.rng: random.Random = random.SystemRandom()
        self.stopped = False
        self.tables = TableSet(self)
        self.writes = WritePath(self)
        self.clocks = Clocks(self)
        self.takebacks = Takebacks(self, undo_timeout)
        self.seating = Seating(self, away_grace)
        self.creation = Creation(self, max_games)
        self.reads = Reads(self, hinter)
        coord.bind(self)

    def locked(self, game_id: str, *, reading: bool = False, at_seq: int | None = None) -> Any:
        """`with core.locked(game_id) as table`: the game's table, its lock held, caught up
        with the store (see `Coordination.locked`; `at_seq`: the seq a command acts on)."""
        return self.coord.locked(self.tables.table(game_id), reading, at_seq)

    def notify(self, news: TableNews) -> None:
        if isinstance(news, (Appended, StateChanged, Synced)):
            news.table.changed_at = time.time()
        for listener in list(self.listeners):
            try:
                listener(news)
            except Exception:  # a broken listener must not undo a committed move
                log.exception("listener failed on %s for game %s", news.kind, news.table.id)

    def table(self, game_id: str) -> Table:
        return self.tables.table(game_id)
