"""Corner's exact solver: the rest of a round played out perfectly by both sides.

Once dealt, a round is deterministic and fully visible, so its end can be solved: a memoised
minimax (negamax with alpha-beta over a table of proven bounds) over the score difference at
the round's end, the doubling included. It answers whenever it finishes within its budget of
positions (and, optionally, a cap on its thread's CPU time); otherwise it gives up and says
so (None), and the caller falls back to a search.

A solution holds every legal move's exact value, so the best moves are optimal and any
move's loss against them is exact. Values are from the mover's side: the side's total less
the other's when the round ends (the finished rounds included). With `win` set (the game's
last round, in play) a won game counts `WIN` above any margin, so the solver plays for the
win first and the margin second, as the computer levels do.

How far it reaches on this machine (the takeable marbles left from which it answers within
a budget) is measured by `scripts/bench_marbles_solver.py`, in docs/marbles.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .board import BLACK
from .search import INF, Search, _Stop, settled

#: The positions a solve may visit before it gives up (about 0.3 s on one core).
NODES = 60_000


@dataclass(frozen=True)
class Solution:
    """A solved position: `seat` to move, `value` the best exact value from its side, and
    `moves` every legal (line, cell or None) with its exact value (see `solve`'s `every`),
    best first."""

    seat: int
    value: int
    moves: tuple[tuple[tuple[int, int | None], int], ...]
    nodes: int

    @property
    def best(self) -> list[tuple[int, int | None]]:
        """Every optimal move."""
        return [m for m, v in self.moves if v == self.value]

    def loss(self, move: tuple[int, int | None]) -> int:
        """What `move` loses against the best, in the value's unit (≥ 0)."""
        for m, v in self.moves:
            if m == move:
                return self.value - v
        raise KeyError(move)


class Solver(Search):
    """A round's position searched to its end: `Search`'s position, moves, move ordering and
    budget, with no depth limit, and a table of proven bounds keyed on the marbles left, each
    side's counts per colour, the arrows and the mover. A won game counts only with `win`."""

    def __init__(self, state, *, nodes: int = NODES, deadline: float | None = None,
                 win: bool = False) -> None:
        super().__init__(state, nodes=nodes, deadline=deadline)
        self.last = win and self.last  # what `final` reads
        self.bounds: dict[int, tuple[int, int, int]] = {}

    def negamax(self, seat: int, depth: int, alpha: int, beta: int) -> int:
        """The value from `seat`'s side if it lies within (alpha, beta), else a bound on the
        side of the window it falls; `depth` is not read: the search goes to the round's
        end."""
        moves = self.moves(seat)
        if not moves:
            return self.final(seat)
        self.tick()
        key = self.key(seat)
        lo, hi, first = self.bounds.get(key, (-INF, INF, -1))
        known = settled(lo, hi, alpha, beta)
        if known is not None:
            return known
        alpha, beta = max(alpha, lo), min(beta, hi)
        self.order(seat, moves, first)
        best, first = self.expand(seat, moves, depth, alpha, beta)
        if best <= alpha:
            hi = best
        elif best >= beta:
            lo = best
        else:
            lo = hi = best
        self.bounds[key] = (lo, hi, first)
        return best


def takeable(state) -> int:
    """The marbles left on the board that can be taken (all but black and the empty cells)."""
    return sum(1 for c in state.board if c < BLACK)


def solve(state, *, nodes: int = NODES, cpu: float | None = None, win: bool = False,
          every: bool = True) -> Solution | None:
    """The exact values of every move for the seat to move, or None if the round is not
    being played, or if the solve needs more than `nodes` positions (or `cpu` seconds of its
    thread's time). With `every` False only the optimal moves' values are exact (the others
    are upper bounds, below the best), which is cheaper: enough to play."""
    seat = state.to_move
    if seat is None:
        return None
    solver = Solver(state, nodes=nodes, win=win,
                    deadline=None if cpu is None else time.thread_time() + cpu)
    moves = solver.moves(seat)
    if not moves:
        return None
    moves.sort(key=lambda m: -solver.gain(seat, m[1]))
    horizon = solver.takeable() + 1  # no round lasts longer than this
    scored = []
    alpha = -INF
    try:
        for line, cell in moves:
            # a window just wide enough to tell a move equal to the best apart
            low = -INF if every or alpha == -INF else alpha - 1
            v = solver.after(seat, (line, cell), horizon, low, INF)
            scored.append(((line, None if cell < 0 else cell), v))
            alpha = max(alpha, v)
    except _Stop:
        return None
    scored.sort(key=lambda mv: -mv[1])
    return Solution(seat, scored[0][1], tuple(scored), solver.count)
