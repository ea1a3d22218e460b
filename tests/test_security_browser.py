"""A player name made of HTML and script is shown as text on every page, in real Chromium:
the lobby, the game, the replay viewer, the ladder and the player page."""

from __future__ import annotations

from urllib.parse import quote

import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page

IMG = "<img src=x onerror=window.xss=1>"
SCRIPT = "<script>window.xss=2</script>"
SVG = "<svg onload=window.xss=3>"


def test_a_name_made_of_html_and_script_shows_as_text_everywhere(host, open_page):
    finished = host.create("duo", [{"kind": "local", "name": IMG},
                                   {"kind": "local", "name": SCRIPT}])
    host.move(finished["id"], 1, "e9,d10,e10,f10,e11", finished["tokens"]["1"])
    r = requests.post(f"{host.url}/api/games/{finished['id']}/leave", json={"seat": 2},
                      headers={"Authorization": f"Bearer {finished['tokens']['2']}"}, timeout=10)
    assert r.status_code == 200, r.text
    running = host.create("trio", [{"kind": "local", "name": IMG}, {"kind": "open"},
                                   {"kind": "local", "name": SCRIPT}])
    host.claim(running["id"], 2, SVG)
    pages = {
        "lobby": ("/", [IMG, SCRIPT]),
        "game": (f"/#/game/{running['id']}", [IMG, SCRIPT, SVG]),
        "replay": (f"/replay.html?game={finished['id']}", [IMG, SCRIPT]),
        "ladder": ("/ladder.html", [IMG, SCRIPT]),
        "player": (f"/player.html?name={quote(IMG)}", [IMG]),
    }
    for what, (path, names) in pages.items():
        page = open_page("Pixel 7", path)
        dialogs: list[str] = []
        page.on("dialog", lambda d, dialogs=dialogs: (dialogs.append(d.message), d.dismiss()))
        for name in names:
            expect(page.locator("body")).to_contain_text(name)
        page.wait_for_timeout(300)  # an onerror/onload would have run by now
        assert page.evaluate("window.xss") is None, what
        assert page.locator("img[src=x], script:text('window.xss'), svg[onload]").count() == 0
        assert dialogs == [] and page.errors == [], what
