"""Corners' practice room on the host: a practice game against the computer (no clock, an
instant takeback, the hint, marked practice in the state, the lobby and the replay, never on
the ladder), the solo race over REST to its end, and set-up positions (made, and refused with
a 4xx JSON answer that changes nothing)."""

from __future__ import annotations

from engine.corners.solo import beam
from engine.corners.variants import VARIANTS
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, wait_for
from tests.test_api import assert_error
from tests.test_corners_host import TWO, new_corners, play, state

ME = [{"kind": "local", "name": "Pia"}]


def ladder_names(client) -> set[str]:
    return {p["name"] for p in client.get("/api/players?game=corners").json["players"]}


def test_a_practice_game_against_the_computer_is_off_the_ladder(make_app):
    # (no review of the finished games by the computer: nothing here reads one)
    client = make_app(WRITE_RATE=None, ANALYSIS_AUTO=False).test_client()
    g = new_corners(client, seats=[ME[0], {"kind": "computer", "level": 1}],
                    options={"practice": True, "reserve_s": 300})
    gid, token = g["id"], g["tokens"]["1"]
    s = state(client, gid)
    assert s["practice"] and s["board"]["practice"] and s["board"]["clock"] is None
    assert s["undo"] == {"allowed": True, "reason": None}
    lobby = {line["id"]: line for line in client.get("/api/games").json["games"]}
    assert lobby[gid]["practice"] is True
    r = play(client, gid, 1, "c3-d3", s["seq"], token)
    assert r.status_code == 201, r.json
    s = wait_for(lambda: (x := state(client, gid))["seq"] == 3 and x, "the computer's reply")
    # a takeback against the computer: at once, nobody asked
    r = client.post(f"/api/games/{gid}/undo", json={"seat": 1, "seq": 3}, headers=bearer(token))
    assert r.status_code == 200, r.json
    assert r.json["event"]["type"] == "move_taken_back" and r.json["undo_request"] is None
    s = state(client, gid)
    assert s["board"]["moves"] == [] and s["to_move"] == 1
    r = client.post(f"/api/games/{gid}/actions", json={"seat": 1, "action": "resign",
                                                       "seq": s["seq"]}, headers=bearer(token))
    assert r.status_code == 201, r.json
    assert state(client, gid)["status"] == "finished"
    replay = client.get(f"/api/games/{gid}/replay").json
    assert replay["practice"] is True
    assert ladder_names(client) == set()
    # the same game not for practice is on the ladder
    g = new_corners(client, seats=[ME[0], {"kind": "computer", "level": 1}])
    assert state(client, g["id"])["practice"] is False
    r = client.post(f"/api/games/{g['id']}/actions", json={"seat": 1, "action": "resign",
                                                           "seq": 1},
                    headers=bearer(g["tokens"]["1"]))
    assert r.status_code == 201, r.json
    assert ladder_names(client) == {"Pia"}


def test_the_solo_race_over_rest_gives_a_hint_and_counts_the_moves_to_the_end(client):
    g = new_corners(client, "diagonal-3x3", seats=ME)
    gid, token = g["id"], g["tokens"]["1"]
    s = state(client, gid)
    assert s["status"] == "running" and len(s["seats"]) == 1 and s["practice"]
    assert s["board"]["solo"]["moves"] == 0
    assert sum(row.count(2) for row in s["board"]["rows"]) == 0
    hint = client.get(f"/api/games/{gid}/hint?seat=1", headers=bearer(token))
    assert hint.status_code == 200, hint.json
    assert hint.json["move"] in {m["move"] for m in client.get(
        f"/api/games/{gid}/legal?seat=1").json["moves"]}
    variant = VARIANTS["diagonal-3x3"]
    line = beam(variant, width=20)
    for f, t in line:
        r = play(client, gid, 1, f"{variant.board.name(f)}-{variant.board.name(t)}",
                 s["seq"], token)
        assert r.status_code == 201, r.json
        s = state(client, gid)
    assert s["status"] == "finished" and s["board"]["solo"]["moves"] == len(line)
    assert s["result"]["reason"] == "target" and s["result"]["results"] == ["win"]
    assert ladder_names(client) == set()


SETUP = "W:a1,b1,c1,a2,b2,c2,a3,b3,d3 B:f6,g6,h6,f7,g7,h7,f8,g8,e8 b 12"


def test_a_game_starts_from_a_set_up_position(client):
    g = new_corners(client, options={"setup": SETUP})
    s = state(client, g["id"])
    assert s["practice"] and s["to_move"] == 2 and s["board"]["move_number"] == 12
    assert s["board"]["rows"][0][4] == 2 and s["board"]["rows"][5][3] == 1  # e8, d3
    assert s["options"]["setup"] == SETUP
    r = play(client, g["id"], 2, "e8-e7", s["seq"], g["tokens"]["2"])
    assert r.status_code == 201, r.json


def test_an_impossible_setup_is_refused_and_nothing_is_made(client):
    for text, words in [("W:a1,b1 B:h8", "White has 2 pieces"),
                        (SETUP.replace("d3", "e8"), "two pieces on e8"),
                        ("nonsense", "a setup lists the pieces")]:
        error = assert_error(client.post("/api/games", json={
            "game": "corners", "variant": "classic-3x3", "seats": TWO,
            "options": {"setup": text}}), 422, "bad_option")
        assert words in error["message"] and error["details"]["option"] == "setup"
    assert client.get("/api/games").json["games"] == []
