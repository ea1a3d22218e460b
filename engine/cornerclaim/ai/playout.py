"""Fast weighted playouts: play a position to its end with a cheap, Pentobi-like policy,
compiled to machine code by numba.

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

- `forb[c, bit]`: colour c may not cover the bit (occupied, or edge-next to c's pieces);
- `used[c, piece]`: c has played the piece;
- `att[c, :natt[c]]`: c's attach points, compacted as they become forbidden or run out of
  candidates.

Candidates come in segments, one per (attach point, unused piece): the placements of that
piece covering the point that avoid the forbidden cells of the 3×3 window around it (a
window cache per process, like `MoveTables` for `Position.random_move`). A draw that turns
out illegal is removed from its segment for the rest of the playout (forbidden cells and
used pieces only grow), so acceptance rises as the board fills and proving that a colour is
stuck costs one pass over what is left. A search prunes every colour's lists once at its
root (`root_lists`) and its playouts start from those. The random numbers are xorshift64*,
seeded per playout from the search's own generator, so a search is deterministic for its
seed.

With `Replies` (level 6) a colour first plays its last good reply to the previous one or
two placements when it is legal (Pentobi's LGRF), and after the playout the colours with
the best score store the replies they made while the others forget theirs.

`legal_moves` lists a search node's moves from the same window cache, compiled: the
engine's list in the engine's order (a test holds them equal).

Every array a compiled loop writes between calls (the window cache, the scratch lists) is
valid only for the call's own generation or is append-only, and every placement a playout
plays is checked against the current board first, so no state left by an earlier call can
make it play an illegal move.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from ..board import BoardConst
from ..pieces import NU_PIECES, PIECES, SINGLE, TOTAL_SQUARES
from .tables import move_facts

LOCAL_GAMMA = 1e4  # weight factor of a candidate covering a local point (sampled mode)
LOCAL_K = 3  # local candidates compared per playout move (local mode)
NEAR = 4  # attach points within this many edge steps of a local point are "near"
LOCAL_TRIES = 48  # draws from the near lists before giving up on a local move
MAX_NEW_CORNERS = 16  # more attach points than any placement opens (`corner_weights`)
TRIES = 64  # draws for the weighted sample before listing every legal move
WINDOW_POOL = 1 << 23  # candidates the window cache holds (32 MB) before it starts over
REPLY_SLOTS = 1 << 20  # last-good-reply slots per colour for a pair of previous moves (4 MB)

_U12 = np.uint64(12)
_U25 = np.uint64(25)
_U27 = np.uint64(27)
_U11 = np.uint64(11)
_MUL = np.uint64(2685821657736338717)
_INV53 = 1.0 / 9007199254740992.0


def min_piece_size(board_size: int, placed: int) -> int:
    """The smallest piece a search considers for a colour that has `placed` pieces (big
    pieces first, as Pentobi prunes its openings): on the duo board 5 squares for the
    first two placements, 4 for the third, 3 up to the fifth; on the big board 5 for the
    first three, 4 up to the fifth, 3 up to the seventh; then any piece."""
    if board_size <= 14:
        return 5 if placed < 2 else 4 if placed < 3 else 3 if placed < 5 else 1
    return 5 if placed < 3 else 4 if placed < 5 else 3 if placed < 7 else 1


class PlayTables:
    """The per-move arrays of one board size, in the shapes the compiled loop reads."""

    def __init__(self, size: int) -> None:
        bc = BoardConst.get(size)
        facts = move_facts(size)
        nm = bc.nu_moves
        self.nbits = nbits = bc.piece_base + NU_PIECES
        self.nbytes = (nbits + 7) // 8
        self.piece_base = bc.piece_base
        self.stride = bc.stride
        cell_ptr, cell_bits = self._csr(bc.move_cells_mask)
        ncell = np.diff(cell_ptr).astype(np.int32)
        cells = np.full((nm, 5), -1, np.int32)
        cells[np.repeat(np.arange(nm), ncell), np.arange(len(cell_bits)) - np.repeat(
            cell_ptr[:-1], ncell)] = cell_bits
        self.cells = cells
        self.ncell = ncell
        self.piece = np.array(bc.move_piece, np.int32)
        self.psize = np.array([p.size for p in PIECES], np.int32)
        # The smallest piece a colour plays by how many it has placed, with `sizes`
        # (`min_piece_size`) and without.
        self.min_sizes = np.array([min_piece_size(size, k) for k in range(NU_PIECES + 1)],
                                  np.int64)
        self.any_size = np.ones(NU_PIECES + 1, np.int64)
        self.gamma = np.array(facts.gamma, np.float64)
        self.centre = np.array(facts.centre, np.float64)
        self.adj_ptr, self.adj = self._csr(facts.adj)
        self.att_ptr, self.att = self._csr(facts.attach)
        # The placements covering each cell, grouped by piece: cov[cp[a, p]:cp[a, p + 1]]
        # are piece p's placements covering bit a (so a draw never picks a used piece).
        # `BoardConst` numbers the moves piece by piece, so each `covers` list is in order.
        piece = self.piece
        flat = np.array([m for a in range(len(bc.covers)) for m in bc.covers[a]], np.int32)
        owner = np.repeat(np.arange(len(bc.covers)), [len(c) for c in bc.covers])
        counts = np.zeros((nbits, NU_PIECES), np.int32)
        np.add.at(counts, (owner, piece[flat]), 1)
        cp = np.zeros((nbits, NU_PIECES + 1), np.int32)
        cp[:, 1:] = np.cumsum(counts, axis=1)
        cp += np.concatenate(([0], np.cumsum(counts.sum(axis=1))[:-1]))[:, None].astype(
            np.int32)
        self.cp = cp
        self.cov = flat
        # Which of the 8 cells around bit a (`woff` order) each of those placements covers.
        st = bc.stride
        self.woff = woff = np.array([-st - 1, -st, -st + 1, -1, 1, st - 1, st, st + 1],
                                    np.int64)
        around = owner[:, None] + woff[None, :]  # (entries, 8) cells
        hit = (cells[flat][:, None, :] == around[:, :, None]).any(axis=2)
        self.cwin = (hit * (1 << np.arange(8))).sum(axis=1).astype(np.int32)
        # The window cache (per process): for bit a and the pattern of forbidden cells
        # around it, the placements that avoid them, by piece:
        # wlist[went[e, p]:went[e, p + 1]], e = widx[a * 256 + pattern]. Built as playouts
        # meet the patterns (like `MoveTables` for `Position.random_move`), emptied when
        # half full.
        self.widx = np.full(bc.piece_base * 256, -1, np.int64)
        self.went = np.zeros((bc.piece_base * 256, NU_PIECES + 1), np.int32)
        self.wlist = np.zeros(WINDOW_POOL, np.int32)
        self.wtop = np.zeros(2, np.int64)
        on = np.zeros(nbits, np.uint8)
        xs = np.full(nbits, -100, np.int32)
        ys = np.full(nbits, -100, np.int32)
        for b in np.flatnonzero(self.pack([bc.on_board])).tolist():
            on[b] = 1
            xs[b], ys[b] = bc.xy(b)
        self.on, self.xs, self.ys = on, xs, ys
        self._work: dict[int, _Work] = {}
        self.seen = np.zeros(bc.nu_moves, np.int64)  # == seen_gen: listed by this call
        self.seen_gen = 0
        # Random keys of each move (and of "no move", index nu_moves) for the reply table of
        # a pair of previous moves (`Replies`); fixed, so a search stays reproducible.
        keys = np.random.default_rng(size).integers(0, 1 << 62, (2, nm + 1), np.int64)
        self.key1, self.key2 = keys[0], keys[1]

    def work(self, n: int) -> _Work:
        """This process's scratch arrays for `n` colours (one playout at a time)."""
        w = self._work.get(n)
        if w is None:
            w = self._work[n] = _Work(n, self.nbits * NU_PIECES, len(self.cov))
        return w

    def trim(self) -> None:
        """Empty the window cache when it is half full (at the start of a call: a call
        adds far less than the other half)."""
        if self.wtop[1] > WINDOW_POOL // 2:
            self.widx[:] = -1
            self.wtop[:] = 0

    def _csr(self, masks) -> tuple[np.ndarray, np.ndarray]:
        """Masks → their bits as one flat array, row i at flat[ptr[i]:ptr[i + 1]]."""
        rows, bits = np.nonzero(self.pack(masks).reshape(len(masks), -1))
        ptr = np.zeros(len(masks) + 1, np.int32)
        ptr[1:] = np.cumsum(np.bincount(rows, minlength=len(masks)))
        return ptr, bits.astype(np.int32)

    def pack(self, masks) -> np.ndarray:
        """Masks (Python ints over the board bits) → one uint8 array of their bits."""
        nb = self.nbytes
        raw = np.frombuffer(b"".join(m.to_bytes(nb, "little") for m in masks), np.uint8)
        return np.unpackbits(raw, bitorder="little")


@cache
def play_tables(size: int) -> PlayTables:
    """The shared `PlayTables` of a board size (built on first use, ~0.3 s for 20×20)."""
    return PlayTables(size)


class Packed:
    """A position packed for the compiled playouts (a search packs its root once and
    passes its tree's placements below it as `playout(..., after=...)`)."""

    __slots__ = ("size", "n", "bits", "nu_played", "squares", "last_piece")

    def __init__(self, pos) -> None:
        t = play_tables(pos.bc.size)
        self.size = pos.bc.size
        self.n = n = pos.nu_colors
        forb = pos.forbidden
        start = [(pos.corners[c] if pos.nu_played[c] else pos.start_bit[c]) & ~forb[c]
                 for c in range(n)]
        self.bits = t.pack(list(forb) + start)
        self.nu_played = np.array(pos.nu_played, np.int64)
        self.squares = np.array(pos.squares_placed, np.int64)
        self.last_piece = np.array(pos.last_piece, np.int64)


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
        packed = Packed(pos)
    t = play_tables(packed.size)
    n = packed.n
    if roots is None:
        roots = _no_roots(packed.size, n)
    if after:
        pc = np.array([a[0] for a in after], np.int64)
        pm = np.array([a[1] for a in after], np.int64)
    else:
        pc = pm = _NO_MOVES
    hist = recent[-3:]
    hc = np.array([h[0] for h in hist], np.int64)
    hm = np.array([h[1] for h in hist], np.int64)
    alive = _alive(n, dead)
    w = t.work(n)
    w.gen = gen = w.gen + 1
    t.trim()
    if replies is None:
        replies = _no_replies()
    bc_ = np.array([b[0] for b in before], np.int64)
    bm_ = np.array([b[1] for b in before], np.int64)
    out, cnt, scores = _playout(
        packed.bits, n, t.nbytes * 8, t.piece_base, t.stride, color,
        packed.nu_played, packed.squares, packed.last_piece, alive, hc, hm, k, local_mode,
        LOCAL_K, 1,
        seed & 0x7FFFFFFFFFFFFFFF, gen,
        t.cells, t.ncell, t.piece, t.gamma, t.adj_ptr, t.adj,
        t.att_ptr, t.att, t.cp, t.cov,
        t.on, t.xs, t.ys, t.woff, t.cwin, t.widx, t.went, t.wlist, t.wtop,
        w.sgen, w.soff, w.slen, w.spool, w.pool, w.segs, roots.rlist, roots.roff,
        roots.rlen, replies.on, replies.one, replies.two, t.key1, t.key2, bc_, bm_, context,
        t.any_size, t.psize, corner_weights(corners), pc, pm)
    played = [out[c, :cnt[c]].tolist() for c in range(n)]
    return played, scores.tolist()


class Replies:
    """Last good replies with forgetting (LGRF; Pentobi's playouts use them): per colour, the
    move it last played in a simulation it won after a given previous placement (`one`,
    indexed by move id, `nu_moves` for none) and after a given pair (`two`, a hash table of
    `REPLY_SLOTS`); −1 where none. A reply is only ever played after the playout has
    checked it legal, so a stale or colliding entry costs nothing but the check."""

    def __init__(self, size: int, n: int, on: bool = True) -> None:
        nm = play_tables(size).piece.shape[0]
        self.on = on
        self.one = np.full((n, nm + 1), -1, np.int32)
        self.two = np.full((n, REPLY_SLOTS if on else 1), -1, np.int32)


@cache
def _no_replies() -> Replies:
    return Replies(14, 4, on=False)


class RootLists:
    """Every colour's legal placements per (attach point, unused piece) at a search's root:
    `rlist[roff[c, s]:roff[c, s] + rlen[c, s]]` for segment s = a · NU_PIECES + p, rlen −1
    where the root has no such segment. A placement illegal at the root stays illegal in
    every position below it, so a playout from anywhere in the tree can start from these
    lists instead of pruning the window cache's again (late in a game most of those are
    illegal)."""

    def __init__(self, rlist: np.ndarray, roff: np.ndarray, rlen: np.ndarray) -> None:
        self.rlist, self.roff, self.rlen = rlist, roff, rlen


def root_lists(pos) -> RootLists:
    """The `RootLists` of `pos` (~0.1–0.3 ms; once per search)."""
    t = play_tables(pos.bc.size)
    t.trim()
    n = pos.nu_colors
    forb = pos.forbidden
    start = [(pos.corners[c] if pos.nu_played[c] else pos.start_bit[c]) & ~forb[c]
             for c in range(n)]
    return RootLists(*_root_lists(t.pack(list(forb) + start), n, t.nbytes * 8, t.piece_base,
                                  t.nbits * NU_PIECES, t.cells, t.ncell, t.cp, t.cov, t.woff,
                                  t.cwin, t.widx, t.went, t.wlist, t.wtop))


@cache
def _no_roots(size: int, n: int) -> RootLists:
    nseg = play_tables(size).nbits * NU_PIECES
    return RootLists(np.zeros(1, np.int32), np.zeros((n, nseg), np.int64),
                     np.full((n, nseg), -1, np.int64))


@njit(cache=True, inline="always")
def _window(board, base, a, woff, cp, cov, cwin, widx, went, wlist, wtop):
    """The window cache's entry for bit `a` under the forbidden cells `board[base + …]`
    around it (built on a miss)."""
    pat = 0
    for q in range(8):
        if board[base + a + woff[q]]:
            pat |= 1 << q
    e = widx[a * 256 + pat]
    if e < 0:
        e = _window_entry(a, pat, cp, cov, cwin, widx, went, wlist, wtop)
    return e


@njit(cache=True, inline="always")
def _free_in(board, base, m, cells, ncell):
    """Whether placement `m` covers none of the forbidden cells `board[base + …]`."""
    for j in range(ncell[m]):
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
def _root_lists(bits, n, row, piece_base, nseg, cells, ncell, cp, cov, woff, cwin, widx,
                went, wlist, wtop):
    roff = np.zeros((n, nseg), np.int64)
    rlen = np.full((n, nseg), -1, np.int64)
    out = np.empty(8192, np.int32)
    k = 0
    for c in range(n):
        base = c * row
        abase = (n + c) * row
        for a in range(piece_base):
            if not bits[abase + a]:
                continue
            e = _window(bits, base, a, woff, cp, cov, cwin, widx, went, wlist, wtop)
            for p in range(NU_PIECES):
                if bits[base + piece_base + p]:
                    continue
                s = a * NU_PIECES + p
                roff[c, s] = k
                for q in range(went[e, p], went[e, p + 1]):
                    m = wlist[q]
                    if _free_in(bits, base, m, cells, ncell):
                        out = _push(out, k, m)
                        k += 1
                rlen[c, s] = k - roff[c, s]
    return out[:k].copy(), roff, rlen


def legal_moves(pos, color: int, min_size: int = 1) -> list[int]:
    """`legal_array` as a list."""
    return legal_array(pos, color, min_size).tolist()


def legal_array(pos, color: int, min_size: int = 1) -> np.ndarray:
    """`pos.legal_moves(color)` with only the pieces of at least `min_size` squares, in the
    same order, compiled (what a search node lists; a test holds the two equal). Reads the
    window cache the playouts fill, so a few µs instead of a few hundred."""
    t = play_tables(pos.bc.size)
    t.trim()
    att = (pos.corners[color] if pos.nu_played[color] else pos.start_bit[color])
    forb = pos.forbidden[color]
    t.seen_gen += 1
    return _legal_moves(t.pack([forb, att & ~forb]), t.nbytes * 8, t.piece_base, min_size,
                        t.seen_gen, t.seen, t.cells, t.ncell, t.cp, t.cov, t.woff, t.cwin,
                        t.widx, t.went, t.wlist, t.wtop).astype(np.int64)


@njit(cache=True)
def _legal_moves(bits, row, piece_base, min_size, gen, seen, cells, ncell, cp, cov, woff,
                 cwin, widx, went, wlist, wtop):
    out = np.empty(4096, np.int32)
    k = 0
    for a in range(piece_base):
        if not bits[row + a]:
            continue
        e = _window(bits, 0, a, woff, cp, cov, cwin, widx, went, wlist, wtop)
        for p in range(NU_PIECES):
            if bits[piece_base + p]:
                continue
            for q in range(went[e, p], went[e, p + 1]):
                m = wlist[q]
                if seen[m] == gen or ncell[m] < min_size:
                    continue
                if _free_in(bits, 0, m, cells, ncell):
                    seen[m] = gen
                    out = _push(out, k, m)
                    k += 1
    return out[:k]


class _Work:
    """Scratch arrays a playout reuses (per process, board size and colour count): the
    candidate lists it has pruned, valid while `sgen` equals the playout's generation."""

    def __init__(self, n: int, nseg: int, ncov: int) -> None:
        self.gen = 0
        self.sgen = np.zeros((n, nseg), np.int64)
        self.soff = np.zeros((n, nseg), np.int64)
        self.slen = np.zeros((n, nseg), np.int64)
        self.spool = np.zeros((n, nseg), np.uint8)
        self.pool = np.zeros((n, ncov), np.int32)
        self.segs = np.zeros((4, nseg), np.int64)  # one ply's segment lists (`_playout`)


@njit(cache=True, inline="always")
def _add_local(b, wt, stamp, mark, lw, locs, nloc):
    """Make bit `b` a local point of this ply (`mark[b] == stamp`, listed in `locs`) with
    weight `wt`, or raise its weight to `wt`; returns the new count of local points."""
    if mark[b] != stamp:
        mark[b] = stamp
        lw[b] = wt
        locs[nloc] = b
        return nloc + 1
    if wt > lw[b]:
        lw[b] = wt
    return nloc


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
def _drop(c, s, i, wlist, rlist, soff, slen, spool, pool, top):
    """Remove candidate `i` of segment `s` of colour `c` for good (it is illegal and will
    stay so). A shared segment (the window cache's or the root's) is copied to `c`'s pool
    first; when the pool is full the candidate stays (a later draw rejects it again).
    Returns the pool's top."""
    n = slen[c, s]
    if i >= n:
        return top  # already removed by an earlier draw this ply
    if spool[c, s] != 1:
        if top + n > pool.shape[1]:
            return top
        off = soff[c, s]
        src = wlist if spool[c, s] == 0 else rlist
        for q in range(n):
            pool[c, top + q] = src[off + q]
        soff[c, s] = top
        spool[c, s] = 1
        top += n
    off = soff[c, s]
    pool[c, off + i] = pool[c, off + n - 1]
    slen[c, s] = n - 1
    return top


@njit(cache=True, inline="always")
def _learn(c, m, last, second, win, one, two, key1, key2):
    """Store (`win`) or forget colour `c`'s reply `m` to the placements `last`, `second`."""
    h = (key1[last] ^ key2[second]) & (two.shape[1] - 1)
    if win:
        two[c, h] = m
        one[c, last] = m
    else:
        if two[c, h] == m:
            two[c, h] = -1
        if one[c, last] == m:
            one[c, last] = -1


@njit(cache=True)
def _window_entry(a, pat, cp, cov, cwin, widx, went, wlist, wtop):
    """Build the window cache's entry for bit `a` and forbidden pattern `pat`."""
    e = wtop[0]
    wtop[0] += 1
    top = wtop[1]
    for p in range(NU_PIECES):
        went[e, p] = top
        for q in range(cp[a, p], cp[a, p + 1]):
            if not cwin[q] & pat:
                wlist[top] = cov[q]
                top += 1
    went[e, NU_PIECES] = top
    wtop[1] = top
    widx[a * 256 + pat] = e
    return e


@njit(cache=True)
def _place(c, move, n, forb, used, nu_played, squares, last_piece, cells, ncell, piece,
           adj_ptr, adj):
    """Colour `c` places `move`: its cells become forbidden to every colour, its edge
    neighbours to `c`, its piece used, and `c`'s counts grow (the attach points it opens
    are the caller's)."""
    for q in range(ncell[move]):
        b = cells[move, q]
        for o in range(n):
            forb[o, b] = 1
    for q in range(adj_ptr[move], adj_ptr[move + 1]):
        forb[c, adj[q]] = 1
    used[c, piece[move]] = 1
    nu_played[c] += 1
    squares[c] += ncell[move]
    last_piece[c] = piece[move]


@njit(cache=True)
def _new_corners(c, m, forb, inlist, att_ptr, att_list):
    """How many attach points placement `m` would open for colour `c` that `c` has not
    got yet and may still cover (`corners`)."""
    k = 0
    for q in range(att_ptr[m], att_ptr[m + 1]):
        b = att_list[q]
        if not forb[c, b] and not inlist[c, b]:
            k += 1
    return k


@njit(cache=True)
def _playout(bits, n, row, piece_base, stride, color, nu_played, squares, last_piece,
             alive, hc, hm, k, local_mode, local_k, local_next, seed, gen,
             cells, ncell, piece, gamma, adj_ptr, adj, att_ptr, att_list, cp, cov,
             on, xs, ys, woff, cwin, widx, went, wlist, wtop, sgen, soff, slen, spool,
             pool, segs, rlist, roff, rlen, use_lgr, rone, rtwo, key1, key2, bc, bm, context,
             min_sizes, psize, cornw, pc, pm):
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    rs = z if z else np.uint64(1)  # the random generator's state (`_step`)

    forb = np.zeros((n, piece_base), np.uint8)
    used = np.zeros((n, NU_PIECES), np.uint8)
    att = np.zeros((n, piece_base), np.int32)
    natt = np.zeros(n, np.int64)
    inlist = np.zeros((n, piece_base), np.uint8)
    for c in range(n):
        base = c * row
        for b in range(piece_base):
            forb[c, b] = bits[base + b]
        for p in range(NU_PIECES):
            used[c, p] = bits[base + piece_base + p]
        base = (n + c) * row
        for b in range(piece_base):
            if bits[base + b]:
                att[c, natt[c]] = b
                natt[c] += 1
                inlist[c, b] = 1
    top = np.zeros(n, np.int64)  # each colour's pool fill
    out = np.zeros((n, NU_PIECES), np.int32)
    cnt = np.zeros(n, np.int64)
    nu_played = nu_played.copy()
    squares = squares.copy()
    last_piece = last_piece.copy()
    if pc.shape[0]:
        # Placements after the packed position (a search's tree moves below its root):
        # play them, then list each colour's attach points afresh in board order, exactly
        # as packing the position they lead to would.
        corner = np.zeros((n, piece_base), np.uint8)
        for i in range(pc.shape[0]):
            c = pc[i]
            move = pm[i]
            _place(c, move, n, forb, used, nu_played, squares, last_piece, cells, ncell,
                   piece, adj_ptr, adj)
            for q in range(att_ptr[move], att_ptr[move + 1]):
                corner[c, att_list[q]] = 1
        for c in range(n):
            natt[c] = 0
            for b in range(piece_base):
                keep = (inlist[c, b] or corner[c, b]) and not forb[c, b]
                inlist[c, b] = keep
                if keep:
                    att[c, natt[c]] = b
                    natt[c] += 1
    alive0 = alive
    alive = alive.copy()
    nu_alive = 0
    for c in range(n):
        nu_alive += alive[c]
    histc = np.full(3, -1, np.int64)
    histm = np.full(3, -1, np.int64)
    nh = 0
    for i in range(hc.shape[0]):
        histc[nh] = hc[i]
        histm[nh] = hm[i]
        nh += 1
    # The last two placements (move ids; `none` before the first) and the playout's own
    # placements in order, for the replies.
    none = piece.shape[0]
    last = hm[hm.shape[0] - 1] if hm.shape[0] >= 1 else none
    second = hm[hm.shape[0] - 2] if hm.shape[0] >= 2 else none
    seqc = np.empty(n * NU_PIECES, np.int64)
    seqm = np.empty(n * NU_PIECES, np.int64)
    nseq = 0

    mark = np.zeros(piece_base, np.int64)  # == stamp: a local point this ply
    lw = np.ones(piece_base, np.int64)  # a local point's weight (`local_next`)
    amark = np.zeros(piece_base, np.int64)  # == stamp: an attach point of the mover
    stamp = 0
    locs = np.zeros(piece_base, np.int32)
    avail = np.zeros(NU_PIECES, np.int32)
    # The mover's candidate segments this ply, one per (attach point, unused piece) with
    # candidates left: `seg[j]` its index (a · NU_PIECES + p), `seg_end[j]` the running
    # total of candidates (a draw bisects it), rows 0 and 1 of `segs`; rows 2 and 3 the
    # same for the near ones.
    seg = segs[0]
    seg_end = segs[1]
    aseg = np.empty(piece_base + 1, np.int64)  # attach point i's segments: aseg[i]:aseg[i+1]
    two = n == 2
    max_tries = 3 * k + TRIES
    c = color
    while nu_alive:
        if not alive[c]:
            c = (c + 1) % n
            continue
        reply = -1
        # The stored reply to the last two placements, else to the last one, if c may
        # play it now: its piece unused, no cell forbidden, a cell on an attach point.
        for r2 in range(2 if use_lgr else 0):
            m = rtwo[c, (key1[last] ^ key2[second]) & (rtwo.shape[1] - 1)] if r2 == 0 \
                else rone[c, last]
            if m < 0 or used[c, piece[m]]:
                continue
            touch = False
            for q in range(ncell[m]):
                b = cells[m, q]
                if forb[c, b]:
                    touch = False
                    break
                if inlist[c, b]:
                    touch = True
            if touch:
                reply = m
                break
        # The opening's piece sizes (`min_sizes`, by placements; all ones without `sizes`):
        # only pieces of at least `minsz` squares while the colour has placed few, unless
        # none of them fits (then a second pass takes every piece, as Pentobi's playouts do).
        minsz = min_sizes[nu_played[c]]
        while True:
            stamp += 1
            npc = 0
            for p in range(NU_PIECES):
                if not used[c, p] and psize[p] >= minsz:
                    avail[npc] = p
                    npc += 1
            # Compact c's attach points and list their segments (not needed when a stored
            # reply is played: the next ply of c's does it).
            j = 0
            total = 0
            ns = 0
            for i in range(natt[c] if reply < 0 else 0):
                a = att[c, i]
                if forb[c, a]:
                    continue
                # The window cache's entry for a under c's forbidden cells around it
                # (`_window`, written out: passing `forb[c]` costs a reference count).
                pat = 0
                for q in range(8):
                    if forb[c, a + woff[q]]:
                        pat |= 1 << q
                e = widx[a * 256 + pat]
                if e < 0:
                    e = _window_entry(a, pat, cp, cov, cwin, widx, went, wlist, wtop)
                first = ns
                for q in range(npc):
                    p = avail[q]
                    s = a * NU_PIECES + p
                    lo = went[e, p]
                    wlen = went[e, p + 1] - lo
                    if sgen[c, s] != gen:
                        sgen[c, s] = gen
                        if rlen[c, s] >= 0 and rlen[c, s] <= wlen:  # pruned at the root
                            soff[c, s] = roff[c, s]
                            slen[c, s] = rlen[c, s]
                            spool[c, s] = 2
                        else:
                            soff[c, s] = lo
                            slen[c, s] = wlen
                            spool[c, s] = 0
                    elif wlen < slen[c, s]:
                        soff[c, s] = lo
                        slen[c, s] = wlen
                        spool[c, s] = 0
                    size = slen[c, s]
                    if size:
                        total += size
                        seg[ns] = s
                        seg_end[ns] = total
                        ns += 1
                # An attach point without candidates left is dropped for good (not while the
                # small pieces wait: they may still fit there).
                if ns > first or minsz > 1:
                    att[c, j] = a
                    amark[a] = stamp
                    aseg[j] = first
                    j += 1
            if reply < 0:
                aseg[j] = ns
                natt[c] = j
            move = reply
            found = 0
            wsum = 0.0
            if total and move < 0:
                # Local points: attach points (and, in local mode, their edge neighbours) the
                # other colours' last placements opened.
                nloc = 0
                for h in range(nh):
                    oc = histc[h]
                    if oc == c:
                        continue
                    om = histm[h]
                    wt = local_next if n > 2 and oc == (c + 1) % n else 1
                    for q in range(att_ptr[om], att_ptr[om + 1]):
                        a = att_list[q]
                        if forb[oc, a]:
                            continue
                        if not forb[c, a]:
                            nloc = _add_local(a, wt, stamp, mark, lw, locs, nloc)
                        if local_mode:
                            for d in (1, -1, stride, -stride):
                                b = a + d
                                if on[b] and not forb[oc, b] and not forb[c, b]:
                                    nloc = _add_local(b, wt, stamp, mark, lw, locs, nloc)
                use_local_gamma = not local_mode and nloc > 0
                # Draws: in local mode with local points, first from the attach points near
                # one (`segs` rows 2–3), keeping the candidate covering the most local
                # points (own attach points among them twice); without a local candidate,
                # `k` from all of c's segments (rows 0–1), gamma-weighted. A draw picks a
                # candidate uniformly; an illegal one is dropped from its segment for good.
                ntotal = 0
                nn = 0
                if local_mode and nloc:
                    for i in range(j):
                        a = att[c, i]
                        ax = xs[a]
                        ay = ys[a]
                        for q in range(nloc):
                            b = locs[q]
                            if abs(xs[b] - ax) + abs(ys[b] - ay) <= NEAR:
                                for g in range(aseg[i], aseg[i + 1]):
                                    ntotal += slen[c, seg[g]]
                                    segs[2, nn] = seg[g]
                                    segs[3, nn] = ntotal
                                    nn += 1
                                break
                near = ntotal > 0
                r0 = 2 if near else 0  # the rows drawn from
                pool_size = ntotal if near else total
                nsegs = nn if near else ns
                want = local_k if near else k
                most = LOCAL_TRIES if near else max_tries
                best_cnt = 0
                tries = 0
                while True:
                    if found >= want or tries >= most:
                        if found or not near:
                            break
                        near = False  # no local candidate: draw from all
                        r0, pool_size, nsegs, want, most, tries = 0, total, ns, k, max_tries, 0
                        continue
                    tries += 1
                    rs = _step(rs)
                    r = int(_unit(rs) * pool_size)
                    lo = 0  # the segment holding candidate r: bisect the running totals
                    hi = nsegs - 1
                    while lo < hi:
                        mid = (lo + hi) >> 1
                        if segs[r0 + 1, mid] > r:
                            hi = mid
                        else:
                            lo = mid + 1
                    s = segs[r0, lo]
                    i = r - (segs[r0 + 1, lo - 1] if lo else 0)
                    if i >= slen[c, s]:
                        continue  # removed by an earlier draw this ply
                    off = soff[c, s]
                    src = spool[c, s]
                    m = pool[c, off + i] if src == 1 else rlist[off + i] if src == 2 \
                        else wlist[off + i]
                    free = True
                    for q in range(ncell[m]):
                        if forb[c, cells[m, q]]:
                            free = False
                            break
                    if not free:
                        top[c] = _drop(c, s, i, wlist, rlist, soff, slen, spool, pool, top[c])
                        continue
                    if near:
                        # (the weight only for a candidate that may be kept)
                        hit = 0
                        for q in range(ncell[m]):
                            b = cells[m, q]
                            if mark[b] == stamp:
                                hit += lw[b]
                                if amark[b] == stamp:
                                    hit += 1
                        if not hit:
                            continue
                        found += 1
                        if hit < best_cnt:
                            continue
                    w = gamma[m]
                    if cornw.shape[0] > 1:
                        w *= cornw[_new_corners(c, m, forb, inlist, att_ptr, att_list)]
                    if near:
                        if hit > best_cnt:
                            best_cnt = hit
                            wsum = w
                            move = m
                            continue
                    else:
                        found += 1
                        if use_local_gamma:
                            for q in range(ncell[m]):
                                if mark[cells[m, q]] == stamp:
                                    w *= LOCAL_GAMMA
                                    break
                    wsum += w
                    rs = _step(rs)
                    if _unit(rs) * wsum < w:
                        move = m
                if not found:
                    # Every candidate left, weighted; the illegal ones are dropped on the way.
                    for g in range(ns):
                        s = seg[g]
                        for i in range(slen[c, s] - 1, -1, -1):
                            off = soff[c, s]
                            src = spool[c, s]
                            m = pool[c, off + i] if src == 1 else rlist[off + i] \
                                if src == 2 else wlist[off + i]
                            free = True
                            for q in range(ncell[m]):
                                if forb[c, cells[m, q]]:
                                    free = False
                                    break
                            if free:
                                w = gamma[m]
                                if cornw.shape[0] > 1:
                                    w *= cornw[_new_corners(c, m, forb, inlist, att_ptr,
                                                            att_list)]
                                wsum += w
                                rs = _step(rs)
                                if _unit(rs) * wsum < w:
                                    move = m
                            else:
                                top[c] = _drop(c, s, i, wlist, rlist, soff, slen, spool,
                                               pool, top[c])
            if move >= 0 or minsz == 1:
                break
            minsz = 1
        if move < 0:
            alive[c] = 0
            nu_alive -= 1
            if two and nu_alive == 1 and squares[c] < squares[1 - c]:
                break
            c = (c + 1) % n
            continue
        _place(c, move, n, forb, used, nu_played, squares, last_piece, cells, ncell, piece,
               adj_ptr, adj)
        for q in range(att_ptr[move], att_ptr[move + 1]):
            b = att_list[q]
            if not forb[c, b] and not inlist[c, b]:
                inlist[c, b] = 1
                att[c, natt[c]] = b
                natt[c] += 1
        out[c, cnt[c]] = move
        cnt[c] += 1
        if nh == 3:
            histc[0] = histc[1]
            histm[0] = histm[1]
            histc[1] = histc[2]
            histm[1] = histm[2]
            nh = 2
        histc[nh] = c
        histm[nh] = move
        nh += 1
        second = last
        last = move
        seqc[nseq] = c
        seqm[nseq] = move
        nseq += 1
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
            if alive0[c] and scores[c] > best:
                best = scores[c]
        last = none
        second = none
        for i in range(bm.shape[0]):
            if i >= context:
                c = bc[i]
                win = alive0[c] != 0 and scores[c] == best
                _learn(c, bm[i], last, second, win, rone, rtwo, key1, key2)
            second = last
            last = bm[i]
        for i in range(nseq):
            c = seqc[i]
            win = alive0[c] != 0 and scores[c] == best
            _learn(c, seqm[i], last, second, win, rone, rtwo, key1, key2)
            second = last
            last = seqm[i]
    return out, cnt, scores
