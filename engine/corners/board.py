"""Corners' board: squares, their names and the neighbour tables moves are built from.

A square is a number 0..63, `row * 8 + col`, with a1 = 0 (bottom left), h1 = 7, a8 = 56 and
h8 = 63. A board is a sequence of 64 numbers: 0 empty, 1 a white piece, 2 a black piece.
"""

from __future__ import annotations

from ..errors import NotationError

SIZE = 8
COLUMNS = "abcdefgh"
#: The four orthogonal directions as (column step, row step): up, right, down, left.
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
#: All eight: the orthogonal ones, then up-right, down-right, down-left, up-left.
ALL_EIGHT = ORTHOGONAL + ((1, 1), (1, -1), (-1, -1), (-1, 1))


def square(col: int, row: int) -> int:
    return row * SIZE + col


def col_of(sq: int) -> int:
    return sq % SIZE


def row_of(sq: int) -> int:
    return sq // SIZE


def name(sq: int) -> str:
    return f"{COLUMNS[sq % SIZE]}{sq // SIZE + 1}"


def mirror(sq: int) -> int:
    """The point mirror through the board's centre (a1 <-> h8)."""
    return SIZE * SIZE - 1 - sq


def alpha_key(sq: int) -> int:
    """A square's place in alphabetical order of names (a1, a2, …, a8, b1, …, h8)."""
    return (sq % SIZE) * SIZE + sq // SIZE


def parse_square(text: str) -> int:
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in COLUMNS or t[1] not in "12345678":
        raise NotationError(f"{text.strip()!r} is not a square a1 to h8", square=text.strip())
    return square(COLUMNS.index(t[0]), int(t[1]) - 1)


def parse_path(text: str) -> list[int]:
    """`c3-e3-e5` (or `c3-e5`) as squares; NotationError unless two or more squares."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("a move is a path of squares such as c3-d3 or c3-e3-e5")
    parts = [p for p in text.replace("–", "-").split("-")]
    if len(parts) < 2 or any(not p.strip() for p in parts):
        raise NotationError(f"{text.strip()!r} is not a path of squares such as c3-e3-e5",
                            move=text.strip())
    return [parse_square(p) for p in parts]


def path_text(path) -> str:
    return "-".join(name(s) for s in path)


def _tables(directions):
    neighbours = []
    jumps = []
    for sq in range(SIZE * SIZE):
        c, r = col_of(sq), row_of(sq)
        ns, js = [], []
        for dc, dr in directions:
            if 0 <= c + dc < SIZE and 0 <= r + dr < SIZE:
                ns.append(square(c + dc, r + dr))
                if 0 <= c + 2 * dc < SIZE and 0 <= r + 2 * dr < SIZE:
                    js.append((square(c + dc, r + dr), square(c + 2 * dc, r + 2 * dr)))
        neighbours.append(tuple(ns))
        jumps.append(tuple(js))
    return tuple(neighbours), tuple(jumps)


#: Per square, its neighbours (in direction order) and its jumps as (over, landing) pairs.
NEIGHBOURS_4, JUMPS_4 = _tables(ORTHOGONAL)
NEIGHBOURS_8, JUMPS_8 = _tables(ALL_EIGHT)
