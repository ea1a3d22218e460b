"""Corners' practice room in real Chromium on a Pixel 7, a real host on loopback: a solo race
from the lobby played by taps (the move counter and the best known above the board), a
position set up on the lobby's board editor (a refused one first, in the host's words) and
played against the computer, and "Set up from here" in a replay."""

from __future__ import annotations

from playwright.sync_api import expect

from engine.corners.solo import BEST_KNOWN, beam
from engine.corners.variants import VARIANTS
from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.test_browser_corners import seq_of, tap_move, tokens_of

expect.set_options(timeout=10_000)


def test_a_solo_race_by_taps_counts_the_moves_and_shows_the_best_known(host, open_page):
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("your-name").fill("Sol")
    page.get_by_test_id("pick-game-corners").click()
    page.get_by_test_id("variant-diagonal-3x3").tap()
    page.get_by_test_id("players-1").tap()
    expect(page.get_by_test_id("seat-kind-2")).to_have_count(0)
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    gid = page.url.split("#/game/")[1]
    expect(page.get_by_test_id("practice-badge")).to_have_text("Solo race")
    expect(page.get_by_test_id("solo-moves")).to_have_text("Moves 0")
    best = BEST_KNOWN.get("diagonal-3x3")
    expect(page.get_by_test_id("solo-best")).to_have_text(
        f"Best known {best[0] if best else '—'}")
    expect(page.locator("[data-testid=board] .cn-piece.b")).to_have_count(0)
    variant = VARIANTS["diagonal-3x3"]
    name = variant.board.name
    line = beam(variant, width=20)
    for i, (f, t) in enumerate(line[:4], start=1):
        tap_move(page, f"{name(f)}-{name(t)}")  # waits for the state's seq on the page
        expect(page.get_by_test_id("solo-moves")).to_have_text(f"Moves {i}")
    token = page.evaluate("JSON.parse(localStorage['cornerclaim.v1']).games")[gid]["seats"]["1"]
    for f, t in line[4:-1]:  # the rest but the last from another phone of the same seat
        host.move(gid, 1, f"{name(f)}-{name(t)}", token)
    page.wait_for_function(f"() => ccGame.board && ccGame.state.seq === {len(line)}")
    expect(page.get_by_test_id("solo-moves")).to_have_text(f"Moves {len(line) - 1}")
    f, t = line[-1]
    tap_move(page, f"{name(f)}-{name(t)}")
    expect(page.get_by_test_id("gameover")).to_be_visible()
    expect(page.get_by_test_id("gameover-ending")).to_contain_text(
        f"White filled the target in {len(line)} moves")
    state = host.state(gid)
    assert state["result"]["results"] == ["win"] and state["practice"] is True
    assert page.errors == []


def test_a_position_set_up_on_the_board_editor_is_played_against_the_computer(host, open_page):
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("your-name").fill("Eda")
    page.get_by_test_id("pick-game-corners").click()
    page.get_by_test_id("variant-classic-3x3").tap()
    expect(page.get_by_test_id("seat-kind-2")).to_have_value("computer")
    page.get_by_test_id("edit-setup").tap()
    editor = page.get_by_test_id("setup-editor")
    expect(editor).to_be_visible()
    # the editor starts from the variant's start position; empty it and place a few pieces
    expect(page.get_by_test_id("setup-cell-a1")).to_have_attribute("data-piece", "white")
    page.get_by_test_id("setup-clear").tap()
    expect(page.get_by_test_id("setup-counts")).to_have_text("White 0 · Black 0 pieces")
    page.get_by_test_id("setup-tool-white").tap()
    page.get_by_test_id("setup-cell-d3").tap()
    page.get_by_test_id("create").tap()
    # the host refuses a position that cannot be played, in its own words
    expect(page.get_by_test_id("lobby-error")).to_contain_text(
        "White has 1 piece; Classic 3×3 is played with 9")
    expect(page.get_by_test_id("option-error-setup")).to_be_visible()
    for sq in ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3"):
        page.get_by_test_id(f"setup-cell-{sq}").tap()
    page.get_by_test_id("setup-tool-black").tap()
    for sq in ("f6", "g6", "h6", "f7", "g7", "h7", "f8", "g8", "e8"):
        page.get_by_test_id(f"setup-cell-{sq}").tap()
    page.get_by_test_id("setup-tool-empty").tap()
    page.get_by_test_id("setup-cell-a1").tap()  # taken off again
    page.get_by_test_id("setup-tool-white").tap()
    page.get_by_test_id("setup-cell-a1").tap()
    page.get_by_test_id("setup-number").fill("12")
    expect(page.get_by_test_id("setup-counts")).to_have_text("White 9 · Black 9 pieces")
    expect(page.get_by_test_id("option-setup")).to_have_value(
        "W:a1,a2,a3,b1,b2,b3,c1,c2,d3 B:e8,f6,f7,f8,g6,g7,g8,h6,h7 w 12")
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    gid = page.url.split("#/game/")[1]
    expect(page.get_by_test_id("practice-badge")).to_have_text("Practice")
    expect(page.get_by_test_id("move-number")).to_have_text("Move 12")
    expect(page.locator("[data-testid=cell-d3] .cn-piece.w")).to_have_count(1)
    before = seq_of(page)
    tap_move(page, "d3-d4")
    page.wait_for_function(f"() => ccGame.board && ccGame.state.seq >= {before + 2}")  # its reply
    state = host.state(gid)
    assert state["practice"] and len(state["board"]["moves"]) == 2
    assert state["options"]["setup"].endswith("w 12")
    expect(page.get_by_test_id("move-list-ply-1")).to_have_text("d3-d4")
    assert page.errors == []


def test_set_up_from_here_in_a_replay_starts_a_game_from_that_position(host, open_page):
    game = host.create("classic-3x3", [{"kind": "local", "name": "Ola"},
                                       {"kind": "local", "name": "Pia"}], game="corners")
    gid, tokens = game["id"], tokens_of(game)
    host.move(gid, 1, "c3-d3", tokens[1])
    host.move(gid, 2, "f6-e6", tokens[2])
    host.move(gid, 1, "d3-d4", tokens[1])
    page = open_page("Pixel 7", f"/replay.html?game={gid}")
    expect(page.get_by_test_id("replay-practice")).to_be_hidden()
    page.get_by_test_id("replay-move-2").tap()  # after f6-e6: white to move, move 2
    setup = page.get_by_test_id("replay-setup")
    expect(setup).to_be_visible()
    setup.tap()
    expect(page.get_by_test_id("setup-editor")).to_be_visible()
    expect(page.get_by_test_id("setup-cell-d3")).to_have_attribute("data-piece", "white")
    expect(page.get_by_test_id("setup-cell-e6")).to_have_attribute("data-piece", "black")
    expect(page.get_by_test_id("option-setup")).to_have_value(
        "W:a1,a2,a3,b1,b2,b3,c1,c2,d3 B:e6,f7,f8,g6,g7,g8,h6,h7,h8 w 2")
    page.get_by_test_id("seat-kind-2").select_option("local")
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_contain_text("White")
    new = page.url.split("#/game/")[1]
    state = host.state(new)
    assert state["practice"] and state["board"]["rows"][5][3] == 1  # d3
    before = seq_of(page)
    tap_move(page, "d3-d4")
    assert seq_of(page) > before
    # the lobby lists it with a practice tag; the game it was set up from has none
    page.goto(f"{host.url}/#/")
    expect(page.get_by_test_id(f"practice-{new}")).to_have_text("practice")
    expect(page.get_by_test_id(f"game-{gid}")).to_be_visible()
    expect(page.get_by_test_id(f"practice-{gid}")).to_have_count(0)
    assert page.errors == []
