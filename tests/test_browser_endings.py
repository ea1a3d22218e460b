"""The end of a game on a phone, in real Chromium against a live host: the game-over card of
a game played to its end, of one the host closed (no winner, the scores as they stood), and
the host seating a computer for the opponent who never came."""

from __future__ import annotations

import json
import re

import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot

expect.set_options(timeout=10_000)


def phone_of(game: dict, *, host_token: bool = False) -> dict:
    """localStorage of the phone that created `game` (its seats, and the host token)."""
    entry = {"seats": dict(game["tokens"])} | ({"host": game["host_token"]} if host_token else {})
    return {"cornerclaim.v1": json.dumps({"name": "", "games": {game["id"]: entry}})}


def ann_and_bo(host) -> dict:
    game = host.create("duo", [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}])
    host.move(game["id"], 1, "e10", game["tokens"]["1"])
    host.move(game["id"], 2, "j5", game["tokens"]["2"])
    return game


def test_the_card_of_a_game_played_to_its_end_names_the_winner(host, open_page):
    game = ann_and_bo(host)
    gid = game["id"]
    r = requests.post(f"{host.url}/api/games/{gid}/leave", json={"seat": 2}, timeout=10,
                      headers={"Authorization": f"Bearer {game['tokens']['2']}"})
    assert r.status_code == 200, r.text
    page = open_page("Pixel 7", f"/#/game/{gid}", phone_of(game))
    expect(page.get_by_test_id("turn")).to_have_text("Game over — Ann wins")
    card = page.get_by_test_id("gameover")
    expect(page.get_by_test_id("gameover-title")).to_have_text("Ann wins")
    expect(page.get_by_test_id("final-1")).to_contain_text("win")
    expect(page.get_by_test_id("final-1")).to_contain_text("+22")
    expect(page.get_by_test_id("final-2")).to_contain_text("loss")
    expect(page.get_by_test_id("final-2")).to_contain_text("+3")
    expect(page.get_by_test_id("gameover-note")).to_have_count(0)
    expect(card).to_have_attribute("data-reason", "resigned")
    assert page.errors == []


def test_the_card_of_a_closed_game_names_no_winner_and_keeps_the_scores(host, open_page):
    game = ann_and_bo(host)
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", phone_of(game, host_token=True))
    expect(page.get_by_test_id("turn")).to_have_text("Ann's turn (Blue) — pass the phone")
    r = requests.post(f"{host.url}/api/games/{gid}/close", timeout=10,
                      headers={"Authorization": f"Bearer {game['host_token']}"})
    assert r.status_code == 200, r.text
    scores = [s["score"] for s in r.json()["seats"]]
    # The phone hears it over its socket: the host closed the game, and nobody won it.
    expect(page.get_by_test_id("turn")).to_have_text("The host closed this game")
    card = page.get_by_test_id("gameover")
    expect(card).to_have_attribute("data-reason", "closed")
    expect(page.get_by_test_id("gameover-title")).to_have_text("The host closed this game")
    expect(page.get_by_test_id("gameover-note")).to_contain_text("nobody wins")
    for seat, score in ((1, scores[0]), (2, scores[1])):
        row = page.get_by_test_id(f"final-{seat}")
        name = re.compile(f"{('Ann', 'Bo')[seat - 1]}$")  # after the colour's mark
        expect(row.locator("td")).to_have_text([name, str(score), "—", "—"])
    expect(card).not_to_contain_text("+")  # no match points for anybody
    screenshot(page, "game-over-closed")

    page.get_by_test_id("replay-viewer").click()
    expect(page.get_by_test_id("replay-result")).to_have_text(
        "The host closed this game: nobody won, nothing counts")
    expect(page.get_by_test_id("replay-counter")).to_have_text("Move 3 / 3")
    expect(page.get_by_test_id("replay-move-3")).to_contain_text("The host closed the game")
    assert page.errors == []


def test_the_host_closes_a_game_from_the_phone(host, open_page):
    game = ann_and_bo(host)
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", phone_of(game, host_token=True))
    page.get_by_test_id("close-game").tap()
    expect(page.get_by_test_id("close-text")).to_contain_text("nobody wins")
    page.get_by_test_id("close-confirm").tap()
    expect(page.get_by_test_id("gameover-title")).to_have_text("The host closed this game")
    expect(page.get_by_test_id("close-game")).to_be_hidden()
    assert host.state(gid)["result"]["reason"] == "closed"
    watcher = open_page("Pixel 7", f"/#/game/{gid}/watch")  # a phone without the host token
    expect(watcher.get_by_test_id("turn")).to_have_text("The host closed this game")
    expect(watcher.get_by_test_id("close-game")).to_be_hidden()
    assert page.errors == [] and watcher.errors == []


def test_the_host_seats_a_computer_for_the_opponent_who_never_came(host, open_page):
    game = host.create("duo", [{"kind": "local", "name": "Ann"}, {"kind": "open"}])
    gid = game["id"]
    page = open_page("Pixel 7", f"/#/game/{gid}", phone_of(game, host_token=True))
    expect(page.get_by_test_id("turn")).to_have_text("Waiting for 1 more player")
    expect(page.get_by_test_id("declare-left-2")).to_have_count(0)  # no free win
    expect(page.get_by_test_id("close-game")).to_have_text("Cancel game")
    page.get_by_test_id("seat-computer-2").tap()
    expect(page.get_by_test_id("seat-name-label-2")).to_have_text("Computer L1")
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    assert host.state(gid)["seats"][1]["kind"] == "computer"
    assert page.errors == []


def test_a_phone_holding_both_seats_takes_back_at_once(host, open_page):
    """Ann's phone created a Duo (seat 1) and claimed its open seat 2 for her sister: when
    Ann takes back her move, the phone's other seat is not asked to allow it."""
    game = host.create("duo", [{"kind": "local", "name": "Ann"}, {"kind": "open"}])
    gid = game["id"]
    sis = host.claim(gid, 2, "Sis")
    host.move(gid, 1, "e10", game["tokens"]["1"])
    tokens = {**game, "tokens": {"1": game["tokens"]["1"], "2": sis}}
    page = open_page("Pixel 7", f"/#/game/{gid}", phone_of(tokens))
    expect(page.get_by_test_id("cell-e10")).to_have_class(re.compile(r"\bo-blue\b"))
    page.get_by_test_id("undo").tap()
    page.wait_for_function("() => ccGame.board && ccGame.state.seq === 3")
    state = host.state(gid)
    assert state["last_move"] is None or state["last_move"]["seat"] != 1
    assert state["undo_request"] is None
    expect(page.get_by_test_id("undo-request")).to_have_count(0)
    assert page.errors == []
