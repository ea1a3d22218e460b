"""Play Corners' computer levels against each other, or against a greedy one-ply player, and
print a table.

A player is a level number (`4`), a level with overrides for experiments
(`4/depth=5/width=12/nodes=0`: the fields of `engine.corners.ai.Level`), or `greedy`
(`engine.corners.ai.greedy_move`: the move that brings a piece nearest the far corner).
Each pairing plays `--games` games on `--variant` (classic-3x3 by default) without a clock,
the first player white in even games and black in odd ones; game g uses seed `--seed` + g
for both players. A win counts 1, a draw ½. Games run in `--jobs` processes.

  python scripts/match_corners.py --pairs 2:1 3:2 4:3 4:greedy --games 40
  python scripts/match_corners.py --pairs 4/depth=5:3 --games 10 --variant diagonal-3x3

Prints one line per game with `--verbose`, then a table: pairing, games, the first player's
wins, draws and losses, its score (%), a Wilson 95 % interval, the end reasons, the mean
moves per game and each player's mean and longest seconds per move.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.corners import ai  # noqa: E402
from engine.corners.rules import RULES, start_state  # noqa: E402


def player(spec: str):
    """A function (state, seat, seed) -> move text for a player spec."""
    if spec == "greedy":
        return lambda state, seat, seed: ai.greedy_move(state, seat, seed=seed)
    number, *overrides = spec.split("/")
    base = ai.LEVELS[int(number)]
    if overrides:
        fields = {}
        for item in overrides:
            key, _, value = item.partition("=")
            current = getattr(base, key)
            fields[key] = type(current)(float(value)) if not isinstance(current, str) \
                else value
        level = replace(base, **fields)
        key = 100 + len(ai.LEVELS)
        ai.LEVELS[key] = level
        return lambda state, seat, seed: ai.choose_move(state, seat, level=key, seed=seed)
    return lambda state, seat, seed: ai.choose_move(state, seat, level=int(number), seed=seed)


def play_game(args: tuple[str, str, str, int]) -> dict:
    """One game: `white` and `black` are player specs; returns its facts."""
    white, black, variant, seed = args
    players = {1: player(white), 2: player(black)}
    state = start_state(variant, reserve_s=0)
    spent = {1: [], 2: []}
    while not state.over:
        seat = state.to_move
        t = time.perf_counter()
        move = players[seat](state, seat, seed)
        spent[seat].append(time.perf_counter() - t)
        state = RULES.apply(state, RULES.play(state, seat, move))
    outcome = RULES.outcome(state)
    return {"reason": outcome.reason, "results": outcome.results, "scores": outcome.scores,
            "moves": state.number - (state.plies % 2 == 0), "spent": spent}


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n), (centre + margin) / (1 + z * z / n)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", nargs="+", default=["2:1", "3:2", "4:3", "4:greedy"],
                    help="pairings A:B (A is the player measured)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--variant", default="classic-3x3")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)

    rows = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for pair in args.pairs:
            a, b = pair.split(":")
            jobs = [((a, b) if g % 2 == 0 else (b, a)) + (args.variant, args.seed + g)
                    for g in range(args.games)]
            wins = draws = losses = 0
            reasons: Counter = Counter()
            moves = 0
            times = {a: [], b: []}
            for g, game in enumerate(pool.map(play_game, jobs)):
                seat = 1 if g % 2 == 0 else 2
                result = game["results"][seat - 1]
                wins += result == "win"
                draws += result == "draw"
                losses += result == "loss"
                reasons[game["reason"]] += 1
                moves += game["moves"]
                times[a].extend(game["spent"][seat])
                times[b].extend(game["spent"][3 - seat])
                if args.verbose:
                    print(f"{pair} game {g}: {a} {'white' if seat == 1 else 'black'}, "
                          f"{result} by {game['reason']}, scores {game['scores']}, "
                          f"{game['moves']} moves", flush=True)
            score = wins + draws / 2
            lo, hi = wilson(score, args.games)
            rows.append((pair, args.games, wins, draws, losses, 100 * score / args.games,
                         f"{100 * lo:.0f}–{100 * hi:.0f}",
                         " ".join(f"{r}:{n}" for r, n in reasons.most_common()),
                         moves / args.games,
                         f"{_mean(times[a]):.3f}/{max(times[a], default=0):.2f}",
                         f"{_mean(times[b]):.3f}/{max(times[b], default=0):.2f}"))
    head = ("pair A:B", "games", "W", "D", "L", "A %", "95 %", "ends", "moves",
            "A s mean/max", "B s mean/max")
    print(f"variant {args.variant}, seeds {args.seed}–{args.seed + args.games - 1}")
    print(" | ".join(head))
    for row in rows:
        print(" | ".join(f"{x:.1f}" if isinstance(x, float) else str(x) for x in row))
    return 0


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


if __name__ == "__main__":
    raise SystemExit(main())
