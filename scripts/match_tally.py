"""What the scripts that play whole games share: a game played out by the computer (chance
drawn from a seeded generator), the match runners' command line and pairings played in
processes, a player spec read into a computer level (with overrides for experiments), a
pairing's tally (wins, draws, losses, seconds per move), the Wilson interval and the printed
table. Imported by `match.py`, `match_corners.py`, `match_marbles.py`, `bench_analysis.py` and
`bench_review.py`."""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from types import ModuleType

from engine.capabilities import Chance, capability
from engine.core import Game


def play_out(game: Game, move: Callable[[object, int, int], str], rng: random.Random) -> Game:
    """`game` played to its end: each move `move(state, seat, ply)` (ply counts the moves
    played here from 0), each chance event (where the game declares chance) drawn from `rng`."""
    rules = game.rules
    chance = capability(rules, Chance)
    ply = 0
    while not rules.is_over(game.state):
        deal = chance.chance(game.state, rng) if chance else None
        if deal is not None:
            game.append(type(deal)(**{**deal.__dict__, "seq": game.seq + 1}))
            continue
        seat = rules.to_move(game.state)
        game.play(seat, move(game.state, seat, ply))
        ply += 1
    return game


def match_parser(doc: str, *own: tuple[tuple[str, ...], dict]) -> argparse.ArgumentParser:
    """A match runner's command line: --pairs, --games, the runner's own arguments (`own`:
    each the names and the keywords of an `add_argument`), --seed, --jobs and --verbose."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--pairs", nargs="+", default=["2:1", "3:2", "4:3", "4:greedy"],
                    help="pairings A:B (A is the player measured)")
    ap.add_argument("--games", type=int, default=40)
    for names, keywords in own:
        ap.add_argument(*names, **keywords)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verbose", action="store_true")
    return ap


def play_pairs(pairs: list[str], games: int, jobs: int, play_game: Callable[[tuple], dict],
               job: Callable[[int], tuple]) -> Iterator[tuple[str, str, Iterator]]:
    """Each pairing `A:B` of `pairs` played `games` times in `jobs` processes: yields (the
    pairing, A, its games), the games (g, `play_game((first, second, *job(g)))`'s facts) in
    order, A first in even games and second in odd ones."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for pair in pairs:
            a, b = pair.split(":")
            args = [((a, b) if g % 2 == 0 else (b, a)) + job(g) for g in range(games)]
            yield pair, a, enumerate(pool.map(play_game, args))


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95 % interval of a score `p` (0..1) over `n` games."""
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def level_player(ai: ModuleType, spec: str):
    """A function (state, seat, seed) -> move text for `spec`: a level number of the game's
    `ai.LEVELS` (`4`), or one with overrides of its fields (`4/depth=5/nodes=0`), played by
    `ai.choose_move`. An overridden level is added to `ai.LEVELS` under a new number."""
    number, *overrides = spec.split("/")
    key = int(number)
    if overrides:
        base = ai.LEVELS[key]
        fields = {}
        for item in overrides:
            name, _, value = item.partition("=")
            current = getattr(base, name)
            fields[name] = value if isinstance(current, str) else type(current)(float(value))
        key = 100 + len(ai.LEVELS)
        ai.LEVELS[key] = replace(base, **fields)
    return lambda state, seat, seed: ai.choose_move(state, seat, level=key, seed=seed)


@dataclass
class Tally:
    """One pairing A:B's games, counted from A's side."""

    pair: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    seconds_a: list[float] = field(default_factory=list)
    seconds_b: list[float] = field(default_factory=list)

    def add(self, result: str, spent_a: list[float], spent_b: list[float]) -> None:
        self.wins += result == "win"
        self.draws += result == "draw"
        self.losses += result == "loss"
        self.seconds_a.extend(spent_a)
        self.seconds_b.extend(spent_b)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def columns(self) -> tuple:
        """pair, games, W, D, L, A %, its 95 % interval."""
        n = self.games
        score = (self.wins + self.draws / 2) / n if n else 0.0
        lo, hi = wilson(score, n)
        return (self.pair, n, self.wins, self.draws, self.losses, 100 * score,
                f"{100 * lo:.0f}–{100 * hi:.0f}")

    def seconds(self) -> tuple[str, str]:
        """Each player's mean and longest seconds a move."""
        return _mean_max(self.seconds_a), _mean_max(self.seconds_b)


HEAD = ("pair A:B", "games", "W", "D", "L", "A %", "95 %")
SECONDS_HEAD = ("A s mean/max", "B s mean/max")


def print_table(head: tuple[str, ...], rows: list[tuple]) -> None:
    print(" | ".join(head))
    for row in rows:
        print(" | ".join(f"{x:.1f}" if isinstance(x, float) else str(x) for x in row))


def _mean_max(xs: list[float]) -> str:
    mean = sum(xs) / len(xs) if xs else 0.0
    return f"{mean:.3f}/{max(xs, default=0):.2f}"
