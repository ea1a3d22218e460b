"""Host policies over REST: takebacks, leaving, away seats, the host's powers, rematches,
and a restart that brings every game back at the same seq with the same seats and tokens."""

from __future__ import annotations

from server.host import host_of
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, create, wait_for
from tests.test_api import GREEN_X, PLUS, assert_error, move, state


def claim(client, gid, seat, name):
    r = client.post(f"/api/games/{gid}/seats/{seat}", json={"name": name})
    assert r.status_code == 200, r.json
    return r.json["token"]


def first_legal(client, gid, seat, piece=None):
    q = f"&piece={piece}" if piece else ""
    return client.get(f"/api/games/{gid}/legal?seat={seat}{q}").json["moves"][0]["move"]


def undo(client, gid, seat, seq, token):
    return client.post(f"/api/games/{gid}/undo", json={"seat": seat, "seq": seq},
                       headers=bearer(token))


def answer(client, gid, seat, accept, token):
    return client.post(f"/api/games/{gid}/undo/answer", json={"seat": seat, "accept": accept},
                       headers=bearer(token))


def online_duo(client):
    """Ann and Bob each on their own phone (two open seats, both claimed)."""
    g = create(client, "duo", ("open", "open"))
    gid = g["id"]
    return gid, claim(client, gid, 1, "Ann"), claim(client, gid, 2, "Bob")


# -- undo ----------------------------------------------------------------------------------
def test_on_a_hot_seat_a_takeback_happens_at_once(client):
    g = create(client, "duo")
    gid, t1, t2 = g["id"], g["tokens"]["1"], g["tokens"]["2"]
    move(client, gid, 1, PLUS, 1, t1)
    move(client, gid, 2, GREEN_X, 2, t2)
    r = undo(client, gid, 1, 3, t1)  # blue takes back the cross and green's reply with it
    assert r.status_code == 200
    assert r.json["event"] == {"type": "move_taken_back", "seq": 4, "seat": 1, "from_seq": 2}
    s = state(client, gid)
    assert s["seq"] == 4 and s["to_move"] == 1 and s["last_move"] is None
    assert all(v == 0 for row in s["board"]["rows"] for v in row)
    assert len(client.get(f"/api/games/{gid}/events").json["events"]) == 4  # nothing deleted
    assert_error(undo(client, gid, 1, 4, t1), 409, "nothing_to_undo")
    assert_error(undo(client, gid, 1, 3, t1), 409, "stale_seq")


def test_a_takeback_against_a_person_waits_for_their_yes(client):
    gid, ann, bob = online_duo(client)
    move(client, gid, 1, PLUS, 1, ann)
    r = undo(client, gid, 1, 2, ann)
    assert r.status_code == 200 and r.json["event"] is None
    assert r.json["undo_request"]["seat"] == 1 and r.json["undo_request"]["waiting"] == [2]
    assert state(client, gid)["undo_request"]["waiting"] == [2]
    assert_error(undo(client, gid, 1, 2, ann), 409, "undo_pending")
    assert_error(answer(client, gid, 1, True, ann), 409, "no_undo_request")  # not hers to answer
    r = answer(client, gid, 2, True, bob)
    assert r.json["event"]["type"] == "move_taken_back"
    s = state(client, gid)
    assert s["seq"] == 3 and s["undo_request"] is None and s["to_move"] == 1


def test_a_declined_or_overtaken_request_is_dropped_and_nothing_is_taken_back(client):
    gid, ann, bob = online_duo(client)
    move(client, gid, 1, PLUS, 1, ann)
    undo(client, gid, 1, 2, ann)
    assert answer(client, gid, 2, False, bob).json["undo_request"] is None
    assert state(client, gid)["undo_request"] is None and state(client, gid)["seq"] == 2
    undo(client, gid, 1, 2, ann)
    move(client, gid, 2, GREEN_X, 2, bob)  # Bob plays on instead of answering
    assert state(client, gid)["undo_request"] is None
    assert_error(answer(client, gid, 2, True, bob), 409, "no_undo_request")
    assert state(client, gid)["seq"] == 3


def test_an_unanswered_request_lapses(make_app):
    client = make_app(UNDO_TIMEOUT=0.05).test_client()
    gid, ann, _ = online_duo(client)
    move(client, gid, 1, PLUS, 1, ann)
    assert undo(client, gid, 1, 2, ann).json["undo_request"]["expires_in"] == 0.05
    wait_for(lambda: state(client, gid)["undo_request"] is None, "the request to lapse")
    assert state(client, gid)["seq"] == 2


def test_no_takeback_once_the_game_is_over(client):
    g = create(client, "duo")
    gid, t1, t2 = g["id"], g["tokens"]["1"], g["tokens"]["2"]
    move(client, gid, 1, PLUS, 1, t1)
    client.post(f"/api/games/{gid}/leave", json={"seat": 2}, headers=bearer(t2))
    assert_error(undo(client, gid, 1, 3, t1), 409, "game_over")


# -- leaving -------------------------------------------------------------------------------
def test_in_a_duel_leaving_resigns(client):
    g = create(client, "duo")
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/leave", json={"seat": 1}, headers=bearer(g["tokens"]["1"]))
    assert r.json["event"] == {"type": "player_left", "seq": 2, "seat": 1}
    s = state(client, gid)
    assert s["status"] == "finished" and s["to_move"] is None
    assert s["result"]["winners"] == [2] and s["seats"][0]["left"]
    r = client.post(f"/api/games/{gid}/leave", json={"seat": 2}, headers=bearer(g["tokens"]["2"]))
    assert_error(r, 409, "game_over")


def test_in_three_a_leaver_with_the_best_score_cannot_win(client):
    g = create(client, "trio")
    gid, tok = g["id"], g["tokens"]
    seq = 1
    for seat, piece in ((1, "1"), (2, "I5"), (3, "1"), (1, "2"), (2, "L5"), (3, "2")):
        assert move(client, gid, seat, first_legal(client, gid, seat, piece), seq,
                    tok[str(seat)]).status_code == 201
        seq += 1
    r = client.post(f"/api/games/{gid}/leave", json={"seat": 2}, headers=bearer(tok["2"]))
    assert r.status_code == 200
    s = state(client, gid)
    assert s["status"] == "running" and s["to_move"] == 1
    assert s["seats"][1]["left"] and not s["seats"][1]["can_move"]
    move(client, gid, 1, first_legal(client, gid, 1, "I3"), s["seq"], tok["1"])
    s = state(client, gid)
    assert s["to_move"] == 3  # seat 2 is skipped from now on
    assert_error(move(client, gid, 2, first_legal(client, gid, 3), s["seq"], tok["2"]), 409,
                 "seat_left")
    table = host_of(client.application).service.table(gid)
    standing = table.rules.outcome(table.state)  # as the rules would end it now
    scores = list(standing.scores)
    assert scores[1] == max(scores) and scores.count(scores[1]) == 1  # seat 2 leads...
    assert 2 not in standing.winners  # ...and yet seat 1 or 3 wins
    assert set(standing.winners) <= {1, 3} and standing.results[1] == "loss"


def test_an_away_seat_is_declared_left_only_after_the_grace_period(make_app):
    patient = make_app(AWAY_GRACE=3600).test_client()
    g = create(patient, "trio", ("local", "open", "local"))
    gid = g["id"]
    claim(patient, gid, 2, "Bob")
    r = patient.post(f"/api/games/{gid}/seats/2/left", headers=bearer(g["host_token"]))
    err = assert_error(r, 409, "grace_period")
    assert err["details"]["seconds_left"] > 0
    assert not state(patient, gid)["seats"][1]["left"]


def test_after_the_grace_period_the_host_or_a_seated_player_may_declare_it(make_app):
    client = make_app(AWAY_GRACE=0).test_client()
    g = create(client, "trio", ("local", "open", "open"))
    gid = g["id"]
    bob = claim(client, gid, 2, "Bob")
    claim(client, gid, 3, "Cy")
    assert state(client, gid)["seats"][2]["away"]  # no socket holds Cy's seat
    r = client.post(f"/api/games/{gid}/seats/3/left")
    assert_error(r, 401, "unauthorized")
    r = client.post(f"/api/games/{gid}/seats/3/left", headers=bearer("made-up"))
    assert_error(r, 403, "forbidden")
    r = client.post(f"/api/games/{gid}/seats/3/left", headers=bearer(bob))
    assert r.json["event"] == {"type": "player_left", "seq": 2, "seat": 3}
    r = client.post(f"/api/games/{gid}/seats/2/left", headers=bearer(g["host_token"]))
    assert r.json["event"]["seat"] == 2
    assert state(client, gid)["status"] == "running"  # seat 1 plays on alone


# -- the host's powers, rematch ------------------------------------------------------------
def test_only_the_host_closes_a_game_or_removes_a_computer(client):
    g = create(client, "duo", ("local", "computer"))
    gid, host = g["id"], g["host_token"]
    assert_error(client.post(f"/api/games/{gid}/close"), 401, "unauthorized")
    assert_error(client.post(f"/api/games/{gid}/close", headers=bearer(g["tokens"]["1"])), 403,
                 "forbidden")
    assert_error(client.delete(f"/api/games/{gid}/seats/1", headers=bearer(host)), 409,
                 "not_computer")
    s = client.delete(f"/api/games/{gid}/seats/2", headers=bearer(host)).json
    assert s["seats"][1]["kind"] == "open" and s["status"] == "open"
    s = client.post(f"/api/games/{gid}/close", headers=bearer(host)).json
    assert s["status"] == "finished" and s["closed"] and s["result"] is not None
    assert_error(move(client, gid, 1, PLUS, s["seq"], g["tokens"]["1"]), 409, "closed")


def test_a_rematch_is_one_game_however_many_ask(client):
    gid, ann, bob = online_duo(client)
    assert_error(client.post(f"/api/games/{gid}/rematch", headers=bearer(ann)), 409,
                 "not_finished")
    client.post(f"/api/games/{gid}/leave", json={"seat": 2}, headers=bearer(bob))
    assert_error(client.post(f"/api/games/{gid}/rematch"), 401, "unauthorized")
    first = client.post(f"/api/games/{gid}/rematch", headers=bearer(bob)).json
    second = client.post(f"/api/games/{gid}/rematch", headers=bearer(ann)).json
    assert first["created"] and not second["created"] and first["id"] == second["id"]
    new = first["id"]
    assert state(client, gid)["rematch_id"] == new
    s = state(client, new)
    assert s["status"] == "running" and [x["name"] for x in s["seats"]] == ["Ann", "Bob"]
    assert move(client, new, 1, PLUS, 1, ann).status_code == 201  # same seats, same tokens


# -- restart -------------------------------------------------------------------------------
def test_a_restarted_host_has_every_game_at_the_same_seq_with_the_same_tokens(make_app):
    first = make_app()
    c = first.test_client()
    g = create(c, "duo", ("local", "open"))
    gid = g["id"]
    bob = claim(c, gid, 2, "Bob")
    move(c, gid, 1, PLUS, 1, g["tokens"]["1"])
    before = state(c, gid)
    from server.app import shutdown_app

    shutdown_app(first)
    again = make_app().test_client()
    assert state(again, gid) == before
    assert move(again, gid, 2, GREEN_X, 2, bob).status_code == 201
    r = again.post(f"/api/games/{gid}/close", headers=bearer(g["host_token"]))
    assert r.status_code == 200
