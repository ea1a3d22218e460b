"""A board as a standalone SVG image, to download or share, for any game. Pure: a game's
rules and a state in, text out.

The picture is the game's own (`rules.picture(state)`): a grid of colour names, row 0 at the
top, with its column and row labels around it and its marks as text on their cells; each
colour name is filled from `PALETTE` (an unknown name gets `UNKNOWN`) and, for the colours the
phone UI patterns, overlaid with the same pattern (`PATTERNS`: the second cue for colour-blind
eyes, on the board and on the caption's swatches). Under the grid, a
caption line per seat with its colour, name, score, result once the game is over, and
"(left)". No fonts or scripts are embedded, so the file opens in any browser or image viewer.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

#: Fills for the colour names games use (the phone UI's palette for Corner Claim's four).
PALETTE = {"blue": "#2f6fde", "yellow": "#e0b400", "red": "#d63c3c", "green": "#2e9e4f",
           "white": "#f4f4f0", "black": "#23262d", "cross": "#c4561d", "nought": "#1f8a9e",
           "orange": "#ee8a1c", "purple": "#8a4fd1"}
UNKNOWN = "#8a8f99"
#: The phone board's colour-blind patterns (blue diagonal stripes, yellow dots, red horizontal
#: bars, green vertical bars), as SVG pattern tiles of 6 user units.
PATTERNS = {
    "blue": '<path d="M-1,7 L7,-1 M5,7 L7,5 M-1,1 L1,-1" stroke="#fff" stroke-opacity=".35" '
            'stroke-width="1.6"/>',
    "yellow": '<circle cx="3" cy="3" r="1.3" fill="#000" fill-opacity=".35"/>',
    "red": '<rect y="3.6" width="6" height="1.6" fill="#000" fill-opacity=".3"/>',
    "green": '<rect x="3.6" width="1.6" height="6" fill="#fff" fill-opacity=".35"/>',
}
EMPTY = "#dde3ec"
GRID = "#b9c2d0"
INK = "#1d2330"


def fill(colour: str) -> str:
    """The fill of a colour name."""
    return PALETTE.get(colour, UNKNOWN)


def _swatch(x: int, y: int, size: int, colour: str, extra: str = "") -> str:
    """A square of a colour: its fill, and its pattern over it when it has one."""
    out = f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill(colour)}"{extra}/>'
    if colour in PATTERNS:
        out += (f'<rect x="{x}" y="{y}" width="{size}" height="{size}" '
                f'fill="url(#pattern-{colour})"/>')
    return out


def _patterns() -> str:
    tiles = "".join(f'<pattern id="pattern-{colour}" width="6" height="6" '
                    f'patternUnits="userSpaceOnUse">{tile}</pattern>'
                    for colour, tile in PATTERNS.items())
    return f"<defs>{tiles}</defs>"


def board_svg(rules: Any, state: Any, *, cell: int = 24, title: str | None = None,
              names: Sequence[str] | None = None) -> str:
    """The board of `state` (a state of the game `rules` plays) as SVG text. `names` (one
    per seat) label the caption (default: each seat's colour)."""
    picture = rules.picture(state)
    view = rules.public_view(state)
    rows, cols = len(picture.cells), max((len(r) for r in picture.cells), default=0)
    names = tuple(names) if names else tuple(s.colour.capitalize() for s in view.seats)
    margin = cell
    caption = cell * (len(view.seats) + (2 if title else 1))
    width = cols * cell + 2 * margin
    height = rows * cell + 2 * margin + caption
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{cell // 2}">',
        f"<title>{escape(title or rules.title + ': ' + ', '.join(names))}</title>",
        _patterns(),
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<rect x="{margin}" y="{margin}" width="{cols * cell}" height="{rows * cell}" '
        f'fill="{EMPTY}" stroke="{GRID}"/>',
    ]
    out += _cells(picture, cell, margin)
    out += _labels(picture, cell, margin)
    out += _caption(rules, state, view, cell, margin, rows * cell + 2 * margin, title, names)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cells(picture, cell: int, margin: int) -> list[str]:
    out = []
    for row, line in enumerate(picture.cells):
        for x, colour in enumerate(line):
            px, py = margin + x * cell, margin + row * cell
            if colour:
                out.append(_swatch(px, py, cell, colour, f' stroke="{INK}" stroke-width="0.5"'))
            else:
                out.append(f'<rect x="{px}" y="{py}" width="{cell}" height="{cell}" '
                           f'fill="none" stroke="{GRID}" stroke-width="0.5"/>')
    for row, x, text in picture.marks:
        cx, cy = margin + x * cell + cell // 2, margin + row * cell + cell // 2 + cell // 6
        out.append(f'<text x="{cx}" y="{cy}" text-anchor="middle" fill="{INK}">'
                   f"{escape(text)}</text>")
    return out


def _labels(picture, cell: int, margin: int) -> list[str]:
    out = []
    half = cell // 2
    for x, label in enumerate(picture.columns):
        cx = margin + x * cell + half
        out.append(f'<text x="{cx}" y="{margin - 6}" text-anchor="middle" '
                   f'fill="{INK}">{escape(label)}</text>')
    for row, label in enumerate(picture.rows):
        cy = margin + row * cell + half + cell // 6
        out.append(f'<text x="{margin - 4}" y="{cy}" text-anchor="end" '
                   f'fill="{INK}">{escape(label)}</text>')
    return out


def _caption(rules, state, view, cell: int, margin: int, top: int, title: str | None,
             names: tuple[str, ...]) -> list[str]:
    out = []
    y = top
    if title:
        out.append(f'<text x="{margin}" y="{y}" fill="{INK}" font-weight="bold">'
                   f"{escape(title)}</text>")
        y += cell
    outcome = rules.outcome(state)
    over = rules.is_over(state)
    for i, seat in enumerate(view.seats):
        name = names[i] if i < len(names) else f"Seat {i + 1}"
        text = f"{name}: {outcome.scores[i]}"
        if over:
            text += f" ({outcome.results[i]})"
        if seat.left:
            text += " (left)"
        out.append(_swatch(margin, y - cell // 2, cell // 2, seat.colour))
        out.append(f'<text x="{margin + cell}" y="{y}" fill="{INK}">{escape(text)}</text>')
        y += cell
    return out
