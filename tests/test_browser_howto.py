"""The lobby's game cards and each game's how-to-play sheet, in real Chromium on a 320 px wide
phone and a Pixel 7: a card per game of the catalog (its title, its summary, its picture) that
never makes the page scroll sideways; a card chosen by a tap or by the arrow keys makes that
game; the sheet opens from each card and from the table's header, fits the phone, scrolls
inside, and closes with Escape or its button. One phone per width for the module."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot

expect.set_options(timeout=10_000)
GAMES = ["cornerclaim", "corners", "marbles"]
WIDTHS = {"320 px phone": 320, "Pixel 7": None}


@pytest.fixture(scope="module")
def phones(browser, host):
    """phones(width) -> the module's page at that width (None: the Pixel 7's own 412 px)."""
    pages = {}

    def _page(width: int | None):
        if width not in pages:
            options = dict(browser.devices["Pixel 7"])
            if width:
                options["viewport"] = {"width": width, "height": 720}
            context = browser.new_context(base_url=host.url, **options)
            page = context.new_page()
            page.errors = []
            page.on("pageerror", lambda e, page=page: page.errors.append(str(e)))
            pages[width] = page
        return pages[width]

    yield _page
    for page in pages.values():
        assert page.errors == []
        page.context.close()


def sideways(page) -> int:
    """How many CSS px the page is wider than the phone (0: it never scrolls sideways)."""
    return page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")


def lobby(page):
    page.goto("/")
    for game in GAMES:  # each picture drawn by its game's module
        expect(page.locator(f"[data-testid=game-thumb-{game}][data-drawn] svg")).to_be_visible()


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_a_card_per_game_says_what_it_is_and_fits_the_phone(host, phones, width):
    page = phones(width)
    lobby(page)
    for entry in (e for e in host.catalog() if e["game"] in GAMES):
        card = page.get_by_test_id(f"pick-game-{entry['game']}")
        expect(card).to_contain_text(entry["title"])
        expect(card).to_contain_text(entry["summary"])
        expect(page.get_by_role("radio", name=entry["title"], exact=True)).to_have_count(1)
        box = card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    # The first game is chosen; nothing wider than the phone.
    expect(page.get_by_test_id("pick-game-radio-cornerclaim")).to_be_checked()
    assert sideways(page) == 0
    screenshot(page, f"lobby-cards-{width or 412}px")


def test_each_card_chosen_makes_that_game(host, phones):
    page = phones(320)
    for game in GAMES:
        entry = next(e for e in host.catalog() if e["game"] == game)
        lobby(page)
        page.get_by_test_id(f"pick-game-{game}").tap()
        expect(page.get_by_test_id(f"pick-game-radio-{game}")).to_be_checked()
        expect(page.get_by_test_id("pick-game")).to_have_attribute("data-value", game)
        expect(page.get_by_test_id(f"variant-{entry['variants'][0]['name']}")).to_have_attribute(
            "aria-pressed", "true")
        assert sideways(page) == 0, game
        page.get_by_test_id("create").tap()
        expect(page).to_have_url(re.compile(r"#/game/"))
        made = page.url.split("#/game/")[1].split("/")[0]
        assert host.state(made)["game"] == game


def test_the_arrow_keys_go_from_card_to_card(phones):
    page = phones(None)
    lobby(page)
    page.get_by_test_id("pick-game-radio-cornerclaim").focus()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_test_id("pick-game-radio-corners")).to_be_checked()
    expect(page.get_by_test_id("pick-game-radio-corners")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_test_id("pick-game")).to_have_attribute("data-value", "marbles")
    expect(page.get_by_test_id("variant-4p")).to_be_visible()
    page.keyboard.press("ArrowUp")
    expect(page.get_by_test_id("pick-game")).to_have_attribute("data-value", "corners")


def read_the_sheet(page, title: str, game: str) -> None:
    """The sheet is open for `game`, its guide in, with its pictures; it fits the phone and
    scrolls inside, never sideways."""
    sheet = page.locator(f"[data-testid=howto-sheet][data-game={game}][data-ready=true]")
    expect(sheet).to_be_visible()
    expect(sheet.get_by_role("heading", level=2)).to_have_text(f"How to play {title}")
    assert sheet.locator(".howto-figure svg").count() >= 2, game
    box = sheet.bounding_box()
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
    body = page.get_by_test_id("howto-body").evaluate(
        "(e) => [e.scrollWidth - e.clientWidth, e.scrollHeight - e.clientHeight]")
    assert body[0] <= 0 and body[1] > 0, body  # it scrolls down, not sideways
    assert sideways(page) == 0, game


def test_how_to_play_opens_from_each_card_and_closes_by_escape(host, phones):
    page = phones(320)
    lobby(page)
    for entry in (e for e in host.catalog() if e["game"] in GAMES):
        page.get_by_test_id(f"howto-{entry['game']}").tap()
        read_the_sheet(page, entry["title"], entry["game"])
        screenshot(page, f"howto-{entry['game']}-320px")
        page.keyboard.press("Escape")
        expect(page.get_by_test_id("howto-sheet")).to_be_hidden()
        # Reading a game's guide does not choose it.
        expect(page.get_by_test_id("pick-game")).to_have_attribute("data-value", "cornerclaim")


def test_how_to_play_opens_from_the_table_header(host, phones):
    page = phones(320)
    for entry in (e for e in host.catalog() if e["game"] in GAMES):
        variant = entry["variants"][0]
        made = host.create(variant["name"], [{"kind": "local"}] * variant["seats"][0],
                           game=entry["game"])
        memory = {"games": {made["id"]: {"seats": made["tokens"], "host": made["host_token"]}}}
        page.evaluate("(v) => localStorage.setItem('cornerclaim.v1', v)", json.dumps(memory))
        page.goto(f"/#/game/{made['id']}")
        page.wait_for_function("() => window.ccGame?.board && window.ccGame.entry")
        assert sideways(page) == 0, entry["game"]
        page.get_by_test_id("howto").tap()
        read_the_sheet(page, entry["title"], entry["game"])
        if entry["game"] == "corners":
            page.get_by_test_id("howto-close").tap()
        else:
            page.keyboard.press("Escape")
        expect(page.get_by_test_id("howto-sheet")).to_be_hidden()
        expect(page.get_by_test_id("board")).to_be_visible()
