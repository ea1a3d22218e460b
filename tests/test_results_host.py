"""What the host says of a game's people and its end, the same in the state, the lobby, the
replay and the log: two computer seats of one level go by distinct names; the result says
how the game ended in the game's words."""

from __future__ import annotations

import json

from engine.rules import computer_names
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer


def test_computer_names_tell_two_seats_of_one_level_apart():
    assert computer_names([3, None, 3, 1]) == [
        "Computer L3 (1)", None, "Computer L3 (2)", "Computer L1"]
    assert computer_names([None, 2]) == [None, "Computer L2"]


def test_two_computers_of_one_level_have_distinct_names_everywhere(client):
    seats = [{"kind": "local", "name": "Pia"}, {"kind": "computer", "level": 3},
             {"kind": "local", "name": "Ola"}, {"kind": "computer", "level": 3}]
    r = client.post("/api/games", json={"game": "marbles", "variant": "4p", "seats": seats,
                                        "rounds": 1})
    assert r.status_code == 201, r.json
    gid = r.json["id"]
    want = ["Pia", "Computer L3 (1)", "Ola", "Computer L3 (2)"]
    assert [s["name"] for s in client.get(f"/api/games/{gid}").json["seats"]] == want
    lobby = next(g for g in client.get("/api/games").json["games"] if g["id"] == gid)
    assert [s["name"] for s in lobby["seats"]] == want
    assert client.get(f"/api/games/{gid}/replay").json["players"] == want
    log = json.loads(client.get(f"/api/games/{gid}/replay.json").data)
    created = log["events"][0] if isinstance(log, dict) else log[0]
    assert created["players"] == want


def test_one_computer_keeps_its_plain_name_and_a_leaver_keeps_theirs(client):
    seats = [{"kind": "local", "name": "Pia"}, {"kind": "computer", "level": 3},
             {"kind": "local", "name": "Rolf"}, {"kind": "local", "name": "Yara"}]
    g = client.post("/api/games", json={"game": "marbles", "variant": "4p", "seats": seats,
                                        "rounds": 1}).json
    r = client.post(f"/api/games/{g['id']}/leave", json={"seat": 3},
                    headers=bearer(g["tokens"]["3"]))
    assert r.status_code == 200, r.json
    body = client.get(f"/api/games/{g['id']}").json
    assert [s["name"] for s in body["seats"]] == ["Pia", "Computer L3", "Rolf", "Yara"]
    assert body["seats"][2]["kind"] == "computer"
