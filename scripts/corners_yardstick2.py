"""A second independent Corners player, built unlike level 4 and the first yardstick, to
measure the computer levels against another style (`scripts/match_corners.py`, player
`yardstick2` or `yardstick2/seconds=1.0`).

It shares nothing with `engine/corners/ai.py`, and with `scripts/corners_yardstick.py` only
the distance between squares and the command line (scripts/yardstick_common.py): only the
rules' move generator (`engine.corners.moves.legal_pairs`, `chains`) and the end of a game
after a move (`judge`, `stuck_end`) come from the engine. Its own parts:

- Evaluation by assignment. For each side, its pieces outside the target are matched to the
  target's squares it does not hold, one piece a square, at the least total distance
  (Manhattan with four directions, king moves with eight): an exact minimum-cost matching.
  Pieces whose distances to the target's squares differ by a constant (behind the target
  in both directions; on one diagonal with eight directions) cost the same whichever of
  them takes which square, so the largest such group drops out and only the others are
  matched: by dynamic programming over subsets of the open squares while that is small
  (`DP_STATES`), else by the Hungarian method (Halma's nineteen); both are in
  scripts/corners_matching.py. The figure is kept per side and per set of squares the side
  holds, so a side that did not move is not matched again. Terms the matching misses: a
  straggler (the piece farthest from any open target square, when it lags the others' mean
  by more than `SLACK`, costs the excess again: no ladder to jump along back there), pieces
  still at home over the last ten moves before the home deadline (a growing cost each), and
  the side to move's tempo: the most one move of its (a step, or the longest-reaching jump
  chain, found by its own walk over the jump tables) brings a piece nearer the target, at
  least `TEMPO`. A position is worth the other side's cost minus one's own, plus the tempo.
- Search: MTD(f), zero-window alpha-beta passes converging on the value from the previous
  depth's, with a memory of lower and upper bounds per position (board, side to move,
  white's pending fill) and its best move, iterative deepening one ply at a time. Moves
  are ordered by the memory's move, then by how much the move shortens the mover's own
  distance to its nearest open target square. No killers, no history, no reductions, no
  width limit. Ends are exact (a win is worth more the sooner it comes); a move that would
  make a position stand for the third time in the game (the rules' own history) is a draw.
- Time: a budget of the thread's CPU time a move (default 1 s, never above `HARD_CAP`),
  checked every 64 positions; when it runs out the move is the last completed depth's, or
  the current depth's if one of its passes already proved that move better than the
  previous depth's value.

The seed only breaks ties among equal root moves.

  python scripts/corners_yardstick2.py --variant classic-3x3 --seconds 1.0
prints its first move and what each depth reached.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.corners.moves import judge, legal_pairs, stuck_end  # noqa: E402
from scripts.corners_matching import match_cost  # noqa: E402
from scripts.yardstick_common import OutOfTime, first_move_main, move_text, square_distance  # noqa: E402

WIN = 1_000_000
INF = 10 * WIN
HARD_CAP = 1.8  # no move takes more of the thread's CPU time than this
SLACK = 3  # a straggler's lag behind the others' mean that costs nothing
TEMPO = 1  # the side to move's bonus, at least
REACH = True  # the side to move's bonus is its best jump chain's reach
CHECK_EVERY = 63  # nodes between looks at the clock (a mask: 64)


class Yardstick2:
    """One move's search from a position (a board list, plies made, white's pending fill,
    the game's position keys so far)."""

    def __init__(self, variant, board, plies: int, pending: bool, seconds: float,
                 history=(), clock=time.thread_time) -> None:
        self.variant = variant
        self.board = list(board)
        self.n = len(self.board)
        size = self.size = math.isqrt(self.n)
        diagonal = variant.diagonal
        self.plies = plies
        self.pending = pending
        self.seconds = min(seconds, HARD_CAP)
        self.clock = clock
        self.seen = Counter(history)

        dist = square_distance(size, diagonal)
        self.targets = [sorted(variant.target(1)), sorted(variant.target(2))]
        self.target_mask = [sum(1 << q for q in t) for t in self.targets]
        self.home_mask = [sum(1 << q for q in variant.home(1)),
                          sum(1 << q for q in variant.home(2))]
        # per side, per square: its distance to each target square (the target's order)
        self.to_target = [[[dist(p, q) for q in self.targets[s]] for p in range(self.n)]
                          for s in (0, 1)]
        self.nearest = [[min(row) for row in self.to_target[s]] for s in (0, 1)]
        self.jumps = variant.jumps
        # per side, per square: a number shared by the squares whose distances to the
        # target's squares differ by a constant (a piece behind the target in both
        # directions, with four directions; on one diagonal with eight)
        self.kind = []
        for s in (0, 1):
            kinds: dict[tuple, int] = {}
            self.kind.append([kinds.setdefault(tuple(x - row[0] for x in row), len(kinds))
                              for row in self.to_target[s]])
        self.bits = [0, 0]
        for p, x in enumerate(self.board):
            if x:
                self.bits[x - 1] |= 1 << p
        self.memo: list[dict[int, int]] = [{}, {}]
        self.tt: dict = {}
        self.nodes = 0
        self.stop_at = 0.0
        self.depth_reached = 0
        self.log: list[str] = []

    # -- the evaluation ----------------------------------------------------------------------
    def side_cost(self, s: int) -> int:
        """The matching's least distance for side s plus the straggler's excess (no clock),
        kept per set of squares the side holds."""
        bits = self.bits[s]
        cost = self.memo[s].get(bits)
        if cost is None:
            cost = self.matching(s)
            rows = self.open_rows(s)
            if len(rows) > 1:
                near = [min(r) for r in rows]
                worst = max(near)
                lag = worst - (sum(near) - worst) / (len(near) - 1) - SLACK
                if lag > 0:
                    cost += int(lag)
            self.memo[s][bits] = cost
        return cost

    def open_cols(self, s: int) -> list[int]:
        """The indexes of the target's squares side s does not hold."""
        bits = self.bits[s]
        return [j for j, q in enumerate(self.targets[s]) if not bits >> q & 1]

    def outside(self, s: int) -> list[int]:
        """Side s's pieces outside its target, squares ascending."""
        out = []
        rest = self.bits[s] & ~self.target_mask[s]
        while rest:
            low = rest & -rest
            out.append(low.bit_length() - 1)
            rest ^= low
        return out

    def open_rows(self, s: int) -> list[list[int]]:
        """Per piece outside the target, its distances to the open target squares."""
        cols = self.open_cols(s)
        table = self.to_target[s]
        return [[table[p][j] for j in cols] for p in self.outside(s)]

    def matching(self, s: int) -> int:
        """The least total distance of side s's pieces outside its target, each to its own
        open target square."""
        cols = self.open_cols(s)
        if not cols:
            return 0
        table = self.to_target[s]
        kind = self.kind[s]
        groups: dict[int, list[int]] = {}
        for p in self.outside(s):
            groups.setdefault(kind[p], []).append(p)
        # The largest group's rows are one row plus a constant each: whichever of them takes
        # whichever column, the group costs the same once the others have chosen, so only
        # the others are matched, against the columns' costs less that row's.
        biggest = max(groups.values(), key=len)
        base = table[biggest[0]]
        j0 = cols[0]
        cost = sum(base[j] for j in cols) + sum(table[p][j0] - base[j0] for p in biggest)
        rows = [[table[p][j] - base[j] for j in cols]
                for g in groups.values() if g is not biggest for p in g]
        return cost + match_cost(rows)

    def deadline_cost(self, s: int, number: int) -> int:
        left = self.variant.deadline - number
        if 0 <= left < 10:
            at_home = (self.bits[s] & self.home_mask[s]).bit_count()
            return at_home * (10 - left) * 3
        return 0

    def evaluate(self) -> int:
        """From the side to move's point of view."""
        me = self.plies % 2
        number = self.plies // 2 + 1
        mine = self.side_cost(me) + self.deadline_cost(me, number)
        theirs = self.side_cost(1 - me) + self.deadline_cost(1 - me, number)
        return theirs - mine + (self.reach(me) if REACH else TEMPO)

    def reach(self, s: int) -> int:
        """The side to move's tempo: the most a move of its could bring one of its pieces
        outside the target nearer the target (a step or a jump chain, the lock-in rule not
        looked at), at least `TEMPO`."""
        board = self.board
        near = self.nearest[s]
        jumps = self.jumps
        best = TEMPO
        for f in self.outside(s):
            here = near[f]
            if here - best <= 0:
                continue  # no move of this piece can beat the best so far
            seen = {f}
            frontier = [f]
            while frontier:
                following = []
                for p in frontier:
                    for over, land in jumps[p]:
                        if board[over] and over != f and not board[land] and land not in seen:
                            seen.add(land)
                            following.append(land)
                            gain = here - near[land]
                            if gain > best:
                                best = gain
                frontier = following
        return best

    # -- the search --------------------------------------------------------------------------
    def ordered(self, moves, s: int, first):
        near = self.nearest[s]
        tmask = self.target_mask[s]
        bits = self.bits[s]

        def key(m):
            if m == first:
                return -INF
            f, t = m
            gain = near[f] - near[t]
            # a piece already in the target moving deeper in, before one leaving it
            if bits >> f & 1 and tmask >> f & 1 and not tmask >> t & 1:
                gain -= 4
            return -gain

        return sorted(moves, key=key)

    def play(self, s: int, f: int, t: int) -> None:
        self.board[f], self.board[t] = 0, s + 1
        self.bits[s] ^= (1 << f) | (1 << t)
        self.plies += 1

    def unplay(self, s: int, f: int, t: int) -> None:
        self.board[f], self.board[t] = s + 1, 0
        self.bits[s] ^= (1 << f) | (1 << t)
        self.plies -= 1

    def after(self, s: int, f: int, t: int, depth: int, gamma: int, ply: int) -> int:
        """The move's value for the mover against the zero window (gamma - 1, gamma)."""
        number = self.plies // 2 + 1
        pending = self.pending
        self.play(s, f, t)
        try:
            reason, winner, nxt = judge(self.variant, self.board, s + 1, number, t, pending)
            if reason is not None:
                if winner == 0:
                    return 0
                return WIN - ply if winner == s + 1 else -WIN + ply
            if self.seen and self.seen.get(bytes(self.board) + bytes((2 - s,)), 0) >= 2:
                return 0  # the same position a third time
            self.pending = nxt
            return -self.probe(depth - 1, 1 - gamma, ply + 1)
        finally:
            self.pending = pending
            self.unplay(s, f, t)

    def probe(self, depth: int, gamma: int, ply: int) -> int:
        """Alpha-beta with memory on the zero window (gamma - 1, gamma): a value ≥ gamma is
        a lower bound, one < gamma an upper bound."""
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and self.clock() > self.stop_at:
            raise OutOfTime
        if depth <= 0:
            return self.evaluate()
        s = self.plies % 2
        key = (bytes(self.board), s, self.pending)
        entry = self.tt.get(key)
        first = None
        if entry is not None:
            e_depth, low, high, first = entry
            if e_depth >= depth:
                if low >= gamma:
                    return low
                if high < gamma:
                    return high
        moves = legal_pairs(self.board, s + 1, self.variant)
        if not moves:
            _, winner = stuck_end(self.pending)
            return 0 if winner == 0 else (WIN - ply if winner == s + 1 else -WIN + ply)
        best, best_move = -INF, None
        for m in self.ordered(moves, s, first):
            v = self.after(s, m[0], m[1], depth, gamma, ply)
            if v > best:
                best, best_move = v, m
                if v >= gamma:
                    break
        if best >= gamma:
            low, high = best, INF
            if entry is not None and entry[0] == depth:
                high = entry[2]
        else:
            low, high = -INF, best
            if entry is not None and entry[0] == depth:
                low = entry[1]
            best_move = first if first is not None else best_move
        self.tt[key] = (depth, low, high, best_move)
        return best

    def root(self, moves, depth: int, gamma: int) -> tuple[int, tuple[int, int]]:
        """One zero-window pass at the root: the best value (a bound as in `probe`) and the
        move that reached it."""
        s = self.plies % 2
        self.nodes += 1
        best, best_move = -INF, moves[0]
        for m in moves:
            v = self.after(s, m[0], m[1], depth, gamma, 0)
            if v > best:
                best, best_move = v, m
                if v >= gamma:
                    break
        return best, best_move

    def mtdf(self, moves, depth: int, guess: int, proven: list):
        """MTD(f) at one depth from `guess`: the value and best move. Each pass whose move
        reached a lower bound at or above the previous depth's value is put in `proven`."""
        low, high = -INF, INF
        value, move = guess, moves[0]
        while low < high:
            gamma = value + 1 if value == low else value
            value, m = self.root(moves, depth, gamma)
            if value >= gamma:
                low = value
                move = m
                proven.append((value, m))
                moves = [m] + [x for x in moves if x != m]
            else:
                high = value
        return value, move, moves

    def best(self, seed: int = 0, verbose: bool = False) -> tuple[int, int] | None:
        s = self.plies % 2
        moves = legal_pairs(self.board, s + 1, self.variant)
        if not moves:
            return None
        if len(moves) == 1:
            return moves[0]
        random.Random(seed).shuffle(moves)  # ties among equal moves go to the seed
        start = self.clock()
        self.stop_at = start + self.seconds
        moves = self.ordered(moves, s, None)
        chosen = moves[0]
        guess = self.evaluate()
        depth = 1
        while True:
            proven: list = []
            try:
                value, move, moves = self.mtdf(moves, depth, guess, proven)
            except OutOfTime:
                # a pass that proved a move at least as good as the last depth's value
                if proven and depth > 1 and proven[-1][0] >= guess:
                    chosen = proven[-1][1]
                self.log.append(f"depth {depth} cut, {self.nodes} positions")
                if verbose:
                    print(self.log[-1])
                break
            chosen, guess = move, value
            self.depth_reached = depth
            self.log.append(f"depth {depth}: {value} {chosen}, {self.nodes} positions, "
                            f"{self.clock() - start:.2f} s")
            if verbose:
                print(self.log[-1])
            if abs(value) >= WIN // 2 or depth >= 60:
                break
            depth += 1
        return chosen


def yardstick2_pair(state, seat: int, *, seconds: float = 1.0, seed: int = 0,
                    verbose: bool = False, clock=time.thread_time):
    """The (from, to) the second yardstick plays for `seat` in `state`, or None."""
    if state.to_move != seat:
        return None
    search = Yardstick2(state.variant, state.board, state.plies, state.pending, seconds,
                        state.positions, clock)
    return search.best(seed * 1_000_003 + state.plies, verbose)


def yardstick2_move(state, seat: int, *, seconds: float = 1.0, seed: int = 0) -> str | None:
    """The move text (canonical path) the second yardstick plays, or None."""
    return move_text(state, yardstick2_pair(state, seat, seconds=seconds, seed=seed))


def main(argv=None) -> int:
    return first_move_main(__doc__.split("\n\n")[0], yardstick2_pair, argv)


if __name__ == "__main__":
    raise SystemExit(main())
