"""The first load's budget: what a Pixel 7 in Chromium transfers on a cold cache to open the
lobby and each game's page (a game made through the API) is at most 100 KB each, and what the
host's screen transfers to open /tv with a table of every game at most 120 KB, measured as
scripts/page_weight.py measures it (docs/performance.md)."""

from __future__ import annotations

import importlib.util
import sys

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import REPO

_spec = importlib.util.spec_from_file_location("page_weight", REPO / "scripts" / "page_weight.py")
page_weight = importlib.util.module_from_spec(_spec)
sys.modules["page_weight"] = page_weight  # its dataclass looks its module up
_spec.loader.exec_module(page_weight)


def test_the_lobby_and_every_game_page_load_within_100_kb_and_tv_within_120(host, browser):
    weights = page_weight.weigh_all(browser, host.url)
    games = [e["title"] for e in host.catalog()]
    assert [w.page for w in weights] == ["Lobby", *games, "/tv"]
    for w in weights:
        urls = [url for url, _ in w.requests]
        first = "/js/tv.js" if w.page == "/tv" else "/js/main.js"
        assert "/app.css" in urls and first in urls, w  # the page did load
        assert w.total <= w.budget_kb * 1000, (w.page, w.total, w.requests)
    assert weights[-1].budget_kb == page_weight.TV_BUDGET_KB
    assert len([url for url, _ in weights[-1].requests if url.startswith("/boards/")]) == len(games)
    lobby = weights[0]
    assert not [url for url, _ in lobby.requests  # each game's picture, never its board module
                if "/boards/" in url and not url.endswith("/thumb.js")], lobby.requests
