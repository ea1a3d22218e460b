"""A one-ply greedy player: biggest piece first, then most new corners for itself and most
corners taken from the others; ties broken by a seeded random draw."""

from __future__ import annotations

import random

from ..pieces import PIECES


def greedy_move(pos, color: int, *, seed: int | None = None) -> int | None:
    moves = pos.legal_moves(color)
    if not moves:
        return None
    rnd = random.Random(seed)
    bc = pos.bc
    others = [c for c in range(pos.nu_colors) if c != color]
    their_corners = 0
    for c in others:
        their_corners |= pos.attach_points(c)
    own_forb = pos.forbidden[color]
    best, best_key = None, None
    for m in moves:
        cells = bc.move_cells_mask[m]
        size = PIECES[bc.move_piece[m]].size
        new_corners = bc.diagonal_neighbours(cells) & ~own_forb & ~bc.edge_neighbours(cells)
        corners = new_corners.bit_count() + 2 * (cells & their_corners).bit_count()
        key = (size, corners, rnd.random())
        if best_key is None or key > best_key:
            best, best_key = m, key
    return best
