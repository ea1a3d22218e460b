#!/usr/bin/env python3
"""Engine benchmark: legal-move generation, precompute and random playouts, as tables.

The suite is every position of the Pentobi self-play games in tests/data/pentobi (duo and
classic), split into early / mid / late thirds of each game. Times are CPU time of this
thread (CLOCK_THREAD_CPUTIME_ID), so other processes on a shared machine inflate them less
than wall-clock time would; one core.

    .venv/bin/python scripts/bench_engine.py [--seconds 3] [--repeat 20]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cornerclaim import new_game  # noqa: E402
from engine.cornerclaim.position import Position, move_tables  # noqa: E402
from engine.cornerclaim.variants import VARIANTS  # noqa: E402

SEAT = {"b": 1, "w": 2, "1": 1, "2": 2, "3": 3, "4": 4}


def suite(variant: str) -> list[tuple[str, Position, int]]:
    """(phase, position, colour to move) for every placement in the recorded games."""
    out = []
    for path in sorted((ROOT / "tests/data/pentobi").glob(f"{variant}_*.json")):
        moves = [m for m in json.loads(path.read_text())["moves"] if m["move"] != "pass"]
        game = new_game(variant)
        for i, m in enumerate(moves):
            phase = ("early", "mid", "late")[min(2, 3 * i // len(moves))]
            out.append((phase, game.state.position, SEAT[m["color"]] - 1))
            game.play(SEAT[m["color"]], m["move"])
    return out


def time_legal(positions, repeat: int) -> list[float]:
    """Median-of-`repeat` µs per legal_moves call for each position (caches warm)."""
    times = []
    for _, pos, color in positions:
        pos.legal_moves(color)
        runs = []
        for _ in range(repeat):
            t = time.thread_time_ns()
            pos.legal_moves(color)
            runs.append((time.thread_time_ns() - t) / 1000)
        times.append(statistics.median(runs))
    return times


def pct(values, q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def precompute_ms(size: int) -> float:
    """Build the tables for `size` in a fresh interpreter (nothing cached); the modules are
    imported before the clock starts, so the figure is the tables' build alone."""
    code = (
        "import time; from engine.cornerclaim.board import BoardConst; t=time.thread_time(); "
        f"BoardConst({size}); print((time.thread_time()-t)*1000)"
    )
    runs = [
        float(subprocess.check_output([sys.executable, "-c", code], cwd=ROOT, text=True))
        for _ in range(5)
    ]
    return statistics.median(runs)


def playouts_per_second(variant: str, seconds: float, seed: int = 1,
                        count: int | None = None) -> tuple[float, float]:
    """Random playouts from the empty board: a uniformly random legal move each turn.

    Runs for `seconds` of CPU time, or exactly `count` playouts when given (warm-up)."""
    draw = random.Random(seed).random
    start = Position(VARIANTS[variant])
    n = moves = 0
    t0 = time.thread_time()
    while (n < count) if count is not None else (time.thread_time() - t0 < seconds):
        pos = start.copy()
        alive = list(range(pos.nu_colors))
        i = 0
        while alive:
            color = alive[i]
            m = pos.random_move(color, draw)
            if m is None:
                del alive[i]
            else:
                pos.play(color, m)
                moves += 1
                i += 1
            if i >= len(alive):
                i = 0
        n += 1
    elapsed = time.thread_time() - t0
    return n / elapsed, moves / n


def host_workload(games: int, steps: int, *, narrow: bool, seed: int = 1) -> tuple[float, float]:
    """A host's pattern: `games` random classic games at once, a move in each in turn.

    Each move costs one legal list of the side to move and `has_moves` for every seat (the
    rules' turn order). Returns CPU µs per legal list and per four `has_moves`, with the
    wide tables (`narrow=False`) or the small-window ones. Run first in a fresh process:
    the tables' caches start empty, as in a host that just started.
    """
    rng = random.Random(seed)
    positions = [Position(VARIANTS["classic"]) for _ in range(games)]
    legal_ns = has_ns = n = 0
    for step in range(steps):
        for pos in positions:
            color = step % 4
            t = time.thread_time_ns()
            moves = pos.legal_moves(color, narrow=narrow)
            legal_ns += time.thread_time_ns() - t
            if moves:
                pos.play(color, rng.choice(moves))
            t = time.thread_time_ns()
            for c in range(4):
                pos.has_moves(c)
            has_ns += time.thread_time_ns() - t
            n += 1
    return legal_ns / n / 1000, has_ns / n / 1000


def host_workload_table(games: int = 100, steps: int = 60) -> None:
    print(f"Host workload: {games} random classic games at once, {steps} moves each "
          "(CPU µs per move, fresh caches)\n")
    print("| legal list from | legal list | has_moves × 4 (small window) |\n|---|---:|---:|")
    for narrow in (False, True):
        code = ("import sys; sys.path.insert(0, '.'); from scripts.bench_engine import "
                f"host_workload as h; print(*h({games}, {steps}, narrow={narrow}))")
        out = subprocess.check_output([sys.executable, "-c", code], cwd=ROOT, text=True)
        legal, has = (float(x) for x in out.split())
        name = "small window (3×3)" if narrow else "wide window (5×5, bounded cache)"
        print(f"| {name} | {legal:.0f} | {has:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="per playout measurement")
    ap.add_argument("--repeat", type=int, default=20, help="timed calls per position")
    ap.add_argument("--warmup", type=int, default=3000,
                    help="playouts run first to fill the pattern caches (steady state)")
    ap.add_argument("--host-only", action="store_true",
                    help="only the host workload table")
    args = ap.parse_args()
    if args.host_only:
        host_workload_table()
        return

    print("Legal moves of the side to move (µs per call, one core)\n")
    print(f"| {'variant':8} | {'phase':6} | {'positions':>9} | {'moves':>6} | "
          f"{'median':>7} | {'p90':>7} |")
    print("|---|---|---:|---:|---:|---:|")
    for variant in ("duo", "classic"):
        positions = suite(variant)
        times = time_legal(positions, args.repeat)
        counts = [len(p.legal_moves(c)) for _, p, c in positions]
        for phase in ("early", "mid", "late", "all"):
            idx = [i for i, (ph, _, _) in enumerate(positions) if phase in (ph, "all")]
            t = [times[i] for i in idx]
            mv = statistics.mean(counts[i] for i in idx)
            print(f"| {variant:8} | {phase:6} | {len(idx):9} | {mv:6.0f} | "
                  f"{statistics.median(t):7.1f} | {pct(t, 0.9):7.1f} |")

    print("\nPrecompute per board size (CPU ms, fresh process, median of 5)\n")
    print("| size | ms |\n|---:|---:|")
    for size in (14, 20):
        print(f"| {size} | {precompute_ms(size):.1f} |")

    print(f"\nRandom playouts from the empty board ({args.seconds:.0f} CPU s each, after "
          f"{args.warmup} warm-up playouts)\n")
    print("| variant | playouts/s | moves per playout | cache misses per playout |")
    print("|---|---:|---:|---:|")
    for variant in ("duo", "classic"):
        cache = move_tables(VARIANTS[variant].size, 1).cache
        playouts_per_second(variant, 0, count=args.warmup)
        before = len(cache)
        rate, moves = playouts_per_second(variant, args.seconds)
        misses = (len(cache) - before) / (rate * args.seconds)
        print(f"| {variant} | {rate:.0f} | {moves:.1f} | {misses:.2f} |")
    print()
    host_workload_table()


if __name__ == "__main__":
    main()
