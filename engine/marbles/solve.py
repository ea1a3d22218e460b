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
from .search import GAIN, INF, WIN, Search, _Stop

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
    """A round's position searched to its end: `Search`'s position and moves, with no depth
    limit, and a table of proven bounds keyed on the marbles left, each side's counts per
    colour, the arrows and the mover."""

    def __init__(self, state, *, nodes: int = NODES, deadline: float | None = None,
                 win: bool = False) -> None:
        super().__init__(state, nodes=nodes, deadline=deadline)
        self.win = win and self.last
        self.bounds: dict[int, tuple[int, int, int]] = {}

    def final(self, seat: int) -> int:
        d = self.prior + self.diff
        if self.win and d:
            d += WIN if d > 0 else -WIN
        return d if seat & 1 else -d

    def exact(self, seat: int, alpha: int, beta: int) -> int:
        """The value from `seat`'s side if it lies within (alpha, beta), else a bound on the
        side of the window it falls."""
        moves = self.moves(seat)
        if not moves:
            return self.final(seat)
        self.count += 1
        if self.budget and self.count > self.budget:
            raise _Stop
        if self.deadline is not None and not self.count & 1023 and \
                time.thread_time() > self.deadline:
            raise _Stop
        key = self.key(seat)
        lo, hi, first = self.bounds.get(key, (-INF, INF, -1))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        alpha, beta = max(alpha, lo), min(beta, hi)
        a0 = alpha
        if len(moves) > 1:
            board, cnt = self.board, self.cnt
            side = (seat - 1) & 1
            moves.sort(key=lambda m: -GAIN[cnt[side * 6 + board[m[1]]]]
                       [cnt[(1 - side) * 6 + board[m[1]]]])
            if first >= 0:
                for i, m in enumerate(moves):
                    if m[1] == first:
                        if i:
                            moves.insert(0, moves.pop(i))
                        break
        nxt = seat % self.n + 1
        best = -INF
        first = moves[0][1]
        for line, cell in moves:
            undo = self.make(seat, line, cell)
            v = -self.exact(nxt, -beta, -alpha)
            self.unmake(seat, line, cell, undo)
            if v > best:
                best, first = v, cell
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if best <= a0:
            hi = best
        elif best >= beta:
            lo = best
        else:
            lo = hi = best
        self.bounds[key] = (lo, hi, first)
        return best

    def takeable(self) -> int:
        return bin(self.mask).count("1")


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
    if len(moves) > 1:
        moves.sort(key=lambda m: -(solver.gain(seat, m[1]) if m[1] >= 0 else 0))
    nxt = seat % solver.n + 1
    scored = []
    alpha = -INF
    try:
        for line, cell in moves:
            undo = solver.make(seat, line, cell)
            try:
                # a window just wide enough to tell a move equal to the best apart
                low = -INF if every or alpha == -INF else alpha - 1
                v = -solver.exact(nxt, -INF, -low)
            finally:
                solver.unmake(seat, line, cell, undo)
            scored.append(((line, None if cell < 0 else cell), v))
            alpha = max(alpha, v)
    except _Stop:
        return None
    scored.sort(key=lambda mv: -mv[1])
    return Solution(seat, scored[0][1], tuple(scored), solver.count)
