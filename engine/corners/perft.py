"""perft: the number of legal move sequences of a given length from a position, as chess
engines count them to test a move generator.

A sequence stops where the game ends (a move that ends it counts at the last depth only);
threefold repetition, which needs the game's history, is not looked at.
"""

from __future__ import annotations

from .moves import judge, legal_pairs
from .variants import Variant


def count(state, depth: int) -> int:
    """Legal move sequences of length `depth` from `state` (a `rules.State`)."""
    if state.over:
        return 1 if depth == 0 else 0
    return _perft(state.variant, list(state.board), state.plies, state.pending, depth)


def _perft(variant: Variant, board: list[int], plies: int, pending: bool, depth: int) -> int:
    if depth == 0:
        return 1
    seat = 1 + plies % 2
    pairs = legal_pairs(board, seat, variant)
    if depth == 1:
        return len(pairs)
    number = plies // 2 + 1
    total = 0
    for f, t in pairs:
        board[f], board[t] = 0, seat
        reason, _winner, after = judge(variant, board, seat, number, t, pending)
        if reason is None:
            total += _perft(variant, board, plies + 1, after, depth - 1)
        board[f], board[t] = seat, 0
    return total
