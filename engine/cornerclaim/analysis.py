"""Corner Claim's review of a finished game's moves (`engine.analysis`), in win chances.

A position is searched by the strongest level's search (`ai.flat.FlatSearch` with level 6's
options but plain rewards, `PLAIN`, and `SIMULATIONS` simulations, so a busy machine or a
paused worker changes its time, never its answer; a lower `level`: that level's playouts).
A root move's value is its mean reward for the mover (each colour's share of the others it
beats; a win in the 2-colour Duo), clamped to 0..1; the best move is the search's.

The move played is judged inside the same search as the best one when the search gave it at
least `SAME_SEARCH_VISITS` simulations of its own: both values then come from the same tree.
A move the search hardly tried is judged, in a game of two colours in play, by searching the
position after it and the position after the best move the same way (each from the side to
move there, so the two values are alike in kind and their difference is the loss); with more
colours in play, by its own root value.

A move that seems to lose more than a best move may is reviewed again with other random
draws, and the smaller of the two losses counts: a label is given only for a loss the noise
of one search does not explain (docs/review.md has the noise measured). A move the opening book
plays there (level 6's book) is a book move. `seed` changes the searches' random draws:
reviewing a game again with another seed measures the noise.
"""

from __future__ import annotations

from ..analysis import PlyReview, Thresholds
from .ai import LEVELS
from .ai.features import recent_placements
from .ai.flat import FlatSearch
from .ai.mcts import PRIOR_N

#: A move's loss in win chance: up to 0.06 a best move (the 90th percentile of the loss's
#: noise between seeds is 0.05), under 0.12 a good one, then an inaccuracy, from 0.20 a
#: mistake and from 0.30 a blunder (docs/review.md; scripts/bench_review.py measures the noise).
THRESHOLDS = Thresholds("win", inaccuracy=0.12, mistake=0.20, blunder=0.30, best=0.06)
#: Simulations of the strongest level's search per position reviewed: about 1.1 s of one
#: core on Duo's empty board, 0.35 s in the middle game, less at the end (docs/performance.md).
SIMULATIONS = 12_000
#: A root move with at least this many simulations of its own is judged in the root's search.
SAME_SEARCH_VISITS = 150
#: Seconds of the wall clock a position's search stops at whatever it has done (a machine
#: far slower than planned; the host pauses an analysis worker while a computer plays).
SECONDS_CAP = 60.0
#: The lowest level with a search (1 and 2 look one move ahead: a lower level reviews as it).
SEARCH_LEVEL = 3
KEEP = 6
#: A move that seems to lose more than a best move's bound is searched again with other draws
#: (this many seeds on), and the smaller loss counts: what one search's noise made is not
#: a label.
RECHECK_SEED = 1_000
#: The review's rewards: each colour's rank and the small fixed margin bonus, never level 6's
#: bonus relative to the search's own mean margin (which gives a lost position a value well
#: above 0), so that a root move's value is a win chance from either side.
PLAIN = {"relative": 0.0, "length": 0.0}
_kept: dict[tuple, tuple[int | None, float, dict[int, float], dict[int, int]]] = {}


def analyse_ply(state, seat: int, move: str, *, level: int | None = None,
                seed: int = 0) -> PlyReview:
    got = _analysed(state, seat, move, level, seed)
    if got.book or got.loss <= THRESHOLDS.best:
        return got
    again = _analysed(state, seat, move, level, seed + RECHECK_SEED)
    return again if again.loss < got.loss else got


def _analysed(state, seat: int, move: str, level: int | None, seed: int) -> PlyReview:
    from .rules import RULES

    lv = max(LEVELS) if level is None else max(SEARCH_LEVEL, min(level, max(LEVELS)))
    played = RULES.parse_move(state, seat, move)
    best, value, values, visits = _searched(state, seat, lv, seed)
    book = False
    if LEVELS[max(LEVELS)].book:
        from .ai.book import book_move

        book = book_move(state, seat) == played
    if best is None or best == played:
        best = played
        value_after = values.get(played, value)
        return PlyReview(state.move_str(best), value_after, value_after, book=book)
    if visits.get(played, 0) >= SAME_SEARCH_VISITS or not _two_in_play(state):
        return PlyReview(state.move_str(best), value, values.get(played, value), book=book)
    after = _after(RULES, state, seat, played)
    after_best = _after(RULES, state, seat, best)
    return PlyReview(state.move_str(best), _value_for(after_best, seat, lv, seed),
                     _value_for(after, seat, lv, seed), book=book)


def _two_in_play(state) -> bool:
    return state.nu_seats == 2 or state.nu_seats - len(state.left) == 2


def _after(rules, state, seat: int, move: int):
    return rules.apply(state, rules.play(state, seat, state.move_str(move)))


def _value_for(state, seat: int, level: int, seed: int) -> float:
    """The value of `state` for `seat` in a game of two colours in play (a forced move, which
    the search does not try, is followed to the position after it)."""
    from .rules import RULES

    while not state.is_over:
        mover = state.to_move
        best, value, values, _ = _searched(state, mover, level, seed)
        if len(values) != 1 or best is None:
            return value if mover == seat else 1.0 - value
        state = _after(RULES, state, mover, best)
    result = RULES.outcome(state).results[seat - 1]
    return {"win": 1.0, "draw": 0.5}.get(result, 0.0)


def _searched(state, seat: int, level: int, seed: int
              ) -> tuple[int | None, float, dict[int, float], dict[int, int]]:
    """(the best move, its value, every root move's value, every root move's own
    simulations) of `level`'s search for `seat`."""
    key = (state.variant.name, state.placements, state.left, seat, level, seed)
    hit = _kept.get(key)
    if hit is not None:
        return hit
    spec = LEVELS[level]
    pos = state.position
    color = seat - 1
    dead = frozenset(s - 1 for s in state.left if s != seat)
    options = spec.search_options(pos, color) | PLAIN
    search = FlatSearch(pos, color, seed=len(state.placements) + 1 + 7919 * seed,
                        recent=recent_placements(state), dead=dead, **options)
    if spec.playouts >= 1_000_000:
        search.run(SIMULATIONS, SECONDS_CAP)
    else:
        search.run(spec.playouts, spec.seconds)
    t = search.tree
    span = t.children(0)
    values: dict[int, float] = {}
    visits: dict[int, int] = {}
    for m, n, w, cap in zip(t.move[span].tolist(), t.n[span].tolist(), t.w[span].tolist(),
                            t.cap[span].tolist(), strict=True):
        q = w / n if n else 0.5
        if cap:
            q = min(q, 0.5)
        values[m] = min(1.0, max(0.0, q))
        visits[m] = max(0, n - PRIOR_N)
    best = search.best_move()
    got = (best, values.get(best, search.value()) if best is not None else 0.5, values, visits)
    _kept[key] = got
    while len(_kept) > KEEP:
        del _kept[next(iter(_kept))]
    return got
