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

The nodes and their children live in arrays (`Tree`) and one compiled function
(`simulate._run`) selects, plays out, rewards and backs up one simulation after another; it
returns to Python after the number of simulations it was asked for (time checks), and when
a node is to be expanded and either its arrays are full (`Tree.add` grows them) or the
heuristic move order of levels 3–5 scores it (it builds a position in Python,
`mcts.expand_lists`). With the learned prior (level 6) `_run` lists and scores the node
itself (`leaf.leaf_lists`, the same moves and scores).

Memory: 8 arrays of 8 bytes per child (a 3-second classic search grows ~0.5 M children,
~35 MB); a reused tree is copied down to the subtree it keeps (`Tree.subtree`).
"""

from __future__ import annotations

import random
import time

import numpy as np

from .features import NU_FEATURES, weights_for
from .leaf import LeafArgs, leaf_lists_from_python
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
from .playing import (
    Replies,
    _alive,
    _no_replies,
    corner_weights,
    pack_position,
    play_tables,
    root_lists,
)
from .simulate import (
    MAX_DEPTH,
    ST_DEPTH,
    ST_EXPAND,
    ST_GEN,
    ST_SEED,
    Settings,
    TreeArrays,
    _compact,
    _fill,
    _run,
)


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

    def arrays(self) -> TreeArrays:
        """The arrays as the compiled loop takes them (the fields' order)."""
        fields = self.NODE_FIELDS + self.CHILD_FIELDS
        return TreeArrays(*(getattr(self, name) for name, _ in fields))

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
        arrays = _compact(v, self.arrays())
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
        done = _run(count, resume, t.arrays(), self.path_node, self.path_child, self.mark,
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
