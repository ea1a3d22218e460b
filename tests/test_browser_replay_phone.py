"""The replay viewer on phones, in real Chromium: a Pixel 7 and a 320 px wide phone. Nothing
scrolls sideways whatever the game, a move's text is never broken inside, a move picked far
down the page brings the board back into view, Corners' chart is the distance each side has
left, and the import form fits and leads back to the lobby."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import board_seen, screenshot, sideways
from tests.test_browser_replay import DUO, import_record

expect.set_options(timeout=10_000)
SEATS = [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}]
CORNERS = ((1, "c3-d3"), (2, "f6-e6"), (1, "c1-e3"), (2, "f8-d6"), (1, "a3-a4"))


@pytest.fixture(scope="module")
def replays(host) -> dict[str, str]:
    """A replay of each game, shared by the module: {game: the viewer's path}."""
    out = {"cornerclaim": f"/replay.html?import={import_record(host, DUO)}"}
    corners = host.create("classic-3x3", SEATS, game="corners")
    for seat, move in CORNERS:
        host.move(corners["id"], seat, move, corners["tokens"][str(seat)])
    out["corners"] = f"/replay.html?game={corners['id']}"
    marbles = host.create("2p", SEATS, game="marbles")
    for _ in range(4):
        state = host.state(marbles["id"])
        seat = state["to_move"]
        host.move(marbles["id"], seat, host.legal(marbles["id"], seat)[0]["move"],
                  marbles["tokens"][str(seat)])
    out["marbles"] = f"/replay.html?game={marbles['id']}"
    return out


@pytest.fixture
def phone_height() -> int:
    """The phones here are 640 CSS px high (given a width)."""
    return 640


@pytest.mark.parametrize("game", ["cornerclaim", "corners", "marbles"])
def test_a_replay_fits_a_320px_phone_and_no_move_breaks_inside(replays, phone, game):
    page = phone(320, replays[game])
    expect(page.get_by_test_id("replay-counter")).to_have_text(re.compile(r"Move (\d+) / \1"))
    expect(page.locator("[data-testid=replay-chart] polyline")).to_have_count(2)
    screenshot(page, f"replay-{game}-320px")
    assert sideways(page) == 0
    # each word of a move on one line, shown whole, inside the list
    broken = page.evaluate("""() => [...document.querySelectorAll(".rv-word")].filter((w) => {
      const list = document.querySelector("[data-testid=replay-moves]").getBoundingClientRect();
      return getComputedStyle(w).whiteSpace !== "nowrap" || w.scrollWidth > w.clientWidth
        || w.getBoundingClientRect().right > list.right + 0.5;
    }).map((w) => w.textContent)""")
    assert broken == []
    assert page.errors == []


@pytest.mark.parametrize("width", [None, 320], ids=["Pixel 7", "320 px"])
def test_a_late_move_picked_below_the_board_brings_the_board_into_view(replays, phone, width):
    page = phone(width, replays["cornerclaim"])
    counter = page.get_by_test_id("replay-counter")
    expect(counter).to_have_text("Move 32 / 32")
    page.get_by_test_id("replay-links").scroll_into_view_if_needed()  # the page's foot
    assert not board_seen(page)
    page.get_by_test_id("replay-move-30").tap()
    expect(counter).to_have_text("Move 30 / 32")
    assert board_seen(page)
    assert page.errors == []


def test_the_corners_chart_is_the_distance_each_side_has_left(host, replays, phone):
    page = phone(None, replays["corners"])
    box = page.get_by_test_id("replay-chart-box")
    expect(box.locator("h3")).to_have_text("Distance left over the game")
    gid = replays["corners"].rpartition("=")[2]
    sent = requests.get(f"{host.url}/api/games/{gid}/replay", timeout=10).json()
    white, black = sent["series"]["distance"]
    assert white[-1] < white[0] and black[-1] < black[0]
    lines = page.locator("[data-testid=replay-chart] polyline")
    expect(lines).to_have_count(2)
    heights = {p.split(",")[1] for p in lines.first.get_attribute("points").split()}
    assert len(heights) > 1  # it moves
    assert page.errors == []


def test_the_import_form_fits_a_320px_phone_and_leads_back_to_the_lobby(phone):
    page = phone(320, "/replay.html")
    expect(page.get_by_test_id("import-note")).to_contain_text(".cgn")
    assert sideways(page) == 0
    screenshot(page, "replay-import-320px")
    page.get_by_test_id("to-lobby").tap()
    page.wait_for_url("**/")
    assert page.errors == []
