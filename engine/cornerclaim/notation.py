"""Pentobi's move notation: cells as column letter + row number, a1 at the bottom left.

`e9,d10,e10,f10,e11` is a plus-shaped piece. Parsing accepts any cell order and surrounding
blanks; printing gives one canonical order (by row, then column, as Pentobi writes them).
"""

from __future__ import annotations

import re

from ..errors import NotationError

_CELL = re.compile(r"([a-zA-Z])([0-9]{1,2})")
COLUMNS = "abcdefghijklmnopqrstuvwxyz"


def cell_name(x: int, y: int) -> str:
    """`(0, 0)` -> `a1`."""
    return f"{COLUMNS[x]}{y + 1}"


def parse_cell(text: str) -> tuple[int, int]:
    """`a1` -> `(0, 0)`; raises NotationError for anything else."""
    m = _CELL.fullmatch(text.strip())
    if not m or int(m.group(2)) == 0:
        raise NotationError(f"'{text.strip()}' is not a cell like e10 (column letter, row number)")
    return COLUMNS.index(m.group(1).lower()), int(m.group(2)) - 1


def parse_cells(text: str) -> tuple[tuple[int, int], ...]:
    """`e9,d10,...` -> cells in the order given; rejects empty parts and repeats."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("a move is its cells separated by commas, like e9,d10,e10,f10,e11")
    if len(text) > 64:
        raise NotationError("a move has at most five cells")
    cells = tuple(parse_cell(part) for part in text.split(","))
    if len(set(cells)) != len(cells):
        raise NotationError(f"'{text}' names a cell twice")
    return cells


def format_cells(cells) -> str:
    """Cells -> canonical text, sorted by row then column."""
    return ",".join(cell_name(x, y) for x, y in sorted(cells, key=lambda c: (c[1], c[0])))
