"""The games this host offers, by id: the one place that names a game module.

A registration is a game's `Rules` and its client board module (the ES module the phone loads
to draw the board and turn taps into move text). The host, the replays, the ladder and the bot
pool look a game up here (`get`, `games`) and never import a game module themselves; the
built-in games are registered on first use. Another game (a test's, a plug-in's) registers
itself with `register` in the process that serves it; `modules()` names the modules a spawned
worker imports to know the same games.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import core
from .capabilities import Records, capability
from .errors import LogError, NoSuchGameError
from .rules import Rules

if TYPE_CHECKING:
    from pathlib import Path

#: The game a request or a command that names none is about (creating a table, the ladder's
#: standings, the computer levels of the create form): the one place that says it.
DEFAULT_GAME = "cornerclaim"

#: The built-in games: (module, the attribute holding its rules, its board module's file name
#: under client_web/js/boards/).
BUILTIN = (
    ("engine.cornerclaim.game", "CORNER_CLAIM", "cornerclaim.js"),
    ("engine.corners", "RULES", "corners.js"),
    ("engine.marbles", "RULES", "marbles.js"),
)


@dataclass(frozen=True)
class Registration:
    rules: Rules
    board: str | Path  # a file name under client_web/js/boards/, or a file's full path
    module: str  # the module whose import registers (or defines) the game
    builtin: bool


_GAMES: dict[str, Registration] = {}
_loaded = False


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module, attr, board in BUILTIN:
        rules = getattr(importlib.import_module(module), attr)
        _add(Registration(rules, board, module, True))


core.LOAD_GAMES.append(_load_builtins)


def _add(reg: Registration) -> None:
    _GAMES[reg.rules.game] = reg
    core.RULES[reg.rules.game] = reg.rules


def register(rules: Rules, *, board: str | Path, module: str | None = None) -> Rules:
    """Offer another game on this host: its rules and its board module. Registering the
    same id again replaces it (a test re-importing its game)."""
    _load_builtins()
    _add(Registration(rules, board, module or type(rules).__module__, False))
    return rules


def unregister(game: str) -> None:
    """Withdraw a registered (non built-in) game."""
    reg = _GAMES.get(game)
    if reg is not None and not reg.builtin:
        del _GAMES[game]
        core.RULES.pop(game, None)


def get(game: str) -> Rules:
    """The rules of `game`; EngineError (unknown_game) if this host has no such game."""
    _load_builtins()
    try:
        return _GAMES[game].rules
    except KeyError:
        raise NoSuchGameError(f"there is no game {game!r} on this host",
                              games=sorted(_GAMES)) from None


def registration(game: str) -> Registration:
    get(game)
    return _GAMES[game]


def games() -> list[Rules]:
    """Every game on this host, built-ins first, in the order registered."""
    _load_builtins()
    return [reg.rules for reg in _GAMES.values()]


def modules() -> list[str]:
    """The modules to import in another process (a bot worker) to know the games registered
    here besides the built-ins."""
    _load_builtins()
    return [reg.module for reg in _GAMES.values() if not reg.builtin]


def game_of_variant(variant: str) -> Rules:
    """The game that has a variant named `variant` (the first registered, if several do)."""
    for rules in games():
        if variant in rules.variants:
            return rules
    raise NoSuchGameError(f"no game has a variant {variant!r}", variant=variant)


def read_record(text: str) -> core.Game:
    """A game from a record: the JSON log of any game, or a record in a game's own format
    (Corner Claim's .blksgf); LogError if it is none of them."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return core.Game.from_json(text)
    for rules in games():
        records = capability(rules, Records)
        game = None if records is None else records.read(text)
        if game is not None:
            return game
    raise LogError("not a game record this host reads (a JSON log, or "
                   + ", ".join(f".{f}" for r in games() for f in r.formats) + ")")
