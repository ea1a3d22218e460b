"""Halma 16×16 (Corners' `halma-16x16`) in real Chromium on a Pixel 7: made from the lobby as a
hot-seat game, the 16×16 board drawn from the state's size as wide as the screen with
coordinates a–p and 1–16, moves made by taps, and the zoom that doubles the squares and pans
inside the board's own box (the page never scrolls sideways), with taps still moving.
"""

from __future__ import annotations

import json
import re

import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot
from tests.test_browser_corners import legal_from, seq_of, tap_move

expect.set_options(timeout=10_000)
COLUMNS = "abcdefghijklmnop"


def forward(entry: dict, seat: int) -> tuple:
    """How far a move takes its piece towards the far corner (white: p16, black: a1)."""
    def xy(square: str) -> int:
        return COLUMNS.index(square[0]) + int(square[1:])

    gain = xy(entry["to"]) - xy(entry["from"])
    return (gain if seat == 1 else -gain, entry["move"])


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_halma_from_the_lobby_played_by_taps_on_a_phone(host, open_page):
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("your-name").fill("Ida")
    page.get_by_test_id("pick-game-corners").click()
    page.get_by_test_id("variant-halma-16x16").tap()
    expect(page.get_by_test_id("variant-note")).to_contain_text("16×16")
    page.get_by_test_id("seat-kind-2").select_option("local")
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"turn \(White\)"))
    gid = page.url.split("#/game/")[1]
    state = host.state(gid)
    assert state["board"]["variant"] == "halma-16x16" and state["board"]["size"] == 16
    board = page.get_by_test_id("board")
    expect(board.locator(".cn-cell")).to_have_count(256)
    expect(board.locator(".cn-piece.w")).to_have_count(19)
    expect(board.locator(".cn-piece.b")).to_have_count(19)
    expect(page.get_by_test_id("home-deadline")).to_contain_text("60")
    expect(page.get_by_test_id("move-limit")).to_contain_text("150")
    # Coordinates a–p along the bottom, 1–16 up the left.
    expect(page.locator("[data-testid=cell-p1] .cn-coord.file")).to_have_text("p")
    expect(page.locator("[data-testid=cell-a16] .cn-coord.rank")).to_have_text("16")
    # The board fills the width, the page does not scroll sideways.
    width = page.viewport_size["width"]
    box = board.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["width"] >= width - 40
    assert no_sideways_scroll(page)
    square = page.get_by_test_id("cell-h8").bounding_box()["width"]
    assert square >= 24  # 16 squares across 412 px less the page's margins
    expect(page.get_by_test_id("board-view")).to_have_attribute("data-small", "true")
    screenshot(page, "corners-halma")

    tokens = json.loads(page.evaluate("localStorage.getItem('cornerclaim.v1')"))["games"][gid]
    tokens = tokens["seats"]
    for seat in (1, 2, 1, 2):
        colour = "White" if seat == 1 else "Black"
        expect(page.get_by_test_id("turn")).to_have_text(re.compile(rf"^(.* turn \()?{colour}"))
        before = seq_of(page)
        legal = legal_from(host, gid, seat, tokens[str(seat)])
        best = max(legal, key=lambda m: forward(m, seat))
        tap_move(page, best["move"])
        assert seq_of(page) > before
        assert host.state(gid)["board"]["last_move"] == best["move"]
    assert len(host.state(gid)["board"]["moves"]) == 4
    assert no_sideways_scroll(page)

    # Zoomed: squares of 44 px in a box as wide as the board was, panned inside it; the
    # bottom left corner (white's home) in view, every square named, and taps still move.
    zoom = page.get_by_test_id("board-zoom")
    expect(zoom).to_have_attribute("aria-pressed", "false")
    zoom.tap()
    expect(zoom).to_have_attribute("aria-pressed", "true")
    view = page.get_by_test_id("board-view")
    expect(view).to_have_attribute("data-zoomed", "true")
    assert page.get_by_test_id("cell-a1").bounding_box()["width"] >= 40
    outer = view.bounding_box()
    assert outer["x"] >= 0 and outer["x"] + outer["width"] <= width
    assert no_sideways_scroll(page)
    a1 = page.get_by_test_id("cell-a1").bounding_box()
    assert outer["x"] <= a1["x"] and a1["y"] + a1["height"] <= outer["y"] + outer["height"] + 1
    expect(page.locator("[data-testid=cell-h8] .cn-coord.name")).to_have_text("h8")
    screenshot(page, "corners-halma-zoomed")
    legal = legal_from(host, gid, 1, tokens["1"])
    best = max(legal, key=lambda m: forward(m, 1))
    tap_move(page, best["move"])
    assert host.state(gid)["board"]["last_move"] == best["move"]
    expect(view).to_have_attribute("data-zoomed", "true")
    zoom.tap()
    expect(view).to_have_attribute("data-zoomed", "false")
    assert board.bounding_box()["width"] <= width
    assert page.errors == []

    # The replay viewer draws the 16×16 board with the same module; the board's SVG has the
    # 16 × 16 squares and their labels.
    moves = host.state(gid)["board"]["moves"]
    replay = open_page("Pixel 7", f"/replay.html?game={gid}")
    frame = replay.get_by_test_id("replay-board")
    expect(frame.locator(".cn-cell")).to_have_count(256)
    expect(frame.locator(".cn-piece.w")).to_have_count(19)
    replay.get_by_test_id("replay-move-1").tap()
    expect(frame.get_by_test_id("last-path")).to_have_attribute("data-path", moves[0])
    assert no_sideways_scroll(replay)
    svg = requests.get(f"{host.url}/api/games/{gid}/board.svg", timeout=10)
    assert svg.status_code == 200 and svg.text.count('stroke-width="0.5"') == 256
    assert ">p</text>" in svg.text and ">16</text>" in svg.text
    assert replay.errors == []
