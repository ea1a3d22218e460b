"""Learned move priors: a linear score (the logit of a softmax) over a few per-move features,
with weights fitted by `lab/train_priors.py` and stored in `priors.json`: for Duo to our
own searches' visit shares, for the big board to the moves Pentobi chose in its self-play.

Pentobi's idea and our features: a move is judged by what it covers (opponents'
attach points, the cells next to them), what it wastes (own attach points it covers or
borders beyond the one it builds from), what it opens (new own corners, and how many of them
an opponent could also take), whether it touches opponents' pieces, the piece itself (one
weight per piece), its size as the game goes on, and (early) its distance to the centre.
Most terms and every piece weight also come multiplied by the mover's share of pieces
played, so their weight can shift from the opening to the endgame; the search combines
those pairs once per node, so a move costs no more than with fixed weights.

`feature_rows` gives the feature vectors (for training and tests, plain Python);
`prior_logits` computes the same scores with the weights inline, its per-move loop
compiled by numba (the search's hot path, 0.1–0.3 µs a move: docs/performance.md). The two
agree to rounding (a test checks it).

The weights are per board size ("duo" for 14×14, "classic" for 20×20, which trio shares),
and a board may have separate weights for its first rounds ("classic opening"); a board
without fitted weights has none (`weights_for` returns None and the search falls back to
`heuristic.score_moves`).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

from ..pieces import NU_PIECES, PIECE_NAMES
from .playing import play_tables
from .playout import PlayArrays
from .tables import move_facts

PRIORS_FILE = Path(__file__).with_name("priors.json")

# Non-piece features, in order; then one indicator per piece.
NAMES = (
    "new_corners",       # own attach points the move opens
    "new_contested",     # of those, cells an opponent may also use (its attach points)
    "opp_attach",        # opponents' attach points covered
    "opp_near",          # cells covered edge-next to an opponent's attach point it may use
    "own_waste",         # own attach points covered or bordered beyond the one built from
    "opp_touch",         # cells edge-next to the move that opponents occupy
    "centre",            # distance to the centre (only in the opening, else 0)
    "size_phase",        # size × share of the own pieces already played
    "corners_phase",     # new_corners × share of the own pieces already played
    "block_phase",       # opp_attach × share of the own pieces already played
    "contested_phase",   # new_contested × share of the own pieces already played
    "near_phase",        # opp_near × share of the own pieces already played
    "waste_phase",       # own_waste × share of the own pieces already played
    "touch_phase",       # opp_touch × share of the own pieces already played
    "new_open",          # new corners with 3 or 4 edge neighbours free for the mover
    "new_closed",        # new corners with at most 1 edge neighbour free for the mover
    "adj_free",          # cells edge-next to the move still free for the mover (it loses them)
    "local",             # 1 if the move covers an attach point of a recent opponent move
    "open_phase",        # new_open × share of the own pieces already played
    "closed_phase",      # new_closed × share of the own pieces already played
    "adj_free_phase",    # adj_free × share of the own pieces already played
    "local_phase",       # local × share of the own pieces already played
)
# Then one indicator per piece, then the same indicators × the share of own pieces played
# (so each piece's weight can change as the game goes on).
NU_NAMED = len(NAMES)
NU_FEATURES = NU_NAMED + 2 * NU_PIECES
# Where each named weight sits (`phase_logits` reads them by these indices).
(W_NEW, W_CONT, W_BLOCK, W_NEAR, W_WASTE, W_TOUCH, W_CENTRE, W_SIZE_PHASE, W_NEW_PHASE,
 W_BLOCK_PHASE, W_CONT_PHASE, W_NEAR_PHASE, W_WASTE_PHASE, W_TOUCH_PHASE, W_OPEN, W_CLOSED,
 W_FREE, W_LOCAL, W_OPEN_PHASE, W_CLOSED_PHASE, W_FREE_PHASE, W_LOCAL_PHASE) = (
    NAMES.index(name) for name in (
        "new_corners", "new_contested", "opp_attach", "opp_near", "own_waste", "opp_touch",
        "centre", "size_phase", "corners_phase", "block_phase", "contested_phase",
        "near_phase", "waste_phase", "touch_phase", "new_open", "new_closed", "adj_free",
        "local", "open_phase", "closed_phase", "adj_free_phase", "local_phase"))
# Every weight's name, in order (as `priors.json` stores them).
FEATURE_NAMES = (NAMES + tuple(f"piece {n}" for n in PIECE_NAMES)
                 + tuple(f"piece {n} phase" for n in PIECE_NAMES))


def recent_placements(state, n: int = 3) -> tuple[tuple[int, int], ...]:
    """The last `n` placements of a game state as (colour, move id), oldest first: what the
    local-point feature and the playouts' local moves read."""
    return tuple((seat - 1, m) for _, seat, m in state.placements[-n:])


#: A board's own weights for its first rounds, where they exist: the first `OPENING_ROUNDS`
#: rounds (every colour's first moves) of a board whose key has an "<key> opening" entry
#: in `priors.json` read that entry instead (fitted on opening positions only).
OPENING_ROUNDS = 6


def variant_key(pos) -> str:
    return "duo" if pos.bc.size <= 14 else "classic"


def is_opening(pos) -> bool:
    """Whether `pos` is in its first `OPENING_ROUNDS` rounds (pieces placed, all colours)."""
    return sum(pos.nu_played) < OPENING_ROUNDS * pos.nu_colors


@cache
def _all_weights() -> dict[str, tuple[float, ...]]:
    try:
        data = json.loads(PRIORS_FILE.read_text())
    except FileNotFoundError:
        return {}
    return {key: stored_weights(entry, f"{PRIORS_FILE.name} [{key}]")
            for key, entry in data.items()}


def stored_weights(entry: dict, where: str) -> tuple[float, ...]:
    """One `priors.json` entry's weights in `FEATURE_NAMES` order, read by name: a feature
    the entry does not have counts 0 (weights fitted before it existed keep their meaning);
    a stored name we no longer know is an error (`where` names the entry)."""
    stored = dict(zip(entry["features"], entry["weights"], strict=True))
    unknown = set(stored) - set(FEATURE_NAMES)
    if unknown:
        raise ValueError(f"{where}: unknown features {sorted(unknown)}")
    return tuple(float(stored.get(name, 0.0)) for name in FEATURE_NAMES)


def weights_for(pos) -> tuple[float, ...] | None:
    """The fitted weights for `pos`'s board (its opening weights in the first rounds, when
    it has them), or None when there are none."""
    weights = _all_weights()
    key = variant_key(pos)
    opening = f"{key} opening"
    if is_opening(pos) and opening in weights:
        return weights[opening]
    return weights.get(key)


def _context(pos, color: int, recent: tuple = (), openness: bool = True):
    """Per-node masks and numbers the features read (`openness=False`: skip the openness
    masks, for weights that do not use them)."""
    mf = move_facts(pos.bc.size)
    bc = pos.bc
    forb = pos.forbidden[color]
    own = pos.attach_points(color)
    old = pos.corners[color] | forb
    opp_att = 0
    opp_near = 0
    opp_occ = 0
    for c in range(pos.nu_colors):
        if c == color:
            continue
        a = pos.attach_points(c)
        opp_att |= a
        opp_near |= bc.edge_neighbours(a) & ~pos.forbidden[c]
        opp_occ |= pos.occupied[c]
    opp_near &= ~opp_att
    # How open a cell is: its edge neighbours free for the mover, as bit masks of the cells
    # with at least 3 of them and with at most 1 (bit-sliced, once per node).
    free = bc.on_board & ~forb
    open3 = closed = 0
    if openness:
        s = bc.stride
        e, w, n, so = free >> 1, free << 1, free >> s, free << s
        open3 = (e & w & (n | so)) | (n & so & (e | w))
        closed = ~((e & (w | n | so)) | (w & (n | so)) | (n & so))
    # Pentobi's local points: attach points (still usable by their colour) of the last
    # three placements, the mover's own excepted.
    local = 0
    for c, m in recent[-3:]:
        if c != color:
            local |= mf.attach[m] & ~pos.forbidden[c]
    early = pos.nu_played[color] < (4 if bc.size <= 14 else 7)
    phase = pos.nu_played[color] / NU_PIECES
    return mf, own, old, opp_att, opp_near, opp_occ, free, open3, closed, local, early, phase


def feature_rows(pos, color: int, moves: list[int], recent: tuple = ()) -> list[list[float]]:
    """One feature vector (`NU_FEATURES` numbers) per move, for training and tests;
    `recent`: the last (colour, move) placements before the position, oldest first."""
    (mf, own, old, opp_att, opp_near, opp_occ, free, open3, closed, local, early,
     phase) = _context(pos, color, recent)
    cm = pos.bc.move_cells_mask
    mp = pos.bc.move_piece
    rows = []
    for m in moves:
        cells = cm[m]
        new_mask = mf.attach[m] & ~old
        new = new_mask.bit_count()
        block = (cells & opp_att).bit_count()
        contested = (new_mask & opp_att).bit_count()
        near = (cells & opp_near).bit_count()
        waste = max(0, ((cells | mf.adj[m]) & own).bit_count() - 1)
        touch = (mf.adj[m] & opp_occ).bit_count()
        n_open = (new_mask & open3).bit_count()
        n_closed = (new_mask & closed).bit_count()
        adj_free = (mf.adj[m] & free).bit_count()
        is_local = 1.0 if cells & local else 0.0
        row = [
            float(new),
            float(contested),
            float(block),
            float(near),
            float(waste),
            float(touch),
            mf.centre[m] if early else 0.0,
            mf.size[m] * phase,
            new * phase,
            block * phase,
            contested * phase,
            near * phase,
            waste * phase,
            touch * phase,
            float(n_open),
            float(n_closed),
            float(adj_free),
            is_local,
            n_open * phase,
            n_closed * phase,
            adj_free * phase,
            is_local * phase,
        ]
        piece = [0.0] * (2 * NU_PIECES)
        piece[mp[m]] = 1.0
        piece[NU_PIECES + mp[m]] = phase
        rows.append(row + piece)
    return rows


def prior_logits(pos, color: int, moves: list[int], w: tuple[float, ...],
                 recent: tuple = ()) -> list[float]:
    """The learned score (softmax logit) of every move, weights `w` (`weights_for`)."""
    return prior_logit_array(pos, color, np.asarray(moves, np.int64), w, recent).tolist()


def prior_logit_array(pos, color: int, moves: np.ndarray, w: tuple[float, ...],
                      recent: tuple = ()) -> np.ndarray:
    """`prior_logits` for an int64 array of moves, as an array."""
    openness = bool(w[W_OPEN] or w[W_CLOSED] or w[W_OPEN_PHASE] or w[W_CLOSED_PHASE])
    (_, own, old, opp_att, opp_near, opp_occ, free, open3, closed, local, early,
     phase) = _context(pos, color, recent, openness=openness)
    on = pos.bc.on_board
    tables = play_tables(pos.bc.size)
    masks = tables.pack([own & on, old & on, opp_att & on, opp_near & on, opp_occ & on,
                         free & on, open3 & on, closed & on, local & on])
    return _phase_logits_plain(moves, masks, tables.plain_arrays, np.asarray(w, np.float64),
                               phase, early)


@njit(cache=True)
def _phase_logits_plain(moves, masks, tables, w, phase, early):
    """`phase_logits` for a call from Python, `tables` a plain tuple (numba types it
    faster than the named one: `playout`'s docstring)."""
    return phase_logits(moves, masks, PlayArrays(*tables), w, phase, early)


@njit(cache=True)
def phase_logits(moves, masks, tables, w, phase, early):
    """`_logits` with the weights `w` (`FEATURE_NAMES` order, an array) at the mover's
    `phase` (placed / 21): each feature's weight plus its phase weight times the phase,
    the centre's only while `early`; `tables` is the board's `playout.PlayArrays`. What
    `prior_logit_array` and the compiled node listing (`leaf.leaf_lists`) both call."""
    nd = NU_NAMED
    w_piece = np.empty(NU_PIECES, np.float64)
    for p in range(NU_PIECES):
        w_piece[p] = w[nd + p] + phase * w[nd + NU_PIECES + p]
    return _logits(moves, masks, tables.row, tables.cells, tables.n_cells, tables.piece,
                   tables.adjacent_ptr, tables.adjacent, tables.attach_ptr,
                   tables.attach_cells, tables.centre, w_piece, w[W_SIZE_PHASE] * phase,
                   w[W_NEW] + w[W_NEW_PHASE] * phase, w[W_BLOCK] + w[W_BLOCK_PHASE] * phase,
                   w[W_CONT] + w[W_CONT_PHASE] * phase, w[W_NEAR] + w[W_NEAR_PHASE] * phase,
                   w[W_WASTE] + w[W_WASTE_PHASE] * phase,
                   w[W_TOUCH] + w[W_TOUCH_PHASE] * phase, w[W_CENTRE] if early else 0.0,
                   w[W_OPEN] + w[W_OPEN_PHASE] * phase,
                   w[W_CLOSED] + w[W_CLOSED_PHASE] * phase,
                   w[W_FREE] + w[W_FREE_PHASE] * phase, w[W_LOCAL] + w[W_LOCAL_PHASE] * phase)


@njit(cache=True)
def _logits(moves, bits, row, cells, n_cells, piece, adjacent_ptr, adjacent, attach_ptr,
            attach_cells, centre, w_piece, w_size, w_new, w_block, w_cont, w_near, w_waste,
            w_touch, w_centre, w_open, w_closed, w_free, w_local):
    """`prior_logits`' loop, compiled: `bits` holds its nine masks one per `row` bits, in
    the order own, old, opp_att, opp_near, opp_occ, free, open3, closed, local."""
    OWN, OLD, ATT, NEAR, OCC, FREE, OPEN, CLOSED, LOCAL = (0, row, 2 * row, 3 * row,
                                                          4 * row, 5 * row, 6 * row,
                                                          7 * row, 8 * row)
    out = np.empty(moves.shape[0], np.float64)
    for i in range(moves.shape[0]):
        m = moves[i]
        n_new = n_cont = n_open = n_closed = 0
        for q in range(attach_ptr[m], attach_ptr[m + 1]):
            b = attach_cells[q]
            if not bits[OLD + b]:
                n_new += 1
                n_cont += bits[ATT + b]
                n_open += bits[OPEN + b]
                n_closed += bits[CLOSED + b]
        n_block = n_near = n_own = n_local = 0
        for q in range(n_cells[m]):
            b = cells[m, q]
            n_block += bits[ATT + b]
            n_near += bits[NEAR + b]
            n_own += bits[OWN + b]
            n_local += bits[LOCAL + b]
        n_touch = n_free = 0
        for q in range(adjacent_ptr[m], adjacent_ptr[m + 1]):
            b = adjacent[q]
            n_own += bits[OWN + b]
            n_touch += bits[OCC + b]
            n_free += bits[FREE + b]
        z = (w_piece[piece[m]] + w_size * n_cells[m] + w_new * n_new + w_block * n_block
             + w_cont * n_cont + w_near * n_near + w_touch * n_touch
             + w_centre * centre[m] + w_open * n_open + w_closed * n_closed
             + w_free * n_free)
        if n_own > 1:
            z += w_waste * (n_own - 1)
        if n_local:
            z += w_local
        out[i] = z
    return out
