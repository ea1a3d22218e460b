"""The Python search tree the computer players' experiments ran on (moved out of the
engine): UCT with RAVE, progressive widening over priors and priors as initial values, as
`engine.cornerclaim.ai.flat.FlatSearch` plays it, plus the tree-policy experiments no level
ships:

- `merged`: Pentobi's tree policy (RAVE merged into the values, a prior exploration term
  over every child, the final move by wins);
- `rave_dist`: RAVE credit weighted by how soon after a move came;
- `puct_c`: an AlphaGo-style exploration term from the learned prior;
- `rich`: the heuristic priors with the own-corners-lost and cramping terms;
- `race_each`: the race to the middle counted per colour;
- `wide_root`: every root move eligible (training data, `lab/train_priors.py`).

With the levels' options it grows the same tree as `FlatSearch`, simulation for simulation
(`lab/tests/test_pysearch.py`). Its playouts are the engine's (`playing.playout`).
"""

from __future__ import annotations

import math
import random
import time

import numpy as np

from engine.cornerclaim.ai.features import prior_logit_array, weights_for
from engine.cornerclaim.ai.heuristic import opponents_attach, score_moves
from engine.cornerclaim.ai.mcts import _dist_array, corner_gains, mirror_capped
from engine.cornerclaim.ai.playing import (
    Replies,
    legal_array,
    min_piece_size,
    pack_position,
    playout,
    root_lists,
)
from engine.cornerclaim.ai.tables import move_facts

UCT_C = 0.25
RAVE_K = 300.0
WIDEN_BASE = 4
WIDEN_RATE = 1.5
EXPAND_AT = 2
EXPAND_INC = 0.0  # a node d moves below the root's children expands after EXPAND_AT + d·this
PRIOR_N = 10  # virtual simulations per child (0: order only, unvisited children first)
PRIOR_TOP = 0.6  # prior value of the best-scored child
PRIOR_SLOPE = 0.05  # prior value lost per heuristic point behind the best child
PRIOR_FLOOR = 0.2
LEARNED_SLOPE = 0.11  # prior value lost per logit behind the best child (learned priors)
RACE_PLACEMENTS = 3  # pieces per colour on the big board while the race to the middle lasts
RACE_SLACK = 0.3  # how much farther from the centre than the closest move a kept move may end
PUCT_C = 0.0  # weight of the learned prior's exploration term in selection (0: off)
#: Pentobi's tree policy (`merged`): RAVE samples of this weight merged into a child's value
#: while the child's value count is at most `MERGED_RAVE_CHILD_MAX` and its parent has at
#: most `MERGED_RAVE_PARENT_MAX` visits; every child starts with `MERGED_PRIOR_N` virtual
#: simulations; the exploration constant of its prior term (classic's).
MERGED_RAVE_WEIGHT = 0.7
MERGED_RAVE_CHILD_MAX = 2000.0
MERGED_RAVE_PARENT_MAX = 50_000
MERGED_PRIOR_N = 3.0
MERGED_C = 0.4
MERGED_C_DUO = 0.5  # the exploration constant Pentobi tuned for duo (14×14)
DEAD_SCORE = -1000
SCORE_BONUS = 0.1
SCORE_SCALE = 10.0
TIME_CHECK_EVERY = 16
DECIDED_MIN = 64  # simulations before a time-bound search may stop because it is decided


class Node:
    """A position in the tree: `color` to move (-1 when the game is over) and its children."""

    __slots__ = ("color", "moves", "kids", "n", "w", "rn", "rw", "idx", "visits", "capped",
                 "p", "q")

    def __init__(self, color: int, moves: list[int], scores: list[float] | None = None,
                 prior_n: int = 0, slope: float = PRIOR_SLOPE, probs: bool = False,
                 merged: float | None = None) -> None:
        """`merged`: Pentobi's tree policy, with this colour's mean reward so far in the
        search; with `probs` (learned logits) the prior values scale with it, without them
        (heuristic scores) they are the linear ones and every child's P is the same."""
        self.color = color
        self.moves = moves
        k = len(moves)
        top = scores[0] if scores else 0.0  # the best child's score (children best first)
        #: The prior's softmax over the children (learned logits), for the PUCT term.
        self.p: list[float] | None = None
        if probs and scores:
            e = [math.exp(s - top) for s in scores]
            total = sum(e)
            self.p = [x / total for x in e]
        self.kids: list[Node | None] = [None] * k
        #: Each child's value as UCT-RAVE selection mixes it (`Search.child_value`), kept up to
        #: date by `Search.backup` so that `select` need not recompute it for every child
        #: (None under Pentobi's tree policy, which reads `n` and `w` itself).
        self.q: list[float] | None = None
        if merged is not None and scores:
            # Pentobi's prior value: the mean reward scaled by √(γ / γ_best), γ = e^logit
            # (its move prior is γ's share, the softmax above), as MERGED_PRIOR_N samples.
            value = merged * np.exp(0.5 * (np.asarray(scores) - top)) if self.p is not None \
                else np.maximum(PRIOR_FLOOR, PRIOR_TOP - slope * (top - np.asarray(scores)))
            if self.p is None:
                self.p = [1.0 / k] * k
            self.n = [MERGED_PRIOR_N] * k
            self.w = (MERGED_PRIOR_N * value).tolist()
        elif prior_n and scores:
            self.n = [prior_n] * k
            value = np.maximum(PRIOR_FLOOR, PRIOR_TOP - slope * (top - np.asarray(scores)))
            w = prior_n * value
            self.w = w.tolist()
            self.q = (w / prior_n).tolist()
        else:
            self.n = [0] * k
            self.w = [0.0] * k
            self.q = [0.0] * k
        self.rn = [0] * k  # merged: the child's real visits
        self.rw = [0.0] * k
        self.idx = dict(zip(moves, range(k), strict=True))
        self.visits = 0
        self.capped: frozenset[int] = frozenset()

    def child(self, color: int, move: int) -> Node | None:
        """The subtree after `color` played `move` here, if the search grew it."""
        if self.color != color:
            return None
        i = self.idx.get(move)
        return None if i is None else self.kids[i]


W_OWN_LOST = 0.5  # per own attach point the move covers or borders beyond the one it uses
W_OPP_NEAR = 0.3  # per square edge-next to an opponent's attach point (cramps its pieces)


def rich_scores(pos, color: int, moves: list[int]) -> list[float]:
    """`heuristic.score_moves` with two terms more (`rich`, once meant for level 6's
    priors): a penalty for own attach points the move covers or borders beyond the one it
    builds from, and a bonus for squares edge-next to an opponent's attach point."""
    mf = move_facts(pos.bc.size)
    cm = pos.bc.move_cells_mask
    own = pos.attach_points(color)
    opp_near = pos.bc.edge_neighbours(opponents_attach(pos, color)) & ~pos.forbidden[color]
    out = []
    for m, s in zip(moves, score_moves(pos, color, moves), strict=True):
        lost = ((cm[m] | mf.adj[m]) & own).bit_count() - 1
        if lost > 0:
            s -= W_OWN_LOST * lost
        out.append(s + W_OPP_NEAR * (cm[m] & opp_near).bit_count())
    return out


def considered_moves(pos, color: int, rich: bool = False,
                     learned: tuple[float, ...] | None = None,
                     race: int = 0, recent: tuple = (), race_each: bool = False,
                     race_corners: bool = False) -> tuple[list[int], list[float]]:
    """Legal moves of `color` (big pieces only in the opening; on the big board, while the
    colours have placed at most `race` pieces each, only those heading for the centre),
    best first, and their scores in the same order: the learned prior logits with weights
    `learned` (`features.py`; `recent`: the last placements, for its local-point feature),
    else the one-ply heuristic; `race_corners`: see `considered_arrays`."""
    moves, scores = considered_arrays(pos, color, rich, learned, race, recent, race_each,
                                      race_corners)
    return moves.tolist(), scores.tolist()


def considered_arrays(pos, color: int, rich: bool = False,
                      learned: tuple[float, ...] | None = None, race: int = 0,
                      recent: tuple = (), race_each: bool = False,
                      race_corners: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """`considered_moves` as arrays (int64 moves, float64 scores): what the flat tree
    copies in without a round trip through lists; `race_each`: the race to the middle is
    counted per colour (`racing`); `race_corners`: while the race lasts, a colour that has
    placed a piece keeps only the moves that leave it the most attach points
    (`corner_gains`)."""
    min_size = _min_piece_size(pos, color)
    moves = legal_array(pos, color, min_size)
    if not len(moves) and min_size > 1:
        moves = legal_array(pos, color)
    if not len(moves):
        return moves, np.zeros(0, np.float64)
    if racing(pos, color, race, race_each):
        dist = _dist_array(pos.bc.size)[moves]
        moves = moves[dist <= dist.min() + RACE_SLACK]
        if race_corners and pos.nu_played[color]:
            gain = corner_gains(pos, color, moves)
            moves = moves[gain == gain.max()]
    if learned is not None:
        s = prior_logit_array(pos, color, moves, learned, recent)
    else:
        s = np.asarray(rich_scores(pos, color, moves.tolist()) if rich
                       else score_moves(pos, color, moves.tolist()), np.float64)
    order = np.argsort(-s, kind="stable")  # best first, ties in list order
    return moves[order], s[order]


def exploration(pos, uct_c: float | None = None, uct_big: float = 0.0) -> float:
    """The UCT exploration constant a search at `pos` uses: `uct_c` when given, else
    `uct_big` on the 20×20 boards when it is set (level 6 explores more there), else
    `UCT_C`."""
    if uct_c is not None:
        return uct_c
    if uct_big and pos.bc.size > 14:
        return uct_big
    return UCT_C


def racing(pos, color: int, race: int, each: bool = False) -> bool:
    """Whether `color`'s moves at `pos` are pruned to those heading for the centre (the
    race to the middle, 20×20 boards only): while the colours have placed at most `race`
    pieces on average (so the first seat races one move longer than the others), or with
    `each` while `color` itself has placed fewer than `race` (every seat races `race`
    moves)."""
    if not race or pos.bc.size <= 14:
        return False
    if each:
        return pos.nu_played[color] < race
    return sum(pos.nu_played) <= race * pos.nu_colors


def _min_piece_size(pos, color: int) -> int:
    return min_piece_size(pos.bc.size, pos.nu_played[color])


def expand(pos, color: int, *, prior_n: int = PRIOR_N, dead: frozenset = frozenset(),
           rich: bool = False, learned: tuple[float, ...] | None = None,
           slope: float = LEARNED_SLOPE, probs: bool = False, race: int = 0,
           recent: tuple = (), merged: list[float] | None = None,
           race_each: bool = False, race_corners: bool = False) -> Node:
    """The node for `pos` with `color` next in turn order (skipping colours without moves
    and `dead` colours); `learned`: the prior weights (else the heuristic orders); `probs`:
    keep the learned prior's softmax on the node (the PUCT term); `race`: placements per
    colour the big board's race to the middle lasts (0: none); `recent`: the last (colour,
    move) placements, oldest first (the learned prior's local points); `merged`: Pentobi's
    tree policy, with every colour's mean reward so far (`Node`); `race_each`: the race is
    counted per colour (`racing`); `race_corners`: see `considered_arrays`."""
    c, moves, scores = expand_lists(pos, color, dead=dead, rich=rich, learned=learned,
                                    race=race, recent=recent, race_each=race_each,
                                    race_corners=race_corners)
    if c < 0:
        return Node(-1, [])
    return Node(c, moves.tolist(), scores.tolist(), prior_n,
                PRIOR_SLOPE if learned is None else slope, probs=probs and learned is not None,
                merged=None if merged is None else merged[c])


def expand_lists(pos, color: int, *, dead: frozenset = frozenset(), rich: bool = False,
                 learned: tuple[float, ...] | None = None, race: int = 0,
                 recent: tuple = (), race_each: bool = False, race_corners: bool = False
                 ) -> tuple[int, np.ndarray, np.ndarray]:
    """What `expand` makes a node of: the colour to move at `pos` from `color` on in turn
    order (−1 when no colour can move) and its considered moves and scores, best first
    (`considered_arrays`)."""
    n = pos.nu_colors
    for i in range(n):
        c = (color + i) % n
        if c in dead:
            continue
        moves, scores = considered_arrays(pos, c, rich, learned, race, recent, race_each,
                                          race_corners)
        if len(moves):
            return c, moves, scores
    return -1, np.zeros(0, np.int64), np.zeros(0, np.float64)


def rewards(scores: list[int]) -> list[float]:
    """Reward of every colour in [−0.1, 1.1]: rank among the colours plus a margin bonus."""
    n = len(scores)
    out = []
    for s in scores:
        margin = s - (sum(scores) - s) / (n - 1)
        out.append(_rank(scores, s) + SCORE_BONUS * math.tanh(margin / SCORE_SCALE))
    return out


def _rank(scores: list[int], s: int) -> float:
    """The rank of score `s` among `scores` in [0, 1]: the share of the others it beats,
    ties counting half."""
    below, ties = 0, -1  # `s` itself is among the scores: not a tie with itself
    for t in scores:  # a plain loop: this runs for every colour of every simulation
        if t < s:
            below += 1
        elif t == s:
            ties += 1
    return (below + 0.5 * ties) / (len(scores) - 1)


class RelativeRewards:
    """Rewards with the margin bonus measured against the search's own playouts (Pentobi's
    quality bonus): each colour's rank in [0, 1] plus `weight` · tanh(z), z how many
    standard deviations its margin over the mean of the others lies above the mean margin
    it had in this search's simulations so far. A fixed scale saturates once a colour is
    well ahead or behind (tanh(20 / 10) ≈ 0.96), so the search stops caring whether it
    loses by 20 or by 30; the relative bonus keeps rewarding every square it can win.

    With a `length` weight (Pentobi's 0.12) a colour also gets −length · (rank − ½) ·
    tanh(z_len), z_len how much longer than usual (in standard deviations) the simulated
    game was: a winner prefers to win quickly, a loser to drag the game on, which sharpens
    the values where the rank alone cannot tell moves apart."""

    def __init__(self, n: int, weight: float, length: float = 0.0) -> None:
        self.weight = weight
        self.length = length
        self.count = 0
        self.mean = [0.0] * n
        self.m2 = [0.0] * n
        self.len_mean = self.len_m2 = 0.0

    def __call__(self, scores: list[int], moves: int = 0) -> list[float]:
        """The rewards of a finished simulation with final `scores` that placed `moves`
        pieces (any fixed offset: only its deviation from the others counts)."""
        n = len(scores)
        total = sum(scores)
        self.count += 1
        k = self.count
        long = 0.0
        if self.length:
            d = moves - self.len_mean
            self.len_mean += d / k
            self.len_m2 += d * (moves - self.len_mean)
            if self.len_m2 > 0:
                long = self.length * math.tanh((moves - self.len_mean)
                                               / math.sqrt(self.len_m2 / k))
        out = []
        for c, s in enumerate(scores):
            rank = _rank(scores, s)
            margin = s - (total - s) / (n - 1)
            d = margin - self.mean[c]  # Welford's running mean and variance
            self.mean[c] += d / k
            self.m2[c] += d * (margin - self.mean[c])
            var = self.m2[c] / k
            bonus = self.weight * math.tanh((margin - self.mean[c]) / math.sqrt(var)) \
                if var > 0 else 0.0
            out.append(rank + bonus - long * (rank - 0.5))
        return out


class Search:
    """One search tree rooted at a position; `run` adds simulations, `best_move` reads it."""

    def __init__(self, pos, color: int, *, seed: int | None, root: Node | None = None,
                 recent: tuple = (), playout_k: int = 3, prior_n: int = PRIOR_N,
                 dead: frozenset = frozenset(), local: bool = False, rich: bool = False,
                 learned: bool = False, slope: float | None = None,
                 rave_k: float | None = None, uct_c: float | None = None,
                 puct_c: float | None = None, race: int = RACE_PLACEMENTS,
                 lgr: bool = False, replies: Replies | None = None,
                 rave_dist: bool = False,
                 expand_inc: float = EXPAND_INC, relative: float = 0.0,
                 length: float = 0.0, merged: bool = False, race_each: bool = False,
                 uct_big: float = 0.0, widen: float = 0.0, corners: float = 0.0,
                 race_corners: bool = False) -> None:
        self.pos = pos
        self.race = race
        self.race_each = race_each  # the race counted per colour (`racing`)
        self.race_corners = race_corners  # the race's later moves: most attach points
        self.rave_k = RAVE_K if rave_k is None else rave_k
        self.rave_dist = rave_dist  # RAVE credit shrinks with how much later a move came
        self.uct_c = exploration(pos, uct_c, uct_big)
        self.widen = widen or WIDEN_RATE  # children eligible: WIDEN_BASE + widen·√visits
        self.puct_c = PUCT_C if puct_c is None else puct_c
        self.rnd = random.Random(seed).random
        self.prior_n = prior_n
        self.dead = frozenset(dead)
        self.rich = rich
        self.learned = weights_for(pos) if learned else None
        self.slope = LEARNED_SLOPE if slope is None else slope
        self.wide_root = False  # every root move eligible (training data, `train_priors.py`)
        #: Pentobi's tree policy (`select_merged`, `backup_merged`); `puct_c` is then its
        #: exploration constant (default `MERGED_C`, on the duo board `MERGED_C_DUO`).
        self.merged = merged
        #: `select` reads the children's values `backup` keeps (`Node.q`); the other
        #: backups do not keep them.
        self.cached = not merged and not rave_dist
        self.merged_c = puct_c if puct_c is not None else \
            MERGED_C_DUO if pos.bc.size <= 14 else MERGED_C
        self.probs = (bool(self.puct_c) or merged) and self.learned is not None
        #: Every colour's summed reward over this search's simulations (`merged` priors).
        self.reward_sum = [0.0] * pos.nu_colors
        self.simulations = 0
        self.root = root if root is not None else expand(pos, color, prior_n=prior_n,
                                                         dead=self.dead, rich=rich,
                                                         learned=self.learned,
                                                         slope=self.slope, probs=self.probs,
                                                         race=race, recent=recent[-3:],
                                                         merged=self._means(),
                                                         race_each=race_each,
                                                         race_corners=race_corners)
        self.recent = recent
        self.playout_k = playout_k
        self.local = local
        self.expand_inc = expand_inc  # visits more a node needs to expand, per tree depth
        #: The reward: `rewards`, or with `relative` or `length` > 0 a `RelativeRewards`
        #: with those weights.
        self.length = length
        self.rewards = RelativeRewards(pos.nu_colors, relative, length) \
            if relative or length else rewards
        self.roots = root_lists(pos)  # every colour's candidates, pruned once for all playouts
        self.packed = pack_position(pos)  # the root for the playouts, packed once
        self.corners = corners  # playouts weigh a candidate's new corners (`playing.playout`)
        #: Last good replies for the playouts (`lgr`; `replies`: an earlier search's, kept).
        self.replies = (replies or Replies(pos.bc.size, pos.nu_colors)) if lgr else None
        self._isq: list[float] = []
        self._beta: list[float] = []
        self._mark_symmetry()

    # -- the loop --------------------------------------------------------------------------
    def run(self, playouts: int, seconds: float | None = None, *,
            stop_decided: bool = False) -> None:
        """Add up to `playouts` simulations, stopping early after `seconds` if given. With
        `stop_decided` (time-bound searches) it also stops once the most visited root move
        leads the next by more simulations than the time left would run at the rate so far:
        no later simulation could change the move played."""
        if self.root.color < 0 or len(self.root.moves) <= 1:
            return
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        stop_decided = stop_decided and deadline is not None and not self.root.capped
        for i in range(playouts):
            self.simulate()
            if deadline is not None and i % TIME_CHECK_EVERY == 0:
                now = time.perf_counter()
                if now >= deadline:
                    break
                if stop_decided and i >= DECIDED_MIN and now > start:
                    rate = (i + 1) / (now - start)
                    if self.lead() > rate * (deadline - now):
                        break

    def lead(self) -> int:
        """How many more visits the most visited root move has than the next one."""
        first = second = 0
        for n in self.root.n:
            if n > first:
                first, second = n, first
            elif n > second:
                second = n
        return first - second

    def simulate(self) -> None:
        # The tree's placements are played on a copy of the root only when a node is
        # expanded; the playout starts from the packed root and plays them itself.
        node = self.root
        path: list[tuple[Node, int]] = []
        recent = list(self.recent)
        base = len(recent)
        n_colors = self.pos.nu_colors
        next_color = node.color
        expand_at = EXPAND_AT + self.prior_n
        dead = self.dead
        while node.color >= 0:
            i = self.select_merged(node) if self.merged else self.select(node)
            path.append((node, i))
            m = node.moves[i]
            recent.append((node.color, m))
            next_color = (node.color + 1) % n_colors
            child = node.kids[i]
            if child is None:
                seen = node.rn[i] + self.prior_n if self.merged else node.n[i]  # real + virtual
                if seen + 1 >= expand_at + self.expand_inc * (len(path) - 1):
                    pos = self.pos.copy()
                    for c, mv in recent[base:]:
                        pos.play(c, mv)
                    child = node.kids[i] = expand(pos, next_color, prior_n=self.prior_n,
                                                  dead=dead, rich=self.rich,
                                                  learned=self.learned, slope=self.slope,
                                                  probs=self.probs, race=self.race,
                                                  recent=tuple(recent[-3:]),
                                                  merged=self._means(),
                                                  race_each=self.race_each,
                                                  race_corners=self.race_corners)
                    next_color = max(child.color, 0)
                break
            node = child
        before, context = (), 0
        if self.replies is not None:  # the tree's placements, after two for context
            start = max(0, len(recent) - len(path) - 2)
            before, context = recent[start:], len(recent) - len(path) - start
        played, scores = playout(None, next_color, int(self.rnd() * 2**62),
                                 k=self.playout_k, recent=tuple(recent[-3:]), dead=dead,
                                 local_mode=self.local, roots=self.roots,
                                 replies=self.replies, before=before, context=context,
                                 corners=self.corners,
                                 packed=self.packed,
                                 after=tuple(recent[base:]))
        for c in dead:
            scores[c] = DEAD_SCORE
        if self.length:
            reward = self.rewards(scores, len(path) + sum(map(len, played)))
        else:
            reward = self.rewards(scores)
        if self.merged:
            self.backup_merged(path, played, next_color, reward)
        elif self.rave_dist:
            self.backup_dist(path, played, next_color, reward)
        else:
            self.backup(path, played, reward)
        self.simulations += 1

    def _means(self) -> list[float] | None:
        """Every colour's mean reward so far (0.5 before the first simulation); None unless
        the search uses Pentobi's tree policy."""
        if not self.merged:
            return None
        k = self.simulations
        return [t / k for t in self.reward_sum] if k else [0.5] * len(self.reward_sum)

    def select_merged(self, node: Node) -> int:
        """Pentobi's selection over all children: the merged value (real, prior and RAVE
        samples in one mean) plus `merged_c` · P · √N · ln(N + 1) / n, P the child's prior
        probability, N the node's visits and n the child's value count. Children are
        ordered by prior, so one whose value trails the best so far by more than any
        exploration bonus can add is skipped after one comparison."""
        ns, ws, probs = node.n, node.w, node.p
        visits = node.visits
        expl = self.merged_c * math.sqrt(visits) * math.log(visits + 1)
        gap = expl * probs[0] / MERGED_PRIOR_N  # the largest bonus any child can get
        capped = node.capped
        best, best_v = 0, -math.inf
        limit = -math.inf  # a child whose value is at most this cannot beat the best
        for i in range(len(ns)):
            n = ns[i]
            w = ws[i]
            if w <= limit * n:
                continue
            q = w / n
            if capped and i in capped and q > 0.5:
                q = 0.5
            v = q + probs[i] * expl / n
            if v > best_v:
                best, best_v = i, v
                limit = v - gap
        return best

    def select(self, node: Node) -> int:
        """UCT-RAVE over the eligible children; an unvisited eligible child first. With a
        PUCT weight (`puct_c`) and learned priors, a child also gets
        `puct_c · P · √visits / (1 + n)`, P its prior probability (AlphaGo's exploration
        term, which Pentobi also uses)."""
        width = min(len(node.moves), WIDEN_BASE + int(self.widen * math.sqrt(node.visits)))
        if self.wide_root and node is self.root:
            width = len(node.moves)
        ns, ws, rns, rws = node.n, node.w, node.rn, node.rw
        top = node.visits + self.prior_n + 1  # a child's (virtual) visits stay below this
        if top >= len(self._isq):
            self._grow(2 * top)
        isq, beta = self._isq, self._beta
        size = len(isq)
        explore = self.uct_c * math.sqrt(math.log(node.visits + 1))
        capped = node.capped
        qs = node.q
        if qs is not None and self.cached and not capped and node.p is None:
            # The same choice as the loop below, from the values `backup` keeps.
            best, best_v = 0, -1e9
            for i in range(width):
                n = ns[i]
                if n == 0:
                    return i
                v = qs[i] + explore * (isq[n] if n < size else 1 / math.sqrt(n))
                if v > best_v:
                    best, best_v = i, v
            return best
        rave = bool(self.rave_k)
        probs = node.p
        if probs is not None:
            puct = self.puct_c * math.sqrt(node.visits + 1)
        best, best_v = 0, -1e9
        for i in range(width):
            n = ns[i]
            if n == 0:
                return i
            if n < size:
                b, e = beta[n], isq[n]
            else:  # more than the tree's own counts allow (only a test does this)
                b, e = math.sqrt(self.rave_k / (3 * n + self.rave_k)), 1 / math.sqrt(n)
            rn = rns[i]
            if rn and rave:
                q = (1 - b) * ws[i] / n + b * rws[i] / rn
            else:
                q = ws[i] / n
            if capped and i in capped and q > 0.5:
                q = 0.5
            v = q + explore * e
            if probs is not None:
                v += puct * probs[i] / (1 + n)
            if v > best_v:
                best, best_v = i, v
        return best

    def _grow(self, size: int) -> None:
        """Extend the per-visit-count tables `select` reads: 1/√n and RAVE's weight
        √(k / (3n + k))."""
        k = self.rave_k
        start = len(self._isq)
        self._isq += [1 / math.sqrt(n) if n else 0.0 for n in range(start, size)]
        self._beta += [math.sqrt(k / (3 * n + k)) if k else 0.0 for n in range(start, size)]

    def backup(self, path, played: list[list[int]], reward: list[float]) -> None:
        """Credit every node on the path; RAVE with the moves its colour played later.
        The values `select` reads (`Node.q`) follow every child whose counts change."""
        later = [set(ms) for ms in played]
        k = self.rave_k
        beta = self._beta
        nb = len(beta)
        for node, i in reversed(path):
            c = node.color
            r = reward[c]
            node.visits += 1
            ns, ws, rns, rws, qs = node.n, node.w, node.rn, node.rw, node.q
            ns[i] += 1
            ws[i] += r
            seen = later[c]
            seen.add(node.moves[i])
            idx = node.idx
            touched = []
            for m in seen:
                j = idx.get(m)
                if j is not None:
                    rns[j] += 1
                    rws[j] += r
                    touched.append(j)
            if qs is None:
                continue
            for j in touched:  # `child_value`, inline (the path's own child is among them)
                n = ns[j]
                if not n:
                    continue
                if k:  # RAVE counts are never 0 here
                    b = beta[n] if n < nb else math.sqrt(k / (3 * n + k))
                    qs[j] = (1 - b) * ws[j] / n + b * rws[j] / rns[j]
                else:
                    qs[j] = ws[j] / n

    def child_value(self, n: int, w: float, rn: float, rw: float) -> float:
        """A child's value in UCT-RAVE selection: its mean mixed with its RAVE mean by
        β = √(k / (3n + k)) (0.0 before its first visit)."""
        if not n:
            return 0.0
        if rn and self.rave_k:
            b = self._beta[n] if n < len(self._beta) else \
                math.sqrt(self.rave_k / (3 * n + self.rave_k))
            return (1 - b) * w / n + b * rw / rn
        return w / n

    def backup_dist(self, path, played: list[list[int]], first: int,
                    reward: list[float]) -> None:
        """`backup` with RAVE credit weighted by distance (Pentobi's): at the node of the
        simulation's move d, a later move of the same colour at index j of the simulation's
        L moves counts 1 − (j − d) / (L − d), so moves played soon after count nearly fully
        and those near the end of the playout hardly at all."""
        by, total = _timeline(path, played, first)
        for d in range(len(path) - 1, -1, -1):
            node, i = path[d]
            c = node.color
            r = reward[c]
            node.visits += 1
            node.n[i] += 1
            node.w[i] += r
            span = total - d
            idx = node.idx
            for j, m in by[c]:
                if j < d:
                    continue
                k = idx.get(m)
                if k is not None:
                    wgt = 1.0 - (j - d) / span
                    node.rn[k] += wgt
                    node.rw[k] += wgt * r

    def backup_merged(self, path, played: list[list[int]], first: int,
                      reward: list[float]) -> None:
        """Pentobi's backup: every node on the path counts the simulation as a real sample
        of its child; its other children whose moves the colour played later in the
        simulation get a sample of weight `MERGED_RAVE_WEIGHT` in the same mean (times
        `backup_dist`'s distance weight with `rave_dist`), while the child has a value count
        of at most `MERGED_RAVE_CHILD_MAX` and the node at most `MERGED_RAVE_PARENT_MAX`
        visits."""
        for c, r in enumerate(reward):
            self.reward_sum[c] += r
        rave_w = MERGED_RAVE_WEIGHT
        child_max = MERGED_RAVE_CHILD_MAX
        if self.rave_dist:
            by, total = _timeline(path, played, first)
        else:
            later = [set(ms) for ms in played]
        for d in range(len(path) - 1, -1, -1):
            node, i = path[d]
            c = node.color
            r = reward[c]
            ns, ws = node.n, node.w
            node.visits += 1
            node.rn[i] += 1
            ns[i] += 1
            ws[i] += r
            idx = node.idx
            if node.visits <= MERGED_RAVE_PARENT_MAX:
                if self.rave_dist:
                    span = total - d
                    for j, m in by[c]:
                        if j <= d:
                            continue
                        k = idx.get(m)
                        if k is not None and ns[k] <= child_max:
                            wgt = rave_w * (1.0 - (j - d) / span)
                            ns[k] += wgt
                            ws[k] += wgt * r
                else:
                    for m in later[c]:
                        k = idx.get(m)
                        if k is not None and ns[k] <= child_max:
                            ns[k] += rave_w
                            ws[k] += rave_w * r
            if not self.rave_dist:
                later[c].add(node.moves[i])

    # -- reading the tree --------------------------------------------------------------------
    def best_move(self) -> int | None:
        """The most visited root move (value breaks ties); with Pentobi's tree policy the
        one with the most wins (value count × value, as Pentobi plays); None when there is
        no move."""
        root = self.root
        if root.color < 0 or not root.moves:
            return None
        best, best_key = 0, None
        for i in range(len(root.moves)):
            n = root.n[i]
            q = root.w[i] / n if n else 0.0
            if i in root.capped:
                q = min(q, 0.5)
                n = n * 0.5  # a draw the mirror can force should not win on visits alone
            key = (n * q, n) if self.merged else (n, q)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return root.moves[best]

    def value(self) -> float:
        """Mean reward of the root's colour over all simulations so far."""
        root = self.root
        if not root.visits:
            return 0.5
        n = sum(root.n)
        return sum(root.w) / n if n else 0.5

    # -- Duo symmetry --------------------------------------------------------------------------
    def _mark_symmetry(self) -> None:
        capped = mirror_capped(self.pos, self.root.color, self.root.moves)
        if capped is not None:
            self.root.capped = frozenset(i for i, cap in enumerate(capped) if cap)


def _timeline(path, played: list[list[int]], first: int) -> tuple[list, int]:
    """Every colour's moves in a simulation as (index in the simulation, move), the tree's
    moves first, then the playout's in its own turn order (`first` moved first), and the
    simulation's length."""
    n = len(played)
    by: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for j, (node, i) in enumerate(path):
        by[node.color].append((j, node.moves[i]))
    j = len(path)
    for r in range(max(map(len, played), default=0)):  # the playout's own order
        for k in range(n):
            c = (first + k) % n
            if r < len(played[c]):
                by[c].append((j, played[c][r]))
                j += 1
    return by, j


def child_for(node: Node, color: int, move: int) -> Node | None:
    """The subtree after `color` played `move` at `node` (a `Node` or a `flat.FlatNode`),
    if the search grew it."""
    return node.child(color, move)
