"""The practice room's options and checks: a practice game, a set-up position, the solo race.

- `practice` (bool): unrated and never on the ladder, no clock, takebacks at once against the
  computer (a takeback needs no one's consent when no other person sits at the table), hints
  from the strongest level.
- `setup` (text): the position the game starts from instead of the variant's start, written
  `W:a1,b1,c1 B:f6,g7,h8 w 1` (white's squares, black's squares, the side to move `w` or `b`,
  the number of its move; the last two may be left out: `w 1`). A game from a set-up
  position is a practice game. `parse_setup` reads it, `check_setup` refuses a position that
  cannot be played (wrong piece counts, a square twice, a game already decided, no move),
  `setup_text` writes it.
- The solo race is a one-seat game: no black pieces, every move white's, no home deadline, no
  move limit and no repetition; it ends when white fills its target. Always practice.

Pure: the rules (`rules.py`) call these while they fold a game's `game_created`.
"""

from __future__ import annotations

from math import isqrt

from ..errors import BadOptionError
from ..rules import OptionSpec
from .moves import fills, has_move
from .variants import Variant

LETTERS = "abcdefghijklmnop"
SETUP_LIMIT = 1200  # characters: 2 × 19 squares of three characters and the rest fit easily

PRACTICE = OptionSpec("practice", "Practice", False, "bool",
                      description="unrated and off the ladder, no clock, takebacks at once, "
                                  "hints from the strongest level")


def options(variant: Variant) -> tuple[OptionSpec, ...]:
    """The practice room's options of `variant`: `practice`, and `setup`, whose placeholder
    is the variant's start position written as a setup (the board editor starts from it)."""
    return (PRACTICE, OptionSpec(
        "setup", "Set-up position", "", "text", 0, SETUP_LIMIT,
        description="start from this position instead (a practice game): white's squares, "
                    "black's, the side to move and its move number",
        placeholder=setup_text(variant, variant.start_board()), editor="board"))


def _bad(message: str, problem: str, **details) -> BadOptionError:
    return BadOptionError(message, option="setup", problem=problem, **details)


def _names(variant: Variant) -> dict[str, int]:
    size = isqrt(len(variant.neighbours))
    return {f"{LETTERS[sq % size]}{sq // size + 1}": sq for sq in range(size * size)}


def parse_setup(variant: Variant, text: str) -> tuple[tuple[int, ...], int, int]:
    """(board, side to move, move number) of a setup text; BadOptionError (option `setup`,
    `problem` one of "format", "square", "twice", "side", "number") on what it cannot read."""
    names = _names(variant)
    last = max(names, key=names.get)
    board = [0] * len(names)
    given = {1: None, 2: None}
    to_move, number = 1, 1
    rest = []
    for token in text.split():
        head, colon, tail = token.partition(":")
        if colon and head.upper() in ("W", "B"):
            seat = 1 if head.upper() == "W" else 2
            if given[seat] is not None:
                raise _bad(f"the setup names {'white' if seat == 1 else 'black'}'s pieces "
                           "twice", "format")
            given[seat] = [s for s in tail.split(",") if s.strip()]
        else:
            rest.append(token)
    if given[1] is None and given[2] is None:
        raise _bad("a setup lists the pieces as W:a1,b1,… B:h8,g8,… (then w or b and the "
                   "move number)", "format")
    if len(rest) > 2:
        raise _bad(f"the setup has more than the side to move and a move number: "
                   f"{' '.join(rest)!r}", "format")
    if rest:
        side = rest[0].lower()
        if side not in ("w", "b", "white", "black"):
            raise _bad(f"the side to move is w or b, not {rest[0]!r}", "side")
        to_move = 1 if side.startswith("w") else 2
    if len(rest) == 2:
        if not (rest[1].isascii() and rest[1].isdigit()) or not 1 <= int(rest[1]) <= 999:
            raise _bad(f"the move number is a whole number from 1, not {rest[1]!r}", "number")
        number = int(rest[1])
    for seat in (1, 2):
        for text_sq in given[seat] or ():
            sq = names.get(text_sq.strip().lower())
            if sq is None:
                raise _bad(f"{text_sq.strip()!r} is not a square a1 to {last}", "square",
                           square=text_sq.strip())
            if board[sq]:
                raise _bad(f"two pieces on {text_sq.strip().lower()}: a square holds one "
                           "piece", "twice", square=text_sq.strip().lower())
            board[sq] = seat
    return tuple(board), to_move, number


def setup_text(variant: Variant, board, to_move: int = 1, number: int = 1) -> str:
    """The setup text of a position (squares in alphabetical order: a1, a2, …, b1, …)."""
    size = isqrt(len(variant.neighbours))
    order = sorted(range(len(board)), key=lambda sq: (sq % size, sq // size))

    def squares(seat: int) -> str:
        return ",".join(f"{LETTERS[sq % size]}{sq // size + 1}" for sq in order
                        if board[sq] == seat)

    return f"W:{squares(1)} B:{squares(2)} {'w' if to_move == 1 else 'b'} {number}"


def check_setup(variant: Variant, board, to_move: int, number: int, *, solo: bool) -> None:
    """Refuse (BadOptionError, option `setup`) a position that cannot be played: each side
    has the variant's number of pieces (none for black in the solo race, where white moves),
    the move number is within the game's limit, neither side has filled its target already,
    and the side to move has a move."""
    pieces = variant.pieces
    white = sum(1 for x in board if x == 1)
    black = sum(1 for x in board if x == 2)
    if white != pieces:
        raise _bad(f"White has {white} piece{'s' * (white != 1)}; {variant.label} is played "
                   f"with {pieces}", "count", seat=1, pieces=white, needed=pieces)
    if solo:
        if black:
            raise _bad("the solo race has no black pieces", "count", seat=2, pieces=black,
                       needed=0)
        if to_move != 1:
            raise _bad("in the solo race white moves", "side")
    elif black != pieces:
        raise _bad(f"Black has {black} piece{'s' * (black != 1)}; {variant.label} is played "
                   f"with {pieces}", "count", seat=2, pieces=black, needed=pieces)
    limit = variant.solo_limit if solo else variant.limit
    if number > limit:
        raise _bad(f"move {number} is past the game's limit (move {limit})", "number",
                   limit=limit)
    for seat in (1,) if solo else (1, 2):
        if fills(board, seat, variant):
            colour = "White" if seat == 1 else "Black"
            raise _bad(f"{colour} has filled its target already: the game would be over",
                       "decided", seat=seat)
    if not has_move(list(board), to_move, variant):
        colour = "White" if to_move == 1 else "Black"
        raise _bad(f"{colour}, to move, has no legal move in this position", "no_move",
                   seat=to_move)


def solo_board(variant: Variant) -> tuple[int, ...]:
    """The solo race's start: white's pieces at home, no black pieces."""
    return tuple(1 if x == 1 else 0 for x in variant.start_board())


def best_known(variant: str) -> tuple[int, str] | None:
    """The fewest moves known for `variant`'s solo race and how they were found."""
    from .solo import BEST_KNOWN

    return BEST_KNOWN.get(variant)


def solo_hint(state) -> str | None:
    """The solo race's hint: the first move of a beam search's line from the position, as
    its canonical path."""
    from .moves import chains
    from .solo import best_move

    variant = state.variant
    pieces = frozenset(sq for sq, x in enumerate(state.board) if x == 1)
    move = best_move(variant, pieces)
    if move is None:
        return None
    f, t = move
    return variant.board.path_text(chains(list(state.board), f, variant)[t])
