"""/tv, the host's screen as the table, in real Chromium at 1920×1080 (and once at 3840×2160),
with phones on a Pixel 7: the idle screen (the QR code, the address, the open tables with
their empty seats), games made and played from phones and through the API appearing and
following their moves without a reload in each of the three games, the result over a finished
table and the rematch it follows, tonight's standings on /tv and in the phones' lobby, and the
keys. One host, one browser and one /tv page serve the whole module, which is also watched
for any token: /tv holds no seat, so none may ever leave it.
"""

from __future__ import annotations

import json
import re

import pytest
import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot
from tests.test_browser_marbles import tap_move

expect.set_options(timeout=10_000)
OVER_S = 5  # how long a result stays over its table here (?over=; 15 s by default)
SECRET = "a-phone-token-that-must-stay-on-the-phone"
FONT_PX = "e => parseFloat(getComputedStyle(e).fontSize)"


# ---- helpers ---------------------------------------------------------------------------------
def tile(tv, gid: str):
    return tv.locator(f'[data-testid="tv-table"][data-game="{gid}"]')


def drawn_at(tv, gid: str, seq: int) -> None:
    """Wait until the table `gid` shows the state of seq `seq` or a later one."""
    tv.wait_for_function(
        """([gid, seq]) => { const t = document.querySelector(
             `[data-testid="tv-table"][data-game="${gid}"]`);
           return !!t && Number(t.dataset.seq) >= seq; }""", arg=[gid, seq])


def post(host, path: str, body: dict, token: str) -> dict:
    r = requests.post(f"{host.url}/api{path}", json=body, timeout=10,
                      headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    return r.json()


def legal(host, gid: str, seat: int, token: str) -> list[dict]:
    r = requests.get(f"{host.url}/api/games/{gid}/legal", params={"seat": seat}, timeout=10,
                     headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    return r.json()["moves"]


def play_first(host, gid: str, seat: int, token: str) -> int:
    """Play the seat's first legal move through the API; the seq it made."""
    seq = host.state(gid)["seq"]
    move = legal(host, gid, seat, token)[0]["move"]
    return post(host, f"/games/{gid}/moves", {"seat": seat, "move": move, "seq": seq},
                token)["event"]["seq"]


def wait_turn(host, gid: str, seat: int) -> None:
    """Wait (on the host's own answers) until it is `seat`'s turn: the computer has replied."""
    for _ in range(200):
        if host.state(gid)["to_move"] == seat:
            return
        requests.get(f"{host.url}/api/health", timeout=10)  # a round trip, not a sleep
    raise AssertionError(f"seat {seat} never got the turn in {gid}")


def tokens(game: dict) -> dict[int, str]:
    return {int(k): v for k, v in game["tokens"].items()}


# ---- the one /tv page of the module ------------------------------------------------------
@pytest.fixture(scope="module")
def tv(browser, host):
    """/tv at 1920×1080 on a browser profile that also holds a phone's seat token (the host
    PC's own browser may well have played): every request, socket frame and localStorage
    read of the page is recorded."""
    context = browser.new_context(base_url=host.url, viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(10_000)
    memory = {"name": "Host", "games": {"g1": {"seats": {"1": SECRET}, "host": SECRET}}}
    context.add_init_script(
        f"localStorage.setItem('cornerclaim.v1', {json.dumps(json.dumps(memory))});"
        "window.__storageReads = 0;"
        "const get = Storage.prototype.getItem;"
        "Storage.prototype.getItem = function (k) {"
        " window.__storageReads += 1; return get.call(this, k); };"
        "window.__overs = [];"  # every table whose result was shown, however briefly
        "new MutationObserver((rs) => { for (const r of rs) { const t = r.target;"
        " if (t.dataset.testid === 'tv-over' && !t.hidden)"
        " window.__overs.push(t.closest('[data-testid=tv-table]').dataset.game); } })"
        ".observe(document, {subtree: true, attributes: true, attributeFilter: ['hidden']});"
        "window.__fullscreen = 0;"
        "Element.prototype.requestFullscreen = function () { window.__fullscreen += 1;"
        " return Promise.resolve(); };")
    page = context.new_page()
    page.errors, page.sent = [], []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("request", lambda r: page.sent.append(
        f"{r.method} {r.url} {r.headers.get('authorization', '')} {r.post_data or ''}"))
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: page.sent.append(str(f))))
    page.goto(f"/tv?over={OVER_S}")
    yield page
    screenshot(page, "tv-last")
    context.close()


# ---- stories -------------------------------------------------------------------------------
def test_idle_the_screen_shows_how_to_join_and_the_open_tables(host, tv):
    """Nothing is being played: the screen says how to join (the QR code and the address),
    lists the open tables with their empty seats as they come and fill, and tonight's
    standings; no table is drawn."""
    expect(tv.locator("#tv")).to_have_attribute("data-mode", "idle")
    join = tv.get_by_test_id("tv-join")
    expect(join.locator("svg")).to_be_visible()
    expect(join.get_by_test_id("tv-url")).to_have_text(f"{host.url}/")
    assert join.locator("svg").bounding_box()["width"] >= 400  # big enough to scan from a sofa
    expect(tv.get_by_test_id("tv-tonight")).to_be_visible()
    expect(tv.get_by_test_id("tv-tables")).to_have_attribute("data-count", "0")

    game = host.create("classic", [{"kind": "local", "name": "Eve"}, {"kind": "open"},
                                   {"kind": "open"}, {"kind": "open"}], game="cornerclaim")
    line = tv.get_by_test_id(f"tv-open-{game['id']}")
    expect(line).to_contain_text("Corner Claim · Classic")
    expect(line).to_contain_text("Eve")
    expect(line.locator(".tv-open-seat.empty")).to_have_count(3)
    host.claim(game["id"], 2, "Finn")  # pushed: one empty seat fewer, no reload
    expect(line.locator(".tv-open-seat.empty")).to_have_count(2)
    expect(line).to_contain_text("Finn")
    screenshot(tv, "tv-idle")


def test_a_game_made_and_played_on_a_phone_shows_live(host, tv, open_page):
    """Cleo makes a game of Corner against the computer on her phone and places her arrow:
    /tv draws the table without a reload and follows every move (its data-seq), with her
    name in her colour, whose turn it is, the arrow on its line, both trays and the scores."""
    phone = open_page("Pixel 7", "/")
    phone.get_by_test_id("pick-game-marbles").click()
    phone.get_by_test_id("your-name").fill("Cleo")
    phone.get_by_test_id("create").tap()
    phone.wait_for_function("() => window.ccGame?.board && window.ccGame.state")
    gid, seq = phone.evaluate("[ccGame.id, ccGame.state.seq]")
    expect(tv.locator("#tv")).to_have_attribute("data-mode", "live")
    drawn_at(tv, gid, seq)
    table = tile(tv, gid)
    expect(table).to_have_attribute("data-kind", "marbles")
    expect(table.get_by_test_id("tv-table-title")).to_have_text("Corner · 2 players")
    expect(table.get_by_test_id("tv-seat-1")).to_contain_text("Cleo")
    assert table.locator(".tv-name").first.evaluate(FONT_PX) >= 28  # read from three metres

    token = phone.evaluate("ccGame.tokens[1]")
    entry = legal(host, gid, 1, token)[0]
    tap_move(phone, entry)
    after = phone.evaluate("ccGame.state.seq")
    drawn_at(tv, gid, after)
    slot = table.get_by_test_id(f"groove-bottom-{entry['line']}")
    expect(slot).to_have_attribute("data-arrow", "1")
    for side in ("red", "yellow"):
        expect(table.get_by_test_id(f"tray-{side}")).to_be_visible()
    # the phone and /tv end on the same state once the computer has answered
    wait_turn(host, gid, 1)
    drawn_at(tv, gid, host.state(gid)["seq"])
    expect(table.get_by_test_id("tv-seat-1")).to_have_attribute("data-to-move", "true")
    expect(table.get_by_test_id("tv-turn")).to_have_text("Cleo's turn")
    expect(table.get_by_test_id("tv-turn")).to_have_class(re.compile(r"\bc-red\b"))


def test_corner_claim_on_tv_is_drawn_as_a_phone_watcher_sees_it(host, tv, open_page):
    """Ann and Bo play Corner Claim (their moves through the API); /tv and a phone watching
    the game draw the same board, move after move (one drawing path), with the last move
    and the seat to move's open corners marked, and each seat's pieces left."""
    game = host.create("duo", [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}],
                       game="cornerclaim")
    gid, tok = game["id"], tokens(game)
    watcher = open_page("Pixel 7", f"/#/game/{gid}/watch")
    cells = "e => [...e.querySelectorAll('.cell')].map((c) => c.className).join('|')"
    for seat in (1, 2, 1):
        seq = play_first(host, gid, seat, tok[seat])
        drawn_at(tv, gid, seq)
        watcher.wait_for_function(f"() => window.ccGame.state.seq >= {seq}")
        board = tile(tv, gid).get_by_test_id("board")
        assert board.evaluate(cells) == watcher.get_by_test_id("board").evaluate(cells)
    table = tile(tv, gid)
    expect(table.locator(".cell.last")).not_to_have_count(0)
    expect(table.locator(".cell.corner")).not_to_have_count(0)
    state = host.state(gid)
    for s in state["seats"]:
        expect(table.get_by_test_id(f"pieces-{s['seat']}").locator("svg")).to_have_count(
            len(s["view"]["pieces_left"]))
    expect(table.get_by_test_id("tv-seat-2")).to_have_attribute("data-to-move", "true")


def test_corners_clocks_run_then_the_result_shows_and_the_rematch_follows(host, tv):
    """Bo plays Corners with a clock against the computer: /tv shows both clocks, the running
    one counting down; Bo resigns: the result and how it ended show over the table; Bo asks
    for a rematch: the same tile follows the new game."""
    game = host.create("classic-3x3", [{"kind": "local", "name": "Bo"},
                                       {"kind": "computer", "level": 1}],
                       game="corners", options={"reserve_s": 300, "increment_s": 2})
    gid, tok = game["id"], tokens(game)[1]
    seq = play_first(host, gid, 1, tok)
    drawn_at(tv, gid, seq)
    table = tile(tv, gid)
    expect(table.get_by_test_id("clocks")).to_be_visible()
    wait_turn(host, gid, 1)
    drawn_at(tv, gid, host.state(gid)["seq"])
    expect(table.get_by_test_id("clock-1")).to_have_attribute("data-running", "true")
    shown = table.get_by_test_id("clock-1-time").text_content()
    tv.wait_for_function(
        """([gid, was]) => document.querySelector(`[data-testid="tv-table"][data-game="${gid}"]`
             + ' [data-testid="clock-1-time"]').textContent !== was""", arg=[gid, shown])

    place = table.evaluate("t => [...t.parentElement.children].indexOf(t)")
    post(host, f"/games/{gid}/actions", {"seat": 1, "action": "resign",
                                          "seq": host.state(gid)["seq"]}, tok)
    result = host.state(gid)["result"]
    over = table.get_by_test_id("tv-over")
    expect(over).to_be_visible()
    expect(over.get_by_test_id("tv-over-title")).to_have_text("Game over — Computer L1 wins")
    expect(over.get_by_test_id("tv-over-ending")).to_have_text(result["ending"])
    screenshot(tv, "tv-over")

    rematch = post(host, f"/games/{gid}/rematch", {}, tok)["id"]
    again = tile(tv, rematch)
    expect(again).to_be_visible()
    expect(again.get_by_test_id("tv-over")).to_be_hidden()
    assert again.evaluate("t => [...t.parentElement.children].indexOf(t)") == place
    expect(tile(tv, gid)).to_have_count(0)


def test_tonight_standings_on_tv_and_in_the_lobby(host, tv, open_page):
    """Tia beats Uma at Corner Claim (Uma leaves) and loses a game of Corner to the computer
    (she leaves it): tonight's standings on /tv and in a phone's lobby, pushed to both, count
    both games; the table of the game Tia left shows its result, then goes."""
    lobby = open_page("Pixel 7", "/")
    expect(lobby.get_by_test_id("lobby-tonight")).to_be_visible()
    claim = host.create("duo", [{"kind": "local", "name": "Tia"}, {"kind": "local", "name": "Uma"}],
                        game="cornerclaim")
    corner = host.create("2p", [{"kind": "local", "name": "Tia"}, {"kind": "computer", "level": 1}],
                         game="marbles")
    post(host, f"/games/{claim['id']}/leave", {"seat": 2}, tokens(claim)[2])
    drawn_at(tv, corner["id"], host.state(corner["id"])["seq"])
    post(host, f"/games/{corner['id']}/leave", {"seat": 1}, tokens(corner)[1])
    tv.wait_for_function("gid => window.__overs.includes(gid)", arg=corner["id"])

    for page, box in ((tv, "tv-tonight"), (lobby, "lobby-tonight")):
        row = page.get_by_test_id(box).locator("tr[data-name='Tia']")
        expect(row).to_contain_text(re.compile(r"Corner Claim -?\d"))
        expect(row).to_contain_text(re.compile(r"Corner -?\d"))
        expect(row.locator("td").nth(3)).to_have_text("2")  # games
        expect(page.get_by_test_id(box).locator("tr[data-name='Uma']")).to_be_visible()
    expect(tile(tv, corner["id"])).to_have_count(0, timeout=OVER_S * 1000 + 10_000)  # then it goes


def fresh_tables(host, n: int) -> list[str]:
    """`n` new running Corner Claim tables, so a test's screen holds what it expects
    whatever the module's earlier tests left running or finished."""
    names = [("Abe", "Bea"), ("Cal", "Dee"), ("Eli", "Fay"), ("Gus", "Hal")][:n]
    return [host.create("duo", [{"kind": "local", "name": a}, {"kind": "local", "name": b}],
                        game="cornerclaim")["id"] for a, b in names]


def shown_now(host) -> int:
    """How many tables the screen shows once it has caught up: every running game, at most
    four."""
    games = requests.get(f"{host.url}/api/games", timeout=10).json()["games"]
    return min(4, sum(g["status"] == "running" for g in games))


def test_the_keys_pick_a_table_show_it_alone_and_go_back(host, tv):
    """Arrows pick a table, Enter shows it alone (bigger), the arrows then go through the
    tables one by one, Escape shows them all again; the Fullscreen button asks for it."""
    tables = tv.get_by_test_id("tv-tables")
    tiles = tv.get_by_test_id("tv-table")
    fresh_tables(host, 2)  # the two most recently active: shown whatever ran before
    expect(tiles).to_have_count(shown_now(host))
    ids = tiles.evaluate_all("ts => ts.map((t) => t.dataset.game)")
    small = tiles.first.locator(".tv-board-box").bounding_box()["width"]
    tv.keyboard.press("ArrowRight")
    expect(tiles.first).to_have_attribute("data-selected", "true")
    tv.keyboard.press("ArrowRight")
    expect(tiles.nth(1)).to_have_attribute("data-selected", "true")
    expect(tiles.first).to_have_attribute("data-selected", "false")
    tv.keyboard.press("Enter")
    expect(tables).to_have_attribute("data-solo", ids[1])
    expect(tiles.first).to_be_hidden()
    expect(tile(tv, ids[1])).to_be_visible()
    assert tile(tv, ids[1]).locator(".tv-board-box").bounding_box()["width"] > small * 1.4
    screenshot(tv, "tv-alone")
    tv.keyboard.press("ArrowLeft")
    expect(tables).to_have_attribute("data-solo", ids[0])
    tv.keyboard.press("Escape")
    expect(tables).to_have_attribute("data-solo", "")
    expect(tiles).to_have_count(len(ids))
    for t in range(len(ids)):
        expect(tiles.nth(t)).to_be_visible()
    tv.get_by_test_id("tv-fullscreen").click()
    assert tv.evaluate("window.__fullscreen") == 1


def test_the_four_most_recently_active_tables_are_shown(host, tv):
    """Five new games start one after the other: the screen shows the four newest, each new
    one taking the place of the least recently active; a move in the one left out brings it
    back in the place of the least recently active one shown."""
    pairs = [("Kim", "Lou"), ("Max", "Ned"), ("Oda", "Pim"), ("Quy", "Ria"), ("Sol", "Ted")]
    games = [host.create("duo", [{"kind": "local", "name": a}, {"kind": "local", "name": b}],
                         game="cornerclaim") for a, b in pairs]
    ids = [g["id"] for g in games]
    tiles = tv.get_by_test_id("tv-table")
    for gid in ids[1:]:
        expect(tile(tv, gid)).to_have_attribute("data-seq", re.compile(r"\d"))
    expect(tiles).to_have_count(4)
    expect(tile(tv, ids[0])).to_have_count(0)
    place = tile(tv, ids[1]).evaluate("t => [...t.parentElement.children].indexOf(t)")
    seq = play_first(host, ids[0], 1, tokens(games[0])[1])
    drawn_at(tv, ids[0], seq)
    assert tile(tv, ids[0]).evaluate("t => [...t.parentElement.children].indexOf(t)") == place
    expect(tile(tv, ids[1])).to_have_count(0)
    expect(tiles).to_have_count(4)


def test_at_3840_by_2160_everything_is_twice_as_big(browser, host, tv):
    """The same tables on a 4K screen: names and boards twice their 1080p size."""
    ids = fresh_tables(host, 4)  # the four most recently active tables, on both screens
    for gid in ids:
        expect(tile(tv, gid)).to_have_count(1)
    context = browser.new_context(base_url=host.url, viewport={"width": 3840, "height": 2160})
    try:
        big = context.new_page()
        big.goto("/tv")
        for gid in ids:
            expect(tile(big, gid)).to_have_count(1)
        big.wait_for_function("() => [...document.querySelectorAll('[data-testid=tv-table]')]"
                              ".every((t) => t.dataset.seq)")
        assert big.locator(".tv-name").first.evaluate(FONT_PX) >= 56
        assert tv.locator(".tv-name").first.evaluate(FONT_PX) >= 28
        both = [g for g in big.get_by_test_id("tv-table").evaluate_all(
            "ts => ts.map((t) => t.dataset.game)") if tile(tv, g).count()]
        assert both
        scale = "e => Number(e.dataset.scale)"
        small_board = tile(tv, both[0]).locator(".tv-board-box").evaluate(scale)
        big_board = tile(big, both[0]).locator(".tv-board-box").evaluate(scale)
        assert big_board == pytest.approx(2 * small_board, rel=0.05)
        screenshot(big, "tv-4k")
    finally:
        context.close()


def test_a_new_evening_from_the_tv_and_its_refusal(tv):
    """New evening asks for a second press; a refusal shows in the host's words; granted,
    tonight's standings start again empty."""
    button = tv.get_by_test_id("tv-new-evening")
    words = "Only the host PC may begin a new evening."
    refusal = {"error": {"code": "forbidden", "message": words}}
    tv.route("**/api/tonight", lambda route: route.fulfill(status=403, json=refusal)
             if route.request.method == "POST" else route.continue_())
    button.click()
    expect(button).to_have_attribute("data-armed", "true")
    button.click()
    expect(tv.get_by_test_id("tv-tonight-error")).to_have_text(words)
    tv.unroute("**/api/tonight")
    button.click()
    button.click()
    expect(tv.get_by_test_id("tv-tonight").get_by_test_id("tonight-empty")).to_be_visible()
    expect(tv.get_by_test_id("tv-tonight-error")).to_have_text("")


def test_no_token_ever_leaves_the_tv(tv):
    """Over everything above, /tv read no phone's localStorage and sent no token: no
    Authorization header, no `tokens` in a socket message, the phone's token nowhere."""
    assert tv.evaluate("window.__storageReads") == 0
    assert tv.sent
    assert not [s for s in tv.sent if SECRET in s or "Bearer" in s or '"tokens"' in s], tv.sent
    assert tv.errors == []
