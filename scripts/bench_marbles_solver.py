"""How far Corner's exact solver reaches on this machine, and how often the expert plays an
optimal move, printed as two tables.

Positions: round 1 of a 2-round game dealt at random from seed `--seed` + i, played by the
casual level (level 2, seed = ply) until `k` takeable marbles are left.

1. The solver's reach: for each `k`, the share of positions it answers within its budget
   (`engine.marbles.solve.NODES` positions and the level's CPU cap) and the CPU seconds of
   a solve (median and longest, answered or not): solving every move's value (as the
   analysis does) and the best moves' only (as level 4 does in play).
2. `--optimal`: for each `k` in 22–26, the share of positions where level 4 plays an
   optimal move (its move's exact value equals the best, from a solve without a budget),
   with the search alone (as before the solver) and as shipped (the solver first from
   `SOLVE_FROM` marbles left); the share of positions the shipped level solved, and of
   those, the share it played optimally.

  python scripts/bench_marbles_solver.py --positions 20
  python scripts/bench_marbles_solver.py --positions 20 --variant 4p
  python scripts/bench_marbles_solver.py --positions 20 --optimal
  python scripts/bench_marbles_solver.py --positions 20 --nodes 250000 --cpu 5 --low 22
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.marbles import (  # noqa: E402
    RULES,
    ai,  # noqa: E402
    start_state,
)
from engine.marbles.board import random_setup  # noqa: E402
from engine.marbles.solve import NODES, solve, takeable  # noqa: E402


def position(variant: str, seed: int, k: int):
    """Round 1 dealt from `seed`, played by level 2 until `k` takeable marbles are left (or
    None if the round ends first)."""
    state = start_state(variant, random_setup(random.Random(seed)))
    ply = 0
    while state.playing and takeable(state) > k:
        seat = state.to_move
        move = ai.choose_move(state, seat, level=2, seed=seed * 1000 + ply)
        state = RULES.apply(state, RULES.play(state, seat, move))
        ply += 1
    return state if state.playing and takeable(state) == k else None


def positions(variant: str, k: int, count: int, seed: int):
    out, s = [], seed
    while len(out) < count and s < seed + count * 20:
        p = position(variant, s, k)
        if p is not None:
            out.append(p)
        s += 1
    return out


def reach(args) -> None:
    nodes = args.nodes
    print(f"Solver reach, {args.variant}, budget {nodes:,} positions and {args.cpu} s CPU, "
          f"{args.positions} positions per row; every move's value (the analysis) and the "
          "best moves' only (level 4 in play)")
    print("| takeable left | positions | every move: answered | CPU s median, max | "
          "best only: answered | CPU s median, max |")
    print("| --- | --- | --- | --- | --- | --- |")
    for k in range(args.low, args.high + 1):
        ps = positions(args.variant, k, args.positions, args.seed)
        row = [str(k), str(len(ps))]
        for every in (True, False):
            seconds, answered = [], 0
            for p in ps:
                t = time.thread_time()
                got = solve(p, nodes=nodes, cpu=args.cpu, every=every)
                seconds.append(time.thread_time() - t)
                answered += got is not None
            row += [f"{100 * answered / max(1, len(ps)):.0f} %",
                    f"{statistics.median(seconds):.3f}, {max(seconds):.3f}"]
        print("| " + " | ".join(row) + " |")


def optimal(args) -> None:
    shipped = ai.LEVELS[4]
    search_only = replace(shipped, solve=0, solve4=0)
    reach = ai.SOLVE_FROM[2 if args.variant == "2p" else 4]
    print(f"Level 4's optimal moves, {args.variant}, {args.positions} positions per row "
          f"(the solver from {reach} takeable marbles left)")
    print("| takeable left | positions | search alone optimal | shipped optimal | shipped solved "
          "| shipped optimal where solved |")
    print("| --- | --- | --- | --- | --- | --- |")
    for k in range(args.optimal_low, args.optimal_low + 5):
        ps = positions(args.variant, k, args.positions, args.seed)
        before = after = solved = solved_right = 0
        for i, p in enumerate(ps):
            truth = solve(p, nodes=0)
            values = dict(truth.moves)
            seat = p.to_move
            try:
                ai.LEVELS[4] = search_only
                m0 = ai.choose(p, seat, level=4, seed=i)
            finally:
                ai.LEVELS[4] = shipped
            m1 = ai.choose(p, seat, level=4, seed=i)
            before += values[m0] == truth.value
            after += values[m1] == truth.value
            answered = k <= reach and solve(p, nodes=NODES, cpu=ai.TIME_CAP,
                                            every=False) is not None
            solved += answered
            solved_right += answered and values[m1] == truth.value
        n = max(1, len(ps))
        where = f"{100 * solved_right / solved:.0f} %" if solved else "—"
        print(f"| {k} | {len(ps)} | {100 * before / n:.0f} % | {100 * after / n:.0f} % | "
              f"{100 * solved / n:.0f} % | {where} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="2p", choices=("2p", "4p"))
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--low", type=int, default=18)
    ap.add_argument("--high", type=int, default=28)
    ap.add_argument("--nodes", type=int, default=NODES,
                    help="the solver's budget of positions (the review's: 250000)")
    ap.add_argument("--cpu", type=float, default=ai.TIME_CAP,
                    help="the solver's cap on CPU seconds")
    ap.add_argument("--optimal-low", type=int, default=22,
                    help="the fewest marbles left of the --optimal table's five rows")
    ap.add_argument("--optimal", action="store_true",
                    help="level 4's optimal moves at 22–26 marbles left instead of the reach")
    args = ap.parse_args()
    (optimal if args.optimal else reach)(args)


if __name__ == "__main__":
    main()
