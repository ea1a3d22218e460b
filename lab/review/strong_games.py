#!/usr/bin/env python3
"""Games between the strongest computer levels, saved as JSON logs for measuring the review
(`lab/review/measure.py`): Corners classic 3×3, level 4 against level 4, and Corner 2p,
level 4 against level 4, fixed seeds.

    .venv/bin/python lab/review/strong_games.py corners 4     # 4 games into lab/review/games/
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.core import Game  # noqa: E402

OUT = Path(__file__).resolve().parent / "games"
KINDS = {"corners": ("corners", "classic-3x3", {"reserve_s": 0}, 4),
         "marbles": ("marbles", "2p", {"rounds": 1}, 4)}


def play(kind: str, seed: int) -> Game:
    game_id, variant, options, level = KINDS[kind]
    game = Game.new(game_id, variant, ("North", "South"), options)
    rules = game.rules
    rng = random.Random(seed)
    ply = 0
    while not rules.is_over(game.state):
        deal = rules.chance(game.state, rng)
        if deal is not None:
            game.append(type(deal)(**{**deal.__dict__, "seq": game.seq + 1}))
            continue
        seat = rules.to_move(game.state)
        game.play(seat, rules.choose_move(game.state, seat, level=level, seed=seed * 1000 + ply))
        ply += 1
    return game


def main() -> None:
    kind, count = sys.argv[1], int(sys.argv[2])
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    OUT.mkdir(exist_ok=True)
    for seed in range(first, first + count):
        game = play(kind, seed)
        (OUT / f"{kind}-{seed}.json").write_text(game.to_json())
        print(kind, seed, len(game.events), flush=True)


if __name__ == "__main__":
    main()
