"""A command's REST answer carries the game's state after it: the very state its room is
pushed with the command's event (built once for both), the same as `GET` of the game."""

from __future__ import annotations

from server.tables import views
from server.web import schemas as S
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, create
from tests.test_api import move, state
from tests.test_api_policies import answer, online_duo, undo


def first_move(client, gid, seat):
    return client.get(f"/api/games/{gid}/legal?seat={seat}").json["moves"][0]["move"]


def test_a_moves_answer_has_the_state_at_the_new_seq_as_get_gives_it(client):
    g = create(client, "duo")
    gid = g["id"]
    for seat, seq in ((1, 1), (2, 2)):
        r = move(client, gid, seat, first_move(client, gid, seat), seq, g["tokens"][str(seat)])
        assert r.status_code == 201, r.json
        assert r.json["event"]["seq"] == seq + 1
        assert r.json["state"]["seq"] == seq + 1
        assert r.json["state"] == state(client, gid)
        assert S.EventResult().dump(r.json) == r.json  # what the schema would have written


def test_an_actions_and_a_takebacks_answers_carry_the_state(client):
    r = client.post("/api/games", json={"game": "corners", "variant": "classic-3x3",
                                        "clock": None,
                                        "seats": [{"kind": "local"}, {"kind": "local"}]})
    gid, tokens = r.json["id"], r.json["tokens"]
    r = move(client, gid, 1, first_move(client, gid, 1), 1, tokens["1"])
    r = client.post(f"/api/games/{gid}/actions", json={"seat": 2, "action": "offer_draw",
                                                       "seq": 2}, headers=bearer(tokens["2"]))
    assert r.status_code == 201, r.json
    assert r.json["state"]["seq"] == 3 and r.json["state"] == state(client, gid)
    r = undo(client, gid, 1, 3, tokens["1"])  # a hot seat: at once
    assert r.status_code == 200, r.json
    assert r.json["event"]["type"] == "move_taken_back"
    assert r.json["state"]["seq"] == 4 and r.json["state"] == state(client, gid)
    assert S.UndoResult().dump(r.json) == r.json


def test_a_takeback_request_and_its_answer_carry_the_state_as_it_is_then(client):
    gid, ann, bob = online_duo(client)
    r = move(client, gid, 1, first_move(client, gid, 1), 1, ann)
    r = undo(client, gid, 1, 2, ann)
    assert r.json["event"] is None and r.json["undo_request"]["waiting"] == [2]
    assert r.json["state"]["undo_request"] == r.json["undo_request"]
    assert r.json["state"] == state(client, gid)
    r = answer(client, gid, 2, True, bob)
    assert r.json["state"]["seq"] == 3 and r.json["state"]["undo_request"] is None
    assert r.json["state"] == state(client, gid)


def test_the_push_and_the_answer_share_one_state_built_once(client, monkeypatch):
    g = create(client, "duo")
    gid = g["id"]
    built = []
    real = views.game_body
    monkeypatch.setattr(views, "game_body", lambda *a: built.append(1) or real(*a))
    r = move(client, gid, 1, first_move(client, gid, 1), 1, g["tokens"]["1"])
    assert r.status_code == 201 and r.json["state"]["seq"] == 2
    assert len(built) == 1  # by the room's push; the answer reused it
