"""What a bot process's first move costs, printed as the Markdown table in docs/performance.md.

  python scripts/bench_first_move.py              # levels 5 and 6, classic
  python scripts/bench_first_move.py --game duo --levels 3,6

numba compiles the search's kernels at their first call and keeps them in an on-disk cache
(`__pycache__` beside the source, or NUMBA_CACHE_DIR). Each row runs fresh Python processes
(one per figure) on a new, empty cache directory: "fresh install" is the first process on
it (nothing cached yet), "cache on disk" the next one. Per level it prints the wall seconds
of the process's first move, without `ai.warm_up` and then after it (the move after
the warm-up is timed alone; the warm-up's own seconds have a column). The move is on a
position four placements in (out of book, `book=False`), tree reuse off. A time-bound
level's clock starts with the call, so without the warm-up the compiling eats its search:
the move takes the compile time and then searches for whatever of its budget is left.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHES = ("fresh install", "cache on disk")

CHILD = """
import json, sys, time
from engine.cornerclaim.ai import WARM_UP_PLIES, opening, search_move, warm_up

game_name, level, warm = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
spent = warm_up() if warm else 0.0
state = opening(game_name, WARM_UP_PLIES).state
t0 = time.perf_counter()
search_move(state, state.to_move, level=level, seed=1, book=False, reuse=False)
print(json.dumps({"warm_up": spent, "move": time.perf_counter() - t0}))
"""


def first_move(game: str, level: int, warm: bool, cache: str) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", CHILD, game, str(level), "1" if warm else "0"],
                         capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="classic", choices=("duo", "trio", "classic"))
    ap.add_argument("--levels", default="5,6", help="comma-separated search levels")
    args = ap.parse_args(argv)
    print(f"First move of a bot process, {args.game}, position 4 placements in "
          f"(wall seconds, load {os.getloadavg()[0]:.1f})\n")
    print("| level | cache | first move, no warm-up | warm-up | first move after it |")
    print("|---|---|---:|---:|---:|")
    for level in (int(v) for v in args.levels.split(",")):
        figures = {}  # (warm, cache label) -> result
        for warm in (False, True):
            with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
                for label in CACHES:  # the first process on an empty cache, then the next
                    figures[warm, label] = first_move(args.game, level, warm, cache)
        for label in CACHES:
            cold, warmed = figures[False, label], figures[True, label]
            print(f"| {level} | {label} | {cold['move']:.1f} | {warmed['warm_up']:.1f} | "
                  f"{warmed['move']:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
