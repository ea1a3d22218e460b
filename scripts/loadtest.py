#!/usr/bin/env python3
"""Load test: N four-seat games against a real host, every seat a real Socket.IO client.

    .venv/bin/python scripts/loadtest.py --tables 100 --seconds 60 [--think 1.0] [--json F]

The host is `cornerclaim serve` started as a subprocess on 127.0.0.1 with a fresh data dir
(or --url for one already running). Each table is a classic game with four open seats; four
`socketio.AsyncClient`s (one asyncio loop in this process, so 400 sockets cost no threads
here) claim a seat each, join, and play: the seat to move asks the host's legal endpoint
(the client holds no rules), waits `--think` seconds (uniform 0.5–1.5 × think), picks a
random legal placement and sends it on its socket. A finished game is followed by a new
one at the same table: its seats leave the finished game (`unjoin`, as the phone client does)
and join the new one on the same sockets.

Measured: move → broadcast latency at every seat (from the moment the mover emits to the
moment each of the four sockets has the `event`), acknowledged moves per second, errors
(error acks, missing broadcasts, unexpected disconnects), and the host's peak RSS (VmHWM
in /proc/<pid>/status) plus RSS samples over time. At the end the host is stopped and the
SQLite file is read: every acknowledged move must be there at its seq.

With `--bot-tables K`, K classic games of four computer seats (`--bot-level`) run beside the
phones for the whole run, so the host's bot pool is never idle: the phones' latency is then
that of a busy host.

The same machinery drives scripts/crashtest.py and tests/test_load.py.
"""

from __future__ import annotations

import argparse
import asyncio
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
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, AttributeError, IndexError, ValueError):
            return 0.0

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


# -- what the clients saw -------------------------------------------------------------------
@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, one per seat per move
    arrived_at: list[float] = field(default_factory=list)  # time.monotonic() of each
    acked: dict[tuple[str, int], str] = field(default_factory=dict)  # (game, seq) -> move
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0
    host_down: bool = False  # set by the crash test: failures after this are expected

    def error(self, text: str) -> None:
        if not self.host_down:
            self.errors.append(text)


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
            self.table.stats.error(f"{self.table.game_id} seat {self.number}: disconnected")

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
                 think: float, rng: random.Random) -> None:
        self.index = index
        self.stats = stats
        self.http = http
        self.url = url
        self.think = think
        self.rng = rng
        self.seats = [Seat(self, n) for n in (1, 2, 3, 4)]
        self.game_id: str | None = None
        self.state: dict | None = None
        self.sent: dict[int, float] = {}  # seq -> when the move was emitted
        self.arrived: dict[int, set[int]] = {}  # seq -> seats that have its broadcast
        self.all_arrived: dict[int, asyncio.Event] = {}

    # -- the host's broadcasts ---------------------------------------------------------------
    def seen(self, seat: int, data: dict) -> None:
        if data.get("game_id") != self.game_id:
            return
        seq = data["event"]["seq"]
        now = time.monotonic()
        if seq in self.sent:
            self.stats.latencies.append(now - self.sent[seq])
            self.stats.arrived_at.append(now)
        got = self.arrived.setdefault(seq, set())
        got.add(seat)
        if self.state is None or data["state"]["seq"] >= self.state["seq"]:
            self.state = data["state"]
        if len(got) == 4 and seq in self.all_arrived:
            self.all_arrived[seq].set()

    # -- REST --------------------------------------------------------------------------------
    async def rest(self, method: str, path: str, **kw: Any) -> dict:
        for _ in range(20):
            async with self.http.request(method, self.url + path, **kw) as r:
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
                                      json={"name": f"T{self.index}S{seat.number}"})
            seat.token = claimed["token"]
        self.sent.clear()
        self.arrived.clear()
        self.all_arrived.clear()

    async def join(self) -> None:
        """Every seat joins the game's room with its token; the state comes with the ack."""
        for seat in self.seats:
            ack = await seat.call("join", {"game_id": self.game_id, "last_seq": 0,
                                           "tokens": [seat.token]})
            if "error" in ack:
                raise RuntimeError(f"join {self.game_id}: {ack['error']}")
            self.state = ack["state"]

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
        legal = await self.rest("GET", f"/api/games/{self.game_id}/legal",
                                params={"seat": str(number)})
        if legal["seq"] != seq or not legal["moves"]:
            self.stats.error(f"{self.game_id}: legal list at {legal['seq']} for seq {seq}, "
                             f"{len(legal['moves'])} moves")
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
            self.stats.error(f"{self.game_id} seq {seq}: {ack['error']['code']}")
            return False
        self.stats.acked[(self.game_id, ack["event"]["seq"])] = move
        try:
            await asyncio.wait_for(done.wait(), ACK_TIMEOUT)
        except TimeoutError:
            got = sorted(self.arrived.get(seq + 1, ()))
            self.stats.error(f"{self.game_id} seq {seq + 1}: broadcast reached only {got}")
            return False
        self.sent.pop(seq + 1, None)
        self.arrived.pop(seq + 1, None)
        self.all_arrived.pop(seq + 1, None)
        return True

    async def run(self, until: float, *, connect: bool = True, min_moves: int = 0) -> int:
        """Connect, then play games until the monotonic time `until` and at least
        `min_moves` acknowledged moves; the number of moves played."""
        played = 0
        try:
            if connect:
                for seat in self.seats:
                    await seat.connect(self.url)
            if self.game_id is None or not all(s.token for s in self.seats):
                await self.new_game()
            await self.join()
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


def missing_moves(acked: dict[tuple[str, int], str], stored: dict) -> list[tuple]:
    """Acknowledged moves that are not in the store at their seq."""
    return [(key, move) for key, move in acked.items() if stored.get(key) != move]


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

    def summary(self) -> str:
        rss = ", ".join(f"{x:.0f}" for x in self.rss_samples_mb)
        windows = ", ".join(f"{x:.0f}" for x in self.p99_windows_ms)
        d = self.disk
        disk = (f"the data dir's disk before the run, {d['commits']:.0f} lone commits: "
                f"p50 {d['p50_ms']:.2f} ms, p99 {d['p99_ms']:.2f} ms, max {d['max_ms']:.1f} ms, "
                f"{d['over_20ms']:.0f} over 20 ms\n") if d else ""
        return (disk + f"tables {self.tables}, sockets {4 * self.tables}, {self.seconds:.0f} s\n"
                f"moves acknowledged {self.moves} ({self.moves_per_s:.1f}/s), "
                f"games finished {self.games_finished}\n"
                f"move -> broadcast at every seat: p50 {self.p50_ms:.1f} ms, "
                f"p95 {self.p95_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, max {self.max_ms:.1f} ms\n"
                f"p99 in each interval between RSS samples, ms: {windows}\n"
                f"errors {len(self.errors)}, acknowledged moves missing from the store "
                f"{self.lost}\nhost peak RSS (VmHWM) {self.rss_peak_mb:.1f} MB; "
                f"RSS samples MB: {rss}\nCPU seconds: host {self.host_cpu_s:.1f}, "
                f"load clients {self.client_cpu_s:.1f} (of {self.seconds:.0f} s wall)"
                + (f"\nhost commits the disk held over 50 ms: {self.slow_commits[0]}, the "
                   f"longest {self.slow_commits[1]:.0f} ms" if self.slow_commits else "")
                + (f"\ncomputer games beside them {self.bot_tables}: {self.bot_moves} "
                   "computer moves" if self.bot_tables else ""))


async def _sample_rss(host: HostProcess, every: float, out: list[float],
                      stop: asyncio.Event) -> None:
    while not stop.is_set():
        out.append(host.status("VmRSS") / 1024)
        try:
            await asyncio.wait_for(stop.wait(), every)
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
               bot_level: int = 5, probe: bool = True) -> Report:
    disk = probe_disk(data_dir) if probe else {}
    host = HostProcess(data_dir, extra=host_args).start()
    stats = Stats()
    rng = random.Random(seed)
    samples: list[float] = []
    stop = asyncio.Event()
    try:
        connector = aiohttp.TCPConnector(limit=64)
        async with aiohttp.ClientSession(connector=connector) as http:
            runs = [TableRun(i, stats, http, host.url, think, random.Random(rng.random()))
                    for i in range(tables)]
            every = max(1.0, seconds / 20)
            sampler = asyncio.create_task(_sample_rss(host, every, samples, stop))
            bots_stop, bot_moves = asyncio.Event(), [0]
            bots = asyncio.create_task(run_bot_games(http, host.url, bot_tables, bot_level,
                                                     bots_stop, bot_moves)) \
                if bot_tables else None
            started = time.monotonic()
            cpu = time.process_time(), host.cpu_seconds()
            await run_tables(runs, seconds, ramp=min(5.0, seconds / 4))
            elapsed = time.monotonic() - started
            stop.set()
            bots_stop.set()
            await sampler
            if bots is not None:
                await bots
        peak = host.status("VmHWM") / 1024
        host_cpu, client_cpu = host.cpu_seconds() - cpu[1], time.process_time() - cpu[0]
    finally:
        code = host.stop()
    if code not in (0, None):
        stats.errors.append(f"the host exited with {code}")
    lost = missing_moves(stats.acked, stored_moves(data_dir / STORE_FILE))
    slow = slow_commits(host.log())
    lat = stats.latencies
    return Report(tables, elapsed, len(stats.acked), len(stats.acked) / elapsed,
                  1000 * percentile(lat, 50), 1000 * percentile(lat, 95),
                  1000 * percentile(lat, 99), 1000 * max(lat, default=float("nan")),
                  stats.errors, len(lost), stats.games_finished, peak, samples,
                  host_cpu, client_cpu, bot_tables, bot_moves[0],
                  windowed_p99(lat, stats.arrived_at, started, every), disk, slow)


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
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cc-load-") as tmp:
        data_dir = Path(args.data_dir or tmp)
        report = asyncio.run(load(args.tables, args.seconds, think=args.think, seed=args.seed,
                                  data_dir=data_dir,
                                  host_args=("--write-rate", str(args.write_rate)),
                                  bot_tables=args.bot_tables, bot_level=args.bot_level,
                                  probe=not args.no_disk_probe))
    print(report.summary())
    for line in report.errors[:20]:
        print("  error:", line)
    print(f"load average now: {os.getloadavg()[0]:.2f} (2 cores)")
    if args.json:
        Path(args.json).write_text(json.dumps(report.__dict__, indent=1))
    return 1 if report.errors or report.lost else 0


if __name__ == "__main__":
    sys.exit(main())
