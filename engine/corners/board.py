"""Corners' boards: squares, their names and the neighbour tables moves are built from.

A board has `size` columns and rows (8 for most variants, 16 for Halma). A square is a number
0..size² - 1, `row * size + col`, with a1 = 0 (bottom left); on 8×8 h1 = 7, a8 = 56 and
h8 = 63, on 16×16 p1 = 15, a16 = 240 and p16 = 255. A position is a sequence of size²
numbers: 0 empty, 1 a white piece, 2 a black piece. Columns are lettered from a, rows numbered
from 1 (one or two digits): `c3`, `p16`.

`geometry(size)` gives a size's `Geometry` (names, parsing, the tables), made once per size.
"""

from __future__ import annotations

from ..errors import NotationError

LETTERS = "abcdefghijklmnop"
#: The board sizes a variant may have (columns a–p at most).
SIZES = (8, 16)
#: The four orthogonal directions as (column step, row step): up, right, down, left.
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
#: All eight: the orthogonal ones, then up-right, down-right, down-left, up-left.
ALL_EIGHT = ORTHOGONAL + ((1, 1), (1, -1), (-1, -1), (-1, 1))


class Geometry:
    """A square board of `size` columns and rows: names, parsing, mirror, and per square its
    neighbours (in direction order) and its jumps as (over, landing) pairs, for four and for
    eight directions."""

    def __init__(self, size: int) -> None:
        if size not in SIZES:
            raise ValueError(f"a Corners board is 8 or 16 squares wide, not {size}")
        self.size = size
        self.squares = size * size
        self.columns = LETTERS[:size]
        self.last = f"{self.columns[-1]}{size}"
        self._names = tuple(f"{self.columns[sq % size]}{sq // size + 1}"
                            for sq in range(self.squares))
        self._by_name = {n: sq for sq, n in enumerate(self._names)}
        self.neighbours_4, self.jumps_4 = self._tables(ORTHOGONAL)
        self.neighbours_8, self.jumps_8 = self._tables(ALL_EIGHT)
        #: Every square in alphabetical order of names (a1, a2, …, b1, …).
        self.alphabetical = tuple(sorted(range(self.squares), key=self.alpha_key))

    def square(self, col: int, row: int) -> int:
        return row * self.size + col

    def col_of(self, sq: int) -> int:
        return sq % self.size

    def row_of(self, sq: int) -> int:
        return sq // self.size

    def name(self, sq: int) -> str:
        return self._names[sq]

    def mirror(self, sq: int) -> int:
        """The point mirror through the board's centre (a1 <-> h8 on 8×8, a1 <-> p16)."""
        return self.squares - 1 - sq

    def alpha_key(self, sq: int) -> int:
        """A square's place in the order of names column by column, rows by number (a1, a2,
        …, a8, b1, …, h8; on 16×16 a1, …, a9, a10, …, a16, b1, …)."""
        return (sq % self.size) * self.size + sq // self.size

    def parse_square(self, text: str) -> int:
        t = text.strip().lower()
        sq = self._by_name.get(t)
        if sq is None:
            raise NotationError(f"{text.strip()!r} is not a square a1 to {self.last}",
                                square=text.strip())
        return sq

    def parse_path(self, text: str) -> list[int]:
        """`c3-e3-e5` (or `c3-e5`) as squares; NotationError unless two or more squares."""
        if not isinstance(text, str) or not text.strip():
            raise NotationError("a move is a path of squares such as c3-d3 or c3-e3-e5")
        parts = [p for p in text.replace("–", "-").split("-")]
        if len(parts) < 2 or any(not p.strip() for p in parts):
            raise NotationError(f"{text.strip()!r} is not a path of squares such as c3-e3-e5",
                                move=text.strip())
        return [self.parse_square(p) for p in parts]

    def path_text(self, path) -> str:
        names = self._names
        return "-".join(names[s] for s in path)

    def distance(self, p: int, q: int, diagonal: bool) -> int:
        """Steps between two squares on an empty board: king moves with eight directions,
        Manhattan with four."""
        size = self.size
        dc, dr = abs(p % size - q % size), abs(p // size - q // size)
        return max(dc, dr) if diagonal else dc + dr

    def _tables(self, directions):
        size = self.size
        neighbours = []
        jumps = []
        for sq in range(self.squares):
            c, r = sq % size, sq // size
            ns, js = [], []
            for dc, dr in directions:
                if 0 <= c + dc < size and 0 <= r + dr < size:
                    ns.append(self.square(c + dc, r + dr))
                    if 0 <= c + 2 * dc < size and 0 <= r + 2 * dr < size:
                        js.append((self.square(c + dc, r + dr),
                                   self.square(c + 2 * dc, r + 2 * dr)))
            neighbours.append(tuple(ns))
            jumps.append(tuple(js))
        return tuple(neighbours), tuple(jumps)


_GEOMETRIES: dict[int, Geometry] = {}


def geometry(size: int) -> Geometry:
    """The board of `size` columns and rows (made once)."""
    got = _GEOMETRIES.get(size)
    if got is None:
        got = _GEOMETRIES[size] = Geometry(size)
    return got


def name(sq: int, size: int = 8) -> str:
    """A square's name on a board of `size` (`geometry(size).name`)."""
    return geometry(size).name(sq)


def path_text(path, size: int = 8) -> str:
    """A path's text on a board of `size` (`geometry(size).path_text`)."""
    return geometry(size).path_text(path)
