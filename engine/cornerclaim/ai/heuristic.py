"""A one-ply judgement of a placement, the way the rules' tips put it: big pieces first, count
your corners, take the opponents' corners away, head for the middle early.

Used to order the children of a search node (progressive widening looks at the best first)
and by the greedy beginner levels. About 2 µs a move.
"""

from __future__ import annotations

from ..pieces import SINGLE
from .tables import move_facts

W_SIZE = 1.0
W_NEW_CORNER = 0.7
W_BLOCK = 1.2
W_CENTRE = 0.35
W_EARLY_SINGLE = 4.0


def opponents_attach(pos, color: int) -> int:
    """Union of the attach points of every other colour."""
    mask = 0
    for c in range(pos.nu_colors):
        if c != color:
            mask |= pos.attach_points(c)
    return mask


def early_moves(pos) -> int:
    """How many placements count as the opening (centre matters) on this board."""
    return 4 if pos.bc.size <= 14 else 7


def score_moves(pos, color: int, moves: list[int]) -> list[float]:
    """A score per move (higher is better) for `color` in `pos`; O(len(moves))."""
    mf = move_facts(pos.bc.size)
    cm = pos.bc.move_cells_mask
    move_piece = pos.bc.move_piece
    attach, size, centre = mf.attach, mf.size, mf.centre
    forb = pos.forbidden[color]
    old = pos.corners[color] | forb
    opp = opponents_attach(pos, color)
    w_centre = W_CENTRE if pos.nu_played[color] < early_moves(pos) else 0.0
    single_penalty = W_EARLY_SINGLE if pos.nu_played[color] < 18 else 0.0
    out = []
    for m in moves:
        new = (attach[m] & ~old).bit_count()
        cells = cm[m]
        s = W_SIZE * size[m] + W_NEW_CORNER * new + W_BLOCK * (cells & opp).bit_count()
        s -= w_centre * centre[m]
        if move_piece[m] == SINGLE:
            s -= single_penalty
        out.append(s)
    return out
