"""Corners (Ugolki) in real Chromium on a Pixel 7: its board module (client_web/js/boards/
corners.js) in the table shell — picking a piece, the host's targets, the path, a second tap to
move, the turned board for black, the keys, the clocks, the shell's actions (resign, draw
offers) and the home-return confirmation; a whole game against the computer from the lobby to
the game-over card and the replay.
"""

from __future__ import annotations

import json
import re
import time

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
    """Two taps: the piece (the host's targets light up), then its target (the move goes)."""
    path = move.split("-")
    before = seq_of(page)
    page.get_by_test_id(f"cell-{path[0]}").tap()
    board = page.get_by_test_id("board")
    expect(board).to_have_attribute("data-picked", path[0])
    expect(page.get_by_test_id(f"cell-{path[-1]}")).to_have_attribute(
        "data-target", re.compile("true|loses"))
    page.get_by_test_id(f"cell-{path[-1]}").tap()
    page.wait_for_function(f"() => ccGame.board && ccGame.state.seq > {before}")


def test_a_whole_game_against_the_computer_by_tapping(host, open_page):
    """From the lobby (classic 3×3, computer level 1; the clock off, as the catalog's
    computer_default says) to the game-over card: each move chosen from the host's legal list
    and made by tapping the piece, then its target twice."""
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("your-name").fill("Mira")
    page.get_by_test_id("pick-game-corners").click()
    page.get_by_test_id("variant-classic-3x3").tap()
    expect(page.get_by_test_id("seat-kind-2")).to_have_value("computer")
    # An option with a computer_default follows the table until it is set by hand.
    reserve = page.get_by_test_id("option-reserve_s")
    expect(reserve).to_have_value("0")  # no clock against a computer
    page.get_by_test_id("seat-kind-2").select_option("local")
    expect(reserve).to_have_value("300")
    page.get_by_test_id("seat-kind-2").select_option("computer")
    expect(reserve).to_have_value("0")
    page.get_by_test_id("seat-level-2").select_option("1")
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
    mine = []
    for _ in range(200):
        expect(page.get_by_test_id("turn")).to_have_text(
            re.compile(r"^(Your turn|Game over)"), timeout=20_000)
        if page.get_by_test_id("turn").inner_text().startswith("Game over"):
            break
        legal = [m for m in legal_from(host, gid, 1, token) if not m.get("loses")]
        best = max(legal, key=lambda m: forward(m, 1))
        tap_move(page, best["move"])  # two taps: the piece, then its target
        mine.append(best["move"])
        moves += 1
        if moves == 1:
            expect(page.get_by_test_id("last-path")).to_have_attribute(
                "data-path", re.compile(".+"))
            screenshot(page, "corners-first-move")
    expect(page.get_by_test_id("gameover")).to_be_visible(timeout=20_000)
    final = host.state(gid)
    played = final_moves(host, gid)
    assert final["result"] is not None and moves > 5
    assert played[0::2] == mine  # every white move was the one tapped
    assert final["board"]["moves"] == played

    # The game-over card, word for word, from the game just played.
    names = {1: "Mira", 2: "Computer L1"}
    results = final["result"]["results"]
    won = [s for s in (1, 2) if results[s - 1] == "win"]
    who = f"{names[won[0]]} wins" if won else "Draw between Mira and Computer L1"
    ending = expected_ending(final)
    expect(page.get_by_test_id("turn")).to_have_text(
        f"Game over — {who[0].lower() + who[1:] if not won else who}")
    expect(page.get_by_test_id("gameover-title")).to_have_text(who)
    expect(page.get_by_test_id("gameover-ending")).to_have_text(ending)
    points = {"win": "+2", "draw": "+1", "loss": "+0"}
    for seat in (1, 2):
        cells = page.get_by_test_id(f"final-{seat}").locator("td")
        in_target = sum(1 for sq in final["board"]["homes"][str(3 - seat)]
                        if square_owner(final, sq) == seat)
        expect(cells.nth(0)).to_have_text(f"{'○●'[seat - 1]} {names[seat]}")
        expect(cells.nth(1)).to_have_text(str(in_target))
        expect(cells.nth(2)).to_have_text(results[seat - 1])
        expect(cells.nth(3)).to_have_text(points[results[seat - 1]])
    # The table's move list holds the whole game in pairs.
    pairs = [f"{n // 2 + 1}. " + " ".join(played[n:n + 2]) for n in range(0, len(played), 2)]
    listed = page.locator("[data-testid=move-list] li[data-number]").all_inner_texts()
    assert [re.sub(r"\s+", " ", t).strip() for t in listed] == pairs
    screenshot(page, "corners-game-over")

    # The replay: the frames drawn by Corners' board module, the moves in pairs, the same
    # result and ending.
    page.get_by_test_id("replay-viewer").tap()
    expect(page.get_by_test_id("replay-board").locator(".cn-piece.w")).to_have_count(9)
    expect(page.get_by_test_id("replay-result")).to_have_text(
        f"Game over: {who[0].lower() + who[1:] if not won else who}")
    expect(page.get_by_test_id("replay-ending")).to_have_text(ending)
    first, reply = played[:2]
    pair = page.locator("[data-testid=replay-moves] li[data-number='1']")
    # The computer reviews a game against it when it ends, so each move may carry its label.
    label = r"(?:\s*(?:\?\?|\?!|\?|best|good|book))?"
    expect(pair).to_have_text(
        re.compile(rf"^\s*1\.\s*○?\s*{first}{label}\s*●?\s*{reply}{label}\s*$"))
    expect(page.locator("[data-testid=replay-moves] li[data-number]")).to_have_count(len(pairs))
    page.get_by_test_id("replay-move-1").tap()
    expect(page.get_by_test_id("replay-board").get_by_test_id("last-path")).to_have_attribute(
        "data-path", first)
    expect(page.get_by_test_id("replay-ending")).to_be_hidden()  # only with the result
    screenshot(page, "corners-replay")
    assert page.errors == []


def square_owner(state: dict, square: str) -> int:
    rows = state["board"]["rows"]
    return rows[8 - int(square[1:])][COLUMNS.index(square[0])]


def expected_ending(state: dict) -> str:
    """The sentence a finished Corners game ends with, worked out from its board and moves."""
    result, board = state["result"], state["board"]
    colours = {1: "White", 2: "Black"}
    won = [s for s in (1, 2) if result["results"][s - 1] == "win"]
    number = (len(board["moves"]) + 1) // 2
    if result["reason"] == "target":
        if not won:
            return f"Draw: both sides filled the other's home on move {number}"
        return f"{colours[won[0]]} filled {colours[3 - won[0]]}'s home on move {number}"
    if result["reason"] == "deadline":
        if not won:
            return f"Draw: both sides still had pieces at home after move {board['home_deadline']}"
        loser = 3 - won[0]
        count = sum(1 for sq in board["homes"][str(loser)] if square_owner(state, sq) == loser)
        pieces = "a piece" if count == 1 else f"{count} pieces"
        return f"{colours[loser]} still had {pieces} at home after move {board['home_deadline']}"
    if result["reason"] == "move_limit":
        filled = {s: sum(1 for sq in board["homes"][str(3 - s)] if square_owner(state, sq) == s)
                  for s in (1, 2)}
        if not won:
            return (f"Draw at the move limit (move {board['move_limit']}): {filled[1]} pieces "
                    "each in the other's home")
        return (f"{colours[won[0]]} had more pieces in the other's home at the move limit "
                f"(move {board['move_limit']}): {filled[won[0]]} to {filled[3 - won[0]]}")
    if result["reason"] == "repetition":
        return "Draw: the same position three times"
    raise AssertionError(f"an end this test does not expect: {result['reason']}")


def _tokens(page, gid: str) -> dict:
    raw = page.evaluate("localStorage.getItem('cornerclaim.v1')")
    return json.loads(raw)["games"][gid]["seats"]


def final_moves(host, gid: str) -> list[str]:
    r = requests.get(f"{host.url}/api/games/{gid}/replay", timeout=10)
    r.raise_for_status()
    return [f["move"] for f in r.json()["frames"] if f.get("kind") == "move"]


def act(host, gid: str, seat: int, action: str, token: str) -> dict:
    seq = host.state(gid)["seq"]
    r = requests.post(f"{host.url}/api/games/{gid}/actions",
                      json={"seat": seat, "action": action, "seq": seq},
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)
    r.raise_for_status()
    return r.json()


def centre(page, square: str) -> tuple[float, float]:
    box = page.get_by_test_id(f"cell-{square}").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_playing_black_turns_the_board_so_its_home_is_at_the_bottom(host, open_page):
    game = host.create("classic-3x3",
        [{"kind": "computer", "level": 1}, {"kind": "local", "name": "Bo"}],
                       game="corners")
    gid, token = game["id"], tokens_of(game)[2]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {2: token}))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Black)", timeout=20_000)
    expect(page.get_by_test_id("board")).to_have_attribute("data-turned", "true")
    # Black's home (f6–h8) is at the bottom, h8 in the bottom left; white's a1 at the top right.
    h8, a1, f6 = centre(page, "h8"), centre(page, "a1"), centre(page, "f6")
    assert h8[1] > f6[1] > a1[1] and h8[0] < f6[0] < a1[0]
    for square in host.state(gid)["board"]["homes"]["2"]:
        assert centre(page, square)[1] > centre(page, "d4")[1]
    expect(page.locator("[data-testid=cell-h8] .cn-coord.file")).to_have_text("h")
    # The computer's move is drawn.
    last = host.state(gid)["board"]["last_move"]
    expect(page.get_by_test_id("last-path")).to_have_attribute("data-path", last)
    # Black moves by tapping, on the turned board.
    legal = legal_from(host, gid, 2, token)
    best = max(legal, key=lambda m: forward(m, 2))
    tap_move(page, best["move"])
    assert final_moves(host, gid)[1] == best["move"]
    expect(page.get_by_test_id("board")).to_have_attribute("data-turned", "true")
    screenshot(page, "corners-black")
    assert page.errors == []


def desktop_game_against_the_computer(host, open_page):
    """Kai (white) against level 1 on a desktop page, Kai to move: (game id, token, page)."""
    game = host.create("classic-3x3",
        [{"kind": "local", "name": "Kai"}, {"kind": "computer", "level": 1}],
                       game="corners")
    gid, token = game["id"], tokens_of(game)[1]
    page = open_page("desktop", f"/#/game/{gid}", storage_for(gid, {1: token}))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    return gid, token, page


def test_a_target_hovered_before_the_hosts_answer_shows_its_path_once_it_comes(host,
                                                                               open_page):
    """The mouse is over a target before the host has said where the piece can go: the
    path shows as soon as the answer comes, without moving the mouse again."""
    gid, token, page = desktop_game_against_the_computer(host, open_page)
    held = []

    def hold(route) -> None:  # the host's first answer held back, any later one let through
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/legal?*", hold)
    page.get_by_test_id("cell-c3").click()
    expect(page.get_by_test_id("board")).to_have_attribute("data-picked", "c3")
    page.get_by_test_id("cell-d3").hover()
    expect(page.get_by_test_id("path")).to_have_count(0)
    assert held, "the legal list was asked for"
    for route in held:
        route.continue_()
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", "c3-d3")


def test_keyboard_and_mouse_on_a_desktop(host, open_page):
    """Arrows choose a square, Enter picks the piece, Esc puts it down, Enter on a target
    moves; with a mouse, hovering a target shows the path and a click moves."""
    gid, token, page = desktop_game_against_the_computer(host, open_page)
    board = page.get_by_test_id("board")
    expect(board.locator(".cn-piece.w")).to_have_count(9)
    page.keyboard.press("ArrowUp")  # the cursor appears on the piece nearest the middle
    expect(board).to_have_attribute("data-cursor", "c3")
    page.keyboard.press("Enter")
    expect(board).to_have_attribute("data-picked", "c3")
    expect(board).to_have_attribute("data-targets", " ".join(sorted(
        m["to"] for m in legal_from(host, gid, 1, token, "c3"))))
    page.keyboard.press("ArrowUp")
    expect(board).to_have_attribute("data-cursor", "c4")
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", "c3-c4")
    page.keyboard.press("Escape")
    expect(board).to_have_attribute("data-picked", "")
    expect(page.get_by_test_id("path")).to_have_count(0)
    page.keyboard.press("Enter")  # an empty square: nothing to pick
    expect(board).to_have_attribute("data-picked", "")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(board).to_have_attribute("data-picked", "c3")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", "c3-d3")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.ccGame.state.board.move_number === 2", timeout=20_000)
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    moves = final_moves(host, gid)
    assert moves[0] == "c3-d3" and len(moves) == 2

    # The mouse: a click picks, hovering a target shows its path, a click moves.
    legal = legal_from(host, gid, 1, token)
    best = max(legal, key=lambda m: forward(m, 1))
    page.get_by_test_id(f"cell-{best['from']}").click()
    expect(board).to_have_attribute("data-picked", best["from"])
    page.get_by_test_id(f"cell-{best['to']}").hover()
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", best["move"])
    screenshot(page, "corners-desktop-hover")
    page.get_by_test_id(f"cell-{best['to']}").click()
    page.wait_for_function("() => window.ccGame.state.board.move_number === 3", timeout=20_000)
    assert final_moves(host, gid)[2] == best["move"]

    # H asks the host for a move: its piece is picked and its path drawn; Enter plays it.
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)", timeout=20_000)
    page.keyboard.press("h")
    expect(page.get_by_test_id("message")).to_contain_text("Hint: ", timeout=20_000)
    hinted = page.get_by_test_id("message").inner_text().split("Hint: ")[1].strip()
    expect(board).to_have_attribute("data-picked", hinted.split("-")[0])
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", hinted)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.ccGame.state.board.move_number === 4", timeout=20_000)
    assert final_moves(host, gid)[4] == hinted
    assert page.errors == []


def test_the_clocks_a_draw_offer_and_resigning(host, open_page):
    """Both clocks above the board, the running one counting down; the shell's action
    buttons from the state: offer a draw, answer one (decline), resign."""
    game = host.create("classic-3x3",
        [{"kind": "local", "name": "Ola"}, {"kind": "local", "name": "Pia"}],
                       game="corners", options={"reserve_s": 120, "increment_s": 2})
    gid = game["id"]
    tokens = tokens_of(game)
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: tokens[1]}))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    expect(page.get_by_test_id("clocks")).to_be_visible()
    expect(page.get_by_test_id("clock-1-time")).to_have_text("2:00")
    expect(page.get_by_test_id("clock-2-time")).to_have_text("2:00")
    expect(page.get_by_test_id("action-resign")).to_be_visible()
    expect(page.get_by_test_id("action-offer_draw")).to_have_text("Offer draw")
    expect(page.get_by_test_id("action-accept_draw")).to_have_count(0)

    tap_move(page, "c3-d3")
    expect(page.get_by_test_id("clock-2")).to_have_attribute("data-running", "true")
    expect(page.get_by_test_id("clock-1")).to_have_attribute("data-running", "false")
    expect(page.get_by_test_id("clock-1-time")).to_have_text(
        re.compile(r"^2:0[0-2]$"))  # + the increment
    expect(page.get_by_test_id("clock-2-time")).to_have_text("1:58", timeout=5_000)  # counting down
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^Black's turn"))

    # An offer from white reaches the host; black declines it (over REST).
    page.get_by_test_id("action-offer_draw").tap()
    page.wait_for_function("() => window.ccGame.state.board.draw_offer === 1")
    expect(page.get_by_test_id("draw-offer")).to_have_text("White offers a draw")
    act(host, gid, 2, "decline_draw", tokens[2])
    expect(page.get_by_test_id("draw-offer")).to_have_count(0)

    # An offer from black: white sees Accept / Decline, and declines.
    host.move(gid, 2, "f6-f5", tokens[2])
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    act(host, gid, 2, "offer_draw", tokens[2])
    expect(page.get_by_test_id("draw-offer")).to_have_text("Black offers a draw")
    expect(page.get_by_test_id("action-accept_draw")).to_have_text("Accept draw")
    screenshot(page, "corners-draw-offered")
    page.get_by_test_id("action-decline_draw").tap()
    expect(page.get_by_test_id("action-accept_draw")).to_have_count(0)
    assert host.state(gid)["board"]["draw_offer"] is None

    # Resign asks first; Cancel keeps playing, Resign ends the game.
    page.get_by_test_id("action-resign").tap()
    expect(page.get_by_test_id("action-text")).to_be_visible()
    page.get_by_test_id("action-cancel").tap()
    assert host.state(gid)["result"] is None
    page.get_by_test_id("action-resign").tap()
    page.get_by_test_id("action-confirm").tap()
    expect(page.get_by_test_id("gameover")).to_be_visible()
    expect(page.get_by_test_id("turn")).to_have_text("Game over — Pia wins")
    expect(page.get_by_test_id("actions")).to_be_hidden()
    expect(page.get_by_test_id("clock-1")).to_have_attribute("data-running", "false")
    expect(page.get_by_test_id("clock-2")).to_have_attribute("data-running", "false")
    assert page.errors == []


def test_a_move_that_returns_home_after_the_deadline_asks_first(host, open_page):
    """A legal entry marked `loses` (here the host's list for one square, marked so on its way
    to the page: such a position needs forty moves) asks before it is played."""
    game = host.create("classic-3x3",
        [{"kind": "local", "name": "Rui"}, {"kind": "local", "name": "Sol"}],
                       game="corners")
    gid, tokens = game["id"], tokens_of(game)
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: tokens[1]}))

    def mark(route):
        answer = route.fetch().json()
        for m in answer["moves"]:
            m["loses"] = m["to"] == "d3"
        route.fulfill(json=answer)

    page.route(re.compile(r"/api/games/[^/]+/legal\?.*from=c3"), mark)
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    page.get_by_test_id("cell-c3").tap()
    expect(page.get_by_test_id("cell-d3")).to_have_attribute("data-target", "loses")
    expect(page.get_by_test_id("cell-c4")).to_have_attribute("data-target", "true")
    page.get_by_test_id("cell-d3").tap()  # the second tap asks first
    expect(page.get_by_test_id("home-return-dialog")).to_be_visible()
    expect(page.get_by_test_id("home-return-text")).to_contain_text("c3-d3")
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", "c3-d3")
    expect(page.get_by_test_id("path")).to_have_class(re.compile("loses"))
    screenshot(page, "corners-home-return")
    page.get_by_test_id("home-return-cancel").tap()
    expect(page.get_by_test_id("home-return-dialog")).to_be_hidden()
    assert host.state(gid)["board"]["last_move"] is None
    # A drag onto the same square asks too.
    touch_drag(page, "c3", "d3")
    expect(page.get_by_test_id("home-return-dialog")).to_be_visible()
    page.get_by_test_id("home-return-play").tap()
    page.wait_for_function("() => window.ccGame.state.board.last_move === 'c3-d3'")
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^Black's turn"))
    assert page.errors == []


def touch_drag(page, start: str, end: str, *, release: bool = True):
    """A finger put on `start`, slid in small steps to `end` and held there a moment (real
    touch events, 40 ms apart by their timestamps, so the lift starts no fling), then lifted
    unless `release` is false (then: a function that lifts it)."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = centre(page, start), centre(page, end)
    clock = [time.time()]

    def touch(kind: str, x: float | None = None, y: float | None = None) -> None:
        clock[0] += 0.04
        points = [] if x is None else [{"x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points,
                                              "timestamp": clock[0]})

    touch("touchStart", x0, y0)
    steps = 6
    for i in range(1, steps + 1):
        touch("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
    for _ in range(3):
        touch("touchMove", x1, y1)
    lift = lambda: touch("touchEnd")  # noqa: E731
    if release:
        lift()
        return None
    return lift
