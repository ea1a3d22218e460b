"""Precomputed geometry of one board size, shared by every game on it (Pentobi's `BoardConst`).

Cells are bits of a Python int. Rows are `stride = size + 1` bits apart, so bit `size` of every
row is padding: shifting a cell mask by 1 (left/right) or by `stride ± 1` (diagonals) never
wraps a cell onto the far edge of the board, because a wrapped bit lands on padding and is
masked off by `on_board`. The board starts at bit `origin = 2 * stride + 2`, so a 5×5 window
around any cell starts at a non-negative bit.

A move is an int: an index into the placement tables. `move_mask[m]` holds the cells of the
placement plus one bit per piece above the board (`piece_bit`), so one AND against a seat's
"forbidden" mask (occupied cells, cells next to its own colour, pieces it already used) tests
the whole placement at once.
"""

from __future__ import annotations

from functools import cache

from .notation import cell_name
from .pieces import PIECES


class BoardConst:
    """Every placement of every orientation on a `size` × `size` board.

    Build with `BoardConst.get(size)`; one instance per size is kept for the process.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.stride = stride = size + 1
        self.origin = origin = 2 * stride + 2
        row = (1 << size) - 1
        self.on_board = sum(row << (origin + y * stride) for y in range(size))
        self.piece_base = origin + (size + 3) * stride
        self.piece_bit = tuple(1 << (self.piece_base + p.index) for p in PIECES)
        move_mask: list[int] = []
        move_cells_mask: list[int] = []
        move_piece: list[int] = []
        move_anchor: list[tuple[int, int, int]] = []  # (orientation key, x, y)
        covers: list[list[int]] = [[] for _ in range(self.piece_base)]
        by_mask: dict[int, int] = {}
        for piece in PIECES:
            pbit = self.piece_bit[piece.index]
            for o, shape in enumerate(piece.orientations):
                rel = sum(1 << (x + y * stride) for x, y in shape)
                offsets = [x + y * stride for x, y in shape]
                w = 1 + max(x for x, _ in shape)
                h = 1 + max(y for _, y in shape)
                for y in range(size - h + 1):
                    base = origin + y * stride
                    for x in range(size - w + 1):
                        shift = base + x
                        cells = rel << shift
                        m = len(move_mask)
                        move_mask.append(cells | pbit)
                        move_cells_mask.append(cells)
                        move_piece.append(piece.index)
                        move_anchor.append((o, x, y))
                        by_mask[cells] = m
                        for off in offsets:
                            covers[shift + off].append(m)
        self.move_mask = tuple(move_mask)
        self.move_cells_mask = tuple(move_cells_mask)
        self.move_piece = tuple(move_piece)
        self._move_anchor = move_anchor
        self.covers = tuple(tuple(c) for c in covers)
        self.move_by_cells_mask = by_mask
        self.nu_moves = len(move_mask)
        self._move_str: list[str | None] = [None] * len(move_mask)

    @staticmethod
    @cache
    def get(size: int) -> BoardConst:
        """The shared instance for this size (built on first use)."""
        return BoardConst(size)

    # -- cells -------------------------------------------------------------------------
    def bit(self, x: int, y: int) -> int:
        """Bit index of cell (x, y)."""
        return self.origin + y * self.stride + x

    def xy(self, bit: int) -> tuple[int, int]:
        """Cell (x, y) of a bit index."""
        y, x = divmod(bit - self.origin, self.stride)
        return x, y

    def on(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def mask_of(self, cells) -> int:
        """Cells (x, y) -> mask; precondition: all on the board."""
        return sum(1 << self.bit(x, y) for x, y in cells)

    def cells_of(self, mask: int) -> list[tuple[int, int]]:
        """Mask -> cells (x, y), lowest bit first (row by row from a1)."""
        out = []
        mask &= self.on_board
        while mask:
            low = mask & -mask
            out.append(self.xy(low.bit_length() - 1))
            mask ^= low
        return out

    def cell_names(self, mask: int) -> list[str]:
        return [cell_name(x, y) for x, y in self.cells_of(mask)]

    def edge_neighbours(self, mask: int) -> int:
        """Cells sharing an edge with `mask`, excluding `mask` itself. O(1) big-int ops."""
        s = self.stride
        return ((mask << 1) | (mask >> 1) | (mask << s) | (mask >> s)) & self.on_board & ~mask

    def diagonal_neighbours(self, mask: int) -> int:
        """Cells touching `mask` only at a corner (not along an edge, not in it)."""
        s = self.stride
        d = (mask << (s + 1)) | (mask << (s - 1)) | (mask >> (s + 1)) | (mask >> (s - 1))
        return d & self.on_board & ~mask & ~self.edge_neighbours(mask)

    # -- moves -------------------------------------------------------------------------
    def move_cells(self, move: int) -> list[tuple[int, int]]:
        return self.cells_of(self.move_cells_mask[move])

    def move_to_str(self, move: int) -> str:
        """Canonical notation: cells by row, then column (Pentobi's order). Memoised."""
        text = self._move_str[move]
        if text is None:
            text = self._move_str[move] = ",".join(self.cell_names(self.move_cells_mask[move]))
        return text

    def move_orientation(self, move: int) -> tuple[int, int, int]:
        """(orientation index, x, y of the orientation's bounding box corner)."""
        return self._move_anchor[move]
