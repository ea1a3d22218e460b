"""One host's parts in one object: the store, the service, the ladder, the bot runner (with
its pool), the cluster of a several-process host, and the web layer's own (the data dir's
lock, the write limiter, the imported replays, the replay cache). `create_app` makes it and
keeps it on the app; everything reaches it through `host_of(app)` (or `current_host()` in a
request)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app

if TYPE_CHECKING:
    from server.bots.pool import BotRunner
    from server.ladder.standings import Ladder
    from server.store import EventStore
    from server.tables.service import GameService
    from server.web.limits import DataDirLock, RateLimiter

#: The app's one extension key.
KEY = "cornerclaim"


@dataclass
class Host:
    store: EventStore
    service: GameService
    ladder: Ladder
    bots: BotRunner
    cluster: Any  # server.realtime.shared.Cluster, or None: one process
    lock: DataDirLock
    limiter: RateLimiter | None
    imports: Any  # server.web.ladder_api.ImportShelf
    replays: Any  # server.web.ladder_api.ReplayCache
    analyses: Any = None  # server.bots.analysis.Analyses: finished games' reviews
    tonight: Any = None  # server.ladder.tonight.Tonight: the evening's standings

    def start(self, *, bots: bool = True) -> None:
        """Start the bot runner (its workers warmed first, if asked) and the cluster's
        heartbeat and scan."""
        if bots:
            if self.bots.pool.warm_up:
                self.bots.pool.warm()  # workers start and warm up now, not at the first move
            self.bots.start()
            if self.analyses is not None:
                self.analyses.start()
        if self.cluster is not None:
            self.cluster.ticks.append(self.service.scan)
            self.cluster.start()

    def stop(self) -> None:
        """Stop the cluster and the bots, cancel the timers, close the store, free the data
        dir (the web server is stopped by its owner)."""
        if self.cluster is not None:
            self.cluster.stop()
        self.bots.stop()
        if self.analyses is not None:
            self.analyses.stop()
        self.bots.pool.shutdown()
        self.service.stop()
        self.store.close()
        self.lock.release()


def host_of(app: Flask) -> Host:
    """The host `create_app` made for `app`."""
    return app.extensions[KEY]


def current_host() -> Host:
    """The host of the app handling this request."""
    return host_of(current_app)
