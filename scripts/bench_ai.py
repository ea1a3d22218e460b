"""Speed of the computer players, printed as the Markdown table in docs/performance.md.

  python scripts/bench_ai.py            # playouts/s per variant, then s/move per level (duo)
  python scripts/bench_ai.py --quick    # fewer positions
  python scripts/bench_ai.py --playouts-only --seconds 2
  python scripts/bench_ai.py --priors-only   # only the cost of scoring a node's moves
  python scripts/bench_ai.py --expand-only   # one node of level 6's search: Python, compiled
  python scripts/bench_ai.py --search-only   # only level 6's simulations per second
  python scripts/bench_ai.py --playouts-only --fixed 2000   # CPU time of fixed work

Playouts per second: weighted playouts (`ai.playing.playout`) from the empty board and from a
position 8 placements per seat in, for `--seconds` each, after 300 warm-up playouts; with the
sampled policy (levels 3–5) and the local-first one (level 6), the last three placements
before the position given as the recent moves, as the search gives them.
Move priors: CPU µs per legal move to score a node's children (what an expansion pays on top
of listing them): the one-ply heuristic (levels 3–5) and the learned model
(level 6; classic uses the duo weights here when it has none of its own), on positions 0, 8
and 16 placements per seat in.
Node expansion: CPU µs to list and score one node of level 6's search (its colour, legal
moves and learned scores, best first), built in Python along the tree path and in one
compiled call, on 300 leaves one to three random placements below positions 0, 8 and 16
placements per seat in (classic also 4).
Search rate: simulations per second of level 6's search on positions 0, 8 and 16
placements per seat in, classic also 4 (where level 6's playouts weigh new corners), as
level 6 plays there (the playouts, expansions and tree walks together).
With `--fixed N` the playout and search tables time N playouts / simulations each in CPU
seconds of this thread instead of running for `--seconds` of wall clock: the figures then
hardly move when the machine's other jobs do (comparing two commits, run each a few times).
Time per move: every level on the same positions from a few seeded duo games (level 2
plays them out), one core, tree reuse off, so each figure is a cold search.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cornerclaim import new_game  # noqa: E402
from engine.cornerclaim.ai import LEVELS, search_move  # noqa: E402
from engine.cornerclaim.ai.features import _all_weights, prior_logits, recent_placements  # noqa: E402
from engine.cornerclaim.ai.flat import FlatSearch  # noqa: E402
from engine.cornerclaim.ai.heuristic import score_moves  # noqa: E402
from engine.cornerclaim.ai.leaf import leaf_lists_from_python, random_path  # noqa: E402
from engine.cornerclaim.ai.mcts import expand_lists  # noqa: E402
from engine.cornerclaim.ai.playing import playout  # noqa: E402


def playouts_per_second(variant: str, plies: int, seconds: float,
                        local: bool = False, fixed: int = 0) -> tuple[float, float]:
    """Playouts/s and µs per playout move; `local`: level 6's local-first policy; `fixed`:
    that many playouts, timed in CPU seconds of this thread."""
    game = _game(variant, plies, seed=1)
    pos0 = game.state.position
    first = (game.state.to_move or 1) - 1
    recent = recent_placements(game.state)
    for i in range(300):  # fill the window cache first (cold it costs several times more)
        playout(pos0, first, i, recent=recent, local_mode=local)
    n = moves = 0
    clock = time.thread_time if fixed else time.perf_counter
    t0 = clock()
    while (n < fixed) if fixed else (clock() - t0 < seconds):
        played, _ = playout(pos0, first, n, recent=recent, local_mode=local)
        moves += sum(map(len, played))
        n += 1
    dt = clock() - t0
    return n / dt, dt / max(moves, 1) * 1e6


def _game(variant: str, plies: int, seed: int):
    """A game after `plies` placements by level 2 (with varied seeds)."""
    game = new_game(variant)
    for i in range(plies):
        state = game.state
        if state.is_over:
            break
        move = search_move(state, state.to_move, level=2, seed=seed * 100 + i)
        game.play(state.to_move, state.move_str(move))
    return game


def prior_cost(variant: str, plies: int, repeat: int = 30) -> dict[str, float]:
    """CPU µs per legal move for each way of scoring a node's children."""
    state = _game(variant, plies, seed=3).state
    pos = state.position
    color = (state.to_move or 1) - 1
    moves = pos.legal_moves(color)
    recent = recent_placements(state)
    weights = _all_weights()
    w = weights.get("duo" if pos.bc.size <= 14 else "classic") or weights["duo"]
    scorers = {
        "heuristic": lambda: score_moves(pos, color, moves),
        "learned": lambda: prior_logits(pos, color, moves, w, recent),
    }
    out = {"moves": float(len(moves))}
    for name, fn in scorers.items():
        fn()
        t = time.thread_time_ns()
        for _ in range(repeat):
            fn()
        out[name] = (time.thread_time_ns() - t) / repeat / max(len(moves), 1) / 1000
    return out


def priors_table() -> None:
    print("| variant | placements per seat | legal moves | heuristic µs/move "
          "| learned µs/move |")
    print("|---|---:|---:|---:|---:|")
    for variant in ("duo", "classic"):
        n = 2 if variant == "duo" else 4
        for each in (0, 8, 16):
            c = prior_cost(variant, each * n)
            print(f"| {variant} | {each} | {c['moves']:.0f} | {c['heuristic']:.2f} "
                  f"| {c['learned']:.2f} |")


def expansion_table(nodes: int = 300) -> None:
    """The cost of listing and scoring one node of level 6's search: in Python (a position
    built along the tree path, `mcts.expand_lists`, as the levels without the learned
    prior expand their nodes) and compiled (`leaf.leaf_lists`, which `simulate._run` calls
    itself; from here through `leaf_lists_from_python`), on `nodes` leaves one to three
    random placements below each benchmark position, CPU time of this thread."""
    print("| variant | placements per seat | moves a node | Python µs/node "
          "| compiled µs/node | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for variant in ("duo", "classic"):
        n = 2 if variant == "duo" else 4
        for each in (0, 4, 8, 16) if variant == "classic" else (0, 8, 16):
            state = _game(variant, each * n, seed=3).state
            root = state.position
            args = LEVELS[6].search_options(root, state.to_move - 1)
            search = FlatSearch(root.copy(), state.to_move - 1, seed=1,
                                recent=recent_placements(state), **args)
            rnd = random.Random(each)
            paths = [p for p in (random_path(root.copy(), rnd, 1 + i % 3)
                                 for i in range(nodes)) if p]
            arrays = [(np.array([c for c, _ in p]), np.array([m for _, m in p]),
                       np.arange(len(p))) for p in paths]
            moves = 0
            for color, move, steps in arrays[:5]:  # warm-up (compiled on first use)
                leaf_lists_from_python(len(steps), steps, steps, color, move, search._leaf)
            t = time.thread_time()
            for p in paths:
                pos = root.copy()
                for c, m in p:
                    pos.play(c, m)
                moves += len(expand_lists(
                    pos, (p[-1][0] + 1) % n, learned=search.learned, race=search.race,
                    recent=(search.recent + tuple(p))[-3:],
                    race_corners=search.race_corners)[1])
            py = (time.thread_time() - t) / len(paths)
            t = time.thread_time()
            for color, move, steps in arrays:
                leaf_lists_from_python(len(steps), steps, steps, color, move, search._leaf)
            jit = (time.thread_time() - t) / len(paths)
            print(f"| {variant} | {each} | {moves / len(paths):.0f} | {py * 1e6:.0f} "
                  f"| {jit * 1e6:.0f} | {py / jit:.1f} × |")


def search_rates(seconds: float, shipped: bool = True, fixed: int = 0) -> None:
    """Simulations per second of level 6's search (learned priors, local playouts, and with
    `shipped` every other search option the level sets there, `Level.search_options`: last
    good replies, the relative bonus, the rising expansion threshold, the game-length
    bonus, on the 20×20 board the corners factor in a colour's fourth to sixth pieces)
    on positions 0, 8 and 16 placements per seat in (classic also 4, where that factor
    applies): what the strength depends on. `fixed`: that many simulations, timed in CPU
    seconds of this thread."""
    print("| variant | placements per seat | simulations | seconds | simulations/s |")
    print("|---|---:|---:|---:|---:|")
    for variant in ("duo", "classic"):
        n = 2 if variant == "duo" else 4
        for each in (0, 4, 8, 16) if variant == "classic" else (0, 8, 16):
            state = _game(variant, each * n, seed=3).state
            color = state.to_move - 1
            # as shipped: level 6's search options; else only its playouts and priors
            args = (LEVELS[6].search_options(state.position, color) if shipped
                    else dict(local=True, learned=True))
            args.update(seed=1, recent=recent_placements(state))
            FlatSearch(state.position.copy(), color, **args).run(50)  # warm-up
            search = FlatSearch(state.position.copy(), color, **args)
            clock = time.thread_time if fixed else time.perf_counter
            t = clock()
            search.run(fixed or 10**9, None if fixed else seconds)
            dt = clock() - t
            print(f"| {variant} | {each} | {search.simulations:,} | {dt:.2f} "
                  f"| {search.simulations / dt:,.0f} |")


def seconds_per_move(level: int, positions) -> tuple[float, float]:
    times = []
    for state in positions:
        t = time.perf_counter()
        search_move(state, state.to_move, level=level, seed=7, reuse=False)
        times.append(time.perf_counter() - t)
    return statistics.mean(times), max(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--playouts-only", action="store_true", help="skip the time per move")
    ap.add_argument("--priors-only", action="store_true",
                    help="only the cost of scoring a node's moves")
    ap.add_argument("--expand-only", action="store_true",
                    help="only the cost of listing and scoring one node of level 6's "
                         "search, in Python and compiled")
    ap.add_argument("--search-only", action="store_true",
                    help="only level 6's simulations per second, as shipped and with only "
                         "local playouts and learned priors")
    ap.add_argument("--fixed", type=int, default=0, metavar="N",
                    help="time N playouts / simulations per row in CPU seconds instead of "
                         "--seconds of wall clock")
    args = ap.parse_args(argv)
    if args.priors_only:
        priors_table()
        return 0
    if args.expand_only:
        expansion_table()
        return 0
    if args.search_only:
        search_rates(args.seconds, fixed=args.fixed)
        print()
        search_rates(args.seconds, shipped=False, fixed=args.fixed)
        return 0
    print("| variant | from | policy | playouts/s | µs per playout move |")
    print("|---|---|---|---:|---:|")
    for variant in ("duo", "classic"):
        n = 2 if variant == "duo" else 4
        for label, plies in (("empty board", 0), ("8 placements each", 8 * n)):
            for policy in ("sampled", "local"):
                rate, per_move = playouts_per_second(variant, plies, args.seconds,
                                                     local=policy == "local",
                                                     fixed=args.fixed)
                print(f"| {variant} | {label} | {policy} | {rate:,.0f} | {per_move:.1f} |")
    print()
    priors_table()
    print()
    search_rates(args.seconds, fixed=args.fixed)
    if args.playouts_only:
        return 0
    plies = (0, 6, 12, 18) if args.quick else (0, 4, 8, 12, 16, 20)
    positions = [_game("duo", p, seed=s).state for p in plies for s in (1, 2)]
    positions = [s for s in positions if not s.is_over]
    print()
    print(f"Time per move on {len(positions)} duo positions, one core, no tree reuse\n")
    print("| level | name | playouts | mean s/move | max s/move |")
    print("|---|---|---:|---:|---:|")
    for number, level in sorted(LEVELS.items()):
        mean, worst = seconds_per_move(number, positions)
        budget = level.playouts or "one ply"
        print(f"| {number} | {level.name} | {budget} | {mean:.2f} | {worst:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
