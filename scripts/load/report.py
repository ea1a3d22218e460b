"""The load test's figures: the disk before the run, the latencies' percentiles, the moves
the store holds, each process's row, and the `Report` of the whole run."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from .hosts import HostProcess, descendants, pss_mb
from .tables import Stats


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


# -- each process and the whole run ---------------------------------------------------------
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
