"""Corners (Ugolki) in real Chromium on a Pixel 7: its board module (client_web/js/boards/
corners.js) in the table shell — picking a piece, the host's targets, the path, a second tap to
move, the turned board for black, the keys, the clocks, the shell's actions (resign, draw
offers) and the home-return confirmation; a whole game against the computer from the lobby to
the game-over card and the replay.
"""

from __future__ import annotations

import json
import re

import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot

expect.set_options(timeout=10_000)
COLUMNS = "abcdefgh"


def storage_for(game_id: str, tokens: dict, name: str = "") -> dict:
    data = {"name": name, "games": {game_id: {"seats": {str(k): v for k, v in tokens.items()}}}}
    return {"cornerclaim.v1": json.dumps(data)}


def tokens_of(game: dict) -> dict:
    return {int(k): v for k, v in game["tokens"].items()}


def legal_from(host, gid: str, seat: int, token: str, square: str | None = None) -> list[dict]:
    params = {"seat": seat} | ({"from": square} if square else {})
    r = requests.get(f"{host.url}/api/games/{gid}/legal", params=params,
                     headers={"Authorization": f"Bearer {token}"}, timeout=10)
    r.raise_for_status()
    return r.json()["moves"]


def seq_of(page) -> int:
    return page.evaluate("window.ccGame.state.seq")


def xy(square: str) -> tuple[int, int]:
    return COLUMNS.index(square[0]), int(square[1:])


def forward(entry: dict, seat: int) -> tuple:
    """How far a move takes its piece towards the far corner (white: h8, black: a1)."""
    (fx, fy), (tx, ty) = xy(entry["from"]), xy(entry["to"])
    gain = (tx + ty) - (fx + fy)
    if seat == 2:
        gain = -gain
    behind = (fx + fy) if seat == 1 else -(fx + fy)  # move the piece furthest behind first
    return (gain, -behind, entry["move"])


def tap_move(page, move: str) -> None:
    """Pick the piece, tap its target once (the path shows), then again (the move goes)."""
    path = move.split("-")
    before = seq_of(page)
    page.get_by_test_id(f"cell-{path[0]}").tap()
    board = page.get_by_test_id("board")
    expect(board).to_have_attribute("data-picked", path[0])
    expect(page.get_by_test_id(f"cell-{path[-1]}")).to_have_attribute("data-target", re.compile("true|loses"))
    page.get_by_test_id(f"cell-{path[-1]}").tap()
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", move)
    assert seq_of(page) == before  # the first tap only shows the path
    page.get_by_test_id(f"cell-{path[-1]}").tap()
    page.wait_for_function(f"() => window.ccGame.state.seq > {before}")


def test_a_whole_game_against_the_computer_by_tapping(host, open_page):
    """From the lobby (classic 3×3, computer level 1; the clock off, as the catalog's
    computer_default says) to the game-over card: each move chosen from the host's legal list
    and made by tapping the piece, then its target twice."""
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("your-name").fill("Mira")
    page.get_by_test_id("pick-game").select_option("corners")
    page.get_by_test_id("variant-classic-3x3").tap()
    expect(page.get_by_test_id("seat-kind-2")).to_have_value("computer")
    page.get_by_test_id("seat-level-2").select_option("1")
    expect(page.get_by_test_id("option-reserve_s")).to_have_value("0")  # no clock vs a computer
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    gid = page.url.split("#/game/")[1]
    state = host.state(gid)
    assert state["game"] == "corners" and state["board"]["clock"] is None
    expect(page.get_by_test_id("clocks")).to_be_hidden()
    expect(page.get_by_test_id("move-number")).to_have_text("Move 1")
    expect(page.get_by_test_id("home-deadline")).to_contain_text("40")
    expect(page.get_by_test_id("move-limit")).to_contain_text("80")
    expect(page.get_by_test_id("board")).to_have_attribute("data-turned", "false")
    expect(page.locator("[data-testid=board] .cn-piece.w")).to_have_count(9)
    expect(page.locator("[data-testid=board] .cn-piece.b")).to_have_count(9)
    token = _tokens(page, gid)["1"]

    moves = 0
    for _ in range(200):
        expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^(Your turn|Game over)"), timeout=20_000)
        if page.get_by_test_id("turn").inner_text().startswith("Game over"):
            break
        legal = [m for m in legal_from(host, gid, 1, token) if not m.get("loses")]
        best = max(legal, key=lambda m: forward(m, 1))
        tap_move(page, best["move"])
        moves += 1
        if moves == 1:
            expect(page.get_by_test_id("last-path")).to_have_attribute("data-path", re.compile(".+"))
            screenshot(page, "corners-first-move")
    expect(page.get_by_test_id("gameover")).to_be_visible(timeout=20_000)
    final = host.state(gid)
    assert final["result"] is not None and moves > 5
    expect(page.get_by_test_id("turn")).to_contain_text("Game over")
    screenshot(page, "corners-game-over")

    # The replay: the frames drawn by Corners' board module, the moves in pairs.
    page.get_by_test_id("replay-viewer").tap()
    expect(page.get_by_test_id("replay-board").locator(".cn-piece.w")).to_have_count(9)
    expect(page.get_by_test_id("replay-moves")).to_contain_text("1. ")
    first = page.get_by_test_id("replay-move-1")
    expect(first).to_contain_text(final_first_move(host, gid))
    screenshot(page, "corners-replay")
    assert page.errors == []


def _tokens(page, gid: str) -> dict:
    raw = page.evaluate("localStorage.getItem('cornerclaim.v1')")
    return json.loads(raw)["games"][gid]["seats"]


def final_first_move(host, gid: str) -> str:
    r = requests.get(f"{host.url}/api/games/{gid}/replay", timeout=10)
    r.raise_for_status()
    frames = [f for f in r.json()["frames"] if f.get("kind") == "move"]
    return frames[0]["move"]
