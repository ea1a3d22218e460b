"""The quick player: a search level's move while its compiled search is not loaded yet.

numba compiles the search's kernels at their first call, 20–60 s of one core on a fresh
install (docs/performance.md, "First move"). While a process's warm-up compiles them in the
background, `choose_move` answers a search level with this player, which calls nothing
compiled: plain Python over the engine's own move generator.

It is a flat Monte-Carlo search over the moves the levels' search would look at first: the
`QUICK_WIDTH` best by the one-ply heuristic (big pieces only in a colour's first moves, as
the search prunes, `playing.min_piece_size`), each starting with the search's prior value
(`mcts.PRIOR_N` virtual simulations worth `PRIOR_TOP − PRIOR_SLOPE·(best − its score)`),
then UCB1 over them; a simulation plays the candidate and then the game to its end, every
colour drawing `QUICK_DRAWS` random legal moves (`Position.random_move`) and keeping one with
probability proportional to the playouts' static weight (`MoveFacts.gamma`: big pieces and
pieces with many corners first). Its reward is the search's: the rank among the colours in
[0, 1] plus `SCORE_BONUS · tanh(margin / SCORE_SCALE)`, seats that left ranking last. It plays
the candidate of the best value.

A simulation costs about 1–2 ms on the duo board and 3–6 ms on the 20×20 boards, so it
runs `QUICK_PLAYOUTS` simulations or `QUICK_SECONDS`, whichever ends first: it plays better
than level 2's one-ply choice (docs/ai.md has the match) and answers in well under a second.
Reproducible for a seed when the time cap does not cut it short.
"""

from __future__ import annotations

import math
import random
import time

from .heuristic import score_moves
from .mcts import (
    DEAD_SCORE,
    PRIOR_FLOOR,
    PRIOR_N,
    PRIOR_SLOPE,
    PRIOR_TOP,
    SCORE_BONUS,
    SCORE_SCALE,
)
from .playing import min_piece_size
from .tables import move_facts

QUICK_WIDTH = 8  # candidates: the best by the one-ply heuristic
QUICK_PLAYOUTS = 240  # simulations at most
QUICK_SECONDS = 0.6  # and at most this long
QUICK_DRAWS = 3  # random legal moves a playout colour draws before keeping one by weight
QUICK_C = 0.3  # UCB1's exploration constant


def quick_move(pos, color: int, *, seed: int | None = None, dead: frozenset = frozenset(),
               playouts: int = QUICK_PLAYOUTS, seconds: float = QUICK_SECONDS) -> int | None:
    """The quick player's move for `color` in `pos` (a `Position`); None when it has none.
    `dead`: colours whose seats left the game (they never move and rank last)."""
    started = time.perf_counter()
    moves = pos.legal_moves(color)
    if not moves:
        return None
    min_size = min_piece_size(pos.bc.size, pos.nu_played[color])
    size = move_facts(pos.bc.size).size
    big = [m for m in moves if size[m] >= min_size]
    moves = big or moves
    scores = score_moves(pos, color, moves)
    order = sorted(range(len(moves)), key=lambda i: -scores[i])[:QUICK_WIDTH]
    if len(order) == 1:
        return moves[order[0]]
    best = scores[order[0]]
    cands = [moves[i] for i in order]
    # visits and summed reward per candidate, starting from the prior's virtual simulations
    visits = [float(PRIOR_N)] * len(cands)
    total = [PRIOR_N * max(PRIOR_FLOOR, PRIOR_TOP - PRIOR_SLOPE * (best - scores[i]))
             for i in order]
    rnd = random.Random(seed)
    n = 0
    while n < playouts and time.perf_counter() - started < seconds:
        log_n = math.log(sum(visits))
        i = max(range(len(cands)), key=lambda j: total[j] / visits[j]
                + QUICK_C * math.sqrt(log_n / visits[j]))
        p = pos.copy()
        p.play(color, cands[i])
        total[i] += _reward(_playout(p, (color + 1) % p.nu_colors, rnd, dead), color, dead)
        visits[i] += 1
        n += 1
    i = max(range(len(cands)), key=lambda j: (total[j] / visits[j], visits[j]))
    return cands[i]


def _playout(p, color: int, rnd: random.Random, dead: frozenset):
    """Play `p` (changed in place) to its end from `color`, every colour drawing
    `QUICK_DRAWS` random legal moves and keeping one by weight; returns `p`."""
    gamma = move_facts(p.bc.size).gamma
    n = p.nu_colors
    alive = [c not in dead for c in range(n)]
    draw = rnd.random
    stuck = 0  # colours in a row that could not move
    c = color
    while stuck < n:
        if not alive[c]:
            stuck += 1
            c = (c + 1) % n
            continue
        m = p.random_move(c, draw)
        if m is None:
            alive[c] = False  # a colour that cannot move never can again
            stuck += 1
            c = (c + 1) % n
            continue
        weight = gamma[m]
        for _ in range(QUICK_DRAWS - 1):  # keep one of the draws, by weight
            other = p.random_move(c, draw)
            w = gamma[other]
            weight += w
            if draw() * weight < w:
                m = other
        p.play(c, m)
        stuck = 0
        c = (c + 1) % n
    return p


def _reward(p, color: int, dead: frozenset) -> float:
    """The searching colour's reward at the end of a playout: its rank among the colours in
    [0, 1] (ties count half) plus the margin bonus against the best of the others."""
    scores = [DEAD_SCORE if c in dead else p.score(c) for c in range(p.nu_colors)]
    own = scores[color]
    others = scores[:color] + scores[color + 1:]
    rank = sum(1.0 if s < own else 0.5 if s == own else 0.0 for s in others) / len(others)
    return rank + SCORE_BONUS * math.tanh((own - max(others)) / SCORE_SCALE)
