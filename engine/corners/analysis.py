"""Corners' review of a finished game's moves (`engine.analysis`), in win chances.

Every legal move of the position is searched by the strongest level's search (`ai.DeepSearch`
with level 4's evaluation and selectivity), each with a full window so that each move has its
own value, deepening one ply at a time to `DEPTH` plies: the played move and the best one are
judged inside the same search, and a fixed depth makes the review the same on any machine
(no clock: `SECONDS_CAP` of CPU time only stops a machine far slower than planned, keeping the
last depth completed). A level with a depth of its own reviews at that depth.

A value is mapped to the mover's win chance by a logistic curve whose width grows with the
race left: `SCALE` · √(remaining + 1) evaluation units make e ≈ 2.7 to 1, where `remaining`
is both sides' cost still to run (the Expert's: distance beyond the least, pieces outside
the target), so a lead of three steps is little at the start and decisive at the end. The
curve is fitted to the outcomes of games between Experts (lab/review/fit_corners.py); a
forced win or loss is 1 or 0, a forced draw one half. The search draws nothing at random, so the
review's noise is its horizon's: how much a move's loss changes one ply deeper (docs/review.md).
"""

from __future__ import annotations

import math
import time

from ..analysis import PlyReview, Thresholds
from . import ai
from .moves import chains, legal_pairs

#: A move's loss in win chance: up to 0.06 a best move (the loss changes by 0.058 at the
#: 90th percentile when the search goes a ply deeper: scripts/bench_review.py), under 0.12 a
#: good one, then an inaccuracy, from 0.20 a mistake and from 0.30 a blunder (docs/review.md).
THRESHOLDS = Thresholds("win", inaccuracy=0.12, mistake=0.20, blunder=0.30, best=0.06)
DEPTH = 4
SECONDS_CAP = 20.0
#: The win-chance curve's width per √(remaining + 1) (lab/README.md: the fit, 2,531
#: positions of 30 games between Experts).
SCALE = 0.6


def win_chance(value: float, remaining: float) -> float:
    """The mover's win chance for a search value from its side, with `remaining` of the race
    left."""
    if value >= ai.WIN // 2:
        return 1.0
    if value <= -ai.WIN // 2:
        return 0.0
    width = SCALE * math.sqrt(max(0.0, remaining) + 1.0)
    return 1.0 / (1.0 + math.exp(-value / width))


def remaining(state) -> float:
    """Both sides' cost still to run in `state` (the Expert's evaluation of each side)."""
    search = ai.DeepSearch(state.variant, list(state.board), state.plies, state.pending,
                           0.0, ai.LEVELS[max(ai.LEVELS)])
    number = state.plies // 2 + 1
    return search.cost(0, number) + search.cost(1, number)


def analyse_ply(state, seat: int, move: str, *, level: int | None = None,
                seed: int = 0) -> PlyReview:
    path = state.variant.board.parse_path(move)  # a logged move: legal, from–to or whole
    played = (path[0], path[-1])
    depth = DEPTH
    if level is not None:
        lv = ai.LEVELS.get(level) or ai.LEVELS[max(ai.LEVELS)]
        depth = max(1, lv.depth) if lv.deep and lv.depth > 1 or not lv.deep else DEPTH
    values = scored(state, seat, depth)
    best = max(values, key=lambda m: (values[m], m == played))
    text = move if best == played else _text(state, best)
    left = remaining(state)
    return PlyReview(text, win_chance(values[best], left),
                     win_chance(values.get(played, values[best]), left))


def _text(state, pair: tuple[int, int]) -> str:
    """The move text of (from, to): its shortest chain's whole path, as the computer plays it."""
    f, t = pair
    return state.variant.board.path_text(chains(list(state.board), f, state.variant)[t])


def scored(state, seat: int, depth: int) -> dict[tuple[int, int], float]:
    """Every legal (from, to) of `seat` with its value from `seat`'s side: the Expert's
    search, a full window per move, deepened to `depth` plies (the last depth completed
    within `SECONDS_CAP` of CPU time)."""
    lv = ai.LEVELS[max(ai.LEVELS)]
    search = ai.DeepSearch(state.variant, list(state.board), state.plies, state.pending,
                           time.thread_time() + SECONDS_CAP, _fresh(lv))
    s = seat - 1
    pairs = legal_pairs(search.board, seat, state.variant)
    order = search.order(pairs, s, 0, None)
    values: dict[tuple[int, int], float] = {}
    for d in range(1, depth + 1):
        got = {}
        try:
            for f, t in order:
                got[(f, t)] = search.child(s, f, t, d, -ai.WIN * 2, ai.WIN * 2, 0)
        except ai.Stop:
            break
        values = got
        order = sorted(order, key=lambda m: -got[m])
    return values


def _fresh(lv):
    """`lv` with a table of its own (the review keeps nothing from one position to the next)."""
    from dataclasses import replace

    return replace(lv, keep=False)
