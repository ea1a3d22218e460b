"""The computer's review of finished games, run at low priority beside the computer seats.

`Analyses` takes a finished game's analysis (`POST /api/games/{id}/analysis`, or on its own
for a game against the computer once it ends, if no computer move is waiting), keeps it in
the store beside the game's log (`EventStore.put_analysis`: never in the log) and tells the
listeners (the socket layer's `analysis` push) after every move reviewed.

Low priority, three ways: the moves are reviewed one at a time (`analyse_in_worker`, a job
of a second small bot pool whose worker runs at the lowest priority, `nice` 19); the next
one is only sent while the bot runner has no computer move waiting or being computed in
this process; and while one is, the analysis worker is stopped where it is (SIGSTOP, then
SIGCONT: `BotPool.pause`, `resume`; the reviews count positions or CPU time, never the
wall clock, so a pause changes no answer). So a table's computer move never waits behind an
analysis: its job goes to the bot pool at once, and its worker has the CPU to itself as
far as the analysis goes (`scripts/bench_analysis.py` measures it; docs/performance.md).

A done analysis is never computed again. An analysis under way is this process's; with
several host processes another one takes it up (from the move it had reached) when it has
not moved on for `STALE` seconds, and one process at a time (`once`). A host restarted
takes up the unfinished analyses it finds in the store.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from engine import registry
from engine.analysis import body as analysis_body
from engine.analysis import end_value, moves_of
from engine.capabilities import Analysis, capability
from server.bots.pool import BotPool
from server.bots.worker import analyse_in_worker
from server.errors import ApiError
from server.store import AnalysisRecord
from server.tables.coordination import NoLock
from server.tables.events import Appended, TableNews

log = logging.getLogger(__name__)

#: Seconds an unfinished analysis may stand still before another process takes it up.
STALE = 60.0
#: The analysis lane's workers run this much below the host's priority.
NICE = 19


class Analyses:
    """Every game's analysis on this host process. Thread-safe.

    `runner`: the bot runner (a move is sent only while `runner.idle()`); `pool`: the
    low-priority pool the moves are reviewed in (made here if None); `level`: the level the
    games review at (None: each game's analysis); `auto`: analyse a game against the
    computer when it ends; `on_progress(game_id, body)`: told after every change. It
    subscribes to nothing itself: `server.host.wire` gives it the service's news (`on_news`)
    and the runner's idle and busy (`runner_changed`)."""

    def __init__(self, service, store, runner, *, pool: BotPool | None = None,
                 level: int | None = None, auto: bool = True,
                 on_progress: Callable[[str, dict[str, Any]], None] | None = None) -> None:
        self.service = service
        self.store = store
        self.runner = runner
        self.pool = pool if pool is not None else BotPool(1, warm=False, nice=NICE)
        self.level = level
        self.auto = auto
        self.on_progress: list[Callable[[str, dict[str, Any]], None]] = (
            [on_progress] if on_progress else [])
        self._lock = threading.Lock()
        self._queue: deque[str] = deque()
        self._jobs: dict[str, tuple[AnalysisRecord, str]] = {}  # game -> (record, log)
        self._running: str | None = None  # the game whose move the pool is reviewing
        self._wanted: deque[str] = deque()  # games that ended, to analyse once idle
        self._wake = threading.Event()
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._pause_lock = threading.Lock()

    # -- the host --------------------------------------------------------------------------
    def start(self) -> None:
        """Start sending moves to the pool, and take up the unfinished analyses in the
        store that no process is working on."""
        self._thread = threading.Thread(target=self._loop, daemon=True, name="analyses")
        self._thread.start()
        try:
            unfinished = self.store.analyses(("queued", "running"))
        except Exception:
            log.exception("could not read the unfinished analyses")
            return
        # one process: the unfinished ones are this host's; a club's: the ones left standing
        alone = isinstance(self.service.once, NoLock)
        for record in unfinished:
            if not alone and not self._stale(record):
                continue
            try:
                self._take_up(record)
            except Exception:
                log.exception("could not take up the analysis of game %s", record.game_id)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
        self._wake.set()
        self.pool.shutdown(kill=True)  # a move under way is reviewed again after a restart

    def runner_changed(self) -> None:
        """A computer move started (pause the analysis worker where it is) or the last one
        ended (let it go on, and send the next move)."""
        with self._pause_lock:  # the last caller sees the runner as it is now
            if self.runner.idle():
                self.pool.resume()
                self._wake.set()
            else:
                self.pool.pause()

    # -- asking ----------------------------------------------------------------------------
    def request(self, game_id: str) -> dict[str, Any]:
        """Start the game's analysis (or give the one there is); 409 while it is played."""
        with self.service.locked(game_id, reading=True) as table:  # as the store has it
            finished = table.finished
        if not finished:
            raise ApiError("game_in_play", "a game is analysed once it has ended: this one "
                           "is still being played", status=409)
        if capability(table.rules, Analysis) is None:
            raise ApiError("no_analysis", f"{table.rules.title} has no computer analysis",
                           status=409)
        with self._lock:
            job = self._jobs.get(table.id)
        if job is not None:
            return self.body(job[0])
        record = self.store.analysis(table.id)
        if record is not None and (record.status == "done" or not self._stale(record)):
            return self.body(record)
        return self.body(self._take_up(record, table.id))

    def get(self, game_id: str) -> dict[str, Any]:
        """The game's analysis as it stands (404 if nobody asked for one)."""
        table = self.service.table(game_id)
        with self._lock:
            job = self._jobs.get(table.id)
        record = job[0] if job is not None else self.store.analysis(table.id)
        if record is None:
            raise ApiError("no_analysis", "this game has not been analysed: POST to start",
                           status=404, game_id=table.id)
        if job is None and record.status != "failed" and self._stale(record):
            record = self._take_up(record)  # its process stopped: this one goes on with it
        return self.body(record)

    def body(self, record: AnalysisRecord) -> dict[str, Any]:
        unit = end = None
        table = self.service.table(record.game_id)
        analyst = capability(table.rules, Analysis)
        if analyst is not None:
            unit = analyst.analysis_thresholds.unit
            end = end_value(table.game, unit)
        done = len(record.plies)
        progress = 1.0 if record.status == "done" else (done / record.total if record.total
                                                          else 0.0)
        return analysis_body(record.game_id, record.status, progress, unit, record.level, end,
                             record.plies, record.error)

    # -- the work --------------------------------------------------------------------------
    def _stale(self, record: AnalysisRecord) -> bool:
        return record.status in ("queued", "running") and time.time() - record.updated > STALE \
            or record.status == "failed"

    def _take_up(self, record: AnalysisRecord | None, game_id: str | None = None
                 ) -> AnalysisRecord:
        """Queue the analysis of the game (`record`'s, from where it stands, or a new one)."""
        game_id = record.game_id if record is not None else game_id
        assert game_id is not None
        log_json = self.service.log_json(game_id)
        game = self.service.table(game_id).game
        total = len(moves_of(game))
        if record is None or record.status == "failed" or record.seq != game.seq:
            record = AnalysisRecord(game_id, "queued", total, [], self.level, game.seq)
        plies = len(record.plies)
        if not self.service.once.take(f"analysis:{game_id}:{plies}", STALE):
            return record
        record.updated = time.time()
        record.status = "queued" if plies < total else "done"
        self.store.put_analysis(record)
        if record.status == "done":
            return record
        self._told(record)  # queued: told before the first move can be reviewed
        with self._lock:
            self._jobs[game_id] = (record, log_json)
            self._queue.append(game_id)
        log.info("game %s: analysis queued (%d of %d moves reviewed)", game_id, plies, total)
        self._wake.set()
        return record

    def on_news(self, news: TableNews) -> None:
        """A game against the computer that just ended is analysed if the pool is idle."""
        if not self.auto or not isinstance(news, Appended):
            return
        table = news.table
        if not table.finished or not any(s.kind == "computer" for s in table.seats):
            return
        if capability(table.rules, Analysis) is None:
            return
        with self._lock:
            self._wanted.append(table.id)
        self._wake.set()

    def _auto(self, game_id: str) -> None:
        try:
            with self._lock:
                if game_id in self._jobs:
                    return
            record = self.store.analysis(game_id)
            if record is None or self._stale(record) and record.status != "failed":
                self._take_up(record, game_id)
        except Exception:
            log.exception("game %s: could not start its analysis", game_id)

    def _loop(self) -> None:
        while True:
            self._wake.wait()
            with self._lock:
                self._wake.clear()
                if self._stopped:
                    return
                if not self.runner.idle():  # a computer move goes first: wait for idle
                    continue
                wanted, self._wanted = self._wanted, deque()
            for game_id in wanted:  # games against the computer that ended meanwhile
                self._auto(game_id)
            with self._lock:
                if self._running is not None or not self._queue:
                    continue
                game_id = self._queue[0]
                record, log_json = self._jobs[game_id]
                self._running = game_id
            index = len(record.plies)
            if record.status != "running":
                record.status = "running"
            self.pool.submit(analyse_in_worker, log_json, index, record.level,
                             registry.modules(),
                             done=lambda ply, error, g=game_id: self._reviewed(g, ply, error))

    def _reviewed(self, game_id: str, ply: dict | None, error: BaseException | None) -> None:
        with self._lock:
            if self._stopped:  # the host stops: the analysis stays unfinished, taken up later
                return
            record, _ = self._jobs[game_id]
        if error is not None:
            log.error("game %s: analysis failed at move %d: %r", game_id,
                      len(record.plies) + 1, error)
            record.status, record.error = "failed", f"the review of move " \
                f"{len(record.plies) + 1} failed"
        elif ply is None:
            record.status = "done"
        else:
            record.plies.append(ply)
            if len(record.plies) >= record.total:
                record.status = "done"
        record.updated = time.time()
        finished = record.status in ("done", "failed")
        try:
            self.store.put_analysis(record)
        except Exception:
            log.exception("game %s: could not store its analysis", game_id)
            if not finished:  # another try from this move once the store is back
                record.plies = record.plies[:-1] if ply is not None else record.plies
        if finished:
            log.info("game %s: analysis %s (%d moves)", game_id, record.status,
                     len(record.plies))
        with self._lock:
            self._running = None
            if finished:
                self._jobs.pop(game_id, None)
                if self._queue and self._queue[0] == game_id:
                    self._queue.popleft()
        self._told(record)
        self._wake.set()

    def _told(self, record: AnalysisRecord) -> None:
        body = None
        for listener in self.on_progress:
            try:
                body = body or self.body(record)
                listener(record.game_id, body)
            except Exception:
                log.exception("analysis listener failed")

    def busy(self) -> bool:
        """Whether an analysis is queued or under way in this process."""
        with self._lock:
            return bool(self._queue) or self._running is not None
