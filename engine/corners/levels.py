"""Corners' computer levels and what the searches share: the evaluation's distance tables, the
home penalty, the values of a win and of a move of lead in a race, and the time caps.
(`ai.py` holds the players and the one-ply search, `deep.py` the alpha-beta search of levels
3 and 4.)"""

from __future__ import annotations

from dataclasses import dataclass

from .variants import Variant

WIN = 100_000
TEMPO = 1
#: What a move of lead in a race the sides no longer touch is worth where the solo solver's
#: ranges do not decide it (well above any lead of the evaluation's).
RACE_UNIT = 200


@dataclass(frozen=True)
class Level:
    name: str
    description: str
    seconds: float
    depth: int = 1
    nodes: int = 0  # the search's budget of positions searched or evaluated (0: none)
    width: int = 0  # moves kept below the root's children (0: all)
    temperature: float = 0.0  # the beginner's randomness (0: the best move)
    miss_chains: float = 0.0  # how often the beginner overlooks chains of several jumps
    deep: bool = False  # `DeepSearch`: to `depth` plies if above 1, else as deep as `seconds` allow
    outside: float = 1.0  # the deep search's cost per piece outside the target
    straggle: float = 0.0  # its cost per square the rearmost piece trails beyond the slack
    slack: float = 2.0
    lmr: int = 0  # moves searched at full depth before non-gaining ones are reduced (0: none)
    keep: bool = False  # the deep search keeps its table from move to move
    race: bool = False  # the deep search decides a race the sides no longer touch by solo.py
    assign: float = 0.0  # weight of the pieces' steps to the nearest open target square
    reach: float = 0.0  # the side to move's tempo: this times its best move's gain (at least TEMPO)


LEVELS: dict[int, Level] = {
    1: Level("Beginner", "plays one move ahead with a random streak and often misses long "
             "jump chains", 0.01, temperature=1.5, miss_chains=0.5),
    2: Level("Casual", "plays the move that gains the most right now", 0.02),
    3: Level("Club", "looks four moves ahead, its own and the replies (alpha-beta), weighing "
             "how its pieces fill the target's open squares", 0.3, depth=4, deep=True,
             assign=1.0, nodes=300_000),
    4: Level("Expert", "thinks about a second a move and looks five to seven plies ahead on "
             "the classic board (alpha-beta), from its third ply on only the ten moves that "
             "gain the most, weighing how its pieces fill the target's open squares and the "
             "jumps ready to go", 1.0,
             deep=True, width=10, lmr=3, keep=True, race=True, assign=1.0, reach=1.0),
}
#: A search stops after this many seconds of its thread's CPU time whatever its budget (a slow
#: machine): with the check
#: every 256 positions and the move's own bookkeeping, a move stays within 2 s.
TIME_CAP = 1.8
#: The deepest a timed search goes (a won or lost position ends it sooner).
MAX_DEPTH = 60


# -- evaluation tables -------------------------------------------------------------------------

_TABLES: dict[str, tuple] = {}


def tables(variant: Variant) -> tuple:
    """The variant's distances: per seat, each square's distance to the far corner of its
    target (for move ordering), and between any two squares (`[p * n + q]`, n the board's
    number of squares)."""
    got = _TABLES.get(variant.name)
    if got is not None:
        return got

    n, diagonal = variant.squares, variant.diagonal

    def dist(p: int, q: int) -> int:
        return variant.board.distance(p, q, diagonal)

    corner = ([dist(q, n - 1) for q in range(n)], [dist(q, 0) for q in range(n)])
    pairs = [dist(p, q) for p in range(n) for q in range(n)]
    got = (corner, pairs)
    _TABLES[variant.name] = got
    return got


def home_penalty(variant: Variant, number: int) -> int:
    """What a piece still at home costs when the next move has `number`: nothing until a
    dozen moves before the deadline, then more with every move."""
    left = variant.deadline - number
    if left < 0 or left >= 12:
        return 0
    return (12 - left) * 2



class Stop(Exception):
    """A timed search's budget ran out mid-iteration."""
