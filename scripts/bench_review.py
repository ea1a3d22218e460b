#!/usr/bin/env python3
"""Measure the computer review's labels: how many moves of strong games it flags, how often a
second seed gives the same label, how noisy the loss is between seeds, and how the moves the
Hint offered are labelled.

    .venv/bin/python scripts/bench_review.py labels RECORD... [--seeds 0 1]
    .venv/bin/python scripts/bench_review.py hint GAME VARIANT [--games 2] [--opponent 4]
        [--options JSON] [--save DIR]

`labels` reviews each record once per seed and prints, per record and in total: the moves,
the share labelled mistake or blunder, the share labelled blunder (first seed), the share
with the same label under both seeds (a seed of −1: seed 0 searched deeper, for the
searches that draw nothing at random), and the mean and 90th percentile of |loss(seed a) −
loss(seed b)| (the noise of a loss). `hint` plays games where seat 1 plays the host's Hint
each move (`Hints.hint`) and seat 2 the computer at `--opponent`, reviews them, and prints
how the hinted moves are labelled.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry  # noqa: E402
from engine.analysis import review  # noqa: E402
from engine.capabilities import Analysis, Computer, Hints, capability  # noqa: E402
from engine.core import Game  # noqa: E402
from replays import read_record  # noqa: E402
from scripts.match_tally import play_out  # noqa: E402

registry.games()

BAD = ("mistake", "blunder")
OK = ("book", "best", "good", "inaccuracy")


def reviewed(game, seed: int):
    """The game's review with `seed`; a negative seed: seed 0 searched deeper (Corners one
    ply, Corner twice the positions), the horizon's noise for the searches with no draws."""
    rules = game.rules
    if seed >= 0:
        return list(review(game, rules, capability(rules, Analysis).analysis_thresholds, seed=seed))
    from engine.corners import analysis as corners
    from engine.marbles import analysis as marbles

    saved = corners.DEPTH, marbles.NODES
    corners.DEPTH, marbles.NODES = corners.DEPTH + 1, marbles.NODES * 2
    try:
        return list(review(game, rules, capability(rules, Analysis).analysis_thresholds, seed=0))
    finally:
        corners.DEPTH, marbles.NODES = saved


def labels(paths: list[Path], seeds: list[int], dump: Path | None = None) -> None:
    total = Counter()
    same = n_all = 0
    deltas: list[float] = []
    dumped = {}
    print("| record | moves | mistake+blunder | blunder | same label | mean Δloss | p90 Δloss "
          "| s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for path in paths:
        game = read_record(path.read_bytes())
        t0 = time.process_time()
        runs = [reviewed(game, s) for s in seeds]
        secs = time.process_time() - t0
        first = runs[0]
        dumped[path.name] = [[[p.ply, p.label, p.loss] for p in r] for r in runs]
        c = Counter(p.label for p in first)
        total.update(c)
        n = len(first)
        n_all += n
        agree = sum(len({r[i].label for r in runs}) == 1 for i in range(n))
        same += agree
        d = [abs(runs[0][i].loss - runs[1][i].loss) for i in range(n)] if len(runs) > 1 else [0]
        deltas += d
        print(f"| {path.name} | {n} | {(c['mistake'] + c['blunder']) / n:.1%} | "
              f"{c['blunder'] / n:.1%} | {agree / n:.1%} | {statistics.mean(d):.3f} | "
              f"{sorted(d)[int(0.9 * (len(d) - 1))]:.3f} | {secs:.0f} |", flush=True)
        for i, p in enumerate(first):
            if p.label in BAD or len({r[i].label for r in runs}) > 1:
                print(f"    {p.ply:>3} {p.move:<22} best {p.best:<22} "
                      + " ".join(f"{r[i].label}:{r[i].loss:.3f}" for r in runs),
                      file=sys.stderr)
    print(f"| all | {n_all} | {(total['mistake'] + total['blunder']) / n_all:.1%} | "
          f"{total['blunder'] / n_all:.1%} | {same / n_all:.1%} | {statistics.mean(deltas):.3f} | "
          f"{sorted(deltas)[int(0.9 * (len(deltas) - 1))]:.3f} | |")
    print("labels:", dict(total))
    if dump is not None:
        dump.write_text(json.dumps(dumped))


def hinted_game(game_id: str, variant: str, g: int, opponent: int,
                options: dict) -> tuple[Game, set[int]]:
    """Game `g`: the Hint on seat 1 + g % 2, the computer at `opponent` on the other; with the
    seqs of the hinted moves."""
    game = Game.new(game_id, variant, ("Hint", "Computer"), options)
    hints, computer = capability(game.rules, Hints), capability(game.rules, Computer)
    hinted: set[int] = set()

    def move(state, seat: int, ply: int) -> str:
        if seat == 1 + g % 2:
            hinted.add(game.seq + 1)
            return hints.hint(state, seat)
        return computer.choose_move(state, seat, level=opponent, seed=g * 1000 + ply)

    return play_out(game, move, random.Random(g)), hinted


def hint(game_id: str, variant: str, games: int, opponent: int, options: dict,
         save: Path | None = None) -> None:
    got = Counter()
    for g in range(games):
        game, hinted = hinted_game(game_id, variant, g, opponent, options)
        if save is not None:
            save.mkdir(parents=True, exist_ok=True)
            (save / f"{game_id}-{variant}-hint-{g + 1}.json").write_text(game.to_json())
        plies = [p for p in reviewed(game, 0) if p.seq in hinted]
        c = Counter(p.label for p in plies)
        got.update(c)
        ok = sum(c[k] for k in OK)
        print(f"game {g + 1}: {len(plies)} hinted moves, {ok / max(1, len(plies)):.1%} at worst "
              f"an inaccuracy: {dict(c)}", flush=True)
        for p in plies:
            if p.label in BAD:
                print(f"    {p.ply:>3} {p.move:<22} best {p.best:<22} {p.label} {p.loss:.3f} "
                      f"({p.value_before:.2f} → {p.value_after:.2f})", file=sys.stderr)
    n = sum(got.values())
    print(f"all: {n} hinted moves, {sum(got[k] for k in OK) / max(1, n):.1%} at worst an "
          f"inaccuracy: {dict(got)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    a = sub.add_parser("labels")
    a.add_argument("records", nargs="+", type=Path)
    a.add_argument("--seeds", nargs="+", type=int, default=[0, 1])
    a.add_argument("--dump", type=Path, default=None,
                   help="write every review's (ply, label, loss) to this JSON file")
    b = sub.add_parser("hint")
    b.add_argument("game")
    b.add_argument("variant")
    b.add_argument("--games", type=int, default=2)
    b.add_argument("--opponent", type=int, default=4)
    b.add_argument("--options", type=json.loads, default={})
    b.add_argument("--save", type=Path, default=None,
                   help="a folder to write each game's log to (the hinted seat: 1 in odd "
                        "games, 2 in even ones)")
    args = parser.parse_args()
    if args.what == "labels":
        labels(args.records, args.seeds, args.dump)
    else:
        hint(args.game, args.variant, args.games, args.opponent, args.options, args.save)


if __name__ == "__main__":
    main()
