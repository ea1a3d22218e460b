"""`showboard`'s text for `GtpSession` (engine/cornerclaim/gtp.py): the board with each
colour's points and pieces left beside it, as Pentobi draws it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import State


def render_board(state: State) -> str:
    """The board as text, row 1 at the bottom, each colour by its initial (`.` empty, `+` a
    free start square), with each colour's points and pieces left beside the top rows."""
    n = state.variant.size
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:n]
    marks = [c[0].upper() for c in state.variant.colours]
    starts = {(x, n - 1 - y) for x, y in state.variant.starts}
    side = _side_panel(state, marks)
    header = "   " + " ".join(letters)
    lines = [header]
    for r, row in enumerate(state.board()):
        cells = " ".join(
            marks[v - 1] if v else "+" if (x, r) in starts else "." for x, v in enumerate(row)
        )
        extra = f"  {side[r]}" if r < len(side) else ""
        lines.append(f"{n - r:2} {cells} {n - r:<2}{extra}".rstrip())
    lines.append(header)
    return "\n".join(lines) + "\n"


def _side_panel(state: State, marks: list[str]) -> list[str]:
    pos = state.position
    lines = []
    for c, colour in enumerate(state.variant.colours):
        left = state.pieces_left(c + 1)
        lines.append(f"{colour.capitalize()}({marks[c]}): {pos.points(c)} points")
        lines.append(" ".join(left) if left else "all pieces placed")
    return lines
