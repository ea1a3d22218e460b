"""An independent alpha-beta player for Corners, the yardstick the computer levels are measured
against (`scripts/match_corners.py`, player `yardstick` or `yardstick/seconds=1.0`).

It shares nothing with `engine/corners/ai.py` (with `scripts/corners_yardstick2.py` only the
distance between squares and the command line, scripts/yardstick_common.py): only the
rules' move generator (`engine.corners.moves.legal_pairs`) and the end of a game after a move
(`judge`, `stuck_end`) come from the engine. Its own parts:

- Evaluation, for each side: the sum of its pieces' distances to the far corner of its
  target (Manhattan with four directions, king moves with eight) less the least that sum can
  be (every target square filled), plus one per piece outside the target, plus a growing
  penalty per piece still at home over the last ten moves before the home deadline. A
  position is worth the other side's figure minus one's own, plus one for the side to move.
- Search: negamax alpha-beta, iterative deepening one ply at a time, a transposition table
  (board, side to move, white's pending fill: depth, value, bound, best move) kept across
  the iterations of a move, move ordering by the table's move, two killer moves a ply, the
  history heuristic, then the gain towards the far corner. Ends are exact (a win is worth
  more the sooner it comes).
- Time: a budget of the thread's CPU time a move (default 1 s), checked every 128
  positions; when it runs out mid-iteration the move is the best one of that iteration if
  its first root move was searched, else the last completed iteration's.

Repetition is not looked at (the rules' history is not in the search). The seed only
breaks ties among equal root moves.

  python scripts/corners_yardstick.py --variant classic-3x3 --seconds 1.0
prints the yardstick's first move and what each iteration reached.
"""

from __future__ import annotations

import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.corners.moves import judge, legal_pairs, stuck_end  # noqa: E402
from scripts.yardstick_common import OutOfTime, first_move_main, move_text, square_distance  # noqa: E402

MATE = 1_000_000
EXACT, LOWER, UPPER = 0, 1, 2


class Yardstick:
    """One move's search from a position (a board list, plies made, white's pending fill)."""

    def __init__(self, variant, board, plies: int, pending: bool, seconds: float) -> None:
        self.variant = variant
        self.board = list(board)
        self.n = len(self.board)
        self.size = math.isqrt(self.n)
        self.plies = plies
        self.pending = pending
        self.seconds = seconds
        dist = square_distance(self.size, variant.diagonal)
        corners = (self.n - 1, 0)  # the far corner of white's target, of black's
        self.dist = [[dist(p, corners[s]) for p in range(self.n)] for s in (0, 1)]
        self.target = [variant.target(1), variant.target(2)]
        self.home = [variant.home(1), variant.home(2)]
        self.least = [sum(self.dist[s][q] for q in self.target[s]) for s in (0, 1)]
        # running sums: distance and pieces outside the target, pieces at home
        self.sum_d = [0, 0]
        self.outside = [0, 0]
        self.at_home = [0, 0]
        for p, v in enumerate(self.board):
            if v:
                s = v - 1
                self.sum_d[s] += self.dist[s][p]
                self.outside[s] += p not in self.target[s]
                self.at_home[s] += p in self.home[s]
        self.tt: dict = {}
        self.killers: dict[int, list] = {}
        self.history: dict[tuple[int, int, int], int] = {}
        self.nodes = 0
        self.stop_at = 0.0

    # -- the position ------------------------------------------------------------------------
    def side_cost(self, s: int, number: int) -> int:
        cost = self.sum_d[s] - self.least[s] + self.outside[s]
        left = self.variant.deadline - number
        if self.at_home[s] and 0 <= left < 10:
            cost += self.at_home[s] * (10 - left) * 3
        return cost

    def evaluate(self) -> int:
        """From the side to move's point of view."""
        number = self.plies // 2 + 1
        me = self.plies % 2
        return self.side_cost(1 - me, number) - self.side_cost(me, number) + 1

    def make(self, s: int, f: int, t: int) -> None:
        self.board[f], self.board[t] = 0, s + 1
        d = self.dist[s]
        self.sum_d[s] += d[t] - d[f]
        tg, hm = self.target[s], self.home[s]
        self.outside[s] += (t not in tg) - (f not in tg)
        self.at_home[s] += (t in hm) - (f in hm)
        self.plies += 1

    def unmake(self, s: int, f: int, t: int) -> None:
        self.board[f], self.board[t] = s + 1, 0
        d = self.dist[s]
        self.sum_d[s] -= d[t] - d[f]
        tg, hm = self.target[s], self.home[s]
        self.outside[s] -= (t not in tg) - (f not in tg)
        self.at_home[s] -= (t in hm) - (f in hm)
        self.plies -= 1

    # -- the search --------------------------------------------------------------------------
    def order(self, moves, s: int, ply: int, first):
        d = self.dist[s]
        killers = self.killers.get(ply, ())
        hist = self.history

        def key(m):
            if m == first:
                return -10_000_000
            k = -(d[m[0]] - d[m[1]]) * 1000 - hist.get((s, m[0], m[1]), 0)
            if m in killers:
                k -= 500_000
            return k

        return sorted(moves, key=key)

    def child_value(self, s: int, f: int, t: int, depth: int, alpha: int, beta: int,
                    ply: int) -> int:
        """Make the move, value it for the mover, unmake it."""
        number = self.plies // 2 + 1
        pending = self.pending
        self.make(s, f, t)
        try:
            reason, winner, after = judge(self.variant, self.board, s + 1, number, t, pending)
            if reason is not None:
                if winner == 0:
                    return 0
                return MATE - ply if winner == s + 1 else -MATE + ply
            self.pending = after
            return -self.negamax(depth - 1, -beta, -alpha, ply + 1)
        finally:
            self.pending = pending
            self.unmake(s, f, t)

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 127 and time.thread_time() > self.stop_at:
            raise OutOfTime
        if depth <= 0:
            return self.evaluate()
        s = self.plies % 2
        key = (bytes(self.board), s, self.pending)
        entry = self.tt.get(key)
        first = None
        if entry is not None:
            e_depth, e_value, e_bound, first = entry
            if e_depth >= depth:
                if e_bound == EXACT:
                    return e_value
                if e_bound == LOWER and e_value >= beta:
                    return e_value
                if e_bound == UPPER and e_value <= alpha:
                    return e_value
        moves = legal_pairs(self.board, s + 1, self.variant)
        if not moves:
            _, winner = stuck_end(self.pending)
            return 0 if winner == 0 else (MATE - ply if winner == s + 1 else -MATE + ply)
        start_alpha = alpha
        best, best_move = -2 * MATE, None
        for m in self.order(moves, s, ply, first):
            v = self.child_value(s, m[0], m[1], depth, alpha, beta, ply)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        ks = self.killers.setdefault(ply, [])
                        if m not in ks:
                            ks.insert(0, m)
                            del ks[2:]
                        hk = (s, m[0], m[1])
                        self.history[hk] = self.history.get(hk, 0) + depth * depth
                        break
        bound = EXACT if start_alpha < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = (depth, best, bound, best_move)
        return best

    def best(self, seed: int = 0, verbose: bool = False) -> tuple[int, int] | None:
        s = self.plies % 2
        moves = legal_pairs(self.board, s + 1, self.variant)
        if not moves:
            return None
        if len(moves) == 1:
            return moves[0]
        rng = random.Random(seed)
        rng.shuffle(moves)  # ties among equal moves go to the seed
        self.stop_at = time.thread_time() + self.seconds
        order = self.order(moves, s, 0, None)
        chosen = order[0]
        depth = 1
        while True:
            alpha, beta = -2 * MATE, 2 * MATE
            scored = []
            try:
                for m in order:
                    v = self.child_value(s, m[0], m[1], depth, alpha, beta, 0)
                    scored.append((v, m))
                    if v > alpha:
                        alpha = v
            except OutOfTime:
                if scored:
                    top = max(scored, key=lambda x: x[0])
                    if top[0] >= scored[0][0]:
                        chosen = top[1]
                if verbose:
                    print(f"depth {depth} cut after {len(scored)} of {len(order)} moves")
                break
            # a move searched after alpha rose is only an upper bound: it stays below
            scored.sort(key=lambda x: -x[0])
            chosen = scored[0][1]
            order = [m for _, m in scored]
            if verbose:
                print(f"depth {depth}: {scored[0][0]} {chosen}, {self.nodes} positions, "
                      f"{time.thread_time() - self.stop_at + self.seconds:.2f} s")
            if abs(scored[0][0]) >= MATE // 2 or depth >= 60:
                break
            depth += 1
        return chosen


def yardstick_pair(state, seat: int, *, seconds: float = 1.0, seed: int = 0,
                   verbose: bool = False) -> tuple[int, int] | None:
    """The (from, to) the yardstick plays for `seat` in `state`, or None."""
    if state.to_move != seat:
        return None
    search = Yardstick(state.variant, state.board, state.plies, state.pending, seconds)
    return search.best(seed * 1_000_003 + state.plies, verbose)


def yardstick_move(state, seat: int, *, seconds: float = 1.0, seed: int = 0) -> str | None:
    """The move text (canonical path) the yardstick plays, or None."""
    return move_text(state, yardstick_pair(state, seat, seconds=seconds, seed=seed))


def main(argv=None) -> int:
    return first_move_main(__doc__.split("\n\n")[0], yardstick_pair, argv)


if __name__ == "__main__":
    raise SystemExit(main())
