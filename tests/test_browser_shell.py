"""The table shell's controls in real Chromium on a Pixel 7, against a real host: Pass only in
a game that has passing, Take back disabled with the game's reason where the host refuses it,
a draw offer the computer declines (said at the table and in the replay, in the game's
words), the replay's counter counting what its move list numbers, and the hot-seat turn line
naming the person whose turn it is."""

from __future__ import annotations

import re

import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot
from tests.test_browser_corners import legal_from, storage_for, tap_move, tokens_of

expect.set_options(timeout=10_000)
CLOCK = {"reserve_s": 300, "increment_s": 5}
NO_CLOCK = {"reserve_s": 0, "increment_s": 0}


def first_move(host, gid: str, seat: int, token: str) -> str:
    return legal_from(host, gid, seat, token)[0]["move"]


def shown_seq(page, seq: int) -> None:
    """Wait until the page shows the state of `seq` (or later)."""
    page.wait_for_function(f"() => window.ccGame.state && window.ccGame.state.seq >= {seq}")


def test_only_a_game_with_passing_has_a_pass_button(host, open_page):
    """Corners and Corner (marbles) have no pass: no Pass button. Corner Claim keeps it."""
    two = [{"kind": "local", "name": "Pia"}, {"kind": "local", "name": "Ola"}]
    for game, variant in (("corners", "classic-3x3"), ("marbles", "2p")):
        created = host.create(variant, two, game=game)
        gid = created["id"]
        page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens_of(created)))
        expect(page.get_by_test_id("undo")).to_be_visible()  # the controls are drawn
        expect(page.get_by_test_id("pass")).to_be_hidden()
        assert page.errors == []
    created = host.create("duo", two)
    gid = created["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens_of(created)))
    expect(page.get_by_test_id("pass")).to_be_visible()
    expect(page.get_by_test_id("pass")).to_be_disabled()  # Pia has moves


def test_take_back_says_why_a_rated_game_with_a_clock_takes_none(host, open_page):
    """The host says beforehand that this game takes no takebacks: the button is disabled
    with the game's reason on it, and Z says the reason instead of asking the host."""
    created = host.create("classic-3x3", [{"kind": "local", "name": "Pia"},
                                          {"kind": "local", "name": "Ola"}],
                          game="corners", options=CLOCK)
    gid, tokens = created["id"], tokens_of(created)
    moved = host.move(gid, 1, first_move(host, gid, 1, tokens[1]), tokens[1])
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens))
    asked = []
    page.on("request", lambda r: "/undo" in r.url and asked.append(r.url))
    shown_seq(page, moved["event"]["seq"])
    undo = page.get_by_test_id("undo")
    expect(undo).to_be_disabled()
    reason = "No takebacks in a rated game played with a clock"
    expect(page.get_by_test_id("undo-why")).to_have_text(reason)
    expect(undo).to_have_attribute("aria-label", f"Take back: {reason}")
    page.keyboard.press("z")
    expect(page.get_by_test_id("message")).to_have_text(reason)
    assert asked == []
    screenshot(page, "shell-undo-refused")
    # Without a clock the same variant takes them: the button is live, with no reason.
    free = host.create("classic-3x3", [{"kind": "local", "name": "Pia"},
                                       {"kind": "local", "name": "Ola"}],
                       game="corners", options=NO_CLOCK)
    fid, ftokens = free["id"], tokens_of(free)
    moved = host.move(fid, 1, first_move(host, fid, 1, ftokens[1]), ftokens[1])
    page = open_page("Pixel 7", f"/#/game/{fid}", storage_for(fid, ftokens))
    shown_seq(page, moved["event"]["seq"])
    expect(page.get_by_test_id("undo")).to_be_enabled()
    expect(page.get_by_test_id("undo-why")).to_be_hidden()


def test_a_draw_offer_the_computer_declines_is_said_at_the_table_and_in_the_replay(
        host, open_page):
    """Pia offers the computer a draw: it declines at once, and the table says so until she
    acts again."""
    created = host.create("classic-3x3", [{"kind": "local", "name": "Pia"},
                                          {"kind": "computer", "level": 1}], game="corners")
    gid, tokens = created["id"], tokens_of(created)
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens, "Pia"))
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    page.get_by_test_id("action-offer_draw").tap()
    news = page.get_by_test_id("news")
    expect(news).to_have_text("Computer L1 declined the draw offer.")
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    screenshot(page, "shell-draw-declined")
    # Her move (two taps) is what happens next: the answer is old news, and the computer's
    # reply, a move, is no news.
    seq = page.evaluate("window.ccGame.state.seq")
    tap_move(page, first_move(host, gid, 1, tokens[1]))
    expect(news).to_be_hidden()
    shown_seq(page, seq + 2)  # the computer moved
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (White)")
    expect(news).to_be_hidden()
    # A second offer, after her move: declined again, said again.
    page.get_by_test_id("action-offer_draw").tap()
    expect(news).to_have_text("Computer L1 declined the draw offer.")
    assert page.errors == []


def act(host, gid: str, seat: int, action: str, token: str) -> None:
    r = requests.post(f"{host.url}/api/games/{gid}/actions",
                      json={"seat": seat, "action": action, "seq": host.state(gid)["seq"]},
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code == 201, r.text


def test_the_replay_words_draw_offers_and_counts_as_its_list_and_board_do(host, open_page):
    """Offers and answers are listed in the game's words ("Pia offered a draw"), without a
    number of their own in a list numbered by moves; the counter counts the move in play,
    as the list numbers the moves and the board's own line says."""
    created = host.create("classic-3x3", [{"kind": "local", "name": "Pia"},
                                          {"kind": "local", "name": "Ola"}],
                          game="corners", options=NO_CLOCK)
    gid, tokens = created["id"], tokens_of(created)
    act(host, gid, 1, "offer_draw", tokens[1])
    act(host, gid, 2, "decline_draw", tokens[2])
    for seat in (1, 2):
        host.move(gid, seat, first_move(host, gid, seat, tokens[seat]), tokens[seat])
    act(host, gid, 1, "offer_draw", tokens[1])
    act(host, gid, 2, "decline_draw", tokens[2])

    replay = open_page("Pixel 7", f"/replay.html?game={gid}")
    moves = replay.get_by_test_id("replay-moves")
    expect(moves).to_contain_text("Pia offered a draw")
    expect(moves).to_contain_text("Ola declined the draw offer")
    expect(moves).not_to_contain_text("draw_offered")
    expect(moves).not_to_contain_text("draw_declined")
    expect(moves.get_by_role("button", name=re.compile("^0"))).to_have_count(0)  # no frame numbers
    # Frames: start, offer, decline, Pia's move, Ola's move, offer, decline. The
    # counter counts the move in play, as the list numbers the moves and the board says.
    counter = replay.get_by_test_id("replay-counter")
    expect(counter).to_have_text("Move 2 / 2")
    expect(replay.get_by_test_id("move-number")).to_have_text("Move 2")
    expect(replay.locator("li.rv-pair .rv-number")).to_have_text(["1."])
    replay.get_by_test_id("replay-first").tap()
    expect(counter).to_have_text("Move 1 / 2")
    replay.get_by_test_id("replay-forward").tap()  # Pia's offer: no move made yet
    expect(replay.get_by_test_id("replay-move-1")).to_have_attribute("aria-current", "true")
    expect(counter).to_have_text("Move 1 / 2")
    expect(replay.get_by_test_id("move-number")).to_have_text("Move 1")
    for _ in range(2):  # the decline, then Pia's move: black's first is in play
        replay.get_by_test_id("replay-forward").tap()
    expect(replay.get_by_test_id("replay-move-3")).to_have_attribute("aria-current", "true")
    expect(counter).to_have_text("Move 1 / 2")
    expect(replay.get_by_test_id("move-number")).to_have_text("Move 1")
    replay.get_by_test_id("replay-forward").tap()
    expect(counter).to_have_text("Move 2 / 2")
    expect(replay.get_by_test_id("move-number")).to_have_text("Move 2")
    screenshot(replay, "shell-replay-offer")
    assert replay.errors == []

def test_on_one_phone_the_turn_line_names_the_person_to_move(host, open_page):
    """Two people on one phone: the turn line names whose turn it is and their colour; a
    guest seat nobody named goes by its colour. One player alone: "Your turn (White)"."""
    created = host.create("classic-3x3", [{"kind": "local", "name": "Pia"}, {"kind": "local"}],
                          game="corners", options=NO_CLOCK)
    gid, tokens = created["id"], tokens_of(created)
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens))
    turn = page.get_by_test_id("turn")
    expect(turn).to_have_text("Pia's turn (White) — pass the phone")
    host.move(gid, 1, first_move(host, gid, 1, tokens[1]), tokens[1])
    expect(turn).to_have_text("Black's turn — pass the phone")
    # Corner (marbles), two named people on one phone
    created = host.create("2p", [{"kind": "local", "name": n} for n in ("Ola", "Rik")],
                          game="marbles")
    gid, tokens = created["id"], tokens_of(created)
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens))
    state = host.state(gid)
    seat = state["to_move"]
    name, colour = ("Ola", "Rik")[seat - 1], state["seats"][seat - 1]["colour"].title()
    expect(page.get_by_test_id("turn")).to_have_text(
        f"{name}'s turn ({colour}) — pass the phone")
    # one player at the phone: no name, "Your turn"
    created = host.create("classic-3x3", [{"kind": "local", "name": "Pia"},
                                          {"kind": "computer", "level": 1}],
                          game="corners", options=NO_CLOCK)
    gid, tokens = created["id"], tokens_of(created)
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens, "Pia"))
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^Your turn \(White\)$"))
