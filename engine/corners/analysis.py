"""Corners' review of a finished game's moves (`engine.analysis`), in win chances.

Every legal move of the position is searched by the plain alpha-beta search (`ai.Search`:
the levels' evaluation, the expert's width below the root's children), with a full window
so that each move has its own value, deepening one ply at a time to `DEPTH` plies within
`SECONDS` of CPU time a move; the values of the last depth
completed count. A value is mapped to the mover's win chance by a logistic curve (`SCALE`
steps of remaining distance make e ≈ 2.7 to 1), a forced win or loss to 1 or 0, a forced
draw to one half. A `level` with a depth of its own reviews at that depth; the timed
Expert's at `DEPTH`.
"""

from __future__ import annotations

import math
import time

from ..analysis import PlyReview, Thresholds
from . import ai
from .moves import has_move, judge, legal_pairs, stuck_end

#: A move's loss in win chance: up to 0.02 a best move, under 0.05 a good one, then an
#: inaccuracy, from 0.10 a mistake and from 0.20 a blunder.
THRESHOLDS = Thresholds("win", inaccuracy=0.05, mistake=0.10, blunder=0.20, best=0.02)
DEPTH = 6
SECONDS = 0.35
SCALE = 4.0


def win_chance(value: int) -> float:
    """The mover's win chance for a search value from its side."""
    if value >= ai.WIN // 2:
        return 1.0
    if value <= -ai.WIN // 2:
        return 0.0
    return 1.0 / (1.0 + math.exp(-value / SCALE))


def analyse_ply(state, seat: int, move: str, *, level: int | None = None) -> PlyReview:
    from .rules import RULES

    path = RULES.check_move(state, seat, move)
    played = (path[0], path[-1])
    if level is None:
        depth, width, seconds = DEPTH, ai.LEVELS[max(ai.LEVELS)].width, SECONDS
    else:
        lv = ai.LEVELS.get(level) or ai.LEVELS[max(ai.LEVELS)]
        # a level that searches on a time budget (no depth of its own) reviews as deep as
        # the review goes
        timed = lv.deep and lv.depth <= 1
        depth, width, seconds = DEPTH if timed else max(1, lv.depth), lv.width, SECONDS
    values = scored(state, seat, depth, width, seconds)
    best = max(values, key=lambda m: (values[m], m == played))
    text = move if best == played else _text(RULES, state, seat, best)
    return PlyReview(text, win_chance(values[best]), win_chance(values.get(played, values[best])))


def _text(rules, state, seat: int, pair: tuple[int, int]) -> str:
    """The move text of (from, to) as the host lists it among the legal moves."""
    for entry in rules.legal(state, seat):
        path = rules.check_move(state, seat, entry["move"])
        if (path[0], path[-1]) == pair:
            return entry["move"]
    raise ValueError(f"no legal move {pair}")


def scored(state, seat: int, depth: int, width: int, seconds: float) -> dict[tuple[int, int], int]:
    """Every legal (from, to) of `seat` with its value from `seat`'s side: the expert's
    search, a full window per move, deepened to `depth` plies within `seconds` of CPU time."""
    variant = state.variant
    search = ai.Search(variant, list(state.board), state.plies, state.pending, width=width,
                       deadline=time.thread_time() + seconds)
    pairs = search.ordered(seat, legal_pairs(search.board, seat, variant))
    number = state.plies // 2 + 1
    pending = search.pending
    values: dict[tuple[int, int], int] = {}
    for d in range(1, depth + 1):
        got = {}
        try:
            for f, t in pairs:
                search.make(seat, f, t)
                try:
                    reason, winner, after = judge(variant, search.board, seat, number, t,
                                                  pending)
                    if reason is not None:
                        v = search.terminal(reason, winner, seat, 1)
                    elif not has_move(search.board, 3 - seat, variant):
                        v = search.terminal(*stuck_end(after), seat, 1)
                    elif d == 1:
                        v = search.value(seat)
                    else:
                        search.pending = after
                        v = -search.negamax(d - 1, -ai.WIN * 2, ai.WIN * 2, 1)
                finally:
                    search.pending = pending
                    search.unmake(seat, f, t)
                got[(f, t)] = v
        except ai._Stop:
            break
        values = got
        pairs = sorted(pairs, key=lambda m: -got[m])
    return values
