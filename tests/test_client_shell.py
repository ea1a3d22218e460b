"""The phone UI's table shell stays small and game-free: `game.js` wires small parts, no
client file grows past 450 lines, and the shell's files (and /tv's, the lobby's standings and
the board modules' shared watch.js) name no game and none of a game's actions (those words come
from the catalog or the game's board module)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import registry

JS = Path(__file__).resolve().parent.parent / "client_web" / "js"
SHELL = ["game.js", "controls.js", "seats.js", "lobby.js", "replay.js", "tonight.js", "tv.js",
         "boards/watch.js",
         *sorted(p.relative_to(JS).as_posix() for p in (JS / "table").glob("*.js")),
         *sorted(p.relative_to(JS).as_posix() for p in (JS / "tv").glob("*.js"))]


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_table_shell_is_a_small_file_over_small_parts():
    assert lines(JS / "game.js") <= 250
    assert len(SHELL) > 5  # the table's parts are there to be read
    big = {p.relative_to(JS).as_posix(): lines(p) for p in JS.rglob("*.js") if lines(p) > 450}
    assert big == {}


@pytest.mark.parametrize("name", SHELL)
def test_the_shell_names_no_game_and_no_game_action(name):
    text = (JS / name).read_text(encoding="utf-8")
    quoted = set(re.findall(r"""["'`]([a-z_]+)["'`]""", text))
    for rules in registry.games():
        line = rules.catalog()
        actions = {a if isinstance(a, str) else a["name"] for a in line.get("actions") or []}
        assert rules.game not in quoted, (name, rules.game)
        assert not actions & quoted, (name, actions & quoted)
