"""Corner's board, marbles, notation and score table: plain values shared by the rules and the
computer players.

Cells are 0..35, `row * 6 + col` with a1 = 0, f1 = 5, a2 = 6, … f6 = 35 (columns a–f from the
left, rows 1–6 from the bottom). A board is 36 codes: a colour 0..6 (`COLOUR_LETTERS` in that
order, black last) or `EMPTY`. Lines are 0..5: a red arrow's line is a column (a–f), a yellow
arrow's a row (1–6).
"""

from __future__ import annotations

import random

from .errors import BadSetupError, NotationError

SIZE = 6
CELLS = SIZE * SIZE
COLUMNS = "abcdef"
ROWS = "123456"
#: The marbles' letters in code order: yellow, red, green, blue, white, grey (S), black (K).
COLOUR_LETTERS = "YRGBWSK"
COLOUR_NAMES = ("yellow", "red", "green", "blue", "white", "grey", "black")
#: How many marbles of each colour a setup has (36 in all).
COUNTS = (8, 7, 6, 5, 4, 3, 3)
BLACK = 6
EMPTY = 7
#: The colours that can be taken (all but black).
TAKEABLE = range(6)
#: Points for 0..8 marbles of one colour (the seed's table).
POINTS = (0, 1, 3, 6, 10, 13, 16, 20, 24)
#: Sides: red (seat 1, and seat 3 in the 4-player game) points at columns, yellow at rows.
SIDES = ("red", "yellow")
#: The letters in the order of a full set, for drawing a random setup.
FULL_SET = "".join(letter * n for letter, n in zip(COLOUR_LETTERS, COUNTS, strict=True))


def cell_name(cell: int) -> str:
    return COLUMNS[cell % SIZE] + ROWS[cell // SIZE]


def cell_of(col: int, row: int) -> int:
    return row * SIZE + col


def line_name(side: int, line: int) -> str:
    """A line as written: a column letter for red, a row digit for yellow."""
    return COLUMNS[line] if side == 0 else ROWS[line]


def parse_move(text: str) -> tuple[int | None, int | None]:
    """A move's text as (column, row): `c4` gives both, an opening placement `c` only the
    column and `4` only the row (the other None). NotationError otherwise."""
    if not isinstance(text, str):
        raise NotationError("a move is a cell like c4, or a line (c or 4) to open a round")
    t = text.strip().lower()
    if len(t) == 2 and t[0] in COLUMNS and t[1] in ROWS:
        return COLUMNS.index(t[0]), ROWS.index(t[1])
    if len(t) == 1 and t in COLUMNS:
        return COLUMNS.index(t), None
    if len(t) == 1 and t in ROWS:
        return None, ROWS.index(t)
    raise NotationError(f"{text!r} is not a cell a1 to f6, nor a line a–f or 1–6",
                        move=text)


def colour_score(own: int, other: int) -> int:
    """One side's points for `own` marbles of a colour when the other side holds `other`:
    the table's, doubled if the other side holds none of that colour."""
    points = POINTS[own]
    return points * 2 if own and not other else points


def side_scores(counts: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, int]:
    """Each side's score from its marbles per colour (black never scores)."""
    red, yellow = counts
    return (sum(colour_score(red[c], yellow[c]) for c in TAKEABLE),
            sum(colour_score(yellow[c], red[c]) for c in TAKEABLE))


def parse_setup(text, index: int | None = None) -> tuple[int, ...]:
    """The board of a setup: 36 letters of `YRGBWSK`, a1…f1, a2…f2, up to f6, with exactly
    8 Y, 7 R, 6 G, 5 B, 4 W, 3 S and 3 K. Case does not matter and whitespace is ignored (a
    setup may be written as six rows of six). BadSetupError naming what is wrong otherwise;
    `index` (1-based) says which of the given setups it is."""
    where = f"setup {index}" if index is not None else "the setup"
    details = {"option": "setups"}
    if index is not None:
        details["index"] = index
    if not isinstance(text, str):
        raise BadSetupError(f"{where} must be a string of 36 letters", problem="type",
                            **details)
    letters = "".join(text.split()).upper()
    for i, ch in enumerate(letters):
        if ch not in COLOUR_LETTERS:
            at = f" at {cell_name(i)}" if i < CELLS else ""
            raise BadSetupError(
                f"{where}: unknown letter {ch!r}{at} (the letters are Y yellow, R red, "
                "G green, B blue, W white, S grey, K black)",
                problem="letter", letter=ch, position=i + 1, **details)
    if len(letters) != CELLS:
        raise BadSetupError(f"{where} has {len(letters)} letters, not 36", problem="length",
                            length=len(letters), **details)
    wrong = [(code, letter, letters.count(letter), want)
             for code, (letter, want) in enumerate(zip(COLOUR_LETTERS, COUNTS, strict=True))
             if letters.count(letter) != want]
    if wrong:
        code, letter, got, want = wrong[0]
        said = "; ".join(f"{n} {COLOUR_NAMES[c]} marble{'s' * (n != 1)} ({x}), not {w}"
                         for c, x, n, w in wrong)
        raise BadSetupError(
            f"{where} has {said}", problem="count", colour=COLOUR_NAMES[code], letter=letter,
            count=got, expected=want,
            wrong=[{"colour": COLOUR_NAMES[c], "letter": x, "count": n, "expected": w}
                   for c, x, n, w in wrong], **details)
    return tuple(COLOUR_LETTERS.index(ch) for ch in letters)


def setup_text(board) -> str:
    """A board as 36 letters, `.` for an empty cell."""
    return "".join("." if c == EMPTY else COLOUR_LETTERS[c] for c in board)


def random_setup(rng: random.Random) -> str:
    """A setup drawn with `rng`: the 36 marbles shuffled."""
    letters = list(FULL_SET)
    rng.shuffle(letters)
    return "".join(letters)
