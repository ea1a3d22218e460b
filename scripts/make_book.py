#!/usr/bin/env python3
"""Generate Corner Claim's opening book (`engine/cornerclaim/ai/book.json`) by long searches
of our own: the top level chooses a move (`search_move`, out of book and without tree reuse)
for `--seconds` on every position it is given (the empty board and the position after each
`--line`), skipping positions already in the book unless `--redo`. Which lines to analyse is
an input (e.g. openings opponents were seen to play); every move in the book comes from our
own search.

    .venv/bin/python scripts/make_book.py --game duo --seconds 20 --line 'e8,d9,e9,e10,f10'
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cornerclaim.ai import LEVELS, search_move  # noqa: E402
from engine.cornerclaim.ai.book import BOOK_FILE, _book, line_key  # noqa: E402
from engine.cornerclaim.rules import new_game  # noqa: E402


def build(variant: str, lines: list[str], seconds: float, seed: int = 1,
          skip: frozenset = frozenset()) -> dict[str, str]:
    """Book entries for the empty board and after each line (space-separated placements),
    except the keys in `skip` (already in the book)."""
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
