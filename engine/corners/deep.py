"""Corners' alpha-beta search, levels 3 and 4 (`DeepSearch`); the levels themselves are in
`levels.py`, the players that call it in `ai.py`."""

from __future__ import annotations

import math
import random
import time

from . import race as race_mod
from .levels import RACE_UNIT, TEMPO, WIN, Level, Stop, home_penalty
from .moves import destinations, judge, legal_pairs, locks_in, stuck_end
from .variants import Variant

EXACT, LOWER, UPPER = 0, 1, 2
#: The deep search's tables kept from move to move, per variant (cleared past a size).
_KEPT: dict[str, dict] = {}
KEPT_ENTRIES = 200_000
#: Per variant, per side and square: the side's target squares, nearest first (`Level.assign`).
_NEAREST: dict[str, tuple] = {}


class DeepSearch:
    """Level 4's search: alpha-beta as deep as its time allows.

    Each side's cost is the sum of its pieces' distances to the far corner of its target less
    the least that sum can be, plus `OUTSIDE` per piece outside the target, plus, for the
    rearmost piece, what it trails the rest by beyond `STRAGGLE_SLACK` (times
    `STRAGGLE`: alone at the back it gets no jumps), plus the home penalty; a position is
    worth the other side's cost less one's own, plus `TEMPO` for the side to move. The sums
    are kept up to date move by move.

    The search: principal variation search, deepened a ply at a time, a transposition table
    across the iterations (board, side, pending fill, move number: depth, value, bound, best
    move), the table's move first, then two killer moves a ply, then the history heuristic
    and the gain towards the far corner; late moves that do not gain are searched a ply
    shallower first (late-move reduction). The last ply needs no recursion: each move's
    value is the evaluation after it, made and unmade in place, and the rules' end check
    runs only where an end is possible (a fill, the deadline's move, the move limit, a move
    home after the deadline).

    With `Level.race`, a position whose sides are apart (`race.apart`) is not searched: its
    value is the race's (`race_value`), exact where the solo solver's ranges decide it.
    """

    def __init__(self, variant: Variant, board, plies: int, pending: bool, stop_at: float,
                 lv: Level) -> None:
        self.variant = variant
        self.board = list(board)
        n = len(self.board)
        size = math.isqrt(n)
        diagonal = variant.diagonal

        def dist(p: int, q: int) -> int:
            dc, dr = abs(p % size - q % size), abs(p // size - q // size)
            return max(dc, dr) if diagonal else dc + dr

        self.dist = ([dist(p, n - 1) for p in range(n)], [dist(p, 0) for p in range(n)])
        self.target = (variant.target(1), variant.target(2))
        self.home = (variant.home(1), variant.home(2))
        self.least = [sum(self.dist[s][q] for q in self.target[s]) for s in (0, 1)]
        self.plies = plies
        self.pending = pending
        self.stop_at = stop_at
        self.outside_w = lv.outside
        self.straggle = lv.straggle
        self.slack = lv.slack
        self.lmr = lv.lmr
        self.width = lv.width
        self.race = lv.race
        self.reach = lv.reach
        self.assign = lv.assign
        if self.assign:
            # per side and square: the target's squares nearest first, with their distances
            self.nearest = _NEAREST.get(variant.name)
            if self.nearest is None:
                self.nearest = _NEAREST[variant.name] = tuple(
                    [sorted((dist(p, q), q) for q in self.target[side]) for p in range(n)]
                    for side in (0, 1))
        self.pieces = ([], [])
        self.sum_d = [0, 0]
        self.outside = [0, 0]
        self.at_home = [0, 0]
        for p, v in enumerate(self.board):
            if v:
                s = v - 1
                self.pieces[s].append(p)
                self.sum_d[s] += self.dist[s][p]
                self.outside[s] += p not in self.target[s]
                self.at_home[s] += p in self.home[s]
        self.count = len(self.pieces[0]) or 1
        if lv.keep:  # positions of earlier plies cannot come again: they go first
            tt = _KEPT.get(variant.name, {})
            if len(tt) > KEPT_ENTRIES // 2:
                tt = {k: e for k, e in list(tt.items()) if k[1] >= plies}
                if len(tt) > KEPT_ENTRIES // 2:
                    tt = {}
            self.tt = _KEPT[variant.name] = tt
        else:
            self.tt = {}
        self.killers: dict[int, list] = {}
        self.history: dict = {}
        self.nodes = 0
        #: positions searched or evaluated after which the search stops (`Level.nodes`: the
        #: same move on any machine)
        self.work = 0
        self.work_cap = lv.nodes or float("inf")
        self.depth_done = 0

    def cost(self, s: int, number: int) -> float:
        d = self.dist[s]
        total = self.sum_d[s]
        c = total - self.least[s] + self.outside_w * self.outside[s]
        if self.assign and self.outside[s]:
            own, b, tg, nearest = s + 1, self.board, self.target[s], self.nearest[s]
            near = 0
            for p in self.pieces[s]:
                if p not in tg:
                    for dq, q in nearest[p]:
                        if b[q] != own:
                            near += dq
                            break
            c = (1 - self.assign) * c + self.assign * (near + self.outside_w * self.outside[s])
        if self.straggle and self.outside[s]:
            rear = max([d[p] for p in self.pieces[s]])
            rest = (total - rear) / (self.count - 1) if self.count > 1 else rear
            over = rear - rest - self.slack
            if over > 0:
                c += self.straggle * over
        if self.at_home[s]:
            c += self.at_home[s] * home_penalty(self.variant, number)
        return c

    def tempo(self, s: int) -> float:
        """What having the move is worth to `s`: `TEMPO`, or with `Level.reach` that times the
        most one of its moves gains towards the far corner (a long jump chain ready to go),
        if more."""
        if not self.reach:
            return TEMPO
        d = self.dist[s]
        gain = max((d[f] - d[t] for f, t in self.pseudo(s)), default=0)
        return max(TEMPO, self.reach * gain)

    def evaluate(self) -> float:
        number = self.plies // 2 + 1
        me = self.plies % 2
        return self.cost(1 - me, number) - self.cost(me, number) + self.tempo(me)

    def make(self, s: int, f: int, t: int) -> None:
        self.board[f], self.board[t] = 0, s + 1
        ps = self.pieces[s]
        ps[ps.index(f)] = t
        d = self.dist[s]
        self.sum_d[s] += d[t] - d[f]
        tg, hm = self.target[s], self.home[s]
        self.outside[s] += (t not in tg) - (f not in tg)
        self.at_home[s] += (t in hm) - (f in hm)
        self.plies += 1

    def unmake(self, s: int, f: int, t: int) -> None:
        self.board[f], self.board[t] = s + 1, 0
        ps = self.pieces[s]
        ps[ps.index(t)] = f
        d = self.dist[s]
        self.sum_d[s] -= d[t] - d[f]
        tg, hm = self.target[s], self.home[s]
        self.outside[s] -= (t not in tg) - (f not in tg)
        self.at_home[s] -= (t in hm) - (f in hm)
        self.plies -= 1

    def pseudo(self, s: int) -> list[tuple[int, int]]:
        """`s`'s moves before the lock-in rule (checked by `locks` when a move's turn comes)."""
        b = self.board
        nb, jp = self.variant.neighbours, self.variant.jumps
        return [(f, t) for f in self.pieces[s] for t in destinations(b, f, nb, jp)]

    def locks(self, s: int, f: int, t: int) -> bool:
        """Whether the move breaks the no-locking-in rule (never where locking is allowed)."""
        if self.variant.locking_allowed:
            return False
        b = self.board
        b[f], b[t] = 0, s + 1
        bad = locks_in(b, t, s + 1, self.variant.neighbours, self.variant.jumps)
        b[f], b[t] = s + 1, 0
        return bad

    def race_value(self, s: int, ply: int, width: int, nodes: int):
        """The value for the side to move `s` of a position whose sides are apart, by the race
        (None where the move limit could come first): a win, draw or loss where the races'
        ranges decide it, else `RACE_UNIT` per move of the lead the lines found give."""
        got = race_mod.decide(self.variant, self.board, self.plies, width, nodes)
        if got is None:
            return None
        decided, (_, w_hi), (_, b_hi), end = got
        if decided is not None:
            if decided == 0:
                return 0
            return WIN - ply - end if decided == s + 1 else -WIN + ply + end
        lead = b_hi - w_hi - (self.plies % 2)  # white's: 0 a draw
        return RACE_UNIT * lead if s == 0 else -RACE_UNIT * lead

    def end_value(self, winner: int, s: int, ply: int) -> int:
        if winner == 0:
            return 0
        return WIN - ply if winner == s + 1 else -WIN + ply

    def child(self, s: int, f: int, t: int, depth: int, alpha, beta, ply: int):
        """Make the move, value it for the mover `s` (0 white, 1 black), unmake it."""
        number = self.plies // 2 + 1
        pending = self.pending
        self.make(s, f, t)
        try:
            reason, winner, after = judge(self.variant, self.board, s + 1, number, t, pending)
            if reason is not None:
                return self.end_value(winner, s, ply + 1)
            self.pending = after
            return -self.negamax(depth - 1, -beta, -alpha, ply + 1)
        finally:
            self.pending = pending
            self.unmake(s, f, t)

    def frontier(self, s: int, moves, ply: int, alpha, beta):
        """The value of the last ply: the best evaluation after one of `moves` (pseudo-legal;
        the most gaining first, stopping at `beta`)."""
        variant = self.variant
        number = self.plies // 2 + 1
        d = self.dist[s]
        moves = sorted(moves, key=lambda m: d[m[1]] - d[m[0]])
        self.work += len(moves)
        exact = self.pending or (s == 1 and (number == variant.deadline
                                             or number >= variant.limit))
        home = self.home[s]
        late = number > variant.deadline
        after = (self.plies + 1) // 2 + 1
        # the reply's tempo, read before the move (the move seldom changes the other side's
        # best chain, and this way it is read once a node, not once a move)
        base = self.cost(1 - s, after) - self.tempo(1 - s)
        best = None
        for f, t in moves:
            if self.locks(s, f, t):
                continue
            if exact:
                v = self.child(s, f, t, 1, -WIN * 2, WIN * 2, ply)
            elif late and t in home:
                v = -WIN + ply + 1
            else:
                self.make(s, f, t)
                if self.outside[s] == 0:  # a fill: the rules decide
                    self.unmake(s, f, t)
                    v = self.child(s, f, t, 1, -WIN * 2, WIN * 2, ply)
                else:
                    v = base - self.cost(s, after)
                    self.unmake(s, f, t)
            if best is None or v > best:
                best = v
                if v >= beta:
                    break
        if best is None:
            return self.end_value(stuck_end(self.pending)[1], s, ply)
        return best

    def order(self, moves, s: int, ply: int, first):
        d = self.dist[s]
        killers = self.killers.get(ply, ())
        hist = self.history

        def key(m):
            if m == first:
                return -1e12
            k = (d[m[1]] - d[m[0]]) * 1000 - hist.get((s, m), 0)
            if m in killers:
                k -= 1e9
            return k

        return sorted(moves, key=key)

    def negamax(self, depth: int, alpha, beta, ply: int):
        if depth <= 0:
            return self.evaluate()
        self.nodes += 1
        self.work += 1
        if self.work > self.work_cap or (not self.nodes & 127
                                         and time.thread_time() > self.stop_at):
            raise Stop
        s = self.plies % 2
        if self.race and not self.pending and race_mod.apart(self.variant, self.board):
            v = self.race_value(s, ply, race_mod.LEAF_WIDTH, race_mod.LEAF_NODES)
            if time.thread_time() > self.stop_at:  # the solver's time counts too
                raise Stop
            if v is not None:
                return v
        moves = self.pseudo(s)
        if depth <= 1:
            return self.frontier(s, moves, ply, alpha, beta)
        key = (bytes(self.board), self.plies, self.pending)
        entry = self.tt.get(key)
        first = None
        if entry is not None:
            e_depth, e_value, e_bound, first = entry
            if e_depth >= depth and (e_bound == EXACT or (e_bound == LOWER and e_value >= beta)
                                     or (e_bound == UPPER and e_value <= alpha)):
                return e_value
        alpha0 = alpha
        best, best_move = -WIN * 2, None
        d = self.dist[s]
        lmr = self.lmr
        width = self.width if ply >= 2 else 0
        i = 0
        for m in self.order(moves, s, ply, first):
            f, t = m
            if width and i >= width:
                break
            if m != first and self.locks(s, f, t):
                continue
            if i == 0:
                v = self.child(s, f, t, depth, alpha, beta, ply)
            else:
                if lmr and i >= lmr and depth >= 3 and d[t] >= d[f]:
                    v = self.child(s, f, t, depth - 1, alpha, alpha + 1, ply)
                    if v <= alpha:
                        i += 1
                        continue
                v = self.child(s, f, t, depth, alpha, alpha + 1, ply)
                if alpha < v < beta:
                    v = self.child(s, f, t, depth, v, beta, ply)
            i += 1
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        ks = self.killers.setdefault(ply, [])
                        if m not in ks:
                            ks.insert(0, m)
                            del ks[2:]
                        hk = (s, m)
                        self.history[hk] = self.history.get(hk, 0) + depth * depth
                        break
        if i == 0:
            return self.end_value(stuck_end(self.pending)[1], s, ply)
        if best_move is None:  # every move was reduced and failed low
            return alpha
        bound = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = (depth, best, bound, best_move)
        return best

    def root(self, rng: random.Random, max_depth: int = 99) -> tuple[int, int]:
        """The best move, deepening a ply at a time up to `max_depth` or the time's end."""
        s = self.plies % 2
        moves = legal_pairs(self.board, s + 1, self.variant)
        rng.shuffle(moves)  # ties go to the seed
        order = self.order(moves, s, 0, None)
        if len(order) == 1:
            return order[0]
        if self.race and not self.pending and race_mod.apart(self.variant, self.board):
            line = race_mod.solo_range(self.variant, race_mod.frame(self.variant, self.board,
                                                                   s + 1),
                                       *race_mod.root_budget(self.variant))[2]
            if line:
                f, t = line[0]
                if s == 1:
                    last = len(self.board) - 1
                    f, t = last - f, last - t
                if (f, t) in order:
                    return (f, t)
        chosen = order[0]
        for depth in range(1, max_depth + 1):
            scored = []
            alpha = -WIN * 2
            try:
                for i, (f, t) in enumerate(order):
                    if i == 0 or depth == 1:
                        v = self.child(s, f, t, depth, -WIN * 2, WIN * 2, 0)
                    else:
                        v = self.child(s, f, t, depth, alpha, alpha + 1, 0)
                        if v > alpha:
                            v = self.child(s, f, t, depth, alpha, WIN * 2, 0)
                    scored.append((v, (f, t)))
                    if v > alpha:
                        alpha = v
            except Stop:
                if scored:  # the first move has its value, the others beat it or not
                    chosen = max(scored, key=lambda x: x[0])[1]
                break
            scored.sort(key=lambda x: -x[0])
            chosen = scored[0][1]
            order = [m for _, m in scored]
            self.depth_done = depth
            if abs(scored[0][0]) >= WIN // 2:
                break
        return chosen


# -- the players -------------------------------------------------------------------------------

