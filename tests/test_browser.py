"""The phone UI in real Chromium against a live host: stories of play, told through the page.

Phones are Pixel 7 contexts (touch; drags are CDP touch events); the keyboard story runs on a
desktop viewport. Every context is its own phone with its own localStorage. Screenshots go
to build/test-artifacts/browser/.
"""

from __future__ import annotations

import json
import re

import pytest
import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import Finger, cell_centre, screenshot

# The machine is shared (2 cores, other suites running): give the page time, not patience.
expect.set_options(timeout=10_000)


# ---- helpers: reading the page and the host -------------------------------------------------
def cell(name: str) -> tuple[int, int]:
    return ord(name[0]) - 97, int(name[1:]) - 1


def name_of(x: int, y: int) -> str:
    return f"{chr(97 + x)}{y + 1}"


def norm(cells) -> list[tuple[int, int]]:
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return sorted((x - mx, y - my) for x, y in cells)


def in_hand(page) -> list[tuple[int, int]]:
    """The cells the piece in hand covers on the board now."""
    names = page.eval_on_selector_all(".board .cell.pv",
                                      "els => els.map(e => e.dataset.testid.slice(5))")
    return [cell(n) for n in names]


def legal_and_illegal_shift(live, game_id, seat, piece, cells, size):
    """Two shifts of the piece as it lies: one onto a legal placement, one onto an illegal
    spot fully on the board (asks the host; the test holds no rules either)."""
    shape = norm(cells)
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    legal = set()
    good = None
    for m in live.legal(game_id, seat, piece):
        mc = [cell(c) for c in m["move"].split(",")]
        legal.add(tuple(sorted(mc)))
        if norm(mc) == shape and good is None:
            good = (min(x for x, _ in mc) - x0, min(y for _, y in mc) - y0)
    assert good, f"no legal placement of {piece} as it lies"
    for dx in range(-x0, size):
        for dy in range(-y0, size):
            moved = [(x + dx, y + dy) for x, y in cells]
            if all(0 <= x < size and 0 <= y < size for x, y in moved) and \
                    tuple(sorted(moved)) not in legal and abs(dx) + abs(dy) > 3:
                return good, (dx, dy)
    raise AssertionError("no illegal spot found")


def storage_for(game_id: str, tokens: dict, name: str = "") -> dict:
    data = {"name": name, "games": {game_id: {"seats": {str(k): v for k, v in tokens.items()}}}}
    return {"cornerclaim.v1": json.dumps(data)}


def lift(page, piece: str) -> None:
    page.get_by_test_id(f"piece-{piece}").click()
    expect(page.get_by_test_id(f"piece-{piece}")).to_have_attribute("aria-pressed", "true")


def play_single_square(page) -> str:
    """Lift the single square (it appears on my first open corner) and tap Place."""
    lift(page, "1")
    spot = in_hand(page)
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "legal")
    page.get_by_test_id("place").click()
    name = name_of(*spot[0])
    return name


THINKING_SPY = """
window.__sawThinking = false;
new MutationObserver((records) => {
  // Added nodes keep their text even if a later update in the same task replaced them.
  for (const r of records) for (const n of r.addedNodes)
    if ((n.textContent || '').includes('computer is thinking')) window.__sawThinking = true;
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


# ---- stories -----------------------------------------------------------------------------
def test_alice_plays_the_computer_by_touch(host, open_page):
    """Alice creates a game against the computer from the lobby, lifts the L, turns and flips
    it, drags it by touch over an illegal spot (red) and a legal one (lit in blue), lifts her
    finger to lay it, and sees the board and scores change; then the computer answers."""
    page = open_page("Pixel 7", "/", script=THINKING_SPY)
    page.get_by_test_id("your-name").fill("Alice")
    page.get_by_test_id("variant-duo").tap()
    expect(page.get_by_test_id("seat-kind-2")).to_have_value("computer")
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    game_id = page.url.split("#/game/")[1]
    screenshot(page, "phone-game-start")

    # Shapes that look the same however they turn do not offer the buttons.
    page.get_by_test_id("piece-X").tap()
    expect(page.get_by_test_id("rotate")).to_be_hidden()
    expect(page.get_by_test_id("flip")).to_be_hidden()
    page.get_by_test_id("piece-X").tap()  # put it back
    expect(page.get_by_test_id("piece-X")).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "none")

    # Pass stays disabled while a placement exists.
    expect(page.get_by_test_id("pass")).to_be_disabled()

    page.get_by_test_id("piece-L5").tap()
    expect(page.get_by_test_id("rotate")).to_be_visible()
    expect(page.get_by_test_id("flip")).to_be_visible()
    before = norm(in_hand(page))
    page.get_by_test_id("rotate").tap()
    turned = norm(in_hand(page))
    assert turned != before
    page.get_by_test_id("flip").tap()
    flipped = norm(in_hand(page))
    assert flipped != turned
    # The host's legal list has arrived: the board shows where the piece can go.
    expect(page.locator(".board .cell.can").first).to_be_attached()

    cells = in_hand(page)
    good, bad = legal_and_illegal_shift(host, game_id, 1, "L5", cells, 14)
    grab = cells[0]
    scroll = page.evaluate("[window.scrollX, window.scrollY, visualViewport.scale]")
    finger = Finger(page)
    finger.down(*cell_centre(page, name_of(*grab)))
    finger._at = cell_centre(page, name_of(*grab))
    finger.move(*cell_centre(page, name_of(grab[0] + bad[0], grab[1] + bad[1])))
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "illegal")
    expect(page.locator(".board .cell.pv-illegal")).to_have_count(5)
    screenshot(page, "phone-drag-illegal")
    target = (grab[0] + good[0], grab[1] + good[1])
    finger.move(*cell_centre(page, name_of(*target)))
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "legal")
    expect(page.locator(".board .cell.pv-legal")).to_have_count(5)
    placed = [name_of(*c) for c in in_hand(page)]
    screenshot(page, "phone-drag-legal")
    # Dragging neither scrolled nor zoomed the page.
    assert page.evaluate("[window.scrollX, window.scrollY, visualViewport.scale]") == scroll
    finger.up()

    for name in placed:
        expect(page.get_by_test_id(f"cell-{name}")).to_have_class(re.compile(r"\bo-blue\b"))
    expect(page.get_by_test_id("score-1")).to_have_text("-84")  # 89 squares less the L's 5
    expect(page.get_by_test_id("piece-L5")).to_be_hidden()
    # The computer answers and it is Alice's turn again.
    expect(page.get_by_test_id("score-2")).not_to_have_text("-89", timeout=20_000)
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)", timeout=20_000)
    assert page.locator(".board .cell.o-green").count() > 0
    assert page.evaluate("window.__sawThinking"), "the computer's thinking was never shown"
    # Colour-blind second cue: placed squares carry a pattern, seats a letter.
    pattern = page.get_by_test_id(f"cell-{placed[0]}").evaluate(
        "e => getComputedStyle(e).backgroundImage")
    assert pattern != "none"
    expect(page.get_by_test_id("seat-2").locator(".chip")).to_have_text("G")
    screenshot(page, "phone-after-move")
    assert page.errors == []


def test_dropping_on_an_illegal_spot_keeps_the_piece_and_says_why(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Alice"}, {"kind": "computer"}])
    page = open_page("Pixel 7", f"/#/game/{game['id']}", storage_for(game["id"], game["tokens"]))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    lift(page, "I3")
    cells = in_hand(page)
    _, bad = legal_and_illegal_shift(host, game["id"], 1, "I3", cells, 14)
    finger = Finger(page)
    grab = cells[0]
    finger.down(*cell_centre(page, name_of(*grab)))
    finger._at = cell_centre(page, name_of(*grab))
    finger.move(*cell_centre(page, name_of(grab[0] + bad[0], grab[1] + bad[1])))
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "illegal")
    finger.up()
    # The host's reason is shown; the piece is still in hand and nothing was placed.
    expect(page.get_by_test_id("message")).not_to_be_empty()
    expect(page.get_by_test_id("piece-I3")).to_have_attribute("aria-pressed", "true")
    assert page.locator(".board .cell.o-blue").count() == 0
    assert host.state(game["id"])["seq"] == 1


def test_two_phones_see_each_others_moves_and_a_watcher_sees_both(host, open_page):
    game = host.create("duo", [{"kind": "open"}, {"kind": "open"}])
    gid = game["id"]
    alice = open_page("Pixel 7", f"/#/game/{gid}")
    alice.get_by_test_id("claim-name").fill("Alice")
    alice.get_by_test_id("claim-1").tap()
    expect(alice.get_by_test_id("tag-1-you")).to_be_visible()
    expect(alice.get_by_test_id("declare-left-2")).to_have_count(0)  # two players: wait for Bob
    # Bob finds the game in the lobby and joins with one tap.
    bob = open_page("Pixel 7", "/")
    bob.get_by_test_id(f"join-{gid}").tap()
    # The table is drawn once its state and its board module are in, which moves the seat
    # panel down: a tap before would land where "Play Green" was (as `open_page` waits).
    bob.wait_for_function("() => window.ccGame?.board && window.ccGame.state")
    bob.get_by_test_id("claim-name").fill("Bob")
    bob.get_by_test_id("claim-2").tap()
    watcher = open_page("Pixel 7", f"/#/game/{gid}/watch")

    expect(alice.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    expect(bob.get_by_test_id("turn")).to_have_text("Blue's turn")
    # The watcher has the live board and no controls.
    expect(watcher.get_by_test_id("tray")).to_be_hidden()
    expect(watcher.get_by_test_id("pass")).to_be_hidden()
    expect(watcher.get_by_test_id("leave")).to_be_hidden()

    spot = play_single_square(alice)
    for page in (alice, bob, watcher):
        expect(page.get_by_test_id(f"cell-{spot}")).to_have_class(re.compile(r"\bo-blue\b"))
    expect(bob.get_by_test_id("turn")).to_have_text("Your turn (Green)")
    expect(bob.get_by_test_id("score-1")).to_have_text("-88")

    spot2 = play_single_square(bob)
    for page in (alice, bob, watcher):
        expect(page.get_by_test_id(f"cell-{spot2}")).to_have_class(re.compile(r"\bo-green\b"))
    expect(alice.get_by_test_id("turn")).to_have_text("Your turn (Blue)")

    # Reloading rejoins the same seat (name and token remembered on the phone).
    bob.reload()
    expect(bob.get_by_test_id("tag-2-you")).to_be_visible()
    expect(bob.get_by_test_id("claim")).to_have_count(0)
    screenshot(watcher, "watcher")
    assert alice.errors == [] and bob.errors == [] and watcher.errors == []
    # Presence: Bob's phone goes away, and the others see it.
    expect(alice.get_by_test_id("tag-2-away")).to_have_count(0)
    bob.close()
    expect(alice.get_by_test_id("tag-2-away")).to_be_visible()
    expect(watcher.get_by_test_id("tag-2-away")).to_be_visible()


def test_hot_seat_turns_the_screen_to_the_seat_to_move(host, open_page):
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("variant-trio").tap()
    page.get_by_test_id("seat-kind-1").select_option("local")
    page.get_by_test_id("your-name").fill("Ann")
    page.get_by_test_id("seat-kind-2").select_option("local")
    page.get_by_test_id("seat-name-2").fill("Ben")
    page.get_by_test_id("seat-kind-3").select_option("computer")
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text("Ann's turn (Blue) — pass the phone")
    play_single_square(page)
    expect(page.get_by_test_id("turn")).to_have_text("Ben's turn (Yellow) — pass the phone")
    expect(page.get_by_test_id("tray")).to_have_attribute("aria-label", "Yellow's pieces")
    screenshot(page, "hot-seat-yellow")
    play_single_square(page)
    # The computer (red) moves, and the phone turns back to Blue.
    expect(page.get_by_test_id("turn")).to_have_text("Ann's turn (Blue) — pass the phone",
                                                     timeout=20_000)
    assert page.locator(".board .cell.o-red").count() > 0
    # Leaving a 3-player game says what it means, and can be called off.
    page.get_by_test_id("leave").tap()
    expect(page.get_by_test_id("leave-text")).to_contain_text("cannot win")
    page.get_by_test_id("leave-cancel").tap()
    expect(page.get_by_test_id("leave-dialog")).to_be_hidden()
    assert page.errors == []


WAKE_LOCK_SPY = """
window.__wakeLocks = 0;
Object.defineProperty(navigator, 'wakeLock', {value: {request: async () => {
  window.__wakeLocks += 1;
  return {addEventListener() {}, release: async () => {}};
}}});
"""


def test_keyboard_play_on_a_desktop(host, open_page):
    """Arrows move the piece, R turns it, F flips it, Space places it, Z takes it back."""
    game = host.create("duo", [{"kind": "local", "name": "Kim"}, {"kind": "computer"}])
    gid = game["id"]
    page = open_page("desktop", f"/#/game/{gid}", storage_for(gid, game["tokens"]),
                     script=WAKE_LOCK_SPY)
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    page.wait_for_function("window.__wakeLocks >= 1")  # the screen is kept awake
    page.get_by_test_id("piece-V").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("piece-V")).to_have_attribute("aria-pressed", "true")
    start = in_hand(page)
    page.keyboard.press("r")
    assert norm(in_hand(page)) != norm(start)
    page.keyboard.press("f")
    page.keyboard.press("ArrowLeft")
    cells = in_hand(page)
    page.keyboard.press("ArrowRight")
    assert sorted(in_hand(page)) == sorted((x + 1, y) for x, y in cells)
    page.keyboard.press("ArrowDown")
    cells = in_hand(page)
    good, _ = legal_and_illegal_shift(host, gid, 1, "V", cells, 14)
    for key, n in (("ArrowRight", good[0]), ("ArrowLeft", -good[0]),
                   ("ArrowUp", good[1]), ("ArrowDown", -good[1])):
        for _ in range(max(0, n)):
            page.keyboard.press(key)
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "legal")
    placed = [name_of(*c) for c in in_hand(page)]
    page.keyboard.press(" ")
    for name in placed:
        expect(page.get_by_test_id(f"cell-{name}")).to_have_class(re.compile(r"\bo-blue\b"))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)", timeout=20_000)
    screenshot(page, "desktop-keyboard")
    # Z: a takeback (nobody else is seated, so the host takes it back at once).
    page.keyboard.press("z")
    for name in placed:
        expect(page.get_by_test_id(f"cell-{name}")).not_to_have_class(re.compile(r"\bo-blue\b"))
    expect(page.get_by_test_id("piece-V")).to_be_visible()
    expect(page.get_by_test_id("score-1")).to_have_text("-89")
    assert page.errors == []


def test_a_phone_that_goes_offline_resyncs_without_reload(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Ada"}, {"kind": "open"}])
    gid = game["id"]
    bob_token = host.claim(gid, 2, "Bob")
    ada = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    bob = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {2: bob_token}))
    expect(bob.get_by_test_id("turn")).to_have_text("Blue's turn")
    expect(bob.get_by_test_id("cell-a1")).to_be_attached()  # the board module is in
    bob.evaluate("window.__sameDocument = true")

    bob.context.set_offline(True)
    expect(bob.get_by_test_id("offline")).to_be_visible()
    screenshot(bob, "offline-banner")
    spot = play_single_square(ada)
    expect(ada.get_by_test_id(f"cell-{spot}")).to_have_class(re.compile(r"\bo-blue\b"))
    bob.wait_for_timeout(300)
    expect(bob.get_by_test_id(f"cell-{spot}")).not_to_have_class(re.compile(r"\bo-blue\b"))

    bob.context.set_offline(False)
    expect(bob.get_by_test_id("offline")).to_be_hidden(timeout=15_000)
    expect(bob.get_by_test_id(f"cell-{spot}")).to_have_class(re.compile(r"\bo-blue\b"))
    expect(bob.get_by_test_id("turn")).to_have_text("Your turn (Green)")
    assert bob.evaluate("window.__sameDocument") is True  # no reload happened
    # Bob's presence came back too: Ada does not see him away.
    expect(ada.get_by_test_id("tag-2-away")).to_have_count(0)


def test_resigning_a_two_player_game_ends_it(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Rae"}, {"kind": "computer"}])
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    page.get_by_test_id("leave").tap()
    expect(page.get_by_test_id("leave-text")).to_contain_text("resigns")
    page.get_by_test_id("leave-confirm").tap()
    expect(page.get_by_test_id("gameover")).to_be_visible()
    expect(page.get_by_test_id("turn")).to_contain_text("Game over")
    expect(page.get_by_test_id("gameover")).to_contain_text("+22")
    expect(page.get_by_test_id("replay")).to_have_attribute("href", f"/api/games/{gid}/replay.json")
    viewer = page.get_by_test_id("replay-viewer")
    expect(viewer).to_have_attribute("href", f"/replay.html?game={gid}")
    screenshot(page, "game-over")
    # Rematch: a new game, the same seats, and this phone still holds Blue.
    page.get_by_test_id("rematch").tap()
    expect(page).not_to_have_url(re.compile(gid))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 740}, {"width": 740, "height": 360}],
                         ids=["360-portrait", "landscape"])
def test_small_phones_fit_without_sideways_scroll(host, open_page, viewport):
    game = host.create("classic", [{"kind": "local", "name": "Sam"}] + [{"kind": "computer"}] * 3)
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    page.set_viewport_size(viewport)
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    lift(page, "L5")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    board = page.get_by_test_id("board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= viewport["width"] + 1
    if viewport["width"] < viewport["height"]:
        assert board["width"] >= viewport["width"] - 16  # the board fills the width
    else:
        assert board["y"] + board["height"] <= viewport["height"] + 1  # all of it on screen
    # Large touch targets.
    for tid in ("rotate", "flip", "place", "piece-L5"):
        box = page.get_by_test_id(tid).bounding_box()
        assert box["height"] >= 44, tid
    screenshot(page, f"classic-{viewport['width']}x{viewport['height']}")


def test_invite_shows_the_address_and_a_qr_code(host, open_page):
    page = open_page("Pixel 7", "/#/invite")
    expect(page.get_by_test_id("invite-url")).not_to_be_empty()
    if requests.get(f"{host.url}/api/invite", timeout=5).status_code == 404:
        pytest.xfail("the host has no GET /api/invite yet (URL + segno SVG): asked of issue 3")
    expect(page.locator("[data-testid=invite-qr] svg")).to_be_visible()
    screenshot(page, "invite")


def test_a_takeback_is_asked_of_the_other_phone_and_allowed(host, open_page):
    game = host.create("duo", [{"kind": "open"}, {"kind": "open"}])
    gid = game["id"]
    tokens = {1: host.claim(gid, 1, "Una"), 2: host.claim(gid, 2, "Vic")}
    una = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: tokens[1]}))
    vic = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {2: tokens[2]}))
    expect(una.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    spot = play_single_square(una)
    expect(vic.get_by_test_id(f"cell-{spot}")).to_have_class(re.compile(r"\bo-blue\b"))
    una.get_by_test_id("undo").tap()
    expect(vic.get_by_test_id("undo-request")).to_contain_text("asks to take back")
    expect(una.get_by_test_id("undo-request")).to_contain_text("waiting for the others")
    vic.get_by_test_id("undo-allow").tap()
    for page in (una, vic):
        expect(page.get_by_test_id(f"cell-{spot}")).not_to_have_class(re.compile(r"\bo-blue\b"))
        expect(page.get_by_test_id("undo-request")).to_have_count(0)
    expect(una.get_by_test_id("turn")).to_have_text("Your turn (Blue)")


def test_a_tap_on_the_board_moves_the_piece_without_laying_it(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Tia"}, {"kind": "computer"}])
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    lift(page, "1")
    page.get_by_test_id("cell-a1").tap()
    expect(page.get_by_test_id("cell-a1")).to_have_class(re.compile(r"\bpv-illegal\b"))
    page.get_by_test_id("cell-e10").tap()  # the start square: the single square fits there
    expect(page.get_by_test_id("cell-e10")).to_have_class(re.compile(r"\bpv-legal\b"))
    page.wait_for_timeout(300)
    assert host.state(gid)["seq"] == 1  # a tap alone lays nothing
    page.get_by_test_id("place").tap()
    expect(page.get_by_test_id("cell-e10")).to_have_class(re.compile(r"\bo-blue\b"))


def test_the_creator_starts_a_four_player_game_without_the_empty_seat(host, open_page):
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("variant-classic").tap()
    page.get_by_test_id("seat-kind-2").select_option("computer")
    page.get_by_test_id("seat-kind-3").select_option("computer")
    expect(page.get_by_test_id("seat-kind-4")).to_have_value("open")
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text("Waiting for 1 more player")
    page.get_by_test_id("declare-left-4").tap()
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    expect(page.get_by_test_id("tag-4-left")).to_be_visible()


def test_a_hint_lifts_the_suggested_piece_where_the_host_says(host, open_page):
    """Corner Claim offers hints (its catalog line says so): the host's move is shown as the
    piece in hand over its squares, lit as legal; the player still lays it."""
    game = host.create("duo", [{"kind": "local", "name": "Hal"}, {"kind": "computer"}])
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    page.get_by_test_id("hint").tap()
    expect(page.get_by_test_id("message")).to_contain_text("Hint:", timeout=20_000)
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "legal")
    held = page.locator(".tray .piece[aria-pressed=true]")
    expect(held).to_have_count(1)
    piece = held.get_attribute("data-testid").removeprefix("piece-")
    hinted = sorted(in_hand(page))
    assert any(m["piece"] == piece and sorted(cell(c) for c in m["move"].split(",")) == hinted
               for m in host.legal(gid, 1, piece))
    assert host.state(gid)["seq"] == 1  # a hint lays nothing
    page.get_by_test_id("place").tap()
    for x, y in hinted:
        expect(page.get_by_test_id(f"cell-{name_of(x, y)}")).to_have_class(
            re.compile(r"\bo-blue\b"))
    assert page.errors == []
