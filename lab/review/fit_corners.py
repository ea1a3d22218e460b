#!/usr/bin/env python3
"""Fit the Corners review's win-chance curve to game outcomes: the win chance of the side to
move is 1 / (1 + exp(−value / width)) for the review's value (the Expert's evaluation units,
from the side to move), width either a constant SCALE or, phased, SCALE · √(remaining + 1)
with `remaining` both sides' cost still to run. Plays fast games (the Expert against itself
at `SECONDS` a move, the first `--random` plies by level 1 so that the games differ),
records every position's value (`analysis.scored`, its best move's), its remaining cost and
how the game ended for the side to move, and prints the SCALE of greatest likelihood for
each curve (draws count half a win; a forced win or loss left out: the review makes it 1 or
0), the log-loss of a few others, and the score by value.

    .venv/bin/python lab/review/fit_corners.py --games 30 [--variant classic-3x3]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import registry  # noqa: E402
from engine.core import Game  # noqa: E402
from engine.corners.ai import LEVELS, WIN, DeepSearch, choose_move  # noqa: E402

registry.games()


def evaluation(state) -> float:
    """The review's value of the position for the side to move: its best move's, searched
    `analysis.DEPTH` plies (`--static`: the evaluation without a search)."""
    if STATIC:
        search = DeepSearch(state.variant, list(state.board), state.plies, state.pending,
                            1e18, LEVELS[4])
        return search.evaluate()
    from engine.corners.analysis import DEPTH, scored

    values = scored(state, state.to_move, DEPTH)
    return max(values.values()) if values else 0.0


STATIC = False
#: The Expert's CPU seconds a move in the games played (level 3 cannot convert a won race:
#: its games' outcomes say little about a position's value).
SECONDS = 0.2


def remaining(state) -> float:
    """Both sides' cost left: how long the race still is (`analysis.remaining`)."""
    from engine.corners.analysis import remaining as left

    return left(state)


def samples(games: int, variant: str, random_plies: int) -> list[tuple[float, float]]:
    out = []
    for g in range(games):
        game = Game.new("corners", variant, (), {"reserve_s": 0})
        rules = game.rules
        seen = []
        ply = 0
        while not rules.is_over(game.state):
            state = game.state
            seat = rules.to_move(state)
            seen.append((seat, evaluation(state), remaining(state)))
            if ply < random_plies:
                move = rules.choose_move(state, seat, level=1, seed=g * 1000 + ply)
            else:  # the Expert, on a short budget
                move = choose_move(state, seat, level=4, seed=g * 1000 + ply, seconds=SECONDS)
            game.play(seat, move)
            ply += 1
        results = rules.outcome(game.state).results
        score = {"win": 1.0, "draw": 0.5, "loss": 0.0}
        out += [(v, score[results[seat - 1]], r) for seat, v, r in seen]
        print(f"game {g + 1}: {ply} plies, {results}", file=sys.stderr, flush=True)
    return out


def log_loss(data, scale: float, phased: bool = False) -> float:
    """The mean log-loss of the curve with `scale` (`phased`: `scale` · √(remaining + 1),
    the race's length left widening the curve)."""
    total = 0.0
    for v, y, r in data:
        s = scale * math.sqrt(r + 1) if phased else scale
        p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, v / s))))
        p = min(1 - 1e-9, max(1e-9, p))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(data)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--variant", default="classic-3x3")
    parser.add_argument("--random", type=int, default=4)
    parser.add_argument("--static", action="store_true")
    args = parser.parse_args()
    global STATIC
    STATIC = args.static
    data = samples(args.games, args.variant, args.random)
    (Path(__file__).resolve().parent / "corners_samples.json").write_text(json.dumps(data))
    data = [(v, y, r) for v, y, r in data if abs(v) < WIN // 2]  # forced ends: 0 or 1 anyway
    buckets: dict[int, list[float]] = {}
    for v, y, _ in data:
        buckets.setdefault(max(-24, min(24, int(v // 4 * 4))), []).append(y)
    print("| value | positions | score |\n|---:|---:|---:|")
    for k in sorted(buckets):
        print(f"| {k} | {len(buckets[k])} | {sum(buckets[k]) / len(buckets[k]):.2f} |")
    scales = [s / 2 for s in range(2, 81)]
    best = min(scales, key=lambda s: log_loss(data, s))
    print(f"{len(data)} positions from {args.games} games ({args.variant}): SCALE {best} "
          f"(log-loss {log_loss(data, best):.4f})")
    for s in (2, 4, 6, 8, 12, 16, 24):
        print(f"  SCALE {s}: log-loss {log_loss(data, s):.4f}")
    ks = [k / 20 for k in range(1, 201)]
    k = min(ks, key=lambda k: log_loss(data, k, True))
    print(f"phased: SCALE {k} · √(remaining + 1), log-loss {log_loss(data, k, True):.4f}")
    late = [d for d in data if d[2] < 20]
    if late:
        print(f"{len(late)} positions with under 20 left: SCALE "
              f"{min(scales, key=lambda s: log_loss(late, s))}")


if __name__ == "__main__":
    main()
