"""Corners on the host, through the same REST, socket, store, clock and bot pool as every game:
created with or without a clock, played to the end by phones and by a computer seat, a flag
that falls with nobody connected, a clock across a restart, resigning, draw offers, refusals
that change nothing, the catalog and `cornerclaim perft`."""

from __future__ import annotations

import random
import time

import pytest
import requests

from engine.core import Game
from engine.corners import perft as corners_perft
from server.cli import main as cli_main
from server.host import host_of
from tests.rest_calls import events, legal, new_game, play, state
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, wait_for
from tests.test_api import assert_error
from tests.test_realtime import Phone

TWO = [{"kind": "local", "name": "Wanda"}, {"kind": "local", "name": "Boris"}]
VARIANTS = ["classic-3x3", "classic-3x4", "diagonal-3x3", "diagonal-3x4", "triangle", "4x4",
            "halma-16x16"]
ACTIONS = ["resign", "offer_draw", "accept_draw", "decline_draw"]


def new_corners(client, variant: str = "classic-3x3", seats=None, **extra) -> dict:
    return new_game(client, "corners", variant, seats or TWO, **extra)


def act(client, gid, seat, action, seq, token):
    return client.post(f"/api/games/{gid}/actions",
                       json={"seat": seat, "action": action, "seq": seq},
                       headers=bearer(token))


def played(client, g, *moves: str) -> int:
    """Play `moves` in turn from seat 1 (or whoever is to move); the seq after them."""
    gid = g["id"]
    for text in moves:
        s = state(client, gid)
        seat = s["to_move"]
        r = play(client, gid, seat, text, s["seq"], g["tokens"][str(seat)])
        assert r.status_code == 201, r.json
    return state(client, gid)["seq"]


# -- the catalog and creating ------------------------------------------------------------------


def test_the_catalog_lists_corners_with_its_variants_options_and_actions(client):
    games = {g["game"]: g for g in client.get("/api/catalog").json["games"]}
    c = games["corners"]
    assert c["title"] == "Corners" and c["board_url"] == "/boards/corners.js"
    assert [v["name"] for v in c["variants"]] == VARIANTS
    # two seats, or one: the solo race
    assert all(v["seats"] == [2, 1] and v["colours"] == ["white", "black"]
               for v in c["variants"])
    assert {v["name"] for v in c["variants"] if v["rated"]} == {
        "classic-3x3", "classic-3x4", "diagonal-3x3"}
    reserve, increment, practice, setup = c["variants"][0]["options"]
    assert (practice["name"], practice["kind"], setup["name"], setup["kind"]) == (
        "practice", "bool", "setup", "text")
    assert (reserve["name"], reserve["default"], reserve["computer_default"]) == (
        "reserve_s", 300, 0)
    assert (increment["name"], increment["default"]) == ("increment_s", 3)
    assert "computer_default" not in increment
    assert c["actions"] == ACTIONS and c["legal_query"] == "from" and c["hint"] is True
    assert [lv["number"] for lv in c["levels"]] == [1, 2, 3, 4]
    assert all("computer_default" not in o for v in games["cornerclaim"]["variants"]
               for o in v["options"])


@pytest.mark.parametrize("seats, extra, options", [
    (TWO, {}, {"reserve_s": 300, "increment_s": 3}),
    (TWO, {"clock": {"reserve_s": 60, "increment_s": 1}}, {"reserve_s": 60, "increment_s": 1}),
    (TWO, {"clock": {"reserve_s": 60}}, {"reserve_s": 60, "increment_s": 3}),
    (TWO, {"clock": None}, {"reserve_s": 0, "increment_s": 3}),
    (TWO, {"options": {"reserve_s": 10, "increment_s": 0}}, {"reserve_s": 10, "increment_s": 0}),
    # against the computer the default is no clock; a clock asked for is kept
    ([TWO[0], {"kind": "computer", "level": 1}], {}, {"reserve_s": 0, "increment_s": 3}),
    ([{"kind": "computer", "level": 1}, TWO[1]], {"clock": {"reserve_s": 120}},
     {"reserve_s": 120, "increment_s": 3}),
    ([TWO[0], {"kind": "computer"}], {"options": {"reserve_s": 30}},
     {"reserve_s": 30, "increment_s": 3}),
])
def test_the_clock_is_set_by_clock_or_options_and_is_off_against_the_computer(
        make_app, seats, extra, options):
    client = make_app(START_BOTS=False).test_client()
    g = new_corners(client, seats=seats, **extra)
    s = state(client, g["id"])
    assert {k: s["options"][k] for k in options} == options
    assert (s["options"]["practice"], s["practice"]) == (False, False)
    clock = s["board"]["clock"]
    if options["reserve_s"]:
        assert clock == {"reserve_ms": options["reserve_s"] * 1000,
                         "increment_ms": options["increment_s"] * 1000,
                         "remaining_ms": [options["reserve_s"] * 1000] * 2,
                         "running": None, "running_since_ms": None}
    else:
        assert clock is None


@pytest.mark.parametrize("body, code", [
    ({"game": "cornerclaim", "variant": "duo", "clock": None}, "bad_option"),
    ({"game": "cornerclaim", "variant": "duo", "clock": {"reserve_s": 60}}, "bad_option"),
    ({"game": "corners", "variant": "classic-3x3", "clock": {"reserve_s": -1}},
     "invalid_request"),
    ({"game": "corners", "variant": "classic-3x3", "clock": {"reserve_s": 99999}},
     "bad_option"),
    ({"game": "corners", "variant": "classic-3x3", "clock": {"increment_s": 2}},
     "invalid_request"),
    ({"game": "corners", "variant": "classic-3x3", "clock": {"reserve_s": 60, "x": 1}},
     "invalid_request"),
    ({"game": "corners", "variant": "classic-3x3", "clock": {"reserve_s": 60},
      "options": {"reserve_s": 30}}, "invalid_request"),
    ({"game": "corners", "variant": "halma-8x8"}, "no_such_variant"),
    ({"game": "corners", "variant": "classic-3x3", "options": {"reserve_s": "5"}}, "bad_option"),
])
def test_a_bad_clock_or_variant_is_refused(client, body, code):
    assert_error(client.post("/api/games", json={"seats": TWO, **body}), 422, code)
    assert client.get("/api/games").json["games"] == []


# -- whole games -------------------------------------------------------------------------------


def test_a_whole_game_between_two_phones_over_rest(make_app):
    client = make_app(WRITE_RATE=None).test_client()  # moves as fast as the test plays
    g = new_corners(client, clock={"reserve_s": 600, "increment_s": 5})
    gid, tokens = g["id"], g["tokens"]
    s = state(client, gid)
    assert (s["game"], s["variant"], s["status"], s["to_move"]) == (
        "corners", "classic-3x3", "running", 1)
    assert [seat["colour"] for seat in s["seats"]] == ["white", "black"]
    assert [seat["actions"] for seat in s["seats"]] == [["resign", "offer_draw"]] * 2
    assert s["board"]["rows"][7][:3] == [1, 1, 1] and s["board"]["rows"][0][5:] == [2, 2, 2]
    assert {m["move"] for m in legal(client, gid, 1, "c3")} == {"c3-d3", "c3-c4"}
    assert legal(client, gid, 2) == []
    hint = client.get(f"/api/games/{gid}/hint?seat=1", headers=bearer(tokens["1"]))
    assert hint.status_code == 200 and hint.json["move"] in {
        m["move"] for m in legal(client, gid, 1)}

    rng = random.Random(5)
    seq = 1
    while True:
        s = state(client, gid)
        assert s["seq"] == seq
        if s["status"] == "finished":
            break
        seat = s["to_move"]
        moves = legal(client, gid, seat)
        safe = [m for m in moves if not m.get("loses")] or moves
        choice = rng.choice(safe)
        r = play(client, gid, seat, choice["move"], seq, tokens[str(seat)])
        assert r.status_code == 201, r.json
        assert r.json["event"]["type"] == "corners_moved" and r.json["event"]["seat"] == seat
        assert r.json["event"]["move"] == choice["move"]
        seq += 1
        assert seq < 400
    assert s["to_move"] is None and s["board"]["status"] == s["result"]["reason"]
    assert s["result"]["reason"] in {"target", "deadline", "home_return", "move_limit",
                                     "repetition", "no_move"}
    assert [seat["actions"] for seat in s["seats"]] == [[], []]
    assert s["board"]["clock"]["running"] is None
    assert legal(client, gid, 1) == legal(client, gid, 2) == []
    log = Game.from_json(client.get(f"/api/games/{gid}/replay.json").data)
    assert log.seq == seq and log.rules.game == "corners"
    # the ladder has the rated game
    players = client.get("/api/players?game=corners").json
    assert {p["name"] for p in players["players"]} == {"Wanda", "Boris"}


def test_a_computer_seat_plays_a_phone_to_the_end_over_the_socket(live):
    host = live(WRITE_RATE=None)  # the phone moves as fast as the computer answers
    g = requests.post(f"{host.url}/api/games", json={
        "game": "corners", "variant": "triangle",
        "seats": [{"kind": "local", "name": "Wanda"}, {"kind": "computer", "level": 1}]}).json()
    gid, token = g["id"], g["tokens"]["1"]
    phone = Phone(host.url)
    try:
        joined = phone.call("join", {"game_id": gid, "last_seq": 0, "tokens": [token]})
        assert joined["ok"] and joined["seats"] == [1]
        s = joined["state"]
        assert s["options"]["reserve_s"] == 0 and s["board"]["clock"] is None
        assert s["seats"][1]["kind"] == "computer" and s["seats"][1]["actions"] == []
        rng = random.Random(3)
        while s["status"] != "finished":
            if s["to_move"] == 1:
                moves = requests.get(f"{host.url}/api/games/{gid}/legal?seat=1").json()["moves"]
                safe = [m for m in moves if not m.get("loses")] or moves
                r = phone.call("move", {"game_id": gid, "seat": 1, "seq": s["seq"],
                                        "move": rng.choice(safe)["move"], "token": token})
                assert r["ok"] and r["event"]["type"] == "corners_moved", r
            pushed = phone.next("event")
            assert pushed["event"]["seq"] == s["seq"] + 1
            s = pushed["state"]
        assert len(phone.seen) == s["seq"] - 1 and phone.seen == list(range(2, s["seq"] + 1))
        computer = [e for e in requests.get(f"{host.url}/api/games/{gid}/events").json()["events"]
                    if e.get("seat") == 2]
        assert computer and all(e["type"] == "corners_moved" for e in computer)
        assert s["result"]["reason"] != "playing"
    finally:
        phone.close()


# -- the clock ---------------------------------------------------------------------------------


def test_a_flag_falls_with_nobody_connected(client):
    g = new_corners(client, clock={"reserve_s": 1, "increment_s": 0})
    gid = g["id"]
    assert played(client, g, "c3-d3") == 2  # white's first move is free; black's clock runs
    s = state(client, gid)
    assert s["board"]["clock"]["running"] == 2
    assert s["board"]["clock"]["running_since_ms"] == events(client, gid, 1)[0]["at_ms"]
    s = wait_for(lambda: (lambda s: s if s["status"] == "finished" else None)(
        state(client, gid)), "black's flag to fall")
    flag = events(client, gid, 2)
    assert [(e["type"], e["seq"], e["seat"]) for e in flag] == [("corners_flag_fell", 3, 2)]
    assert flag[0]["at_ms"] >= s["board"]["clock"]["reserve_ms"] + events(client, gid, 1)[0][
        "at_ms"]
    assert s["result"]["reason"] == "timeout" and s["result"]["winners"] == [1]
    assert s["board"]["clock"]["remaining_ms"] == [1000, 0]
    assert s["board"]["clock"]["running"] is None
    assert_error(play(client, gid, 2, "f6-e6", 3, g["tokens"]["2"]), 409, "game_over")


def test_a_command_after_the_deadline_commits_the_flag_first(make_app):
    app = make_app()
    client = app.test_client()
    g = new_corners(client, clock={"reserve_s": 1, "increment_s": 0})
    gid = g["id"]
    played(client, g, "c3-d3")
    host_of(app).service.stop()  # no timer fires: the next command must see the flag
    deadline = (events(client, gid, 1)[0]["at_ms"] + 1000) / 1000
    wait_for(lambda: time.time() > deadline + 0.05, "black's time to run out")
    assert state(client, gid)["status"] == "running"  # nothing noticed it yet
    assert_error(play(client, gid, 2, "f6-e6", 2, g["tokens"]["2"]), 409, "game_over")
    assert [e["type"] for e in events(client, gid, 2)] == ["corners_flag_fell"]
    assert state(client, gid)["result"]["reason"] == "timeout"


def test_the_clock_survives_a_host_restart_without_charging_the_downtime(make_app):
    first = make_app()
    c1 = first.test_client()
    g = new_corners(c1, clock={"reserve_s": 300, "increment_s": 3})
    gid = g["id"]
    played(c1, g, "c3-d3", "f6-e6")  # white's clock runs since black's move
    before = state(c1, gid)["board"]["clock"]
    black_at = events(c1, gid, 2)[0]["at_ms"]
    assert before["running"] == 1 and before["running_since_ms"] == black_at
    host_of(first).service.stop()  # the host goes down
    wait_for(lambda: time.time() * 1000 > black_at + 1000, "a second of downtime")

    second = make_app()  # a new host on the same data dir
    c2 = second.test_client()
    resumed = events(c2, gid, 3)
    assert [(e["type"], e["seq"]) for e in resumed] == [("corners_clock_resumed", 4)]
    resumed_at = resumed[0]["at_ms"]
    assert resumed_at >= black_at + 1000
    after = state(c2, gid)["board"]["clock"]
    assert after["remaining_ms"] == before["remaining_ms"]  # the downtime is not charged
    assert after["running"] == 1 and after["running_since_ms"] == resumed_at

    r = play(c2, gid, 1, "d3-e3", 4, g["tokens"]["1"])
    assert r.status_code == 201, r.json
    moved_at = r.json["event"]["at_ms"]
    clock = state(c2, gid)["board"]["clock"]
    assert clock["remaining_ms"][0] == before["remaining_ms"][0] - (moved_at - resumed_at) + 3000
    assert clock["running"] == 2 and clock["running_since_ms"] == moved_at


def test_a_game_without_a_clock_is_not_resumed(make_app):
    c1 = make_app().test_client()
    g = new_corners(c1, clock=None)
    played(c1, g, "c3-d3", "f6-e6")
    c2 = make_app().test_client()
    assert events(c2, g["id"], 3) == []


# -- actions -----------------------------------------------------------------------------------


def test_resigning_ends_the_game_for_the_other_side(client):
    g = new_corners(client)
    gid = g["id"]
    seq = played(client, g, "c3-d3")
    r = act(client, gid, 1, "resign", seq, g["tokens"]["1"])  # not white's turn: still allowed
    assert r.status_code == 201, r.json
    event = r.json["event"]
    assert (event["type"], event["seq"], event["seat"]) == ("corners_resigned", 3, 1)
    s = state(client, gid)
    assert s["status"] == "finished" and s["result"]["reason"] == "resigned"
    assert s["result"]["winners"] == [2] and s["result"]["results"] == ["loss", "win"]
    assert [seat["actions"] for seat in s["seats"]] == [[], []]
    assert s["board"]["clock"]["running"] is None
    assert_error(act(client, gid, 2, "resign", 3, g["tokens"]["2"]), 409, "game_over")


def test_a_draw_offer_is_declined_over_rest_then_accepted_over_the_socket(live):
    host = live()
    g = requests.post(f"{host.url}/api/games", json={"game": "corners",
                                                     "variant": "classic-3x3",
                                                     "seats": TWO}).json()
    gid, t1, t2 = g["id"], g["tokens"]["1"], g["tokens"]["2"]
    white, black = Phone(host.url), Phone(host.url)
    try:
        assert white.call("join", {"game_id": gid, "last_seq": 0, "tokens": [t1]})["ok"]
        assert black.call("join", {"game_id": gid, "last_seq": 0, "tokens": [t2]})["ok"]
        r = white.call("move", {"game_id": gid, "seat": 1, "move": "c3-d3", "seq": 1,
                                "token": t1})
        assert r["ok"]
        assert black.next("event")["event"]["seq"] == 2
        # white offers over REST; black sees it and declines over REST
        r = requests.post(f"{host.url}/api/games/{gid}/actions",
                          json={"seat": 1, "action": "offer_draw", "seq": 2},
                          headers=bearer(t1))
        assert r.status_code == 201 and r.json()["event"]["type"] == "corners_draw_offered"
        pushed = black.next("event")
        assert pushed["event"] == r.json()["event"]
        assert pushed["state"]["board"]["draw_offer"] == 1
        assert pushed["state"]["seats"][0]["actions"] == ["resign"]
        assert pushed["state"]["seats"][1]["actions"] == ["resign", "accept_draw",
                                                          "decline_draw"]
        r = requests.post(f"{host.url}/api/games/{gid}/actions",
                          json={"seat": 2, "action": "decline_draw", "seq": 3},
                          headers=bearer(t2))
        assert r.status_code == 201 and r.json()["event"]["type"] == "corners_draw_declined"
        assert white.next("event")["event"]["seq"] == 2
        assert white.next("event")["event"]["seq"] == 3
        declined = white.next("event")
        assert declined["event"]["seq"] == 4 and declined["state"]["board"]["draw_offer"] is None
        assert declined["state"]["status"] == "running"
        # white may not offer again before its next move
        assert declined["state"]["seats"][0]["actions"] == ["resign"]
        r = white.call("action", {"game_id": gid, "seat": 1, "action": "offer_draw",
                                  "seq": 4, "token": t1})
        assert r["error"]["code"] == "draw_offer_refused"
        # black moves, then offers over the socket; white accepts over the socket
        r = black.call("move", {"game_id": gid, "seat": 2, "move": "f6-e6", "seq": 4,
                                "token": t2})
        assert r["ok"]
        r = black.call("action", {"game_id": gid, "seat": 2, "action": "offer_draw",
                                  "seq": 5, "token": t2})
        assert r["ok"] and r["event"]["type"] == "corners_draw_offered" and r["event"]["seq"] == 6
        assert set(r) == {"ok", "event"}
        r = white.call("action", {"game_id": gid, "seat": 1, "action": "accept_draw",
                                  "seq": 6, "token": t1})
        assert r == {"ok": True, "event": r["event"]} and r["event"]["seq"] == 7
        assert r["event"]["type"] == "corners_draw_accepted" and r["event"]["seat"] == 1
        last = None
        while last is None or last["event"]["seq"] < 7:
            last = black.next("event")
        s = last["state"]
        assert s["status"] == "finished" and s["result"]["reason"] == "draw_agreed"
        assert s["result"]["results"] == ["draw", "draw"]
        assert white.seen == black.seen == [2, 3, 4, 5, 6, 7]
    finally:
        white.close()
        black.close()


# -- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize("what, status, code", [
    ("bad move text", 422, "bad_notation"),
    ("unreachable square", 422, "unreachable"),
    ("not its piece", 422, "not_your_piece"),
    ("not a chain", 422, "not_a_chain"),
    ("wrong seat's turn", 409, "not_your_turn"),
    ("wrong seat's token", 403, "forbidden"),
    ("no token", 401, "unauthorized"),
    ("stale seq", 409, "stale_seq"),
    ("stale seq action", 409, "stale_seq"),
    ("unknown action", 422, "no_such_action"),
    ("answer without an offer", 409, "no_draw_offer"),
    ("takeback in a rated game with a clock", 409, "takeback_refused"),
    ("action without seq", 422, "invalid_request"),
])
def test_bad_input_is_refused_and_changes_nothing(client, what, status, code):
    g = new_corners(client)
    gid, t1, t2 = g["id"], g["tokens"]["1"], g["tokens"]["2"]
    seq = played(client, g, "c3-d3", "f6-e6")
    before, log = state(client, gid), events(client, gid)
    url = f"/api/games/{gid}"
    r = {
        "bad move text": lambda: play(client, gid, 1, "c3-z9", seq, t1),
        "unreachable square": lambda: play(client, gid, 1, "a1-a5", seq, t1),
        "not its piece": lambda: play(client, gid, 1, "h8-g8", seq, t1),
        "not a chain": lambda: play(client, gid, 1, "b3-d3-d5", seq, t1),
        "wrong seat's turn": lambda: play(client, gid, 2, "e6-e5", seq, t2),
        "wrong seat's token": lambda: play(client, gid, 1, "d3-e3", seq, t2),
        "no token": lambda: client.post(f"{url}/moves",
                                        json={"seat": 1, "move": "d3-e3", "seq": seq}),
        "stale seq": lambda: play(client, gid, 1, "d3-e3", seq - 1, t1),
        "stale seq action": lambda: act(client, gid, 1, "offer_draw", seq - 1, t1),
        "unknown action": lambda: act(client, gid, 1, "castle", seq, t1),
        "answer without an offer": lambda: act(client, gid, 1, "accept_draw", seq, t1),
        "takeback in a rated game with a clock": lambda: client.post(
            f"{url}/undo", json={"seat": 1, "seq": seq}, headers=bearer(t1)),
        "action without seq": lambda: client.post(
            f"{url}/actions", json={"seat": 1, "action": "resign"}, headers=bearer(t1)),
    }[what]()
    assert_error(r, status, code)
    assert state(client, gid) == before and events(client, gid) == log


def test_a_takeback_asked_of_another_phone_is_refused_at_once_in_a_rated_clocked_game(client):
    g = new_corners(client, seats=[{"kind": "open"}, {"kind": "open"}])
    gid = g["id"]
    tokens = {str(i): client.post(f"/api/games/{gid}/seats/{i}", json={"name": name}).json[
        "token"] for i, name in ((1, "Wanda"), (2, "Boris"))}
    seq = played(client, {**g, "tokens": tokens}, "c3-d3")
    r = client.post(f"/api/games/{gid}/undo", json={"seat": 1, "seq": seq},
                    headers=bearer(tokens["1"]))
    assert_error(r, 409, "takeback_refused")
    s = state(client, gid)
    assert s["undo_request"] is None and s["seq"] == seq


def test_a_takeback_is_allowed_without_a_clock_or_in_an_unrated_variant(client):
    for variant, extra in (("classic-3x3", {"clock": None}), ("triangle", {})):
        g = new_corners(client, variant, **extra)
        first = "c3-d3" if variant != "triangle" else "c2-c3"
        seq = played(client, g, first, "f6-e6" if variant != "triangle" else "f7-f6")
        r = client.post(f"/api/games/{g['id']}/undo", json={"seat": 2, "seq": seq},
                        headers=bearer(g["tokens"]["2"]))
        assert r.status_code == 200, r.json
        assert r.json["event"]["type"] == "move_taken_back" and r.json["undo_request"] is None
        s = state(client, g["id"])
        assert s["to_move"] == 2 and s["last_move"]["move"] == first


def test_a_takeback_restarts_the_clock_of_the_side_to_move(client):
    g = new_corners(client, "triangle", clock={"reserve_s": 300, "increment_s": 0})
    gid = g["id"]
    seq = played(client, g, "c2-c3", "f7-f6")
    assert state(client, gid)["board"]["clock"]["running"] == 1
    r = client.post(f"/api/games/{gid}/undo", json={"seat": 2, "seq": seq},
                    headers=bearer(g["tokens"]["2"]))
    assert r.status_code == 200, r.json
    clock = state(client, gid)["board"]["clock"]
    assert clock["running"] == 2
    table = host_of(client.application).service.table(gid)
    assert table.clock_timer is not None and table.clock_timer.is_alive()


def test_closing_a_clocked_game_cancels_its_timer(client):
    g = new_corners(client, clock={"reserve_s": 300, "increment_s": 0})
    gid = g["id"]
    played(client, g, "c3-d3")
    table = host_of(client.application).service.table(gid)
    timer = table.clock_timer
    assert timer is not None and timer.is_alive()
    r = client.post(f"/api/games/{gid}/close", headers=bearer(g["host_token"]))
    assert r.status_code == 200 and r.json["closed"]
    assert table.clock_timer is None
    wait_for(lambda: not timer.is_alive(), "the cancelled timer to end")
    assert [seat["actions"] for seat in r.json["seats"]] == [[], []]
    assert_error(act(client, gid, 1, "resign", 2, g["tokens"]["1"]), 409, "closed")


# -- perft on the command line -----------------------------------------------------------------


def test_perft_on_the_command_line_counts_the_sequences(capsys):
    assert cli_main(["perft", "--game", "corners", "--variant", "classic-3x3",
                     "--depth", "3"]) == 0
    assert capsys.readouterr().out == "2784\n"
    assert cli_main(["perft", "--game", "corners", "--variant", "diagonal-3x3", "--depth", "2",
                     "--moves", "c3-d4 f6-e5"]) == 0
    assert int(capsys.readouterr().out) == corners_perft("diagonal-3x3", 2,
                                                         moves=["c3-d4", "f6-e5"])
    assert cli_main(["perft", "--game", "corners", "--variant", "4x4", "--depth", "0"]) == 0
    assert capsys.readouterr().out == "1\n"


@pytest.mark.parametrize("argv, message", [
    (["--game", "corners", "--variant", "halma", "--depth", "1"], "no variant 'halma'"),
    (["--game", "chess", "--variant", "x", "--depth", "1"], "no game 'chess'"),
    (["--game", "corners", "--variant", "classic-3x3", "--depth", "-1"], "depth"),
    (["--game", "corners", "--variant", "classic-3x3", "--depth", "1", "--moves", "c3-e5"],
     "cannot get to e5"),
])
def test_perft_on_the_command_line_refuses_bad_input(capsys, argv, message):
    assert cli_main(["perft", *argv]) == 2
    out = capsys.readouterr()
    assert out.out == "" and message in out.err
