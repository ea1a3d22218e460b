"""Play Corner's (the marble game's) computer levels against each other, or against the greedy
player, and print a table.

A player is a level number (`4`), a level with overrides for experiments (`4/nodes=20000`,
`3/depth=4`: the fields of `engine.marbles.ai.Level`), `greedy`
(`engine.marbles.ai.greedy_move`: the marble that scores the most for its own side now) or
`random` (any legal move). Each pairing plays `--games` games of `--rounds` rounds on
`--variant` (2p by default; in 4p each player takes both seats of a team). Games go in pairs
on the same deals: game g is dealt from seed `--seed` + g // 2, the first player red in even
games and yellow in odd ones, so both sides of every deal are played; game g's players use
seed `--seed` + g. A win counts 1, a draw ½. Games run in `--jobs` processes.

  python scripts/match_marbles.py --pairs 2:1 3:2 4:3 4:greedy --games 40
  python scripts/match_marbles.py --pairs 4/nodes=20000:3 --games 20 --variant 4p

Prints one line per game with `--verbose`, then a table: pairing, games, the first player's
wins, draws and losses, its score (%), a Wilson 95 % interval, its mean points less the
other's per game, and each player's mean and longest seconds per move.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import GameCreated  # noqa: E402
from engine.marbles import ai  # noqa: E402
from engine.marbles.rules import GAME, RULES  # noqa: E402


def player(spec: str):
    """A function (state, seat, seed) -> move text for a player spec."""
    if spec == "greedy":
        return lambda state, seat, seed: ai.greedy_move(state, seat, seed=seed)
    if spec == "random":
        def pick(state, seat, seed):
            rng = random.Random(seed * 7919 + state.seq)
            line, cell = rng.choice(state.legal_moves(seat))
            return state.move_text(seat, line, cell)
        return pick
    number, *overrides = spec.split("/")
    base = ai.LEVELS[int(number)]
    if overrides:
        fields = {}
        for item in overrides:
            key, _, value = item.partition("=")
            current = getattr(base, key)
            fields[key] = type(current)(float(value)) if not isinstance(current, str) \
                else value
        key = 100 + len(ai.LEVELS)
        ai.LEVELS[key] = replace(base, **fields)
        return lambda state, seat, seed: ai.choose_move(state, seat, level=key, seed=seed)
    return lambda state, seat, seed: ai.choose_move(state, seat, level=int(number), seed=seed)


def play_game(args: tuple[str, str, str, int, int, int]) -> dict:
    """One game: `red` and `yellow` are player specs; returns its facts."""
    red, yellow, variant, rounds, deal_seed, seed = args
    players = {0: player(red), 1: player(yellow)}
    state = RULES.initial_state(GameCreated(seq=1, game=GAME, variant=variant,
                                            options={"rounds": rounds}))
    deals = random.Random(deal_seed)
    spent: dict[int, list[float]] = {0: [], 1: []}
    while not state.over:
        dealt = RULES.chance(state, deals)
        if dealt is not None:
            state = RULES.apply(state, dealt)
            continue
        seat = state.to_move
        side = (seat - 1) % 2
        t = time.perf_counter()
        move = players[side](state, seat, seed)
        spent[side].append(time.perf_counter() - t)
        state = RULES.apply(state, RULES.play(state, seat, move))
    outcome = RULES.outcome(state)
    return {"results": outcome.results[:2], "totals": state.totals(), "spent": spent}


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
    ap.add_argument("--variant", default="2p", choices=("2p", "4p"))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)

    rows = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for pair in args.pairs:
            a, b = pair.split(":")
            jobs = [((a, b) if g % 2 == 0 else (b, a))
                    + (args.variant, args.rounds, args.seed + g // 2, args.seed + g)
                    for g in range(args.games)]
            wins = draws = losses = 0
            margin = 0
            times: dict[str, list[float]] = {a: [], b: []}
            for g, game in enumerate(pool.map(play_game, jobs)):
                side = g % 2
                result = game["results"][side]
                wins += result == "win"
                draws += result == "draw"
                losses += result == "loss"
                margin += game["totals"][side] - game["totals"][1 - side]
                times[a].extend(game["spent"][side])
                times[b].extend(game["spent"][1 - side])
                if args.verbose:
                    print(f"{pair} game {g}: {a} {'red' if side == 0 else 'yellow'}, "
                          f"{result}, totals {game['totals']}", flush=True)
            score = wins + draws / 2
            lo, hi = wilson(score, args.games)
            rows.append((pair, args.games, wins, draws, losses, 100 * score / args.games,
                         f"{100 * lo:.0f}–{100 * hi:.0f}", margin / args.games,
                         f"{_mean(times[a]):.3f}/{max(times[a], default=0):.2f}",
                         f"{_mean(times[b]):.3f}/{max(times[b], default=0):.2f}"))
    head = ("pair A:B", "games", "W", "D", "L", "A %", "95 %", "margin",
            "A s mean/max", "B s mean/max")
    print(f"variant {args.variant}, {args.rounds} rounds, deals from seeds "
          f"{args.seed}–{args.seed + (args.games - 1) // 2}")
    print(" | ".join(head))
    for row in rows:
        print(" | ".join(f"{x:.1f}" if isinstance(x, float) else str(x) for x in row))
    return 0


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


if __name__ == "__main__":
    raise SystemExit(main())
