"""Corner's review of a finished game's moves (`engine.analysis`), in points: the value of a
position is the score difference (the finished rounds' totals and the round under way, the
doubling included) the mover's side ends the round with.

`analyse_ply` first asks the exact solver (`solve.py`, from `SOLVE_FROM` takeable marbles
left by seats, within `SOLVE_NODES` positions): where it answers, the best move is optimal
and every value exact (perfect play by both sides to the round's end), so the loss is exact.
Before that it searches every legal move with the expert level's alpha-beta search
(`search.Search`, a full window, deepening one move at a time within `NODES` positions; `level` a
lower level's depth, without the solver), and scores the move played and the best one the
same way.
"""

from __future__ import annotations

from ..analysis import PlyReview, Thresholds
from .ai import LEVELS
from .board import cell_of, parse_move
from .moves import is_opening, side_of
from .search import INF, Search, _Stop
from .solve import solve, takeable

#: A move's loss in points: up to 1 a best move (the search draws nothing at random: its
#: noise is the horizon's, a loss that changes by 1 point at the 90th percentile when the
#: search goes twice as far; scripts/bench_review.py), under 3 a good one, then an
#: inaccuracy, from 6 a mistake and from 10 a blunder.
THRESHOLDS = Thresholds("points", inaccuracy=3, mistake=6, blunder=10, best=1)
#: The positions one move's review may search (every legal move, a full window).
NODES = 60_000
#: The solver is asked from this many takeable marbles left (by seats), within this many
#: positions (scripts/bench_marbles_solver.py: the reach, docs/marbles.md).
SOLVE_FROM = {2: 25, 4: 18}
SOLVE_NODES = 250_000


def _played(state, seat: int, move: str) -> tuple[int, int | None]:
    """(the new line, the cell taken or None) of a logged move (legal: read, not checked)."""
    col, row = parse_move(move)
    line = col if side_of(seat) == 0 else row
    if is_opening(state.arrows):
        return line, None
    return line, cell_of(col, row)


def analyse_ply(state, seat: int, move: str, *, level: int | None = None,
                seed: int = 0) -> PlyReview:
    """`move`, played by `seat` in `state`, next to the best move there (values from the
    mover's side, in points)."""
    line, cell = _played(state, seat, move)
    if (level is None or level >= max(LEVELS)) and takeable(state) <= SOLVE_FROM[state.seats]:
        solved = solve(state, nodes=SOLVE_NODES)
        if solved is not None:
            values = dict(solved.moves)
            after = values[(line, cell)]
            best = (line, cell) if after == solved.value else solved.best[0]
            return PlyReview(state.move_text(seat, *best), float(solved.value), float(after),
                             exact=True)
    played = (line, -1 if cell is None else cell)
    lv = LEVELS[level if level in LEVELS else max(LEVELS)]
    depth = lv.depth if level is not None else 99
    search = Search(state)
    search.last = False  # points, not the won game
    moves = search.moves(seat)
    nxt = seat % search.n + 1
    horizon = bin(search.mask).count("1") + 1
    values = {m: search.leaf(seat) + (search.gain(seat, m[1]) if m[1] >= 0 else 0)
              for m in moves}
    exact = False
    search.budget = NODES if level is None or lv.nodes else 0
    for d in range(1, min(depth, horizon) + 1):
        got = {}
        try:
            for m in moves:
                undo = search.make(seat, *m)
                try:
                    got[m] = -search.negamax(nxt, d - 1, -INF, INF)
                finally:
                    search.unmake(seat, m[0], m[1], undo)
        except _Stop:
            break
        values = got
        if d >= horizon:
            exact = True
    best = max(moves, key=lambda m: (values[m], m == played))
    before = values[best]
    after = values.get(played, before)
    return PlyReview(state.move_text(seat, best[0], None if best[1] < 0 else best[1]),
                     float(before), float(after), exact=exact)
