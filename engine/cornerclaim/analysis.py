"""Corner Claim's review of a finished game's moves (`engine.analysis`), in win chances.

A position's value for the colour to move is the win estimate of the strongest level's
search (`ai.flat.FlatSearch` with level 6's options, `SIMULATIONS` simulations, so a busy
machine or a paused worker changes its time, never its answer; a lower `level`: that level's
playouts): the mean reward of its best root move, each colour's share of the
others it beats (a win in the 2-colour Duo), clamped to 0..1. The best move is the search's.

The value after the move played, from the mover's side: in a 2-colour game the next
position's value (one minus it when the other colour moves next, itself when the mover
moves again, the result once the game is over), so each position is searched once over a
whole game (`_searched` keeps the last few); with 3 or 4 colours the move's own value at
the root of the mover's search (its playouts and its prior).

A move the opening book plays there (level 6's book) is a book move.
"""

from __future__ import annotations

from ..analysis import PlyReview, Thresholds
from .ai import LEVELS
from .ai.features import recent_placements
from .ai.flat import FlatSearch

#: A move's loss in win chance: up to 0.02 a best move, under 0.05 a good one, then an
#: inaccuracy, from 0.10 a mistake and from 0.20 a blunder.
THRESHOLDS = Thresholds("win", inaccuracy=0.05, mistake=0.10, blunder=0.20, best=0.02)
#: Simulations of the strongest level's search per position reviewed: about 1.1 s of one
#: core on Duo's empty board, 0.35 s in the middle game, less at the end (docs/performance.md).
SIMULATIONS = 12_000
#: Seconds of the wall clock a position's search stops at whatever it has done (a machine
#: far slower than planned; the host pauses an analysis worker while a computer plays).
SECONDS_CAP = 60.0
#: The lowest level with a search (1 and 2 look one move ahead: a lower level reviews as it).
SEARCH_LEVEL = 3
KEEP = 4
_kept: dict[tuple, tuple[int | None, float, dict[int, float]]] = {}


def analyse_ply(state, seat: int, move: str, *, level: int | None = None) -> PlyReview:
    from .rules import RULES

    lv = max(LEVELS) if level is None else max(SEARCH_LEVEL, min(level, max(LEVELS)))
    played = RULES.parse_move(state, seat, move)
    best, value, children = _searched(state, seat, lv)
    book = False
    if LEVELS[max(LEVELS)].book:
        from .ai.book import book_move

        book = book_move(state, seat) == played
    if state.nu_seats - len(state.left) == 2 or state.nu_seats == 2:
        after = RULES.apply(state, RULES.play(state, seat, move))
        value_after = _value_for(after, seat, lv)
    else:
        value_after = children.get(played, value)
    if best is None:
        best = played
    value_before = value_after if best == played else value
    return PlyReview(state.move_str(best), value_before, value_after, book=book)


def _value_for(state, seat: int, level: int) -> float:
    """The value of `state` for `seat` in a game of two colours in play."""
    if state.is_over:
        from .rules import RULES

        result = RULES.outcome(state).results[seat - 1]
        return {"win": 1.0, "draw": 0.5}.get(result, 0.0)
    mover = state.to_move
    _, value, _ = _searched(state, mover, level)
    return value if mover == seat else 1.0 - value


def _searched(state, seat: int, level: int) -> tuple[int | None, float, dict[int, float]]:
    """(the best move, its value, every root move's value) of `level`'s search for `seat`."""
    key = (state.variant.name, state.placements, state.left, seat, level)
    hit = _kept.get(key)
    if hit is not None:
        return hit
    spec = LEVELS[level]
    pos = state.position
    color = seat - 1
    dead = frozenset(s - 1 for s in state.left if s != seat)
    search = FlatSearch(pos, color, seed=len(state.placements) + 1, recent=recent_placements(state),
                        dead=dead, **spec.search_options(pos, color))
    if spec.playouts >= 1_000_000:
        search.run(SIMULATIONS, SECONDS_CAP)
    else:
        search.run(spec.playouts, spec.seconds)
    t = search.tree
    span = t.children(0)
    values: dict[int, float] = {}
    for m, n, w, cap in zip(t.move[span].tolist(), t.n[span].tolist(), t.w[span].tolist(),
                            t.cap[span].tolist(), strict=True):
        q = w / n if n else 0.5
        if cap:
            q = min(q, 0.5)
        values[m] = min(1.0, max(0.0, q))
    best = search.best_move()
    got = (best, values.get(best, search.value()) if best is not None else 0.5, values)
    _kept[key] = got
    while len(_kept) > KEEP:
        del _kept[next(iter(_kept))]
    return got
