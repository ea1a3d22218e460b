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

Cost: a lookup is one dict access and one legality check.
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


def book_move(state, seat: int) -> int | None:
    """The book's move for `seat` in `state` (a legal move id), or None when out of book."""
    if state.left:
        return None
    text = _book().get(state.variant.name, {}).get(line_key(state))
    return _legal(state, seat, text)


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


def build(variant: str, lines: list[str], seconds: float, seed: int = 1,
          skip: frozenset = frozenset()) -> dict[str, str]:
    """Book entries for the empty board and after each line (space-separated placements),
    except the keys in `skip` (already in the book)."""
    from ..rules import new_game
    from . import LEVELS, search_move

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
        move = search_move(state, state.to_move, level=top, seed=seed, playouts=10**9,
                           seconds=seconds, book=False, reuse=False)
        if move is not None:
            out[key] = state.move_str(move)
            print(f"{key or '(empty)'} -> {out[key]} "
                  f"({time.perf_counter() - started:.1f} s)", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Generate our opening book by long searches.")
    ap.add_argument("--game", default="duo")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--line", action="append", default=[],
                    help="placements (space-separated) after which to add the book move")
    ap.add_argument("--redo", action="store_true", help="search again positions in the book")
    args = ap.parse_args(argv)
    book = dict(_book())
    old = frozenset() if args.redo else frozenset(book.get(args.game, {}))
    entries = build(args.game, args.line, args.seconds, skip=old)
    book[args.game] = {**book.get(args.game, {}), **entries}
    BOOK_FILE.write_text(json.dumps(book, indent=1, sort_keys=True) + "\n")
    print(f"{len(book[args.game])} {args.game} positions in {BOOK_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
