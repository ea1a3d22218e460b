"""What runs inside a bot worker process (`BotPool`'s): the jobs (`choose_in_worker`,
`hint_in_worker`, `analyse_in_worker`) and the initializer (`start_worker`). A move or a hint
gets a `Feed`: the game's events since the worker's last job for that game, which it folds
onto the game it kept (`_games`), or the whole log if it kept none (`Behind` asks the pool
for it); the review gets the whole log as JSON. Each asks the game's rules; the initializer
imports the host's other games, lowers the worker's priority if asked, ends the worker with
the host, and starts each game's warm-up in a thread of its own (until it ends, a game with
a `quick_move` answers with it).
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from engine import registry
from engine.capabilities import Computer, Hints, QuickMove, capability
from engine.core import Game
from engine.events import Event

log = logging.getLogger(__name__)

#: This worker's warm-ups: game -> set when its `Rules.warm_up` has ended (`start_worker`).
_warm_ups: dict[str, threading.Event] = {}


def _know_games(modules: tuple[str, ...] | list[str]) -> None:
    """Load the built-in games and import the modules that register the host's other games
    (their event types too, which reading a log needs)."""
    registry.games()
    for module in modules:
        importlib.import_module(module)


@dataclass(frozen=True)
class Feed:
    """What a move's or a hint's job is sent of a game: its events after seq `since`, up to
    the seq the job is for (`since` 0: the whole log). A worker folds them onto the game it
    kept from its last job for that game. Events, not the state: a state carries what its
    game shares between states (Corner Claim's board tables, megabytes pickled) or its
    history (Corners' earlier states), a move's events a few hundred bytes."""

    game_id: str
    since: int
    events: tuple[Event, ...]


class Behind(Exception):
    """The worker does not hold the game at the feed's `since` (another worker took the
    game's last job, or this one started since): the pool sends the whole log."""


#: The games this worker folded for its last jobs, by id, the most recent last.
_games: OrderedDict[str, Game] = OrderedDict()
KEEP_GAMES = 32


def game_of(source: str | Feed) -> Game:
    """The game a job is about: a whole log as JSON, or a `Feed` (folded onto the game this
    worker kept at its `since`, every event checked as it is folded; `Behind` if it kept
    none at that seq)."""
    if isinstance(source, str):
        return Game.from_json(source)
    kept = _games.pop(source.game_id, None)
    if source.since == 0:
        game = Game.from_events(source.events)
    elif kept is None or kept.seq != source.since:
        raise Behind(f"game {source.game_id}: this worker has no game at seq {source.since}")
    else:
        game = kept
        for event in source.events:  # a failure raises with the game left out of _games
            game.append(event)
    _games[source.game_id] = game
    while len(_games) > KEEP_GAMES:
        _games.popitem(last=False)
    return game


def choose_in_worker(source: str | Feed, seat: int, level: int, seed: int,
                     modules: tuple[str, ...] | list[str] = ()) -> str | None:
    """Runs in a worker process: the game (`game_of`: a `Feed`, or a whole log as JSON), then
    the game's computer player's move for `seat` at `level` from its state; returns the move
    text (None: it has none)."""
    _know_games(modules)
    game = game_of(source)
    computer = capability(game.rules, Computer)
    if computer is None:  # a game without computer players has no computer seats
        return None
    quick = capability(game.rules, QuickMove)
    if not _warmed_up(game.rules) and quick is not None:
        return quick.quick_move(game.state, seat, level=level, seed=seed)
    return computer.choose_move(game.state, seat, level=level, seed=seed)


def hint_in_worker(source: str | Feed, seat: int,
                   modules: tuple[str, ...] | list[str] = ()) -> str | None:
    """Runs in a worker process: the game's hint for `seat` (move text or None), the game
    as for `choose_in_worker`."""
    _know_games(modules)
    game = game_of(source)
    hints = capability(game.rules, Hints)
    if hints is None:
        return None
    quick = capability(game.rules, QuickMove)
    if not _warmed_up(game.rules) and quick is not None and hints.hint_level is not None:
        return quick.quick_move(game.state, seat, level=hints.hint_level, seed=0)
    return hints.hint(game.state, seat)


#: The analysis worker's last game: (its log, the folded `Game`, its moves).
_reviewing: list = []


def analyse_in_worker(log_json: str, index: int, level: int | None,
                      modules: tuple[str, ...] | list[str] = ()) -> dict[str, Any] | None:
    """Runs in an analysis worker: review the log's move number `index` (from 0) with the
    game's `Analysis` at `level` (None: the game's own); the `engine.analysis.Ply` as a
    dict, or None past the last move or for a game without an analysis."""
    from engine.analysis import moves_of, review_ply
    from engine.capabilities import Analysis

    _know_games(modules)
    if not _reviewing or _reviewing[0] != log_json:
        game = Game.from_json(log_json)
        _reviewing[:] = [log_json, game, moves_of(game)]
    game, moves = _reviewing[1], _reviewing[2]
    analyst = capability(game.rules, Analysis)
    if analyst is None or index >= len(moves):
        return None
    seq, step, before = moves[index]
    return review_ply(analyst, analyst.analysis_thresholds, index + 1, seq, step.seat,
                      step.move, before, level=level).to_dict()


def _warmed_up(rules) -> bool:
    """Whether this worker may call `rules`' computer players without compiling: its
    warm-up has ended or never started. False only while a game that has a `quick_move`
    warms up; a game without one waits here for its warm-up to end."""
    done = _warm_ups.get(rules.game)
    if done is None or done.is_set():
        return True
    if capability(rules, QuickMove) is not None:
        return False
    done.wait()
    return True


def start_worker(warm: bool, modules: tuple[str, ...] | list[str] = (), nice: int = 0) -> None:
    """A worker's initializer: exit with the host, lower its own priority by `nice` (the
    analysis lane's workers), import the host's other games' modules,
    then, if asked, start warming up every game (`Rules.warm_up`), each in a thread of its
    own, and return (the worker takes jobs meanwhile: `choose_in_worker`). A failed import
    or warm-up is logged, never raised (a raising initializer would break the pool); the
    worker then compiles on demand."""
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True,
                         name="exit-with-host").start()
    try:
        _know_games(modules)
    except Exception:
        log.exception("bot worker could not import a game's module")
    if not warm:
        return
    for rules in registry.games():
        computer = capability(rules, Computer)
        if computer is None:
            continue
        done = _warm_ups[rules.game] = threading.Event()
        threading.Thread(target=_warm_up, args=(rules.game, computer, done), daemon=True,
                         name=f"warm-up-{rules.game}").start()


def _warm_up(game: str, computer: Computer, done: threading.Event) -> None:
    try:
        log.info("bot worker %d warmed up %s in %.1f s", os.getpid(), game,
                 computer.warm_up())
    except Exception:
        log.exception("bot worker warm-up failed for %s", game)
    finally:
        done.set()


def _exit_with(sentinel) -> None:
    """End this worker when the host process ends, even if it was killed (SIGKILL leaves
    the executor no chance to stop its workers, which would otherwise wait for jobs for
    ever)."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _nothing() -> None:
    """A job that only makes the pool start a worker."""
