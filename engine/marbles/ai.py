"""Corner's computer players: four levels, from a beginner to a deep alpha-beta search.

Once a round is dealt the game is deterministic and fully visible, so the stronger levels
search it. Every level reads a position through the score difference of the round as it
stands (the doubling included), seen from its own side; in the game's last round the search
adds the score of the finished rounds and counts a won game above any margin, so it plays for
the win rather than for points.

1. Beginner: takes a marble at random, a little likelier the more it gains right away.
2. Casual: the move that gains the most on the score difference right now (its own points
   and the doubling it takes from the other side).
3. Club: alpha-beta search four moves deep.
4. Expert: alpha-beta search deepening one move at a time (a transposition table, the best
   move of the last depth searched first) within a budget of 25,000 positions, about 0.2 s a
   move in the 2-player game and 0.3 s in the 4-player one on one core; from `SOLVE_FROM`
   takeable marbles left it first asks the exact solver (`solve.py`), and where that answers
   within its budget it plays an optimal move. It plays the game's last round for the win.

The seed breaks ties (and the beginner's draws), so a level replays the same game for the
same seed. `greedy_move` is the plain player the match runner measures against: it takes the
marble that scores the most for its own side now.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from .moves import side_of
from .search import INF, OWN_GAIN, WIN, Search, _Stop  # noqa: F401 - named here too
from .solve import NODES, solve


@dataclass(frozen=True)
class Level:
    name: str
    description: str
    seconds: float
    depth: int = 1
    nodes: int = 0  # the iterative deepening's budget of positions (0: a fixed depth)
    temperature: float = 0.0  # the beginner's randomness (0: the best move)
    #: From this many takeable marbles left (2 players; `solve4` with 4), the exact solver
    #: is asked first (0: never); where it answers within its budget the move is optimal,
    #: else the search plays.
    solve: int = 0
    solve4: int = 0


#: The expert asks the exact solver from this many takeable marbles left, by seats: where it
#: answers within its budget most of the time (scripts/bench_marbles_solver.py,
#: docs/marbles.md).
SOLVE_FROM = {2: 24, 4: 17}

LEVELS: dict[int, Level] = {
    1: Level("Beginner", "takes a marble at random, a little likelier the more it gains", 0.01,
             temperature=8.0),
    2: Level("Casual", "takes the marble that gains the most right now", 0.01),
    3: Level("Club", "looks four moves ahead (alpha-beta)", 0.02, depth=4),
    4: Level("Expert", "solves a round's end exactly, and searches 25,000 positions deep "
             "before that (alpha-beta)", 0.3, depth=40, nodes=25_000, solve=SOLVE_FROM[2],
             solve4=SOLVE_FROM[4]),
}
#: A search stops after this many seconds of its own CPU time (its thread's) whatever its
#: budget, on a slow machine; other work on the machine does not change the move it plays.
TIME_CAP = 0.8

# -- the players -------------------------------------------------------------------------------


def _check(state, seat: int, level: int) -> Level | None:
    lv = LEVELS.get(level)
    if lv is None:
        from ..errors import EngineError

        raise EngineError(f"Corner has no level {level} (1 to {len(LEVELS)})",
                          levels=sorted(LEVELS))
    if state.to_move != seat:
        return None
    return lv


def choose(state, seat: int, *, level: int, seed: int) -> tuple[int, int | None] | None:
    """The (line, cell or None for an opening placement) `level` plays for `seat`, or None
    if it is not its turn."""
    lv = _check(state, seat, level)
    if lv is None:
        return None
    rng = random.Random(seed * 1_000_003 + state.round * 101 + len(state.moves))
    search = Search(state, nodes=lv.nodes,
                    deadline=time.thread_time() + TIME_CAP if lv.depth > 1 else None)
    moves = search.moves(seat)
    if not moves:
        return None
    reach = lv.solve if state.seats == 2 else lv.solve4
    if reach and search.takeable() <= reach:
        solved = solve(state, nodes=NODES, cpu=TIME_CAP, win=True, every=False)
        if solved is not None:
            line, cell = rng.choice(solved.best)
            return line, cell
    if lv.temperature:
        gains = [search.gain(seat, c) for _, c in moves]
        top = max(gains)
        weights = [math.exp((g - top) / lv.temperature) for g in gains]
        line, cell = rng.choices(moves, weights)[0]
    else:
        line, cell = search.root(seat, lv.depth, rng)
    return line, (None if cell < 0 else cell)


def choose_move(state, seat: int, *, level: int, seed: int) -> str | None:
    """The move text `level` plays for `seat`, or None."""
    got = choose(state, seat, level=level, seed=seed)
    if got is None:
        return None
    return state.move_text(seat, *got)


def greedy_move(state, seat: int, *, seed: int = 0) -> str | None:
    """The plain player: the marble that scores the most for its own side now (the doubling
    as it stands), ties at random; an opening placement at random."""
    if state.to_move != seat:
        return None
    moves = state.legal_moves(seat)
    if not moves:
        return None
    rng = random.Random(seed * 1_000_003 + state.round * 101 + len(state.moves))
    side = side_of(seat)
    mine, theirs = state.counts[side], state.counts[1 - side]

    def own_gain(cell: int | None) -> int:
        if cell is None:
            return 0
        c = state.board[cell]
        return OWN_GAIN[mine[c]][theirs[c]]

    best = max(own_gain(c) for _, c in moves)
    line, cell = rng.choice([m for m in moves if own_gain(m[1]) == best])
    return state.move_text(seat, line, cell)
