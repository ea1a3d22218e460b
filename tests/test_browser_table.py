"""What a player at Corner Claim's table is shown and told, in real Chromium on a Pixel 7
(the mouse and the keys on a desktop viewport): the open corners, a seat with no move left,
a drop the host's list already rules out, a tray that keeps still, the previews of every
colour, every seat's pieces left, a four-seat hot-seat game with a leaver played to its
game-over card, and the pages' icons.
"""

from __future__ import annotations

import json
import random
import re

import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import Finger, cell_centre, screenshot
from tests.test_browser import (
    cell,
    in_hand,
    legal_and_illegal_shift,
    lift,
    name_of,
    norm,
    storage_for,
)
from tests.test_out_of_moves import blue_runs_out_first

expect.set_options(timeout=10_000)
PALETTE = {"blue": "rgb(47, 111, 222)", "yellow": "rgb(224, 180, 0)", "red": "rgb(214, 60, 60)",
           "green": "rgb(46, 158, 79)"}


# ---- helpers ---------------------------------------------------------------------------------
def corners_on_board(page) -> set[str]:
    return set(page.eval_on_selector_all(".board .cell.corner",
                                         "els => els.map(e => e.dataset.testid.slice(5))"))


def look(page, name: str) -> dict:
    """How a board square looks: its fill, pattern, frame and the mark drawn on it."""
    return page.get_by_test_id(f"cell-{name}").evaluate("""e => {
      const s = getComputedStyle(e), a = getComputedStyle(e, '::after');
      return {fill: s.backgroundColor, pattern: s.backgroundImage, outline: s.outlineStyle,
              frame: s.boxShadow, mark: a.content};
    }""")


def grey(rgb: str) -> bool:
    r, g, b = (int(v) for v in re.findall(r"\d+", rgb)[:3])
    return max(r, g, b) - min(r, g, b) < 12 and max(r, g, b) < 90


def place_by_touch(page, host, gid: int | str, seat: int, rng: random.Random) -> list[str]:
    """Lay one of the seat's legal placements (the host's list) through the UI: lift the
    piece from the tray, turn or flip it with the buttons until it lies as the placement
    does, tap the board to bring it there, check it lights as legal, and tap Place."""
    moves = host.legal(gid, seat)
    biggest = max(len(m["move"].split(",")) for m in moves)
    pieces = sorted({m["piece"] for m in moves if len(m["move"].split(",")) == biggest})
    piece = rng.choice(pieces)
    targets = [[cell(c) for c in m["move"].split(",")] for m in moves if m["piece"] == piece]
    lift(page, piece)
    for turn in range(8):
        shape = norm(in_hand(page))
        fits = [t for t in targets if norm(t) == shape]
        if fits:
            break
        button = page.get_by_test_id("flip" if turn == 3 else "rotate")
        if button.get_attribute("data-off") is not None:
            button = page.get_by_test_id("rotate")
        button.tap()
    target = rng.choice(fits)
    size = int(page.get_by_test_id("board").get_attribute("aria-label").split()[-1])
    middle = name_of(size // 2, size // 2)
    page.get_by_test_id(f"cell-{middle}").tap()
    held = in_hand(page)
    ox = size // 2 - min(x for x, _ in held)
    oy = size // 2 - min(y for _, y in held)
    tap_at = name_of(min(x for x, _ in target) + ox, min(y for _, y in target) + oy)
    page.get_by_test_id(f"cell-{tap_at}").tap()
    assert sorted(in_hand(page)) == sorted(target)
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "legal")
    seq = host.state(gid)["seq"]
    page.get_by_test_id("place").tap()
    page.wait_for_function(f"() => window.ccGame.state && window.ccGame.state.seq > {seq}")
    return [name_of(*c) for c in target]


def every_seat_shows_its_pieces(page, state: dict) -> None:
    """Nothing is hidden: the seat whose tray is shown has its pieces there, every other seat
    under its card, each shape drawn large enough to read."""
    shown = page.get_by_test_id("tray").get_attribute("aria-label") \
        if page.get_by_test_id("tray").is_visible() else None
    for s in state["seats"]:
        left = s["view"]["pieces_left"]
        if shown == f"{s['colour'].title()}'s pieces":
            expect(page.locator(".tray .piece:visible")).to_have_count(len(left))
            continue
        minis = page.get_by_test_id(f"pieces-{s['seat']}")
        expect(minis).to_be_visible()
        expect(minis.locator("svg")).to_have_count(len(left))
        if left:  # every shape large enough to read (asked in one go: cards redraw often)
            page.wait_for_function(
                """id => { const svgs = [...document.querySelectorAll(
                    `[data-testid="${id}"] svg`)];
                  return svgs.length > 0 && svgs.every((e) => {
                    const r = e.getBoundingClientRect();
                    return r.width >= 8 && r.height >= 8; }); }""",
                arg=f"pieces-{s['seat']}")
            names = minis.locator("svg").evaluate_all("els => els.map(e => e.dataset.piece)")
            assert names == left


# ---- stories -------------------------------------------------------------------------------
def test_my_open_corners_are_marked_with_dots_of_my_colour(host, open_page):
    """Ann opens on her start square; the board then marks the squares she may build from,
    exactly the host's open corners, with blue dots."""
    game = host.create("duo", [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}])
    gid, tokens = game["id"], game["tokens"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: tokens["1"]}))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    expect(page.locator(".board .cell.corner")).to_have_count(1)  # the start square
    assert corners_on_board(page) == set(host.state(gid)["seats"][0]["view"]["open_corners"])
    lift(page, "1")
    page.get_by_test_id("place").tap()
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^Green's turn"))
    corners = set(host.state(gid)["seats"][0]["view"]["open_corners"])
    assert len(corners) == 4
    expect(page.locator(".board .cell.corner")).to_have_count(4)
    assert corners_on_board(page) == corners
    dot = page.get_by_test_id(f"cell-{min(corners)}").evaluate(
        "e => getComputedStyle(e, '::after').backgroundColor")
    assert dot == PALETTE["blue"]
    screenshot(page, "open-corners")


def test_a_seat_with_no_move_left_is_told_its_turn_is_skipped(host, open_page):
    """Ann (Blue) has nothing left that fits while Bo plays on: her phone says so plainly,
    her seat card says so to everyone, and her dead corners are not drawn as open."""
    game = host.create("duo", [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}])
    gid, tokens = game["id"], game["tokens"]
    for seat, move in blue_runs_out_first():
        host.move(gid, seat, move, tokens[str(seat)])
    state = host.state(gid)
    assert state["seats"][0]["out_of_moves"] and state["to_move"] == 2
    assert state["seats"][0]["view"]["open_corners"]  # the host still lists her corners
    ann = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: tokens["1"]}))
    watcher = open_page("Pixel 7", f"/#/game/{gid}/watch")
    expect(ann.get_by_test_id("notice")).to_have_text(
        "No moves left: your turn is skipped. The others play on to the end.")
    expect(ann.get_by_test_id("turn")).to_have_text("Green's turn — you have no moves left")
    for page in (ann, watcher):
        expect(page.get_by_test_id("tag-1-out")).to_have_text("no moves left: turn skipped")
        expect(page.get_by_test_id("tag-2-out")).to_have_count(0)
    expect(ann.get_by_test_id("board")).to_have_attribute("data-corners", "0")
    expect(ann.locator(".board .cell.corner")).to_have_count(0)
    expect(ann.get_by_test_id("pass")).to_be_disabled()  # nothing to do: the host skips her
    screenshot(ann, "no-moves-left")
    assert ann.errors == [] and watcher.errors == []


def test_a_drop_the_hosts_list_rules_out_is_not_sent_and_says_why(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Alice"}, {"kind": "computer"}])
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    sent, console = [], []
    page.on("request", lambda r: r.method == "POST" and sent.append(r.url))
    page.on("console", lambda m: m.type == "error" and console.append(m.text))
    lift(page, "I3")
    expect(page.locator(".board .cell.can").first).to_be_attached()  # the host's list is in
    cells = in_hand(page)
    _, bad = legal_and_illegal_shift(host, gid, 1, "I3", cells, 14)
    finger = Finger(page)
    grab = cells[0]
    finger.down(*cell_centre(page, name_of(*grab)))
    finger._at = cell_centre(page, name_of(*grab))
    finger.move(*cell_centre(page, name_of(grab[0] + bad[0], grab[1] + bad[1])))
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "illegal")
    finger.up()
    expect(page.get_by_test_id("message")).to_contain_text("I3 does not fit on")
    expect(page.get_by_test_id("message")).to_contain_text("placements the host lists")
    # Place says the same, and sends nothing either.
    page.get_by_test_id("place").tap()
    expect(page.get_by_test_id("piece-I3")).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(300)
    assert sent == [] and console == [] and page.errors == []
    assert host.state(gid)["seq"] == 1


def test_a_drop_before_the_hosts_list_arrives_waits_for_it(host, open_page):
    """The list is slow to come: a drop waits for it, then goes only if the host lists it."""
    game = host.create("duo", [{"kind": "local", "name": "Ned"}, {"kind": "computer"}])
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    held, sent = [], []
    page.route(re.compile(r"/legal\?"), lambda route: held.append(route))
    page.on("request", lambda r: r.method == "POST" and sent.append(r.url))
    page.get_by_test_id("piece-I3").tap()
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "pending")
    page.get_by_test_id("cell-b2").tap()  # far from the start square
    page.get_by_test_id("place").tap()
    expect(page.get_by_test_id("message")).to_have_text("Checking with the host…")
    page.wait_for_function("() => true")
    assert len(held) == 1
    held.pop().continue_()
    expect(page.get_by_test_id("message")).to_contain_text("I3 does not fit on")
    page.get_by_test_id("piece-I3").tap()  # put it back
    page.get_by_test_id("piece-1").tap()  # it comes on the start square, where it fits
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "pending")
    page.get_by_test_id("place").tap()
    expect(page.get_by_test_id("message")).to_have_text("Checking with the host…")
    assert sent == []
    page.wait_for_function("() => true")
    held.pop().continue_()
    expect(page.get_by_test_id("cell-e10")).to_have_class(re.compile(r"\bo-blue\b"))
    assert len(sent) == 1 and sent[0].endswith("/moves")


def test_the_tray_keeps_still_and_fits_a_pixel_7(host, open_page):
    """Lifting a shape, turning it, putting it back and placing one move nothing in the
    tray; on a Pixel 7 the whole tray is on screen below the board, in either board size."""
    for variant, seats in (("duo", 2), ("classic", 4)):
        game = host.create(variant, [{"kind": "local", "name": "Tom"}]
                           + [{"kind": "computer", "level": 1}] * (seats - 1))
        gid = game["id"]
        page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
        expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
        tray = page.get_by_test_id("tray")
        where = tray.bounding_box()
        last = page.locator(".tray .piece").last.bounding_box()
        assert last["y"] + last["height"] <= page.viewport_size["height"], (variant, last)
        page.get_by_test_id("piece-L5").tap()
        assert tray.bounding_box() == where
        page.get_by_test_id("rotate").tap()
        page.get_by_test_id("piece-X").tap()  # another shape: its buttons are not shown
        expect(page.get_by_test_id("rotate")).to_be_hidden()
        assert tray.bounding_box() == where
        page.get_by_test_id("piece-X").tap()  # put back
        expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "none")
        assert tray.bounding_box() == where
        lift(page, "1")
        page.get_by_test_id("place").tap()
        expect(page.get_by_test_id("piece-1")).to_be_hidden()
        assert tray.bounding_box() == where
        screenshot(page, f"tray-{variant}")


def test_the_turn_line_keeps_its_height_whatever_it_says(host, open_page):
    """While a computer thinks the turn line says more ("Green's turn — computer is
    thinking…", two lines on a Pixel 7) than on the player's turn: the board and the tray
    under it stay where they are."""
    game = host.create("classic", [{"kind": "local", "name": "Tom"}]
                       + [{"kind": "computer", "level": 1}] * 3)
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    turn = page.get_by_test_id("turn")
    expect(turn).to_have_text("Your turn (Blue)")
    board = page.get_by_test_id("board").bounding_box()
    tray = page.get_by_test_id("tray").bounding_box()
    height = turn.bounding_box()["height"]
    turn.evaluate("(el) => { el.textContent = \"Green's turn — computer is thinking…\"; }")
    assert turn.bounding_box()["height"] == height
    assert page.get_by_test_id("board").bounding_box() == board
    assert page.get_by_test_id("tray").bounding_box() == tray


def test_legal_and_illegal_previews_differ_by_more_than_hue_for_every_colour(host, open_page):
    """In a four-seat hot-seat game each colour lifts its single square: where it fits it
    shows the seat's colour with a solid frame and a check mark; where it does not, never a
    seat colour but charcoal hatching with a dashed frame and a cross — red seat included."""
    game = host.create("classic", [{"kind": "local"}] * 4)
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    for colour in ("blue", "yellow", "red", "green"):
        expect(page.get_by_test_id("turn")).to_have_text(
            f"{colour.title()}'s turn — pass the phone")
        lift(page, "1")
        expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "legal")
        spot = name_of(*in_hand(page)[0])
        good = look(page, spot)
        page.get_by_test_id("cell-j10").tap()  # the middle: no start square
        expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "illegal")
        bad = look(page, "j10")
        assert good["fill"] == PALETTE[colour] and good["mark"] == '"✓"', good
        assert good["outline"] == "none" and "255, 255, 255" in good["frame"]
        assert grey(bad["fill"]) and bad["pattern"] != "none", bad
        assert bad["mark"] == '"×"' and bad["outline"] == "dashed"
        screenshot(page, f"preview-{colour}-illegal")
        page.get_by_test_id(f"cell-{spot}").tap()
        expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "legal")
        page.get_by_test_id("place").tap()
        expect(page.get_by_test_id(f"cell-{spot}")).to_have_class(re.compile(rf"\bo-{colour}\b"))
    assert page.errors == []


def test_a_mouse_drag_lays_a_piece_on_a_desktop(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Max"}, {"kind": "computer"}])
    gid = game["id"]
    page = open_page("desktop", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    page.get_by_test_id("piece-L5").click()
    expect(page.locator(".board .cell.can").first).to_be_attached()
    cells = in_hand(page)
    good, bad = legal_and_illegal_shift(host, gid, 1, "L5", cells, 14)
    grab = cells[0]
    page.mouse.move(*cell_centre(page, name_of(*grab)))
    page.mouse.down()
    page.mouse.move(*cell_centre(page, name_of(grab[0] + bad[0], grab[1] + bad[1])), steps=5)
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "illegal")
    page.mouse.move(*cell_centre(page, name_of(grab[0] + good[0], grab[1] + good[1])), steps=5)
    expect(page.get_by_test_id("board")).to_have_attribute("data-preview", "legal")
    placed = [name_of(*c) for c in in_hand(page)]
    page.mouse.up()
    for name in placed:
        expect(page.get_by_test_id(f"cell-{name}")).to_have_class(re.compile(r"\bo-blue\b"))
    expect(page.get_by_test_id("score-1")).to_have_text("-84")
    assert page.errors == []


def test_keys_are_shown_with_a_mouse_and_a_watcher_is_told_they_watch(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Kit"}, {"kind": "computer"}])
    gid = game["id"]
    desk = open_page("desktop", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    expect(desk.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    expect(desk.get_by_test_id("undo").locator("kbd")).to_have_text("Z")
    expect(desk.get_by_test_id("undo").locator("kbd")).to_be_visible()
    expect(desk.get_by_test_id("keys-help")).to_be_visible()
    expect(desk.get_by_test_id("notice")).to_be_hidden()
    desk.get_by_test_id("piece-L5").click()
    expect(desk.get_by_test_id("rotate").locator("kbd")).to_have_text("R")
    # A phone has no keys to show; a watcher is told that they are watching.
    phone = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    expect(phone.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    expect(phone.get_by_test_id("undo").locator("kbd")).to_be_hidden()
    expect(phone.get_by_test_id("keys-help")).to_be_hidden()
    watcher = open_page("Pixel 7", f"/#/game/{gid}/watch")
    expect(watcher.get_by_test_id("notice")).to_have_text(
        "You are watching this game: only the players at the table can move.")
    expect(watcher.get_by_test_id("notice")).to_have_attribute("data-kind", "watching")


def test_take_back_says_it_takes_back_the_moves_after_mine_too(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Uma"}, {"kind": "computer", "level": 1}])
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, game["tokens"]))
    undo = page.get_by_test_id("undo")
    expect(undo).to_have_attribute("aria-label",
                                   "Take back your last move and every move played after it (Z)")
    expect(undo).to_contain_text("Take back")
    lift(page, "1")
    page.get_by_test_id("place").tap()
    expect(page.get_by_test_id("score-2")).not_to_have_text("-89", timeout=20_000)
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    undo.tap()  # the computer's reply goes with my move
    expect(page.get_by_test_id("score-1")).to_have_text("-89")
    expect(page.get_by_test_id("score-2")).to_have_text("-89")
    assert page.locator(".board .cell.o-blue, .board .cell.o-green").count() == 0


def test_the_lobby_asks_my_name_once(host, open_page):
    """One name field for me (the first seat on this device), remembered; another seat on
    this device gets a field for its player's name."""
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("variant-duo").tap()
    names = page.locator("[data-testid=new-game-form] input[type=text]:visible")
    expect(names).to_have_count(1)
    expect(page.get_by_test_id("your-name")).to_have_attribute("placeholder", "Your name")
    page.get_by_test_id("your-name").fill("Ola")
    page.get_by_test_id("seat-kind-2").select_option("local")
    expect(names).to_have_count(2)
    expect(page.get_by_test_id("your-name")).to_have_value("Ola")
    page.get_by_test_id("seat-name-2").fill("Pia")
    # If I hand my seat to the computer, the next seat on this device is mine.
    page.get_by_test_id("seat-kind-1").select_option("computer")
    expect(names).to_have_count(1)
    expect(page.get_by_test_id("your-name")).to_have_value("Pia")
    page.get_by_test_id("seat-kind-1").select_option("local")
    page.reload()
    page.get_by_test_id("variant-duo").tap()
    expect(page.get_by_test_id("your-name")).to_have_value(re.compile("Ola|Pia"))


def test_every_page_has_an_icon_and_no_console_error(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Ivy"}, {"kind": "computer"}])
    gid = game["id"]
    left = requests.post(f"{host.url}/api/games/{gid}/leave", json={"seat": 1}, timeout=5,
                         headers={"Authorization": f"Bearer {game['tokens']['1']}"})
    assert left.ok, left.text  # Ivy resigns: the ladder has a page for her
    r = requests.get(f"{host.url}/favicon.ico", timeout=5)
    assert r.status_code == 200 and r.content[:4] == b"\x00\x00\x01\x00"
    for path in ("/", f"/#/game/{gid}", f"/replay.html?game={gid}", "/ladder.html",
                 "/player.html?name=Ivy"):
        page = open_page("Pixel 7", path)
        failed, console = [], []
        page.on("response", lambda r, failed=failed: r.status >= 400
                and failed.append((r.status, r.url)))
        page.on("console", lambda m, console=console: m.type == "error"
                and console.append(m.text))
        page.reload()
        page.wait_for_load_state("networkidle")
        assert failed == [] and console == [] and page.errors == [], (path, failed, console)
        assert page.locator("link[rel=icon]").count() == 1, path


def test_the_replay_board_carries_the_colour_patterns(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Rob"}, {"kind": "local", "name": "Sue"}])
    gid, tokens = game["id"], game["tokens"]
    for seat, move in blue_runs_out_first()[:4]:
        host.move(gid, seat, move, tokens[str(seat)])
    page = open_page("Pixel 7", f"/replay.html?game={gid}")
    board = page.get_by_test_id("replay-board")
    expect(board.locator(".cell.o-green").first).to_be_attached()
    for colour in ("blue", "green"):
        pattern = board.locator(f".cell.o-{colour}").first.evaluate(
            "e => getComputedStyle(e).backgroundImage")
        assert "gradient" in pattern, (colour, pattern)
    screenshot(page, "replay-patterns")


def test_four_seats_on_one_phone_play_to_the_end_with_a_leaver(host, open_page):
    """Ann, Ben, Cy and Di share one phone. Each turn the phone shows the seat to move; every
    seat's pieces left stay in sight. After the first round Cy (red) leaves; the other three
    play on, by touch, to the end: the game-over card names the winner (never Cy), and the
    final board has no open-corner dots."""
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("variant-classic").tap()
    page.get_by_test_id("your-name").fill("Ann")
    for seat, name in ((2, "Ben"), (3, "Cy"), (4, "Di")):
        page.get_by_test_id(f"seat-kind-{seat}").select_option("local")
        page.get_by_test_id(f"seat-name-{seat}").fill(name)
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text("Ann's turn (Blue) — pass the phone")
    gid = page.url.split("#/game/")[1]
    rng = random.Random(4)
    colours = {s["seat"]: s["colour"] for s in host.state(gid)["seats"]}
    moves = 0
    saw_out = False
    while True:
        state = host.state(gid)
        if state["status"] == "finished":
            break
        seat = state["to_move"]
        name = ("Ann", "Ben", "Cy", "Di")[seat - 1]
        expect(page.get_by_test_id("turn")).to_have_text(
            f"{name}'s turn ({colours[seat].title()}) — pass the phone")
        page.wait_for_function(f"() => ccGame.board && ccGame.state.seq === {state['seq']}")
        every_seat_shows_its_pieces(page, state)
        for s in state["seats"]:
            if s["out_of_moves"]:
                saw_out = True
                expect(page.get_by_test_id(f"tag-{s['seat']}-out")).to_be_visible()
                expect(page.get_by_test_id("notice")).to_contain_text(
                    f"{s['colour'].title()} has no moves left")
        if seat == 3 and moves >= 4:
            page.get_by_test_id("leave").tap()
            page.get_by_test_id("leave-confirm").tap()
            expect(page.get_by_test_id("tag-3-left")).to_be_visible()
            moves += 1
            continue
        place_by_touch(page, host, gid, seat, rng)
        moves += 1
        assert moves < 120
    state = host.state(gid)
    assert state["seats"][2]["left"] and 3 not in state["result"]["winners"]
    card = page.get_by_test_id("gameover")
    expect(card).to_be_visible()
    for s in state["seats"]:
        expect(page.get_by_test_id(f"final-{s['seat']}")).to_contain_text(str(s["score"]))
    winners = state["result"]["winners"]
    names = {1: "Ann", 2: "Ben", 3: "Cy", 4: "Di"}
    if len(winners) == 1:
        expect(card.locator("h2")).to_have_text(f"{names[winners[0]]} wins")
    expect(page.get_by_test_id("turn")).to_contain_text("Game over")
    expect(page.locator(".board .cell.corner")).to_have_count(0)
    expect(page.get_by_test_id("tray")).to_be_hidden()
    every_seat_shows_its_pieces(page, state)
    # A tap on a seat's pieces enlarges them.
    minis = page.get_by_test_id("pieces-2")
    if state["seats"][1]["view"]["pieces_left"]:
        small = minis.locator("svg").first.bounding_box()["width"]
        minis.tap()
        expect(minis).to_have_attribute("aria-expanded", "true")
        assert minis.locator("svg").first.bounding_box()["width"] > small * 1.5
    screenshot(page, "four-seats-game-over")
    assert saw_out or all(not s["view"]["pieces_left"] for s in state["seats"])
    assert page.errors == []


def test_a_move_shows_from_the_hosts_answer_while_the_rooms_push_is_held(browser, host):
    """The answer to a move carries the state after it: the page shows the move while the
    socket's push is held back and a GET of the state is refused; the push, let through
    afterwards, changes nothing (the page keeps the state it showed)."""
    game = host.create("duo", [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}])
    gid = game["id"]
    holding, held, sockets, refused = [], [], [], []
    marker = json.dumps(["thinking", {"game_id": gid, "seat": 2, "thinking": True}])

    def socket_route(ws):
        sockets.append(ws)
        server = ws.connect_to_server()

        def from_host(message):
            if isinstance(message, str) and message.startswith('42["event"'):
                if holding:
                    held.append(message)
                    return
                ws.send(message)
                ws.send("42" + marker)  # handled after the event: the page has seen it
                return
            ws.send(message)

        server.on_message(from_host)

    def state_route(route):
        if holding:
            refused.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    context = browser.new_context(base_url=host.url, **browser.devices["Pixel 7"])
    try:
        storage = storage_for(gid, game["tokens"])
        context.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(storage)})) "
                                "localStorage.setItem(k, v);")
        context.route_web_socket(re.compile(r"/socket\.io/"), socket_route)
        page = context.new_page()
        page.route(f"**/api/games/{gid}", state_route)
        page.goto(f"/#/game/{gid}")
        page.wait_for_function("() => window.ccGame?.board && window.ccGame.state?.seq === 1")
        expect(page.get_by_test_id("turn")).to_have_text("Ann's turn (Blue) — pass the phone")
        holding.append(True)
        lift(page, "1")
        page.get_by_test_id("place").tap()
        page.wait_for_function("() => window.ccGame.state.seq === 2")
        expect(page.get_by_test_id("turn")).to_contain_text("Bo's turn")
        assert page.locator(".board .cell.o-blue").count() == 1
        page.evaluate("() => { window.shownState = window.ccGame.state; }")
        holding.clear()
        for message in held:  # the push, late: then a marker the page handles after it
            sockets[0].send(message)
        if held:
            sockets[0].send("42" + marker)
        page.wait_for_function("() => window.ccGame.thinking[2] === true")
        assert page.evaluate("() => window.ccGame.state === window.shownState")
        assert page.evaluate("() => window.ccGame.state.seq") == 2
    finally:
        context.close()
