"""Computer seats play by themselves, computed in a separate process pool.

Why processes: a strong bot is CPU-bound pure Python, and the GIL would make every request,
socket and other game wait while it thinks. The pool uses the *spawn* context (the same on
Linux, macOS and Windows, and safe with the web server's threads) and leaves one core to the
web server. A worker keeps the games it folded; a job sends it the game's events since the
pool's last job for that game (`Feed`, `BotPool.game_job`: the whole log to a worker that kept
none), and the worker asks the game's rules (`Computer.choose_move`) from the state; the move
text comes back and goes through the same service command as a person's move (seq-checked,
so a takeback meanwhile just discards it). A job
names the modules that register the host's games besides the built-ins
(`engine.registry.modules`), which the worker imports first, so it knows every game the host
serves. Hints (`Rules.hint`) are computed in the same pool (`BotPool.call`).

If a worker dies (killed, out of memory) the pool is broken: the runner replaces the pool and
retries the job. While a bot computes, listeners hear `thinking` (true, then false).

Every worker warms up when it starts, in the background (`start_worker`: a thread per game
runs its `Rules.warm_up`, which for Corner Claim compiles its search kernels or loads them
from numba's cache), and the host starts its workers with the bots (`BotPool.warm`). The
worker takes jobs at once: until a game's warm-up has ended, its moves and hints come from
the game's `quick_move` (Corner Claim's calls nothing compiled and answers in a fraction of a
second), or wait for the warm-up if the game has none. So the first computer move of a
fresh install, whose warm-up compiles for 20–60 s, comes as quickly as the later ones
(docs/performance.md, "First move"). A worker also ends when the host process does, however
the host ended.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine import registry
from engine.capabilities import Actions, capability
from engine.core import Game
from server.bots.worker import Behind, Feed, _nothing, choose_in_worker, start_worker
from server.tables.events import Appended, Learned, Scanned, StateChanged, Synced, TableNews

log = logging.getLogger(__name__)

MAX_RETRIES = 3
SENT_GAMES = 1024  # at most this many games' last seqs kept (`BotPool.feed`)

def default_workers() -> int:
    """Every core but one (for the web server), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class BotPool:
    """A spawn-context ProcessPoolExecutor that replaces itself when a worker dies."""

    def __init__(self, workers: int | None = None, *, warm: bool = True, nice: int = 0) -> None:
        self.workers = workers or default_workers()
        self.warm_up = warm
        self.nice = nice  # how much lower than the host's its workers' priority is
        self._paused = False
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        #: game id -> the seq of the last `Feed` this pool sent for it (`game_job`)
        self._sent: dict[str, int] = {}

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the bot pool is shut down")
            if self._pool is None:
                ctx = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx,
                                                 initializer=start_worker,
                                                 initargs=(self.warm_up, registry.modules(),
                                                           self.nice))
            return self._pool

    def warm(self) -> None:
        """Start every worker now (each warms up as it starts) instead of at the first job.

        The executor starts a worker per job while fewer than `workers` run, so one trivial
        job per worker starts them all."""
        pool = self._executor()
        for _ in range(self.workers):
            pool.submit(_nothing)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is broken:
                self._pool = None
                self._sent.clear()  # the new workers keep no game
        broken.shutdown(wait=False, cancel_futures=True)

    def submit(self, fn: Callable[..., Any], *args: Any,
               done: Callable[[Any, BaseException | None], None]) -> None:
        """Run `fn(*args)` in a worker; call `done(result, error)` from a pool thread.

        A BrokenProcessPool (at submit or in the future) replaces the pool and retries up to
        MAX_RETRIES times; other exceptions are passed to `done`.
        """
        self._submit(fn, args, done, 0)

    def _submit(self, fn, args, done, attempt: int) -> None:
        try:
            pool = self._executor()
            future = pool.submit(fn, *args)
        except BrokenProcessPool:
            self._retry(pool, fn, args, done, attempt, BrokenProcessPool("broken at submit"))
            return
        except RuntimeError as e:  # shut down
            done(None, e)
            return

        def finished(f: Future) -> None:
            try:
                result = f.result()
            except BrokenProcessPool as e:
                if self._closed:  # its workers were ended with it (`shutdown(kill=True)`)
                    done(None, e)
                else:
                    self._retry(pool, fn, args, done, attempt, e)
            except BaseException as e:  # the worker raised: report, do not retry
                done(None, e)
            else:
                done(result, None)

        future.add_done_callback(finished)

    def _retry(self, pool, fn, args, done, attempt: int, error: BaseException) -> None:
        log.warning("bot worker died (%s); replacing the pool", error)
        self._replace(pool)
        if attempt + 1 >= MAX_RETRIES:
            done(None, error)
        else:
            # a fresh thread: the broken pool's own thread must not wait on the new pool
            threading.Thread(target=self._submit, args=(fn, args, done, attempt + 1),
                             daemon=True).start()

    def feed(self, game_id: str, game: Game, seq: int, *, whole: bool = False) -> Feed:
        """What a job about `game` at `seq` sends: its events after the seq of this pool's
        last job for the game (all of them if there was none, or `whole`), up to `seq`. The
        log only grows (a takeback is an event), so the events up to `seq` never change:
        reading them outside the game's lock is safe."""
        with self._lock:
            since = 0 if whole else self._sent.get(game_id, 0)
            if since > seq:  # a job for an earlier seq (a hint while the game moved on)
                since = 0
            if len(self._sent) >= SENT_GAMES and game_id not in self._sent:
                self._sent.clear()  # a worker keeps fewer games: it asks for their logs
            self._sent[game_id] = seq
        events = [e for e in game.events_since(since) if e.seq <= seq]
        return Feed(game_id, since, tuple(events))

    def game_job(self, fn: Callable[..., Any], game_id: str, game: Game, seq: int,
                 *args: Any, done: Callable[[Any, BaseException | None], None]) -> None:
        """`submit` `fn(feed, *args)`, the feed `game` at `seq` (`feed`); a worker that kept
        the game at another seq (`Behind`) is sent the whole log."""
        def first(result: Any, error: BaseException | None) -> None:
            if isinstance(error, Behind):
                self.submit(fn, self.feed(game_id, game, seq, whole=True), *args, done=done)
            else:
                done(result, error)

        self.submit(fn, self.feed(game_id, game, seq), *args, done=first)

    def call(self, fn: Callable[..., Any], *args: Any, timeout: float | None = None) -> Any:
        """Run `fn(*args)` in a worker and wait for its result (its exception is raised here;
        TimeoutError after `timeout` seconds). Under gevent the wait yields to the loop."""
        future: Future = Future()
        self.submit(fn, *args, done=_settle(future))
        return future.result(timeout)

    def call_game(self, fn: Callable[..., Any], game_id: str, game: Game, seq: int,
                  *args: Any, timeout: float | None = None) -> Any:
        """`call` for a `game_job`: wait for `fn(feed, *args)`."""
        future: Future = Future()
        self.game_job(fn, game_id, game, seq, *args, done=_settle(future))
        return future.result(timeout)

    def pause(self) -> None:
        """Stop this pool's workers where they are (SIGSTOP; nothing where there is no such
        signal) until `resume`: the analysis lane's, while a computer move is computed."""
        self._signal(getattr(signal, "SIGSTOP", None), True)

    def resume(self) -> None:
        self._signal(getattr(signal, "SIGCONT", None), False)

    def _signal(self, sig, paused: bool) -> None:
        with self._lock:
            self._paused = paused
            pids = self._pids()
        if sig is None:
            return
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:  # the worker just ended: the pool replaces it
                pass

    def _pids(self) -> list[int]:
        pool = self._pool
        return [p.pid for p in (pool._processes or {}).values()] if pool else []

    def worker_pids(self) -> list[int]:
        """Pids of the live workers (for tests and diagnostics)."""
        with self._lock:
            pool = self._pool
        return [p.pid for p in (pool._processes or {}).values()] if pool else []

    def shutdown(self, *, kill: bool = False) -> None:
        """Stop the pool: wait for the jobs under way, or with `kill` end the workers at once
        (the analysis lane's, whose work is taken up again later)."""
        if self._paused:
            self.resume()
        with self._lock:
            self._closed = True
            pids = self._pids()
            pool, self._pool = self._pool, None
        if pool is None:
            return
        if kill:
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGTERM)
                except OSError:
                    pass
        pool.shutdown(wait=not kill, cancel_futures=True)


def _settle(future: Future) -> Callable[[Any, BaseException | None], None]:
    def done(result: Any, error: BaseException | None) -> None:
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
    return done


class BotRunner:
    """Watches the service; when a computer seat is to move, has the pool choose its move.

    At most one job per game at a time; a job computed for an older seq is discarded by the
    service's seq check and the runner looks again. With several host processes a job is
    taken with the service's `once` (a Redis lock on the game and seq, held `lock_ttl`
    seconds): one process computes the move; if it dies, another process's scan takes the
    job up once the lock has expired. It subscribes to nothing itself: `server.host.wire`
    gives it the service's news (`on_news`).
    """

    def __init__(self, service, pool: BotPool, *, delay: float = 0.8,
                 on_thinking: Callable[[str, int, bool], None] | None = None,
                 lock_ttl: float = 60.0) -> None:
        self.service = service
        self.lock_ttl = lock_ttl
        self.pool = pool
        self.delay = delay
        self.on_thinking = on_thinking
        self._busy: set[str] = set()
        self._lock = threading.Lock()
        self._timers: set[threading.Timer] = set()
        self._stopped = False
        #: Called (from any thread) when the last computer job of this process has ended,
        #: and when one starts while there was none.
        self.on_idle: list[Callable[[], None]] = []
        self.on_busy: list[Callable[[], None]] = []

    def start(self) -> None:
        """Look at every game once (after a restart, computer seats resume)."""
        for table in self.service.tables():
            self.poke(table.id)

    def on_news(self, news: TableNews) -> None:
        """The service's news (`server.host.wire` subscribes it): look at a game that
        changed."""
        # An event learned from another process's push is that process's to answer (it took
        # the job as it appended); racing it for the job would only move the work around.
        if isinstance(news, (Appended, StateChanged, Synced, Scanned)) \
                and not isinstance(news, Learned):
            self.poke(news.table.id)

    def _due(self, game_id: str, *,
             latest: bool = False) -> tuple[int, int, int, Game, str | None] | None:
        """(seat, level, seq, game, action) if a computer seat has something to do in a
        running game (`latest`: in the game as the store has it now, not as this process last
        saw it): an action its rules want of it (`Rules.computer_action`: answering an offer),
        else its move if it is to move (action None)."""
        table = self.service.table(game_id)
        with (self.service.locked(game_id) if latest else table.lock):
            if table.status != "running":
                return None
            actions = capability(table.rules, Actions)
            for record in table.seats:
                action = None if actions is None or record.kind != "computer" else (
                    actions.computer_action(table.state, record.seat))
                if action:
                    return record.seat, record.level or 1, table.game.seq, table.game, action
            seat = table.to_move
            if seat is None or table.seats[seat - 1].kind != "computer":
                return None
            return seat, table.seats[seat - 1].level or 1, table.game.seq, table.game, None

    def poke(self, game_id: str) -> None:
        """Schedule a move for the game's computer seat if one is due and none is pending."""
        with self._lock:
            if self._stopped or game_id in self._busy:
                return
        due = self._due(game_id)  # outside our lock: _due takes the table's lock
        if due is None:
            return
        with self._lock:
            if self._stopped or game_id in self._busy:
                return
            first = not self._busy
            self._busy.add(game_id)
        if first:
            for listener in self.on_busy:
                listener()
        # the job is this process's from now (the delay included) or another's
        if not self.service.once.take(f"bot:{game_id}:{due[2]}", self.lock_ttl):
            self._release(game_id)
            return
        log.info("game %s seq %s: took the computer's job (seat %s)", game_id, due[2], due[0])
        if self.delay > 0:
            timer = threading.Timer(self.delay, self._compute, (game_id, due[2]))
            timer.daemon = True
            with self._lock:
                self._timers.add(timer)
            timer.start()
        else:
            threading.Thread(target=self._compute, args=(game_id, due[2]),
                             daemon=True).start()

    def _compute(self, game_id: str, taken: int) -> None:
        with self._lock:
            self._timers = {t for t in self._timers if t.is_alive()}
        try:
            due = self._due(game_id, latest=True)
        except Exception:  # the store is away: the next scan or event looks again
            log.warning("game %s: could not read the game for its computer seat", game_id)
            due = None
        if due is None or self._stopped or due[2] != taken:  # the game moved on meanwhile
            log.info("game %s seq %s: dropped the computer's job (%s)", game_id, taken,
                     "stopping" if self._stopped else "nothing due" if due is None
                     else f"the game is at seq {due[2]}")
            self.service.once.drop(f"bot:{game_id}:{taken}")
            self._release(game_id)
            if due is not None and not self._stopped:
                self.poke(game_id)
            return
        seat, level, seq, game, action = due
        job = f"bot:{game_id}:{seq}"
        if action is not None:  # an answer, decided by the rules at once: no search
            try:
                self.service.bot_act(game_id, seat, action, seq)
                log.info("game %s seq %s: finished the computer's job (%s)", game_id, seq,
                         action)
            except Exception as e:  # the store is away: another try once the lock lapses
                log.warning("game %s seq %s: dropped the computer's job: its %s was not "
                            "saved: %s", game_id, seq, action, e)
                self.service.once.drop(job)
            self._release(game_id)
            self.poke(game_id)
            return
        self._thinking(game_id, seat, True)
        seed = zlib.crc32(f"{game_id}:{seq}".encode())

        def done(move: str | None, error: BaseException | None) -> None:
            self._thinking(game_id, seat, False)
            if error is not None:
                log.error("game %s seq %s: dropped the computer's job: the bot for seat %s "
                          "failed: %r", game_id, seq, seat, error)
                self.service.once.drop(job)
            elif move is not None:
                try:
                    saved = self.service.bot_move(game_id, seat, move, seq)
                    if saved is None:
                        log.info("game %s seq %s: dropped the computer's move %s: the game "
                                 "moved on", game_id, seq, move)
                    else:
                        log.info("game %s seq %s: finished the computer's job (seat %s: %s)",
                                 game_id, seq, seat, move)
                except Exception as e:  # the store is away: another try once the lock lapses
                    log.warning("game %s seq %s: dropped the computer's job: its move was "
                                "not saved: %s", game_id, seq, e)
                    self.service.once.drop(job)
            else:
                log.info("game %s seq %s: finished the computer's job (no move)", game_id, seq)
            self._release(game_id)
            if error is None:
                self.poke(game_id)

        self.pool.game_job(choose_in_worker, game_id, game, seq, seat, level, seed,
                           registry.modules(), done=done)

    def _release(self, game_id: str) -> None:
        with self._lock:
            self._busy.discard(game_id)
            idle = not self._busy
        if idle:
            for listener in self.on_idle:
                listener()

    def idle(self) -> bool:
        """Whether no computer move of this process is waiting or being computed."""
        with self._lock:
            return not self._busy

    def _thinking(self, game_id: str, seat: int, thinking: bool) -> None:
        if self.on_thinking is not None:
            try:
                self.on_thinking(game_id, seat, thinking)
            except Exception:
                log.exception("thinking listener failed")

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            timers, self._timers = self._timers, set()
        for t in timers:
            t.cancel()
