"""Computer players. Pure: given a state, a seat, a level and a seed, return a move id.

`choose_move` is the one entry point the host, GTP and benchmarks use; levels are listed in
`LEVELS` with their friendly names.
"""

from __future__ import annotations

from dataclasses import dataclass

from .greedy import greedy_move


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    description: str


LEVELS: dict[int, Level] = {
    1: Level(1, "Greedy", "lays its biggest piece where it opens the most corners"),
}


def choose_move(state, seat: int, *, level: int = 1, seed: int | None = None) -> int | None:
    """The move (id) the computer plays for `seat` at `level`; None when it has no move."""
    if level not in LEVELS:
        raise ValueError(f"no computer level {level} (levels: {sorted(LEVELS)})")
    return greedy_move(state.position, seat - 1, seed=seed)
