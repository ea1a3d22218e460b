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

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.events import GameCreated  # noqa: E402
from engine.marbles import ai  # noqa: E402
from engine.marbles.rules import GAME, RULES  # noqa: E402
from scripts.match_tally import (  # noqa: E402
    HEAD,
    SECONDS_HEAD,
    Tally,
    level_player,
    match_parser,
    play_pairs,
    print_table,
)


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
    return level_player(ai, spec)


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



def main(argv=None) -> int:
    args = match_parser(__doc__, (("--variant",), {"default": "2p", "choices": ("2p", "4p")}),
                        (("--rounds",), {"type": int, "default": 2})).parse_args(argv)

    rows = []
    for pair, a, games in play_pairs(
            args.pairs, args.games, args.jobs, play_game,
            lambda g: (args.variant, args.rounds, args.seed + g // 2, args.seed + g)):
        tally = Tally(pair)
        margin = 0
        for g, game in games:
            side = g % 2
            result = game["results"][side]
            tally.add(result, game["spent"][side], game["spent"][1 - side])
            margin += game["totals"][side] - game["totals"][1 - side]
            if args.verbose:
                print(f"{pair} game {g}: {a} {'red' if side == 0 else 'yellow'}, "
                      f"{result}, totals {game['totals']}", flush=True)
        rows.append((*tally.columns(), margin / args.games, *tally.seconds()))
    print(f"variant {args.variant}, {args.rounds} rounds, deals from seeds "
          f"{args.seed}–{args.seed + (args.games - 1) // 2}")
    print_table((*HEAD, "margin", *SECONDS_HEAD), rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
