"""The first load's budget: what a Pixel 7 in Chromium transfers on a cold cache to open the
lobby and each game's page (a game made through the API) is at most 100 KB each, measured
as scripts/page_weight.py measures it (docs/performance.md)."""

from __future__ import annotations

import importlib.util
import sys

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import REPO

_spec = importlib.util.spec_from_file_location("page_weight", REPO / "scripts" / "page_weight.py")
page_weight = importlib.util.module_from_spec(_spec)
sys.modules["page_weight"] = page_weight  # its dataclass looks its module up
_spec.loader.exec_module(page_weight)


def test_the_lobby_and_every_game_page_load_within_100_kb(host, browser):
    weights = page_weight.weigh_all(browser, host.url)
    assert [w.page for w in weights] == ["Lobby"] + [e["title"] for e in host.catalog()]
    for w in weights:
        urls = [url for url, _ in w.requests]
        assert "/app.css" in urls and "/js/main.js" in urls, w  # the page did load
        assert w.total <= page_weight.BUDGET_KB * 1000, (w.page, w.total, w.requests)
    lobby = weights[0]
    assert not [url for url, _ in lobby.requests if "/boards/" in url], lobby.requests
