"""Per-board-size move facts the computer players read in their hot loops.

Like `board.BoardConst`, these are computed once per board size and shared: for every
move id, the cells edge-next to it (`adj`), the cells it opens as corners (`attach`: diagonal
to it, not edge-next, on the board), its size, a static playout weight (`gamma`, Pentobi's
idea: bigger pieces and pieces with more corners first), two distances from its closest
square to the board centre (`centre`, in king steps, for the heuristic's pull to the middle;
`dist`, Euclidean, for the big board's race to the middle) and its point mirror (Duo's
mirror-draw check). Building the tables for the 20×20 board takes about 0.3 s the first
time a process needs them.
"""

from __future__ import annotations

import math
from functools import cache

from ..board import BoardConst
from ..pieces import PIECES

# Playout weight factors per square and per corner the piece can open (tuned by hand, in the
# spirit of Pentobi's duo/classic factors).
SIZE_FACTOR = 3.0
ATTACH_FACTOR = 1.6
DIST_NEAR = 2.0  # distances to the centre below this count as this (`MoveFacts.dist`)


class MoveFacts:
    """Immutable per-move arrays for one board size (index = move id)."""

    def __init__(self, size: int) -> None:
        self.bc = bc = BoardConst.get(size)
        s = bc.stride
        on = bc.on_board
        adj: list[int] = []
        attach: list[int] = []
        centre: list[float] = []
        dist: list[float] = []
        mid = (size - 1) / 2
        for cells in bc.move_cells_mask:
            edge = ((cells << 1) | (cells >> 1) | (cells << s) | (cells >> s)) & on & ~cells
            diag = (cells << (s + 1)) | (cells << (s - 1)) | (cells >> (s + 1)) | (cells >> (s - 1))
            adj.append(edge)
            attach.append(diag & on & ~edge & ~cells)
            xy = bc.cells_of(cells)
            centre.append(min(max(abs(x - mid), abs(y - mid)) for x, y in xy))
            # Cells within 2 of the centre count as in it (all four centre squares are equal).
            dist.append(max(DIST_NEAR, min(math.hypot(x - mid, y - mid) for x, y in xy)))
        self.adj = tuple(adj)
        self.attach = tuple(attach)
        self.centre = tuple(centre)
        self.dist = tuple(dist)
        self.size = tuple(PIECES[p].size for p in bc.move_piece)
        piece_attach = [0] * len(PIECES)
        for m, a in enumerate(attach):
            p = bc.move_piece[m]
            piece_attach[p] = max(piece_attach[p], a.bit_count())
        self.piece_attach = tuple(piece_attach)
        self.gamma = tuple(
            SIZE_FACTOR ** self.size[m] * ATTACH_FACTOR ** (piece_attach[bc.move_piece[m]] - 1)
            for m in range(bc.nu_moves)
        )
        self.mirror = tuple(self._mirror(m, size) for m in range(bc.nu_moves))

    def _mirror(self, move: int, size: int) -> int:
        bc = self.bc
        cells = [(size - 1 - x, size - 1 - y) for x, y in bc.move_cells(move)]
        return bc.move_by_cells_mask[bc.mask_of(cells)]

    def mirror_mask(self, mask: int) -> int:
        """The point mirror of a cell mask (slow; for occasional symmetry checks)."""
        bc = self.bc
        n = bc.size
        return bc.mask_of([(n - 1 - x, n - 1 - y) for x, y in bc.cells_of(mask)])


@cache
def move_facts(size: int) -> MoveFacts:
    """The shared `MoveFacts` for a board size (built on first use)."""
    return MoveFacts(size)
