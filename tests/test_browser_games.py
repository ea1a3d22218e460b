"""A second game on the same host, in real Chromium: the test-only tic-tac-toe, registered in
this process (the live host serves from this process's threads), played from the lobby's
catalog-driven form through the same table shell with its own board module
(tests/games/tictactoe.js), to the game-over card and its replay.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import tests.games.tictactoe as tictactoe  # registers the test-only game with the registry
from engine import registry
from engine.rules import OptionSpec, VariantSpec
from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot

expect.set_options(timeout=10_000)
BOARD = tictactoe.BOARD
register = tictactoe.register


class WithOptions(tictactoe.TicTacToeRules):
    """Tic-tac-toe with a variant that takes an option of every kind (it ignores them): for
    the lobby's option inputs."""

    game = "tictactoe_options"
    title = "Tic-tac-toe with options"
    variants = {"3x3": VariantSpec("3x3", "3×3", (2,), ("cross", "nought"), options=(
        OptionSpec("rounds", "Rounds", 1, "int", 1, 5, description="games in the match"),
        OptionSpec("swap", "Swap sides", False, "bool"),
        OptionSpec("opening", "Opening", "free", "choice", choices=("free", "centre")),
    ))}


@pytest.fixture(scope="module", autouse=True)
def tictactoe_registered():
    """Tic-tac-toe is on the host for this module's tests, and withdrawn after them (other
    modules in this process see the built-in games only)."""
    register()
    yield
    registry.unregister(tictactoe.GAME)


def options_of(select) -> list[tuple[str, str]]:
    return select.evaluate("s => [...s.options].map(o => [o.value, o.textContent])")


def tap_until_over(page) -> None:
    """Tap the first free cell whenever it is this phone's turn, until the game is over."""
    for _ in range(9):
        expect(page.get_by_test_id("turn")).to_have_text(
            re.compile(r"^(Your turn|.*'s turn (\((Cross|Nought)\) )?— pass|Game over)"),
            timeout=20_000)
        if page.get_by_test_id("turn").inner_text().startswith("Game over"):
            return
        before = host_seq(page)
        page.locator("[data-testid=board] button:enabled").first.tap()
        page.wait_for_function(f"() => ccGame.board && ccGame.state.seq > {before}")
    expect(page.get_by_test_id("turn")).to_contain_text("Game over", timeout=20_000)


def host_seq(page) -> int:
    return page.evaluate("window.ccGame.state.seq")


def test_the_lobby_offers_the_games_of_the_catalog(host, open_page):
    """The game cards are what GET /api/catalog lists, with its titles (a game without a
    summary: its tagline; without a picture: its initial); picking a game shows its
    variants, seat colours and computer levels from the catalog."""
    catalog = host.catalog()
    assert [g["game"] for g in catalog][:1] == ["cornerclaim"]
    assert "tictactoe" in [g["game"] for g in catalog]
    page = open_page("Pixel 7", "/")
    picker = page.get_by_test_id("pick-game")
    expect(picker).to_have_attribute("data-value", "cornerclaim")
    expect(page.get_by_test_id("new-game-form")).not_to_contain_text("null")
    expect(picker.locator("input[type=radio]")).to_have_count(len(catalog))
    assert picker.locator("input[type=radio]").evaluate_all(
        "(radios) => radios.map((r) => [r.value, r.getAttribute('aria-label')])") == [
        [g["game"], g["title"]] for g in catalog]
    expect(page.get_by_test_id("pick-game-tictactoe")).to_contain_text(
        "noughts and crosses, 2 players")
    expect(page.get_by_test_id("game-thumb-tictactoe")).to_have_text("T")
    for v in catalog[0]["variants"]:
        expect(page.get_by_test_id(f"variant-{v['name']}")).to_be_visible()

    page.get_by_test_id("pick-game-tictactoe").click()
    ttt = next(g for g in catalog if g["game"] == "tictactoe")
    (variant,) = ttt["variants"]
    chosen = page.get_by_test_id(f"variant-{variant['name']}")
    expect(chosen).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("variant-duo")).to_have_count(0)
    expect(page.get_by_test_id("seat-kind-3")).to_have_count(0)  # two seats
    expect(page.get_by_test_id("seat-kind-2")).to_have_value("computer")
    levels = options_of(page.get_by_test_id("seat-level-2"))
    assert levels == [[str(lv["number"]), f"Level {lv['number']} · {lv['name']}"]
                      for lv in ttt["levels"]]
    # The seat chips are the catalog's palette: its signs, not a colour's letter.
    expect(page.locator(".seat-row .chip").first).to_have_text("✕")
    assert page.errors == []

    # Withdrawn from the registry, the game is gone from the catalog and from the form.
    registry.unregister(tictactoe.GAME)
    try:
        assert "tictactoe" not in [g["game"] for g in host.catalog()]
        page.reload()
        expect(page.get_by_test_id("pick-game")).to_have_attribute("data-value", "cornerclaim")
        expect(page.get_by_test_id("pick-game-tictactoe")).to_have_count(0)
    finally:
        register()


def test_two_players_on_one_phone_play_tic_tac_toe_to_the_end_and_watch_the_replay(
        host, open_page):
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("your-name").fill("Cleo")
    page.get_by_test_id("pick-game-tictactoe").click()
    page.get_by_test_id("seat-kind-2").select_option("local")
    page.get_by_test_id("seat-name-2").fill("Noor")
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text("Cleo's turn (Cross) — pass the phone")
    gid = page.url.split("#/game/")[1]
    state = host.state(gid)
    assert state["game"] == "tictactoe" and state["board"]["rows"] == [[0, 0, 0]] * 3
    # The board module is tic-tac-toe's: nine cells, no tray or pieces; no hints (its
    # catalog line says it gives none).
    expect(page.locator("[data-testid=board] button")).to_have_count(9)
    expect(page.get_by_test_id("tray")).to_have_count(0)
    expect(page.get_by_test_id("undo")).to_be_visible()
    expect(page.get_by_test_id("hint")).to_be_hidden()

    for cell, mark, next_turn in (("a1", "✕", "Nought"), ("a2", "◯", "Cross"),
                                  ("b1", "✕", "Nought"), ("b2", "◯", "Cross")):
        page.get_by_test_id(f"cell-{cell}").tap()
        expect(page.get_by_test_id(f"cell-{cell}")).to_have_text(mark)
        expect(page.get_by_test_id(f"cell-{cell}")).to_be_disabled()
        name = {"Cross": "Cleo", "Nought": "Noor"}[next_turn]
        expect(page.get_by_test_id("turn")).to_have_text(
            f"{name}'s turn ({next_turn}) — pass the phone")
    assert [r for r in host.state(gid)["board"]["rows"]] == [[0, 0, 0], [2, 2, 0], [1, 1, 0]]
    screenshot(page, "tictactoe-hot-seat")
    page.get_by_test_id("cell-c1").tap()  # three in a row

    expect(page.get_by_test_id("gameover")).to_be_visible()
    expect(page.get_by_test_id("turn")).to_have_text("Game over — Cleo wins")
    expect(page.get_by_test_id("final-1")).to_contain_text("win")
    expect(page.get_by_test_id("final-2")).to_contain_text("loss")
    # Exports: the JSON log, and no format the game does not have.
    expect(page.get_by_test_id("replay")).to_have_attribute("href", f"/api/games/{gid}/replay.json")
    expect(page.get_by_test_id("replay-blksgf")).to_have_count(0)
    expect(page.locator("[data-testid=board] button:enabled")).to_have_count(0)
    screenshot(page, "tictactoe-game-over")
    assert page.errors == []

    page.get_by_test_id("replay-viewer").tap()
    expect(page.get_by_test_id("replay-counter")).to_have_text("Move 5 / 5")
    expect(page.get_by_test_id("replay-result")).to_have_text("Game over: Cleo wins")
    board = page.get_by_test_id("replay-board")
    expect(board.locator("button", has_text="✕")).to_have_count(3)
    expect(board.locator("button", has_text="◯")).to_have_count(2)
    expect(board.locator("button:enabled")).to_have_count(0)  # read-only
    page.get_by_test_id("replay-move-2").tap()
    expect(page.get_by_test_id("replay-move-2")).to_contain_text("Noor: a2")
    expect(board.locator("button", has_text="✕")).to_have_count(1)
    expect(board.locator("button", has_text="◯")).to_have_count(1)
    expect(page.get_by_test_id("replay-export-json")).to_be_visible()
    expect(page.get_by_test_id("replay-export-blksgf")).to_have_count(0)
    screenshot(page, "tictactoe-replay")
    assert page.errors == []

    # The ladder of tic-tac-toe: its own players and rating, none of Corner Claim's stats.
    page.get_by_test_id("to-ladder").tap()
    page.get_by_test_id("ladder-game").select_option("tictactoe")
    expect(page).to_have_url(re.compile(r"ladder\.html\?game=tictactoe$"))
    expect(page.get_by_test_id("ladder-row-Cleo")).to_be_visible()
    expect(page.get_by_test_id("ladder-row-Noor")).to_be_visible()
    expect(page.get_by_test_id("ladder-note")).to_contain_text("Rating: Tic-tac-toe 3×3")
    expect(page.locator("[data-testid^=col-stat-]")).to_have_count(0)
    expect(page.get_by_test_id(f"replay-{gid}")).to_be_visible()
    assert page.errors == []


def test_the_ladder_keeps_the_game_picked_when_an_earlier_answer_comes_last(host, open_page):
    """The ladder opens on the catalog's first game and I pick tic-tac-toe at once. The first
    game's players come back last (held here until tic-tac-toe's are shown), and the table
    still shows tic-tac-toe's players, not the answer to the earlier pick."""
    game = host.create("3x3", [{"kind": "local", "name": "Dara"},
                               {"kind": "local", "name": "Eli"}], game="tictactoe")
    gid, tokens = game["id"], game["tokens"]
    for seat, cell in ((1, "a1"), (2, "a2"), (1, "b1"), (2, "b2"), (1, "c1")):
        host.move(gid, seat, cell, tokens[str(seat)])
    assert host.state(gid)["status"] == "finished"
    page = open_page("Pixel 7", "/")
    held = []
    page.route(re.compile(r"/api/players\?game=cornerclaim&"),
               lambda route: held.append(route))
    page.goto("/ladder.html")
    page.wait_for_function("() => window.ccLadder && document.querySelector("
                           "'[data-testid=ladder-game] option[value=tictactoe]')")
    page.get_by_test_id("ladder-game").select_option("tictactoe")
    expect(page.get_by_test_id("ladder-row-Dara")).to_be_visible()
    assert len(held) == 1 and page.evaluate("ccLadder.answers") == 1
    with page.expect_response(re.compile(r"/api/players\?game=cornerclaim&")):
        held[0].continue_()
    page.wait_for_function("() => ccLadder.answers === 2")
    expect(page.get_by_test_id("ladder-row-Dara")).to_be_visible()
    expect(page.get_by_test_id("ladder-note")).to_contain_text("Tic-tac-toe")
    assert "game=tictactoe" in page.evaluate("ccLadder.query")
    assert page.errors == []


def test_a_phone_plays_tic_tac_toe_against_the_computer(host, open_page):
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("your-name").fill("Ivo")
    page.get_by_test_id("pick-game-tictactoe").click()
    expect(page.get_by_test_id("seat-kind-2")).to_have_value("computer")
    page.get_by_test_id("seat-level-2").select_option("1")
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Cross)")
    gid = page.url.split("#/game/")[1]
    assert host.state(gid)["seats"][1]["kind"] == "computer"
    tap_until_over(page)
    expect(page.get_by_test_id("gameover")).to_be_visible()
    final = host.state(gid)
    assert final["result"] is not None
    marks = sum(seat != 0 for row in final["board"]["rows"] for seat in row)
    expect(page.locator("[data-testid=board] button:not(:empty)")).to_have_count(marks)
    page.get_by_test_id("replay-viewer").tap()
    expect(page.get_by_test_id("replay-counter")).to_have_text(f"Move {marks} / {marks}")
    assert page.errors == []


def test_a_variants_options_are_inputs_by_kind_and_go_to_the_host(host, open_page):
    registry.register(WithOptions(), board=BOARD, module=__name__)
    try:
        page = open_page("Pixel 7", "/")
        page.get_by_test_id(f"pick-game-{WithOptions.game}").click()
        rounds = page.get_by_test_id("option-rounds")
        expect(rounds).to_have_value("1")  # the catalog's default
        expect(rounds).to_have_attribute("max", "5")
        expect(page.get_by_test_id("option-swap")).not_to_be_checked()
        expect(page.get_by_test_id("option-opening")).to_have_value("free")
        rounds.fill("3")
        page.get_by_test_id("option-swap").check()
        page.get_by_test_id("option-opening").select_option("centre")
        page.get_by_test_id("seat-kind-2").select_option("local")
        page.get_by_test_id("create").tap()
        expect(page.get_by_test_id("turn")).to_have_text("Cross's turn — pass the phone")
        gid = page.url.split("#/game/")[1]
        state = host.state(gid)
        assert state["game"] == WithOptions.game
        assert state["options"] == {"rounds": 3, "swap": True, "opening": "centre"}
        assert page.errors == []
    finally:
        registry.unregister(WithOptions.game)
