"""A board as a standalone SVG image, to download or share. Pure: a `State` in, text out.

The picture: the grid with a1 at the bottom left, each covered cell in its seat's colour
(the phone UI's palette), column letters and row numbers around it, and a caption line per
seat with its name, score and result when the game is over. No fonts or scripts are
embedded, so the file opens in any browser or image viewer.
"""

from __future__ import annotations

from html import escape

from engine.cornerclaim import RULES, State
from engine.cornerclaim.notation import COLUMNS

PALETTE = {"blue": "#2f6fde", "yellow": "#e0b400", "red": "#d63c3c", "green": "#2e9e4f"}
EMPTY = "#dde3ec"
GRID = "#b9c2d0"
INK = "#1d2330"


def board_svg(state: State, *, cell: int = 24, title: str | None = None,
              names: list[str] | tuple[str, ...] | None = None) -> str:
    """The board of `state` as SVG text (UTF-8, ~40 KB for a 20×20 board). `names` (one per
    seat) replace the log's player names in the caption."""
    n = state.variant.size
    margin = cell
    caption = cell * (len(state.players) + (2 if title else 1))
    width = n * cell + 2 * margin
    height = n * cell + 2 * margin + caption
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{cell // 2}">',
        f"<title>{escape(title or _default_title(state))}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<rect x="{margin}" y="{margin}" width="{n * cell}" height="{n * cell}" '
        f'fill="{EMPTY}" stroke="{GRID}"/>',
    ]
    out += _cells(state, cell, margin)
    out += _labels(n, cell, margin)
    out += _caption(state, cell, margin, n * cell + 2 * margin, title,
                    tuple(names) if names else state.players)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _default_title(state: State) -> str:
    return f"Corner Claim {state.variant.name}: " + ", ".join(state.players)


def _cells(state: State, cell: int, margin: int) -> list[str]:
    colours = state.variant.colours
    out = []
    for row, line in enumerate(state.board()):
        for x, seat in enumerate(line):
            fill = PALETTE[colours[seat - 1]] if seat else None
            px, py = margin + x * cell, margin + row * cell
            if fill:
                out.append(f'<rect x="{px}" y="{py}" width="{cell}" height="{cell}" '
                           f'fill="{fill}" stroke="{INK}" stroke-width="0.5"/>')
            else:
                out.append(f'<rect x="{px}" y="{py}" width="{cell}" height="{cell}" '
                           f'fill="none" stroke="{GRID}" stroke-width="0.5"/>')
    return out


def _labels(n: int, cell: int, margin: int) -> list[str]:
    out = []
    half = cell // 2
    for x in range(n):
        cx = margin + x * cell + half
        out.append(f'<text x="{cx}" y="{margin - 6}" text-anchor="middle" '
                   f'fill="{INK}">{COLUMNS[x]}</text>')
    for row in range(n):
        cy = margin + row * cell + half + cell // 6
        out.append(f'<text x="{margin - 4}" y="{cy}" text-anchor="end" '
                   f'fill="{INK}">{n - row}</text>')
    return out


def _caption(state: State, cell: int, margin: int, top: int, title: str | None,
             names: tuple[str, ...]) -> list[str]:
    out = []
    y = top
    if title:
        out.append(f'<text x="{margin}" y="{y}" fill="{INK}" font-weight="bold">'
                   f"{escape(title)}</text>")
        y += cell
    outcome = RULES.outcome(state) if state.is_over else None
    for seat in state.seats:
        colour = state.variant.colours[seat - 1]
        text = f"{names[seat - 1]}: {state.score(seat)}"
        if outcome is not None:
            text += f" ({outcome.results[seat - 1]})"
        if seat in state.left:
            text += " (left)"
        out.append(f'<rect x="{margin}" y="{y - cell // 2}" width="{cell // 2}" '
                   f'height="{cell // 2}" fill="{PALETTE[colour]}"/>')
        out.append(f'<text x="{margin + cell}" y="{y}" fill="{INK}">{escape(text)}</text>')
        y += cell
    return out
