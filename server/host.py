"""One host's parts in one object: the store, the service, the ladder, the bot runner (with
its pool), the cluster of a several-process host, the LAN announcement, and the web layer's
own (the data dir's lock, the write limiter, the imported replays, the replay cache).
`create_app` makes it with `Host.build` and keeps it on the app; everything reaches it
through `host_of(app)` (or `current_host()` in a request).

`wire` is the one place the host's parts are subscribed to the service's news (the ladder,
the sockets' and the lobby's emitters, the bot runner, the analyses) and to each other; no
part subscribes itself."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app

import server.ladder.standings as L
from server.bots.analysis import Analyses
from server.bots.pool import BotPool, BotRunner
from server.ladder.tonight import Tonight
from server.store import StoreError
from server.tables.events import Appended, Listener, Synced, TableNews

if TYPE_CHECKING:
    from server.store import EventStore
    from server.tables.service import GameService
    from server.web.limits import DataDirLock, RateLimiter

#: The app's one extension key.
KEY = "cornerclaim"


@dataclass
class Host:
    store: EventStore
    service: GameService
    ladder: L.Ladder
    bots: BotRunner
    cluster: Any  # server.realtime.shared.Cluster, or None: one process
    lock: DataDirLock
    limiter: RateLimiter | None
    imports: Any  # server.web.ladder_api.ImportShelf
    replays: Any  # server.web.ladder_api.ReplayCache
    analyses: Analyses | None = None  # finished games' reviews
    tonight: Tonight | None = None  # the evening's standings
    #: What `start` announces on the LAN (None: nothing); `announcer` while it runs.
    announcement: Announcement | None = None
    announcer: Any = None  # server.lan.discovery.Announcer

    @classmethod
    def build(cls, *, store: EventStore, service: GameService, pool: BotPool, cluster: Any,
              lock: DataDirLock, limiter: RateLimiter | None, imports: Any, replays: Any,
              bot_delay: float, bot_lock_ttl: float, analysis_level: int | None,
              analysis_auto: bool,
              on_thinking: Callable[[str, int, bool], None] | None = None,
              on_analysis: Callable[[str, dict[str, Any]], None] | None = None) -> Host:
        """Make the host's parts over `service`: the ladder (from the games it folded) and
        tonight's standings, the bot runner on `pool`, the analyses. Nothing is subscribed
        yet (`wire`)."""
        ladder = L.Ladder(L.games_from_tables(service.tables(), store))
        runner = BotRunner(service, pool, delay=bot_delay, on_thinking=on_thinking,
                           lock_ttl=bot_lock_ttl)
        analyses = Analyses(service, store, runner, level=analysis_level, auto=analysis_auto,
                            on_progress=on_analysis)
        return cls(store=store, service=service, ladder=ladder, bots=runner, cluster=cluster,
                   lock=lock, limiter=limiter, imports=imports, replays=replays,
                   analyses=analyses, tonight=Tonight(ladder))

    def announce(self, announcement: Announcement) -> None:
        """Announce the host on the LAN from now until `stop` (mDNS, `server.lan`)."""
        from server.lan.discovery import Announcer, identity  # zeroconf only when announcing

        self.announcement = announcement
        tables = self.service.tables
        self.announcer = Announcer(
            announcement.address, announcement.port, version=announcement.version,
            open_games=lambda: sum(t.status == "open" for t in tables()),
            interfaces=announcement.interfaces, scheme=announcement.scheme,
            **identity(self.store, announcement.port, shared=announcement.shared)).start()

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
        """Stop the LAN announcement, the cluster and the bots, cancel the timers, close the
        store, free the data dir (the web server is stopped by its owner)."""
        if self.announcer is not None:
            self.announcer.stop()
            self.announcer = None
        if self.cluster is not None:
            self.cluster.stop()
        self.bots.stop()
        if self.analyses is not None:
            self.analyses.stop()
        self.bots.pool.shutdown()
        self.service.stop()
        self.store.close()
        self.lock.release()


@dataclass(frozen=True)
class Announcement:
    """What `Host.announce` says on the LAN: the address and port phones open, the host's
    version, the interfaces to announce on (None: all), the scheme, and whether the store is
    a club's (`shared`: each process is announced as one of the host's)."""

    address: str
    port: int
    version: str
    interfaces: list[str] | None = None
    scheme: str = "http"
    shared: bool = False


def wire(host: Host, *, emitters: Iterable[Listener] = (),
         on_tonight: Iterable[Callable[[dict[str, Any]], None]] = ()) -> None:
    """Subscribe the host's parts to the service's news, in this order: the ladder (a
    finished game is counted before anyone reads tonight's standings), the `emitters` (the
    sockets' and the lobby's pushes), the bot runner, the analyses; the analyses to the bot
    runner's idle and busy; `on_tonight` to tonight's standings."""
    listeners = host.service.listeners
    listeners.append(ladder_follower(host))
    listeners.extend(emitters)
    listeners.append(host.bots.on_news)
    if host.analyses is not None:
        listeners.append(host.analyses.on_news)
        host.bots.on_idle.append(host.analyses.runner_changed)
        host.bots.on_busy.append(host.analyses.runner_changed)
    if host.tonight is not None:
        host.tonight.listeners.extend(on_tonight)


def ladder_follower(host: Host) -> Listener:
    """The listener that adds a game to the ladder when it ends (Synced: a game another host
    process moved on or created), and tells tonight's standings."""
    ladder, tonight, store = host.ladder, host.tonight, host.store

    def on_news(news: TableNews) -> None:
        table = news.table
        if not isinstance(news, (Appended, Synced)) or table.id in ladder:
            return
        game = table.game
        if not game.rules.is_over(game.state):
            return
        try:
            at = L.finish_time(store, table.id, time.time())
        except StoreError:  # the database is away: the time it was heard of
            at = time.time()
        summary = L.summarise(table.id, at, game, list(table.seats))
        if summary is not None and ladder.add(summary) and tonight is not None \
                and at >= tonight.since:
            tonight.changed()

    return on_news


def host_of(app: Flask) -> Host:
    """The host `create_app` made for `app`."""
    return app.extensions[KEY]


def current_host() -> Host:
    """The host of the app handling this request."""
    return host_of(current_app)
