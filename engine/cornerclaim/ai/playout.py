"""Fast weighted playouts: play a position to its end with a cheap, Pentobi-like policy,
compiled to machine code by numba. This file holds the compiled kernels, the constants they
read and the named tuples they take; their Python side (a board size's tables, packing a
position, `playout` and the other calls from Python) is `playing.py`. The kernels call each
other, so they share this file: numba checks a cached kernel against its own file only and
would not see an edit to a compiled callee in another (docs/performance.md).

Each playout move draws `k` legal candidates uniformly from the placements covering the
mover's attach points and keeps one with probability proportional to its weight: the static
`gamma` (big pieces, pieces with many corners first) times `LOCAL_GAMMA` when it covers an
attach point opened by one of the last opponent moves ("local" blocking, as Pentobi's
playouts do). Level 6's local mode first draws among the placements near such local points
and keeps the one covering the most of them (Pentobi's local-first policy).

CPython spent three quarters of a classic search in its playouts (about 27 µs a playout
move); compiled they cost 2–4 µs a move (docs/performance.md). The rules are not compiled:
a playout only places pieces the engine's masks allow (every placement's cells are checked
against the colour's forbidden cells, and a used piece is never drawn), and the tests replay
every playout move through `Position.is_legal` and `Position.play`.

State inside the compiled loop is one byte per board bit (the `BoardConst` bit indices, so
the engine's masks unpack straight into it):

- `forbidden[c, bit]`: colour c may not cover the bit (occupied, or edge-next to c's pieces);
- `used[c, piece]`: c has played the piece;
- `attach[c, :n_attach[c]]`: c's attach points, compacted as they become forbidden or run
  out of candidates.

The compiled calls take their arrays in named tuples: a board size's tables
(`PlayArrays`, built once per size by `playing.PlayTables`), a playout's reusable lists
(`Scratch`), the packed position (`Packed`), a search's root lists (`RootLists`) and last
good replies (`ReplyArrays`); the kernels read them into locals of the same names before
their loops. A call from Python (`playing.playout`, `playing.legal_array`) passes them as
plain tuples to a compiled entry (`_playout_plain`, `_legal_moves_plain`) that names them
again: numba's dispatcher takes 1–3 µs longer to
take in a named tuple argument than a plain one (5.7 against 2.8 µs for `PlayArrays`, 14
against 6 µs for `_playout`'s arguments), which a late-game playout of some 15 moves
would feel; calls between compiled functions (`simulate._run`'s) pass them as they are.

Candidates come in segments, one per (attach point, unused piece): the placements of that
piece covering the point that avoid the forbidden cells of the 3×3 window around it (a
window cache per process, like `MoveTables` for `Position.random_move`). A draw that turns
out illegal is removed from its segment for the rest of the playout (forbidden cells and
used pieces only grow), so acceptance rises as the board fills and proving that a colour is
stuck costs one pass over what is left. A search prunes every colour's lists once at its
root (`playing.root_lists`) and its playouts start from those. The random numbers are
xorshift64*, seeded per playout from the search's own generator, so a search is
deterministic for its seed.

With last good replies (`playing.Replies`, level 6) a colour first plays its last good
reply to the previous one or two placements when it is legal (Pentobi's LGRF), and after
the playout the colours with the best score store the replies they made while the others
forget theirs.

`_legal_moves` lists a search node's moves from the same window cache
(`playing.legal_moves`): the engine's list in the engine's order (a test holds them equal).

Every array a compiled loop writes between calls (the window cache, the scratch lists) is
valid only for the call's own generation or is append-only, and every placement a playout
plays is checked against the current board first, so no state left by an earlier call can
make it play an illegal move.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..pieces import NU_PIECES, SINGLE, TOTAL_SQUARES

LOCAL_GAMMA = 1e4  # weight factor of a candidate covering a local point (sampled mode)
LOCAL_K = 3  # local candidates compared per playout move (local mode)
NEAR = 4  # attach points within this many edge steps of a local point are "near"
LOCAL_TRIES = 48  # draws from the near lists before giving up on a local move
MAX_NEW_CORNERS = 16  # more attach points than any placement opens (`playing.corner_weights`)
TRIES = 64  # draws for the weighted sample before listing every legal move
WINDOW_POOL = 1 << 23  # candidates the window cache holds (32 MB) before it starts over
REPLY_SLOTS = 1 << 20  # last-good-reply slots per colour for a pair of previous moves (4 MB)

_U12 = np.uint64(12)
_U25 = np.uint64(25)
_U27 = np.uint64(27)
_U11 = np.uint64(11)
_MUL = np.uint64(2685821657736338717)
_INV53 = 1.0 / 9007199254740992.0


class PlayArrays(NamedTuple):
    """The arrays of one board size the compiled loops read, by name
    (`playing.PlayTables.arrays`, built once per board size; numba passes a named tuple by
    value and reads its fields by name). Move m's lists in the flat arrays run from
    `…_ptr[m]` to `…_ptr[m + 1]`."""

    row: int  # bits a packed row holds (`PlayTables.pack`, whole bytes)
    piece_base: int  # the first piece bit (`BoardConst.piece_base`): the cells lie below it
    stride: int  # the board's row stride in bits
    cells: np.ndarray  # (moves, 5): each move's cell bits, −1 past the last
    n_cells: np.ndarray  # each move's number of cells
    piece: np.ndarray  # each move's piece
    gamma: np.ndarray  # each move's static playout weight (`MoveFacts.gamma`)
    centre: np.ndarray  # each move's distance to the centre (`MoveFacts.centre`)
    min_sizes: np.ndarray  # the smallest piece a search node lists, by placements made
    adjacent_ptr: np.ndarray  # where each move's list in `adjacent` starts
    adjacent: np.ndarray  # the cells edge-next to each move (`MoveFacts.adj`)
    attach_ptr: np.ndarray  # where each move's list in `attach_cells` starts
    attach_cells: np.ndarray  # the attach points each move opens (`MoveFacts.attach`)
    cover_ptr: np.ndarray  # (bits, pieces + 1): where bit a's placements of piece p start
    covering: np.ndarray  # the placements covering each bit, grouped by piece
    cover_window: np.ndarray  # per `covering` entry: which cells around the bit it covers
    on_board: np.ndarray  # 1 for the bits that are board cells
    cell_x: np.ndarray  # each cell bit's column (−100 off the board)
    cell_y: np.ndarray  # each cell bit's row (−100 off the board)
    window_offsets: np.ndarray  # the 8 cells around a bit, as bit offsets
    window_index: np.ndarray  # the window cache's entry of (bit, forbidden pattern), −1: none
    window_ptr: np.ndarray  # (entries, pieces + 1): where an entry's moves of piece p start
    window_moves: np.ndarray  # the window cache's placements
    window_top: np.ndarray  # the window cache's entries and placements in use
    last_key: np.ndarray  # each move's random key as the last placement (`Replies`)
    second_key: np.ndarray  # each move's random key as the one before it


class Packed(NamedTuple):
    """A position packed for the compiled playouts (`playing.pack_position`; a search packs
    its root once and passes its tree's placements below it as `playout(..., after=...)`)."""

    size: int  # the board's size
    colors: int  # colours in the game
    bits: np.ndarray  # one `PlayTables.row` per colour: its forbidden cells and used
    # pieces, then one per colour: its attach points
    nu_played: np.ndarray  # pieces each colour has placed
    squares: np.ndarray  # squares each colour has placed
    last_piece: np.ndarray  # each colour's last piece (the score's bonus)


class ReplyArrays(NamedTuple):
    """`playing.Replies`' arrays as the compiled playouts read them."""

    on: bool  # whether the playouts play and learn the replies
    to_last: np.ndarray  # (colours, moves + 1): c's reply to the last placement
    to_pair: np.ndarray  # (colours, slots): c's reply to the last two, by their keys' hash


class RootLists(NamedTuple):
    """Every colour's legal placements per (attach point, unused piece) at a search's root:
    `moves[offset[c, s]:offset[c, s] + length[c, s]]` for segment s = a · NU_PIECES + p,
    length −1 where the root has no such segment. A placement illegal at the root stays
    illegal in every position below it, so a playout from anywhere in the tree can start
    from these lists instead of pruning the window cache's again (late in a game most of
    those are illegal)."""

    moves: np.ndarray  # every segment's placements, one after the other
    offset: np.ndarray  # (colours, segments): where a segment's placements start
    length: np.ndarray  # (colours, segments): how many it has (−1: not at the root)


class Scratch(NamedTuple):
    """The candidate lists a playout prunes (per process, board size and colour count;
    `playing._Work.scratch`), per colour and segment s = a · NU_PIECES + p. An entry is
    valid while its `seg_gen` equals the playout's generation."""

    seg_gen: np.ndarray  # the generation that last listed the segment
    seg_off: np.ndarray  # where its candidates start in their source
    seg_len: np.ndarray  # how many are left
    seg_source: np.ndarray  # their source: 0 `window_moves`, 1 `own_pool`, 2 the root's
    own_pool: np.ndarray  # (colours, candidates): the segments a colour has pruned
    seg_rows: np.ndarray  # (4, segments): one ply's segment lists (`_playout`)


@njit(cache=True, inline="always")
def _window(board, base, a, tables):
    """The window cache's entry for bit `a` under the forbidden cells `board[base + …]`
    around it (built on a miss)."""
    window_offsets = tables.window_offsets
    pattern = 0
    for q in range(8):
        if board[base + a + window_offsets[q]]:
            pattern |= 1 << q
    entry = tables.window_index[a * 256 + pattern]
    if entry < 0:
        entry = _window_entry(
            a,
            pattern,
            tables.cover_ptr,
            tables.covering,
            tables.cover_window,
            tables.window_index,
            tables.window_ptr,
            tables.window_moves,
            tables.window_top,
        )
    return entry


@njit(cache=True, inline="always")
def _free_in(board, base, m, cells, n_cells):
    """Whether placement `m` covers none of the forbidden cells `board[base + …]`."""
    for j in range(n_cells[m]):
        if board[base + cells[m, j]]:
            return False
    return True


@njit(cache=True, inline="always")
def _push(out, k, m):
    """`out` with `m` at index `k`, doubled first when full."""
    if k == out.shape[0]:
        bigger = np.empty(2 * k, np.int32)
        bigger[:k] = out
        out = bigger
    out[k] = m
    return out


@njit(cache=True)
def _root_lists(root, n_segs, tables):
    """`root_lists`' arrays for the `Packed` position `root` (`RootLists`' fields)."""
    n = root.colors
    bits = root.bits
    row = tables.row
    piece_base = tables.piece_base
    cells = tables.cells
    n_cells = tables.n_cells
    window_ptr = tables.window_ptr
    window_moves = tables.window_moves
    root_off = np.zeros((n, n_segs), np.int64)
    root_len = np.full((n, n_segs), -1, np.int64)
    out = np.empty(8192, np.int32)
    k = 0
    for c in range(n):
        base = c * row
        attach_base = (n + c) * row
        for a in range(piece_base):
            if not bits[attach_base + a]:
                continue
            e = _window(bits, base, a, tables)
            for p in range(NU_PIECES):
                if bits[base + piece_base + p]:
                    continue
                s = a * NU_PIECES + p
                root_off[c, s] = k
                for q in range(window_ptr[e, p], window_ptr[e, p + 1]):
                    m = window_moves[q]
                    if _free_in(bits, base, m, cells, n_cells):
                        out = _push(out, k, m)
                        k += 1
                root_len[c, s] = k - root_off[c, s]
    return out[:k].copy(), root_off, root_len


@njit(cache=True)
def _legal_moves_plain(bits, min_size, gen, seen, tables):
    """`_legal_moves` for a call from Python, `tables` a plain tuple (module docstring)."""
    return _legal_moves(bits, min_size, gen, seen, PlayArrays(*tables))


@njit(cache=True)
def _legal_moves(bits, min_size, gen, seen, tables):
    """The legal moves of the colour whose forbidden cells and used pieces are `bits`'
    first row and its attach points the second, of pieces of at least `min_size`
    squares (`seen[m] == gen`: listed already)."""
    row = tables.row
    piece_base = tables.piece_base
    cells = tables.cells
    n_cells = tables.n_cells
    window_ptr = tables.window_ptr
    window_moves = tables.window_moves
    out = np.empty(4096, np.int32)
    k = 0
    for a in range(piece_base):
        if not bits[row + a]:
            continue
        e = _window(bits, 0, a, tables)
        for p in range(NU_PIECES):
            if bits[piece_base + p]:
                continue
            for q in range(window_ptr[e, p], window_ptr[e, p + 1]):
                m = window_moves[q]
                if seen[m] == gen or n_cells[m] < min_size:
                    continue
                if _free_in(bits, 0, m, cells, n_cells):
                    seen[m] = gen
                    out = _push(out, k, m)
                    k += 1
    return out[:k]


@njit(cache=True, inline="always")
def _add_local(b, stamp, local_mark, local_points, n_local):
    """Make bit `b` a local point of this ply (`local_mark[b] == stamp`, listed in
    `local_points`); returns the new count of local points."""
    if local_mark[b] != stamp:
        local_mark[b] = stamp
        local_points[n_local] = b
        return n_local + 1
    return n_local


@njit(cache=True, inline="always")
def _step(x):
    """The xorshift generator's next state after `x` (its state lives in a local of the
    caller: a helper that took an array would cost numba two atomic reference-count
    operations a call, which once took half of a playout's time)."""
    x ^= x >> _U12
    x ^= x << _U25
    x ^= x >> _U27
    return x


@njit(cache=True, inline="always")
def _unit(x):
    """A uniform number in [0, 1) from the generator's state `x`."""
    return float((x * _MUL) >> _U11) * _INV53


@njit(cache=True, inline="always")
def _drop(c, s, i, window_moves, root_moves, seg_off, seg_len, seg_source, own_pool, pool_top):
    """Remove candidate `i` of segment `s` of colour `c` for good (it is illegal and will
    stay so). A shared segment (the window cache's or the root's) is copied to `c`'s pool
    first; when the pool is full the candidate stays (a later draw rejects it again).
    Returns the pool's top."""
    n = seg_len[c, s]
    if i >= n:
        return pool_top  # already removed by an earlier draw this ply
    if seg_source[c, s] != 1:
        if pool_top + n > own_pool.shape[1]:
            return pool_top
        offset = seg_off[c, s]
        source = window_moves if seg_source[c, s] == 0 else root_moves
        for q in range(n):
            own_pool[c, pool_top + q] = source[offset + q]
        seg_off[c, s] = pool_top
        seg_source[c, s] = 1
        pool_top += n
    offset = seg_off[c, s]
    own_pool[c, offset + i] = own_pool[c, offset + n - 1]
    seg_len[c, s] = n - 1
    return pool_top


@njit(cache=True, inline="always")
def _learn(c, m, last, second, win, reply_to_last, reply_to_pair, last_key, second_key):
    """Store (`win`) or forget colour `c`'s reply `m` to the placements `last`, `second`."""
    h = (last_key[last] ^ second_key[second]) & (reply_to_pair.shape[1] - 1)
    if win:
        reply_to_pair[c, h] = m
        reply_to_last[c, last] = m
    else:
        if reply_to_pair[c, h] == m:
            reply_to_pair[c, h] = -1
        if reply_to_last[c, last] == m:
            reply_to_last[c, last] = -1


@njit(cache=True)
def _window_entry(
    a,
    pattern,
    cover_ptr,
    covering,
    cover_window,
    window_index,
    window_ptr,
    window_moves,
    window_top,
):
    """Build the window cache's entry for bit `a` and forbidden pattern `pattern`. (It
    takes the `PlayArrays` fields it uses one by one: given the whole named tuple, the
    playouts that call it ran a few per cent slower, every field kept at hand for a rare
    call.)"""
    entry = window_top[0]
    window_top[0] += 1
    fill = window_top[1]
    for p in range(NU_PIECES):
        window_ptr[entry, p] = fill
        for q in range(cover_ptr[a, p], cover_ptr[a, p + 1]):
            if not cover_window[q] & pattern:
                window_moves[fill] = covering[q]
                fill += 1
    window_ptr[entry, NU_PIECES] = fill
    window_top[1] = fill
    window_index[a * 256 + pattern] = entry
    return entry


@njit(cache=True)
def _place(
    c,
    move,
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
):
    """Colour `c` places `move`: its cells become forbidden to every colour, its edge
    neighbours to `c`, its piece used, and `c`'s counts grow (the attach points it opens
    are the caller's)."""
    for q in range(n_cells[move]):
        b = cells[move, q]
        for o in range(n):
            forbidden[o, b] = 1
    for q in range(adjacent_ptr[move], adjacent_ptr[move + 1]):
        forbidden[c, adjacent[q]] = 1
    used[c, piece[move]] = 1
    nu_played[c] += 1
    squares[c] += n_cells[move]
    last_piece[c] = piece[move]


@njit(cache=True)
def _new_corners(c, m, forbidden, in_list, attach_ptr, attach_cells):
    """How many attach points placement `m` would open for colour `c` that `c` has not
    got yet and may still cover (`corners`)."""
    k = 0
    for q in range(attach_ptr[m], attach_ptr[m + 1]):
        b = attach_cells[q]
        if not forbidden[c, b] and not in_list[c, b]:
            k += 1
    return k


@njit(cache=True)
def _playout(
    root,
    tables,
    scratch,
    roots,
    replies,
    color,
    alive,
    recent_c,
    recent_m,
    n_candidates,
    local_mode,
    seed,
    gen,
    before_c,
    before_m,
    context,
    corner_powers,
    path_c,
    path_m,
):
    """`playout` compiled: the `Packed` position `root` played to its end from `color`
    (the named tuples `PlayArrays`, `Scratch`, `RootLists` and `ReplyArrays` unpacked
    into the locals the loop reads); returns each colour's moves, their counts and the
    scores."""
    n = root.colors
    bits = root.bits
    nu_played = root.nu_played
    squares = root.squares
    last_piece = root.last_piece
    row = tables.row
    piece_base = tables.piece_base
    stride = tables.stride
    cells = tables.cells
    n_cells = tables.n_cells
    piece = tables.piece
    gamma = tables.gamma
    adjacent_ptr = tables.adjacent_ptr
    adjacent = tables.adjacent
    attach_ptr = tables.attach_ptr
    attach_cells = tables.attach_cells
    on_board = tables.on_board
    cell_x = tables.cell_x
    cell_y = tables.cell_y
    window_offsets = tables.window_offsets
    window_index = tables.window_index
    window_ptr = tables.window_ptr
    window_moves = tables.window_moves
    window_top = tables.window_top
    cover_ptr = tables.cover_ptr
    covering = tables.covering
    cover_window = tables.cover_window
    last_key = tables.last_key
    second_key = tables.second_key
    seg_gen = scratch.seg_gen
    seg_off = scratch.seg_off
    seg_len = scratch.seg_len
    seg_source = scratch.seg_source
    own_pool = scratch.own_pool
    seg_rows = scratch.seg_rows
    root_moves = roots.moves
    root_off = roots.offset
    root_len = roots.length
    use_lgr = replies.on
    reply_to_last = replies.to_last
    reply_to_pair = replies.to_pair
    mix = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    mix = (mix ^ (mix >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    mix = (mix ^ (mix >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    mix ^= mix >> np.uint64(31)
    rng = mix if mix else np.uint64(1)  # the random generator's state (`_step`)

    forbidden = np.zeros((n, piece_base), np.uint8)
    used = np.zeros((n, NU_PIECES), np.uint8)
    attach = np.zeros((n, piece_base), np.int32)
    n_attach = np.zeros(n, np.int64)
    in_list = np.zeros((n, piece_base), np.uint8)
    for c in range(n):
        base = c * row
        for b in range(piece_base):
            forbidden[c, b] = bits[base + b]
        for p in range(NU_PIECES):
            used[c, p] = bits[base + piece_base + p]
        base = (n + c) * row
        for b in range(piece_base):
            if bits[base + b]:
                attach[c, n_attach[c]] = b
                n_attach[c] += 1
                in_list[c, b] = 1
    pool_top = np.zeros(n, np.int64)  # each colour's pool fill
    played = np.zeros((n, NU_PIECES), np.int32)
    count = np.zeros(n, np.int64)
    nu_played = nu_played.copy()
    squares = squares.copy()
    last_piece = last_piece.copy()
    if path_c.shape[0]:
        # Placements after the packed position (a search's tree moves below its root):
        # play them, then list each colour's attach points afresh in board order, exactly
        # as packing the position they lead to would.
        corner = np.zeros((n, piece_base), np.uint8)
        for i in range(path_c.shape[0]):
            c = path_c[i]
            move = path_m[i]
            _place(
                c,
                move,
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
            for q in range(attach_ptr[move], attach_ptr[move + 1]):
                corner[c, attach_cells[q]] = 1
        for c in range(n):
            n_attach[c] = 0
            for b in range(piece_base):
                keep = (in_list[c, b] or corner[c, b]) and not forbidden[c, b]
                in_list[c, b] = keep
                if keep:
                    attach[c, n_attach[c]] = b
                    n_attach[c] += 1
    alive_at_start = alive
    alive = alive.copy()
    nu_alive = 0
    for c in range(n):
        nu_alive += alive[c]
    hist_c = np.full(3, -1, np.int64)
    hist_m = np.full(3, -1, np.int64)
    n_hist = 0
    for i in range(recent_c.shape[0]):
        hist_c[n_hist] = recent_c[i]
        hist_m[n_hist] = recent_m[i]
        n_hist += 1
    # The last two placements (move ids; `none` before the first) and the playout's own
    # placements in order, for the replies.
    none = piece.shape[0]
    last = recent_m[recent_m.shape[0] - 1] if recent_m.shape[0] >= 1 else none
    second = recent_m[recent_m.shape[0] - 2] if recent_m.shape[0] >= 2 else none
    seq_c = np.empty(n * NU_PIECES, np.int64)
    seq_m = np.empty(n * NU_PIECES, np.int64)
    n_seq = 0

    local_mark = np.zeros(piece_base, np.int64)  # == stamp: a local point this ply
    attach_mark = np.zeros(piece_base, np.int64)  # == stamp: an attach point of the mover
    stamp = 0
    local_points = np.zeros(piece_base, np.int32)
    avail_pieces = np.zeros(NU_PIECES, np.int32)
    # The mover's candidate segments this ply, one per (attach point, unused piece) with
    # candidates left: `seg_id[j]` its index (a · NU_PIECES + p), `seg_end[j]` the running
    # total of candidates (a draw bisects it), rows 0 and 1 of `segs`; rows 2 and 3 the
    # same for the near ones.
    seg_id = seg_rows[0]
    seg_end = seg_rows[1]
    # attach[c, i]'s segments: seg_id[attach_segs[i]:attach_segs[i + 1]]
    attach_segs = np.empty(piece_base + 1, np.int64)
    two_colors = n == 2
    max_tries = 3 * n_candidates + TRIES
    c = color
    while nu_alive:
        if not alive[c]:
            c = (c + 1) % n
            continue
        reply = -1
        # The stored reply to the last two placements, else to the last one, if c may
        # play it now: its piece unused, no cell forbidden, a cell on an attach point.
        for attempt in range(2 if use_lgr else 0):
            m = (
                reply_to_pair[
                    c, (last_key[last] ^ second_key[second]) & (reply_to_pair.shape[1] - 1)
                ]
                if attempt == 0
                else reply_to_last[c, last]
            )
            if m < 0 or used[c, piece[m]]:
                continue
            touch = False
            for q in range(n_cells[m]):
                b = cells[m, q]
                if forbidden[c, b]:
                    touch = False
                    break
                if in_list[c, b]:
                    touch = True
            if touch:
                reply = m
                break
        stamp += 1
        n_avail = 0
        for p in range(NU_PIECES):
            if not used[c, p]:
                avail_pieces[n_avail] = p
                n_avail += 1
        # Compact c's attach points and list their segments (not needed when a stored
        # reply is played: the next ply of c's does it).
        j = 0
        total = 0
        n_segs = 0
        for i in range(n_attach[c] if reply < 0 else 0):
            a = attach[c, i]
            if forbidden[c, a]:
                continue
            # The window cache's entry for a under c's forbidden cells around it
            # (`_window`, written out: passing `forbidden[c]` costs a reference count).
            pattern = 0
            for q in range(8):
                if forbidden[c, a + window_offsets[q]]:
                    pattern |= 1 << q
            entry = window_index[a * 256 + pattern]
            if entry < 0:
                entry = _window_entry(
                    a,
                    pattern,
                    cover_ptr,
                    covering,
                    cover_window,
                    window_index,
                    window_ptr,
                    window_moves,
                    window_top,
                )
            first = n_segs
            for q in range(n_avail):
                p = avail_pieces[q]
                seg = a * NU_PIECES + p
                lo = window_ptr[entry, p]
                window_len = window_ptr[entry, p + 1] - lo
                if seg_gen[c, seg] != gen:
                    seg_gen[c, seg] = gen
                    # pruned at the root
                    if root_len[c, seg] >= 0 and root_len[c, seg] <= window_len:
                        seg_off[c, seg] = root_off[c, seg]
                        seg_len[c, seg] = root_len[c, seg]
                        seg_source[c, seg] = 2
                    else:
                        seg_off[c, seg] = lo
                        seg_len[c, seg] = window_len
                        seg_source[c, seg] = 0
                elif window_len < seg_len[c, seg]:
                    seg_off[c, seg] = lo
                    seg_len[c, seg] = window_len
                    seg_source[c, seg] = 0
                size = seg_len[c, seg]
                if size:
                    total += size
                    seg_id[n_segs] = seg
                    seg_end[n_segs] = total
                    n_segs += 1
            # An attach point without candidates left is dropped for good.
            if n_segs > first:
                attach[c, j] = a
                attach_mark[a] = stamp
                attach_segs[j] = first
                j += 1
        if reply < 0:
            attach_segs[j] = n_segs
            n_attach[c] = j
        move = reply
        found = 0
        weight_sum = 0.0
        if total and move < 0:
            # Local points: attach points (and, in local mode, their edge neighbours) the
            # other colours' last placements opened.
            n_local = 0
            for h in range(n_hist):
                other = hist_c[h]
                if other == c:
                    continue
                other_move = hist_m[h]
                for q in range(attach_ptr[other_move], attach_ptr[other_move + 1]):
                    a = attach_cells[q]
                    if forbidden[other, a]:
                        continue
                    if not forbidden[c, a]:
                        n_local = _add_local(a, stamp, local_mark, local_points, n_local)
                    if local_mode:
                        for d in (1, -1, stride, -stride):
                            b = a + d
                            if on_board[b] and not forbidden[other, b] and not forbidden[c, b]:
                                n_local = _add_local(b, stamp, local_mark, local_points, n_local)
            use_local_gamma = not local_mode and n_local > 0
            # Draws: in local mode with local points, first from the attach points near
            # one (`segs` rows 2–3), keeping the candidate covering the most local
            # points (own attach points among them twice); without a local candidate,
            # `k` from all of c's segments (rows 0–1), gamma-weighted. A draw picks a
            # candidate uniformly; an illegal one is dropped from its segment for good.
            near_total = 0
            n_near = 0
            if local_mode and n_local:
                for i in range(j):
                    a = attach[c, i]
                    ax = cell_x[a]
                    ay = cell_y[a]
                    for q in range(n_local):
                        b = local_points[q]
                        if abs(cell_x[b] - ax) + abs(cell_y[b] - ay) <= NEAR:
                            for g in range(attach_segs[i], attach_segs[i + 1]):
                                near_total += seg_len[c, seg_id[g]]
                                seg_rows[2, n_near] = seg_id[g]
                                seg_rows[3, n_near] = near_total
                                n_near += 1
                            break
            near = near_total > 0
            draw_row = 2 if near else 0  # the rows drawn from
            draw_total = near_total if near else total
            draw_segs = n_near if near else n_segs
            want = LOCAL_K if near else n_candidates
            max_draws = LOCAL_TRIES if near else max_tries
            best_hits = 0
            tries = 0
            while True:
                if found >= want or tries >= max_draws:
                    if found or not near:
                        break
                    near = False  # no local candidate: draw from all
                    draw_row, draw_total, draw_segs, want, max_draws, tries = (
                        0,
                        total,
                        n_segs,
                        n_candidates,
                        max_tries,
                        0,
                    )
                    continue
                tries += 1
                rng = _step(rng)
                r = int(_unit(rng) * draw_total)
                lo = 0  # the segment holding candidate r: bisect the running totals
                hi = draw_segs - 1
                while lo < hi:
                    mid = (lo + hi) >> 1
                    if seg_rows[draw_row + 1, mid] > r:
                        hi = mid
                    else:
                        lo = mid + 1
                seg = seg_rows[draw_row, lo]
                i = r - (seg_rows[draw_row + 1, lo - 1] if lo else 0)
                if i >= seg_len[c, seg]:
                    continue  # removed by an earlier draw this ply
                offset = seg_off[c, seg]
                source = seg_source[c, seg]
                m = (
                    own_pool[c, offset + i]
                    if source == 1
                    else root_moves[offset + i]
                    if source == 2
                    else window_moves[offset + i]
                )
                free = True
                for q in range(n_cells[m]):
                    if forbidden[c, cells[m, q]]:
                        free = False
                        break
                if not free:
                    pool_top[c] = _drop(
                        c,
                        seg,
                        i,
                        window_moves,
                        root_moves,
                        seg_off,
                        seg_len,
                        seg_source,
                        own_pool,
                        pool_top[c],
                    )
                    continue
                if near:
                    # (the weight only for a candidate that may be kept)
                    hit = 0
                    for q in range(n_cells[m]):
                        b = cells[m, q]
                        if local_mark[b] == stamp:
                            hit += 1
                            if attach_mark[b] == stamp:
                                hit += 1
                    if not hit:
                        continue
                    found += 1
                    if hit < best_hits:
                        continue
                weight = gamma[m]
                if corner_powers.shape[0] > 1:
                    weight *= corner_powers[
                        _new_corners(c, m, forbidden, in_list, attach_ptr, attach_cells)
                    ]
                if near:
                    if hit > best_hits:
                        best_hits = hit
                        weight_sum = weight
                        move = m
                        continue
                else:
                    found += 1
                    if use_local_gamma:
                        for q in range(n_cells[m]):
                            if local_mark[cells[m, q]] == stamp:
                                weight *= LOCAL_GAMMA
                                break
                weight_sum += weight
                rng = _step(rng)
                if _unit(rng) * weight_sum < weight:
                    move = m
            if not found:
                # Every candidate left, weighted; the illegal ones are dropped on the way.
                for g in range(n_segs):
                    seg = seg_id[g]
                    for i in range(seg_len[c, seg] - 1, -1, -1):
                        offset = seg_off[c, seg]
                        source = seg_source[c, seg]
                        m = (
                            own_pool[c, offset + i]
                            if source == 1
                            else root_moves[offset + i]
                            if source == 2
                            else window_moves[offset + i]
                        )
                        free = True
                        for q in range(n_cells[m]):
                            if forbidden[c, cells[m, q]]:
                                free = False
                                break
                        if free:
                            weight = gamma[m]
                            if corner_powers.shape[0] > 1:
                                weight *= corner_powers[
                                    _new_corners(c, m, forbidden, in_list, attach_ptr, attach_cells)
                                ]
                            weight_sum += weight
                            rng = _step(rng)
                            if _unit(rng) * weight_sum < weight:
                                move = m
                        else:
                            pool_top[c] = _drop(
                                c,
                                seg,
                                i,
                                window_moves,
                                root_moves,
                                seg_off,
                                seg_len,
                                seg_source,
                                own_pool,
                                pool_top[c],
                            )
        if move < 0:
            alive[c] = 0
            nu_alive -= 1
            if two_colors and nu_alive == 1 and squares[c] < squares[1 - c]:
                break
            c = (c + 1) % n
            continue
        _place(
            c,
            move,
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
        for q in range(attach_ptr[move], attach_ptr[move + 1]):
            b = attach_cells[q]
            if not forbidden[c, b] and not in_list[c, b]:
                in_list[c, b] = 1
                attach[c, n_attach[c]] = b
                n_attach[c] += 1
        played[c, count[c]] = move
        count[c] += 1
        if n_hist == 3:
            hist_c[0] = hist_c[1]
            hist_m[0] = hist_m[1]
            hist_c[1] = hist_c[2]
            hist_m[1] = hist_m[2]
            n_hist = 2
        hist_c[n_hist] = c
        hist_m[n_hist] = move
        n_hist += 1
        second = last
        last = move
        seq_c[n_seq] = c
        seq_m[n_seq] = move
        n_seq += 1
        c = (c + 1) % n
    scores = np.zeros(n, np.int64)
    for c in range(n):
        if nu_played[c] == NU_PIECES:
            scores[c] = 20 if last_piece[c] == SINGLE else 15
        else:
            scores[c] = squares[c] - TOTAL_SQUARES
    if use_lgr:
        # The colours with the best score (dead ones never) store their replies, the others
        # forget theirs: over the simulation's placements before the playout, then its own.
        best = -(1 << 30)
        for c in range(n):
            if alive_at_start[c] and scores[c] > best:
                best = scores[c]
        last = none
        second = none
        for i in range(before_m.shape[0]):
            if i >= context:
                c = before_c[i]
                win = alive_at_start[c] != 0 and scores[c] == best
                _learn(
                    c,
                    before_m[i],
                    last,
                    second,
                    win,
                    reply_to_last,
                    reply_to_pair,
                    last_key,
                    second_key,
                )
            second = last
            last = before_m[i]
        for i in range(n_seq):
            c = seq_c[i]
            win = alive_at_start[c] != 0 and scores[c] == best
            _learn(
                c,
                seq_m[i],
                last,
                second,
                win,
                reply_to_last,
                reply_to_pair,
                last_key,
                second_key,
            )
            second = last
            last = seq_m[i]
    return played, count, scores


@njit(cache=True)
def _playout_plain(root, tables, scratch, roots, replies, *rest):
    """`_playout` for a call from Python (`playing.playout`): its named tuples come as plain
    tuples, which numba types faster (module docstring), and are named again here."""
    return _playout(
        Packed(*root),
        PlayArrays(*tables),
        Scratch(*scratch),
        RootLists(*roots),
        ReplyArrays(*replies),
        *rest,
    )
