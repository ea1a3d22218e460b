"""A mutable, fast Corner Claim position: the board, each colour's forbidden cells and corners.

This is the hot core used by the rules fold, the bots and playouts. It knows nothing of seats
leaving, events or turns taken back; `engine.cornerclaim` builds those on top. Colours are
0-based here (`color`), seats are 1-based everywhere else.

Move generation follows Pentobi's idea of precomputed move lists: a legal move must cover one
of the colour's attach points (open corners), so we only look at placements covering those
cells. For each attach point the candidates are narrowed by the pattern of forbidden cells in
the window around it (cached per board size and pattern), then each survivor is tested
with a single AND of its mask against the colour's forbidden mask, which also holds one bit
per piece already played. A placement covering several attach points is only listed under the
lowest one: the lower attach points are added to the forbidden mask as we go.
"""

from __future__ import annotations

from bisect import bisect_right

from .board import BoardConst
from .pieces import NU_PIECES, PIECES, SINGLE
from .variants import VARIANTS, Variant

_PIECE_SIZES = tuple(p.size for p in PIECES)


class MoveTables:
    """Per board size: candidate moves per (attach point, forbidden window), built lazily.

    The window is the (2r+1)×(2r+1) square around the attach point. A wide window (r=2)
    prunes more candidates, which suits listing every legal move; a narrow one (r=1) has at
    most 256 patterns per cell, so its cache fills quickly and stays small, which suits
    random playouts that see ever new patterns.

    With a `limit`, the cache is bounded by generations: when it holds `limit` entries it
    becomes the old generation and a new one starts; a miss looks in the old one before
    computing, so the patterns in use survive and at most 2 × `limit` entries are kept. The
    wide tables are bounded at 10,000 (room for every position of the benchmark suite); the
    host bounds the small window too (`bound_small_window`), since its party may run for
    days.
    """

    def __init__(self, bc: BoardConst, radius: int, limit: int | None = None) -> None:
        self.bc = bc
        s = bc.stride
        side = 2 * radius + 1
        self.window = sum(((1 << side) - 1) << (row * s) for row in range(side))
        self.window_shift = radius * (s + 1)
        self.limit = limit
        self.cache: dict[int, tuple[int, ...]] = {}
        self.old: dict[int, tuple[int, ...]] = {}

    def candidates(self, a: int, w: int) -> tuple[int, ...]:
        """Moves covering bit `a` that avoid the forbidden cells `w` of its window. Cached.

        A miss is one pass over every move covering `a`. (Filtering the entry for `w` less
        one cell instead costs as much CPU on a host's mix of games and caches every
        parent pattern on the way: twice the entries and memory.)
        """
        key = (w << 10) | a
        c = self.cache.get(key)
        if c is None:
            c = self.old.get(key)
            if c is None:
                if not w:
                    c = self.bc.covers[a]
                else:
                    blocked = w << (a - self.window_shift)
                    cm = self.bc.move_cells_mask
                    c = tuple([m for m in self.bc.covers[a] if not cm[m] & blocked])
            if self.limit is not None and len(self.cache) >= self.limit:
                self.old = self.cache
                self.cache = {}
            self.cache[key] = c
        return c


_TABLES: dict[tuple[int, int], MoveTables] = {}
WIDE_CACHE_LIMIT = 10_000


def move_tables(size: int, radius: int = 2) -> MoveTables:
    """The shared tables for a board size and window radius."""
    t = _TABLES.get((size, radius))
    if t is None:
        limit = WIDE_CACHE_LIMIT if radius > 1 else None
        t = _TABLES[(size, radius)] = MoveTables(BoardConst.get(size), radius, limit)
    return t


def bound_small_window(limit: int | None) -> None:
    """Bound every board size's small-window cache at 2 × `limit` entries (None: unbounded,
    the default, which suits searches). A long-running host calls this at start."""
    for size in {v.size for v in VARIANTS.values()}:
        move_tables(size, 1).limit = limit


class Position:
    """Board and per-colour masks. Copy with `copy()`; `play()` mutates.

    - `occupied[c]`: cells of colour c.
    - `forbidden[c]`: cells colour c may not cover (any occupied cell, cells edge-next to c)
      plus the piece bits of pieces c has played.
    - `corners[c]`: cells diagonal to c's pieces; attach points are `corners & ~forbidden`.
    """

    __slots__ = (
        "variant", "bc", "tables", "narrow", "nu_colors", "occupied", "forbidden", "corners",
        "start_bit", "nu_played", "last_piece", "squares_placed",
    )

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.bc = bc = BoardConst.get(variant.size)
        self.tables = move_tables(variant.size, 2)
        self.narrow = move_tables(variant.size, 1)
        self.nu_colors = n = variant.nu_seats
        self.occupied = [0] * n
        self.forbidden = [0] * n
        self.corners = [0] * n
        self.start_bit = tuple(1 << bc.bit(x, y) for x, y in variant.starts)
        self.nu_played = [0] * n
        self.last_piece = [-1] * n
        self.squares_placed = [0] * n

    def copy(self) -> Position:
        p = Position.__new__(Position)
        p.variant, p.bc, p.tables, p.nu_colors = self.variant, self.bc, self.tables, self.nu_colors
        p.narrow = self.narrow
        p.start_bit = self.start_bit
        p.occupied = self.occupied[:]
        p.forbidden = self.forbidden[:]
        p.corners = self.corners[:]
        p.nu_played = self.nu_played[:]
        p.last_piece = self.last_piece[:]
        p.squares_placed = self.squares_placed[:]
        return p

    def key(self) -> tuple:
        """Everything that makes two positions the same (for equality checks in tests)."""
        return (
            self.variant.name, tuple(self.occupied), tuple(self.forbidden),
            tuple(self.corners), tuple(self.nu_played), tuple(self.last_piece),
        )

    # -- queries ---------------------------------------------------------------------------
    def attach_points(self, color: int) -> int:
        """Mask of the cells `color` may build from now (its open corners)."""
        if self.nu_played[color]:
            return self.corners[color] & ~self.forbidden[color]
        return self.start_bit[color] & ~self.forbidden[color]

    def legal_moves(self, color: int, *, narrow: bool = False) -> list[int]:
        """Every legal move of `color`, each once. ~10–30 µs on real positions.

        `narrow` uses the small-window tables (for playouts, whose positions are too varied
        for the wide cache to pay off).
        """
        forb = self.forbidden[color]
        if self.nu_played[color]:
            att = self.corners[color] & ~forb
        else:
            att = self.start_bit[color] & ~forb
        tables = self.narrow if narrow else self.tables
        cache = tables.cache
        window = tables.window
        wshift = tables.window_shift
        mm = self.bc.move_mask
        groups = []
        f = forb
        while att:
            low = att & -att
            att ^= low
            a = low.bit_length() - 1
            cands = cache.get((((forb >> (a - wshift)) & window) << 10) | a)
            if cands is None:
                cands = tables.candidates(a, (forb >> (a - wshift)) & window)
            groups.append((cands, f))
            f |= low
        # One comprehension for all attach points: a call per group costs more than the loop.
        return [m for cands, f in groups for m in cands if not mm[m] & f]

    def random_move(self, color: int, random, *, tries: int | None = None) -> int | None:
        """A uniformly random legal move of `color`, or None when it has none.

        `random` is a `random.Random().random` bound method. Draws a candidate uniformly from
        the attach points' candidate lists taken together; a legal draw covering k attach
        points is kept with probability 1/k, which makes every legal move equally likely.
        When `tries` draws were rejected (late in a game most candidates are pieces already
        used; by default about one draw per 8 candidates), it lists the legal moves from the
        same lists and draws from those. A move costs a few µs instead of a full generation.
        """
        forb = self.forbidden[color]
        if self.nu_played[color]:
            att = self.corners[color] & ~forb
        else:
            att = self.start_bit[color] & ~forb
        tables = self.narrow
        cache = tables.cache
        window = tables.window
        wshift = tables.window_shift
        lists = []
        bounds = []
        total = 0
        rest = att
        while rest:
            low = rest & -rest
            rest ^= low
            a = low.bit_length() - 1
            cands = cache.get((((forb >> (a - wshift)) & window) << 10) | a)
            if cands is None:
                cands = tables.candidates(a, (forb >> (a - wshift)) & window)
            total += len(cands)
            lists.append(cands)
            bounds.append(total)
        if not total:
            return None
        bc = self.bc
        mm = bc.move_mask
        if tries is None:
            # Rent or buy: a rejected draw costs about as much as checking 8 candidates, so
            # draw up to total/8 times before paying for the full list (at most twice the
            # better of the two, whatever the acceptance rate).
            tries = 4 + (total >> 3)
        cm = bc.move_cells_mask
        for _ in range(tries):
            r = int(random() * total)
            i = bisect_right(bounds, r)
            m = lists[i][r - bounds[i - 1]] if i else lists[0][r]
            if mm[m] & forb:
                continue
            k = (cm[m] & att).bit_count()
            if k == 1 or random() * k < 1.0:
                return m
        # Each move once: under the lowest attach point it covers (see legal_moves). The
        # lists are in attach-point order, so `f` grows by each attach point's bit in turn.
        moves = []
        f = forb
        rest = att
        for cands in lists:
            low = rest & -rest
            rest ^= low
            moves += [m for m in cands if not mm[m] & f]
            f |= low
        return moves[int(random() * len(moves))] if moves else None

    def has_moves(self, color: int) -> bool:
        """Whether `color` has any legal move (stops at the first).

        Uses the small-window tables. The rules call this for every seat on every event, on
        positions as varied as the games a host is running; the wide tables' bounded cache
        misses there (docs/performance.md has the figures).
        """
        forb = self.forbidden[color]
        att = self.attach_points(color)
        tables = self.narrow
        mm = self.bc.move_mask
        while att:
            low = att & -att
            att ^= low
            a = low.bit_length() - 1
            for m in tables.candidates(a, (forb >> (a - tables.window_shift)) & tables.window):
                if not mm[m] & forb:
                    return True
        return False

    def is_legal(self, color: int, move: int) -> bool:
        """Whether `move` is legal for `color` now (O(1))."""
        bc = self.bc
        if bc.move_mask[move] & self.forbidden[color]:
            return False
        return bool(bc.move_cells_mask[move] & self.attach_points(color))

    def pieces_left(self, color: int) -> list[int]:
        forb = self.forbidden[color]
        return [i for i, b in enumerate(self.bc.piece_bit) if not forb & b]

    def all_placed(self, color: int) -> bool:
        return self.nu_played[color] == NU_PIECES

    def score(self, color: int) -> int:
        """−1 per square in hand; 15 for all 21 placed, 20 if the single square came last."""
        if self.nu_played[color] == NU_PIECES:
            return 20 if self.last_piece[color] == SINGLE else 15
        return self.squares_placed[color] - sum(_PIECE_SIZES)

    def points(self, color: int) -> int:
        """Pentobi's count: squares placed, +15 for all pieces, +5 more for the single last."""
        bonus = 0
        if self.nu_played[color] == NU_PIECES:
            bonus = 20 if self.last_piece[color] == SINGLE else 15
        return self.squares_placed[color] + bonus

    # -- change ----------------------------------------------------------------------------
    def play(self, color: int, move: int) -> None:
        """Place `move` for `color`. Precondition: `is_legal(color, move)`."""
        bc = self.bc
        cells = bc.move_cells_mask[move]
        forbidden = self.forbidden
        for c in range(self.nu_colors):
            forbidden[c] |= cells
        s = bc.stride
        on = bc.on_board
        edge = ((cells << 1) | (cells >> 1) | (cells << s) | (cells >> s)) & on
        diag = (cells << (s + 1)) | (cells << (s - 1)) | (cells >> (s + 1)) | (cells >> (s - 1))
        piece = bc.move_piece[move]
        forbidden[color] |= edge | bc.piece_bit[piece]
        self.corners[color] |= diag & on & ~edge & ~cells
        self.occupied[color] |= cells
        self.nu_played[color] += 1
        self.last_piece[color] = piece
        self.squares_placed[color] += _PIECE_SIZES[piece]

