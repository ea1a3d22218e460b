"""One-ply players for beginners: judge every legal move with `heuristic.score_moves`.

`greedy_move` plays the best-looking move (a seeded draw breaks ties); `sampled_move` draws
a move with probability growing with its score (a softmax at `temperature`), so it plays
plausibly — big pieces, near its corners — but makes the mistakes a beginner makes.
"""

from __future__ import annotations

import math
import random

from .heuristic import score_moves


def greedy_move(pos, color: int, *, seed: int | None = None) -> int | None:
    """The legal move with the best heuristic score; None when there is none. ~1–3 ms."""
    moves = pos.legal_moves(color)
    if not moves:
        return None
    rnd = random.Random(seed)
    scores = score_moves(pos, color, moves)
    best = max(range(len(moves)), key=lambda i: (scores[i], rnd.random()))
    return moves[best]


def sampled_move(pos, color: int, *, temperature: float,
                 seed: int | None = None) -> int | None:
    """A legal move drawn with weight exp(score / temperature); None when there is none."""
    moves = pos.legal_moves(color)
    if not moves:
        return None
    rnd = random.Random(seed)
    scores = score_moves(pos, color, moves)
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    return rnd.choices(moves, weights)[0]
