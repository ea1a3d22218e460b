"""Replay files: the engine's JSON log as it is, and Pentobi's `.blksgf` of the placements
that count (taken-back moves are not in an SGF game record).
"""

from __future__ import annotations

from engine.cornerclaim import State

GAME_NAMES = {"duo": "Blokus Duo", "trio": "Blokus Trio", "classic": "Blokus"}


def _colour_tag(variant: str, seat: int) -> str:
    """Pentobi writes Duo's colours as B and W, larger games as 1..4."""
    return ("B", "W")[seat - 1] if variant == "duo" else str(seat)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def to_blksgf(state: State) -> str:
    """The game so far as a Pentobi SGF file (one node per placement)."""
    variant = state.variant.name
    head = f";GM[{GAME_NAMES[variant]}]"
    if variant == "duo":
        head += f"PB[{_escape(state.players[0])}]PW[{_escape(state.players[1])}]"
    nodes = [head]
    for _, seat, move in state.placements:
        nodes.append(f";{_colour_tag(variant, seat)}[{state.move_str(move)}]")
    return "(\n" + "\n".join(nodes) + "\n)\n"
