"""Computer players. Pure: given a state, a seat, a level and a seed, return a move id.

`choose_move` is the one entry point the host, GTP and benchmarks use; `hint` is the move a
mid level would play, for a human who asks. Levels are listed in `LEVELS` with friendly
names: two one-ply players for beginners, then Monte-Carlo tree search with growing budgets.

A search level is defined by its number of playouts, so a given seed always gives the same
move; its `seconds` cap only cuts a search short on a slow or busy machine (a cut search is
no longer reproducible). The top level is the exception: it thinks for its whole time budget.
With `bank` (an experiment option, off at every level) a time-bound search stops once no
further simulation could change its move, and the seconds it saves go to its later moves in
the same game (at most one budget more on a move), so it averages at most its budget a move.

Tree reuse: the search tree of the last call for each (variant, seat, level) is kept (the
`REUSE_SLOTS` most recent keys per process) and its subtree is reused when the next call for
that key is on a position that extends the previous one by a few placements (a valid tree
whichever game it came from). A game's moves
are then reproducible given its seeds and the calls before it in the process; pass
`reuse=False` for a search that depends on nothing but its arguments.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .features import recent_placements
from .flat import FlatNode, FlatSearch, supports
from .greedy import greedy_move, sampled_move
from .mcts import PRIOR_N, RACE_PLACEMENTS, Node, Search, child_for
from .playout import LOCAL_K


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    description: str
    playouts: int = 0  # 0: a one-ply player
    seconds: float = 3.0
    temperature: float = 0.0  # one-ply players: 0 plays the best move, more is looser
    book: bool = False  # play our opening book (`book.py`) while in book
    corner: bool = False  # with `book`, the big boards' corner book too (`book.corner_move`)
    local: bool = False  # playouts answer the opponents' last moves first (`playout.py`)
    rich: bool = False  # priors with the own-corners-lost and cramping terms (`heuristic.py`)
    learned: bool = False  # priors from the fitted feature model (`features.py`, `priors.json`)
    race: int = RACE_PLACEMENTS  # 20×20: placements each spent racing to the centre (`mcts`)
    race_each: bool = False  # the race counted per colour, not on the average (`mcts.racing`)
    race_corners: bool = False  # the race's later moves: only those gaining most attach points
    bank: bool = False  # time-bound: stop a decided search, spend the time saved later
    lgr: bool = False  # playouts play the last good replies first (`playout.Replies`)
    rave_dist: bool = False  # RAVE credit weighted by how soon after a move came (`mcts`)
    relative: float = 0.0  # weight of the margin bonus relative to the search's playouts
    expand_inc: float = 0.0  # visits more a node needs before expanding, per level of depth
    length: float = 0.0  # weight of the game-length bonus (`mcts.RelativeRewards`)
    pace: int = 0  # time-bound: split the budget over the game by `PACES[pace]` (0: flat)
    merged: bool = False  # Pentobi's tree policy (`mcts.Search.select_merged`)
    sizes: bool = False  # playouts keep the opening's piece sizes (`playout.playout`)
    gamma5: bool = False  # playouts weigh candidates by 5^size (`playout.GAMMA5_SIZE`)
    uct_big: float = 0.0  # 20×20: the UCT exploration constant (0: `mcts.UCT_C` there too)
    local_next: int = 1  # >2 colours: a local point the next colour opened counts this often
    widen: float = 0.0  # the progressive widening's rate per √visits (0: `mcts.WIDEN_RATE`)
    corners: float = 0.0  # playouts: a candidate's weight × this per new corner (0: off)
    corners_mid: bool = False  # `corners` only for a colour's fourth to sixth pieces
    corners_big: float = 0.0  # 20×20: `corners` there (0: the level's `corners` there too)

    #: The fields that are `mcts.Search` options, under the same names.
    SEARCH_FIELDS = ("local", "rich", "learned", "race", "lgr", "rave_dist", "relative",
                     "expand_inc", "length", "merged", "sizes", "gamma5", "race_each",
                     "uct_big", "local_next", "widen", "corners", "race_corners")

    def search_args(self, **overrides) -> dict:
        """This level's `mcts.Search` options as keyword arguments, with `overrides` that
        are not None in their place (how `choose_move` and the benchmarks build a search
        the way the level plays)."""
        args = {name: getattr(self, name) for name in self.SEARCH_FIELDS}
        args.update((k, v) for k, v in overrides.items() if v is not None)
        return args

    def options_for(self, pos, color: int, corners_mid: bool | None = None,
                    **overrides) -> dict:
        """`search_args` for a search of `color` in `pos` as this level plays it there:
        `corners_big` as the corners factor on the 20×20 boards unless `corners` is asked
        for, and with `corners_mid` (default: the level's) the factor only while the colour
        has placed `CORNERS_MIDDLE` pieces (outside them 0, a different reuse key: the
        tree is not reused across the switch)."""
        args = self.search_args(**overrides)
        if overrides.get("corners") is None and self.corners_big and pos.variant.size == 20:
            args["corners"] = self.corners_big
        first, stop = CORNERS_MIDDLE
        if (self.corners_mid if corners_mid is None else corners_mid) and not (
                first <= pos.nu_played[color] < stop):
            args["corners"] = 0.0
        return args


LEVELS: dict[int, Level] = {
    1: Level(1, "Sprout", "plays big pieces near its corners, but often not the best one",
             temperature=1.2),
    2: Level(2, "Scout", "always lays the piece that looks best right now", temperature=0.15),
    3: Level(3, "Tactician", "looks a few moves ahead (Monte-Carlo search, 60 games)",
             playouts=60),
    4: Level(4, "Strategist", "plans ahead (Monte-Carlo search, 250 games)", playouts=250),
    5: Level(5, "Master", "reads deeply (Monte-Carlo search, 800 games)", playouts=800),
    6: Level(6, "Grandmaster", "opening book, then thinks for about 3 seconds a move",
             playouts=1_000_000, seconds=3.0, book=True, local=True, learned=True, lgr=True,
             relative=0.3, expand_inc=0.5, length=0.12, uct_big=0.35, corners_big=4.0,
             corners_mid=True, race_corners=True),
}
HINT_LEVEL = 3

REUSE_SLOTS = 4
# key -> (placements, root, seconds banked, last good replies), oldest first
_reuse: dict[tuple, tuple] = {}
BANK_SHARE = 1.0  # a move may spend at most this share of its own budget again from the bank
BANK_CAP = 10.0  # the bank holds at most this many budgets
#: With `pace`, the share of its budget a time-bound search gets, by how many pieces its
#: colour has placed: (placed at least, share). Less while big pieces race to the middle
#: or the book's openings are still near, more in the middle game, where the matches
#: against Pentobi are won and lost (docs/ai.md); a colour places about 18 pieces in a
#: classic game, so the mean share stays at about one budget. Off at every level: it
#: measured no better than a flat budget (docs/ai.md).
PACE = ((0, 0.5), (2, 0.8), (5, 1.0), (8, 1.35), (15, 0.8))
#: The same for the early middle game, where the matches against Pentobi part: from the
#: third to the ninth piece a colour's mobility (its legal moves against the other
#: colours') falls behind in the games level 6 loses and pulls ahead in the ones it wins
#: (docs/ai.md); the endgame, where a search runs several times the simulations a second,
#: pays for it.
PACE_EARLY = ((0, 0.6), (2, 1.5), (9, 0.7))
#: The same after the corner book (20×20 only, `book.corner_move`): the book plays a
#: colour's first moves at no cost, and the time they saved goes to the moves after it,
#: where a search with twice the time agrees with Pentobi 7 a third more often (docs/ai.md).
#: The rest of the game keeps a full budget.
PACE_BOOK = ((0, 1.0), (3, 1.5), (9, 1.0))
#: The same for each colour's fourth to sixth pieces, where finishes of level 6's games
#: lose to Pentobi 6 (docs/ai.md): nearly twice the budget there, paid for from the tenth
#: piece on, where searches run several times the simulations a second. Off: 6 s on
#: exactly those turns measured even with 3 s (docs/ai.md, twenty-fifth session).
PACE_MIDDLE = ((0, 1.0), (3, 1.9), (6, 1.0), (9, 0.7))
#: The time splits by `pace` number (1 to 4; 0 is a flat budget).
PACES = {1: PACE, 2: PACE_EARLY, 3: PACE_BOOK, 4: PACE_MIDDLE}
#: The splits that apply on the 20×20 board only (a flat budget elsewhere).
BIG_BOARD_PACES = frozenset({3, 4})
#: With `corners_mid`, the searches whose playouts weigh new corners (`corners`): those of
#: a colour that has placed at least the first and fewer than the second number of pieces,
#: its fourth to sixth, where the factor measured a gain played alone (on every turn it
#: gained nothing over whole games; this way 1.96 over its first 216 games and 2.04 over
#: 384 against 2.14: docs/ai.md, twenty-sixth and twenty-seventh sessions). Level 6 on
#: the 20×20 boards.
CORNERS_MIDDLE = (3, 6)


def choose_move(state, seat: int, *, level: int = 1, seed: int | None = None,
                playouts: int | None = None, seconds: float | None = None,
                reuse: bool = True, prior_n: int | None = None,
                book: bool | None = None, corner: bool | None = None,
                local: bool | None = None,
                rich: bool | None = None, learned: bool | None = None,
                slope: float | None = None, rave_k: float | None = None,
                uct_c: float | None = None, puct_c: float | None = None,
                race: int | None = None, bank: bool | None = None,
                lgr: bool | None = None, rave_dist: bool | None = None,
                local_k: int | None = None, local_next: int | None = None,
                expand_inc: float | None = None,
                relative: float | None = None, length: float | None = None,
                pace: int | None = None, merged: bool | None = None,
                sizes: bool | None = None, gamma5: bool | None = None,
                race_each: bool | None = None, uct_big: float | None = None,
                widen: float | None = None, corners: float | None = None,
                corners_mid: bool | None = None,
                race_corners: bool | None = None) -> int | None:
    """The move (id) the computer plays for `seat` at `level`; None when it has no move.

    `playouts` and `seconds` override the level's budget (tests use a few playouts).
    Cost: one-ply levels take a few ms; search levels about `playouts` × 0.3–1 ms, capped
    at `seconds`. `prior_n` overrides the search's virtual simulations per child (0 turns
    the priors-as-values off; for experiments with `scripts/match.py`), `book` whether the
    level's opening book is used, `corner` whether the big boards' corner book is too (it
    answers a colour's first moves by its own placements alone), `local` whether playouts
    answer the opponents' last moves first, `rich` whether priors use the richer heuristic
    and `learned` whether they come from the fitted feature model (all default to the
    level's; for experiments);
    `slope` overrides the learned priors' value lost per logit (`mcts.LEARNED_SLOPE`),
    `rave_k`, `uct_c` and `puct_c` the search's `RAVE_K`, `UCT_C` (on every board: it
    overrides `uct_big`, the level's constant for the 20×20 boards) and `PUCT_C`, `race`
    how many placements per colour the big board's race to the centre lasts (0: none;
    experiments) and `race_each` whether it is counted per colour instead of on the
    average (`mcts.racing`), `bank` whether a time-bound search stops once its move is decided and
    saves the rest of its time for the game's later moves (default: the level's), `lgr`
    whether playouts play the last good replies first, `rave_dist` whether RAVE credit is
    weighted by distance, `expand_inc` how many more visits a node needs before it is
    expanded per level below the root's children (`mcts.EXPAND_INC`) and `relative` the
    weight of a margin bonus measured against the search's own playouts instead of the
    fixed one (`mcts.RelativeRewards`; 0: the fixed one) and `length` the weight of its
    game-length bonus (defaults: the level's);
    `local_k` how many local candidates a local-first playout move compares
    (`playout.LOCAL_K`; experiments) and `local_next` how many times a local point opened by
    the colour that moves next counts (default: the level's); `pace`
    which split of a time-bound search's seconds over the game it follows (`PACES`: 1 for
    `PACE`, 2 for `PACE_EARLY`, 3 for `PACE_BOOK` and 4 for `PACE_MIDDLE` on the big board
    only; 0 or False for a flat budget; default: the level's); `merged` whether the search
    uses Pentobi's tree policy (RAVE merged into the values, a prior exploration term over
    every child, the final move by wins; `puct_c` is then its exploration constant;
    default: the level's);
    `sizes` whether the playouts keep the opening's piece sizes as the tree does and
    `gamma5` whether they weigh a candidate by 5^size alone, Pentobi's classic weights
    (defaults: the level's); `widen` the progressive widening's rate, `WIDEN_BASE +
    widen·√visits` children eligible (0: `mcts.WIDEN_RATE`; default: the level's);
    `corners` the playouts' weight factor per corner a candidate opens for its colour (0:
    none; on every board: it overrides `corners_big`, the level's factor for the 20×20
    boards) and `corners_mid` whether it applies only to the colour's `CORNERS_MIDDLE`
    pieces, `race_corners` whether the race to the middle keeps, after a colour's first
    piece, only the moves that gain it the most attach points (`mcts.corner_gains`)
    (defaults: the level's).
    A time-bound search's seconds count from the start of the call, so building its root
    and freeing the unused part of the last tree come out of them.
    The bank and the replies live with the reused tree: they carry over only while this
    process plays the same game for the same key.
    Seats that left the game never move in the search and count as last.
    """
    spec = LEVELS.get(level)
    if spec is None:
        raise ValueError(f"no computer level {level} (levels: {sorted(LEVELS)})")
    pos = state.position
    color = seat - 1
    if not pos.has_moves(color):
        return None
    if not spec.playouts:
        if spec.temperature <= 0.2:
            return greedy_move(pos, color, seed=seed)
        return sampled_move(pos, color, temperature=spec.temperature, seed=seed)
    if spec.book if book is None else book:
        from .book import (
            book_move,  # not at import time: `python -m engine.cornerclaim.ai.book` works
        )

        move = book_move(state, seat, corner=spec.corner if corner is None else corner)
        if move is not None:
            return move
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    budget = spec.playouts if playouts is None else playouts
    limit = spec.seconds if seconds is None else seconds
    started = time.perf_counter()  # the budget covers the whole call, not only the search
    pace = int(spec.pace if pace is None else pace)
    if pace and (pace not in BIG_BOARD_PACES or pos.variant.size == 20):
        limit *= pace_share(state.position.nu_played[seat - 1], PACES[pace])
    placements = tuple((s, m) for _, s, m in state.placements)
    prior_n = PRIOR_N if prior_n is None else prior_n
    dead = frozenset(s - 1 for s in getattr(state, "left", ()) if s != seat)
    bank = spec.bank if bank is None else bank
    options = spec.options_for(pos, color, corners_mid, local=local, rich=rich,
                               learned=learned, race=race, lgr=lgr, rave_dist=rave_dist,
                               relative=relative, expand_inc=expand_inc, length=length,
                               merged=merged, sizes=sizes, gamma5=gamma5,
                               race_each=race_each, uct_big=uct_big, local_next=local_next,
                               widen=widen, corners=corners, race_corners=race_corners)
    key = (state.variant.name, seat, level, prior_n, dead, slope, rave_k, uct_c, puct_c, bank,
           local_k, *options.values())
    root = _reused_root(key, placements, color) if reuse else None
    banked = _banked(key, placements) if reuse and bank else 0.0
    replies = _reused_replies(key, placements) if reuse and options["lgr"] else None
    if reuse:  # free what is not reused of the last tree now, inside the budget
        _reuse.pop(key, None)
    extra = min(banked, BANK_SHARE * limit)
    recent = recent_placements(state)
    tree = FlatSearch if supports(puct_c=puct_c, **options) else Search
    search = tree(pos, color, seed=_mix(seed, len(placements)), root=root, recent=recent,
                    prior_n=prior_n, dead=dead, slope=slope, rave_k=rave_k, uct_c=uct_c,
                    puct_c=puct_c, replies=replies,
                    local_k=LOCAL_K if local_k is None else local_k, **options)
    if search.root.color != color:
        return None
    search.run(budget, max(0.0, limit + extra - (time.perf_counter() - started)),
               stop_decided=bank)
    if bank:
        banked = min(BANK_CAP * limit,
                     max(0.0, banked + limit - (time.perf_counter() - started)))
    if reuse:
        _reuse[key] = (placements, search.root, banked, search.replies)
        while len(_reuse) > REUSE_SLOTS:
            del _reuse[next(iter(_reuse))]
    return search.best_move()


def pace_share(placed: int, table: tuple = PACE) -> float:
    """The share of its budget a search paced by `table` gets when its colour has `placed`
    pieces."""
    share = table[0][1]
    for start, value in table:
        if placed >= start:
            share = value
    return share


def hint(state, seat: int) -> int | None:
    """The move a mid level would play for `seat` (reproducible: a fixed seed, no reuse)."""
    return choose_move(state, seat, level=HINT_LEVEL, seed=0, reuse=False)


#: What `warm_up` runs: a few placements into each board size, then each search level with
#: enough simulations to expand nodes below the root (every compiled kernel gets called).
WARM_UP_VARIANTS = ("duo", "classic")
WARM_UP_PLIES = 4
WARM_UP_PLAYOUTS = 300


def opening(variant: str, plies: int):
    """A new game of `variant` after `plies` placements by level 2 (seed = ply): the fixed,
    out-of-book position `warm_up` searches and `scripts/bench_first_move.py` times."""
    from ..rules import new_game  # lazily, as in `book`: searching needs no rules module

    game = new_game(variant)
    for ply in range(plies):
        state = game.state
        move = choose_move(state, state.to_move, level=2, seed=ply)
        game.play(state.to_move, state.move_str(move))
    return game


def warm_up() -> float:
    """Compile every kernel the search levels run, or load it from numba's on-disk cache,
    so that a process's first real move does not pay for it; returns the seconds it took.

    numba compiles a function at its first call: on a fresh install that is 15–20 s of one
    core (docs/performance.md), and even with the cache on disk, loading it takes a
    fraction of a second a process, which a time-bound search would otherwise lose from its
    first move (its clock starts with the call). The host runs this in every bot worker
    when the worker starts, before it takes a job; GTP and the match script run it once.
    Pure (no state is kept but numba's and the searches' own caches; nothing is reused).
    """
    started = time.perf_counter()
    for variant in WARM_UP_VARIANTS:
        state = opening(variant, WARM_UP_PLIES).state
        for level, spec in LEVELS.items():
            if spec.playouts:
                choose_move(state, state.to_move, level=level, seed=level, book=False,
                            playouts=WARM_UP_PLAYOUTS, seconds=60.0, reuse=False)
    return time.perf_counter() - started


def compiled_kernels() -> set[tuple[str, str]]:
    """(module.function, signature) for every compiled kernel of the search modules that
    this process has compiled or loaded so far (how the tests check `warm_up`)."""
    from . import features, flat, leaf, playout

    found = set()
    for module in (features, flat, leaf, playout):
        for name, value in vars(module).items():
            for signature in getattr(value, "signatures", None) or ():
                found.add((f"{module.__name__}.{name}", str(signature)))
    return found


def _same_game(old: tuple, placements: tuple) -> bool:
    return len(placements) > len(old) and placements[: len(old)] == old


def _kept(key: tuple, placements: tuple) -> tuple | None:
    """What the last search for `key` left (`_reuse`'s entry), if it was in this game."""
    last = _reuse.get(key)
    return last if last is not None and _same_game(last[0], placements) else None


def _banked(key: tuple, placements: tuple) -> float:
    """The seconds the last search for `key` left in the bank, if it was in this game."""
    last = _kept(key, placements)
    return last[2] if last is not None else 0.0


def _reused_replies(key: tuple, placements: tuple):
    """The last good replies the last search for `key` learnt, if it was in this game."""
    last = _kept(key, placements)
    return last[3] if last is not None else None


def _reused_root(key: tuple, placements: tuple, color: int) -> Node | FlatNode | None:
    last = _kept(key, placements)
    if last is None:
        return None
    old = last[0]
    node: Node | FlatNode | None = last[1]
    for s, m in placements[len(old):]:
        node = child_for(node, s - 1, m) if node is not None else None
    if node is None or node.color != color:
        return None
    return node


def _mix(seed: int, ply: int) -> int:
    """A per-move seed, so a game does not replay the same random stream every move."""
    return (seed * 1_000_003 + ply * 7919) % (1 << 61)


__all__ = ["LEVELS", "Level", "choose_move", "hint", "HINT_LEVEL", "opening", "warm_up"]
