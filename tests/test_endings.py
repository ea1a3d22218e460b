"""How games end when nobody plays them to the end, through a real host: a game the host
closes is abandoned (no early win) in every game; a two-seat game whose opponent never came
is cancelled or gets a computer, never a free win; a 3–4 seat game everyone left has no
winner; unnamed seats are guests; a computer seat has one name everywhere."""

from __future__ import annotations

import pytest

from engine.core import Game
from server.host import host_of
from tests.games import tictactoe  # noqa: F401 - registers the game
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, create
from tests.test_api import GREEN_X, PLUS, assert_error, move, state

ABANDONED = {"winners": [], "results": [], "points": []}


def host(client, g, path):
    return client.post(f"/api/games/{g['id']}/{path}", headers=bearer(g["host_token"]))


def events(client, gid):
    return client.get(f"/api/games/{gid}/events").json["events"]


def players(client, game=None):
    q = f"?game={game}" if game else ""
    return {p["name"]: p for p in client.get(f"/api/players{q}").json["players"]}


def leave(client, g, seat):
    return client.post(f"/api/games/{g['id']}/leave", json={"seat": seat},
                       headers=bearer(g["tokens"][str(seat)]))


# -- there is no early win ------------------------------------------------------------------


def named_duo(client, names=("Ann", "Bo")):
    r = client.post("/api/games", json={"variant": "duo", "seats": [
        {"kind": "local", "name": n} for n in names]})
    assert r.status_code == 201, r.json
    return r.json


def test_a_game_the_host_closes_unfinished_is_abandoned_and_nothing_counts(make_app):
    app = make_app()
    client = app.test_client()
    g = named_duo(client)
    gid = g["id"]
    move(client, gid, 1, PLUS, 1, g["tokens"]["1"])
    move(client, gid, 2, GREEN_X, 2, g["tokens"]["2"])
    standing = [s["score"] for s in state(client, gid)["seats"]]

    closed = host(client, g, "close").json
    assert closed["status"] == "finished" and closed["closed"] and closed["to_move"] is None
    assert closed["result"] == {**ABANDONED, "scores": standing, "reason": "closed",
                                "ending": "The host closed this game", "teams": []}
    assert [s["score"] for s in closed["seats"]] == standing
    assert events(client, gid)[-1] == {"type": "game_closed", "seq": 4, "reason": "closed"}
    assert_error(move(client, gid, 1, "d8,d9", 4, g["tokens"]["1"]), 409, "closed")
    assert host(client, g, "close").json["seq"] == 4  # closing again changes nothing

    replay = client.get(f"/api/games/{gid}/replay").json
    assert replay["over"] and replay["result"] == closed["result"]
    assert replay["frames"][-1]["kind"] == "closed" and replay["frames"][-1]["to_move"] is None
    assert replay["frames"][-2]["result"] is None  # before it was closed it was running
    record = Game.from_json(client.get(f"/api/games/{gid}/replay.json").data)
    assert record.closed.reason == "closed"
    assert players(client) == {}  # no winner, no points, no rating

    again = make_app().test_client()  # a restart folds the same log
    assert state(again, gid)["result"] == closed["result"]
    assert players(again) == {}


def test_closing_a_finished_game_leaves_its_result(client):
    g = named_duo(client)
    move(client, g["id"], 1, PLUS, 1, g["tokens"]["1"])
    assert leave(client, g, 2).status_code == 200
    after = host(client, g, "close").json
    assert after["result"]["winners"] == [1] and after["result"]["reason"] == "resigned"
    assert events(client, g["id"])[-1]["type"] == "player_left"
    assert players(client)["Ann"]["wins"] == 1


@pytest.mark.parametrize(("game", "variant"), [
    ("corners", "classic-3x3"), ("marbles", "2p"), ("tictactoe", "3x3")])
def test_every_game_is_abandoned_the_same_way(client, game, variant):
    seats = [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}]
    r = client.post("/api/games", json={"game": game, "variant": variant, "seats": seats})
    assert r.status_code == 201, r.json
    g = r.json
    seq = state(client, g["id"])["seq"]
    moves = client.get(f"/api/games/{g['id']}/legal?seat=1").json["moves"]
    assert move(client, g["id"], 1, moves[0]["move"], seq, g["tokens"]["1"]).status_code == 201
    closed = host(client, g, "close").json
    assert closed["result"]["reason"] == "closed"
    assert {k: closed["result"][k] for k in ABANDONED} == ABANDONED
    assert client.get(f"/api/games/{g['id']}/replay").json["result"] == closed["result"]
    assert players(client, game) == {}


def test_a_game_closed_by_an_older_host_is_logged_as_closed_at_the_next_start(make_app):
    app = make_app()
    client = app.test_client()
    g = named_duo(client)
    move(client, g["id"], 1, PLUS, 1, g["tokens"]["1"])
    store = host_of(app).service.store
    store.set_closed(g["id"])  # what closing was before it was an event
    restarted = make_app().test_client()
    s = state(restarted, g["id"])
    assert s["closed"] and s["result"]["reason"] == "closed" and s["result"]["winners"] == []
    assert events(restarted, g["id"])[-1]["type"] == "game_closed"


# -- takeback consent -----------------------------------------------------------------------


def test_a_claimed_seat_cannot_take_back_a_move_without_the_creators_seat(client):
    """Seat 1 is a local seat on the phone that created the game; seat 2 was claimed from
    a second phone. Seat 1 plays, seat 2 plays, seat 1 plays again; seat 2's takeback would
    remove seat 1's reply too, so seat 1 is asked first."""
    g = create(client, "duo", ("local", "open"))
    gid, ann = g["id"], g["tokens"]["1"]
    bob = client.post(f"/api/games/{gid}/seats/2", json={"name": "Bob"}).json["token"]
    for seat, cells, seq, token in ((1, "e10", 1, ann), (2, "j5", 2, bob), (1, "d8,d9", 3, ann)):
        assert move(client, gid, seat, cells, seq, token).status_code == 201
    r = client.post(f"/api/games/{gid}/undo", json={"seat": 2, "seq": 4}, headers=bearer(bob))
    assert r.status_code == 200 and r.json["event"] is None
    assert r.json["undo_request"]["waiting"] == [1]
    assert state(client, gid)["seq"] == 4  # nothing taken back yet
    r = client.post(f"/api/games/{gid}/undo/answer", json={"seat": 1, "accept": True},
                    headers=bearer(ann))
    assert r.json["event"] == {"type": "move_taken_back", "seq": 5, "seat": 2, "from_seq": 3}


def test_every_person_at_another_device_is_asked_and_only_they(make_app):
    """Seats 1 and 2 on the creator's phone, seat 3 claimed, seat 4 a computer: the
    creator's takeback asks seat 3 only; seat 3's asks seats 1 and 2."""
    app = make_app(START_BOTS=False)
    client = app.test_client()
    r = client.post("/api/games", json={"variant": "classic", "seats": [
        {"kind": "local", "name": "Ann"}, {"kind": "local"}, {"kind": "open"},
        {"kind": "computer", "level": 1}]})
    g = r.json
    gid, tok = g["id"], g["tokens"]
    cy = client.post(f"/api/games/{gid}/seats/3", json={"name": "Cy"}).json["token"]
    table = host_of(app).service.table(gid)
    assert table.same_device(1, 2) and not table.same_device(1, 3)
    assert not table.same_device(3, 4)
    move(client, gid, 1, "a20", 1, tok["1"])
    r = client.post(f"/api/games/{gid}/undo", json={"seat": 1, "seq": 2},
                    headers=bearer(tok["1"]))
    assert r.json["undo_request"]["waiting"] == [3]
    client.post(f"/api/games/{gid}/undo/answer", json={"seat": 3, "accept": False},
                headers=bearer(cy))
    move(client, gid, 2, "t20", 2, tok["2"])
    move(client, gid, 3, "t1", 3, cy)
    r = client.post(f"/api/games/{gid}/undo", json={"seat": 3, "seq": 4}, headers=bearer(cy))
    assert r.json["undo_request"]["waiting"] == [1, 2]


def test_the_seats_a_phone_holds_are_not_asked_to_allow_its_own_takeback(client):
    """Ann created a Duo on her phone (seat 1) and claimed the open seat 2 on the same phone
    for her sister: the phone names its other token with the takeback, so nobody at another
    device is left to ask. Without it, or with a token that holds nothing, seat 2 is asked."""
    g = create(client, "duo", ("local", "open"))
    gid, ann = g["id"], g["tokens"]["1"]
    sis = client.post(f"/api/games/{gid}/seats/2", json={"name": "Sis"}).json["token"]
    move(client, gid, 1, "e10", 1, ann)
    r = client.post(f"/api/games/{gid}/undo", json={"seat": 1, "seq": 2,
                                                   "device_tokens": ["not-a-token"]},
                    headers=bearer(ann))
    assert r.json["event"] is None and r.json["undo_request"]["waiting"] == [2]
    client.post(f"/api/games/{gid}/undo/answer", json={"seat": 2, "accept": False},
                headers=bearer(sis))
    r = client.post(f"/api/games/{gid}/undo", json={"seat": 1, "seq": 2,
                                                   "device_tokens": [sis]},
                    headers=bearer(ann))
    assert r.status_code == 200 and r.json["undo_request"] is None
    assert r.json["event"] == {"type": "move_taken_back", "seq": 3, "seat": 1, "from_seq": 2}
    assert_error(client.post(f"/api/games/{gid}/undo",
                             json={"seat": 1, "seq": 3, "device_tokens": "x"},
                             headers=bearer(ann)), 422, "invalid_request")


def test_with_everyone_at_one_phone_a_takeback_is_at_once(client):
    g = create(client, "trio")
    move(client, g["id"], 1, "a20", 1, g["tokens"]["1"])
    r = client.post(f"/api/games/{g['id']}/undo", json={"seat": 1, "seq": 2},
                    headers=bearer(g["tokens"]["1"]))
    assert r.json["event"]["type"] == "move_taken_back" and r.json["undo_request"] is None


# -- no free win in a two-seat game ---------------------------------------------------------


def test_an_opponent_who_never_came_is_no_free_win(client):
    g = create(client, "duo", ("local", "open"))
    gid = g["id"]
    r = host(client, g, "seats/2/left")
    assert_error(r, 409, "never_claimed")
    assert "seat a computer" in r.json["error"]["message"].lower()
    r = client.post(f"/api/games/{gid}/seats/2/left", headers=bearer(g["tokens"]["1"]))
    assert_error(r, 409, "never_claimed")
    assert state(client, gid)["seq"] == 1 and state(client, gid)["status"] == "open"

    cancelled = host(client, g, "close").json
    assert cancelled["status"] == "finished"
    assert cancelled["result"] == {**ABANDONED, "scores": [-89, -89], "reason": "cancelled",
                                   "ending": "The host cancelled this game before it started",
                                   "teams": []}
    assert events(client, gid)[-1] == {"type": "game_closed", "seq": 2, "reason": "cancelled"}
    replay = client.get(f"/api/games/{gid}/replay").json
    assert replay["result"]["reason"] == "cancelled"
    assert client.get("/api/players").json["players"] == []


def test_in_three_an_open_seat_nobody_claimed_may_be_left_empty(client):
    g = create(client, "trio", ("local", "local", "open"))
    r = host(client, g, "seats/3/left")
    assert r.status_code == 200 and r.json["event"]["type"] == "player_left"
    assert state(client, g["id"])["status"] == "running"


def test_the_host_may_seat_a_computer_for_the_opponent_who_never_came(make_app):
    client = make_app(START_BOTS=False).test_client()
    g = create(client, "duo", ("local", "open"))
    gid = g["id"]
    url = f"/api/games/{gid}/seats/2/computer"
    assert_error(client.post(url, json={"level": 2}), 401, "unauthorized")
    assert_error(client.post(url, json={"level": 2}, headers=bearer(g["tokens"]["1"])), 403,
                 "forbidden")
    assert_error(client.post(url, json={"level": 9}, headers=bearer(g["host_token"])), 422,
                 "invalid_request")
    assert_error(client.post(url, json={}, headers=bearer(g["host_token"])), 422,
                 "invalid_request")
    s = client.post(url, json={"level": 2}, headers=bearer(g["host_token"])).json
    seat = s["seats"][1]
    assert (seat["kind"], seat["level"], seat["name"]) == ("computer", 2, "Computer L2")
    assert s["status"] == "running"
    assert_error(client.post(url, json={"level": 2}, headers=bearer(g["host_token"])), 409,
                 "not_open")
    assert_error(client.post(f"/api/games/{gid}/seats/1/computer", json={"level": 2},
                             headers=bearer(g["host_token"])), 409, "not_open")


# -- everyone leaves a 3–4 seat game --------------------------------------------------------


def test_when_everyone_leaves_a_game_of_three_nobody_wins_and_each_lost(client):
    r = client.post("/api/games", json={"variant": "trio", "seats": [
        {"kind": "local", "name": n} for n in ("Ann", "Bo", "Cy")]})
    g = r.json
    gid = g["id"]
    move(client, gid, 1, "a20", 1, g["tokens"]["1"])
    for seat in (2, 1):
        assert leave(client, g, seat).status_code == 200
        assert state(client, gid)["status"] == "running"
    assert leave(client, g, 3).status_code == 200
    s = state(client, gid)
    assert s["status"] == "finished" and s["to_move"] is None
    assert s["result"]["reason"] == "everyone_left" and s["result"]["winners"] == []
    assert s["result"]["results"] == ["loss"] * 3 and s["result"]["points"] == [3] * 3
    replay = client.get(f"/api/games/{gid}/replay").json
    assert replay["result"] == s["result"] and replay["frames"][-1]["kind"] == "left"
    ladder = players(client)
    assert sorted(ladder) == ["Ann", "Bo", "Cy"]
    assert all((p["games"], p["losses"], p["wins"], p["points"]) == (1, 1, 0, 3)
               for p in ladder.values())
    assert all(p["rated_games"] == 0 for p in ladder.values())  # three seats rate nobody


# -- guests and computer names --------------------------------------------------------------


def test_an_unnamed_seat_is_a_guest_shown_by_its_colour_and_not_on_the_ladder(client):
    r = client.post("/api/games", json={"variant": "duo", "seats": [
        {"kind": "local", "name": "Ann"}, {"kind": "local"}]})
    g = r.json
    gid = g["id"]
    s = state(client, gid)
    assert [x["name"] for x in s["seats"]] == ["Ann", None]
    move(client, gid, 1, PLUS, 1, g["tokens"]["1"])
    leave(client, g, 2)
    assert client.get(f"/api/games/{gid}/replay").json["players"] == ["Ann", "Green"]
    ladder = players(client)
    assert list(ladder) == ["Ann"]
    assert ladder["Ann"]["wins"] == 1 and ladder["Ann"]["rated_games"] == 0


def test_a_computer_seat_has_one_name_everywhere(make_app):
    client = make_app(START_BOTS=False).test_client()
    r = client.post("/api/games", json={"variant": "duo", "seats": [
        {"kind": "local", "name": "Ann"}, {"kind": "computer", "level": 3}]})
    g = r.json
    gid = g["id"]
    name = "Computer L3"
    assert state(client, gid)["seats"][1]["name"] == name
    lobby = {x["id"]: x for x in client.get("/api/games").json["games"]}
    assert lobby[gid]["seats"][1]["name"] == name
    assert client.get(f"/api/games/{gid}/replay").json["players"] == ["Ann", name]
    assert Game.from_json(client.get(f"/api/games/{gid}/replay.json").data).events[0].players \
        == ("Ann", name)
    assert f"PW[{name}]" in client.get(f"/api/games/{gid}/replay.blksgf").get_data(as_text=True)
