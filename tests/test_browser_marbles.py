"""Corner (the marble game) in real Chromium: its board module (client_web/js/boards/marbles.js)
in the table shell — the marbles with their letters, the arrows in their grooves, the lines the
host lists marked on my turn, a tap on a line then on the marble to take it, the keys, the
trays with the points per colour, the rounds; a whole 2-player game against the computer on a
Pixel 7 to the game-over card.
"""

from __future__ import annotations

import json
import re

import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import Finger, screenshot

expect.set_options(timeout=10_000)
# The engine's sample deal, rows 1 to 6.
SETUP = "YYYSYK GWWWBR YSBYRR YGRKGB GYGRKB BWRGRS"


def storage_for(game_id: str, tokens: dict, name: str = "") -> dict:
    data = {"name": name, "games": {game_id: {"seats": {str(k): v for k, v in tokens.items()}}}}
    return {"cornerclaim.v1": json.dumps(data)}


def tokens_of(game: dict) -> dict:
    return {int(k): v for k, v in game["tokens"].items()}


def legal(host, gid: str, seat: int, token: str) -> list[dict]:
    r = requests.get(f"{host.url}/api/games/{gid}/legal", params={"seat": seat},
                     headers={"Authorization": f"Bearer {token}"}, timeout=10)
    r.raise_for_status()
    return r.json()["moves"]


def worth(entry: dict) -> int:
    """How much a take is worth having: its colour's place from the fewest marbles (black,
    never taken) to the most (yellow); an opening placement takes nothing."""
    return "KSWBGRY".find(entry.get("colour", "K"))


def seq_of(page) -> int:
    return page.evaluate("window.ccGame.state.seq")


def centre(page, testid: str) -> tuple[float, float]:
    box = page.get_by_test_id(testid).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def wait_ready(page) -> None:
    expect(page.get_by_test_id("board")).to_have_attribute("data-legal", "ready")


def tap_move(page, entry: dict) -> None:
    """Tap the line in my groove; a placement goes at once, else the marble(s) on that line
    are marked and a tap on the one listed takes it."""
    before = seq_of(page)
    board = page.get_by_test_id("board")
    wait_ready(page)
    page.get_by_test_id(f"line-{entry['line']}").tap()
    if entry["move"] != entry["line"]:
        expect(board).to_have_attribute("data-line", entry["line"])
        expect(page.get_by_test_id(f"cell-{entry['move']}")).to_have_attribute("data-take", "true")
        assert seq_of(page) == before  # the line alone only shows the marble
        page.get_by_test_id(f"cell-{entry['move']}").tap()
    page.wait_for_function(f"() => ccGame.board && ccGame.state.seq > {before}")


def test_a_whole_game_against_the_computer_by_tapping(host, open_page):
    """A 1-round game dealt the sample setup, me red (seat 1) against computer level 1: every
    move picked from the host's legal list and made by tapping the line, then the marble."""
    game = host.create("2p", [{"kind": "local", "name": "Mira"}, {"kind": "computer", "level": 1}],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, token = game["id"], tokens_of(game)[1]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: token}))
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^Your turn"))
    board = page.get_by_test_id("board")
    # The deal: every cell's marble with its letter; black marked as untakeable.
    expect(page.locator("[data-testid=board] .mb-marble")).to_have_count(36)
    expect(page.get_by_test_id("cell-a1")).to_have_attribute("data-marble", "Y")
    expect(page.get_by_test_id("cell-a1")).to_have_text("Y")
    expect(page.get_by_test_id("cell-f1")).to_have_attribute(
        "aria-label", re.compile("black, cannot be taken"))
    expect(page.get_by_test_id("round-number")).to_have_text("Round 1 of 1")
    expect(page.get_by_test_id("score-table")).to_contain_text("24")
    # The opening: all six columns marked in my (bottom) groove.
    wait_ready(page)
    expect(board).to_have_attribute("data-lines", "a b c d e f")
    expect(board).to_have_attribute("data-opening", "true")
    expect(page.locator("[data-testid=board] .mb-slot.legal")).to_have_count(6)
    screenshot(page, "marbles-opening")

    moves = 0
    for _ in range(60):
        expect(page.get_by_test_id("turn")).to_have_text(
            re.compile(r"^(Your turn|Game over)"), timeout=20_000)
        if page.get_by_test_id("turn").inner_text().startswith("Game over"):
            break
        entries = legal(host, gid, 1, token)
        assert entries, "my turn with nothing legal"
        # The marble worth the most points for me (ties: the host's first).
        entry = max(entries, key=lambda m: "KSWBGRY".find(m.get("colour", "K")))
        tap_move(page, entry)
        moves += 1
        if moves == 1:
            expect(page.get_by_test_id("line-" + entry["line"]).locator(".arrow")).to_have_count(1)
        if moves == 3:
            state = host.state(gid)
            red = state["board"]["sides"]["red"]
            expect(page.get_by_test_id("tray-red-total")).to_have_text(str(red["total"]))
            screenshot(page, "marbles-mid-game")
    expect(page.get_by_test_id("gameover")).to_be_visible(timeout=20_000)
    final = host.state(gid)
    assert final["result"] is not None and moves > 3
    done = final["board"]["rounds"]
    assert len(done) == 1
    expect(page.get_by_test_id("round-1")).to_have_text(
        f"Round 1: Red {done[0]['scores']['red']} · Yellow {done[0]['scores']['yellow']}")
    screenshot(page, "marbles-game-over")
    assert page.errors == []

    # The replay: the deal and the moves as the board module names them, each frame drawn.
    first = final_moves(host, gid)[0]
    page.get_by_test_id("replay-viewer").tap()
    moves_list = page.get_by_test_id("replay-moves")
    expect(moves_list).to_contain_text("Round 1 dealt")
    expect(moves_list).to_contain_text(f"{first} (placed)")
    expect(page.get_by_test_id("replay-board").locator(".mb-marble").first).to_be_visible()
    screenshot(page, "marbles-replay")
    assert page.errors == []


# The four friends' game: Rolf leaves at his first turn after this many moves by hand.
ROLF_LEAVES_AFTER = 24


def friend_picks(seat: int, entries: list[dict]) -> dict:
    """The move a friend makes: Rolf the marble least worth having, the others the most."""
    return (min if seat == 3 else max)(entries, key=worth)


def test_red_wins_whatever_the_computer_plays_for_rolf():
    """The four friends' game below, played through the rules with every move the computer
    could make for Rolf once he has left: red wins each way, so the browser test's result does
    not hang on the computer's seed (which comes from the game's random id)."""
    from engine.marbles.rules import RULES, start_state

    def play(state, seat, entry):
        return RULES.apply(state, RULES.play_move(state, seat,
                                                  RULES.check_move(state, seat, entry["move"])))

    endings, computer_moves = [], set()
    todo = [(start_state("4p", SETUP, rounds=1), False, 0, 0)]
    while todo:
        state, left, by_hand, by_computer = todo.pop()
        if RULES.is_over(state):
            endings.append(state.totals())
            computer_moves.add(by_computer)
            continue
        seat = RULES.to_move(state)
        if seat == 3 and not left and by_hand >= ROLF_LEAVES_AFTER:
            todo.append((RULES.apply(state, RULES.leave(state, 3)), True, by_hand, 0))
        elif seat == 3 and left:
            todo += [(play(state, 3, e), True, by_hand, by_computer + 1)
                     for e in RULES.legal(state, 3)]
        else:
            todo.append((play(state, seat, friend_picks(seat, RULES.legal(state, seat))),
                         left, by_hand + 1, by_computer))
    assert len(endings) > 1 and computer_moves == {2}
    assert all(red > yellow for red, yellow in endings), endings


def test_a_whole_four_player_game_on_one_phone_with_a_leaver(host, open_page):
    """Four friends pass one Pixel 7 round a one-round team game, each move tapped from the
    host's legal list. Rolf (seat 3, red) has to go: the leave dialog says the computer will
    play his seat, his card says so from then on, and the computer plays his turns to the
    end. The friends play as `friend_picks` says, so red wins as a team whatever the computer
    plays (`test_red_wins_whatever_the_computer_plays_for_rolf`), but Rolf, who left, cannot
    win: the card and the replay say so word for word."""
    names = ("Rita", "Yuki", "Rolf", "Yara")
    game = host.create("4p", [{"kind": "local", "name": n} for n in names], game="marbles",
                       options={"rounds": 1, "setups": [SETUP]})
    gid, tokens = game["id"], tokens_of(game)
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens))
    expect(page.get_by_test_id("round-number")).to_have_text("Round 1 of 1")
    left = False
    seats_moved = []
    for _ in range(80):
        state = host.state(gid)
        if state["status"] == "finished":
            break
        # the phone shows the position the host is at (a computer's move may be on its way)
        page.wait_for_function(f"() => ccGame.board && ccGame.state.seq >= {state['seq']}")
        seat = state["to_move"]
        if seat == 3 and not left and len(seats_moved) >= ROLF_LEAVES_AFTER:
            wait_ready(page)
            page.get_by_test_id("leave").tap()
            expect(page.get_by_test_id("leave-text")).to_contain_text(
                "The computer plays your seat")
            page.get_by_test_id("leave-confirm").tap()
            expect(page.get_by_test_id("marbles-detail-3")).to_contain_text(
                "played by the computer")
            left = True
            continue
        if seat == 3 and left:  # the computer's turn: wait for its move
            page.wait_for_function(f"() => ccGame.board && ccGame.state.seq > {state['seq']}",
                                   timeout=20_000)
            seats_moved.append(3)
            continue
        entries = legal(host, gid, seat, tokens[seat])
        assert entries, f"seat {seat} to move with nothing legal"
        tap_move(page, friend_picks(seat, entries))
        seats_moved.append(seat)
    final = host.state(gid)
    assert final["status"] == "finished" and left
    assert {1, 2, 3, 4} <= set(seats_moved) and seats_moved.count(3) >= 2
    three = final["seats"][2]
    assert (three["kind"], three["left"]) == ("computer", True)
    expect(page.get_by_test_id("gameover")).to_be_visible(timeout=20_000)
    done = final["board"]["rounds"][0]["scores"]
    expect(page.get_by_test_id("round-1")).to_have_text(
        f"Round 1: Red {done['red']} · Yellow {done['yellow']}")
    # Red won as a team; Rolf left, so his result is a loss with no match points.
    red, yellow = final["board"]["team_scores"]["red"], final["board"]["team_scores"]["yellow"]
    ending = f"Red wins {red}–{yellow} after 1 round"
    assert red > yellow and final["result"]["ending"] == ending
    assert final["result"]["results"] == ["win", "loss", "loss", "loss"]
    expect(page.get_by_test_id("turn")).to_have_text("Game over — Red wins: Rita; Rolf left")
    expect(page.get_by_test_id("gameover-title")).to_have_text("Red wins: Rita; Rolf left")
    expect(page.get_by_test_id("gameover-ending")).to_have_text(ending)
    rows = {1: ("Rita", red, "win", "+2"), 2: ("Yuki", yellow, "loss", "+0"),
            3: ("Rolf", red, "loss (left)", "+0"), 4: ("Yara", yellow, "loss", "+0")}
    for seat, (name, score, result, points) in rows.items():
        expect(page.get_by_test_id(f"final-{seat}").locator("td")).to_have_text(
            [re.compile(f"{name}$"), str(score), result, points])
    screenshot(page, "marbles-four-players-over")
    assert page.errors == []

    # The replay: the same result and the same words.
    page.get_by_test_id("replay-viewer").tap()
    expect(page.get_by_test_id("replay-result")).to_have_text(
        "Game over: Red wins: Rita; Rolf left")
    expect(page.get_by_test_id("replay-ending")).to_have_text(ending)
    expect(page.get_by_test_id("replay-seat-3")).to_have_text(re.compile(r"Rolf: \d+ \(left\)$"))
    assert page.errors == []


def final_moves(host, gid: str) -> list[str]:
    r = requests.get(f"{host.url}/api/games/{gid}/replay", timeout=10)
    r.raise_for_status()
    return [f["move"] for f in r.json()["frames"] if f.get("kind") == "move"]


def test_the_keys_choose_a_line_and_take(host, open_page):
    """Desktop: the arrow keys move my arrow over the lines the host lists, Enter places or
    takes; in the 4-player game Tab switches between the two marbles a line crosses."""
    game = host.create("2p", [{"kind": "local", "name": "Kai"}, {"kind": "computer", "level": 1}],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, token = game["id"], tokens_of(game)[1]
    page = open_page("desktop", f"/#/game/{gid}", storage_for(gid, {1: token}))
    board = page.get_by_test_id("board")
    wait_ready(page)
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-line", "a")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-line", "c")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.ccGame.state.board.arrows[0].line === 'c'")
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^Your turn"), timeout=20_000)
    wait_ready(page)
    yellow = host.state(gid)["board"]["arrows"][1]["line"]
    # The hint: the host's move, its line chosen and its marble ready.
    page.get_by_test_id("hint").click()
    expect(board).to_have_attribute("data-focus", re.compile(r"^[a-f][1-6]$"))
    page.keyboard.press("Escape")
    expect(board).to_have_attribute("data-line", "")
    page.keyboard.press("ArrowLeft")  # from c to b
    expect(board).to_have_attribute("data-line", "b")
    expect(board).to_have_attribute("data-takes", f"b{yellow}")
    before = seq_of(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => ccGame.board && ccGame.state.seq > {before}")
    assert host.state(gid)["board"]["arrows"][0]["line"] == "b"

    # Four players on one phone: seat 4's first move may take at either red arrow.
    game = host.create("4p", [{"kind": "local", "name": n} for n in ("A", "B", "C", "D")],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, tokens = game["id"], tokens_of(game)
    for seat, pick in ((1, "a"), (2, "4"), (3, "f")):
        entries = legal(host, gid, seat, tokens[seat])
        move = next(e["move"] for e in entries if pick in (None, e["line"]))
        host.move(gid, seat, move, tokens[seat])
    entries = legal(host, gid, 4, tokens[4])
    by_line: dict[str, list[str]] = {}
    for e in entries:
        by_line.setdefault(e["line"], []).append(e["move"])
    line, cells = next((k, v) for k, v in by_line.items() if len(v) == 2)
    page = open_page("desktop", f"/#/game/{gid}", storage_for(gid, tokens))
    board = page.get_by_test_id("board")
    wait_ready(page)
    page.get_by_test_id(f"line-{line}").click()
    expect(board).to_have_attribute("data-takes", " ".join(cells))
    expect(board).to_have_attribute("data-focus", cells[0])
    page.keyboard.press("Tab")
    expect(board).to_have_attribute("data-focus", cells[1])
    before = seq_of(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => ccGame.board && ccGame.state.seq > {before}")
    assert host.state(gid)["last_move"]["move"] == cells[1]
    assert page.errors == []


def test_between_rounds_the_summary_and_the_new_deal(host, open_page):
    """Round 1 played over REST on a hot-seat phone; at round 2's start (nothing taken yet)
    the summary gives round 1's scores, the totals and who starts the new deal."""
    game = host.create("2p", [{"kind": "local", "name": "Ola"}, {"kind": "local", "name": "Pia"}],
                       game="marbles", options={"rounds": 2, "setups": [SETUP]})
    gid, tokens = game["id"], tokens_of(game)
    for _ in range(40):
        board = host.state(gid)["board"]
        if board["rounds"]:
            break
        seat = board["to_move"]
        host.move(gid, seat, legal(host, gid, seat, tokens[seat])[0]["move"], tokens[seat])
    board = host.state(gid)["board"]
    (done,) = board["rounds"]
    assert board["round"] == 2 and board["to_move"] == 2
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, tokens))
    summary = page.get_by_test_id("round-summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text(
        f"Round 1 over: Red {done['scores']['red']}, Yellow {done['scores']['yellow']}")
    expect(summary).to_contain_text("Round 2 dealt: Yellow starts")
    expect(page.get_by_test_id("round-number")).to_have_text("Round 2 of 2")
    expect(page.get_by_test_id("round-1")).to_be_visible()
    # Yellow opens round 2 on a row, in the left groove; then the summary goes.
    wait_ready(page)
    expect(page.get_by_test_id("board")).to_have_attribute("data-lines", "1 2 3 4 5 6")
    before = seq_of(page)
    page.get_by_test_id("line-3").tap()
    page.wait_for_function(f"() => ccGame.board && ccGame.state.seq > {before}")
    assert host.state(gid)["board"]["arrows"][1]["line"] == "3"
    wait_ready(page)
    # Red slides a finger along its groove to the line, then taps the marble ringed there.
    entry = next(e for e in legal(host, gid, 1, tokens[1]) if e["line"] != "a")
    finger = Finger(page)
    finger.down(*centre(page, "line-a"))
    finger._at = centre(page, "line-a")
    finger.move(*centre(page, f"line-{entry['line']}"))
    finger.up()
    board = page.get_by_test_id("board")
    expect(board).to_have_attribute("data-line", entry["line"])
    expect(board).to_have_attribute("data-takes", entry["move"])
    before = seq_of(page)
    # A tap straight after the synthetic slide is read by Chromium as part of that gesture.
    page.wait_for_timeout(600)
    page.get_by_test_id(f"cell-{entry['move']}").tap()
    page.wait_for_function(f"() => ccGame.board && ccGame.state.seq > {before}")
    assert host.state(gid)["last_move"]["move"] == entry["move"]
    expect(summary).to_be_hidden()
    screenshot(page, "marbles-round-2")
    assert page.errors == []


def test_the_lobby_starts_a_game_of_corner(host, open_page):
    """The lobby's game picker offers Corner; its 2-player variant against the computer opens
    the table with the board module drawn."""
    assert "marbles" in [g["game"] for g in host.catalog()]
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("your-name").fill("Lou")
    page.get_by_test_id("pick-game-marbles").click()
    page.get_by_test_id("variant-2p").tap()
    page.get_by_test_id("seat-kind-2").select_option("computer")
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^Your turn"))
    expect(page.locator("[data-testid=board] .mb-marble")).to_have_count(36)
    wait_ready(page)
    expect(page.get_by_test_id("board")).to_have_attribute("data-lines", "a b c d e f")
    assert page.errors == []
