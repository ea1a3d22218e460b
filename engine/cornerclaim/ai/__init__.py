"""Computer players. Pure: given a state, a seat, a level and a seed, return a move id.

`choose_move` is the one entry point the host, GTP and benchmarks use; `hint` is the move a
mid level would play, for a human who asks. Levels are listed in `LEVELS` with friendly
names: two one-ply players for beginners, then Monte-Carlo tree search with growing budgets
(`flat.FlatSearch`; docs/ai.md describes it).

A search level is defined by its number of playouts, so a given seed always gives the same
move; its `seconds` cap only cuts a search short on a slow or busy machine (a cut search is
no longer reproducible). The top level is the exception: it thinks for its whole time budget.

Tree reuse: the search tree of the last call for each (variant, seat, level) is kept (the
`REUSE_SLOTS` most recent keys per process) and its subtree is reused when the next call for
that key is on a position that extends the previous one by a few placements (a valid tree
whichever game it came from). A game's moves are then reproducible given its seeds and the
calls before it in the process; `search_move(..., reuse=False)` gives a search that depends
on nothing but its arguments.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
import time

from ..levels import CORNERS_MIDDLE, HINT_LEVEL, LEVELS, Level
from .features import recent_placements
from .flat import FlatNode, FlatSearch
from .greedy import greedy_move, sampled_move

REUSE_SLOTS = 4
# key -> (placements, root, last good replies), oldest first
_reuse: dict[tuple, tuple] = {}


def choose_move(state, seat: int, *, level: int = 1, seed: int | None = None,
                seconds: float | None = None) -> int | None:
    """The move (id) the computer plays for `seat` at `level`; None when it has no move.

    Cost: one-ply levels take a few ms; search levels about their playouts × 0.3–1 ms,
    capped at their `seconds`; level 6 its 3 seconds. `seconds` (a clock's budget for this
    move, e.g. GTP's time controls) replaces the level's: level 6 thinks that long, levels
    3–5 stop at their simulations or at it, whichever comes first; levels 1–2 and book
    moves take no time to speak of anyway. Seats that left the game never move in the
    search and count as last."""
    return search_move(state, seat, level=level, seed=seed, seconds=seconds)


def search_move(state, seat: int, *, level: int, seed: int | None = None,
                playouts: int | None = None, seconds: float | None = None,
                book: bool = True, reuse: bool = True) -> int | None:
    """`choose_move` with the budget overridden: `playouts` and `seconds` in place of the
    level's (tests, `warm_up` and the benchmarks use a fixed count), `book=False` to search
    positions the book knows, `reuse=False` for a search that depends on its arguments
    alone. A time-bound search's seconds count from the start of the call, so building its
    root and freeing the unused part of the last tree come out of them."""
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
    if spec.book and book:
        from .book import book_move  # read when first asked

        move = book_move(state, seat)
        if move is not None:
            return move
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    budget = spec.playouts if playouts is None else playouts
    limit = spec.seconds if seconds is None else seconds
    started = time.perf_counter()  # the budget covers the whole call, not only the search
    placements = tuple((s, m) for _, s, m in state.placements)
    dead = frozenset(s - 1 for s in getattr(state, "left", ()) if s != seat)
    options = spec.search_options(pos, color)
    # A change of the corners factor is a new key: the tree is not reused across it.
    key = (state.variant.name, seat, level, dead, options["corners"])
    root = _reused_root(key, placements, color) if reuse else None
    replies = _reused_replies(key, placements) if reuse and spec.lgr else None
    if reuse:  # free what is not reused of the last tree now, inside the budget
        _reuse.pop(key, None)
    search = FlatSearch(pos, color, seed=_mix(seed, len(placements)), root=root,
                        recent=recent_placements(state), dead=dead, replies=replies,
                        **options)
    if search.root.color != color:
        return None
    search.run(budget, max(0.0, limit - (time.perf_counter() - started)))
    if reuse:
        _reuse[key] = (placements, search.root, search.replies)
        while len(_reuse) > REUSE_SLOTS:
            del _reuse[next(iter(_reuse))]
    return search.best_move()


def quick_move(state, seat: int, *, level: int = 1, seed: int | None = None) -> int | None:
    """The move for `seat` at `level` that calls nothing numba compiles: what a process
    answers while its warm-up is still compiling the search (`quick.py`). Levels 1 and 2 are
    their own moves (plain Python already); level 6 plays its book move while in book; the
    other search levels the quick player's move (a pure-Python flat Monte-Carlo search, a
    fraction of a second). None when the seat has no move."""
    spec = LEVELS.get(level)
    if spec is None:
        raise ValueError(f"no computer level {level} (levels: {sorted(LEVELS)})")
    if not spec.playouts:
        return search_move(state, seat, level=level, seed=seed)
    pos = state.position
    color = seat - 1
    if not pos.has_moves(color):
        return None
    if spec.book:
        from .book import book_move

        move = book_move(state, seat)
        if move is not None:
            return move
    from .quick import quick_move as quick

    dead = frozenset(s - 1 for s in getattr(state, "left", ()) if s != seat)
    return quick(pos, color, seed=_mix(seed, len(state.placements)) if seed is not None
                 else None, dead=dead)


#: The hint's budget: the strongest level's search (its book first) stops after this many
#: seconds, so that a hint answers within a second (scripts/bench_hint.py).
HINT_SECONDS = 0.8


def hint(state, seat: int) -> int | None:
    """The move the strongest level plays for `seat` within `HINT_SECONDS` (a fixed seed, no
    reuse): the move the review (`analysis`, the same search) rates best."""
    return search_move(state, seat, level=HINT_LEVEL, seed=0, reuse=False, seconds=HINT_SECONDS)


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
                search_move(state, state.to_move, level=level, seed=level, book=False,
                            playouts=WARM_UP_PLAYOUTS, seconds=60.0, reuse=False)
    return time.perf_counter() - started


def compiled_kernels() -> set[tuple[str, str]]:
    """(module.function, signature) for every compiled kernel of this package's modules
    that this process has compiled or loaded so far (how the tests check `warm_up`)."""
    found = set()
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name, value in vars(module).items():
            if getattr(getattr(value, "py_func", None), "__module__", None) != module.__name__:
                continue  # not a kernel, or one imported from another module
            for signature in value.signatures:
                found.add((f"{module.__name__}.{name}", str(signature)))
    return found


def _same_game(old: tuple, placements: tuple) -> bool:
    return len(placements) > len(old) and placements[: len(old)] == old


def _kept(key: tuple, placements: tuple) -> tuple | None:
    """What the last search for `key` left (`_reuse`'s entry), if it was in this game."""
    last = _reuse.get(key)
    return last if last is not None and _same_game(last[0], placements) else None


def _reused_replies(key: tuple, placements: tuple):
    """The last good replies the last search for `key` learnt, if it was in this game."""
    last = _kept(key, placements)
    return last[2] if last is not None else None


def _reused_root(key: tuple, placements: tuple, color: int) -> FlatNode | None:
    last = _kept(key, placements)
    if last is None:
        return None
    node: FlatNode | None = last[1]
    for s, m in placements[len(last[0]):]:
        node = node.child(s - 1, m) if node is not None else None
    if node is None or node.color != color:
        return None
    return node


def _mix(seed: int, ply: int) -> int:
    """A per-move seed, so a game does not replay the same random stream every move."""
    return (seed * 1_000_003 + ply * 7919) % (1 << 61)


__all__ = ["CORNERS_MIDDLE", "LEVELS", "Level", "choose_move", "hint", "HINT_LEVEL", "opening",
           "quick_move", "search_move", "warm_up"]
