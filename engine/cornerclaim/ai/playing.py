"""The playouts' Python side: what the compiled kernels of `playout.py` read, built and
packed in Python, and the calls into them. The kernels, the constants they read and the
named tuples they take are `playout.py`'s; this module holds no compiled code.

- `PlayTables` (`play_tables`, once per board size): the per-move arrays and the window
  cache in the shapes the kernels read (`PlayTables.arrays`, a `PlayArrays`), and each
  process's scratch lists for a playout (`_Work`);
- `pack_position`: a position packed for the kernels (`Packed`);
- `playout`: play a position to its end (`playout._playout`), with the options a search
  passes (local-first, new-corner weights `corner_weights`, dead colours);
- `root_lists`: every colour's candidate lists pruned once at a search's root
  (`RootLists`); `Replies`: a search's last good replies (`ReplyArrays`);
- `legal_moves`, `legal_array`: a search node's moves from the window cache, compiled;
- `min_piece_size`: the smallest piece a search considers for a colour, by its placements.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..board import BoardConst
from ..pieces import NU_PIECES
from .playout import (
    MAX_NEW_CORNERS,
    REPLY_SLOTS,
    WINDOW_POOL,
    Packed,
    PlayArrays,
    ReplyArrays,
    RootLists,
    Scratch,
    _legal_moves_plain,
    _playout_plain,
    _root_lists,
)
from .tables import move_facts


def min_piece_size(board_size: int, placed: int) -> int:
    """The smallest piece a search considers for a colour that has `placed` pieces (big
    pieces first, as Pentobi prunes its openings): on the duo board 5 squares for the
    first two placements, 4 for the third, 3 up to the fifth; on the big board 5 for the
    first three, 4 up to the fifth, 3 up to the seventh; then any piece."""
    if board_size <= 14:
        return 5 if placed < 2 else 4 if placed < 3 else 3 if placed < 5 else 1
    return 5 if placed < 3 else 4 if placed < 5 else 3 if placed < 7 else 1


class PlayTables:
    """The per-move arrays of one board size, in the shapes the compiled loop reads
    (`arrays` holds them for the compiled calls; see `PlayArrays` for what each is)."""

    def __init__(self, size: int) -> None:
        bc = BoardConst.get(size)
        facts = move_facts(size)
        nm = bc.nu_moves
        self.mask_bits = mask_bits = bc.piece_base + NU_PIECES  # a mask's cells and pieces
        self.mask_bytes = (mask_bits + 7) // 8
        self.row = self.mask_bytes * 8  # a packed mask's bits
        self.piece_base = bc.piece_base
        self.stride = bc.stride
        cell_ptr, cell_bits = self._csr(bc.move_cells_mask)
        n_cells = np.diff(cell_ptr).astype(np.int32)
        cells = np.full((nm, 5), -1, np.int32)
        cells[np.repeat(np.arange(nm), n_cells), np.arange(len(cell_bits)) - np.repeat(
            cell_ptr[:-1], n_cells)] = cell_bits
        self.cells = cells
        self.n_cells = n_cells
        self.piece = np.array(bc.move_piece, np.int32)
        # The smallest piece a search node lists for a colour by how many it has placed
        # (`min_piece_size`; `leaf.leaf_lists` reads it).
        self.min_sizes = np.array([min_piece_size(size, k) for k in range(NU_PIECES + 1)],
                                  np.int64)
        self.gamma = np.array(facts.gamma, np.float64)
        self.centre = np.array(facts.centre, np.float64)
        self.adjacent_ptr, self.adjacent = self._csr(facts.adj)
        self.attach_ptr, self.attach_cells = self._csr(facts.attach)
        # The placements covering each cell, grouped by piece:
        # covering[cover_ptr[a, p]:cover_ptr[a, p + 1]] are piece p's placements covering
        # bit a (so a draw never picks a used piece). `BoardConst` numbers the moves piece
        # by piece, so each `covers` list is in order.
        piece = self.piece
        covering = np.array([m for a in range(len(bc.covers)) for m in bc.covers[a]],
                            np.int32)
        owner = np.repeat(np.arange(len(bc.covers)), [len(c) for c in bc.covers])
        counts = np.zeros((mask_bits, NU_PIECES), np.int32)
        np.add.at(counts, (owner, piece[covering]), 1)
        cover_ptr = np.zeros((mask_bits, NU_PIECES + 1), np.int32)
        cover_ptr[:, 1:] = np.cumsum(counts, axis=1)
        cover_ptr += np.concatenate(([0], np.cumsum(counts.sum(axis=1))[:-1]))[
            :, None].astype(np.int32)
        self.cover_ptr = cover_ptr
        self.covering = covering
        # Which of the 8 cells around bit a (`window_offsets` order) each of those
        # placements covers, one bit each.
        st = bc.stride
        self.window_offsets = offsets = np.array(
            [-st - 1, -st, -st + 1, -1, 1, st - 1, st, st + 1], np.int64)
        around = owner[:, None] + offsets[None, :]  # (entries, 8) cells
        hit = (cells[covering][:, None, :] == around[:, :, None]).any(axis=2)
        self.cover_window = (hit * (1 << np.arange(8))).sum(axis=1).astype(np.int32)
        # The window cache (per process): for bit a and the pattern of forbidden cells
        # around it, the placements that avoid them, by piece:
        # window_moves[window_ptr[e, p]:window_ptr[e, p + 1]],
        # e = window_index[a * 256 + pattern]. Built as playouts meet the patterns (like
        # `MoveTables` for `Position.random_move`), emptied when half full; `window_top`
        # holds the entries and the placements in use.
        self.window_index = np.full(bc.piece_base * 256, -1, np.int64)
        self.window_ptr = np.zeros((bc.piece_base * 256, NU_PIECES + 1), np.int32)
        self.window_moves = np.zeros(WINDOW_POOL, np.int32)
        self.window_top = np.zeros(2, np.int64)
        on_board = np.zeros(mask_bits, np.uint8)
        cell_x = np.full(mask_bits, -100, np.int32)
        cell_y = np.full(mask_bits, -100, np.int32)
        for b in np.flatnonzero(self.pack([bc.on_board])).tolist():
            on_board[b] = 1
            cell_x[b], cell_y[b] = bc.xy(b)
        self.on_board, self.cell_x, self.cell_y = on_board, cell_x, cell_y
        self._work: dict[int, _Work] = {}
        self.seen = np.zeros(bc.nu_moves, np.int64)  # == seen_gen: listed by this call
        self.seen_gen = 0
        # Random keys of each move (and of "no move", index nu_moves) for the reply table of
        # a pair of previous moves (`Replies`); fixed, so a search stays reproducible.
        keys = np.random.default_rng(size).integers(0, 1 << 62, (2, nm + 1), np.int64)
        self.last_key, self.second_key = keys[0], keys[1]
        self.arrays = PlayArrays(**{name: getattr(self, name) for name in PlayArrays._fields})
        self.plain_arrays = tuple(self.arrays)  # for the calls from Python (`_playout_plain`)

    def work(self, n: int) -> _Work:
        """This process's scratch arrays for `n` colours (one playout at a time)."""
        w = self._work.get(n)
        if w is None:
            w = self._work[n] = _Work(n, self.mask_bits * NU_PIECES, len(self.covering))
        return w

    def trim(self) -> None:
        """Empty the window cache when it is half full (at the start of a call: a call
        adds far less than the other half)."""
        if self.window_top[1] > WINDOW_POOL // 2:
            self.window_index[:] = -1
            self.window_top[:] = 0

    def _csr(self, masks) -> tuple[np.ndarray, np.ndarray]:
        """Masks → their bits as one flat array, row i at flat[ptr[i]:ptr[i + 1]]."""
        rows, bits = np.nonzero(self.pack(masks).reshape(len(masks), -1))
        ptr = np.zeros(len(masks) + 1, np.int32)
        ptr[1:] = np.cumsum(np.bincount(rows, minlength=len(masks)))
        return ptr, bits.astype(np.int32)

    def pack(self, masks) -> np.ndarray:
        """Masks (Python ints over the board bits) → one uint8 array of their bits."""
        nb = self.mask_bytes
        raw = np.frombuffer(b"".join(m.to_bytes(nb, "little") for m in masks), np.uint8)
        return np.unpackbits(raw, bitorder="little")


@cache
def play_tables(size: int) -> PlayTables:
    """The shared `PlayTables` of a board size (built on first use, ~0.3 s for 20×20)."""
    return PlayTables(size)


def pack_position(pos) -> Packed:
    """`pos` packed for the compiled playouts."""
    tables = play_tables(pos.bc.size)
    n = pos.nu_colors
    forb = pos.forbidden
    start = [(pos.corners[c] if pos.nu_played[c] else pos.start_bit[c]) & ~forb[c]
             for c in range(n)]
    return Packed(pos.bc.size, n, tables.pack(list(forb) + start),
                  np.array(pos.nu_played, np.int64), np.array(pos.squares_placed, np.int64),
                  np.array(pos.last_piece, np.int64))


_NO_MOVES = np.zeros(0, np.int64)


@cache
def corner_weights(corners: float) -> np.ndarray:
    """`corners` to the power of 0…`MAX_NEW_CORNERS` (a placement opens fewer), or the
    single 1.0 that turns the factor off when `corners` is 0."""
    if not corners:
        return np.ones(1, np.float64)
    return np.array([corners ** j for j in range(MAX_NEW_CORNERS + 1)], np.float64)


@cache
def _alive(n: int, dead: frozenset) -> np.ndarray:
    """Which of `n` colours may move (not `dead`); the compiled playout copies it."""
    return np.array([c not in dead for c in range(n)], np.uint8)


def playout(pos, color: int, seed: int, *, k: int = 3, recent: tuple = (),
            dead: frozenset = frozenset(), local_mode: bool = False,
            roots: RootLists | None = None, replies: Replies | None = None,
            before: tuple = (), context: int = 0, corners: float = 0.0,
            packed: Packed | None = None,
            after: tuple = ()) -> tuple[list[list[int]], list[int]]:
    """Play `pos` to its end, `color` to move first (`pos` itself is not changed).

    `seed`: any int (same seed, same playout); `k`: candidates compared per move (sampled
    mode); `recent`: the last few (colour, move) placements before the playout (the local
    points); `dead` colours (their seat left the game) never move; `local_mode`: level 6's
    local-first policy, comparing `LOCAL_K` local candidates a move. Returns the moves each
    colour played, in order (for RAVE), and the final scores (`Position.score`'s). In
    two-colour games the playout stops as soon as the winner is certain (a stuck colour
    that is behind can only fall further behind).
    `roots`: `root_lists` of a position `pos` descends from (a search's root), whose
    pruned candidate lists the playout starts from instead of the window cache's.
    `replies`: the search's last good replies (`Replies`): each colour first plays its
    stored reply to the last two placements, then to the last one, when legal; at the end
    the colours with the best score store their replies and the others forget theirs, over
    `before` (the simulation's placements before the playout, as (colour, move), oldest
    first, the first `context` of them only as the previous moves of the next) and the
    playout's own.
    `corners` (> 0): a candidate's weight is also multiplied by this for every attach point
    it opens that its colour has not got yet (`_new_corners`); 0 leaves the weights alone.
    `packed`: a `Packed` position to start from instead of `pos` (which is then not
    read), with the (colour, move) placements `after` it played first — the same playout
    as from the position they lead to, without building or packing that position."""
    if packed is None:
        packed = pack_position(pos)
    tables = play_tables(packed.size)
    n = packed.colors
    if roots is None:
        roots = _no_roots(packed.size, n)
    if after:
        path_c = np.array([a[0] for a in after], np.int64)
        path_m = np.array([a[1] for a in after], np.int64)
    else:
        path_c = path_m = _NO_MOVES
    hist = recent[-3:]
    recent_c = np.array([h[0] for h in hist], np.int64)
    recent_m = np.array([h[1] for h in hist], np.int64)
    w = tables.work(n)
    w.gen = gen = w.gen + 1
    tables.trim()
    if replies is None:
        replies = _no_replies()
    if before:
        before_c = np.array([b[0] for b in before], np.int64)
        before_m = np.array([b[1] for b in before], np.int64)
    else:
        before_c = before_m = _NO_MOVES
    out, count, scores = _playout_plain(
        tuple(packed), tables.plain_arrays, tuple(w.scratch), tuple(roots),
        tuple(replies.arrays), color, _alive(n, dead), recent_c, recent_m, k, local_mode,
        seed & 0x7FFFFFFFFFFFFFFF, gen, before_c, before_m, context, corner_weights(corners),
        path_c, path_m)
    played = [out[c, :count[c]].tolist() for c in range(n)]
    return played, scores.tolist()


class Replies:
    """Last good replies with forgetting (LGRF; Pentobi's playouts use them): per colour, the
    move it last played in a simulation it won after a given previous placement
    (`to_last`, indexed by move id, `nu_moves` for none) and after a given pair (`to_pair`,
    a hash table of `REPLY_SLOTS`); −1 where none. A reply is only ever played after the
    playout has checked it legal, so a stale or colliding entry costs nothing but the
    check."""

    def __init__(self, size: int, n: int, on: bool = True) -> None:
        nm = play_tables(size).piece.shape[0]
        self.on = on
        self.to_last = np.full((n, nm + 1), -1, np.int32)
        self.to_pair = np.full((n, REPLY_SLOTS if on else 1), -1, np.int32)
        self.arrays = ReplyArrays(on, self.to_last, self.to_pair)


@cache
def _no_replies() -> Replies:
    return Replies(14, 4, on=False)


def root_lists(pos) -> RootLists:
    """The `RootLists` of `pos` (~0.1–0.3 ms; once per search)."""
    tables = play_tables(pos.bc.size)
    tables.trim()
    return RootLists(*_root_lists(pack_position(pos), tables.mask_bits * NU_PIECES,
                                  tables.arrays))


@cache
def _no_roots(size: int, n: int) -> RootLists:
    n_segs = play_tables(size).mask_bits * NU_PIECES
    return RootLists(np.zeros(1, np.int32), np.zeros((n, n_segs), np.int64),
                     np.full((n, n_segs), -1, np.int64))


def legal_moves(pos, color: int, min_size: int = 1) -> list[int]:
    """`legal_array` as a list."""
    return legal_array(pos, color, min_size).tolist()


def legal_array(pos, color: int, min_size: int = 1) -> np.ndarray:
    """`pos.legal_moves(color)` with only the pieces of at least `min_size` squares, in the
    same order, compiled (what a search node lists; a test holds the two equal). Reads the
    window cache the playouts fill, so a few µs instead of a few hundred."""
    tables = play_tables(pos.bc.size)
    tables.trim()
    attach = pos.corners[color] if pos.nu_played[color] else pos.start_bit[color]
    forb = pos.forbidden[color]
    tables.seen_gen += 1
    return _legal_moves_plain(tables.pack([forb, attach & ~forb]), min_size, tables.seen_gen,
                              tables.seen, tables.plain_arrays).astype(np.int64)


class _Work:
    """Scratch arrays a playout reuses (`Scratch`) and the generation of the last
    playout that used them."""

    def __init__(self, n: int, n_segs: int, n_covering: int) -> None:
        self.gen = 0
        self.scratch = Scratch(
            seg_gen=np.zeros((n, n_segs), np.int64),
            seg_off=np.zeros((n, n_segs), np.int64),
            seg_len=np.zeros((n, n_segs), np.int64),
            seg_source=np.zeros((n, n_segs), np.uint8),
            own_pool=np.zeros((n, n_covering), np.int32),
            seg_rows=np.zeros((4, n_segs), np.int64))
