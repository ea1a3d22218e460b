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
from typing import NamedTuple

import numpy as np
from numba import njit

from .features import NU_FEATURES, weights_for
from .leaf import LeafArgs, leaf_lists, leaf_lists_from_python
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
    WINDOW_POOL,
    Replies,
    _alive,
    _no_replies,
    _playout,
    corner_weights,
    pack_position,
    play_tables,
    root_lists,
)

MAX_DEPTH = 128  # more than the placements of any game (4 colours × 21 pieces)
# `_run`'s integer state (`FlatSearch.state`): the next seed to use, the playouts' generation
# (`playout._Work.gen`), the RAVE marks' stamp, the pending path's depth, and whether the
# call stopped for an expansion.
ST_SEED, ST_GEN, ST_STAMP, ST_DEPTH, ST_EXPAND = range(5)


class Settings(NamedTuple):
    """The numbers `_run` reads that stay fixed through a search (numba passes a named
    tuple by value and reads its fields by name)."""

    colors: int  # colours in the game
    uct_c: float  # the UCT exploration constant
    rave_k: float  # RAVE's weight √(k / (3n + k)) for a child of n visits
    widen_base: float  # children eligible: widen_base + widen_rate·√visits
    widen_rate: float
    expand_at: int  # a child's node is expanded once its visits (prior's too) reach this
    expand_inc: float  # ... plus this per level of depth below the root's children
    playout_k: int  # candidates a sampled playout move compares
    context: int  # placements before the root the last good replies see as context
    dead_score: int  # the score of a colour whose seat left
    plain: bool  # the fixed margin bonus (no relative or length bonus)
    relative: float  # weight of the margin bonus relative to the search's own playouts
    length: float  # weight of the game-length bonus
    score_bonus: float  # the fixed margin bonus: score_bonus · tanh(margin / score_scale)
    score_scale: float
    local: bool  # local-first playouts


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
        first), valued by their prior: `prior_n` virtual visits worth
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
    """A node of a `Tree` (what `choose_move` keeps to reuse)."""

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
        tables = play_tables(pos.bc.size)
        self._packed = packed = pack_position(pos)
        self._alive = _alive(n, self.dead)
        self._roots = root_lists(pos)
        self._reply_arrays = (self.replies if self.replies is not None
                              else _no_replies()).arrays
        self._corner_powers = corner_weights(corners)
        self._work = tables.work(n)
        pre = self.recent[-3:]
        self._pre_c = np.array([c for c, _ in pre], np.int64)
        self._pre_m = np.array([m for _, m in pre], np.int64)
        self._settings = Settings(
            colors=n, uct_c=float(self.uct_c), rave_k=float(self.rave_k),
            widen_base=float(WIDEN_BASE), widen_rate=float(WIDEN_RATE),
            expand_at=EXPAND_AT + PRIOR_N, expand_inc=float(expand_inc), playout_k=3,
            context=min(2, len(self.recent)), dead_score=DEAD_SCORE,
            plain=not relative and not length, relative=float(relative),
            length=float(length), score_bonus=SCORE_BONUS, score_scale=SCORE_SCALE,
            local=bool(local))
        self.state = np.zeros(5, np.int64)
        self.reward_stats = np.zeros(3 + 2 * n, np.float64)  # the relative rewards' statistics
        self.mark = np.zeros((n, tables.piece.shape[0] + 1), np.int64)
        self.path_node = np.zeros(MAX_DEPTH, np.int64)
        self.path_child = np.zeros(MAX_DEPTH, np.int64)
        self._seeds = np.zeros(0, np.int64)
        # The learned prior's nodes are listed and scored in compiled code (`leaf.leaf_lists`,
        # which `_run` calls itself while the tree has room); the heuristic orders stay
        # with `expand_lists` (the tuple is built anyway: `_run` takes the same types).
        self._compiled_listing = self.learned is not None
        self._leaf = LeafArgs(
            root=packed, tables=tables.arrays, occupied=tables.pack(list(pos.occupied)),
            big=pos.bc.size > 14,
            alive=self._alive, pre_c=self._pre_c, pre_m=self._pre_m,
            weights=np.array(self.learned or (0.0,) * NU_FEATURES, np.float64),
            race=self.race, race_corners=race_corners, slack=RACE_SLACK,
            early_at=4 if pos.bc.size <= 14 else 7, dist=_dist_array(pos.bc.size),
            seen=np.zeros(pos.bc.nu_moves, np.int64), seen_gen=np.zeros(1, np.int64))
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
        have = len(seeds) - self.state[ST_SEED]
        if have < count:
            rnd = self.rnd
            fresh = np.array([int(rnd() * 2**62) for _ in range(count - have)], np.int64)
            self._seeds = seeds = np.concatenate((seeds[self.state[ST_SEED]:], fresh))
            self.state[ST_SEED] = 0
        w = self._work
        self.state[ST_GEN] = w.gen
        self.state[ST_EXPAND] = 0
        t = self.tree
        done = _run(count, resume, t.color, t.first, t.k, t.visits, t.move, t.n, t.w, t.rn,
                    t.rw, t.q, t.kid, t.cap, self.path_node, self.path_child, self.mark,
                    self.state, self.reward_stats, seeds, self._settings, self._pre_c,
                    self._pre_m, self._compiled_listing, t.used, self.prior_n, self.slope,
                    self._leaf, self._packed, self._alive, self._leaf.tables, w.scratch,
                    self._roots, self._reply_arrays, self._corner_powers)
        w.gen = int(self.state[ST_GEN])
        self._done = done
        self.simulations += done
        return bool(self.state[ST_EXPAND])

    def _expand_pending(self) -> None:
        """Expand the node the pending simulation stopped at (its path in `path_node`,
        `path_child`) in Python (the heuristic orders, or a full tree)."""
        t = self.tree
        depth = int(self.state[ST_DEPTH])
        if self._compiled_listing:  # `_run` found no room for the node: `add` grows the arrays
            c, moves, scores = leaf_lists_from_python(depth, self.path_node, self.path_child,
                                                      t.color, t.move, self._leaf)
            v = t.add(int(c), moves, scores, self.prior_n, self.slope)
            t.kid[int(self.path_child[depth - 1])] = v
            return
        path = [(int(t.color[v]), int(t.move[j]))
                for v, j in zip(self.path_node[:depth].tolist(), self.path_child[:depth].tolist(),
                                strict=True)]
        pos = self.pos.copy()
        for c, m in path:
            pos.play(c, m)
        nxt = (path[-1][0] + 1) % self.pos.nu_colors
        v = self._expand(pos, nxt, (self.recent + tuple(path))[-3:])
        self.tree.kid[int(self.path_child[depth - 1])] = v  # `add` may have grown the arrays

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
def _rewards(scores, moves, settings, reward_stats, out):
    """Every colour's reward for a simulation that ended with `scores` after `moves`
    placements: its rank among the colours in [0, 1] (the share of the others it beats,
    ties counting half) plus a margin bonus. With `settings.plain` the bonus is
    `score_bonus` · tanh(margin / `score_scale`), the margin measured against the mean of
    the others; else (level 6, Pentobi's quality bonus) `relative` · tanh(z), z how many
    standard deviations the margin lies above the colour's mean margin in this search's
    simulations so far, and with `length` also −length · (rank − ½) · tanh(z_len), z_len
    how much longer than usual the simulated game was (a winner prefers to win quickly,
    a loser to drag the game on). `reward_stats` holds the running statistics (Welford's): the
    count, the length's mean and M2, then each colour's margin mean, then its M2."""
    n = scores.shape[0]
    total = 0
    for c in range(n):
        total += scores[c]
    if settings.plain:
        for c in range(n):
            s = scores[c]
            margin = s - (total - s) / (n - 1)
            out[c] = _rank(scores, s) + settings.score_bonus * math.tanh(
                margin / settings.score_scale)
        return
    weight, length = settings.relative, settings.length
    reward_stats[0] += 1
    k = reward_stats[0]
    long = 0.0
    if length:
        d = moves - reward_stats[1]
        reward_stats[1] += d / k
        reward_stats[2] += d * (moves - reward_stats[1])
        if reward_stats[2] > 0:
            long = length * math.tanh((moves - reward_stats[1]) / math.sqrt(reward_stats[2] / k))
    for c in range(n):
        s = scores[c]
        rank = _rank(scores, s)
        margin = s - (total - s) / (n - 1)
        d = margin - reward_stats[3 + c]
        reward_stats[3 + c] += d / k
        reward_stats[3 + n + c] += d * (margin - reward_stats[3 + c])
        var = reward_stats[3 + n + c] / k
        bonus = weight * math.tanh((margin - reward_stats[3 + c]) / math.sqrt(var)) if var > 0 \
            else 0.0
        out[c] = rank + bonus - long * (rank - 0.5)


@njit(cache=True)
def _run(
    count,
    resume,
    node_color,
    node_first,
    node_kids,
    node_visits,
    child_move,
    child_n,
    child_w,
    child_rave_n,
    child_rave_w,
    child_q,
    child_node,
    child_capped,
    path_node,
    path_child,
    mark,
    state,
    reward_stats,
    seeds,
    settings,
    pre_c,
    pre_m,
    learned,
    tree_used,
    prior_n,
    slope,
    leaf_args,
    root,
    alive,
    tables,
    scratch,
    roots,
    replies,
    corner_powers,
):
    """Up to `count` simulations from node 0 (select, play out, reward, back up); returns
    how many it finished. The tree is `Tree`'s arrays (`node_*` per node, `child_*` per
    child); `tree_used` its nodes and children in use. A child due for expansion gets its
    node here with `learned` (the learned prior: `leaf.leaf_lists` on `leaf_args`,
    `FlatSearch._leaf`) while the arrays have room for it; otherwise the call stops early,
    with state[ST_EXPAND] set: the path is in `path_node`/`path_child` (state[ST_DEPTH]
    long), and the call after the expansion (`resume`) finishes that simulation first.
    `pre_c`/`pre_m`: the last placements before the root; the arguments from `root` on are
    the playouts' (`playout._playout`: the packed root, which colours may move, the board's
    `PlayArrays`, the `Scratch` lists, the `RootLists`, the `ReplyArrays` and the
    new-corner weights)."""
    uct_c, rave_k, expand_inc = settings.uct_c, settings.rave_k, settings.expand_inc
    widen_base, widen_rate = settings.widen_base, settings.widen_rate
    n = settings.colors
    expand_at = settings.expand_at
    playout_k = settings.playout_k
    context = settings.context
    dead_score = settings.dead_score
    local_mode = settings.local
    n_pre = pre_c.shape[0]
    start = n_pre - context  # the placements before the root the replies see
    recent_c = np.empty(3, np.int64)
    recent_m = np.empty(3, np.int64)
    path_c = np.empty(MAX_DEPTH, np.int64)
    path_m = np.empty(MAX_DEPTH, np.int64)
    before_c = np.empty(MAX_DEPTH + 2, np.int64)
    before_m = np.empty(MAX_DEPTH + 2, np.int64)
    reward = np.empty(n, np.float64)
    done = 0
    while done < count:
        if resume:
            resume = False
            depth = state[ST_DEPTH]
            next_color = max(node_color[child_node[path_child[depth - 1]]], 0)
        else:
            node = 0
            depth = 0
            next_color = node_color[0]
            due = False
            while node_color[node] >= 0:
                # Selection: UCT-RAVE over the eligible children (the values the
                # backup keeps), an unvisited one first, Duo's capped moves at most 0.5.
                first = node_first[node]
                visits = node_visits[node]
                width = min(node_kids[node], int(widen_base) + int(widen_rate * math.sqrt(visits)))
                explore = uct_c * math.sqrt(math.log(visits + 1))
                i = first
                best_v = -1e9
                for j in range(first, first + width):
                    child_visits = child_n[j]
                    if child_visits == 0:
                        i = j
                        break
                    q = child_q[j]
                    if child_capped[j] and q > 0.5:
                        q = 0.5
                    v = q + explore * (1 / math.sqrt(child_visits))
                    if v > best_v:
                        i = j
                        best_v = v
                path_node[depth] = node
                path_child[depth] = i
                depth += 1
                next_color = (node_color[node] + 1) % n
                below = child_node[i]
                if below < 0:
                    if child_n[i] + 1 >= expand_at + expand_inc * (depth - 1):
                        due = True
                    break
                node = below
            if due and learned:
                # `Tree.add` for the node `leaf_lists` lists, when it fits.
                c, moves, scores = leaf_lists(
                    depth, path_node, path_child, node_color, child_move, leaf_args
                )
                v = tree_used[0]
                first = tree_used[1]
                n_kids = moves.shape[0]
                if v < node_color.shape[0] and first + n_kids <= child_move.shape[0]:
                    node_color[v] = c
                    node_first[v] = first
                    node_kids[v] = n_kids
                    node_visits[v] = 0
                    tree_used[0] = v + 1
                    tree_used[1] = first + n_kids
                    if n_kids:
                        _fill(
                            first,
                            moves,
                            scores,
                            prior_n,
                            slope,
                            PRIOR_FLOOR,
                            PRIOR_TOP,
                            child_move,
                            child_n,
                            child_w,
                            child_rave_n,
                            child_rave_w,
                            child_q,
                            child_node,
                            child_capped,
                        )
                    child_node[path_child[depth - 1]] = v
                    next_color = max(c, 0)
                    due = False
            if due:
                state[ST_DEPTH] = depth
                state[ST_EXPAND] = 1
                return done
        # The playout, from the packed root through the tree's placements.
        for d in range(depth):
            path_c[d] = node_color[path_node[d]]
            path_m[d] = child_move[path_child[d]]
        n_recent = 0
        for j in range(max(0, n_pre + depth - 3), n_pre + depth):
            recent_c[n_recent] = pre_c[j] if j < n_pre else path_c[j - n_pre]
            recent_m[n_recent] = pre_m[j] if j < n_pre else path_m[j - n_pre]
            n_recent += 1
        n_before = 0
        for j in range(start, n_pre):
            before_c[n_before] = pre_c[j]
            before_m[n_before] = pre_m[j]
            n_before += 1
        for d in range(depth):
            before_c[n_before] = path_c[d]
            before_m[n_before] = path_m[d]
            n_before += 1
        seed = seeds[state[ST_SEED]]
        state[ST_SEED] += 1
        gen = state[ST_GEN] + 1
        state[ST_GEN] = gen
        if tables.window_top[1] > WINDOW_POOL // 2:  # `PlayTables.trim`
            tables.window_index[:] = -1
            tables.window_top[:] = 0
        played, n_played, scores = _playout(
            root,
            tables,
            scratch,
            roots,
            replies,
            next_color,
            alive,
            recent_c[:n_recent],
            recent_m[:n_recent],
            playout_k,
            local_mode,
            seed,
            gen,
            before_c[:n_before],
            before_m[:n_before],
            context,
            corner_powers,
            path_c[:depth],
            path_m[:depth],
        )
        moves = depth
        for c in range(n):
            if not alive[c]:
                scores[c] = dead_score
            moves += n_played[c]
        _rewards(scores, moves, settings, reward_stats, reward)
        # The backup: every node on the path, RAVE with the moves its colour played
        # later in the simulation (marked with this simulation's stamp).
        stamp = state[ST_STAMP] + 1
        state[ST_STAMP] = stamp
        for c in range(n):
            for j in range(n_played[c]):
                mark[c, played[c, j]] = stamp
        for d in range(depth - 1, -1, -1):
            node = path_node[d]
            i = path_child[d]
            c = node_color[node]
            r = reward[c]
            node_visits[node] += 1
            child_n[i] += 1
            child_w[i] += r
            mark[c, child_move[i]] = stamp
            first = node_first[node]
            for j in range(first, first + node_kids[node]):
                if mark[c, child_move[j]] != stamp:
                    continue
                child_rave_n[j] += 1
                child_rave_w[j] += r
                child_visits = child_n[j]
                if child_visits:
                    if rave_k:
                        b = math.sqrt(rave_k / (3 * child_visits + rave_k))
                        child_q[j] = (1 - b) * child_w[j] / child_visits + b * child_rave_w[
                            j
                        ] / child_rave_n[j]
                    else:
                        child_q[j] = child_w[j] / child_visits
        done += 1
    return done


@njit(cache=True)
def _fill(
    first,
    moves,
    scores,
    prior_n,
    slope,
    floor,
    top,
    child_move,
    child_n,
    child_w,
    child_rave_n,
    child_rave_w,
    child_q,
    child_node,
    child_capped,
):
    """`Tree.add`'s children from index `first`: their prior values, element by
    element (the same arithmetic as its array expressions)."""
    best = scores[0]
    for i in range(moves.shape[0]):
        j = first + i
        child_move[j] = moves[i]
        child_node[j] = -1
        child_capped[j] = 0
        child_rave_n[j] = 0
        child_rave_w[j] = 0.0
        if prior_n:
            w = prior_n * max(floor, top - slope * (best - scores[i]))
            child_n[j] = prior_n
            child_w[j] = w
            child_q[j] = w / prior_n
        else:
            child_n[j] = 0
            child_w[j] = 0.0
            child_q[j] = 0.0


@njit(cache=True)
def _compact(
    root,
    node_color,
    node_first,
    node_kids,
    node_visits,
    child_move,
    child_n,
    child_w,
    child_rave_n,
    child_rave_w,
    child_q,
    child_node,
    child_capped,
):
    """The subtree at `root` in fresh arrays (`Tree`'s fields, in order), breadth first."""
    nodes = 0
    kids = 0
    queue = np.empty(node_color.shape[0], np.int64)
    queue[0] = root
    tail = 1
    while nodes < tail:  # count first
        v = queue[nodes]
        nodes += 1
        kids += node_kids[v]
        for j in range(node_first[v], node_first[v] + node_kids[v]):
            if child_node[j] >= 0:
                queue[tail] = child_node[j]
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
        color[a] = node_color[v]
        first[a] = top
        k[a] = node_kids[v]
        visits[a] = node_visits[v]
        for j in range(node_first[v], node_first[v] + node_kids[v]):
            move[top] = child_move[j]
            n[top] = child_n[j]
            w[top] = child_w[j]
            rn[top] = child_rave_n[j]
            rw[top] = child_rave_w[j]
            q[top] = child_q[j]
            cap[top] = child_capped[j]
            if child_node[j] >= 0:
                kid[top] = tail
                tail += 1
            else:
                kid[top] = -1
            top += 1
    return color, first, k, visits, move, n, w, rn, rw, q, kid, cap
