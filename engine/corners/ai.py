"""Corners' computer players: four levels, from a beginner to a timed alpha-beta search.

Level 2 reads the position through an evaluation: each side's remaining distance, over
its pieces outside the target the distance (steps: Manhattan with four directions, king moves
with eight) to the nearest target square it has not filled, plus a penalty per piece still at
home that grows as the home deadline nears. A position is worth the other side's remaining
distance minus one's own. Levels 3 and 4 search with their own (`DeepSearch`).

1. Beginner: one move ahead, picking at random with the better moves likelier; often does not
   see a chain of more than one jump, and never takes a move that loses outright.
2. Casual: one move ahead, the best by the evaluation (ties broken by the seed).
3. Club: `DeepSearch` three plies deep (its move, the reply, its next move), every move.
4. Expert: `DeepSearch` for a second of its thread's CPU time, as deep as that allows, from
   the third ply on only the ten moves that bring a piece nearest its far corner, its table
   kept from move to move. Once the sides can no longer touch (`race.py`) the game is two
   solo races: the search values such a position by the solo solver instead of searching
   on, and at the root plays the first move of its own solo line at once.

Level 3 stops at `TIME_CAP` seconds of its own CPU time whatever its depth, keeping the best
move of the last depth completed; other work on the machine does not change the move it
plays. Level 4 stops at its budget (`Level.seconds`, at most `TIME_CAP`), so how deep it
gets, and at times its move, depend on the machine's speed.

The seed breaks ties (and the beginner's draws), so levels 1–3 replay the same game for the
same seed. `greedy_move` is the plain one-ply player the match runner measures against.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from . import race as race_mod
from .moves import chains, destinations, has_move, judge, legal_pairs, locks_in, stuck_end
from .variants import Variant

WIN = 100_000
TEMPO = 1
#: What a move of lead in a race the sides no longer touch is worth where the solo solver's
#: ranges do not decide it (well above any lead of the evaluation's).
RACE_UNIT = 200


@dataclass(frozen=True)
class Level:
    name: str
    description: str
    seconds: float
    depth: int = 1
    nodes: int = 0  # the iterative deepening's budget of positions (0: a fixed depth)
    width: int = 0  # moves kept below the root's children (0: all)
    temperature: float = 0.0  # the beginner's randomness (0: the best move)
    miss_chains: float = 0.0  # how often the beginner overlooks chains of several jumps
    deep: bool = False  # `DeepSearch`: to `depth` plies if above 1, else as deep as `seconds` allow
    outside: float = 1.0  # the deep search's cost per piece outside the target
    straggle: float = 0.0  # its cost per square the rearmost piece trails beyond the slack
    slack: float = 2.0
    lmr: int = 0  # moves searched at full depth before non-gaining ones are reduced (0: none)
    keep: bool = False  # the deep search keeps its table from move to move
    race: bool = False  # the deep search decides a race the sides no longer touch by solo.py


LEVELS: dict[int, Level] = {
    1: Level("Beginner", "plays one move ahead with a random streak and often misses long "
             "jump chains", 0.01, temperature=1.5, miss_chains=0.5),
    2: Level("Casual", "plays the move that gains the most right now", 0.02),
    3: Level("Club", "looks at its move, the reply and its next move (alpha-beta, three "
             "plies)", 0.3, depth=3, deep=True),
    4: Level("Expert", "thinks about a second a move and looks six to eight plies ahead on "
             "the classic board (alpha-beta), from its third ply on only the ten moves that "
             "gain the most", 1.0,
             deep=True, width=10, lmr=3, keep=True, race=True),
}
#: A search stops after this many seconds of its thread's CPU time whatever its budget (a slow
#: machine): with the check
#: every 256 positions and the move's own bookkeeping, a move stays within 2 s.
TIME_CAP = 1.8
#: The deepest a timed search goes (a won or lost position ends it sooner).
MAX_DEPTH = 60


# -- evaluation tables -------------------------------------------------------------------------

_TABLES: dict[str, tuple] = {}


def tables(variant: Variant) -> tuple:
    """The variant's distances: per seat, each square's distance to the far corner of its
    target (for move ordering), and between any two squares (`[p * n + q]`, n the board's
    number of squares)."""
    got = _TABLES.get(variant.name)
    if got is not None:
        return got

    n, diagonal = variant.squares, variant.diagonal

    def dist(p: int, q: int) -> int:
        return variant.board.distance(p, q, diagonal)

    corner = ([dist(q, n - 1) for q in range(n)], [dist(q, 0) for q in range(n)])
    pairs = [dist(p, q) for p in range(n) for q in range(n)]
    got = (corner, pairs)
    _TABLES[variant.name] = got
    return got


def home_penalty(variant: Variant, number: int) -> int:
    """What a piece still at home costs when the next move has `number`: nothing until a
    dozen moves before the deadline, then more with every move."""
    left = variant.deadline - number
    if left < 0 or left >= 12:
        return 0
    return (12 - left) * 2


class Search:
    """One position to search, as a mutable board with its home counts kept up to date."""

    def __init__(self, variant: Variant, board, plies: int, pending: bool,
                 nodes: int = 0, width: int = 0, deadline: float | None = None) -> None:
        self.variant = variant
        self.board = list(board)
        self.plies = plies
        self.pending = pending
        self.corner, self.pair_dist = tables(variant)
        self.targets = (sorted(variant.target(1)), sorted(variant.target(2)))
        self.homes = [sum(1 for q in variant.home(s) if self.board[q] == s) for s in (1, 2)]
        self.budget = nodes
        self.width = width
        self.count = 0
        self.deadline = deadline
        self.tt: dict[bytes, tuple[int, tuple[int, int]]] = {}

    def remaining(self, seat: int) -> int:
        """`seat`'s remaining distance: over its pieces outside the target, the distance to
        the nearest target square it has not filled yet."""
        b = self.board
        target = self.targets[seat - 1]
        open_squares = [q for q in target if b[q] != seat]
        if not open_squares:
            return 0
        inside = self.variant.target(seat)
        pd = self.pair_dist
        n = len(b)
        total = 0
        for p in range(n):
            if b[p] == seat and p not in inside:
                base = p * n
                total += min([pd[base + q] for q in open_squares])
        return total

    # the evaluation, from `seat`'s side
    def value(self, seat: int) -> int:
        number = self.plies // 2 + 1
        pen = home_penalty(self.variant, number)
        white = (self.remaining(2) - self.remaining(1)) + pen * (self.homes[1] - self.homes[0])
        v = white if seat == 1 else -white
        return v + TEMPO if seat == 1 + self.plies % 2 else v - TEMPO

    def make(self, seat: int, f: int, t: int) -> None:
        b = self.board
        b[f], b[t] = 0, seat
        home = self.variant.homes[seat - 1]
        self.homes[seat - 1] += (t in home) - (f in home)
        self.plies += 1

    def unmake(self, seat: int, f: int, t: int) -> None:
        b = self.board
        b[f], b[t] = seat, 0
        home = self.variant.homes[seat - 1]
        self.homes[seat - 1] -= (t in home) - (f in home)
        self.plies -= 1

    def ordered(self, seat: int, pairs):
        d = self.corner[seat - 1]
        return sorted(pairs, key=lambda m: d[m[1]] - d[m[0]])

    def terminal(self, reason: str | None, winner: int, seat: int, ply: int) -> int:
        if winner == 0:
            return 0
        return WIN - ply if winner == seat else -WIN + ply

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value for the side to move (its move is due; the game is not over)."""
        seat = 1 + self.plies % 2
        if depth == 0:
            return self.value(seat)
        self.count += 1
        if self.budget and self.count > self.budget:
            raise _Stop
        if self.deadline is not None and self.count % 256 == 0 and \
                time.thread_time() > self.deadline:
            raise _Stop
        pairs = legal_pairs(self.board, seat, self.variant)
        if not pairs:
            reason, winner = stuck_end(self.pending)
            return self.terminal(reason, winner, seat, ply)
        key = bytes(self.board) + bytes((seat, self.pending))
        hit = self.tt.get(key)
        pairs = self.ordered(seat, pairs)
        if self.width and ply >= 2:
            pairs = pairs[:self.width]
        if hit is not None and hit[1] in pairs:
            pairs.remove(hit[1])
            pairs.insert(0, hit[1])
        number = self.plies // 2 + 1
        best, best_move = -WIN * 2, pairs[0]
        pending = self.pending
        for f, t in pairs:
            self.make(seat, f, t)
            reason, winner, after = judge(self.variant, self.board, seat, number, t, pending)
            if reason is not None:
                v = self.terminal(reason, winner, seat, ply + 1)
            else:
                # (a _Stop leaves the board half made: the search is dropped then)
                self.pending = after
                v = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
                self.pending = pending
            self.unmake(seat, f, t)
            if v > best:
                best, best_move = v, (f, t)
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        self.tt[key] = (depth, best_move)
        return best

    def root(self, seat: int, depth: int, rng: random.Random, noise: float) -> tuple[int, int]:
        """The best move, searching `depth` plies (iteratively deeper under a budget)."""
        pairs = self.ordered(seat, legal_pairs(self.board, seat, self.variant))
        jitter = {m: rng.random() * noise for m in pairs}
        best_move = pairs[0]
        number = self.plies // 2 + 1
        pending = self.pending
        for d in range(1, depth + 1):
            try:
                scored = []
                alpha = -WIN * 2
                for f, t in pairs:
                    self.make(seat, f, t)
                    try:
                        reason, winner, after = judge(self.variant, self.board, seat, number,
                                                      t, pending)
                        if reason is not None:
                            v = self.terminal(reason, winner, seat, 1)
                        elif d == 1:
                            v = self.value(seat)
                            if not has_move(self.board, 3 - seat, self.variant):
                                v = self.terminal(*stuck_end(after), seat, 1)
                        else:
                            self.pending = after
                            v = -self.negamax(d - 1, -WIN * 2, -alpha + 1, 1)
                    finally:
                        self.pending = pending
                        self.unmake(seat, f, t)
                    scored.append((v + jitter[(f, t)], (f, t)))
                    alpha = max(alpha, v)
            except _Stop:
                break
            scored.sort(key=lambda x: -x[0])
            best_move = scored[0][1]
            pairs = [m for _, m in scored]
            if abs(scored[0][0]) >= WIN // 2:
                break
        return best_move


class _Stop(Exception):
    pass


# -- the deep search (level 4) -----------------------------------------------------------------

EXACT, LOWER, UPPER = 0, 1, 2
#: The deep search's tables kept from move to move, per variant (cleared past a size).
_KEPT: dict[str, dict] = {}
KEPT_ENTRIES = 200_000


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
        self.depth_done = 0

    def cost(self, s: int, number: int) -> float:
        d = self.dist[s]
        total = self.sum_d[s]
        c = total - self.least[s] + self.outside_w * self.outside[s]
        if self.straggle and self.outside[s]:
            rear = max([d[p] for p in self.pieces[s]])
            rest = (total - rear) / (self.count - 1) if self.count > 1 else rear
            over = rear - rest - self.slack
            if over > 0:
                c += self.straggle * over
        if self.at_home[s]:
            c += self.at_home[s] * home_penalty(self.variant, number)
        return c

    def evaluate(self) -> float:
        number = self.plies // 2 + 1
        me = self.plies % 2
        return self.cost(1 - me, number) - self.cost(me, number) + TEMPO

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
        exact = self.pending or (s == 1 and (number == variant.deadline
                                             or number >= variant.limit))
        home = self.home[s]
        late = number > variant.deadline
        after = (self.plies + 1) // 2 + 1
        base = self.cost(1 - s, after) - TEMPO
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
        if not self.nodes & 127 and time.thread_time() > self.stop_at:
            raise _Stop
        s = self.plies % 2
        if self.race and not self.pending and race_mod.apart(self.variant, self.board):
            v = self.race_value(s, ply, race_mod.LEAF_WIDTH, race_mod.LEAF_NODES)
            if time.thread_time() > self.stop_at:  # the solver's time counts too
                raise _Stop
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
                                       race_mod.ROOT_WIDTH, race_mod.ROOT_NODES)[2]
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
            except _Stop:
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


def _setup(state):
    return state.variant, list(state.board), state.plies, state.pending


def choose_pair(state, seat: int, *, level: int, seed: int,
                seconds: float | None = None) -> tuple[int, int] | None:
    """The (from, to) `level` plays for `seat` in `state`, or None if it is not its turn.
    `seconds` (a timed level only) cuts its budget of CPU time: the practice hint's, which must
    answer within a second; the level's own budget is never raised."""
    if state.to_move != seat:
        return None
    lv = LEVELS.get(level)
    if lv is None:
        from ..errors import EngineError

        raise EngineError(f"Corners has no level {level} (1 to {len(LEVELS)})",
                          levels=sorted(LEVELS))
    variant, board, plies, pending = _setup(state)
    pairs = legal_pairs(board, seat, variant)
    if not pairs:
        return None
    rng = random.Random(seed * 1_000_003 + plies)
    if lv.temperature:
        return _beginner(state, seat, pairs, lv, rng)
    if lv.deep:
        fixed = lv.depth > 1
        budget = TIME_CAP if fixed else min(lv.seconds, TIME_CAP, seconds or TIME_CAP)
        stop_at = time.thread_time() + budget
        search = DeepSearch(variant, board, plies, pending, stop_at, lv)
        return search.root(rng, lv.depth if fixed else MAX_DEPTH)
    if lv.depth <= 1:
        search = Search(variant, board, plies, pending)
        return search.root(seat, 1, rng, 0.5)
    limit = time.thread_time() + TIME_CAP
    search = Search(variant, board, plies, pending, nodes=lv.nodes, width=lv.width,
                    deadline=limit)
    return search.root(seat, lv.depth, rng, 0.5)


def _beginner(state, seat: int, pairs, lv: Level, rng: random.Random) -> tuple[int, int]:
    variant, board = state.variant, state.board
    number = state.number
    dist = tables(variant)[0][seat - 1]
    chain_len = {}
    if rng.random() < lv.miss_chains:  # overlooks chains of more than one jump
        for f in {p[0] for p in pairs}:
            for t, path in chains(board, f, variant).items():
                chain_len[(f, t)] = len(path) - 1
        pairs = [m for m in pairs if chain_len.get(m, 1) <= 1] or pairs
    safe = [m for m in pairs if not (number > variant.deadline and m[1] in variant.home(seat))]
    pairs = safe or pairs
    gains = [dist[f] - dist[t] for f, t in pairs]
    top = max(gains)
    weights = [math.exp((g - top) / lv.temperature) for g in gains]
    return rng.choices(pairs, weights)[0]


def choose_move(state, seat: int, *, level: int, seed: int,
                seconds: float | None = None) -> str | None:
    """The move text (canonical path) `level` plays for `seat`, or None (`seconds`: as in
    `choose_pair`)."""
    pair = choose_pair(state, seat, level=level, seed=seed, seconds=seconds)
    if pair is None:
        return None
    return state.variant.board.path_text(
        chains(list(state.board), pair[0], state.variant)[pair[1]])


def greedy_move(state, seat: int, *, seed: int = 0) -> str | None:
    """A plain one-ply player: the move that brings the piece nearest the far corner of its
    target (Manhattan, or king moves with diagonals) gains the most, ties at random. It does
    not take a move that loses at once if it has another."""
    if state.to_move != seat:
        return None
    variant = state.variant
    board = list(state.board)
    pairs = legal_pairs(board, seat, variant)
    if not pairs:
        return None
    corner = variant.squares - 1 if seat == 1 else 0

    def dist(sq: int) -> int:
        return variant.board.distance(sq, corner, variant.diagonal)

    safe = [m for m in pairs
            if not (state.number > variant.deadline and m[1] in variant.home(seat))]
    pairs = safe or pairs
    best = max(dist(f) - dist(t) for f, t in pairs)
    rng = random.Random(seed * 1_000_003 + state.plies)
    f, t = rng.choice([m for m in pairs if dist(m[0]) - dist(m[1]) == best])
    return variant.board.path_text(chains(board, f, variant)[t])
