"""The race at the end of a Corners game: once the two sides can no longer touch, each side's
fill is a solo race (`solo.py`), and who fills first (with black's reply rule) decides.

The sides are apart when every white piece is further along the race direction (row plus
column, from a1 towards h8) than every black piece: a piece can then meet one of the other
side only by going back. Each side's race is measured in white's frame (black's squares
point-mirrored), as a range of moves: at least `solo.lower_bound`, at most the length of a
line found (a narrow beam, then iterative-deepening A* within a small node budget, whose
answer is exact). A range of one is exact.

Pure: no I/O, no clock; the callers give the budgets. The ranges found are kept per variant
and position (a table cleared past a size).
"""

from __future__ import annotations

from math import isqrt

from .solo import _Ida, _OutOfNodes, beam, lower_bound

#: (variant, pieces in white's frame) -> (least moves, most moves, a line of that many)
_SEEN: dict[tuple[str, frozenset[int]], tuple[int, int, tuple]] = {}
SEEN_ENTRIES = 100_000
#: The beam's width and IDA*'s node budget for a race met inside the search (small: it
#: runs at many nodes), and at the root (once a move).
LEAF_WIDTH, LEAF_NODES = 4, 100
ROOT_WIDTH, ROOT_NODES = 60, 1_000
#: Boards above this many squares (Halma's 256) get the leaves' budget at the root as well: a
#: root's beam of 60 over nineteen pieces takes seconds there.
ROOT_SQUARES = 64


def root_budget(variant) -> tuple[int, int]:
    """The beam's width and IDA*'s node budget for the race at the root on `variant`."""
    if variant.squares > ROOT_SQUARES:
        return LEAF_WIDTH, LEAF_NODES
    return ROOT_WIDTH, ROOT_NODES


#: IDA* runs only where the line found is at most this many moves above the lower bound.
CLOSE = 2


def apart(variant, board) -> bool:
    """Whether every white piece is further along the race than every black piece (and
    neither side still has a piece at home, where the deadline would count)."""
    size = isqrt(len(board))
    low_white, high_black = 1 << 30, -1
    for q, v in enumerate(board):
        if v == 1:
            p = q // size + q % size
            if p < low_white:
                low_white = p
        elif v == 2:
            p = q // size + q % size
            if p > high_black:
                high_black = p
    if low_white <= high_black:
        return False
    homes = variant.homes
    return not any(board[q] == 1 for q in homes[0]) and \
        not any(board[q] == 2 for q in homes[1])


def frame(variant, board, seat: int) -> frozenset[int]:
    """`seat`'s pieces in white's frame (black's squares point-mirrored)."""
    if seat == 1:
        return frozenset(q for q, v in enumerate(board) if v == 1)
    last = len(board) - 1
    return frozenset(last - q for q, v in enumerate(board) if v == 2)


def solo_range(variant, pieces: frozenset[int], width: int = LEAF_WIDTH,
               nodes: int = LEAF_NODES) -> tuple[int, int, tuple]:
    """(least, most, line): the moves the solo race from `pieces` (white's frame) needs at
    least and at most, and a line of `most` moves (exact when least == most)."""
    key = (variant.name, pieces)
    got = _SEEN.get(key)
    if got is not None and (got[0] == got[1] or (width <= LEAF_WIDTH and nodes <= LEAF_NODES)):
        return got
    target = variant.target(1)
    least = lower_bound(variant, pieces, frozenset(target))
    best = got[2] if got is not None else None
    line = beam(variant, pieces, width=width)
    if line is not None and (best is None or len(line) < len(best)):
        best = tuple(line)
    if best is None or least < len(best) <= least + CLOSE or nodes > LEAF_NODES:
        least, found = _deepen(variant, pieces, least, len(best) if best else 1 << 20, nodes)
        if found is not None:
            best = found
    if best is None:  # no line at all (cannot happen on an open board): no bound above
        best, most = (), 1 << 20
    else:
        most = len(best)
    if len(_SEEN) > SEEN_ENTRIES:
        _SEEN.clear()
    got = (least, most, best)
    _SEEN[key] = got
    return got


def _deepen(variant, pieces: frozenset[int], least: int, most: int, nodes: int):
    """Iterative-deepening A* (`solo`'s dive) from `pieces` under bounds from `least` up,
    below `most` (a line of `most` moves is known), within `nodes` positions: (the least
    number of moves proven, a shortest line or None)."""
    search = _Ida(variant, frozenset(variant.target(1)), nodes)
    bound = least
    while bound < most:
        search.seen = {}
        search.smallest = None
        try:
            if search.dive(pieces, 0, bound):
                return len(search.path), tuple(search.path)
        except _OutOfNodes:
            return bound, None
        if search.smallest is None:
            return most, None
        bound = search.smallest  # no line of `bound` moves: at least the next
    return most, None


def winner(white: int, black: int, white_to_move: bool) -> int:
    """Who wins a race in which white needs `white` moves and black `black` (0: a draw).
    White filling first lets black reply with its move of the same number."""
    if white_to_move:
        if black < white:
            return 2
        return 0 if black == white else 1
    if black <= white:
        return 2
    return 0 if black == white + 1 else 1


def decide(variant, board, plies: int, width: int = LEAF_WIDTH, nodes: int = LEAF_NODES):
    """For a position whose sides are apart: (winner or None if the ranges do not decide it,
    white's range, black's range, the plies until the game ends at the latest), or None if
    the move limit could come first (the race does not decide then)."""
    w_lo, w_hi, _ = solo_range(variant, frame(variant, board, 1), width, nodes)
    b_lo, b_hi, _ = solo_range(variant, frame(variant, board, 2), width, nodes)
    white_to_move = plies % 2 == 0
    number = plies // 2 + 1
    if number + max(w_hi, b_hi) > variant.limit:
        return None
    best = winner(w_lo, b_hi, white_to_move)  # the best case for white
    worst = winner(w_hi, b_lo, white_to_move)
    decided = best if best == worst else None
    end = 2 * min(w_hi, b_hi) + 1
    return decided, (w_lo, w_hi), (b_lo, b_hi), end
