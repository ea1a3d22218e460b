"""Corners at the table in real Chromium (Pixel 7, touch; a desktop with a mouse where said),
a real host on loopback: two taps move a piece, the path shows while a finger is down, a drag
onto a lit square moves it, the mouse's hover and drag; the move list in pairs under the board
(which never moves as the list grows); the hint's ring gone at the end; a computer's "L4" on
one line with its chip; the board as wide as the phone with the list right under it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot
from tests.test_browser_corners import (
    centre,
    forward,
    legal_from,
    seq_of,
    storage_for,
    tokens_of,
    touch_drag,
)

expect.set_options(timeout=10_000)


def two_seats(host, **options) -> tuple[str, dict]:
    game = host.create("classic-3x3", [{"kind": "local", "name": "Ola"},
                                       {"kind": "local", "name": "Pia"}], game="corners",
                       options=options or None)
    return game["id"], tokens_of(game)


def as_white(host, open_page, device: str = "Pixel 7", **options):
    """A new two-seat game opened on `device` as white (seat 1), once it is white's turn:
    (the game's id, the seats' tokens, the page, the board)."""
    gid, tokens = two_seats(host, **options)
    page = open_page(device, f"/#/game/{gid}", storage_for(gid, {1: tokens[1]}))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    return gid, tokens, page, page.get_by_test_id("board")


def played(host, gid, page, before: int, move: str) -> None:
    """The page has a move after seq `before`, and the host's last move is `move`."""
    page.wait_for_function(f"() => ccGame.board && ccGame.state.seq > {before}")
    assert host.state(gid)["board"]["last_move"] == move


def black_replies(host, gid, tokens, page) -> None:
    """Black plays f6-e6; the page is white's turn again."""
    host.move(gid, 2, "f6-e6", tokens[2])
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")


def test_two_taps_move_a_piece_and_the_path_shows_while_the_finger_is_down(host, open_page):
    gid, tokens, page, board = as_white(host, open_page)
    before = seq_of(page)

    # Tap the piece: the host's targets light up. Tap a target: the move goes.
    page.get_by_test_id("cell-c3").tap()
    expect(board).to_have_attribute("data-picked", "c3")
    expect(board).to_have_attribute("data-targets", "c4 d3")
    page.get_by_test_id("cell-d3").tap()
    played(host, gid, page, before, "c3-d3")
    expect(board).to_have_attribute("data-picked", "")
    expect(page.get_by_test_id("last-path")).to_have_attribute("data-path", "c3-d3")
    # While the other side moves a finger on the board scrolls the page; on my turn it
    # picks and drags pieces.
    touch_action = "el => getComputedStyle(el).touchAction"
    expect(board).to_have_attribute("data-active", "false")
    assert board.evaluate(touch_action) == "manipulation"

    # A tap on the picked piece puts it down; a tap on an empty square that is no target too.
    black_replies(host, gid, tokens, page)
    expect(board).to_have_attribute("data-active", "true")
    assert board.evaluate(touch_action) == "none"
    page.get_by_test_id("cell-b3").tap()
    expect(board).to_have_attribute("data-picked", "b3")
    page.get_by_test_id("cell-b3").tap()
    expect(board).to_have_attribute("data-picked", "")
    page.get_by_test_id("cell-b3").tap()
    expect(board).to_have_attribute("data-targets", "b4 c3")
    page.get_by_test_id("cell-g2").tap()
    expect(board).to_have_attribute("data-picked", "")

    # With the piece picked, a finger held on a target draws that move's path and plays
    # nothing; sliding to the other target draws its path; lifting plays that one.
    before = seq_of(page)
    page.get_by_test_id("cell-b3").tap()
    expect(board).to_have_attribute("data-targets", "b4 c3")
    lift = touch_drag(page, "b4", "b4", release=False)
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", "b3-b4")
    expect(page.get_by_test_id("cell-b4")).to_have_class(re.compile(r"\bchosen\b"))
    assert seq_of(page) == before
    lift()
    played(host, gid, page, before, "b3-b4")
    assert page.errors == []


def test_a_finger_held_on_a_target_then_slid_to_another_plays_that_one(host, open_page):
    gid, tokens, page, board = as_white(host, open_page)
    page.get_by_test_id("cell-c3").tap()
    expect(board).to_have_attribute("data-targets", "c4 d3")
    before = seq_of(page)
    lift = touch_drag(page, "c4", "d3", release=False)
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", "c3-d3")
    expect(page.get_by_test_id("move-hint")).to_have_text("c3-d3: let go to move.")
    assert seq_of(page) == before
    lift()
    played(host, gid, page, before, "c3-d3")

    # Slid off the board and lifted there: nothing is played, the piece stays picked.
    black_replies(host, gid, tokens, page)
    page.get_by_test_id("cell-b3").tap()
    expect(board).to_have_attribute("data-targets", "b4 c3")
    before = seq_of(page)
    lift = touch_drag(page, "b4", "h1", release=False)
    expect(page.get_by_test_id("path")).to_have_count(0)
    lift()
    expect(board).to_have_attribute("data-picked", "b3")
    assert seq_of(page) == before and host.state(gid)["board"]["last_move"] == "f6-e6"
    assert page.errors == []


def test_dragging_a_piece_onto_a_target_moves_it(host, open_page):
    gid, tokens, page, board = as_white(host, open_page)
    before = seq_of(page)

    # A drag from a piece not yet picked: it is lifted (it follows the finger), the path of
    # the target under the finger is drawn; let go: the move goes.
    lift = touch_drag(page, "c3", "d3", release=False)
    expect(page.get_by_test_id("drag-piece")).to_be_visible()
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", "c3-d3")
    # The lifted piece sits under the finger once the page has had the last touch moves
    # (Chromium hands a page its touch moves with the next frame, later under load).
    x, y = centre(page, "d3")
    page.wait_for_function(
        """([x, y]) => { const r = document.querySelector('[data-testid="drag-piece"]')
                                        .getBoundingClientRect();
                         return Math.abs(r.x + r.width / 2 - x) < 2
                             && Math.abs(r.y + r.height / 2 - y) < 2; }""", arg=[x, y])
    screenshot(page, "corners-drag")
    assert seq_of(page) == before
    lift()
    played(host, gid, page, before, "c3-d3")
    expect(page.get_by_test_id("drag-piece")).to_be_hidden()

    # Dropped on a square it cannot reach: nothing is played, the piece stays picked.
    black_replies(host, gid, tokens, page)
    before = seq_of(page)
    touch_drag(page, "b3", "e5")
    expect(board).to_have_attribute("data-picked", "b3")
    expect(page.get_by_test_id("drag-piece")).to_be_hidden()
    assert seq_of(page) == before

    # A jump by a drag: the host's chain is played.
    touch_drag(page, "b2", "d2")
    played(host, gid, page, before, "b2-d2")
    assert page.errors == []


def test_the_mouse_hovers_to_see_the_path_and_drags_to_move(host, open_page):
    gid, tokens, page, board = as_white(host, open_page, "desktop")
    page.get_by_test_id("cell-c3").click()
    expect(board).to_have_attribute("data-targets", "c4 d3")
    page.get_by_test_id("cell-c4").hover()
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", "c3-c4")
    expect(page.get_by_test_id("move-hint")).to_have_text("c3-c4: click c4 to move.")
    # The list sits under the board, as wide as it.
    b, m = board.bounding_box(), page.get_by_test_id("move-list").bounding_box()
    assert abs(b["x"] - m["x"]) <= 1 and abs(b["width"] - m["width"]) <= 1
    assert 0 <= m["y"] - (b["y"] + b["height"]) <= 8
    assert m["y"] + m["height"] <= page.viewport_size["height"]
    page.get_by_test_id("cell-d3").hover()
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", "c3-d3")
    page.get_by_test_id("cell-h1").hover()
    expect(page.get_by_test_id("path")).to_have_count(0)
    before = seq_of(page)
    page.get_by_test_id("cell-d3").click()
    played(host, gid, page, before, "c3-d3")

    black_replies(host, gid, tokens, page)
    before = seq_of(page)
    page.get_by_test_id("cell-b3").drag_to(page.get_by_test_id("cell-c3"))
    played(host, gid, page, before, "b3-c3")
    assert page.errors == []


def pair_texts(page) -> list[str]:
    return [re.sub(r"\s+", " ", t).strip()
            for t in page.locator("[data-testid=move-list] li[data-number]").all_inner_texts()]


@pytest.mark.parametrize("phone", ["Pixel 7", "Galaxy S5"])
def test_the_move_list_in_pairs_under_a_board_that_stays_put(host, open_page, phone):
    gid, tokens, page, _ = as_white(host, open_page, phone, reserve_s=0)  # takebacks: no clock
    moves = page.get_by_test_id("move-list")
    expect(moves).to_be_visible()
    expect(moves).to_have_text("No moves yet")
    board_box = page.get_by_test_id("board").bounding_box()
    list_box = moves.bounding_box()

    # The moves as the host's state lists them, the newest last (and in view).
    played = []
    for i in range(22):
        seat = 1 + i % 2
        legal = legal_from(host, gid, seat, tokens[seat])
        move = max(legal, key=lambda m: forward(m, seat))["move"]
        host.move(gid, seat, move, tokens[seat])
        played.append(move)
        page.wait_for_function(f"() => window.ccGame.state.board.moves.length === {i + 1}")
        newest = page.get_by_test_id(f"move-list-ply-{i + 1}")
        expect(newest).to_have_text(move)
        expect(newest).to_have_class(re.compile(r"\bnewest\b"))
        expect(newest).to_be_in_viewport()
        nb, lb = newest.bounding_box(), moves.bounding_box()
        assert lb["y"] <= nb["y"] and nb["y"] + nb["height"] <= lb["y"] + lb["height"] + 1
        assert page.get_by_test_id("board").bounding_box() == board_box
    pairs = pair_texts(page)
    assert len(pairs) == 11 and pairs[0] == f"1. {played[0]} {played[1]}"
    assert pairs == [f"{n + 1}. {played[2 * n]} {played[2 * n + 1]}" for n in range(11)]
    # It scrolls inside itself; its box and the board's stayed where they were.
    assert moves.evaluate("el => el.scrollHeight > el.clientHeight && el.scrollTop > 0")
    assert moves.bounding_box() == list_box
    assert page.get_by_test_id("board").bounding_box() == board_box
    first = page.get_by_test_id("move-list-ply-1")
    moves.evaluate("el => { el.scrollTop = 0; }")
    expect(first).to_be_in_viewport()
    screenshot(page, f"corners-move-list-{phone.replace(' ', '-')}")

    # A takeback (white's last move and black's reply) shortens it.
    page.get_by_test_id("undo").tap()
    page.wait_for_function(f"() => window.ccGame.state.board.moves.length === {len(played) - 2}")
    assert pair_texts(page) == pairs[:-1]
    newest = page.get_by_test_id(f"move-list-ply-{len(played) - 2}")
    expect(newest).to_have_class(re.compile(r"\bnewest\b"))
    assert page.errors == []


def test_the_hint_ring_is_cleared_at_game_over(host, open_page):
    gid, tokens, page, board = as_white(host, open_page)
    page.get_by_test_id("hint").tap()
    expect(page.get_by_test_id("message")).to_contain_text("Hint: ")
    hinted = page.get_by_test_id("message").inner_text().split("Hint: ")[1].strip()
    expect(page.get_by_test_id("path")).to_have_attribute("data-path", hinted)
    expect(board.locator(".cn-cell.cursor")).to_have_count(1)  # the hint's ring

    page.get_by_test_id("action-resign").tap()
    page.get_by_test_id("action-confirm").tap()
    expect(page.get_by_test_id("gameover")).to_be_visible()
    expect(board.locator(".cn-cell.cursor")).to_have_count(0)
    expect(board).to_have_attribute("data-cursor", "")
    expect(board).to_have_attribute("data-picked", "")
    expect(page.get_by_test_id("path")).to_have_count(0)
    expect(board.locator(".cn-cell.target")).to_have_count(0)
    assert page.errors == []


def one_line_with_chip(cell) -> dict:
    """The name's text beside its chip: how many lines it takes and whether it sits level."""
    return cell.evaluate("""td => {
        const chip = td.querySelector('.chip').getBoundingClientRect();
        const range = document.createRange();
        range.setStartAfter(td.querySelector('.chip'));
        range.setEnd(td, td.childNodes.length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const mid = (chip.top + chip.bottom) / 2;
        return {lines: new Set(rects.map((r) => Math.round(r.top))).size,
                level: rects.every((r) => r.top <= mid && mid <= r.bottom),
                right: rects.every((r) => r.left >= chip.right)};
    }""")


@pytest.mark.parametrize("phone", ["Pixel 7", "Galaxy S5"])
def test_a_computers_level_stays_on_one_line_with_its_chip(host, open_page, phone):
    game = host.create("classic-3x3", [{"kind": "local", "name": "Ola"},
                                       {"kind": "computer", "level": 4}], game="corners")
    gid, tokens = game["id"], tokens_of(game)
    page = open_page(phone, f"/#/game/{gid}", storage_for(gid, {1: tokens[1]}))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    expect(page.get_by_test_id("seat-name-label-2")).to_have_text("Computer L4")
    page.get_by_test_id("action-resign").tap()
    page.get_by_test_id("action-confirm").tap()
    expect(page.get_by_test_id("gameover")).to_be_visible()
    row = page.get_by_test_id("final-2")
    expect(row).to_contain_text("Computer L4")
    assert one_line_with_chip(row.locator("td").first) == {"lines": 1, "level": True, "right": True}
    # The seat card's name sits on its chip's line too.
    head = page.get_by_test_id("seat-2").locator(".seat-head")
    chip = head.locator(".chip").bounding_box()
    name = page.get_by_test_id("seat-name-label-2").bounding_box()
    assert name["x"] >= chip["x"] + chip["width"] and abs(
        (name["y"] + name["height"] / 2) - (chip["y"] + chip["height"] / 2)) < 4
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    screenshot(page, f"corners-gameover-L4-{phone.replace(' ', '-')}")
    assert page.errors == []


def test_the_board_fills_the_width_and_the_list_sits_right_under_it(host, open_page):
    _, _, page, _ = as_white(host, open_page)
    width = page.viewport_size["width"]
    board = page.get_by_test_id("board").bounding_box()
    # As wide as the phone less the page's margins (6 px a side), and square.
    assert abs(board["width"] - (width - 12)) <= 1 and abs(board["height"] - board["width"]) <= 1
    under = page.get_by_test_id("move-list").bounding_box()
    gap = under["y"] - (board["y"] + board["height"])
    assert 0 <= gap <= 8, gap
    assert abs(under["width"] - board["width"]) <= 1
    assert page.errors == []


def test_a_click_without_a_pointer_picks_and_moves_as_enter_does(host, open_page):
    """Assistive technology activates a cell with a bare click (no pointer events): the
    piece is picked, then the lit square's move is played."""
    gid, tokens, page, board = as_white(host, open_page)
    page.get_by_test_id("cell-c3").evaluate("el => el.click()")
    expect(board).to_have_attribute("data-targets", "c4 d3")
    before = seq_of(page)
    page.get_by_test_id("cell-c4").evaluate("el => el.click()")
    played(host, gid, page, before, "c3-c4")
    assert page.errors == []
