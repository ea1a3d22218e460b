#!/usr/bin/env python3
"""Crash test: SIGKILL the host at random moments under load, restart it, check nothing
acknowledged was lost and every game resumes.

    .venv/bin/python scripts/crashtest.py --cycles 50 --tables 8

Each cycle:
1. start `cornerclaim serve` on the same data dir (a new port);
2. check through the restarted host (GET /api/games/{id}/events) that every move ever
   acknowledged over a socket is in its game's log at its seq;
3. resume: every table reconnects, rejoins its game with the seat tokens it had, and plays
   at least one move (a game that finished meanwhile is followed by a new one);
4. play (scripts/loadtest.py's tables, no think time) and SIGKILL the host after a random
   0.2–`--max-load` seconds, wherever it is: mid-commit, mid-broadcast, mid-claim.
Moves in flight at the kill may or may not be stored (their sender never got an ack); only
failures before the kill count as errors.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loadtest import HostProcess, Stats, TableRun  # noqa: E402


@dataclass
class CrashReport:
    cycles: int = 0
    acked: int = 0
    lost: list[tuple] = field(default_factory=list)
    not_resumed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.lost or self.not_resumed or self.errors)

    def summary(self) -> str:
        return (f"{self.cycles} SIGKILL cycles in {self.seconds:.0f} s; acknowledged moves "
                f"{self.acked}, lost {len(self.lost)}; games that did not resume "
                f"{len(self.not_resumed)}; errors {len(self.errors)}")


async def check_stored(http: aiohttp.ClientSession, url: str,
                       acked: dict[tuple[str, int], str]) -> list[tuple]:
    """Acknowledged moves the restarted host does not have at their seq."""
    lost = []
    for game_id in sorted({g for g, _ in acked}):
        async with http.get(f"{url}/api/games/{game_id}/events", params={"since": "0"}) as r:
            body = await r.json()
        stored = {e["seq"]: e.get("move") for e in body.get("events", [])}
        lost += [(g, seq, m) for (g, seq), m in acked.items()
                 if g == game_id and stored.get(seq) != m]
    return lost


async def one_cycle(host: HostProcess, tables: list[TableRun], stats: Stats,
                    report: CrashReport, rng: random.Random, max_load: float) -> None:
    http = tables[0].http
    report.lost += await check_stored(http, host.url, stats.acked)
    for t in tables:
        t.url = host.url
    before = {t.index: t.game_id for t in tables}
    played = await asyncio.gather(*(t.run(time.monotonic(), min_moves=1) for t in tables))
    for t, n in zip(tables, played, strict=True):
        if n < 1 and before[t.index] is not None:
            report.not_resumed.append(f"cycle {report.cycles}: {before[t.index]}")
    until = time.monotonic() + 3600
    tasks = [asyncio.create_task(t.run(until, connect=False)) for t in tables]
    await asyncio.sleep(rng.uniform(0.2, max_load))
    stats.host_down = True  # what fails from here on is the crash, not the host
    host.kill()
    await asyncio.sleep(0.3)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(t.close() for t in tables))
    stats.host_down = False
    report.cycles += 1


async def crash(cycles: int, n_tables: int, *, data_dir: Path, seed: int = 1,
                max_load: float = 3.0, write_rate: float = 200.0) -> CrashReport:
    rng = random.Random(seed)
    stats = Stats()
    report = CrashReport()
    started = time.monotonic()
    args = ("--write-rate", str(write_rate))
    async with aiohttp.ClientSession() as http:
        tables = [TableRun(i, stats, http, "", 0.0, random.Random(rng.random()))
                  for i in range(n_tables)]
        for _ in range(cycles):
            host = HostProcess(data_dir, extra=args).start()
            try:
                await one_cycle(host, tables, stats, report, rng, max_load)
            finally:
                host.kill()
        host = HostProcess(data_dir, extra=args).start()  # the last restart: check once more
        try:
            report.lost += await check_stored(http, host.url, stats.acked)
        finally:
            host.stop()
    report.acked = len(stats.acked)
    report.errors = stats.errors
    report.seconds = time.monotonic() - started
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=50)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--max-load", type=float, default=3.0,
                        help="longest stretch of play before a kill, seconds (3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cc-crash-") as tmp:
        report = asyncio.run(crash(args.cycles, args.tables, data_dir=Path(args.data_dir or tmp),
                                   seed=args.seed, max_load=args.max_load))
    print(report.summary())
    for line in (report.lost[:10] + report.not_resumed[:10] + report.errors[:10]):
        print("  ", line)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
