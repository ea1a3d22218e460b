"""The hot reads skip the response schemas and reuse views built once per seq: what they
answer must be exactly what the schema would have written, and never a stale turn."""

from __future__ import annotations

import random

import pytest

from server.host import host_of
from server.store import StoreError
from server.web import schemas as S
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, create
from tests.test_api import move, state
from tests.test_api_policies import answer, claim, online_duo, undo


def legal(client, gid, seat, piece=None):
    q = f"&piece={piece}" if piece else ""
    r = client.get(f"/api/games/{gid}/legal?seat={seat}{q}")
    assert r.status_code == 200 and r.mimetype == "application/json"
    return r.json


def same_as_schema(client, gid):
    """GET state equals its schema's dump; every seat's legal list (whole and by piece) too."""
    s = state(client, gid)
    assert S.GameState().dump(s) == s
    for seat in range(1, len(s["seats"]) + 1):
        whole = legal(client, gid, seat)
        assert S.Legal().dump(whole) == whole and whole["seq"] == s["seq"]
        for piece in {m["piece"] for m in whole["moves"][:40]}:
            part = legal(client, gid, seat, piece)
            assert part["moves"] == [m for m in whole["moves"] if m["piece"] == piece]
    return s


def play_random(client, gid, tokens, moves, rng):
    for _ in range(moves):
        s = same_as_schema(client, gid)
        if s["to_move"] is None:
            return s
        seat = s["to_move"]
        options = legal(client, gid, seat)["moves"]
        r = move(client, gid, seat, rng.choice(options)["move"], s["seq"], tokens[str(seat)])
        assert r.status_code == 201, r.json
        after = legal(client, gid, seat)  # the cached list of the old seq is gone
        assert after["seq"] == s["seq"] + 1
    return same_as_schema(client, gid)


def test_state_and_legal_match_their_schemas_through_a_whole_game(client):
    g = create(client, "duo")
    s = play_random(client, g["id"], g["tokens"], 200, random.Random(7))
    assert s["status"] == "finished" and s["result"] is not None


def test_the_cached_views_follow_takebacks_claims_leaving_and_closing(client):
    gid, ann, bob = online_duo(client)
    first = legal(client, gid, 1)["moves"][0]["move"]
    assert move(client, gid, 1, first, 1, ann).status_code == 201
    reply = legal(client, gid, 2)["moves"][0]["move"]
    assert move(client, gid, 2, reply, 2, bob).status_code == 201
    undo(client, gid, 2, 3, bob)
    assert same_as_schema(client, gid)["undo_request"]["waiting"] == [1]
    answer(client, gid, 1, True, ann)
    s = same_as_schema(client, gid)
    assert s["to_move"] == 2 and s["last_move"]["move"] == first
    assert legal(client, gid, 2)["moves"][0]["move"] == reply
    r = client.post(f"/api/games/{gid}/leave", json={"seat": 2}, headers=bearer(bob))
    assert r.status_code == 200, r.json
    s = same_as_schema(client, gid)
    assert s["status"] == "finished" and s["seats"][1]["left"] and s["result"]
    assert legal(client, gid, 1)["moves"] == []


def test_a_claim_shows_at_once_though_the_seq_did_not_move(client):
    g = create(client, "duo", ("open", "local"))
    gid = g["id"]
    assert state(client, gid)["status"] == "open"
    claim(client, gid, 1, "Ann")
    s = same_as_schema(client, gid)
    assert s["status"] == "running" and s["seats"][0]["name"] == "Ann"


def test_closing_clears_the_legal_list(client):
    g = create(client, "duo")
    gid = g["id"]
    assert legal(client, gid, 1)["moves"]
    r = client.post(f"/api/games/{gid}/close", headers=bearer(g["host_token"]))
    assert r.status_code == 200, r.json
    assert legal(client, gid, 1)["moves"] == []
    s = same_as_schema(client, gid)
    assert s["closed"] and not any(seat["can_move"] for seat in s["seats"])


def test_a_failed_commit_leaves_no_view_of_the_move_that_was_not_saved(client, monkeypatch):
    g = create(client, "duo")
    gid, t1 = g["id"], g["tokens"]["1"]
    service = host_of(client.application).service
    before = same_as_schema(client, gid)
    options = legal(client, gid, 1)["moves"]

    def full(*args, **kwargs):
        raise StoreError("database or disk is full", full=True)

    with monkeypatch.context() as m:
        m.setattr(service.store, "append", full)
        r = move(client, gid, 1, options[0]["move"], 1, t1)
        assert r.status_code >= 500 or r.status_code == 507, r.json
    assert state(client, gid) == before
    assert legal(client, gid, 1)["moves"] == options
    assert move(client, gid, 1, options[-1]["move"], 1, t1).status_code == 201
    assert state(client, gid)["last_move"]["move"] == options[-1]["move"]


@pytest.mark.parametrize("variant", ["trio", "classic"])
def test_bigger_boards_match_too(client, variant):
    g = create(client, variant)
    play_random(client, g["id"], g["tokens"], 6, random.Random(3))


def test_finished_games_beyond_the_most_recent_are_parked_and_fold_again_on_demand(client):
    service = host_of(client.application).service
    service.table_set.KEEP_FINISHED = 1
    games, before = [], {}
    for _ in range(3):
        g = create(client, "duo")
        gid = g["id"]
        first = legal(client, gid, 1)["moves"][0]["move"]
        assert move(client, gid, 1, first, 1, g["tokens"]["1"]).status_code == 201
        r = client.post(f"/api/games/{gid}/leave", json={"seat": 2},
                        headers=bearer(g["tokens"]["2"]))
        assert r.status_code == 200, r.json
        before[gid] = state(client, gid)
        games.append(gid)
    tables = [service.table(gid) for gid in games]
    assert [t.parked for t in tables] == [True, True, False]
    lobby = {e["id"]: e for e in client.get("/api/games").json["games"]}
    assert all(lobby[gid]["status"] == "finished" and lobby[gid]["seq"] == 3 for gid in games)
    assert tables[0].parked and tables[1].parked  # the lobby reads their summaries
    assert state(client, games[0]) == before[games[0]]  # folded again from the store
    assert client.get(f"/api/games/{games[0]}/replay.json").status_code == 200
    assert not tables[0].parked and tables[2].parked  # now the most recent one in use
    r = move(client, games[1], 1, "a1", 3, "x")
    assert r.status_code in (401, 403, 409), r.json
    assert state(client, games[1]) == before[games[1]]
