"""Corner's alpha-beta search over a dealt round (`Search`), and the score tables it reads:
the computer levels (`ai.py`), the exact solver (`solve.py`) and the review (`analysis.py`)
all search with it. Values are the score difference from the searching side; in the game's
last round a won game counts `WIN` above any margin.
"""

from __future__ import annotations

import random
import time

from .board import BLACK, POINTS, SIZE, colour_score

#: A won game counts this much more than any margin (in the game's last round).
WIN = 10_000
INF = 1 << 30


#: GAIN[a][b]: what a side gains on the score difference by taking one more marble of a
#: colour it holds `a` of while the other side holds `b`.
_DIFF = [[colour_score(a, b) - colour_score(b, a) if a < len(POINTS) and b < len(POINTS)
          else 0 for b in range(10)] for a in range(10)]
GAIN = [[_DIFF[a + 1][b] - _DIFF[a][b] if a + 1 < len(POINTS) else 0 for b in range(9)]
        for a in range(9)]
#: OWN_GAIN[a][b]: what a side's own score gains by that marble.
OWN_GAIN = [[(colour_score(a + 1, b) - colour_score(a, b)) if a + 1 < len(POINTS) else 0
             for b in range(9)] for a in range(9)]

#: For each side and each line of the other side: the (own line, cell) pairs along it.
_CROSS = (
    tuple(tuple((line, other * SIZE + line) for line in range(SIZE)) for other in range(SIZE)),
    tuple(tuple((line, line * SIZE + other) for line in range(SIZE)) for other in range(SIZE)),
)


class _Stop(Exception):
    pass


def settled(lo: int, hi: int, alpha: int, beta: int) -> int | None:
    """What a position whose value lies within [lo, hi] returns to a search within (alpha,
    beta) without searching it, or None if the bounds do not settle it."""
    if lo >= beta:
        return lo
    if hi <= alpha:
        return hi
    if lo == hi:
        return lo
    return None


class Search:
    """One round's position as mutable arrays, searched by negamax with alpha-beta.

    `board` 36 colour codes (EMPTY and BLACK cannot be taken), `arrows` a line or -1 per
    seat, `cnt[side * 6 + colour]` the marbles taken this round, `diff` red's score less
    yellow's (with the doubling), `prior` red's total less yellow's over the finished rounds,
    `last` whether this is the game's last round."""

    def __init__(self, state, *, nodes: int = 0, deadline: float | None = None) -> None:
        self.n = state.seats
        self.board = list(state.board)
        self.arrows = [-1 if a is None else a for a in state.arrows]
        self.cnt = list(state.counts[0]) + list(state.counts[1])
        red, yellow = state.round_scores()
        self.diff = red - yellow
        totals = state.totals()
        self.prior = totals[0] - totals[1]
        self.last = state.round >= state.round_count
        self.mask = 0
        for cell, c in enumerate(self.board):
            if c < BLACK:
                self.mask |= 1 << cell
        self.ckey = 0
        for i, v in enumerate(self.cnt):
            self.ckey |= v << (4 * i)
        self.budget = nodes
        self.deadline = deadline
        self.count = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {}

    # -- moves -----------------------------------------------------------------------------
    def moves(self, seat: int) -> list[tuple[int, int]]:
        """(line, cell) for `seat`; cell -1 for an opening placement."""
        arrows = self.arrows
        if self.n == 2:
            other = arrows[2 - seat]
            if other < 0:
                if arrows[seat - 1] < 0:
                    return [(line, -1) for line in range(SIZE)]
                return []
            others = (other,)
        else:
            side = (seat - 1) & 1
            o1 = arrows[1 - side]
            o2 = arrows[3 - side]
            if o1 < 0 and o2 < 0:
                if max(arrows) < 0:
                    return [(line, -1) for line in range(SIZE)]
                return []
            if o1 < 0 or o1 == o2:
                others = (o2,)
            elif o2 < 0:
                others = (o1,)
            else:
                others = (o1, o2)
        own = arrows[seat - 1]
        board = self.board
        cross = _CROSS[(seat - 1) & 1]
        out = []
        for other in others:
            for line, cell in cross[other]:
                if line != own and board[cell] < BLACK:
                    out.append((line, cell))
        return out

    def gain(self, seat: int, cell: int) -> int:
        """What taking `cell` gains `seat`'s side on the score difference (0 for an opening
        placement, cell -1)."""
        if cell < 0:
            return 0
        side = (seat - 1) & 1
        c = self.board[cell]
        return GAIN[self.cnt[side * 6 + c]][self.cnt[(1 - side) * 6 + c]]

    def make(self, seat: int, line: int, cell: int) -> tuple[int, int]:
        old = self.arrows[seat - 1]
        self.arrows[seat - 1] = line
        if cell < 0:
            return old, -1
        side = (seat - 1) & 1
        c = self.board[cell]
        i = side * 6 + c
        g = GAIN[self.cnt[i]][self.cnt[(1 - side) * 6 + c]]
        self.diff += g if side == 0 else -g
        self.cnt[i] += 1
        self.ckey += 1 << (4 * i)
        self.mask ^= 1 << cell
        self.board[cell] = 7
        return old, c

    def unmake(self, seat: int, line: int, cell: int, undo: tuple[int, int]) -> None:
        old, c = undo
        self.arrows[seat - 1] = old
        if cell < 0:
            return
        side = (seat - 1) & 1
        i = side * 6 + c
        self.board[cell] = c
        self.mask ^= 1 << cell
        self.ckey -= 1 << (4 * i)
        self.cnt[i] -= 1
        g = GAIN[self.cnt[i]][self.cnt[(1 - side) * 6 + c]]
        self.diff -= g if side == 0 else -g

    # -- values ----------------------------------------------------------------------------
    def leaf(self, seat: int) -> int:
        d = self.prior + self.diff
        return d if seat & 1 else -d

    def final(self, seat: int) -> int:
        """The value for `seat`'s side when the round ends with `seat` to move."""
        d = self.prior + self.diff
        if self.last and d:
            d += WIN if d > 0 else -WIN
        return d if seat & 1 else -d

    def takeable(self) -> int:
        """The marbles left that can be taken."""
        return bin(self.mask).count("1")

    def key(self, seat: int) -> int:
        a = 0
        for x in self.arrows:
            a = a * 8 + x + 1
        return self.mask | (self.ckey << 36) | (a << 84) | (seat << 100)

    # -- the search ------------------------------------------------------------------------
    def tick(self) -> None:
        """Counts one position searched; stops the search (`_Stop`) past the budget of
        positions or the deadline (the thread's CPU time, read every 1,024 positions)."""
        self.count += 1
        if self.budget and self.count > self.budget:
            raise _Stop
        if self.deadline is not None and not self.count & 1023 and \
                time.thread_time() > self.deadline:
            raise _Stop

    def order(self, seat: int, moves: list[tuple[int, int]], first: int) -> None:
        """Sorts `moves` in place, the take that gains `seat`'s side the most first, and
        `first` (the best cell at this position's last visit, -1 for none) ahead of all."""
        if len(moves) < 2:
            return
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

    def expand(self, seat: int, moves: list[tuple[int, int]], depth: int, alpha: int,
               beta: int) -> tuple[int, int]:
        """The best value of `moves` for `seat` within (alpha, beta), and its cell: each move
        made, searched `depth` plies more and taken back, until one reaches `beta`."""
        nxt = seat % self.n + 1
        best = -INF
        best_cell = moves[0][1]
        for line, cell in moves:
            undo = self.make(seat, line, cell)
            v = -self.negamax(nxt, depth, -beta, -alpha)
            self.unmake(seat, line, cell, undo)
            if v > best:
                best, best_cell = v, cell
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best, best_cell

    def after(self, seat: int, move: tuple[int, int], depth: int, alpha: int, beta: int) -> int:
        """`move`'s value for `seat` within (alpha, beta): the move made, searched `depth`
        plies more, and taken back even when the search stops."""
        undo = self.make(seat, *move)
        try:
            return -self.negamax(seat % self.n + 1, depth, -beta, -alpha)
        finally:
            self.unmake(seat, move[0], move[1], undo)

    def negamax(self, seat: int, depth: int, alpha: int, beta: int) -> int:
        """`seat`'s value searched `depth` plies deep, within (alpha, beta)."""
        moves = self.moves(seat)
        if not moves:
            return self.final(seat)
        if depth == 0:
            return self.leaf(seat)
        self.tick()
        key = self.key(seat)
        hit = self.tt.get(key)
        first = -1
        if hit is not None:
            hdepth, lo, hi, first = hit
            if hdepth >= depth:
                known = settled(lo, hi, alpha, beta)
                if known is not None:
                    return known
        self.order(seat, moves, first)
        best, best_cell = self.expand(seat, moves, depth - 1, alpha, beta)
        lo = best if best > alpha else -INF
        hi = best if best < beta else INF
        self.tt[key] = (depth, lo, hi, best_cell)
        return best

    def root(self, seat: int, depth: int, rng: random.Random) -> tuple[int, int]:
        """The best (line, cell) for `seat`, deepening to `depth` plies while the budget
        lasts; ties broken by `rng`."""
        moves = self.moves(seat)
        jitter = {m: rng.random() for m in moves}
        if len(moves) == 1:
            return moves[0]
        order = sorted(moves, key=lambda m: -self.gain(seat, m[1]) - jitter[m] * 1e-3)
        best = order[0]
        horizon = self.takeable() + 1  # no round lasts longer than this
        for d in range(1, min(depth, horizon) + 1):
            try:
                scored = []
                alpha = -INF
                for m in order:
                    # a window just wide enough to tell equal moves apart
                    v = self.after(seat, m, d - 1, alpha - 1, INF)
                    scored.append((v, jitter[m], m))
                    alpha = max(alpha, v)
            except _Stop:
                break
            scored.sort(key=lambda x: (-x[0], -x[1]))
            best = scored[0][2]
            order = [m for _, _, m in scored]
        return best
