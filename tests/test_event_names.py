"""One naming rule for every game's events (engine.events.EVENT_TYPES), and the old names still
read from the logs that have them."""

from __future__ import annotations

import json
import re

import tests.games.tictactoe  # noqa: F401 - the test-only game registers itself
from engine import events, registry
from engine.core import Game
from engine.events import EVENT_ALIASES, EVENT_TYPES

SHARED = {"game_created", "player_left", "move_taken_back", "game_closed"}


def test_every_event_type_follows_the_rule():
    games = {rules.game for rules in registry.games()}
    for name, cls in EVENT_TYPES.items():
        assert re.fullmatch(r"[a-z]+(_[a-z]+)+", name), name
        if cls.__module__ == events.__name__:
            assert name in SHARED
        else:
            assert name.split("_", 1)[0] in games, name
    assert SHARED <= set(EVENT_TYPES)


def test_old_names_are_read_only():
    assert EVENT_ALIASES["piece_placed"] is EVENT_TYPES["cornerclaim_piece_placed"]
    assert not set(EVENT_ALIASES) & set(EVENT_TYPES)


def test_a_log_written_under_the_old_name_folds_to_the_same_game():
    game = Game.new("cornerclaim", "duo", ("Ann", "Bob"))
    game.play(1, "e10,e11,e9,d10,f10")
    game.play(2, "j5")
    game.undo(2)
    text = game.to_json()
    assert text.count('"cornerclaim_piece_placed"') == 2
    old = json.loads(text)
    for event in old["events"]:
        if event["type"] == "cornerclaim_piece_placed":
            event["type"] = "piece_placed"
    again = Game.from_json(json.dumps(old))
    assert again.events == game.events and again.state == game.state
    assert again.to_json() == text  # written again under the rule's name
