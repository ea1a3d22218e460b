"""An opening book of our own: the move a long search of ours chose in a few opening
positions, stored as data (`book.json`) and played instantly by the levels that use it.
Where the search cannot rank its best moves (the second player's first reply), games
finished from each by a strong engine chose among them (`lab/second_reply.py`).

The book maps a variant and the placements so far (each in our notation, in play order,
joined by spaces; "" is the empty board) to a placement. It is generated offline by
`scripts/make_book.py` (the top level's own search on each position it is given); this
module only reads it.

Cost: a lookup is one dict access and one legality check.
"""

from __future__ import annotations

import json
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
