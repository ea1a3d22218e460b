"""The REST API: every endpoint, and every error answered in one shape with the state unchanged."""

from __future__ import annotations

import json

import pytest

from engine.core import Game
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, create

PLUS = "e9,d10,e10,f10,e11"  # blue's opening cross on e10
GREEN_X = "j5,i6,j6,k6,j7"


def state(client, gid):
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200
    return r.json


def move(client, gid, seat, cells, seq, token):
    return client.post(f"/api/games/{gid}/moves", json={"seat": seat, "move": cells, "seq": seq},
                       headers=bearer(token))


def assert_error(r, status, code):
    assert r.status_code == status, r.json
    assert set(r.json) == {"error"}
    assert set(r.json["error"]) == {"code", "message", "details"}
    assert r.json["error"]["code"] == code, r.json
    return r.json["error"]


@pytest.fixture
def duo(client):
    """A two-seat hot-seat game: both seats local to the creating phone."""
    return create(client, "duo")


# -- creating, the lobby and the state -----------------------------------------------------
def test_a_new_game_shows_in_the_lobby_and_its_state_reads_from_the_engine(client, duo):
    gid = duo["id"]
    assert set(duo["tokens"]) == {"1", "2"} and duo["host_token"]
    lobby = client.get("/api/games").json["games"]
    assert [g["id"] for g in lobby] == [gid] and lobby[0]["status"] == "running"
    s = state(client, gid)
    assert (s["game"], s["variant"], s["options"], s["status"], s["seq"], s["to_move"]) == (
        "cornerclaim", "duo", {}, "running", 1, 1)
    assert lobby[0]["game"] == "cornerclaim" and lobby[0]["options"] == {}
    rows = s["board"]["rows"]
    assert s["board"]["size"] == 14 and len(rows) == 14 and all(v == 0 for r in rows for v in r)
    blue = s["seats"][0]
    assert blue["colour"] == "blue" and blue["kind"] == "local" and blue["claimed"]
    assert blue["view"] == {"open_corners": ["e10"], "pieces_left": blue["view"]["pieces_left"]}
    assert len(blue["view"]["pieces_left"]) == 21
    assert blue["score"] == -89 and blue["can_move"]
    assert s["result"] is None and s["last_move"] is None and s["undo_request"] is None


def test_alice_places_her_cross_and_the_board_turns_blue_at_e10(client, duo):
    gid = duo["id"]
    r = move(client, gid, 1, PLUS, 1, duo["tokens"]["1"])
    assert r.status_code == 201
    assert r.json["event"] == {"type": "cornerclaim_piece_placed", "seq": 2, "seat": 1,
                               "move": PLUS}
    s = state(client, gid)
    assert s["seq"] == 2 and s["to_move"] == 2
    assert s["board"]["rows"][14 - 10][4] == 1  # e10: row 10 counted from the bottom
    assert s["last_move"] == {"seat": 1, "move": PLUS, "seq": 2}
    assert "X" not in s["seats"][0]["view"]["pieces_left"]


def test_an_open_seat_is_claimed_once_and_the_game_waits_until_it_is(client):
    g = create(client, "duo", ("local", "open"))
    gid = g["id"]
    assert state(client, gid)["status"] == "open"
    r = move(client, gid, 1, PLUS, 1, g["tokens"]["1"])
    assert_error(r, 409, "not_started")
    r = client.post(f"/api/games/{gid}/seats/2", json={"name": "Bob"})
    assert r.status_code == 200 and r.json["seat"] == 2 and r.json["token"]
    assert_error(client.post(f"/api/games/{gid}/seats/2", json={"name": "Eve"}), 409,
                 "seat_taken")
    assert_error(client.post(f"/api/games/{gid}/seats/1", json={"name": "Eve"}), 409, "not_open")
    s = state(client, gid)
    assert s["status"] == "running" and s["seats"][1]["name"] == "Bob"


def test_legal_placements_are_listed_per_seat_and_piece(client, duo):
    gid = duo["id"]
    r = client.get(f"/api/games/{gid}/legal?seat=1&piece=X")
    assert r.status_code == 200
    assert r.json["seat"] == 1 and r.json["seq"] == 1
    assert {m["piece"] for m in r.json["moves"]} == {"X"}
    assert PLUS in {m["move"] for m in r.json["moves"]}
    everything = client.get(f"/api/games/{gid}/legal?seat=1").json["moves"]
    assert len(everything) > len(r.json["moves"])
    assert client.get(f"/api/games/{gid}/legal?seat=2").json["moves"] == []  # not its turn
    assert_error(client.get(f"/api/games/{gid}/legal?seat=1&piece=Q"), 422, "bad_piece")
    assert_error(client.get(f"/api/games/{gid}/legal"), 422, "invalid_request")
    assert_error(client.get(f"/api/games/{gid}/legal?seat=3"), 400, "bad_seat")
    # the seq the phone shows: the answer is the list now, and says for which seq
    assert client.get(f"/api/games/{gid}/legal?seat=1&seq=1&piece=X").json == r.json
    assert client.get(f"/api/games/{gid}/legal?seat=1&seq=0").json["seq"] == 1
    for bad in ("-1", "x", str(2**31 + 1)):
        assert_error(client.get(f"/api/games/{gid}/legal?seat=1&seq={bad}"), 422,
                     "invalid_request")


def test_events_and_replays_tell_the_whole_story(client, duo):
    gid = duo["id"]
    move(client, gid, 1, PLUS, 1, duo["tokens"]["1"])
    move(client, gid, 2, GREEN_X, 2, duo["tokens"]["2"])
    r = client.get(f"/api/games/{gid}/events?since=1")
    assert [e["seq"] for e in r.json["events"]] == [2, 3] and r.json["seq"] == 3
    assert len(client.get(f"/api/games/{gid}/events").json["events"]) == 3
    replay = client.get(f"/api/games/{gid}/replay.json")
    assert replay.status_code == 200 and replay.mimetype == "application/json"
    assert Game.from_json(replay.data).seq == 3
    assert f'filename="cornerclaim-{gid}.json"' in replay.headers["Content-Disposition"]
    r = client.get(f"/api/games/{gid}/replay.blksgf")
    assert r.mimetype == "application/x-blokus-sgf"
    assert f'filename="cornerclaim-{gid}.blksgf"' in r.headers["Content-Disposition"]
    sgf = r.get_data(as_text=True)
    assert "GM[Blokus Duo]" in sgf and f";B[{PLUS}]" in sgf and f";W[{GREEN_X}]" in sgf
    assert_error(client.get(f"/api/games/{gid}/replay.pgn"), 404, "no_such_format")


def test_health_openapi_and_the_page_at_root(client):
    health = client.get("/api/health").json
    assert health["ok"] is True and health["games"] == 0
    assert [lv["number"] for lv in health["levels"]][:2] == [1, 2] and health["levels"][0]["name"]
    doc = client.get("/api/openapi.json")
    assert doc.status_code == 200
    paths = doc.json["paths"]
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/seats/{seat}",
                 "/api/games/{game_id}/legal", "/api/games/{game_id}/moves",
                 "/api/games/{game_id}/undo", "/api/games/{game_id}/leave",
                 "/api/games/{game_id}/events", "/api/games/{game_id}/replay.json",
                 "/api/games/{game_id}/replay.{fmt}", "/api/games/{game_id}/hint",
                 "/api/catalog", "/api/health"):
        assert path in paths, path
    assert "ErrorBody" in json.dumps(doc.json["components"])
    page = client.get("/")
    assert page.status_code == 200 and b"<title>Corner games</title>" in page.data


def test_an_invite_gives_the_address_and_its_qr_code(make_app, duo, client):
    r = client.get("/api/invite")
    assert r.status_code == 200 and r.json["url"] == "http://localhost/"
    svg = r.json["svg"]
    assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg
    game = client.get(f"/api/invite?game={duo['id']}").json
    assert game["url"] == f"http://localhost/#/game/{duo['id']}"
    assert_error(client.get("/api/invite?game=nope"), 404, "unknown_game")
    lan = make_app(PUBLIC_URL="http://192.168.1.20:8000/").test_client()
    assert lan.get("/api/invite").json["url"] == "http://192.168.1.20:8000/"


def test_the_client_folder_is_served_when_present(make_app, tmp_path):
    web = tmp_path / "web"
    (web / "node_modules/socket.io-client/dist").mkdir(parents=True)
    (web / "index.html").write_text("<p>phone ui</p>")
    (web / "app.js").write_text("// js")
    (web / "node_modules/socket.io-client/dist/socket.io.min.js").write_text("// io")
    (web / "node_modules/nosleep.js/dist").mkdir(parents=True)
    (web / "node_modules/nosleep.js/dist/NoSleep.min.js").write_text("// awake")
    c = make_app(CLIENT_DIR=str(web)).test_client()
    assert c.get("/").data == b"<p>phone ui</p>"
    assert c.get("/app.js").data == b"// js"
    assert c.get("/vendor/socket.io.min.js").data == b"// io"
    assert c.get("/vendor/nosleep.min.js").data == b"// awake"
    assert_error(c.get("/missing.css"), 404, "not_found")
    bare = make_app(CLIENT_DIR=str(tmp_path / "none")).test_client()
    assert_error(bare.get("/vendor/socket.io.min.js"), 404, "not_found")
    assert_error(bare.get("/vendor/nosleep.min.js"), 404, "not_found")


# -- errors: each one a 4xx in the one shape, and nothing changes --------------------------
def test_every_bad_move_is_refused_with_its_reason_and_changes_nothing(client, duo):
    gid, t1, t2 = duo["id"], duo["tokens"]["1"], duo["tokens"]["2"]
    before = state(client, gid)
    err = assert_error(move(client, gid, 1, "a1", 1, t1), 422, "start_cell")
    assert err["message"] == "your first piece must cover your start square e10"
    assert err["details"] == {"cell": "e10"}
    assert_error(move(client, gid, 1, "zz", 1, t1), 422, "bad_notation")
    assert_error(move(client, gid, 1, "e10,e12", 1, t1), 422, "not_a_piece")
    assert_error(move(client, gid, 2, GREEN_X, 1, t2), 409, "not_your_turn")
    assert_error(move(client, gid, 2, PLUS, 1, t1), 403, "forbidden")  # other seat's token
    assert_error(move(client, gid, 1, PLUS, 1, "not-a-token"), 403, "forbidden")
    r = client.post(f"/api/games/{gid}/moves", json={"seat": 1, "move": PLUS, "seq": 1})
    assert_error(r, 401, "unauthorized")
    assert_error(move(client, gid, 5, PLUS, 1, t1), 422, "invalid_request")
    assert_error(move(client, gid, 1, PLUS, 0, t1), 409, "stale_seq")
    assert_error(move(client, "nope", 1, PLUS, 1, t1), 404, "unknown_game")
    assert state(client, gid) == before


def test_an_edge_contact_is_explained_with_the_cell(client, duo):
    gid, t1, t2 = duo["id"], duo["tokens"]["1"], duo["tokens"]["2"]
    move(client, gid, 1, PLUS, 1, t1)
    move(client, gid, 2, GREEN_X, 2, t2)
    err = assert_error(move(client, gid, 1, "g10", 3, t1), 422, "edge_contact")
    assert "edge" in err["message"] and err["details"]["cell"] == "g10"
    assert_error(move(client, gid, 1, "a1", 3, t1), 422, "no_corner_contact")
    assert_error(move(client, gid, 1, PLUS, 3, t1), 422, "piece_used")
    assert_error(move(client, gid, 1, "e11,e12", 3, t1), 422, "overlap")
    assert state(client, gid)["seq"] == 3


def test_a_stale_seq_is_refused_after_the_game_moved_on(client, duo):
    gid, t1, t2 = duo["id"], duo["tokens"]["1"], duo["tokens"]["2"]
    move(client, gid, 1, PLUS, 1, t1)
    before = state(client, gid)
    err = assert_error(move(client, gid, 2, GREEN_X, 1, t2), 409, "stale_seq")
    assert err["details"] == {"latest": 2}
    assert state(client, gid) == before


def test_malformed_requests_get_the_same_error_shape(client, duo):
    gid = duo["id"]
    url = f"/api/games/{gid}/moves"
    assert_error(client.post(url, data="{not json", content_type="application/json"), 400,
                 "bad_json")
    assert_error(client.post(url, json=[1, 2]), 422, "invalid_request")
    assert_error(client.post(url, json={"seat": True, "move": PLUS, "seq": 1}), 422,
                 "invalid_request")
    assert_error(client.post(url, json={"seat": 1, "move": PLUS, "seq": 1, "x": 1}), 422,
                 "invalid_request")
    big = json.dumps({"seat": 1, "move": PLUS, "seq": 1, "pad": "x" * 40_000})
    assert_error(client.post(url, data=big, content_type="application/json"), 413, "too_large")
    assert_error(client.get("/api/nothing-here"), 404, "not_found")
    assert_error(client.delete("/api/games"), 405, "method_not_allowed")
    assert_error(client.get(f"/api/games/{gid}/events?since=-1"), 422, "invalid_request")
    assert_error(client.post(f"/api/games/{gid}/seats/1x", json={"name": "A"}), 404, "not_found")
    assert_error(client.post(f"/api/games/{gid}/seats/9", json={"name": "A"}), 400, "bad_seat")
    assert_error(client.post(f"/api/games/{gid}/seats/1", json={}), 422, "invalid_request")
    assert state(client, gid)["seq"] == 1


TWO = [{"kind": "local"}, {"kind": "local"}]


@pytest.mark.parametrize("body, code", [
    ({"variant": "chess", "seats": TWO}, "no_such_variant"),
    ({"game": "chess", "variant": "duo", "seats": TWO}, "no_such_game"),
    ({"variant": "duo", "seats": TWO, "options": {"rounds": 3}}, "bad_option"),
    ({"variant": "duo", "seats": TWO, "options": []}, "invalid_request"),
    ({"variant": "duo", "seats": [{"kind": "robot"}, {"kind": "local"}]}, "invalid_request"),
    ({"variant": "duo", "seats": [{"kind": "local"}]}, "invalid_request"),
    ({"variant": "duo"}, "invalid_request"),
    ({"variant": "duo", "seats": [{"kind": "computer", "level": 98}, {"kind": "local"}]},
     "invalid_request"),
])
def test_a_game_that_cannot_exist_is_not_created(client, body, code):
    assert_error(client.post("/api/games", json=body), 422, code)
    assert client.get("/api/games").json["games"] == []


def test_the_variant_decides_how_many_seats_a_game_has(client):
    r = client.post("/api/games", json={"variant": "trio", "seats": [{"kind": "local"}] * 2})
    err = assert_error(r, 422, "invalid_request")
    assert "3 seats" in err["message"] and err["details"] == {"seats": [3]}
