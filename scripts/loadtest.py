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
as a club's database runs) and a throwaway Redis, both on 127.0.0.1 (scripts/throwaway.py,
as the tests'), and N `cornerclaim serve --store postgresql://… --message-queue redis://…
--port P` processes. Each table's four phones are
spread over the processes (seat n of table i on process (i + n) mod N), so one game's phones
sit on different processes and every broadcast crosses Redis; each phone's REST calls go to
its own process. `--store postgresql` runs the single process on PostgreSQL too; `--queue`
gives a single process the Redis queue. At the end every acknowledged move must be in the
database at its seq, and the report adds a table of each process's memory and CPU (the host
processes, their bot workers, PostgreSQL's and Redis's). A `serve` without
`--message-queue` is refused before anything starts.

Every seat also checks the order of what it receives: a broadcast whose seq skips one is an
error; one it already had (a repeat) is counted.

The same machinery (scripts/load/) drives scripts/crashtest.py and tests/test_load.py.
"""


from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

if str(Path(__file__).resolve().parent.parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # scripts.load

from scripts.load.club import ClubServers  # noqa: E402
from scripts.load.hosts import (  # noqa: E402
    REPO,
    STORE_FILE,
    HostProcess,
    no_full_collections,
    serve_supports,
    wait_idle,
)
from scripts.load.report import (  # noqa: E402
    Report,
    error_kinds,
    figures_by_process,
    host_row,
    missing_moves,
    percentile,
    probe_disk,
    slow_commits,
    stored_moves,
    stored_moves_pg,
    windowed_p99,
)
from scripts.load.tables import Stats, TableRun, run_tables, seat_tables  # noqa: E402

#: what scripts/crashtest.py, the benchmarks and the tests take from here
__all__ = ["REPO", "ClubServers", "HostProcess", "Stats", "TableRun", "error_kinds", "load",
           "main", "no_full_collections", "serve_supports", "slow_commits", "spread"]


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
