"""The replay answer's size for the longest game of every variant: frames whole (each with
the full board and seats) against frames as changes (`Replay.to_dict`, docs/formats.md
"Replay frames").

Each game is played out with the engine, the longest of ten tries kept:

- Corner Claim: the largest piece that fits (ties at random), until nobody can move; the
  longest game places all 21 pieces a seat (random play stops a little short);
- Corners, two players: until the move limit, each try with a runner before the home
  deadline (a piece out of its home first, then away from it, the other's home last) or the
  computer's level 2, then random legal moves that do not end the game; the solo race: the
  same, to its limit (`Variant.solo_limit`, else twice the two-player game's);
- Corner (marbles): random legal moves, every round dealt at random, 10 rounds (the most);
  the longest game takes all 36 marbles of every round (random play stops short).

    python scripts/bench_replay.py [--seed 1] [--only corners]

Prints per variant: frames (played / the longest game's), the answer's JSON bytes with frames
whole (as before) and as changes (as sent), the largest later frame both ways, the longest
game's answer both ways (an estimate: the game played, plus each frame it is short of at the
largest later frame's size) and the seconds to build and encode the answer sent.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry  # noqa: E402
from engine.core import Game  # noqa: E402
from replays.cursor import Replay  # noqa: E402


def _dumps(value) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def _lasting(rules, state, seat: int, rng: random.Random, *, rank=lambda m: 0) -> str:
    """A random legal move for `seat` that does not end the game if there is one; moves of
    a lower `rank` before the others."""
    moves = [m for m in rules.legal(state, seat) if not m.get("loses")]
    rng.shuffle(moves)
    moves.sort(key=rank)
    for m in moves:
        after = rules.apply(state, rules.play(state, seat, m["move"]))
        if not rules.is_over(after):
            return m["move"]
    return moves[0]["move"] if moves else rules.legal(state, seat)[0]["move"]


def longest_of(play, seed: int, tries: int = 10) -> Game:
    """The longest of `tries` games `play(rng)` plays, each from a seed of its own."""
    return max((play(random.Random(seed + i)) for i in range(tries)), key=lambda g: g.seq)


def cornerclaim(variant: str, rng: random.Random) -> Game:
    game = Game.new("cornerclaim", variant)
    rules = game.rules
    while not rules.is_over(game.state):
        seat = rules.to_move(game.state)
        moves = rules.legal(game.state, seat)
        big = max(m["move"].count(",") for m in moves)
        game.play(seat, rng.choice([m["move"] for m in moves if m["move"].count(",") == big]))
    return game


def corners(variant: str, seed: int, *, solo: bool) -> tuple[Game, int]:
    """The first of ten tries that reaches the limit (else the longest): before the home
    deadline the tries take turns between a runner (out of the home first, then away from
    it, the other's home last) and the computer's level 2."""
    from engine.corners.variants import VARIANTS

    v = VARIANTS[variant]
    limit = getattr(v, "solo_limit", 2 * v.limit) if solo else 2 * v.limit  # in plies
    best = None
    for attempt in range(10):
        game = _corners_game(variant, random.Random(seed + attempt), solo=solo, limit=limit,
                             computer=attempt % 2 == 1)
        if best is None or game.seq > best.seq:
            best = game
        if game.seq > limit:
            break
    return best, limit + 1


def _corners_game(variant: str, rng: random.Random, *, solo: bool, limit: int,
                  computer: bool) -> Game:
    game = Game.new("corners", variant, ("Ann",) if solo else ("Ann", "Bo"),
                    {"reserve_s": 0})
    rules = game.rules
    while not rules.is_over(game.state) and game.seq <= limit:
        state = game.state
        seat = rules.to_move(state)
        board = rules.public_view(state).board
        home = set(board["homes"][str(seat)])
        target = set(board["homes"][str(3 - seat)])
        if board["home_deadline"] and board["move_number"] <= board["home_deadline"]:
            if computer:
                game.play(seat, rules.choose_move(state, seat, level=2,
                                                  seed=rng.randrange(1 << 30)))
                continue

            def rank(m, home=home, target=target, seat=seat):
                ahead = _corner_distance(m["to"]) - _corner_distance(m["from"])
                ahead = ahead if seat == 1 else -ahead
                return (not (m["from"] in home and ahead > 0), m["to"] in target, -ahead)
        else:
            def rank(m, home=home):
                return m["to"] in home
        game.play(seat, _lasting(rules, state, seat, rng, rank=rank))
    return game


def _corner_distance(square: str) -> int:
    """Columns plus rows from a1 ("c3": 4)."""
    return ord(square[0]) - ord("a") + int(square[1:]) - 1


def marbles(variant: str, rng: random.Random) -> Game:
    game = Game.new("marbles", variant, options={"rounds": 10})
    rules = game.rules
    while not rules.is_over(game.state):
        dealt = rules.chance(game.state, rng)
        if dealt is not None:
            game.append(dealt)
            continue
        seat = rules.to_move(game.state)
        game.play(seat, rng.choice(rules.legal(game.state, seat))["move"])
    return game


def games(only: str | None, seed: int):
    for rules in registry.games():
        if only and rules.game != only:
            continue
        for variant, spec in rules.variants.items():
            if rules.game == "cornerclaim":  # 21 pieces a seat
                yield variant, longest_of(partial(cornerclaim, variant), seed), (
                    21 * spec.seats[0] + 1)
            elif rules.game == "corners":
                yield variant, *corners(variant, seed, solo=False)
                yield f"{variant} solo", *corners(variant, seed, solo=True)
            elif rules.game == "marbles":  # a round: its deal, a placement a seat, 36 takes
                yield variant, longest_of(partial(marbles, variant), seed), (
                    10 * (1 + spec.seats[0] + 36) + 1)


def measure(game: Game) -> dict:
    """The answer both ways, its bytes and largest later frame, and the seconds to build and
    encode the answer as sent (frames as changes)."""
    replay = Replay(game)
    full = [f.to_dict() for f in replay.frames]
    t = time.perf_counter()
    data = Replay(game).to_dict()
    changes = _dumps(data)
    seconds = time.perf_counter() - t
    whole = _dumps({**data, "frames": full})
    return {"frames": len(full), "whole": len(whole), "changes": len(changes),
            "whole_frame": max(len(_dumps(f)) for f in full[1:]),
            "changes_frame": max(len(_dumps(f)) for f in data["frames"][1:]),
            "seconds": seconds}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="one game id (cornerclaim, corners, marbles)")
    args = ap.parse_args(argv)
    head = ("variant", "frames / longest", "answer B, whole → changes",
            "largest later frame B", "longest game B (est.)", "build s")
    print("| " + " | ".join(head) + " |")
    print("|---|" + "--:|" * (len(head) - 1))
    for name, game, longest in games(args.only, args.seed):
        m = measure(game)
        more = max(longest - m["frames"], 0)  # frames short of the longest game
        row = (f"{game.events[0].game} {name}", f"{m['frames']} / {longest}",
               f"{m['whole']:,} → {m['changes']:,}",
               f"{m['whole_frame']:,} → {m['changes_frame']:,}",
               f"{m['whole'] + more * m['whole_frame']:,} → "
               f"{m['changes'] + more * m['changes_frame']:,}",
               f"{m['seconds']:.2f}")
        print("| " + " | ".join(str(c) for c in row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
