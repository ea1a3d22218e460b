"""Play Corners' computer levels against each other, against a greedy one-ply player or against
the two yardsticks, and print a table.

A player is a level number (`4`), a level with overrides for experiments (the fields of
`engine.corners.ai.Level`: `4/seconds=0.5` gives level 4 that budget of its thread's CPU time
a move, `4/depth=5` searches five plies whatever the time, `4/width=0/lmr=0` every move), `greedy`
(`engine.corners.ai.greedy_move`: the move that brings a piece nearest the far corner), or
`yardstick` (`scripts/corners_yardstick.py`, an independent alpha-beta search; 1 s of CPU time
a move, `yardstick/seconds=0.5` for another budget) or `yardstick2`
(`scripts/corners_yardstick2.py`, another independent player: an evaluation by matching pieces
to target squares, an MTD(f) search; `yardstick2/seconds=0.5` likewise).
Each pairing plays `--games` games on `--variant` (classic-3x3 by default) without a clock,
the first player white in even games and black in odd ones; game g uses seed `--seed` + g
for both players. A win counts 1, a draw ½. Games run in `--jobs` processes.

  python scripts/match_corners.py --pairs 2:1 3:2 4:3 4:greedy --games 40
  python scripts/match_corners.py --pairs 4/depth=5:3 --games 10 --variant diagonal-3x3
  python scripts/match_corners.py --pairs 4:yardstick/seconds=1.0 --games 20
  python scripts/match_corners.py --pairs 4:yardstick2/seconds=1.0 yardstick2:yardstick --games 20

Prints one line per game with `--verbose`, then a table: pairing, games, the first player's
wins, draws and losses, its score (%), a Wilson 95 % interval, the end reasons, the mean
moves per game and each player's mean and longest seconds per move (the CPU time of the
thread that chose it: what the time-bound players budget, whatever else the machine runs).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.corners import ai  # noqa: E402
from engine.corners.rules import RULES, start_state  # noqa: E402
from scripts.corners_yardstick import yardstick_move  # noqa: E402
from scripts.corners_yardstick2 import yardstick2_move  # noqa: E402
from scripts.match_tally import (  # noqa: E402
    HEAD,
    SECONDS_HEAD,
    Tally,
    level_player,
    match_parser,
    play_pairs,
    print_table,
)

YARDSTICKS = {"yardstick": yardstick_move, "yardstick2": yardstick2_move}


def player(spec: str):
    """A function (state, seat, seed) -> move text for a player spec."""
    if spec == "greedy":
        return lambda state, seat, seed: ai.greedy_move(state, seat, seed=seed)
    name, *options = spec.split("/")
    if name in YARDSTICKS:
        seconds = 1.0
        for item in options:
            key, _, value = item.partition("=")
            if key != "seconds":
                raise SystemExit(f"the {name} takes only seconds=, not {item!r}")
            seconds = float(value)
        move = YARDSTICKS[name]
        return lambda state, seat, seed: move(state, seat, seconds=seconds, seed=seed)
    return level_player(ai, spec)


def play_game(args: tuple[str, str, str, int]) -> dict:
    """One game: `white` and `black` are player specs; returns its facts."""
    white, black, variant, seed = args
    players = {1: player(white), 2: player(black)}
    state = start_state(variant, reserve_s=0)
    spent = {1: [], 2: []}
    while not state.over:
        seat = state.to_move
        t = time.thread_time()
        move = players[seat](state, seat, seed)
        spent[seat].append(time.thread_time() - t)
        state = RULES.apply(state, RULES.play(state, seat, move))
    outcome = RULES.outcome(state)
    return {"reason": outcome.reason, "results": outcome.results, "scores": outcome.scores,
            "moves": state.number - (state.plies % 2 == 0), "spent": spent}


def main(argv=None) -> int:
    args = match_parser(__doc__, (("--variant",), {"default": "classic-3x3"})).parse_args(argv)

    rows = []
    for pair, a, games in play_pairs(args.pairs, args.games, args.jobs, play_game,
                                     lambda g: (args.variant, args.seed + g)):
        tally = Tally(pair)
        reasons: Counter = Counter()
        moves = 0
        for g, game in games:
            seat = 1 if g % 2 == 0 else 2
            result = game["results"][seat - 1]
            tally.add(result, game["spent"][seat], game["spent"][3 - seat])
            reasons[game["reason"]] += 1
            moves += game["moves"]
            if args.verbose:
                print(f"{pair} game {g}: {a} {'white' if seat == 1 else 'black'}, "
                      f"{result} by {game['reason']}, scores {game['scores']}, "
                      f"{game['moves']} moves", flush=True)
        rows.append((*tally.columns(),
                     " ".join(f"{r}:{n}" for r, n in reasons.most_common()),
                     moves / args.games, *tally.seconds()))
    print(f"variant {args.variant}, seeds {args.seed}–{args.seed + args.games - 1}")
    print_table((*HEAD, "ends", "moves", *SECONDS_HEAD), rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
