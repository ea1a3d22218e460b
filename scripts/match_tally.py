"""What the match runners share: a player spec read into a computer level (with overrides for
experiments), a pairing's tally (wins, draws, losses, seconds per move), the Wilson interval
and the printed table. Imported by `match.py`, `match_corners.py` and `match_marbles.py`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from types import ModuleType


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
