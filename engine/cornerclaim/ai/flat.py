"""Monte-Carlo tree search, the tree in flat arrays and its inner loop compiled: the search
levels 3–6 play.

UCT with RAVE over children ordered by a prior (progressive widening: only the first
`WIDEN_BASE + WIDEN_RATE·√visits` children of a node are eligible, an unvisited one first),
priors as initial values (every child starts with `PRIOR_N` virtual simulations worth a
value from its prior score relative to the best sibling), weighted playouts
(`playout.py`) and a rank-based reward for any number of colours: each colour's share of
the others it beats, plus a bonus for the score margin (fixed, or with `relative` measured
against the search's own playouts, with `length` also for how long the game ran). Values
are stored from the point of view of the colour that moved, so 2, 3 and 4 colours share one
backup. RAVE statistics of a node's children are updated with every move the same colour
played later in the simulation. The move played is the most visited root child.

The nodes and their children live in arrays (`Tree`) and one compiled function (`_run`)
selects, plays out, rewards and backs up one simulation after another; it returns to Python
after the number of simulations it was asked for (time checks), and when a node is to be
expanded and either its arrays are full (`Tree.add` grows them) or the heuristic move order
of levels 3–5 scores it (it builds a position in Python, `mcts.expand_lists`). With the
learned prior (level 6) `_run` lists and scores the node itself (`leaf.leaf_lists`, the
same moves and scores).

Memory: 8 arrays of 8 bytes per child (a 3-second classic search grows ~0.5 M children,
~35 MB); a reused tree is copied down to the subtree it keeps (`Tree.subtree`).
"""

from __future__ import annotations

import math
import random
import time

import numpy as np
from numba import njit

from .features import NU_FEATURES, weights_for
from .leaf import leaf_lists
from .mcts import (
    DEAD_SCORE,
    EXPAND_AT,
    EXPAND_INC,
    LEARNED_SLOPE,
    PRIOR_FLOOR,
    PRIOR_N,
    PRIOR_SLOPE,
    PRIOR_TOP,
    RACE_PLACEMENTS,
    RACE_SLACK,
    RAVE_K,
    SCORE_BONUS,
    SCORE_SCALE,
    TIME_CHECK_EVERY,
    UCT_C,
    WIDEN_BASE,
    WIDEN_RATE,
    _dist_array,
    expand_lists,
    mirror_capped,
)
from .playout import (
    LOCAL_K,
    WINDOW_POOL,
    Packed,
    Replies,
    _alive,
    _no_replies,
    _playout,
    corner_weights,
    play_tables,
    root_lists,
)

MAX_DEPTH = 128  # more than the placements of any game (4 colours × 21 pieces)
# `_run`'s integer state (`FlatSearch.st`): the next seed to use, the playouts' generation
# (`playout._Work.gen`), the RAVE marks' stamp, the pending path's depth, and whether the
# call stopped for an expansion.
ST_SEED, ST_GEN, ST_STAMP, ST_DEPTH, ST_EXPAND = range(5)


class Tree:
    """Nodes and their children in arrays that double when full. Node `v`: `color` to move
    (−1: the game is over), `visits`, and its `k[v]` children at `first[v]`…, best prior
    first. Child `j`: its `move`, visits `n` and summed reward `w` (prior's virtual ones
    included), RAVE visits `rn` and reward `rw`, the value selection reads `q` (kept by the
    backup, `Node.q`), the node it leads to `kid` (−1 until expanded) and `cap` (Duo: a
    move the mirror can copy, worth at most a draw)."""

    NODE_FIELDS = (("color", np.int64), ("first", np.int64), ("k", np.int64),
                   ("visits", np.int64))
    CHILD_FIELDS = (("move", np.int64), ("n", np.int64), ("w", np.float64),
                    ("rn", np.int64), ("rw", np.float64), ("q", np.float64),
                    ("kid", np.int64), ("cap", np.uint8))

    def __init__(self, nodes: int = 256, kids: int = 16384) -> None:
        for name, dtype in self.NODE_FIELDS:
            setattr(self, name, np.zeros(nodes, dtype))
        for name, dtype in self.CHILD_FIELDS:
            setattr(self, name, np.zeros(kids, dtype))
        self.used = np.zeros(2, np.int64)  # nodes and children in use (`_run` adds too)

    @property
    def nodes(self) -> int:
        return int(self.used[0])

    @property
    def kids(self) -> int:
        return int(self.used[1])

    def add(self, color: int, moves: np.ndarray, scores: np.ndarray, prior_n: int,
            slope: float) -> int:
        """A new node (returned) with these children (int64 moves, float64 scores, best
        first), valued as `mcts.Node` values them: `prior_n` virtual visits worth
        max(floor, top − slope · (best score − score))."""
        k = len(moves)
        self._room(1, k)
        v, f = self.nodes, self.kids
        self.color[v], self.first[v], self.k[v], self.visits[v] = color, f, k, 0
        self.used += (1, k)
        if k:
            _fill(f, moves, scores, prior_n, slope, PRIOR_FLOOR, PRIOR_TOP, self.move,
                  self.n, self.w, self.rn, self.rw, self.q, self.kid, self.cap)
        return v

    def _room(self, nodes: int, kids: int) -> None:
        if self.nodes + nodes > len(self.color):
            size = max(2 * len(self.color), self.nodes + nodes)
            for name, _ in self.NODE_FIELDS:
                setattr(self, name, _grown(getattr(self, name), size))
        if self.kids + kids > len(self.move):
            size = max(2 * len(self.move), self.kids + kids)
            for name, _ in self.CHILD_FIELDS:
                setattr(self, name, _grown(getattr(self, name), size))

    def children(self, v: int) -> slice:
        return slice(self.first[v], self.first[v] + self.k[v])

    def child(self, v: int, color: int, move: int) -> int:
        """The node after `color` played `move` at node `v`, −1 if the search did not grow
        it."""
        if self.color[v] != color:
            return -1
        span = self.children(v)
        hit = np.flatnonzero(self.move[span] == move)
        return int(self.kid[span][hit[0]]) if len(hit) else -1

    def subtree(self, v: int) -> Tree:
        """A compact copy of the subtree at node `v` (its node 0), children in the same
        order."""
        out = Tree.__new__(Tree)
        arrays = _compact(v, self.color, self.first, self.k, self.visits, self.move, self.n,
                          self.w, self.rn, self.rw, self.q, self.kid, self.cap)
        names = [name for name, _ in self.NODE_FIELDS + self.CHILD_FIELDS]
        for name, array in zip(names, arrays, strict=True):
            setattr(out, name, array)
        out.used = np.array([len(out.color), len(out.move)], np.int64)
        out._room(64, 4096)  # room to grow without copying at the first expansions
        return out


def _grown(a: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros(size, a.dtype)
    out[:len(a)] = a
    return out


class FlatNode:
    """A node of a `Tree` (what `choose_move` keeps to reuse, as it keeps a `mcts.Node`)."""

    __slots__ = ("tree", "index")

    def __init__(self, tree: Tree, index: int) -> None:
        self.tree, self.index = tree, index

    @property
    def color(self) -> int:
        return int(self.tree.color[self.index])

    def child(self, color: int, move: int) -> FlatNode | None:
        v = self.tree.child(self.index, color, move)
        return None if v < 0 else FlatNode(self.tree, v)


class FlatSearch:
    """One search tree rooted at a position: `run` adds simulations, `best_move` reads
    the root. The options are the levels' (`Level.search_options`): `local` playouts
    answer the opponents' last moves first, `learned` priors order and value the
    children, `lgr` playouts play the last good replies first (`replies`: an earlier
    search's, kept), `relative` and `length` weigh the reward's relative margin and
    game-length bonuses (0 and 0: the fixed margin bonus), `expand_inc` raises the
    expansion threshold with depth, `uct_c` is the exploration constant, `corners` the
    playouts' weight factor per new attach point (0: off) and `race_corners` prunes the
    race to the middle to the moves that gain the most attach points. `dead`: colours
    whose seat left (they never move and rank last); `recent`: the last (colour, move)
    placements before the root, oldest first; `root`: a node of an earlier search's tree
    to continue from."""

    def __init__(self, pos, color: int, *, seed: int | None, root: FlatNode | None = None,
                 recent: tuple = (), dead: frozenset = frozenset(), local: bool = False,
                 learned: bool = False, lgr: bool = False, replies: Replies | None = None,
                 relative: float = 0.0, length: float = 0.0,
                 expand_inc: float = EXPAND_INC, uct_c: float = UCT_C,
                 corners: float = 0.0, race_corners: bool = False) -> None:
        self.pos = pos
        n = pos.nu_colors
        self.race = RACE_PLACEMENTS
        self.race_corners = race_corners
        self.rave_k = RAVE_K
        self.uct_c = uct_c
        self.rnd = random.Random(seed).random
        self.prior_n = PRIOR_N
        self.dead = frozenset(dead)
        self.learned = weights_for(pos) if learned else None
        self.slope = LEARNED_SLOPE
        self.recent = tuple(recent)
        self.simulations = 0
        if root is not None:
            self.tree = root.tree.subtree(root.index)
        else:
            self.tree = Tree()
            self._expand(pos, color, self.recent[-3:])
        self.root = FlatNode(self.tree, 0)
        self.replies = (replies or Replies(pos.bc.size, n)) if lgr else None
        t = play_tables(pos.bc.size)
        packed = Packed(pos)
        roots = root_lists(pos)
        rep = self.replies if self.replies is not None else _no_replies()
        self._work = w = t.work(n)
        self._table_args = (
            packed.bits, t.nbytes * 8, t.piece_base, t.stride, packed.nu_played,
            packed.squares, packed.last_piece, _alive(n, self.dead), t.cells, t.ncell,
            t.piece, t.gamma, t.adj_ptr, t.adj, t.att_ptr, t.att,
            t.cp, t.cov, t.on, t.xs, t.ys, t.woff, t.cwin, t.widx, t.went, t.wlist, t.wtop,
            w.sgen, w.soff, w.slen, w.spool, w.pool, w.segs, roots.rlist, roots.roff,
            roots.rlen, rep.on, rep.one, rep.two, t.key1, t.key2,
            t.any_size, t.psize, corner_weights(corners))
        pre = self.recent[-3:]
        self._prc = np.array([c for c, _ in pre], np.int64)
        self._prm = np.array([m for _, m in pre], np.int64)
        self._fp = np.array([self.uct_c, self.rave_k, expand_inc, relative, length,
                             WIDEN_BASE, WIDEN_RATE, SCORE_BONUS, SCORE_SCALE],
                            np.float64)
        self._ip = np.array([n, EXPAND_AT + PRIOR_N, 3, LOCAL_K,
                             min(2, len(self.recent)), DEAD_SCORE,
                             not relative and not length, 1], np.int64)
        self._local = bool(local)
        self.st = np.zeros(5, np.int64)
        self.rstat = np.zeros(3 + 2 * n, np.float64)  # the relative rewards' statistics
        self.mark = np.zeros((n, t.piece.shape[0] + 1), np.int64)
        self.pnode = np.zeros(MAX_DEPTH, np.int64)
        self.pchild = np.zeros(MAX_DEPTH, np.int64)
        self._seeds = np.zeros(0, np.int64)
        # The learned prior's nodes are listed and scored in compiled code (`leaf.leaf_lists`,
        # which `_run` calls itself while the tree has room); the heuristic orders stay
        # with `expand_lists` (the tuple is built anyway: `_run` takes the same types).
        self._lx = self.learned is not None
        self._leaf = (
            packed.bits, t.pack(list(pos.occupied)), packed.nu_played, n, t.nbytes * 8,
            t.piece_base, t.stride, pos.bc.size > 14, _alive(n, self.dead), self._prc,
            self._prm, np.array(self.learned or (0.0,) * NU_FEATURES, np.float64),
            self.race, False, race_corners, RACE_SLACK,
            4 if pos.bc.size <= 14 else 7, _dist_array(pos.bc.size), t.min_sizes, t.on,
            t.cells, t.ncell, t.piece, t.adj_ptr, t.adj, t.att_ptr, t.att, t.centre, t.cp,
            t.cov, t.woff, t.cwin, t.widx, t.went, t.wlist, t.wtop,
            np.zeros(pos.bc.nu_moves, np.int64), np.zeros(1, np.int64))
        self._mark_symmetry()

    def _expand(self, pos, color: int, recent: tuple) -> int:
        c, moves, scores = expand_lists(pos, color, dead=self.dead, learned=self.learned,
                                        race=self.race, recent=recent,
                                        race_corners=self.race_corners)
        slope = PRIOR_SLOPE if self.learned is None else self.slope
        return self.tree.add(c, moves, scores, self.prior_n, slope)

    # -- the loop --------------------------------------------------------------------------
    def run(self, playouts: int, seconds: float | None = None) -> None:
        """Add up to `playouts` simulations, stopping after `seconds` if given."""
        tree = self.tree
        if tree.color[0] < 0 or tree.k[0] <= 1:
            return
        deadline = None if seconds is None else time.perf_counter() + seconds
        done = 0
        resume = False
        while done < playouts:
            count = playouts - done
            if deadline is not None:
                count = min(count, TIME_CHECK_EVERY)
            resume = self._call(count, resume)
            done += self._done
            if resume:
                self._expand_pending()
                continue
            if deadline is not None and time.perf_counter() >= deadline:
                break

    def _call(self, count: int, resume: bool) -> bool:
        """Run up to `count` simulations (the first one the pending, expanded one when
        `resume`); true when it stopped to have a node expanded."""
        seeds = self._seeds
        have = len(seeds) - self.st[ST_SEED]
        if have < count:
            rnd = self.rnd
            fresh = np.array([int(rnd() * 2**62) for _ in range(count - have)], np.int64)
            self._seeds = seeds = np.concatenate((seeds[self.st[ST_SEED]:], fresh))
            self.st[ST_SEED] = 0
        w = self._work
        self.st[ST_GEN] = w.gen
        self.st[ST_EXPAND] = 0
        t = self.tree
        done = _run(count, resume, t.color, t.first, t.k, t.visits, t.move, t.n, t.w, t.rn,
                    t.rw, t.q, t.kid, t.cap, self.pnode, self.pchild, self.mark, self.st,
                    self.rstat, seeds, self._fp, self._ip, self._local, self._prc,
                    self._prm, self._lx, t.used, self.prior_n, self.slope, self._leaf,
                    *self._table_args)
        w.gen = int(self.st[ST_GEN])
        self._done = done
        self.simulations += done
        return bool(self.st[ST_EXPAND])

    def _expand_pending(self) -> None:
        """Expand the node the pending simulation stopped at (its path in `pnode`,
        `pchild`), as `Search.simulate` does."""
        t = self.tree
        depth = int(self.st[ST_DEPTH])
        if self._lx:  # `_run` found no room for the node: `add` grows the arrays
            c, moves, scores = leaf_lists(depth, self.pnode, self.pchild, t.color, t.move,
                                          *self._leaf)
            v = t.add(int(c), moves, scores, self.prior_n, self.slope)
            t.kid[int(self.pchild[depth - 1])] = v
            return
        path = [(int(t.color[v]), int(t.move[j]))
                for v, j in zip(self.pnode[:depth].tolist(), self.pchild[:depth].tolist(),
                                strict=True)]
        pos = self.pos.copy()
        for c, m in path:
            pos.play(c, m)
        nxt = (path[-1][0] + 1) % self.pos.nu_colors
        v = self._expand(pos, nxt, (self.recent + tuple(path))[-3:])
        self.tree.kid[int(self.pchild[depth - 1])] = v  # `add` may have grown the arrays

    def lead(self) -> int:
        """How many more visits the most visited root move has than the next one."""
        n = self.tree.n[self.tree.children(0)]
        if len(n) < 2:
            return int(n.max(initial=0))
        top = np.partition(n, len(n) - 2)[-2:]
        return int(top[1] - top[0])

    # -- reading the tree --------------------------------------------------------------------
    def best_move(self) -> int | None:
        """The most visited root move (value breaks ties); None when there is no move."""
        t = self.tree
        if t.color[0] < 0 or not t.k[0]:
            return None
        span = t.children(0)
        ns, ws, caps = t.n[span].tolist(), t.w[span].tolist(), t.cap[span].tolist()
        best, best_key = 0, None
        for i, (n, w, cap) in enumerate(zip(ns, ws, caps, strict=True)):
            q = w / n if n else 0.0
            if cap:
                q = min(q, 0.5)
                n = n * 0.5  # a draw the mirror can force should not win on visits alone
            key = (n, q)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return int(t.move[span][best])

    def root_stats(self) -> tuple[list[int], list[int]]:
        """The root's moves and their visits (prior's virtual ones included), best prior
        first."""
        span = self.tree.children(0)
        return self.tree.move[span].tolist(), self.tree.n[span].tolist()

    def value(self) -> float:
        """Mean reward of the root's colour over all simulations so far."""
        t = self.tree
        if not t.visits[0]:
            return 0.5
        span = t.children(0)
        n = int(t.n[span].sum())
        return float(t.w[span].sum()) / n if n else 0.5

    # -- Duo symmetry --------------------------------------------------------------------------
    def _mark_symmetry(self) -> None:
        t = self.tree
        span = t.children(0)
        capped = mirror_capped(self.pos, int(t.color[0]), t.move[span].tolist())
        if capped is not None:
            t.cap[span] = capped


# -- compiled ----------------------------------------------------------------------------------
@njit(cache=True)
def _rank(scores, s):
    below = 0
    ties = -1
    for t in scores:
        if t < s:
            below += 1
        elif t == s:
            ties += 1
    return (below + 0.5 * ties) / (scores.shape[0] - 1)


@njit(cache=True)
def _rewards(scores, moves, plain, fp, rstat, out):
    """`mcts.rewards` (`plain`) or `mcts.RelativeRewards` (weights fp[3], fp[4]; its running
    statistics in `rstat`: count, length mean and M2, then each colour's margin mean and
    M2), the same arithmetic in the same order."""
    n = scores.shape[0]
    total = 0
    for c in range(n):
        total += scores[c]
    if plain:
        for c in range(n):
            s = scores[c]
            margin = s - (total - s) / (n - 1)
            out[c] = _rank(scores, s) + fp[7] * math.tanh(margin / fp[8])
        return
    weight, length = fp[3], fp[4]
    rstat[0] += 1
    k = rstat[0]
    long = 0.0
    if length:
        d = moves - rstat[1]
        rstat[1] += d / k
        rstat[2] += d * (moves - rstat[1])
        if rstat[2] > 0:
            long = length * math.tanh((moves - rstat[1]) / math.sqrt(rstat[2] / k))
    for c in range(n):
        s = scores[c]
        rank = _rank(scores, s)
        margin = s - (total - s) / (n - 1)
        d = margin - rstat[3 + c]
        rstat[3 + c] += d / k
        rstat[3 + n + c] += d * (margin - rstat[3 + c])
        var = rstat[3 + n + c] / k
        bonus = weight * math.tanh((margin - rstat[3 + c]) / math.sqrt(var)) if var > 0 \
            else 0.0
        out[c] = rank + bonus - long * (rank - 0.5)


@njit(cache=True)
def _run(count, resume, ncolor, nfirst, nk, nvisits, cmove, cn, cw, crn, crw, cq, ckid, ccap,
         pnode, pchild, mark, st, rstat, seeds, fp, ip, local_mode, prc, prm, lx, used,
         prior_n, slope, lf, bits, row, piece_base, stride, nu_played, squares, last_piece,
         alive, cells, ncell, piece, gamma, adj_ptr, adj, att_ptr, att, cp, cov, on, xs, ys,
         woff, cwin, widx, went, wlist, wtop, sgen, soff, slen, spool, pool, segs, rlist, roff,
         rlen, use_lgr, rone, rtwo, key1, key2, min_sizes, psize, cornw):
    """Up to `count` simulations of `Search.simulate` from node 0; returns how many it
    finished. A child due for expansion gets its node here with `lx` (the learned prior:
    `leaf.leaf_lists` on `lf`, `FlatSearch._leaf`) while the arrays have room for it;
    otherwise the call stops early, with st[ST_EXPAND] set: the path is in
    `pnode`/`pchild` (st[ST_DEPTH] long), and the call after the expansion (`resume`)
    finishes that simulation first. `used`: the tree's nodes and children in use."""
    uct_c, rave_k, expand_inc = fp[0], fp[1], fp[2]
    widen_base, widen_rate = fp[5], fp[6]
    n = ip[0]
    expand_at = ip[1]
    k = ip[2]
    local_k = ip[3]
    context = ip[4]
    dead_score = ip[5]
    plain = ip[6] != 0
    local_next = ip[7]
    npre = prc.shape[0]
    start = npre - context  # the placements before the root the replies see
    hc = np.empty(3, np.int64)
    hm = np.empty(3, np.int64)
    pc = np.empty(MAX_DEPTH, np.int64)
    pm = np.empty(MAX_DEPTH, np.int64)
    bc = np.empty(MAX_DEPTH + 2, np.int64)
    bm = np.empty(MAX_DEPTH + 2, np.int64)
    reward = np.empty(n, np.float64)
    done = 0
    while done < count:
        if resume:
            resume = False
            depth = st[ST_DEPTH]
            next_color = max(ncolor[ckid[pchild[depth - 1]]], 0)
        else:
            node = 0
            depth = 0
            next_color = ncolor[0]
            due = False
            while ncolor[node] >= 0:
                # `Search.select`: UCT-RAVE over the eligible children (the values the
                # backup keeps), an unvisited one first, Duo's capped moves at most 0.5.
                f = nfirst[node]
                visits = nvisits[node]
                width = min(nk[node], int(widen_base) + int(widen_rate * math.sqrt(visits)))
                explore = uct_c * math.sqrt(math.log(visits + 1))
                i = f
                best_v = -1e9
                for j in range(f, f + width):
                    nj = cn[j]
                    if nj == 0:
                        i = j
                        break
                    q = cq[j]
                    if ccap[j] and q > 0.5:
                        q = 0.5
                    v = q + explore * (1 / math.sqrt(nj))
                    if v > best_v:
                        i = j
                        best_v = v
                pnode[depth] = node
                pchild[depth] = i
                depth += 1
                next_color = (ncolor[node] + 1) % n
                kid = ckid[i]
                if kid < 0:
                    if cn[i] + 1 >= expand_at + expand_inc * (depth - 1):
                        due = True
                    break
                node = kid
            if due and lx:
                # `Tree.add` for the node `leaf_lists` lists, when it fits.
                c, moves, scores = leaf_lists(depth, pnode, pchild, ncolor, cmove, *lf)
                v = used[0]
                f = used[1]
                kk = moves.shape[0]
                if v < ncolor.shape[0] and f + kk <= cmove.shape[0]:
                    ncolor[v] = c
                    nfirst[v] = f
                    nk[v] = kk
                    nvisits[v] = 0
                    used[0] = v + 1
                    used[1] = f + kk
                    if kk:
                        _fill(f, moves, scores, prior_n, slope, PRIOR_FLOOR, PRIOR_TOP,
                              cmove, cn, cw, crn, crw, cq, ckid, ccap)
                    ckid[pchild[depth - 1]] = v
                    next_color = max(c, 0)
                    due = False
            if due:
                st[ST_DEPTH] = depth
                st[ST_EXPAND] = 1
                return done
        # The playout, from the packed root through the tree's placements.
        for d in range(depth):
            pc[d] = ncolor[pnode[d]]
            pm[d] = cmove[pchild[d]]
        nh = 0
        for j in range(max(0, npre + depth - 3), npre + depth):
            hc[nh] = prc[j] if j < npre else pc[j - npre]
            hm[nh] = prm[j] if j < npre else pm[j - npre]
            nh += 1
        nb = 0
        for j in range(start, npre):
            bc[nb] = prc[j]
            bm[nb] = prm[j]
            nb += 1
        for d in range(depth):
            bc[nb] = pc[d]
            bm[nb] = pm[d]
            nb += 1
        seed = seeds[st[ST_SEED]]
        st[ST_SEED] += 1
        gen = st[ST_GEN] + 1
        st[ST_GEN] = gen
        if wtop[1] > WINDOW_POOL // 2:  # `PlayTables.trim`
            widx[:] = -1
            wtop[:] = 0
        out, cnt, scores = _playout(
            bits, n, row, piece_base, stride, next_color, nu_played, squares, last_piece,
            alive, hc[:nh], hm[:nh], k, local_mode, local_k, local_next, seed, gen,
            cells, ncell, piece,
            gamma, adj_ptr, adj, att_ptr, att, cp, cov, on, xs, ys, woff, cwin, widx, went,
            wlist, wtop, sgen, soff, slen, spool, pool, segs, rlist, roff, rlen, use_lgr,
            rone, rtwo, key1, key2, bc[:nb], bm[:nb], context, min_sizes, psize, cornw,
            pc[:depth], pm[:depth])
        moves = depth
        for c in range(n):
            if not alive[c]:
                scores[c] = dead_score
            moves += cnt[c]
        _rewards(scores, moves, plain, fp, rstat, reward)
        # `Search.backup`: every node on the path, RAVE with the moves its colour played
        # later in the simulation (marked with this simulation's stamp).
        stamp = st[ST_STAMP] + 1
        st[ST_STAMP] = stamp
        for c in range(n):
            for j in range(cnt[c]):
                mark[c, out[c, j]] = stamp
        for d in range(depth - 1, -1, -1):
            node = pnode[d]
            i = pchild[d]
            c = ncolor[node]
            r = reward[c]
            nvisits[node] += 1
            cn[i] += 1
            cw[i] += r
            mark[c, cmove[i]] = stamp
            f = nfirst[node]
            for j in range(f, f + nk[node]):
                if mark[c, cmove[j]] != stamp:
                    continue
                crn[j] += 1
                crw[j] += r
                nj = cn[j]
                if nj:
                    if rave_k:
                        b = math.sqrt(rave_k / (3 * nj + rave_k))
                        cq[j] = (1 - b) * cw[j] / nj + b * crw[j] / crn[j]
                    else:
                        cq[j] = cw[j] / nj
        done += 1
    return done


@njit(cache=True)
def _fill(f, moves, scores, prior_n, slope, floor, top, cmove, cn, cw, crn, crw, cq, ckid,
          ccap):
    """`Tree.add`'s children from index `f`: `mcts.Node`'s prior values, element by
    element (the same arithmetic as its array expressions)."""
    best = scores[0]
    for i in range(moves.shape[0]):
        j = f + i
        cmove[j] = moves[i]
        ckid[j] = -1
        ccap[j] = 0
        crn[j] = 0
        crw[j] = 0.0
        if prior_n:
            w = prior_n * max(floor, top - slope * (best - scores[i]))
            cn[j] = prior_n
            cw[j] = w
            cq[j] = w / prior_n
        else:
            cn[j] = 0
            cw[j] = 0.0
            cq[j] = 0.0


@njit(cache=True)
def _compact(root, ncolor, nfirst, nk, nvisits, cmove, cn, cw, crn, crw, cq, ckid, ccap):
    """The subtree at `root` in fresh arrays (`Tree`'s fields, in order), breadth first."""
    nodes = 0
    kids = 0
    queue = np.empty(ncolor.shape[0], np.int64)
    queue[0] = root
    tail = 1
    while nodes < tail:  # count first
        v = queue[nodes]
        nodes += 1
        kids += nk[v]
        for j in range(nfirst[v], nfirst[v] + nk[v]):
            if ckid[j] >= 0:
                queue[tail] = ckid[j]
                tail += 1
    color = np.empty(nodes, np.int64)
    first = np.empty(nodes, np.int64)
    k = np.empty(nodes, np.int64)
    visits = np.empty(nodes, np.int64)
    move = np.empty(kids, np.int64)
    n = np.empty(kids, np.int64)
    w = np.empty(kids, np.float64)
    rn = np.empty(kids, np.int64)
    rw = np.empty(kids, np.float64)
    q = np.empty(kids, np.float64)
    kid = np.empty(kids, np.int64)
    cap = np.empty(kids, np.uint8)
    top = 0
    tail = 1
    for a in range(nodes):  # the same order: node a is queue[a]
        v = queue[a]
        color[a] = ncolor[v]
        first[a] = top
        k[a] = nk[v]
        visits[a] = nvisits[v]
        for j in range(nfirst[v], nfirst[v] + nk[v]):
            move[top] = cmove[j]
            n[top] = cn[j]
            w[top] = cw[j]
            rn[top] = crn[j]
            rw[top] = crw[j]
            q[top] = cq[j]
            cap[top] = ccap[j]
            if ckid[j] >= 0:
                kid[top] = tail
                tail += 1
            else:
                kid[top] = -1
            top += 1
    return color, first, k, visits, move, n, w, rn, rw, q, kid, cap
