"""An opening book of our own: the move a long search of ours chose in a few opening
positions, stored as data (`book.json`) and played instantly by the levels that use it.

The book maps a variant and the placements so far (each in our notation, in play order,
joined by spaces; "" is the empty board) to a placement. It is generated offline by
`python -m engine.cornerclaim.ai.book`, which has the top level choose a move (`choose_move`, out of
book and without tree reuse) for `--seconds` on every position it is given (the empty board
and the position after each `--line`), skipping positions already in the book unless
`--redo`. Which lines to analyse is an input (e.g. openings opponents were seen
to play); every move in the book comes from our own search.

  python -m engine.cornerclaim.ai.book --seconds 20 --line 'e8,d9,e9,e10,f10' --line 'e8,… j5,…'

The big boards (trio, classic) also have a corner book: each colour's first `CORNER_PLIES`
moves by its own placements alone, seen from its own corner (`corner_key`). On 20×20 the
colours start 19 squares apart, so their first moves barely depend on each other; the book
answers only while no other colour has a square within `CORNER_GAP` of the colour's
squares and of the book move's. Its line comes from a long search of ours at each step
of a game in which every colour plays the line so far from its own corner:

  python -m engine.cornerclaim.ai.book --game classic --corner 3 --seconds 90

Cost: a lookup is one dict access and one legality check (the corner book: a few mask
operations more).
"""

from __future__ import annotations

import json
import time
from functools import cache
from pathlib import Path

BOOK_FILE = Path(__file__).with_name("book.json")


@cache
def _book() -> dict[str, dict[str, str]]:
    try:
        return json.loads(BOOK_FILE.read_text())
    except FileNotFoundError:
        return {}


def line_key(state) -> str:
    """The book key of a state: its placements in our notation, in play order."""
    return " ".join(state.move_str(m) for _, _, m in state.placements)


def book_move(state, seat: int, *, corner: bool = False) -> int | None:
    """The book's move for `seat` in `state` (a legal move id), or None when out of book;
    with `corner`, the corner book's (`corner_move`) when the line is not in the book."""
    if state.left:
        return None
    text = _book().get(state.variant.name, {}).get(line_key(state))
    move = _legal(state, seat, text)
    return move if move is not None or not corner else corner_move(state, seat)


def _legal(state, seat: int, text: str | None) -> int | None:
    if text is None:
        return None
    from ...errors import EngineError
    from ..rules import RULES

    try:
        move = RULES.parse_move(state, seat, text)
    except EngineError:
        return None
    return move if state.position.is_legal(seat - 1, move) else None


# -- the corner book (20×20) -------------------------------------------------------------
CORNER_PLIES = 3  # how many of each colour's first moves `--corner` searches by default
CORNER_GAP = 2  # the corner book answers while no other colour is this near (Chebyshev)


def corner_book_name(variant) -> str:
    """The corner book's entry in `book.json` for a variant ("classic corner")."""
    return f"{variant.name} corner"


def _frame(variant, color: int, swap: bool):
    """The maps of cells from the board to `color`'s own view (its start corner at a1;
    `swap` also mirrors the board in that corner's diagonal) and back."""
    n = variant.size - 1
    sx, sy = variant.starts[color]

    def to(cell: tuple[int, int]) -> tuple[int, int]:
        x, y = cell
        x, y = (x if sx == 0 else n - x), (y if sy == 0 else n - y)
        return (y, x) if swap else (x, y)

    def back(cell: tuple[int, int]) -> tuple[int, int]:
        x, y = (cell[1], cell[0]) if swap else cell
        return (x if sx == 0 else n - x), (y if sy == 0 else n - y)

    return to, back


def _cells_text(bc, cells) -> str:
    """Cells in our notation, in the board's canonical order (`BoardConst.cell_names`)."""
    return ",".join(bc.cell_names(bc.mask_of(cells)))


def corner_key(state, seat: int) -> tuple[str, bool]:
    """The corner book's key of `seat`'s placements (in play order, each in its own corner's
    view) and whether that view mirrors the diagonal: of the two views, the one whose key
    sorts first (unmirrored on a tie)."""
    bc = state.position.bc
    own = [bc.move_cells(m) for _, s, m in state.placements if s == seat]
    keys = []
    for swap in (False, True):
        to, _ = _frame(state.variant, seat - 1, swap)
        keys.append((" ".join(_cells_text(bc, map(to, cells)) for cells in own), swap))
    return min(keys)


def _dilate(bc, mask: int, steps: int) -> int:
    for _ in range(steps):
        mask |= bc.edge_neighbours(mask) | bc.diagonal_neighbours(mask)
    return mask


def corner_move(state, seat: int) -> int | None:
    """The corner book's move for `seat` (a legal move id), or None: not a big board, out of
    the book, or another colour within `CORNER_GAP` squares of the colour's squares or of
    the book move's."""
    entries = _book().get(corner_book_name(state.variant))
    if not entries or state.left:
        return None
    key, swap = corner_key(state, seat)
    text = entries.get(key)
    if text is None:
        return None
    from ..notation import parse_cells

    _, back = _frame(state.variant, seat - 1, swap)
    move = _legal(state, seat, _cells_text(state.position.bc, map(back, parse_cells(text))))
    if move is None:
        return None
    pos = state.position
    bc = pos.bc
    others = 0
    for c, cells in enumerate(pos.occupied):
        if c != seat - 1:
            others |= cells
    near = _dilate(bc, pos.occupied[seat - 1] | bc.move_cells_mask[move], CORNER_GAP)
    return None if near & others else move


def build(variant: str, lines: list[str], seconds: float, seed: int = 1,
          skip: frozenset = frozenset()) -> dict[str, str]:
    """Book entries for the empty board and after each line (space-separated placements),
    except the keys in `skip` (already in the book)."""
    from ..rules import new_game
    from . import LEVELS, choose_move

    top = max(LEVELS)  # the book is played by the strongest level: search as it does

    out: dict[str, str] = {}
    for line in [""] + lines:
        game = new_game(variant)
        for text in line.split():
            game.play(game.state.to_move, text)
        state = game.state
        key = line_key(state)
        if key in out or key in skip or state.is_over:
            continue
        started = time.perf_counter()
        move = choose_move(state, state.to_move, level=top, seed=seed, playouts=10**9,
                           seconds=seconds, book=False, reuse=False)
        if move is not None:
            out[key] = state.move_str(move)
            print(f"{key or '(empty)'} -> {out[key]} "
                  f"({time.perf_counter() - started:.1f} s)", flush=True)
    return out


def build_corner(variant: str, plies: int, seconds: float, seed: int = 1,
                 known: dict[str, str] | None = None) -> dict[str, str]:
    """The corner book's entries for the first `plies` moves of a colour. Each step sets up
    the game in which every colour has played the line so far from its own corner
    (unmirrored), and has the top level search the first colour's next move for `seconds`
    (out of book, no tree reuse) unless `known` (entries already in the book) has it."""
    from ..notation import parse_cells
    from ..rules import new_game
    from . import LEVELS, choose_move

    top = max(LEVELS)
    known = known or {}
    out: dict[str, str] = {}
    line: list[list[tuple[int, int]]] = []  # the first colour's moves, in its unmirrored view
    for _ in range(plies):
        game = new_game(variant)
        for cells in line:
            for seat in game.state.seats:
                _, back = _frame(game.state.variant, seat - 1, False)
                game.play(seat, _cells_text(game.state.position.bc, map(back, cells)))
        state = game.state
        key, swap = corner_key(state, 1)
        to, back = _frame(state.variant, 0, swap)
        if key in known:
            board = [back(c) for c in parse_cells(known[key])]
        else:
            started = time.perf_counter()
            move = choose_move(state, 1, level=top, seed=seed, playouts=10**9,
                               seconds=seconds, book=False, reuse=False)
            if move is None:
                break
            board = state.position.bc.move_cells(move)
            print(f"{key or '(empty)'} -> {_cells_text(state.position.bc, map(to, board))} "
                  f"({time.perf_counter() - started:.1f} s)", flush=True)
        out[key] = _cells_text(state.position.bc, map(to, board))
        line.append([_frame(state.variant, 0, False)[0](c) for c in board])
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Generate our opening book by long searches.")
    ap.add_argument("--game", default="duo")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--line", action="append", default=[],
                    help="placements (space-separated) after which to add the book move")
    ap.add_argument("--redo", action="store_true", help="search again positions in the book")
    ap.add_argument("--corner", type=int, default=0, metavar="PLIES",
                    help="build the corner book of a big board (trio, classic) instead: "
                         f"each colour's first PLIES moves (e.g. {CORNER_PLIES})")
    args = ap.parse_args(argv)
    book = dict(_book())
    if args.corner:
        from ..variants import VARIANTS

        name = corner_book_name(VARIANTS[args.game])
        known = {} if args.redo else book.get(name, {})
        book[name] = entries = build_corner(args.game, args.corner, args.seconds, known=known)
        BOOK_FILE.write_text(json.dumps(book, indent=1, sort_keys=True) + "\n")
        print(f"{len(entries)} {name} positions in {BOOK_FILE}")
        return 0
    old = frozenset() if args.redo else frozenset(book.get(args.game, {}))
    entries = build(args.game, args.line, args.seconds, skip=old)
    book[args.game] = {**book.get(args.game, {}), **entries}
    BOOK_FILE.write_text(json.dumps(book, indent=1, sort_keys=True) + "\n")
    print(f"{len(book[args.game])} {args.game} positions in {BOOK_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
