"""The 21 polyomino pieces and their unique orientations (91 in all).

A shape is a sorted tuple of (x, y) cells normalised so that min x = min y = 0. Pieces are
computed once at import and shared immutably, like Pentobi's `PieceInfo`.
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]
Shape = tuple[Cell, ...]

# Stable names shown to players and used in the API, in the order of the tray
# (small to large). Cells are drawn with y growing upwards.
_PIECE_CELLS: dict[str, tuple[Cell, ...]] = {
    "1": ((0, 0),),
    "2": ((0, 0), (1, 0)),
    "I3": ((0, 0), (1, 0), (2, 0)),
    "V3": ((0, 0), (1, 0), (0, 1)),
    "I4": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "L4": ((0, 0), (1, 0), (0, 1), (0, 2)),
    "O4": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "T4": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "Z4": ((0, 0), (1, 0), (1, 1), (2, 1)),
    "F": ((1, 0), (0, 1), (1, 1), (1, 2), (2, 2)),
    "I5": ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
    "L5": ((0, 0), (1, 0), (0, 1), (0, 2), (0, 3)),
    "N": ((0, 1), (1, 1), (1, 0), (2, 0), (3, 0)),
    "P": ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)),
    "T5": ((1, 0), (1, 1), (0, 2), (1, 2), (2, 2)),
    "U": ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1)),
    "V": ((0, 0), (1, 0), (2, 0), (0, 1), (0, 2)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
    "Y": ((0, 0), (1, 0), (2, 0), (3, 0), (1, 1)),
    "Z5": ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2)),
}

PIECE_NAMES: tuple[str, ...] = tuple(_PIECE_CELLS)
NU_PIECES = len(PIECE_NAMES)
SINGLE = PIECE_NAMES.index("1")


def normalise(cells) -> Shape:
    """Translate cells so the smallest x and y are 0; return them sorted."""
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return tuple(sorted((x - min_x, y - min_y) for x, y in cells))


def rotate(shape: Shape) -> Shape:
    """A quarter turn anticlockwise."""
    return normalise([(-y, x) for x, y in shape])


def flip(shape: Shape) -> Shape:
    """Mirror left-right."""
    return normalise([(-x, y) for x, y in shape])


@dataclass(frozen=True)
class Piece:
    """One piece: its index, name, size and unique orientations (first is the base shape)."""

    index: int
    name: str
    size: int
    orientations: tuple[Shape, ...]

    @property
    def can_rotate(self) -> bool:
        """Whether a quarter turn changes the shape (not for 1, O4, X)."""
        base = self.orientations[0]
        return rotate(base) != base

    @property
    def can_flip(self) -> bool:
        """Whether mirroring changes the shape as it lies (not for symmetric shapes)."""
        base = self.orientations[0]
        return flip(base) != base


def _orientations(base: Shape) -> tuple[Shape, ...]:
    seen: list[Shape] = []
    shape = base
    for _ in range(2):
        for _ in range(4):
            if shape not in seen:
                seen.append(shape)
            shape = rotate(shape)
        shape = flip(shape)
    return tuple(seen)


PIECES: tuple[Piece, ...] = tuple(
    Piece(i, name, len(cells), _orientations(normalise(cells)))
    for i, (name, cells) in enumerate(_PIECE_CELLS.items())
)
PIECE_BY_NAME: dict[str, Piece] = {p.name: p for p in PIECES}
TOTAL_SQUARES = sum(p.size for p in PIECES)

# Every orientation of every piece: shape -> (piece index, orientation index).
SHAPE_INDEX: dict[Shape, tuple[int, int]] = {
    shape: (p.index, o) for p in PIECES for o, shape in enumerate(p.orientations)
}
