"""Corner (the marble game) at the table on a phone, in real Chromium against a real host: the
words for two marbles on a line follow the input in use (a tap on a phone, Tab with a
keyboard), the grooves carry the host's coordinates, the lines I may choose are marked
solid and unmistakable, a stale message goes at the next tap, each seat sees the board from
its own groove, and the trays' headers stay short on a Pixel 7.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot

# The engine's sample deal (f1 is a black marble) and the helpers the 4-player game's tests use.
from tests.test_browser_marbles import SETUP, legal, storage_for, tokens_of

expect.set_options(timeout=10_000)
def wait_ready(page) -> None:
    expect(page.get_by_test_id("board")).to_have_attribute("data-legal", "ready")


def box(page, testid: str) -> dict:
    return page.get_by_test_id(testid).bounding_box()


def mid(b: dict) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def four_players_with_a_choice(host) -> tuple[str, dict, str, list[str]]:
    """A 4-player game where seat 4 (yellow) is to move and one of its lines crosses two
    marbles it may take: (game id, tokens, that line, its two cells)."""
    game = host.create("4p", [{"kind": "local", "name": n} for n in ("Ana", "Ben", "Cy", "Dee")],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, tokens = game["id"], tokens_of(game)
    for seat, pick in ((1, "a"), (2, "4"), (3, "f")):
        move = next(e["move"] for e in legal(host, gid, seat, tokens[seat]) if e["line"] == pick)
        host.move(gid, seat, move, tokens[seat])
    by_line: dict[str, list[str]] = {}
    for e in legal(host, gid, 4, tokens[4]):
        by_line.setdefault(e["line"], []).append(e["move"])
    line, cells = next((k, v) for k, v in by_line.items() if len(v) == 2)
    return gid, tokens, line, cells


def test_two_marbles_on_a_line_are_tapped_on_a_phone_and_tabbed_with_keys(host, open_page):
    """A phone has no Tab key: the line's two marbles are offered for a tap. At a desk the
    same choice names Tab, and Tab switches between them."""
    gid, tokens, line, cells = four_players_with_a_choice(host)
    phone = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens))
    wait_ready(phone)
    phone.get_by_test_id(f"line-{line}").tap()
    message = phone.get_by_test_id("message")
    expect(message).to_have_text(f"Line {line}: take {cells[0]} or {cells[1]} — tap one of them")
    expect(message).not_to_contain_text("Tab")
    screenshot(phone, "marbles-table-two-marbles")
    # The tap on one of them takes it.
    before = phone.evaluate("window.ccGame.state.seq")
    phone.get_by_test_id(f"cell-{cells[1]}").tap()
    phone.wait_for_function(f"() => ccGame.board && ccGame.state.seq > {before}")
    assert host.state(gid)["last_move"]["move"] == cells[1]
    assert phone.errors == []

    gid, tokens, line, cells = four_players_with_a_choice(host)
    desk = open_page("desktop", f"/#/game/{gid}", storage_for(gid, tokens))
    wait_ready(desk)
    desk.get_by_test_id(f"line-{line}").click()
    expect(desk.get_by_test_id("message")).to_have_text(
        f"Line {line}: take {cells[0]} or {cells[1]} (Tab switches)")
    desk.keyboard.press("Tab")
    expect(desk.get_by_test_id("board")).to_have_attribute("data-focus", cells[1])
    expect(desk.get_by_test_id("message")).to_have_text(f"Take {cells[1]} (Enter takes it)")
    assert desk.errors == []


def test_the_grooves_carry_the_coordinates(host, open_page):
    """Red (seat 1) at the bottom: its groove reads a to f from the left, the left groove 6
    down to 1, as the host names columns (a–f from the left) and rows (1–6 from the bottom)."""
    game = host.create("2p", [{"kind": "local", "name": "Mo"}, {"kind": "computer", "level": 1}],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, token = game["id"], tokens_of(game)[1]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: token}))
    wait_ready(page)
    bottom = [page.get_by_test_id(f"line-{c}") for c in "abcdef"]
    for slot, name in zip(bottom, "abcdef", strict=True):
        expect(slot.locator(".mb-coord")).to_have_text(name)
        expect(slot.locator(".mb-coord")).to_be_visible()
    xs = [s.bounding_box()["x"] for s in bottom]
    assert xs == sorted(xs)
    left = [page.get_by_test_id(f"groove-left-{r}") for r in "654321"]
    for slot, name in zip(left, "654321", strict=True):
        expect(slot.locator(".mb-coord")).to_have_text(name)
    ys = [s.bounding_box()["y"] for s in left]
    assert ys == sorted(ys)
    # The labels sit beside the cells they name: column c under cell c1, row 1 beside a1.
    assert abs(mid(box(page, "line-c"))[0] - mid(box(page, "cell-c1"))[0]) < 1
    assert abs(mid(box(page, "groove-left-1"))[1] - mid(box(page, "cell-a1"))[1]) < 1
    assert page.errors == []


def test_the_lines_i_may_choose_are_marked_solid(host, open_page):
    """The slots of the lines the host lists are solid bands that no other slot looks like
    (no dashed rings); the one chosen stands out again."""
    game = host.create("2p", [{"kind": "local", "name": "Jo"}, {"kind": "computer", "level": 1}],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, token = game["id"], tokens_of(game)[1]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: token}))
    wait_ready(page)
    look = """() => [...document.querySelectorAll('[data-testid=board] .mb-slot')].map((el) => {
        const s = getComputedStyle(el), a = getComputedStyle(el, '::after');
        return {legal: el.dataset.legal, chosen: el.classList.contains('chosen'),
                bg: s.backgroundColor, border: s.borderTopStyle + ' ' + s.borderTopColor,
                after: a.borderTopStyle};
    })"""
    slots = page.evaluate(look)
    marked = [s for s in slots if s["legal"] == "true"]
    other = [s for s in slots if s["legal"] != "true"]
    assert len(marked) == 6 and len(other) == 18
    assert len({(s["bg"], s["border"]) for s in marked}) == 1  # one look for all of them
    mark = (marked[0]["bg"], marked[0]["border"])
    assert marked[0]["bg"] not in ("rgba(0, 0, 0, 0)", "transparent")
    assert all((s["bg"], s["border"]) != mark for s in other)
    assert "dashed" not in {s["after"] for s in slots}
    screenshot(page, "marbles-table-lines")

    # Red places on c; the computer answers; the line chosen is marked apart from the rest.
    page.get_by_test_id("line-c").tap()
    page.wait_for_function("() => window.ccGame.state.board.arrows[0].line === 'c'")
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^Your turn"), timeout=20_000)
    wait_ready(page)
    entry = next(e for e in legal(host, gid, 1, token) if e["line"] != "c")
    page.get_by_test_id(f"line-{entry['line']}").tap()
    expect(page.get_by_test_id(f"line-{entry['line']}")).to_have_class(re.compile(r"\bchosen\b"))
    slots = page.evaluate(look)
    chosen = [s for s in slots if s["chosen"]]
    assert len(chosen) == 1 and chosen[0]["bg"] != mark[0]
    assert all(s["bg"] == mark[0] for s in slots if s["legal"] == "true" and not s["chosen"])
    assert page.errors == []


def test_a_stale_message_goes_at_the_next_tap(host, open_page):
    """"A black marble cannot be taken" is said at a tap on one, and goes at the next tap,
    on a marble or on a groove, even one that says nothing itself."""
    game = host.create("2p", [{"kind": "local", "name": "Al"}, {"kind": "computer", "level": 1}],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, token = game["id"], tokens_of(game)[1]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: token}))
    wait_ready(page)
    message = page.get_by_test_id("message")
    for next_tap in ("cell-a1", "groove-left-3"):
        page.get_by_test_id("cell-f1").tap()  # black in the sample deal
        expect(message).to_have_text("A black marble cannot be taken")
        page.get_by_test_id(next_tap).tap()
        expect(message).to_have_text("")
    assert host.state(gid)["seq"] == page.evaluate("window.ccGame.state.seq")  # nothing played
    assert page.errors == []


def test_each_seat_sees_the_board_from_its_own_groove(host, open_page):
    """Yellow's board is turned so its groove is at the bottom, with the coordinates turned
    with it; on a phone holding both seats the board follows the seat to move."""
    game = host.create("2p", [{"kind": "local", "name": "Rud"}, {"kind": "local", "name": "Yva"}],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, tokens = game["id"], tokens_of(game)
    # Yellow alone on its phone: turned while red is to move.
    yellow = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {2: tokens[2]}))
    board = yellow.get_by_test_id("board")
    expect(board).to_have_attribute("data-view", "2")
    expect(board).to_have_attribute("aria-label", re.compile("yellow groove at the bottom"))
    frame = board.bounding_box()
    rows = [box(yellow, f"groove-left-{r}") for r in "654321"]
    assert all(b["y"] > frame["y"] + frame["height"] * .8 for b in rows)  # along the bottom
    assert [b["x"] for b in rows] == sorted(b["x"] for b in rows)  # 6 on the left … 1 right
    for r in "123456":
        expect(yellow.get_by_test_id(f"groove-left-{r}").locator(".mb-coord")).to_have_text(r)
    # The cells turn with it: a1 at the bottom right, f1 above it, a6 at the bottom left.
    a1, f1, a6 = (mid(box(yellow, f"cell-{n}")) for n in ("a1", "f1", "a6"))
    assert abs(a1[0] - mid(box(yellow, "groove-left-1"))[0]) < 1
    assert f1[1] < a1[1] and abs(f1[0] - a1[0]) < 1
    assert a6[0] < a1[0] and abs(a6[1] - a1[1]) < 1
    # Red's groove runs up the right side, a at the bottom.
    red = [box(yellow, f"groove-bottom-{c}") for c in "abcdef"]
    assert all(b["x"] > frame["x"] + frame["width"] * .8 for b in red)
    assert [b["y"] for b in red] == sorted((b["y"] for b in red), reverse=True)
    screenshot(yellow, "marbles-table-yellow-view")

    # Both seats on one phone: red's view while red moves, yellow's when yellow does.
    both = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens))
    board = both.get_by_test_id("board")
    wait_ready(both)
    expect(board).to_have_attribute("data-view", "1")
    assert box(both, "line-a")["y"] > box(both, "cell-a1")["y"]
    both.get_by_test_id("line-c").tap()
    expect(board).to_have_attribute("data-view", "2")
    wait_ready(both)
    assert box(both, "line-1")["y"] > box(both, "cell-a1")["y"]
    assert box(both, "line-6")["x"] < box(both, "line-1")["x"]
    entry = legal(host, gid, 2, tokens[2])[0]
    both.get_by_test_id(f"line-{entry['line']}").tap()
    both.get_by_test_id(f"cell-{entry['move']}").tap()
    expect(board).to_have_attribute("data-view", "1")
    assert host.state(gid)["last_move"]["move"] == entry["move"]
    assert yellow.errors == [] and both.errors == []


def test_the_tray_headers_stay_short_on_a_pixel_7(host, open_page):
    """A 4-player game with a person and three computers: each tray's header is at most two
    lines high and still names the players of its side."""
    seats = [{"kind": "local", "name": "Pia"}] + [{"kind": "computer", "level": 3}] * 3
    game = host.create("4p", seats,
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, token = game["id"], tokens_of(game)[1]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: token}))
    wait_ready(page)
    state = host.state(gid)
    for side, seats in (("red", (1, 3)), ("yellow", (2, 4))):
        head = page.get_by_test_id(f"tray-{side}").locator("h4")
        for seat in seats:
            expect(head).to_contain_text(state["seats"][seat - 1]["name"])
        height, line = head.evaluate("""(el) => {
            const s = getComputedStyle(el);
            return [el.getBoundingClientRect().height,
                    parseFloat(s.lineHeight) || 1.2 * parseFloat(s.fontSize)];
        }""")
        assert height < 2.5 * line, f"{side} tray header is {height}px high, a line {line}px"
    screenshot(page, "marbles-table-trays")
    assert page.errors == []


def test_the_board_is_ready_only_with_the_list_of_the_position_shown(host, open_page):
    """On a phone passed between two seats, the board never says `data-legal="ready"` with
    the previous position's list: each time it says ready, its marked lines are there."""
    game = host.create("2p", [{"kind": "local", "name": "Ed"}, {"kind": "local", "name": "Flo"}],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, tokens = game["id"], tokens_of(game)
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens))
    wait_ready(page)
    page.evaluate("""() => {
        const board = document.querySelector('[data-testid=board]');
        window.readyWithout = [];
        new MutationObserver(() => {
            if (board.dataset.legal === 'ready' && !board.dataset.lines)
                window.readyWithout.push(window.ccGame.state.seq);
        }).observe(board, {attributes: true});
    }""")
    page.get_by_test_id("line-c").tap()
    expect(page.get_by_test_id("board")).to_have_attribute("data-view", "2")
    wait_ready(page)
    entry = legal(host, gid, 2, tokens[2])[0]
    page.get_by_test_id(f"line-{entry['line']}").tap()
    page.get_by_test_id(f"cell-{entry['move']}").tap()
    expect(page.get_by_test_id("board")).to_have_attribute("data-view", "1")
    wait_ready(page)
    expect(page.get_by_test_id("board")).to_have_attribute("data-lines", re.compile(r"^[a-f]"))
    assert page.evaluate("window.readyWithout") == []
    assert page.errors == []
