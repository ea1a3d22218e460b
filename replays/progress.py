"""Figures a replay's chart draws besides the scores, per frame, for a game whose scores stand
still most of the game.

Corners' score is the pieces in the target, 0 for both sides until the last third of a game:
its replay also carries `distance`, per seat, each side's remaining distance at every frame
(the measure the computer's evaluation uses: over its pieces outside the target, the steps to
the nearest target square not filled yet), which falls with every move that brings a piece
nearer. Read from the game's own state (`Frame.state`), never by importing the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def corners_distance(state: Any) -> list[int]:
    """Each seat's remaining distance in a Corners position (its `variant`: the board's
    `distance`, each seat's `target`), in seat order: over the seat's pieces outside its
    target, the steps to the nearest target square it has not filled."""
    variant, board = state.variant, state.board
    step = variant.board.distance
    out = []
    for seat in state.seats:
        target = variant.target(seat)
        empty = [q for q in target if board[q] != seat]
        out.append(sum(min(step(p, q, variant.diagonal) for q in empty)
                       for p, piece in enumerate(board)
                       if piece == seat and p not in target) if empty else 0)
    return out


#: A game's figures: its key in the replay's `series`, and the figure per seat of a state.
FIGURES: dict[str, tuple[str, Callable[[Any], list[int]]]] = {
    "corners": ("distance", corners_distance),
}


def series(game: str, states: Sequence[Any]) -> dict[str, list[list[int]]]:
    """The game's own series (`{"distance": [[seat 1's figure per frame], …]}`), or {}."""
    if game not in FIGURES or not states:
        return {}
    key, figure = FIGURES[game]
    rows = [figure(s) for s in states]
    return {key: [list(seat) for seat in zip(*rows, strict=True)]}
