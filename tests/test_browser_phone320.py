"""The table pages on a 320 px wide phone, in real Chromium against a live host: every game's
table and game-over card without sideways scrolling; Corners' clocks in tenths under the
players' names, turning red and buzzing once as this phone's clock crosses ten seconds; the
coordinates over the pieces; the lobby's "No clock" with no increment; the set-up editor with
coordinates and homes, its refusal gone once the position changes, its game always practice
and its card with no match points; the practice hint busy while the host thinks; Corner's tray
in points; the solo race with one way out; the ladder. One host for the module, games made
over REST."""

from __future__ import annotations

import json
import re

import pytest
import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page

expect.set_options(timeout=10_000)
WIDTH = 320
#: A buzz the page asked for, recorded instead of made.
BUZZ = "navigator.vibrate = (p) => { (window.buzzes ||= []).push(p); return true; };"
#: What runs past the right edge of the screen: [(test id or tag, right edge)...], leaving out
#: what a box of its own scrolls or clips (the ladder's table, a name cut short).
PAST_THE_EDGE = """(width) => {
  const clipped = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return true;
    }
    return false;
  };
  const right = (e) => Math.round(e.getBoundingClientRect().right);
  return [...document.body.querySelectorAll('*')]
    .filter((e) => e.getBoundingClientRect().width > 0 && right(e) > width && !clipped(e))
    .map((e) => [e.dataset.testid || e.className || e.tagName, right(e)]);
}"""


@pytest.fixture
def phone(browser, host):
    """phone(path, game=None, script=None) -> a page 320 px wide (a Pixel 7 otherwise) holding
    `game`'s seats and host token; a table's page once its board is drawn."""
    contexts = []

    def _open(path: str, game: dict | None = None, script: str | None = None):
        options = dict(browser.devices["Pixel 7"]) | {"viewport": {"width": WIDTH, "height": 720}}
        context = browser.new_context(base_url=host.url, **options)
        contexts.append(context)
        if game:
            memory = {"games": {game["id"]: {"seats": game["tokens"], "host": game["host_token"]}}}
            context.add_init_script(
                f"localStorage.setItem('cornerclaim.v1', {json.dumps(json.dumps(memory))});")
        if script:
            context.add_init_script(script)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(path)
        if path.startswith("/#/game/"):
            page.wait_for_function("() => window.ccGame?.board && window.ccGame.state")
        return page

    yield _open
    for context in contexts:
        context.close()


def assert_fits(page) -> None:
    """Nothing scrolls sideways: the page is the phone's width and nothing runs past it."""
    assert page.evaluate(PAST_THE_EDGE, WIDTH) == []
    width, inner = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
    assert (width, inner) == (WIDTH, WIDTH)


def post(host, path: str, token: str, body: dict | None = None) -> dict:
    r = requests.post(f"{host.url}/api{path}", json=body,
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)
    r.raise_for_status()
    return r.json()


def resign(host, game: dict, seat: int) -> None:
    seq = host.state(game["id"])["seq"]
    post(host, f"/games/{game['id']}/actions", game["tokens"][str(seat)],
         {"seat": seat, "action": "resign", "seq": seq})


def card_fits(page, *, match_points: bool = True) -> None:
    card = page.get_by_test_id("gameover")
    expect(card).to_be_visible()
    card.scroll_into_view_if_needed()
    assert_fits(page)
    header = card.locator("th", has_text="Match points")
    expect(header).to_have_count(1 if match_points else 0)
    if match_points:
        assert header.bounding_box()["x"] + header.bounding_box()["width"] <= WIDTH


def test_corners_clocks_in_tenths_fit_name_the_players_and_warn_under_ten_seconds(host, phone):
    """Annabelle Longname and Bartholomew share one phone, eleven seconds each. White moves;
    black's clock runs in tenths under Bartholomew's name, turns red under ten seconds and
    buzzes once. Black resigns: the card fits, its match points in view."""
    game = host.create("classic-3x3", [{"kind": "local", "name": "Annabelle Longname"},
                                       {"kind": "local", "name": "Bartholomew"}],
                       game="corners", options={"reserve_s": 11, "increment_s": 0})
    page = phone(f"/#/game/{game['id']}", game, BUZZ)
    expect(page.get_by_test_id("clock-1-name")).to_have_text("Annabelle Longname")
    expect(page.get_by_test_id("clock-2-name")).to_have_text("Bartholomew")
    expect(page.get_by_test_id("clock-2")).to_have_attribute(
        "aria-label", re.compile(r"^Bartholomew \(Black\)'s clock 0:11\.0"))
    # the file letters sit over the pieces of the bottom row
    assert page.evaluate("""() => {
      const z = (sel) => Number(getComputedStyle(document.querySelector(sel)).zIndex);
      return z('[data-testid=cell-a1] .cn-coord.file') > z('[data-testid=cell-a1] .cn-piece');
    }""")
    page.get_by_test_id("turn").tap()  # a first tap: the page may buzz from now on
    post(host, f"/games/{game['id']}/moves", game["tokens"]["1"],
         {"seat": 1, "move": "c3-d3", "seq": host.state(game["id"])["seq"]})
    black = page.get_by_test_id("clock-2")
    expect(black).to_have_attribute("data-running", "true")
    expect(page.get_by_test_id("clock-2-time")).to_have_text(re.compile(r"^0:1[01]\.\d$"))
    assert_fits(page)
    expect(black).not_to_have_class(re.compile(r"\blow\b"))
    page.wait_for_function("() => (window.buzzes || []).some(Array.isArray)")
    expect(black).to_have_class(re.compile(r"\blow\b"))
    expect(page.get_by_test_id("clock-2-time")).to_have_text(re.compile(r"^0:0\d\.\d$"))
    page.wait_for_function("() => document.querySelector('[data-testid=clock-2-time]')"
                           ".textContent < '0:09.4'")
    assert page.evaluate("() => window.buzzes.filter(Array.isArray).length") == 1
    resign(host, game, 2)
    card_fits(page)
    assert page.errors == []


@pytest.mark.parametrize("game_id", ["cornerclaim", "marbles"])
def test_a_table_and_its_game_over_card_fit(host, phone, game_id):
    entry = next(e for e in host.catalog() if e["game"] == game_id)
    variant = entry["variants"][0]
    names = ["Annabelle Longname", "Bartholomew", "Cleo", "Dan"][:variant["seats"][0]]
    game = host.create(variant["name"], [{"kind": "local", "name": n} for n in names],
                       game=game_id)
    page = phone(f"/#/game/{game['id']}", game)
    assert_fits(page)
    if game_id == "marbles":  # the tray counts points, not rounds
        for side in ("red", "yellow"):
            expect(page.get_by_test_id(f"tray-{side}-sum")).to_have_text(
                "0 points this round · Total 0")
    post(host, f"/games/{game['id']}/close", game["host_token"])
    card_fits(page)
    assert page.errors == []


def test_a_solo_race_has_one_way_out(host, phone):
    game = host.create("classic-3x3", [{"kind": "local", "name": "Sol"}], game="corners")
    page = phone(f"/#/game/{game['id']}", game)
    expect(page.get_by_test_id("solo-moves")).to_have_text("Moves 0")
    expect(page.get_by_test_id("leave")).to_be_visible()
    expect(page.get_by_test_id("actions")).to_be_hidden()  # no Resign
    expect(page.get_by_test_id("close-game")).to_be_hidden()
    assert_fits(page)
    page.get_by_test_id("leave").tap()
    expect(page.get_by_test_id("leave-text")).to_have_text(
        "You play alone: leaving ends the game here.")
    page.get_by_test_id("leave-confirm").tap()
    card_fits(page, match_points=False)  # practice: nothing counts
    assert page.errors == []


def test_a_set_up_game_from_the_editor_is_practice_with_a_busy_hint(host, phone):
    """Eda picks Corners against the computer: no clock, so no increment either. She opens the
    board editor (coordinates, homes; Practice ticked for good), is refused an empty board, and
    the refusal goes as she places the start position. The game is practice: the hint shows it
    is being thought about, and the card shows no match points."""
    page = phone("/")
    page.get_by_test_id("your-name").fill("Eda")
    picked = page.wait_for_selector(  # the game's card, or a list of the games
        "[data-testid=pick-game-corners], select[data-testid=pick-game]")
    if picked.get_attribute("data-testid") == "pick-game":
        picked.select_option("corners")
    else:
        picked.click()
    page.get_by_test_id("variant-classic-3x3").tap()
    increment = page.get_by_test_id("option-increment_s")
    expect(page.get_by_test_id("preset-no-clock")).to_have_attribute("aria-pressed", "true")
    expect(increment).to_be_hidden()
    page.get_by_test_id("preset-3+2").tap()
    expect(increment).to_be_visible()
    page.get_by_test_id("preset-no-clock").tap()
    expect(increment).to_be_hidden()
    page.get_by_test_id("edit-setup").tap()
    expect(page.get_by_test_id("setup-editor")).to_be_visible()
    practice = page.get_by_test_id("option-practice")
    expect(practice).to_be_checked()
    expect(practice).to_be_disabled()
    expect(page.locator("[data-testid=setup-cell-a1] .cn-coord.file")).to_have_text("a")
    expect(page.locator("[data-testid=setup-cell-a8] .cn-coord.rank")).to_have_text("8")
    expect(page.get_by_test_id("setup-cell-a1")).to_have_class(re.compile(r"\bhome1\b"))
    expect(page.get_by_test_id("setup-cell-h8")).to_have_class(re.compile(r"\bhome2\b"))
    page.get_by_test_id("setup-clear").tap()
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("option-error-setup")).to_contain_text("White has 0 pieces")
    expect(page.get_by_test_id("lobby-error")).to_contain_text("White has 0 pieces")
    expect(practice).to_be_checked()  # drawn again with the refusal, still fixed
    expect(practice).to_be_disabled()
    assert_fits(page)
    page.get_by_test_id("setup-start").tap()
    expect(page.get_by_test_id("option-error-setup")).to_have_count(0)
    expect(page.get_by_test_id("lobby-error")).to_have_text("")
    page.get_by_test_id("seat-kind-2").select_option("local")  # the form drawn again
    expect(page.get_by_test_id("option-error-setup")).to_have_count(0)
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("practice-badge")).to_have_text("Practice")
    gid = page.url.split("#/game/")[1]
    assert host.state(gid)["practice"] is True
    page.wait_for_function("() => window.ccGame?.board && !document.querySelector("
                           "'[data-testid=hint]').disabled")
    assert page.evaluate("""() => { const b = document.querySelector('[data-testid=hint]');
      b.click(); return b.getAttribute('aria-busy'); }""") == "true"
    expect(page.get_by_test_id("hint")).not_to_have_attribute("aria-busy", "true")
    expect(page.get_by_test_id("message")).to_contain_text("Hint")
    tokens = page.evaluate("JSON.parse(localStorage['cornerclaim.v1']).games")[gid]["seats"]
    resign(host, {"id": gid, "tokens": tokens}, 1)
    card_fits(page, match_points=False)
    assert page.errors == []


def test_the_ladder_fits(host, phone):
    game = host.create("classic-3x3", [{"kind": "local", "name": "Maximiliana Longname"},
                                       {"kind": "local", "name": "Bartholomew"}], game="corners")
    resign(host, game, 1)
    page = phone("/ladder.html?game=corners")
    expect(page.get_by_test_id("ladder-row-Maximiliana Longname")).to_be_visible()
    expect(page.get_by_test_id(f"replay-{game['id']}")).to_be_visible()
    assert_fits(page)
    assert page.errors == []
