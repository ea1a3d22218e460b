"""What the lobby's game cards take from the host's catalog: every built-in game says in one
sentence what it is (its `summary`), and its catalog line names the modules of its picture and
of its how-to-play guide, which the host serves; a game registered with a board module only
names neither (the card shows its initial and its catalog line's words)."""

from __future__ import annotations

import pytest

import tests.games.tictactoe as ttt
from engine import registry
from tests.server_fixtures import *  # noqa: F403 - the fixtures

BUILTIN = [r.game for r in registry.games() if registry.registration(r.game).builtin]


def test_the_three_games_are_built_in():
    assert BUILTIN == ["cornerclaim", "corners", "marbles"]


@pytest.mark.parametrize("game", BUILTIN)
def test_every_game_says_in_one_sentence_what_it_is(game):
    summary = registry.get(game).catalog()["summary"]
    assert summary[0].isupper() and summary.endswith(".") and "\n" not in summary
    assert 30 <= len(summary) <= 100, summary


def test_the_catalog_names_each_games_picture_and_guide(client):
    ttt.register()
    games = {g["game"]: g for g in client.get("/api/catalog").get_json()["games"]}
    for game in BUILTIN:
        line = games[game]
        assert line["summary"] == registry.get(game).summary
        assert line["thumb_url"] == f"/js/boards/{game}/thumb.js"
        assert line["howto_url"] == f"/js/howto/{game}.js"
        for url in (line["thumb_url"], line["howto_url"]):
            answer = client.get(url)
            assert answer.status_code == 200 and b"export function" in answer.data, url
    assert games["tictactoe"]["summary"] == ""
    assert games["tictactoe"]["thumb_url"] is None and games["tictactoe"]["howto_url"] is None
