"""Score the second player's replies to a first piece by finishing games, not by one search.

  python lab/second_reply.py --first e8,d9,e9,e10,f10 --reply j5,k5,i6,j6,i7 \
      --reply h4,i4,i5,j5,i6 --engine 'pentobi-gtp -g duo -l 7 … --seed {seed}' \
      --finishes 10 --jobs 2 --out /tmp/replies.jsonl

For each reply, the duo position after the first piece and the reply is finished
`--finishes` times with `--engine` in both seats (two processes, seeds `seed` and
`seed + 500`, `{seed}` in the command replaced), each finish with its own seed. The table
gives the second player's mean margin (its score less the first player's) with its
standard error, and its wins (a draw counts half). Every reply of one first piece is
finished from the same seeds, so the comparison is paired where the engine repeats itself.

A search of ours ranks the replies to a first piece within a few hundredths of a win rate
of each other (lab/README.md): a strong engine's finishes tell them apart by points.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import mean, stdev

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from match import make_engine  # noqa: E402

from engine.cornerclaim import RULES, new_game  # noqa: E402


def finish(job) -> dict:
    """One finish: (first, reply, engine, seed) → the scores."""
    first, reply, spec, seed = job
    game = new_game("duo")
    game.play(1, first)
    game.play(2, reply)
    moves = [(1, first), (2, reply)]
    engines = {1: make_engine(spec, "duo", seed), 2: make_engine(spec, "duo", seed + 500)}
    try:
        for engine in engines.values():
            engine.set_position(game, moves)
        while not game.state.is_over:
            seat = game.state.to_move
            cells = engines[seat].genmove(game, seat)
            game.play(seat, cells)
            engines[3 - seat].played(game, seat, cells)
    finally:
        for engine in engines.values():
            engine.close()
    scores = list(RULES.outcome(game.state).scores)
    return {"first": first, "reply": reply, "seed": seed, "scores": scores}


def summary(rows: list[dict]) -> str:
    out = ["| first piece | reply | finishes | second's margin ± se | second's wins |",
           "|---|---|---:|---:|---:|"]
    groups: dict[tuple, list] = {}
    for r in rows:
        groups.setdefault((r["first"], r["reply"]), []).append(r)
    for (first, reply), rs in groups.items():
        margins = [r["scores"][1] - r["scores"][0] for r in rs]
        wins = sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins)
        se = stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else float("nan")
        out.append(f"| {first} | {reply} | {len(rs)} | {mean(margins):+.1f} ± {se:.1f} "
                   f"| {wins:g} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", required=True, help="the first player's piece")
    parser.add_argument("--reply", action="append", required=True)
    parser.add_argument("--engine", required=True, help="plays both seats ({seed}: its seed)")
    parser.add_argument("--finishes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", help="append every finish as a JSON line here")
    args = parser.parse_args(argv)
    jobs = [(args.first, reply, args.engine, args.seed + 1000 * i)
            for i in range(args.finishes) for reply in args.reply]
    rows = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for row in pool.map(finish, jobs):
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.out:
                with open(args.out, "a") as f:
                    f.write(json.dumps(row) + "\n")
    print(summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
