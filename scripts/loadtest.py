#!/usr/bin/env python3
"""Load test: N four-seat games against a real host, every seat a real Socket.IO client.

    .venv/bin/python scripts/loadtest.py --tables 100 --seconds 60 [--think 1.0] [--json F]
    .venv/bin/python scripts/loadtest.py --processes 3 --tables 300 --seconds 60

The host is `cornerclaim serve` started as a subprocess on 127.0.0.1 with a fresh data dir
(or --url for one already running). Each table is a classic game with four open seats; four
`socketio.AsyncClient`s (one asyncio loop in this process, so 400 sockets cost no threads
here) claim a seat each, join, and play: the seat to move asks the host's legal endpoint
(the client holds no rules), waits `--think` seconds (uniform 0.5–1.5 × think), picks a
random legal placement and sends it on its socket. A finished game is followed by a new
one at the same table: its seats leave the finished game (`unjoin`, as the phone client does)
and join the new one on the same sockets.

The clock starts once the hosts are idle and every table is seated and joined; while it
runs, this process's own full garbage collections wait (`no_full_collections`).

Measured: move → broadcast latency at every seat (from the moment the mover emits to the
moment each of the four sockets has the `event`), acknowledged moves per second, errors
(error acks, missing broadcasts, unexpected disconnects), and the host's peak RSS (VmHWM
in /proc/<pid>/status) plus RSS samples over time. At the end the host is stopped and the
SQLite file is read: every acknowledged move must be there at its seq.

With `--bot-tables K`, K classic games of four computer seats (`--bot-level`) run beside the
phones for the whole run, so the host's bot pool is never idle: the phones' latency is then
that of a busy host.

A club's host (`--processes N`, N > 1): a throwaway PostgreSQL server (durable: `fsync` on,
as a club's database runs) and a throwaway Redis, both on 127.0.0.1 with the tests' helpers
(tests/pg_fixtures.py, tests/redis_fixtures.py), and N `cornerclaim serve --store
postgresql://… --message-queue redis://… --port P` processes. Each table's four phones are
spread over the processes (seat n of table i on process (i + n) mod N), so one game's phones
sit on different processes and every broadcast crosses Redis; each phone's REST calls go to
its own process. `--store postgresql` runs the single process on PostgreSQL too; `--queue`
gives a single process the Redis queue. At the end every acknowledged move must be in the
database at its seq, and the report adds a table of each process's memory and CPU (the host
processes, their bot workers, PostgreSQL's and Redis's). A `serve` without
`--message-queue` is refused before anything starts.

Every seat also checks the order of what it receives: a broadcast whose seq skips one is an
error; one it already had (a repeat) is counted.

The same machinery drives scripts/crashtest.py and tests/test_load.py.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import socketio

REPO = Path(__file__).resolve().parent.parent
STORE_FILE = "cornerclaim.sqlite3"
ACK_TIMEOUT = 30.0  # seconds an ack or a broadcast may take before it counts as an error


# -- the host as a process ------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HostProcess:
    """`cornerclaim serve` on 127.0.0.1 as a subprocess; its output goes to host.log."""

    def __init__(self, data_dir: Path, port: int | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.extra = extra
        self.proc: subprocess.Popen | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self, deadline: float = 60.0) -> HostProcess:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--data-dir", str(self.data_dir), "--no-mdns",
               "--no-qr", "--bot-delay", "0", *self.extra]
        log = open(self.data_dir / "host.log", "ab")  # noqa: SIM115 - the child owns it
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)
        log.close()
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the host exited ({self.proc.returncode}): {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the host did not come up: " + self.log())

    def log(self) -> str:
        path = self.data_dir / "host.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def status(self, field_name: str) -> int:
        """A field of /proc/<pid>/status in KiB (VmHWM, VmRSS); 0 where there is no /proc."""
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
        except (OSError, AttributeError):
            pass
        return 0

    def cpu_seconds(self) -> float:
        """User + system CPU time the host has used so far (0 where there is no /proc)."""
        return cpu_seconds(self.proc.pid) if self.proc else 0.0

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self, timeout: float = 30.0) -> int:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode if self.proc else 0


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User + system CPU seconds of a process (with `children`, also of its children that
    ended and were waited for); 0 where there is no /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        if children:
            ticks += int(fields[13]) + int(fields[14])
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def descendants(pid: int) -> list[int]:
    """`pid` and every live process below it (from /proc)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(parents.get(p, ()))
    return found


@contextlib.contextmanager
def no_full_collections():
    """The load clients' own full garbage collections held off while the clock runs, and
    made once after. This process holds 400 sockets and every acknowledged move; a full
    collection here stops its loop for 70–100 ms every few seconds, which the moves in
    flight would otherwise count as the host's latency. The young generations are still
    collected."""
    gc.collect()
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], 1_000_000)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        gc.collect()


def wait_idle(hosts: list[HostProcess], *, quiet: float = 0.1, every: float = 1.0,
              deadline: float = 120.0) -> float:
    """Wait until the hosts and their workers are idle (together under `quiet` CPU seconds
    in `every` seconds): a host answers as soon as it listens, while its computer workers
    still load and warm up the players, which takes seconds of CPU a worker; the load (and
    its clock) starts after. Returns the seconds waited."""
    started = time.monotonic()

    def used() -> float:
        return sum(cpu_seconds(p) for h in hosts if h.proc for p in descendants(h.proc.pid))

    last = used()
    while time.monotonic() - started < deadline:
        time.sleep(every)
        now = used()
        if now - last < quiet:
            break
        last = now
    return time.monotonic() - started


def pss_mb(pids: list[int]) -> float:
    """The proportional set size of these processes together, MB: shared pages (PostgreSQL's
    shared buffers, a forked worker's) counted once in all, not once a process."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
        except OSError:
            continue
    return total / 1024


# -- what the clients saw -------------------------------------------------------------------
@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, one per seat per move
    arrived_at: list[float] = field(default_factory=list)  # time.monotonic() of each
    acked: dict[tuple[str, int], str] = field(default_factory=dict)  # (game, seq) -> move
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0
    repeats: int = 0  # broadcasts a seat received twice
    host_down: bool = False  # set by the crash test: failures after this are expected
    #: per host process (its URL): the moves it acknowledged (game, seq), the latencies of
    #: the broadcasts it delivered to its sockets, and the errors its phones met
    by_process: dict[str, dict] = field(default_factory=dict)

    def process(self, url: str) -> dict:
        return self.by_process.setdefault(url, {"acked": [], "latencies": [], "errors": 0})

    def error(self, text: str, url: str | None = None) -> None:
        if not self.host_down:
            self.errors.append(text)
            if url is not None:
                self.process(url)["errors"] += 1


def probe_disk(folder: Path, commits: int = 300, every: float = 0.01) -> dict[str, float]:
    """Lone SQLite commits (WAL, synchronous=FULL, as the store's) in `folder`, `every`
    seconds apart: how the data dir's disk answers an fsync with nothing else running. A
    host acknowledges a move only after its commit, so a disk that now and then takes 100 ms
    to fsync puts its stalls straight into the moves' latency tail."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "disk-probe.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    times = []
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE t (n INTEGER, body TEXT)")
        for n in range(commits):
            started = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO t VALUES (?, ?)", (n, "x" * 300))
            db.execute("COMMIT")
            times.append(time.perf_counter() - started)
            time.sleep(every)
    finally:
        db.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    return {"commits": commits, "p50_ms": 1000 * percentile(times, 50),
            "p99_ms": 1000 * percentile(times, 99), "max_ms": 1000 * max(times),
            "over_20ms": sum(t > 0.02 for t in times)}


def windowed_p99(latencies: list[float], at: list[float], start: float,
                 every: float) -> list[float]:
    """p99 (ms) of the latencies that arrived in each `every`-second window from `start`:
    shows whether a tail is spread over the run or comes in bursts."""
    windows: dict[int, list[float]] = {}
    for lat, t in zip(latencies, at, strict=True):
        windows.setdefault(max(0, int((t - start) // every)), []).append(lat)
    return [1000 * percentile(windows[k], 99) for k in sorted(windows)]


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


# -- one seat and one table -----------------------------------------------------------------
class Seat:
    """One phone: a Socket.IO client holding one seat's token."""

    def __init__(self, table: TableRun, number: int) -> None:
        self.table = table
        self.number = number
        self.token: str | None = None
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("event", self._on_event)
        self.sio.on("disconnect", self._on_disconnect)
        self.closing = False

    async def _on_event(self, data: dict) -> None:
        self.table.seen(self.number, data)

    async def _on_disconnect(self, *args: Any) -> None:
        if not self.closing:
            self.table.stats.error(f"{self.table.game_id} seat {self.number}: disconnected",
                                   self.table.url_of(self.number))

    async def connect(self, url: str) -> None:
        await self.sio.connect(url, transports=["websocket"], wait_timeout=ACK_TIMEOUT)

    async def call(self, event: str, payload: dict) -> dict:
        return await self.sio.call(event, payload, timeout=ACK_TIMEOUT)

    async def close(self) -> None:
        self.closing = True
        try:
            await self.sio.disconnect()
        except Exception:  # noqa: BLE001 - a dead host has already closed it
            pass


class TableRun:
    """Four seats around one game; a finished game is followed by a new one."""

    def __init__(self, index: int, stats: Stats, http: aiohttp.ClientSession, url: str,
                 think: float, rng: random.Random, *, urls: list[str] | None = None) -> None:
        self.index = index
        self.stats = stats
        self.http = http
        self.url = url
        self.urls = urls  # seat n's process (several processes), else every seat on `url`
        self.think = think
        self.rng = rng
        self.seats = [Seat(self, n) for n in (1, 2, 3, 4)]
        self.game_id: str | None = None
        self.state: dict | None = None
        self.sent: dict[int, float] = {}  # seq -> when the move was emitted
        self.arrived: dict[int, set[int]] = {}  # seq -> seats that have its broadcast
        self.all_arrived: dict[int, asyncio.Event] = {}
        self.expect: dict[int, int] = {}  # seat -> the seq its socket should get next
        self.seated = False  # connected, seats taken and joined by `sit_down`
        self.gave_up = False  # `seat_tables` could not seat it: it plays no part

    def url_of(self, seat: int) -> str:
        """The host process seat `seat`'s phone talks to."""
        return self.urls[seat - 1] if self.urls else self.url

    # -- the host's broadcasts ---------------------------------------------------------------
    def seen(self, seat: int, data: dict) -> None:
        if data.get("game_id") != self.game_id:
            return
        seq = data["event"]["seq"]
        now = time.monotonic()
        want = self.expect.get(seat)
        if want is not None:
            if seq > want:
                self.stats.error(f"{self.game_id} seat {seat}: event {seq} came before {want}",
                                 self.url_of(seat))
            elif seq < want:
                self.stats.repeats += 1
            self.expect[seat] = max(want, seq + 1)
        if seq in self.sent:
            self.stats.latencies.append(now - self.sent[seq])
            self.stats.arrived_at.append(now)
            self.stats.process(self.url_of(seat))["latencies"].append(now - self.sent[seq])
        got = self.arrived.setdefault(seq, set())
        got.add(seat)
        if self.state is None or data["state"]["seq"] >= self.state["seq"]:
            self.state = data["state"]
        if len(got) == 4 and seq in self.all_arrived:
            self.all_arrived[seq].set()

    # -- REST --------------------------------------------------------------------------------
    async def rest(self, method: str, path: str, *, seat: int = 1, **kw: Any) -> dict:
        """A REST call from seat `seat`'s phone (to its process)."""
        for _ in range(20):
            async with self.http.request(method, self.url_of(seat) + path, **kw) as r:
                body = await r.json(content_type=None)
                if r.status == 429:  # 400 phones behind one address: wait our turn
                    await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                    continue
                if r.status >= 400:
                    raise RuntimeError(f"{method} {path}: {r.status} {body}")
                return body
        raise RuntimeError(f"{method} {path}: still 429")

    async def new_game(self) -> None:
        for seat in self.seats:
            seat.token = None  # a crash between create and the claims leaves none half-set
        created = await self.rest("POST", "/api/games", json={
            "variant": "classic", "seats": [{"kind": "open"}] * 4})
        self.game_id = created["id"]
        for seat in self.seats:
            claimed = await self.rest("POST", f"/api/games/{self.game_id}/seats/{seat.number}",
                                      seat=seat.number,
                                      json={"name": f"T{self.index}S{seat.number}"})
            seat.token = claimed["token"]
        self.sent.clear()
        self.arrived.clear()
        self.all_arrived.clear()
        self.expect.clear()

    async def join(self) -> None:
        """Every seat joins the game's room with its token; the state comes with the ack."""
        for seat in self.seats:
            ack = await seat.call("join", {"game_id": self.game_id, "last_seq": 0,
                                           "tokens": [seat.token]})
            if "error" in ack:
                raise RuntimeError(f"join {self.game_id}: {ack['error']}")
            self.state = ack["state"]
            self.expect[seat.number] = ack["state"]["seq"] + 1

    async def unjoin(self) -> None:
        """Every seat leaves the finished game's room, as the phone client does when it goes
        back to the lobby or on to the next game."""
        for seat in self.seats:
            ack = await seat.call("unjoin", {"game_id": self.game_id})
            if "error" in ack:
                raise RuntimeError(f"unjoin {self.game_id}: {ack['error']}")

    # -- playing -----------------------------------------------------------------------------
    async def play_one(self) -> bool:
        """The seat to move plays a random legal placement; False once the game is over."""
        state = self.state
        if state["status"] == "finished" or state["to_move"] is None:
            return False
        number, seq = state["to_move"], state["seq"]
        if self.think:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        legal = await self.rest("GET", f"/api/games/{self.game_id}/legal", seat=number,
                                params={"seat": str(number), "seq": str(seq)})
        if legal["seq"] != seq or not legal["moves"]:
            self.stats.error(f"{self.game_id}: legal list at {legal['seq']} for seq {seq}, "
                             f"{len(legal['moves'])} moves", self.url_of(number))
            return False
        move = self.rng.choice(legal["moves"])["move"]
        done = self.all_arrived.setdefault(seq + 1, asyncio.Event())
        if len(self.arrived.get(seq + 1, ())) == 4:
            done.set()
        self.sent[seq + 1] = time.monotonic()
        seat = self.seats[number - 1]
        ack = await seat.call("move", {"game_id": self.game_id, "seat": number,
                                       "move": move, "seq": seq, "token": seat.token})
        if "error" in ack:
            self.stats.error(f"{self.game_id} seq {seq}: {ack['error']['code']}",
                             self.url_of(number))
            return False
        self.stats.acked[(self.game_id, ack["event"]["seq"])] = move
        self.stats.process(self.url_of(number))["acked"].append((self.game_id,
                                                                 ack["event"]["seq"]))
        try:
            await asyncio.wait_for(done.wait(), ACK_TIMEOUT)
        except TimeoutError:
            got = sorted(self.arrived.get(seq + 1, ()))
            self.stats.error(f"{self.game_id} seq {seq + 1}: broadcast reached only {got}",
                             self.url_of(number))
            return False
        self.sent.pop(seq + 1, None)
        self.arrived.pop(seq + 1, None)
        self.all_arrived.pop(seq + 1, None)
        return True

    async def sit_down(self, *, connect: bool = True) -> None:
        """Connect (unless told not to), take the four seats of a game and join it."""
        if connect:
            for seat in self.seats:
                await seat.connect(self.url_of(seat.number))
        if self.game_id is None or not all(s.token for s in self.seats):
            await self.new_game()
        await self.join()
        self.seated = True

    async def run(self, until: float, *, connect: bool = True, min_moves: int = 0) -> int:
        """Connect and sit down (unless `sit_down` has), then play games until the monotonic
        time `until` and at least `min_moves` acknowledged moves; the number of moves
        played."""
        played = 0
        if self.gave_up:
            return played
        try:
            if not self.seated:
                await self.sit_down(connect=connect)
            self.seated = False  # a later run sits down again
            while time.monotonic() < until or played < min_moves:
                if await self.play_one():
                    played += 1
                elif self.state and self.state["status"] == "finished":
                    self.stats.games_finished += 1
                    await self.unjoin()
                    await self.new_game()
                    await self.join()
                else:
                    break
        except (OSError, RuntimeError, TimeoutError, aiohttp.ClientError,
                socketio.exceptions.SocketIOError) as e:
            self.stats.error(f"table {self.index} ({self.game_id}): {type(e).__name__}: {e}")
        return played

    async def close(self) -> None:
        for seat in self.seats:
            await seat.close()
            seat.sio = socketio.AsyncClient(reconnection=False)  # fresh for a later run
            seat.sio.on("event", seat._on_event)
            seat.sio.on("disconnect", seat._on_disconnect)
            seat.closing = False


async def seat_tables(tables: list[TableRun], *, ramp: float = 0.0) -> None:
    """Every table connected, seated and joined (each starting up to `ramp` seconds late);
    a table that fails is reported and plays no part."""

    async def one(t: TableRun) -> None:
        if ramp:
            await asyncio.sleep(ramp * t.index / max(1, len(tables)))
        try:
            await t.sit_down()
        except (OSError, RuntimeError, TimeoutError, aiohttp.ClientError,
                socketio.exceptions.SocketIOError) as e:
            t.stats.error(f"table {t.index} ({t.game_id}): {type(e).__name__}: {e}")
            t.gave_up = True

    await asyncio.gather(*(one(t) for t in tables))


async def run_tables(tables: list[TableRun], seconds: float, *, ramp: float = 0.0) -> None:
    """Run every table for `seconds` (each starting up to `ramp` seconds late)."""
    until = time.monotonic() + seconds

    async def one(t: TableRun) -> None:
        if ramp:
            await asyncio.sleep(ramp * t.index / max(1, len(tables)))
        await t.run(until)

    await asyncio.gather(*(one(t) for t in tables))
    await asyncio.gather(*(t.close() for t in tables))


# -- checking the store ---------------------------------------------------------------------
def stored_moves(db_path: Path) -> dict[tuple[str, int], str | None]:
    """(game, seq) -> move of every stored event (None for events without a move)."""
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT game_id, seq, body FROM events").fetchall()
    return {(g, s): json.loads(b).get("move") for g, s, b in rows}


def stored_moves_pg(url: str) -> dict[tuple[str, int], str | None]:
    """`stored_moves` of a PostgreSQL store."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT game_id, seq, body FROM events").fetchall()
    return {(g, s): json.loads(b).get("move") for g, s, b in rows}


def missing_moves(acked: dict[tuple[str, int], str], stored: dict) -> list[tuple]:
    """Acknowledged moves that are not in the store at their seq."""
    return [(key, move) for key, move in acked.items() if stored.get(key) != move]


# -- a club: several processes over PostgreSQL and Redis --------------------------------------
def serve_supports(option: str) -> bool:
    """Whether this checkout's `cornerclaim serve` has `option` (its --help lists it)."""
    done = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--help"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    return re.search(rf"(^|\s){re.escape(option)}\b", done.stdout) is not None


class ClubServers:
    """A throwaway PostgreSQL server with one database and, with `redis`, a throwaway Redis,
    both on 127.0.0.1, started by the tests' helpers and gone (processes and folders) when
    the `with` block ends. PostgreSQL runs durable (`fsync`, `full_page_writes` on), as a
    club's database would (`fsync=False`: as the tests' server, to see what the disk costs)."""

    def __init__(self, *, redis: bool, max_connections: int = 100, fsync: bool = True) -> None:
        if str(REPO) not in sys.path:
            sys.path.insert(0, str(REPO))  # the tests' helpers
        from tests import pg_fixtures, redis_fixtures

        found = pg_fixtures.bindir()
        if found is None:
            raise SystemExit("PostgreSQL is not installed (scripts/test installs Debian's "
                             "postgresql)")
        self.pg = pg_fixtures.PgServer(found)
        durable = "on" if fsync else "off"
        self.pg.settings = {**self.pg.settings, "fsync": durable, "full_page_writes": durable,
                            "max_connections": str(max_connections)}
        self.redis = None
        if redis:
            binary = redis_fixtures.binary()
            if binary is None:
                raise SystemExit("Redis is not installed (scripts/test installs Debian's "
                                 "redis-server)")
            self.redis = redis_fixtures.RedisServer(binary)
        self.store_url = ""

    def __enter__(self) -> ClubServers:
        try:
            self.pg.init().start()
            self.store_url = self.pg.create_database()
            if self.redis is not None:
                self.redis.start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self.redis is not None:
                self.redis.close()
        finally:
            self.pg.close()

    @property
    def queue_url(self) -> str | None:
        return self.redis.url if self.redis is not None else None

    def sessions(self) -> int:
        """Connections the database has accepted since it started (this probe's included)."""
        import psycopg

        try:
            with psycopg.connect(self.store_url, connect_timeout=2) as conn:
                return conn.execute("SELECT sessions FROM pg_stat_database"
                                    " WHERE datname = current_database()").fetchone()[0]
        except psycopg.Error:
            return 0

    def connections(self) -> int:
        """The host processes' connections to the database now (this probe's not counted)."""
        import psycopg

        try:
            with psycopg.connect(self.store_url, connect_timeout=2) as conn:
                return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname ="
                                    " current_database() AND pid <> pg_backend_pid()"
                                    ).fetchone()[0]
        except psycopg.Error:
            return 0

    def rows(self) -> list[dict]:
        """A row of the process table each for PostgreSQL and Redis (while they run)."""
        rows = []
        if self.pg.process is not None:
            tree = descendants(self.pg.process.pid)
            cpu = cpu_seconds(self.pg.process.pid, children=True) + sum(
                cpu_seconds(p) for p in tree[1:])
            rows.append({"process": f"postgres ({len(tree)} processes)", "port": self.pg.port,
                         "peak_rss_mb": None, "rss_mb": None, "pss_mb": pss_mb(tree),
                         "cpu_s": cpu})
        if self.redis is not None and self.redis.process is not None:
            pid = self.redis.process.pid
            rows.append({"process": "redis-server", "port": self.redis.port,
                         "peak_rss_mb": proc_status(pid, "VmHWM") / 1024,
                         "rss_mb": proc_status(pid, "VmRSS") / 1024,
                         "pss_mb": pss_mb([pid]), "cpu_s": cpu_seconds(pid)})
        return rows


def proc_status(pid: int, field_name: str) -> int:
    """A field of /proc/<pid>/status in KiB; 0 where there is none."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def host_row(number: int, host: HostProcess, cpu_before: float) -> dict:
    """A host process's row of the process table: its own peak and current RSS, its tree's
    PSS (its bot workers too) and the CPU it used during the run."""
    pid = host.proc.pid
    own = host.cpu_seconds() - cpu_before
    return {"process": f"host {number}", "port": host.port,
            "peak_rss_mb": host.status("VmHWM") / 1024, "rss_mb": host.status("VmRSS") / 1024,
            "pss_mb": pss_mb(descendants(pid)), "cpu_s": own, "own_cpu_s": own}


def figures_by_process(stats: Stats, hosts: list[HostProcess], rows: list[dict],
                       lost: list[tuple], seconds: float) -> list[dict]:
    """Per host process and in total: moves it acknowledged (a second), the latency of the
    broadcasts it delivered, its phones' errors, its acknowledged moves missing from the
    store, and its CPU (the host process alone, not its bot workers) per move."""
    missing = {key for key, _move in lost}
    out = []
    for n, host in enumerate(hosts, 1):
        got = stats.process(host.url)
        out.append(_figures(f"host {n}", got["acked"], got["latencies"], got["errors"],
                            missing, rows[n - 1]["own_cpu_s"], seconds))
    if len(hosts) > 1:
        out.append(_figures("all", list(stats.acked), stats.latencies, len(stats.errors),
                            missing, sum(r["own_cpu_s"] for r in rows[:len(hosts)]), seconds))
    return out


def _figures(name: str, acked: list, latencies: list[float], errors: int, missing: set,
             cpu_s: float, seconds: float) -> dict:
    moves = len(acked)
    return {"process": name, "moves": moves, "moves_per_s": moves / seconds,
            "p50_ms": 1000 * percentile(latencies, 50), "p95_ms": 1000 * percentile(latencies, 95),
            "p99_ms": 1000 * percentile(latencies, 99), "errors": errors,
            "lost": sum(1 for key in acked if key in missing), "cpu_s": cpu_s,
            "cpu_ms_per_move": 1000 * cpu_s / moves if moves else None}


def figures_table(rows: list[dict]) -> str:
    """`figures_by_process`'s rows as a plain-text table."""
    head = ("process", "moves", "moves/s", "p50 ms", "p95 ms", "p99 ms", "errors", "lost",
            "CPU s", "CPU ms/move")

    def cell(v) -> str:
        return "-" if v is None else str(v) if isinstance(v, int) else f"{v:.1f}"

    cells = [head] + [(r["process"], *(cell(r[k]) for k in (
        "moves", "moves_per_s", "p50_ms", "p95_ms", "p99_ms", "errors", "lost", "cpu_s",
        "cpu_ms_per_move"))) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    return "\n".join("  ".join(c[0].ljust(widths[0]) if i == 0 else c[i].rjust(widths[i])
                               for i in range(len(head))) for c in cells)


def process_table(rows: list[dict]) -> str:
    """The rows as a plain-text table (a dash where a figure does not apply)."""
    head = ("process", "port", "peak RSS MB", "RSS MB", "PSS with children MB", "CPU s")
    cells = [head] + [(r["process"], str(r["port"]),
                       *("-" if r[k] is None else f"{r[k]:.1f}"
                         for k in ("peak_rss_mb", "rss_mb", "pss_mb", "cpu_s")))
                      for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    return "\n".join("  ".join(c[0].ljust(widths[0]) if i == 0 else c[i].rjust(widths[i])
                               for i in range(len(head))) for c in cells)


# -- the whole run --------------------------------------------------------------------------
@dataclass
class Report:
    tables: int
    seconds: float
    moves: int
    moves_per_s: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    errors: list[str]
    lost: int
    games_finished: int
    rss_peak_mb: float
    rss_samples_mb: list[float]
    host_cpu_s: float = 0.0
    client_cpu_s: float = 0.0
    bot_tables: int = 0
    bot_moves: int = 0
    p99_windows_ms: list[float] = field(default_factory=list)  # p99 in each RSS interval
    disk: dict[str, float] = field(default_factory=dict)  # probe_disk before the run
    slow_commits: tuple[int, float] | None = None  # the host's commits over 50 ms, longest ms
    processes: int = 1
    store: str = "sqlite"  # or "postgresql"
    queue: bool = False  # the Redis message queue
    repeats: int = 0  # broadcasts a seat received twice
    process_rows: list[dict] = field(default_factory=list)  # process_table's rows
    db_connections_peak: int = 0  # the most connections to PostgreSQL seen (one a second)
    db_sessions: int = 0  # connections PostgreSQL accepted during the run
    per_process: list[dict] = field(default_factory=list)  # figures_by_process's rows
    settle_s: float = 0.0  # seconds the hosts took to go idle before the load (wait_idle)
    seating_s: float = 0.0  # seconds every table took to connect, sit down and join

    def summary(self) -> str:
        rss = ", ".join(f"{x:.0f}" for x in self.rss_samples_mb)
        windows = ", ".join(f"{x:.0f}" for x in self.p99_windows_ms)
        d = self.disk
        disk = (f"the data dir's disk before the run, {d['commits']:.0f} lone commits: "
                f"p50 {d['p50_ms']:.2f} ms, p99 {d['p99_ms']:.2f} ms, max {d['max_ms']:.1f} ms, "
                f"{d['over_20ms']:.0f} over 20 ms\n") if d else ""
        club = (f"host processes {self.processes}, store {self.store}, Redis message queue "
                f"{'yes' if self.queue else 'no'}\n")
        return (disk + club
                + f"the hosts and their workers went idle {self.settle_s:.0f} s after they "
                  f"answered; the phones then sat down and joined in {self.seating_s:.1f} s, "
                  "and the clock started\n"
                + f"tables {self.tables}, sockets {4 * self.tables}, {self.seconds:.0f} s\n"
                f"moves acknowledged {self.moves} ({self.moves_per_s:.1f}/s), "
                f"games finished {self.games_finished}\n"
                f"move -> broadcast at every seat: p50 {self.p50_ms:.1f} ms, "
                f"p95 {self.p95_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, max {self.max_ms:.1f} ms\n"
                f"p99 in each interval between RSS samples, ms: {windows}\n"
                f"errors {len(self.errors)}, acknowledged moves missing from the store "
                f"{self.lost}, broadcasts a seat got twice {self.repeats}\n"
                f"host peak RSS (VmHWM) {self.rss_peak_mb:.1f} MB; "
                f"RSS samples MB: {rss}\nCPU seconds: host {self.host_cpu_s:.1f}, "
                f"load clients {self.client_cpu_s:.1f} (of {self.seconds:.0f} s wall)"
                + (f"\nhost commits the disk held over 50 ms: {self.slow_commits[0]}, the "
                   f"longest {self.slow_commits[1]:.0f} ms" if self.slow_commits else "")
                + (f"\ncomputer games beside them {self.bot_tables}: {self.bot_moves} "
                   "computer moves" if self.bot_tables else "")
                + (f"\nconnections to PostgreSQL at most {self.db_connections_peak} at once "
                   f"(looked at each second), {self.db_sessions} opened during the run"
                   if self.store == "postgresql" else "")
                + ("\n" + process_table(self.process_rows) if self.process_rows else "")
                + ("\n" + figures_table(self.per_process) if self.per_process else ""))


async def _sample_rss(hosts: list[HostProcess], every: float, out: list[float],
                      stop: asyncio.Event, club: ClubServers | None = None,
                      connections: list[int] | None = None) -> None:
    """The host processes' RSS together, MB, every `every` seconds until `stop`; with a
    club's database, its connections (a quick look each second) into `connections`."""
    if club is not None and club.store_url:
        asyncio.get_running_loop().create_task(_count_connections(club, stop, connections))
    while not stop.is_set():
        out.append(sum(h.status("VmRSS") for h in hosts) / 1024)
        try:
            await asyncio.wait_for(stop.wait(), every)
        except TimeoutError:
            pass


async def _count_connections(club: ClubServers, stop: asyncio.Event,
                             out: list[int]) -> None:
    while not stop.is_set():
        out.append(await asyncio.to_thread(club.connections))
        try:
            await asyncio.wait_for(stop.wait(), 1.0)
        except TimeoutError:
            pass


async def run_bot_games(http: aiohttp.ClientSession, url: str, count: int, level: int,
                        stop: asyncio.Event, moves: list[int]) -> None:
    """Keep `count` classic games of four computer seats at `level` running on the host's
    bot pool (a finished one is replaced) until `stop`; `moves[0]` counts their moves."""
    seats = [{"kind": "computer", "level": level}] * 4

    async def create() -> str:
        async with http.post(f"{url}/api/games",
                             json={"variant": "classic", "seats": seats}) as r:
            return (await r.json())["id"]

    games = {await create(): 1 for _ in range(count)}
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), 2.0)
        except TimeoutError:
            pass
        for gid, seen in list(games.items()):
            async with http.get(f"{url}/api/games/{gid}") as r:
                state = await r.json()
            moves[0] += state["seq"] - seen
            games[gid] = state["seq"]
            if state["status"] == "finished" and not stop.is_set():
                del games[gid]
                games[await create()] = 1


async def load(tables: int, seconds: float, *, think: float, seed: int, data_dir: Path,
               host_args: tuple[str, ...] = (), bot_tables: int = 0,
               bot_level: int = 5, probe: bool = True, processes: int = 1,
               store: str = "sqlite", queue: bool | None = None,
               pg_max_connections: int = 100, pg_fsync: bool = True,
               bot_moves_wanted: int = 0, wait: float = 60.0) -> Report:
    """Run the load; with `processes` > 1 (or `store="postgresql"`, or `queue`) over a
    throwaway PostgreSQL and, for the queue (several processes need it), Redis. With
    `bot_moves_wanted`, the computer games go on after the phones' `seconds` until they have
    made that many moves (at most `wait` seconds more): a check that they move, not how fast."""
    queue = processes > 1 if queue is None else queue
    if processes > 1:
        store = "postgresql"
    disk = probe_disk(data_dir) if probe else {}
    with contextlib.ExitStack() as stack:
        club = None
        if store == "postgresql" or queue:
            club = stack.enter_context(ClubServers(redis=queue,
                                                   max_connections=pg_max_connections,
                                                   fsync=pg_fsync))
        return await _load(tables, seconds, think=think, seed=seed, data_dir=data_dir,
                           host_args=host_args, bot_tables=bot_tables, bot_level=bot_level,
                           disk=disk, processes=processes, club=club, store=store,
                           bot_moves_wanted=bot_moves_wanted, wait=wait)


def spread(urls: list[str], table: int) -> list[str] | None:
    """The process each of a table's four seats talks to: seat n of table i on process
    (i + n) mod N, so one game's phones sit on min(N, 4) processes and the tables' phones
    are shared out evenly; None for a single process."""
    if len(urls) < 2:
        return None
    return [urls[(table + n) % len(urls)] for n in range(4)]


def _start_hosts(data_dir: Path, processes: int, host_args: tuple[str, ...],
                 club: ClubServers | None, store: str) -> list[HostProcess]:
    """The host processes, each its own data dir (`data_dir` itself for a lone SQLite
    host), on PostgreSQL and Redis when the club has them."""
    extra = list(host_args)
    if store == "postgresql":
        extra += ["--store", club.store_url]
    if club is not None and club.queue_url:
        extra += ["--message-queue", club.queue_url]
    if processes == 1 and store == "sqlite":
        dirs = [data_dir]
    else:
        dirs = [data_dir / f"process-{n}" for n in range(1, processes + 1)]
    hosts: list[HostProcess] = []
    try:
        for folder in dirs:
            hosts.append(HostProcess(folder, extra=tuple(extra)).start())
    except BaseException:
        for h in hosts:
            h.kill()
        raise
    return hosts


async def _load(tables: int, seconds: float, *, think: float, seed: int, data_dir: Path,
                host_args: tuple[str, ...], bot_tables: int, bot_level: int, disk: dict,
                processes: int, club: ClubServers | None, store: str,
                bot_moves_wanted: int = 0, wait: float = 60.0) -> Report:
    hosts = _start_hosts(data_dir, processes, host_args, club, store)
    settled = wait_idle(hosts)
    stats = Stats()
    rng = random.Random(seed)
    samples: list[float] = []
    stop = asyncio.Event()
    rows: list[dict] = []
    connections: list[int] = []
    try:
        connector = aiohttp.TCPConnector(limit=64)
        async with aiohttp.ClientSession(connector=connector) as http:
            urls = [h.url for h in hosts]
            runs = [TableRun(i, stats, http, urls[0], think, random.Random(rng.random()),
                             urls=spread(urls, i))
                    for i in range(tables)]
            every = max(1.0, seconds / 20)
            sampler = asyncio.create_task(_sample_rss(hosts, every, samples, stop, club,
                                                      connections))
            bots_stop, bot_moves = asyncio.Event(), [0]
            bots = asyncio.create_task(run_bot_games(http, urls[0], bot_tables, bot_level,
                                                     bots_stop, bot_moves)) \
                if bot_tables else None
            # Every phone is seated before the clock starts: 400 sockets joining in a few
            # seconds is a start-up burst no club sees, not its steady play. A finished game
            # is still followed by a new one on the clock.
            seating = time.monotonic()
            await seat_tables(runs, ramp=min(5.0, seconds / 4))
            seating = time.monotonic() - seating
            sessions = club.sessions() if club is not None and club.store_url else 0
            started = time.monotonic()
            cpu = time.process_time(), [h.cpu_seconds() for h in hosts]
            with no_full_collections():
                await run_tables(runs, seconds, ramp=think)
            elapsed = time.monotonic() - started
            stop.set()
            until = time.monotonic() + wait
            while bots is not None and bot_moves[0] < bot_moves_wanted and \
                    time.monotonic() < until and not bots.done():
                await asyncio.sleep(0.5)  # the bot games report their moves every 2 s
            bots_stop.set()
            await sampler
            if bots is not None:
                await bots
        peak = max(h.status("VmHWM") for h in hosts) / 1024
        rows = [host_row(n, h, before)
                for n, (h, before) in enumerate(zip(hosts, cpu[1], strict=True), 1)]
        rows += club.rows() if club is not None else []
        if club is not None and club.store_url:
            # not this look's own, nor the once-a-second looks at the connections
            sessions = club.sessions() - sessions - 1 - len(connections)

        host_cpu = sum(r["cpu_s"] for r in rows[:len(hosts)])
        client_cpu = time.process_time() - cpu[0]
    finally:
        codes = [h.stop() for h in hosts]
    for n, code in enumerate(codes, 1):
        if code not in (0, None):
            stats.errors.append(f"host {n} exited with {code}" if len(hosts) > 1
                                else f"the host exited with {code}")
    stored = (stored_moves_pg(club.store_url) if store == "postgresql"
              else stored_moves(data_dir / STORE_FILE))
    lost = missing_moves(stats.acked, stored)
    slow = slow_commits(hosts[0].log()) if store == "sqlite" else None
    lat = stats.latencies
    per_process = figures_by_process(stats, hosts, rows, lost, elapsed)
    return Report(tables, elapsed, len(stats.acked), len(stats.acked) / elapsed,
                  1000 * percentile(lat, 50), 1000 * percentile(lat, 95),
                  1000 * percentile(lat, 99), 1000 * max(lat, default=float("nan")),
                  stats.errors, len(lost), stats.games_finished, peak, samples,
                  host_cpu, client_cpu, bot_tables, bot_moves[0],
                  windowed_p99(lat, stats.arrived_at, started, every), disk, slow,
                  processes, store, bool(club and club.queue_url), stats.repeats, rows,
                  max(connections, default=0), max(0, sessions), per_process, settled, seating)


def error_kinds(errors: list[str]) -> list[tuple[str, int]]:
    """The errors grouped by kind (game ids, tables, seats and seqs taken out), the most
    frequent first."""
    counts: dict[str, int] = {}
    for text in errors:
        kind = re.sub(r"\b[0-9a-f]{12}\b", "GAME", text)
        kind = re.sub(r"\d+", "N", kind)[:160]
        counts[kind] = counts.get(kind, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


SLOW_LINE = re.compile(r"slow disk: (\d+) commits over -?\d+ ms while the store was open; "
                       r"the longest (\d+) ms")


def slow_commits(log_text: str) -> tuple[int, float]:
    """The host's count of commits the disk held up, and the longest (ms), from the line
    the store logs when it closes; (0, 0) when it logged none."""
    found = SLOW_LINE.findall(log_text)
    return (int(found[-1][0]), float(found[-1][1])) if found else (0, 0.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a seat thinks before moving (1.0; 0: flat out)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data-dir", default=None, help="host data dir (default: a temp dir)")
    parser.add_argument("--write-rate", type=float, default=200.0,
                        help="the host's --write-rate: every table's REST calls come from "
                             "127.0.0.1, one 'client' to the limiter (200)")
    parser.add_argument("--json", default=None, help="write the report here as JSON")
    parser.add_argument("--bot-tables", type=int, default=0,
                        help="also keep this many games of four computer seats running "
                             "(the host's bot pool busy the whole time)")
    parser.add_argument("--bot-level", type=int, default=5, help="their level (5)")
    parser.add_argument("--no-disk-probe", action="store_true",
                        help="skip timing 300 lone commits in the data dir first (3 s)")
    parser.add_argument("--processes", type=int, default=1,
                        help="host processes (1); more than one run over a throwaway "
                             "PostgreSQL and Redis, each table's phones spread over them")
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default=None,
                        help="the game store: SQLite in the data dir (one process's default) "
                             "or a throwaway PostgreSQL (several processes')")
    parser.add_argument("--queue", action="store_true",
                        help="the Redis message queue even for one process")
    parser.add_argument("--pg-max-connections", type=int, default=100,
                        help="the throwaway PostgreSQL's max_connections (100)")
    parser.add_argument("--pg-no-fsync", action="store_true",
                        help="run the throwaway PostgreSQL without fsync (not durable: shows "
                             "what the disk costs)")
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.processes > 1 and args.store == "sqlite":
        parser.error("several processes share a PostgreSQL store, not SQLite")
    queue = args.queue or args.processes > 1
    if queue and not serve_supports("--message-queue"):
        print("cannot run: this `cornerclaim serve` has no --message-queue option, and host "
              "processes reach each other's phones only through the Redis message queue",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="cc-load-") as tmp:
        data_dir = Path(args.data_dir or tmp)
        report = asyncio.run(load(args.tables, args.seconds, think=args.think, seed=args.seed,
                                  data_dir=data_dir,
                                  host_args=("--write-rate", str(args.write_rate)),
                                  bot_tables=args.bot_tables, bot_level=args.bot_level,
                                  probe=not args.no_disk_probe, processes=args.processes,
                                  store=args.store or "sqlite", queue=queue,
                                  pg_max_connections=args.pg_max_connections,
                                  pg_fsync=not args.pg_no_fsync))
    print(report.summary())
    for kind, count in error_kinds(report.errors)[:10]:
        print(f"  errors {count:5d} x {kind}")
    for line in report.errors[:5]:
        print("  error:", line)
    print(f"load average now: {os.getloadavg()[0]:.2f} (2 cores)")
    if args.json:
        Path(args.json).write_text(json.dumps(report.__dict__, indent=1))
    return 1 if report.errors or report.lost else 0


if __name__ == "__main__":
    sys.exit(main())
