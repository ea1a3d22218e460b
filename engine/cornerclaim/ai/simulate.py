"""The search's compiled inner loop (`_run`: select down the `flat.Tree`, expand, play out,
reward, back up, one simulation after another) and the tree's compiled helpers (`_fill`,
`_compact`), which `flat.FlatSearch` calls. Kernels that call each other share this file:
numba's disk cache checks a kernel only against its own file."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .leaf import leaf_lists
from .mcts import PRIOR_FLOOR, PRIOR_TOP
from .playout import WINDOW_POOL, _playout

MAX_DEPTH = 128  # more than the placements of any game (4 colours × 21 pieces)
# `_run`'s integer state (`FlatSearch.state`): the next seed to use, the playouts' generation
# (`playing._Work.gen`), the RAVE marks' stamp, the pending path's depth, and whether the
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


class TreeArrays(NamedTuple):
    """A search tree's arrays as the compiled loop takes them (`flat.Tree.arrays`): per
    node its colour, first child, children and visits; per child its move, visits, summed
    reward, RAVE visits and reward, value, node (−1 until expanded) and cap."""

    node_color: np.ndarray
    node_first: np.ndarray
    node_kids: np.ndarray
    node_visits: np.ndarray
    child_move: np.ndarray
    child_n: np.ndarray
    child_w: np.ndarray
    child_rave_n: np.ndarray
    child_rave_w: np.ndarray
    child_q: np.ndarray
    child_node: np.ndarray
    child_capped: np.ndarray


@njit(cache=True)
def _run(
    count,
    resume,
    tree,
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
    how many it finished. The tree is `Tree`'s arrays (`TreeArrays`: `node_*` per node,
    `child_*` per child); `tree_used` its nodes and children in use. A child due for
    expansion gets its node here with `learned` (the learned prior: `leaf.leaf_lists` on
    `leaf_args`, `FlatSearch._leaf`) while the arrays have room for it; otherwise the call
    stops early, with state[ST_EXPAND] set: the path is in `path_node`/`path_child`
    (state[ST_DEPTH] long), and the call after the expansion (`resume`) finishes that
    simulation first.
    `pre_c`/`pre_m`: the last placements before the root; the arguments from `root` on are
    the playouts' (`playout._playout`: the packed root, which colours may move, the board's
    `PlayArrays`, the `Scratch` lists, the `RootLists`, the `ReplyArrays` and the
    new-corner weights)."""
    (node_color, node_first, node_kids, node_visits, child_move, child_n, child_w,
     child_rave_n, child_rave_w, child_q, child_node, child_capped) = tree
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
def _compact(root, tree):
    """The subtree at `root` of `tree` (`TreeArrays`) in fresh arrays (`Tree`'s fields, in
    order), breadth first."""
    (node_color, node_first, node_kids, node_visits, child_move, child_n, child_w,
     child_rave_n, child_rave_w, child_q, child_node, child_capped) = tree
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
