"""The solo race: one side alone on the board brings its pieces from its home to the opposite
home in as few moves as it can. A one-player puzzle, and its solvers.

A position is the set of squares the pieces stand on (a frozenset); a move is a step to an
empty neighbour or a chain of jumps over pieces (the race has no other pieces), as in the
game (`moves.destinations`). The goal: every square of the target taken.

- `ida_star(variant, start, ...)`: iterative-deepening A* with an admissible lower bound
  (`lower_bound`); when it answers, its line is proven optimal.
- `beam(variant, start, width)`: beam search, `width` positions kept a move, ordered by how
  far the pieces still have to go; a good line, not a proof.
- `bfs(variant, start)`: breadth-first search over every position (tiny cases only: the
  tests' yardstick).
- `BEST_KNOWN`: per variant, the fewest moves found from the start and how they were found
  (`scripts/solo_race.py` prints the table the figures come from).

Pure: no I/O, no clock; the callers give the budgets.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import isqrt

from .moves import destinations
from .variants import Variant

#: variant -> (moves, how it was found); `scripts/solo_race.py` reproduces each figure.
BEST_KNOWN: dict[str, tuple[int, str]] = {
    "classic-3x3": (24, "beam width 3000"),
    "classic-3x4": (27, "beam width 1000"),
    "diagonal-3x3": (15, "beam width 1000"),
    "diagonal-3x4": (16, "beam width 3000"),
    "triangle": (27, "beam width 3000"),
    "4x4": (30, "beam width 3000"),
    "halma-16x16": (76, "beam width 300"),
}
#: variant -> the best known line, its moves as from–to texts (the tests replay each one
#: through the rules).
BEST_LINES: dict[str, tuple[str, ...]] = {
    "classic-3x3": tuple((
        "c3-c4 c1-c5 c5-d5 a1-e5 e5-e6 b2-f6 f6-f7 a3-g7 b1-b2 b2-f8 a2-b2 f8-g8 b2-h8 b3-b4 "
        "b4-f8 c2-c3 g7-h7 c3-g7 c4-d4 d4-f6 d5-d6 f6-g6 d6-h6 e6-f6 "
    ).split()),
    "classic-3x4": tuple((
        "d3-d4 c2-e4 a2-e2 c1-e5 a1-e3 b3-f5 f5-f6 b1-f7 f7-g7 d1-h7 b2-b3 b3-f7 a3-b3 b3-f5 "
        "e4-g8 e2-g6 f6-h8 e3-e4 d4-f8 c3-d3 d2-h6 d3-d4 f8-e8 d4-f8 e4-e6 e5-e7 f5-f6 "
    ).split()),
    "diagonal-3x3": tuple((
        "c3-d4 a1-e5 e5-f6 a3-g7 c1-e5 a2-g6 b1-h7 b3-f7 b2-c3 c2-g8 f6-h6 d4-f8 c3-d4 d4-h8 "
        "e5-f6 "
    ).split()),
    "diagonal-3x4": tuple((
        "d3-e4 c1-e5 d1-d5 e5-f6 a2-g6 a1-e7 b1-f7 a3-g7 b2-h6 c2-g8 d2-h8 b3-h7 c3-d4 e4-e8 "
        "d4-f8 d5-e6 "
    ).split()),
    "triangle": tuple((
        "d1-d2 b1-d3 a3-e3 e3-e4 a1-e5 e5-f5 c1-g5 g5-g6 d2-h6 a2-a3 a3-g7 h6-h7 b2-h8 a4-b4 "
        "b4-h6 c2-d2 g7-f7 d2-f8 b3-c3 c3-e7 d3-e3 e3-e5 e4-g8 e5-g7 f5-g5 g5-h5 e7-e8 "
    ).split()),
    "4x4": tuple((
        "c3-c5 c4-c6 c6-d6 a4-e6 a2-e4 c1-e7 a1-e5 b3-f7 f7-g7 b1-h7 d3-f7 d1-f5 e6-f6 c2-g8 "
        "a3-a4 a4-e8 b2-b3 b3-d7 b4-c4 c4-g6 d2-d3 f5-g5 d3-h5 d6-h6 c5-d5 d4-h8 e4-e6 d5-f5 "
        "d7-d8 d8-f8 "
    ).split()),
    "halma-16x16": tuple((
        "c2-e4 b4-f4 c1-g5 a1-g3 b3-h5 e4-i6 a2-i4 d1-h7 a4-i8 d2-j8 g5-k7 b2-l8 h7-l9 c3-m9 "
        "a5-m7 d3-j7 b5-j5 e1-k9 i4-m10 l9-n11 j5-l11 j8-n12 i6-o12 i8-o10 j7-n13 m9-o13 "
        "k7-m13 k9-l9 m7-o11 l8-p12 l11-p13 a3-b4 b4-d4 c4-i6 e2-e3 d4-j6 e3-k7 m10-m11 "
        "i6-o14 f4-g4 g4-m14 g3-g4 g4-m12 h5-i6 i6-m10 j6-p14 k7-l8 l8-n14 m13-o15 n11-p11 "
        "l9-p15 b1-c2 c2-d3 d3-e4 e4-f5 f5-g6 g6-h7 h7-i8 i8-j9 j9-k10 k10-l11 l11-n15 "
        "m11-m15 m10-n11 o14-o16 m12-m16 o10-o14 n13-l15 n11-n13 l15-l16 n14-n16 n12-p16 "
        "n13-n14 p11-l15 o11-p11 p11-n13 "
    ).split()),
}

Position = frozenset


def start(variant: Variant) -> frozenset[int]:
    """The solo race's start: the pieces on the home of seat 1 (white)."""
    return frozenset(variant.home(1))


def goal(variant: Variant) -> frozenset[int]:
    return frozenset(variant.target(1))


def _size(variant: Variant) -> int:
    return isqrt(len(variant.neighbours))


def moves(variant: Variant, pieces: frozenset[int]) -> Iterable[tuple[int, int]]:
    """Every move of the position as (from, to), from squares ascending."""
    board = [0] * len(variant.neighbours)
    for p in pieces:
        board[p] = 1
    neighbours, jumps = variant.neighbours, variant.jumps
    for f in sorted(pieces):
        for t in destinations(board, f, neighbours, jumps):
            yield f, t


def after(pieces: frozenset[int], move: tuple[int, int]) -> frozenset[int]:
    f, t = move
    return (pieces - {f}) | {t}


# -- a lower bound on the moves left ----------------------------------------------------------


def _parity_classes(variant: Variant, squares: Iterable[int]) -> list[int]:
    """How many of `squares` stand on each of the four (column, row) parity classes."""
    size = _size(variant)
    counts = [0, 0, 0, 0]
    for s in squares:
        counts[(s % size) % 2 * 2 + (s // size) % 2] += 1
    return counts


def lower_bound(variant: Variant, pieces: frozenset[int], target: frozenset[int]) -> int:
    """Moves still needed at least: every piece outside the target moves once or more, and
    the pieces' (column, row) parity classes must become the target's: a jump keeps both
    parities, so each piece too many on a class needs a step of its own."""
    outside = len(pieces - target)
    if not outside:
        return 0
    have, need = _parity_classes(variant, pieces), _parity_classes(variant, target)
    steps = sum(max(0, h - n) for h, n in zip(have, need, strict=True))
    return max(outside, steps)


# -- searches ---------------------------------------------------------------------------------


def bfs(variant: Variant, origin: frozenset[int] | None = None,
        limit: int = 2_000_000) -> list[tuple[int, int]] | None:
    """The shortest line by breadth-first search over positions (None past `limit`
    positions)."""
    origin = start(variant) if origin is None else origin
    target = goal(variant)
    parent: dict[frozenset[int], tuple[frozenset[int], tuple[int, int]] | None] = {origin: None}
    frontier = [origin]
    while frontier:
        following = []
        for pos in frontier:
            if pos == target:
                return _line(parent, pos)
            for mv in moves(variant, pos):
                nxt = after(pos, mv)
                if nxt not in parent:
                    parent[nxt] = (pos, mv)
                    following.append(nxt)
                    if len(parent) > limit:
                        return None
        frontier = following
    return None


def _line(parent, pos) -> list[tuple[int, int]]:
    line = []
    while parent[pos] is not None:
        pos, mv = parent[pos]
        line.append(mv)
    line.reverse()
    return line


def ida_star(variant: Variant, origin: frozenset[int] | None = None, *,
             max_nodes: int = 2_000_000, max_depth: int = 200) -> list[tuple[int, int]] | None:
    """A shortest line by iterative-deepening A* with `lower_bound` (admissible, so the line
    is optimal), or None once `max_nodes` positions were expanded without an answer."""
    origin = start(variant) if origin is None else origin
    search = _Ida(variant, goal(variant), max_nodes)
    bound = lower_bound(variant, origin, search.target)
    while bound <= max_depth:
        search.seen = {}
        search.smallest = None
        try:
            if search.dive(origin, 0, bound):
                return search.path
        except _OutOfNodes:
            return None
        if search.smallest is None:
            return None
        bound = search.smallest
    return None


class _Ida:
    """One iterative-deepening A* search: the depth-first dive under a bound."""

    def __init__(self, variant: Variant, target: frozenset[int], max_nodes: int) -> None:
        self.variant, self.target, self.max_nodes = variant, target, max_nodes
        self.nodes = 0
        self.path: list[tuple[int, int]] = []
        self.seen: dict[frozenset[int], int] = {}
        self.smallest: int | None = None

    def dive(self, pos: frozenset[int], g: int, bound: int) -> bool:
        if pos == self.target:
            return True
        f = g + lower_bound(self.variant, pos, self.target)
        if f > bound:
            if self.smallest is None or f < self.smallest:
                self.smallest = f
            return False
        if self.seen.get(pos, 1 << 30) <= g:
            return False
        self.seen[pos] = g
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
        for mv in moves(self.variant, pos):
            self.path.append(mv)
            if self.dive(after(pos, mv), g + 1, bound):
                return True
            self.path.pop()
        return False


class _OutOfNodes(Exception):
    pass


def _distance(variant: Variant, p: int, q: int) -> int:
    size = _size(variant)
    dc, dr = abs(p % size - q % size), abs(p // size - q // size)
    return max(dc, dr) if variant.diagonal else dc + dr


def _scorer(variant: Variant, target: frozenset[int]):
    """How far a position is from the goal, for the beam's order: per piece its distance to
    the nearest target square (twice) plus its distance to the target's far corner, less the
    target's own total (0 when the target is filled)."""
    n = len(variant.neighbours)
    corner = max(target, key=lambda s: _distance(variant, s, 0))
    near = [min(_distance(variant, s, t) for t in target) for s in range(n)]
    far = [_distance(variant, s, corner) for s in range(n)]
    base = sum(far[t] for t in target)
    table = [2 * near[s] + far[s] for s in range(n)]
    return lambda pieces: sum(table[p] for p in pieces) - base


def beam(variant: Variant, origin: frozenset[int] | None = None, width: int = 100,
         max_depth: int = 400) -> list[tuple[int, int]] | None:
    """A line to the goal by beam search: each move, every position reached from the kept
    ones that the search has not met before, the `width` nearest the goal kept (ties by the
    order found). None if the beam dies or runs past `max_depth` moves. It keeps the current
    layer with each position's line as a linked list, and the hash of every position met
    (never met again: the beam cannot go round in circles, and moves on)."""
    origin = start(variant) if origin is None else origin
    target = goal(variant)
    if origin == target:
        return []
    score = _scorer(variant, target)
    layer: list[tuple[frozenset[int], tuple | None]] = [(origin, None)]
    met: set[int] = {hash(origin)}
    for _ in range(max_depth):
        candidates = []
        for pos, line in layer:
            for mv in moves(variant, pos):
                nxt = after(pos, mv)
                key = hash(nxt)
                if key in met:
                    continue
                met.add(key)
                if nxt == target:
                    return _unlink((mv, line))
                candidates.append((score(nxt), len(candidates), nxt, (mv, line)))
        if not candidates:
            return None
        candidates.sort(key=lambda c: (c[0], c[1]))
        layer = [(c[2], c[3]) for c in candidates[:width]]
    return None


def _unlink(node) -> list[tuple[int, int]]:
    out = []
    while node is not None:
        mv, node = node
        out.append(mv)
    out.reverse()
    return out


def best_move(variant: Variant, pieces: frozenset[int], width: int = 50
              ) -> tuple[int, int] | None:
    """A good next move for the race from `pieces` (the first of a beam search's line)."""
    line = beam(variant, frozenset(pieces), width=width)
    return line[0] if line else None
