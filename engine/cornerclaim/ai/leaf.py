"""A flat-tree node's moves listed and scored in compiled code (`FlatSearch` with the
learned prior: level 6's search, where `simulate._run` calls it without returning to Python).

`mcts.expand_lists` builds the node's position in Python, lists its moves and scores them
with the learned prior: about 90 Python calls an expansion, half of the expansion's time
and a fifth to a third of level 6's whole search in classic play (docs/performance.md,
"Where level 6's 3 seconds go"). `leaf_lists` does the same from the packed root and the
tree's placements below it, without leaving compiled code, and returns the same colour,
moves and scores, element for element (`tests/test_ai_leaf.py` holds the two equal on
random positions of every variant).

The position after the placements is rebuilt as `playout._playout` rebuilds it (forbidden
cells, used pieces, attach points), plus the cells each colour occupies, which the prior's
`opp_touch` feature reads and the playouts do not need; placements are `playout._place`.
The prior's per-node masks follow `features._context` bit for bit, and the scores are
`features.phase_logits`, which `features.prior_logit_array` calls too.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..pieces import NU_PIECES
from .features import phase_logits
from .playout import WINDOW_POOL, Packed, PlayArrays, _legal_moves, _new_corners, _place


def random_path(pos, rnd, depth: int, dead: frozenset = frozenset()) -> list[tuple[int, int]]:
    """`depth` random placements (colour, move) from `pos`, played on it, in turn order from
    a random colour and skipping the colours that cannot move, as a tree path runs; shorter
    when the game ends. `rnd`: a `random.Random` (what the tests and the benchmark of
    `leaf_lists` feed it with)."""
    n = pos.nu_colors
    c = rnd.randrange(n)
    path = []
    while len(path) < depth:
        for i in range(n):
            o = (c + i) % n
            moves = [] if o in dead else pos.legal_moves(o)
            if moves:
                break
        else:
            break
        m = rnd.choice(moves)
        pos.play(o, m)
        path.append((o, m))
        c = (o + 1) % n
    return path


class LeafArgs(NamedTuple):
    """What `leaf_lists` reads besides the tree path (a search builds it once,
    `flat.FlatSearch._leaf`; numba passes a named tuple by value and reads its fields by
    name)."""

    root: Packed  # the packed root (`playing.pack_position`)
    tables: PlayArrays  # the board size's tables (`playing.PlayTables.arrays`)
    occupied: np.ndarray  # the colours' occupied cells at the root, packed the same way
    big: bool  # the 20×20 board
    alive: np.ndarray  # which colours may move
    pre_c: np.ndarray  # the colours of the placements before the root
    pre_m: np.ndarray  # their moves
    weights: np.ndarray  # the learned prior's weights
    race: int  # placements per colour the race to the middle lasts
    race_corners: bool  # the race keeps the moves gaining the most attach points
    slack: float  # `mcts.RACE_SLACK`
    early_at: int  # placements during which the centre counts
    dist: np.ndarray  # each move's distance to the centre (`MoveFacts.dist`)
    seen: np.ndarray  # scratch: moves listed by this call
    seen_gen: np.ndarray  # scratch: its generation


def leaf_lists_from_python(depth, path_node, path_child, node_color, child_move, args):
    """`leaf_lists` called from Python: `args`' named tuples passed as plain ones, which
    numba's dispatcher takes in 5 µs instead of 12 (`playout`'s docstring)."""
    return _leaf_lists_plain(depth, path_node, path_child, node_color, child_move,
                             tuple(args.root), tuple(args.tables), tuple(args[2:]))


@njit(cache=True)
def _leaf_lists_plain(depth, path_node, path_child, node_color, child_move, root, tables,
                      rest):
    return leaf_lists(depth, path_node, path_child, node_color, child_move,
                      LeafArgs(Packed(*root), PlayArrays(*tables), *rest))


@njit(cache=True, inline="always")
def _bit(mask, b, limit):
    """mask[b], 0 off the array's board part (what a shifted Python int reads there)."""
    if b < 0 or b >= limit:
        return 0
    return mask[b]


@njit(cache=True)
def leaf_lists(depth, path_node, path_child, node_color, child_move, args):
    """`mcts.expand_lists` with learned `weights` for the node the tree path
    path_node[:depth] / path_child[:depth] leads to from the packed root (`args`, a
    `LeafArgs`: the root's `Packed` arrays, `occupied` the colours' occupied cells packed
    the same way): the colour to move (−1 when none can), its considered moves and their
    scores, best first. `pre_c`/`pre_m`: the placements before the root (the last three
    at most); `big`: the 20×20 board (the race to the middle; `race_corners` as
    `mcts.considered_arrays`); `seen`/`seen_gen`: this caller's scratch for the move
    lists."""
    root = args.root
    tables = args.tables
    n = root.colors
    bits = root.bits
    occupied0 = args.occupied
    nu_played0 = root.nu_played
    alive = args.alive
    pre_c = args.pre_c
    pre_m = args.pre_m
    race = args.race
    race_corners = args.race_corners
    slack = args.slack
    dist = args.dist
    seen = args.seen
    seen_gen = args.seen_gen
    row = tables.row
    piece_base = tables.piece_base
    stride = tables.stride
    min_sizes = tables.min_sizes
    on_board = tables.on_board
    cells = tables.cells
    n_cells = tables.n_cells
    piece = tables.piece
    adjacent_ptr = tables.adjacent_ptr
    adjacent = tables.adjacent
    attach_ptr = tables.attach_ptr
    attach_cells = tables.attach_cells
    forbidden = np.zeros((n, piece_base), np.uint8)
    used = np.zeros((n, NU_PIECES), np.uint8)
    attach = np.zeros((n, piece_base), np.uint8)
    occupied = np.zeros((n, piece_base), np.uint8)
    nu_played = nu_played0.copy()
    squares = np.zeros(n, np.int64)  # `_place` keeps them; the prior reads neither
    last_piece = np.zeros(n, np.int64)
    for c in range(n):
        for b in range(piece_base):
            forbidden[c, b] = bits[c * row + b]
            attach[c, b] = bits[(n + c) * row + b]
            occupied[c, b] = occupied0[c * row + b]
        for p in range(NU_PIECES):
            used[c, p] = bits[c * row + piece_base + p]
    path_c = np.empty(depth, np.int64)
    path_m = np.empty(depth, np.int64)
    for d in range(depth):
        c = node_color[path_node[d]]
        m = child_move[path_child[d]]
        path_c[d] = c
        path_m[d] = m
        _place(
            c,
            m,
            n,
            forbidden,
            used,
            nu_played,
            squares,
            last_piece,
            cells,
            n_cells,
            piece,
            adjacent_ptr,
            adjacent,
        )
        for q in range(n_cells[m]):
            occupied[c, cells[m, q]] = 1
        for q in range(attach_ptr[m], attach_ptr[m + 1]):
            attach[c, attach_cells[q]] = 1
    for c in range(n):
        for b in range(piece_base):
            if forbidden[c, b]:
                attach[c, b] = 0

    # The colour to move and its moves (`expand_lists`, `considered_arrays`).
    if tables.window_top[1] > WINDOW_POOL // 2:  # `PlayTables.trim`
        tables.window_index[:] = -1
        tables.window_top[:] = 0
    first = (node_color[path_node[depth - 1]] + 1) % n if depth else 0
    listing = np.zeros(2 * row, np.uint8)
    color = -1
    moves = np.zeros(0, np.int64)
    for i in range(n):
        c = (first + i) % n
        if not alive[c]:
            continue
        for b in range(piece_base):
            listing[b] = forbidden[c, b]
            listing[row + b] = attach[c, b]
        for p in range(NU_PIECES):
            listing[piece_base + p] = used[c, p]
        size = min_sizes[nu_played[c]]
        seen_gen[0] += 1
        found = _legal_moves(listing, size, seen_gen[0], seen, tables)
        if found.shape[0] == 0 and size > 1:
            seen_gen[0] += 1
            found = _legal_moves(listing, 1, seen_gen[0], seen, tables)
        if found.shape[0]:
            color = c
            moves = found.astype(np.int64)
            break
    if color < 0:
        return -1, moves, np.zeros(0, np.float64)
    c = color
    if race and args.big:
        total = 0
        for o in range(n):
            total += nu_played[o]
        if total <= race * n:
            lo = np.inf
            for i in range(moves.shape[0]):
                lo = min(lo, dist[moves[i]])
            keep = 0
            for i in range(moves.shape[0]):
                if dist[moves[i]] <= lo + slack:
                    moves[keep] = moves[i]
                    keep += 1
            moves = moves[:keep]
            if race_corners and nu_played[c]:
                # `mcts.corner_gains`: the attach points each move gains; keep the most.
                gain = np.zeros(keep, np.int64)
                for i in range(keep):
                    m = moves[i]
                    g = _new_corners(c, m, forbidden, attach, attach_ptr, attach_cells)
                    for q in range(n_cells[m]):
                        g -= attach[c, cells[m, q]]
                    for q in range(adjacent_ptr[m], adjacent_ptr[m + 1]):
                        g -= attach[c, adjacent[q]]
                    gain[i] = g
                top = gain.max()
                kept = 0
                for i in range(keep):
                    if gain[i] == top:
                        moves[kept] = moves[i]
                        kept += 1
                moves = moves[:kept]

    # `features._context`'s masks for colour c, one uint8 row each, in `_logits`' order:
    # own, old, opp_att, opp_near, opp_occ, free, open3, closed, local.
    masks = np.zeros(9 * row, np.uint8)
    OWN, OLD, ATT, NEAR, OCC, FREE, OPEN, CLOSED, LOCAL = (
        0,
        row,
        2 * row,
        3 * row,
        4 * row,
        5 * row,
        6 * row,
        7 * row,
        8 * row,
    )
    played = nu_played[c] > 0  # an unplayed colour's start cell is not among its corners
    for b in range(piece_base):
        if not on_board[b]:
            continue
        masks[OWN + b] = attach[c, b]
        masks[OLD + b] = 1 if forbidden[c, b] or (played and attach[c, b]) else 0
        masks[FREE + b] = 0 if forbidden[c, b] else 1
        for o in range(n):
            if o == c:
                continue
            masks[ATT + b] |= attach[o, b]
            masks[OCC + b] |= occupied[o, b]
            if (
                not attach[o, b]
                and not forbidden[o, b]
                and (
                    _bit(attach[o], b - 1, piece_base)
                    or _bit(attach[o], b + 1, piece_base)
                    or _bit(attach[o], b - stride, piece_base)
                    or _bit(attach[o], b + stride, piece_base)
                )
            ):
                masks[NEAR + b] = 1
    free = masks[FREE : FREE + row]
    for b in range(piece_base):
        if not on_board[b]:
            continue
        if masks[ATT + b]:
            masks[NEAR + b] = 0
        east = _bit(free, b + 1, piece_base)
        west = _bit(free, b - 1, piece_base)
        north = _bit(free, b + stride, piece_base)
        south = _bit(free, b - stride, piece_base)
        masks[OPEN + b] = (east & west & (north | south)) | (north & south & (east | west))
        masks[CLOSED + b] = 1 - (
            (east & (west | north | south)) | (west & (north | south)) | (north & south)
        )
    n_pre = pre_c.shape[0]
    for j in range(max(0, n_pre + depth - 3), n_pre + depth):
        o = pre_c[j] if j < n_pre else path_c[j - n_pre]
        m = pre_m[j] if j < n_pre else path_m[j - n_pre]
        if o == c:
            continue
        for q in range(attach_ptr[m], attach_ptr[m + 1]):
            b = attach_cells[q]
            if not forbidden[o, b] and on_board[b]:
                masks[LOCAL + b] = 1

    s = phase_logits(
        moves, masks, tables, args.weights, nu_played[c] / NU_PIECES, nu_played[c] < args.early_at
    )
    order = np.argsort(-s, kind="mergesort")  # best first, ties in list order
    return c, moves[order], s[order]
