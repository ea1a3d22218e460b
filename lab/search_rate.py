#!/usr/bin/env python3
"""Search rate side by side: level 6's simulations a second and Pentobi's on the same
positions (opening, middle, end of a game), and, for a short move, how much of it goes to
setting up the search (the root's priors and tree) rather than simulations.

    .venv/bin/python lab/search_rate.py --pentobi /path/to/pentobi-gtp --books /path/to/books

Positions: a game of `--variant` played by level 2 (seed = ply) to `--plies` placements each
(out of both books). Level 6: `FlatSearch` with its options, run for `--seconds` of wall
time after its root is built; the rate is its simulations over the run's seconds. Pentobi:
`genmove` at `--level` from the same position (GTP `play` of every placement), one thread,
no book; its rate is the "Sim/s" it prints on stderr. The short move (`--short`, seconds):
level 6's whole `search_move` call, timed in parts — building the search (`FlatSearch(...)`:
the root's listing, priors and tables) and `run` — over `--repeat` calls.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cornerclaim import new_game  # noqa: E402
from engine.cornerclaim.ai import LEVELS, choose_move, warm_up  # noqa: E402
from engine.cornerclaim.ai.features import recent_placements  # noqa: E402
from engine.cornerclaim.ai.flat import FlatSearch  # noqa: E402


def position(variant: str, plies: int):
    game = new_game(variant)
    for ply in range(plies):
        state = game.state
        move = choose_move(state, state.to_move, level=2, seed=ply)
        game.play(state.to_move, state.move_str(move))
    return game


def ours(state, seconds: float) -> tuple[float, float, int]:
    """(seconds to build the search, simulations a second of its run, simulations)."""
    spec = LEVELS[6]
    pos, color = state.position, state.to_move - 1
    t0 = time.perf_counter()
    search = FlatSearch(pos, color, seed=1, recent=recent_placements(state),
                        **spec.search_options(pos, color))
    t1 = time.perf_counter()
    search.run(10**9, seconds)
    t2 = time.perf_counter()
    return t1 - t0, search.simulations / (t2 - t1), search.simulations


def pentobi(binary: str, books: str, variant: str, game, level: int) -> tuple[float, int]:
    """(Pentobi's simulations a second, its simulations) for its `genmove` here."""
    colours = {"duo": ("b", "w"), "classic": ("1", "2", "3", "4")}[variant]
    lines = [f"play {colours[s - 1]} {m}" for _, s, m in
             ((None, seat, game.state.move_str(move)) for _, seat, move in
              game.state.placements)]
    lines += [f"genmove {colours[game.state.to_move - 1]}", "quit"]
    out = subprocess.run([binary, "--game", variant, "--level", str(level), "--threads", "1",
                          "--nobook", "--seed", "1"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, cwd=books, timeout=600)
    rate = re.findall(r"Sim/s (\d+)", out.stderr)
    sims = re.findall(r"Sim (\d+)", out.stderr)
    return (float(rate[-1]) if rate else 0.0), (int(sims[-1]) if sims else 0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pentobi", default=None)
    parser.add_argument("--books", default=".")
    parser.add_argument("--variant", default="duo", choices=("duo", "classic"))
    parser.add_argument("--plies", type=int, nargs="+", default=[4, 14, 24])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--level", type=int, default=7)
    parser.add_argument("--short", type=float, default=0.15)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    warm_up()
    print(f"| {args.variant}, placements | level 6 build s | level 6 sims/s | level 6 sims "
          f"| Pentobi {args.level} sims/s | Pentobi sims |")
    print("|---:|---:|---:|---:|---:|---:|")
    for plies in args.plies:
        game = position(args.variant, plies)
        build, rate, sims = ours(game.state, args.seconds)
        p_rate, p_sims = (pentobi(args.pentobi, args.books, args.variant, game, args.level)
                          if args.pentobi else (0.0, 0))
        print(f"| {plies} | {build:.3f} | {rate:,.0f} | {sims:,} | {p_rate:,.0f} | {p_sims:,} |",
              flush=True)
    print(f"\nA {args.short} s move (level 6's search, {args.variant}): build / run seconds")
    for plies in args.plies:
        game = position(args.variant, plies)
        builds, sims = [], []
        for _ in range(args.repeat):
            build, rate, n = ours(game.state, args.short)
            builds.append(build)
            sims.append(n)
        print(f"| {plies} | build {sum(builds) / len(builds):.3f} s | "
              f"{sum(sims) / len(sims):,.0f} simulations in {args.short} s |", flush=True)


if __name__ == "__main__":
    main()
