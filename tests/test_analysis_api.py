"""A finished game's analysis through the host: refused while the game is played, queued,
pushed to the game's room as it progresses, done, kept in the store (never computed again,
still there after a restart, taken up where it stood), started by itself after a game
against the computer, and served by any process of a club's host. The hosts review at
level 1 (`ANALYSIS_LEVEL`), the cheapest review of each game."""

from __future__ import annotations

import json
import os
import time

import pytest
import requests

from engine.marbles import SAMPLE_SETUP
from server.app import create_app, shutdown_app
from server.bots.analysis import NICE
from server.bots.pool import BotPool
from server.cli import main
from server.host import host_of
from server.store import AnalysisRecord
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, proc_fields, wait_for
from tests.test_realtime import Phone

CONFIG = {"ANALYSIS_LEVEL": 1, "ANALYSIS_AUTO": False, "WRITE_RATE": None}
MOVES = 4


class Http:
    """The REST calls of a test, on a live host (`url`) or Flask's test client."""

    def __init__(self, url: str | None = None, client=None) -> None:
        self.url, self.client = url, client

    def call(self, method: str, path: str, **kw):
        if self.client is not None:
            r = getattr(self.client, method)(path, **kw)
            return r.status_code, r.json
        r = requests.request(method, self.url + path, timeout=60, **kw)
        return r.status_code, r.json()


def marbles_game(http: Http, kinds=("local", "local")) -> tuple[str, dict]:
    seats = [{"kind": k, **({"level": 1} if k == "computer" else {})} for k in kinds]
    status, body = http.call("post", "/api/games", json={
        "game": "marbles", "variant": "2p", "seats": seats, "rounds": 1,
        "setups": [SAMPLE_SETUP]})
    assert status == 201, body
    return body["id"], body["tokens"]


def play(http: Http, gid: str, tokens: dict, moves: int) -> list[int]:
    """Play `moves` moves at the local seats (each its first legal move); their seqs."""
    seqs = []
    for _ in range(moves):
        _, state = http.call("get", f"/api/games/{gid}")
        seat = state["to_move"]
        _, legal = http.call("get", f"/api/games/{gid}/legal?seat={seat}")
        status, body = http.call("post", f"/api/games/{gid}/moves", json={
            "seat": seat, "move": legal["moves"][0]["move"], "seq": state["seq"]},
            headers=bearer(tokens[str(seat)]))
        assert status == 201, body
        seqs.append(body["event"]["seq"])
    return seqs


def finished_game(http: Http) -> tuple[str, list[int]]:
    """A marble game of MOVES moves that seat 2 then resigned (it leaves)."""
    gid, tokens = marbles_game(http)
    seqs = play(http, gid, tokens, MOVES)
    status, body = http.call("post", f"/api/games/{gid}/leave", json={"seat": 2},
                             headers=bearer(tokens["2"]))
    assert status == 200, body
    return gid, seqs


def test_a_game_in_play_is_not_analysed(make_app):
    app = make_app(START_BOTS=False, **CONFIG)
    http = Http(client=app.test_client())
    gid, tokens = marbles_game(http)
    play(http, gid, tokens, 2)
    status, body = http.call("post", f"/api/games/{gid}/analysis")
    assert status == 409 and body["error"]["code"] == "game_in_play"
    assert "still being played" in body["error"]["message"]
    status, body = http.call("get", f"/api/games/{gid}/analysis")
    assert status == 404 and body["error"]["code"] == "no_analysis"
    assert host_of(app).store.analysis(gid) is None
    status, body = http.call("post", "/api/games/nosuchgame/analysis")
    assert status == 404


def test_an_analysis_is_queued_pushed_as_it_goes_done_and_stored(live, tmp_path, capsys):
    host = live(**CONFIG)
    http = Http(host.url)
    gid, seqs = finished_game(http)
    phone = Phone(host.url)
    phone.pushed["analysis"] = pushed = __import__("queue").Queue()
    phone.sio.on("analysis", pushed.put)
    try:
        assert phone.call("join", {"game_id": gid, "last_seq": 0})["ok"]
        status, body = http.call("post", f"/api/games/{gid}/analysis")
        assert status == 202 and body["status"] in ("queued", "running", "done")
        assert body["game_id"] == gid and body["unit"] == "points" and body["level"] == 1
        heard = [phone.next("analysis")]
        while heard[-1]["status"] != "done":
            heard.append(phone.next("analysis"))
    finally:
        phone.close()
    assert [h["status"] for h in heard][0] == "queued"
    progress = [h["progress"] for h in heard]
    assert progress == sorted(progress) and progress[0] == 0.0 and progress[-1] == 1.0
    assert [len(h["plies"]) for h in heard[1:]] == list(range(1, MOVES + 1))
    done = heard[-1]
    assert [p["seq"] for p in done["plies"]] == seqs
    assert [p["ply"] for p in done["plies"]] == list(range(1, MOVES + 1))
    for p in done["plies"]:
        assert p["loss"] >= 0 and p["label"] in ("best", "good", "inaccuracy", "mistake",
                                                   "blunder")
        assert p["loss"] == pytest.approx(max(0, p["value_before"] - p["value_after"]))
    assert done["end_value"] >= 1  # seat 2 resigned: the first seat won
    assert http.call("get", f"/api/games/{gid}/analysis") == (200, done)
    # the command line's --json prints the same body for the game's record
    record = tmp_path / f"{gid}.json"
    record.write_bytes(requests.get(f"{host.url}/api/games/{gid}/replay.json", timeout=10).content)
    assert main(["analyse", str(record), "--json", "--level", "1"]) == 0
    assert json.loads(capsys.readouterr().out) == done
    stored = host_of(host.app).store.analysis(gid)
    assert stored.status == "done" and stored.plies == done["plies"]
    # asked again: given as it is, never computed again
    assert http.call("post", f"/api/games/{gid}/analysis") == (202, done)
    assert host_of(host.app).store.analysis(gid).updated == stored.updated
    assert not host_of(host.app).analyses.busy()


def test_an_analysis_survives_a_restart_and_an_unfinished_one_goes_on_where_it_stood(
        make_app, tmp_path):
    app = make_app(**CONFIG)
    http = Http(client=app.test_client())
    gid, seqs = finished_game(http)
    assert http.call("post", f"/api/games/{gid}/analysis")[0] == 202
    done = wait_for(lambda: (lambda r: r[1] if r[1]["status"] == "done" else None)(
        http.call("get", f"/api/games/{gid}/analysis")), "the analysis")
    store = host_of(app).store
    # a host that stopped half way: two moves reviewed (marked, to tell them from a review)
    other, _ = finished_game(http)
    marked = [{**p, "seq": s, "label": "good"} for p, s in zip(done["plies"][:2], seqs[:2],
                                                                strict=True)]
    store.put_analysis(AnalysisRecord(other, "running", MOVES, marked, 1,
                                      host_of(app).service.table(other).game.seq,
                                      updated=time.time()))
    shutdown_app(app)
    again = make_app(**CONFIG)
    http = Http(client=again.test_client())
    assert http.call("get", f"/api/games/{gid}/analysis") == (200, done)
    resumed = wait_for(lambda: (lambda r: r[1] if r[1]["status"] == "done" else None)(
        http.call("get", f"/api/games/{other}/analysis")), "the analysis taken up")
    assert resumed["plies"][:2] == marked  # not reviewed again
    assert [p["ply"] for p in resumed["plies"]] == list(range(1, MOVES + 1))


def test_a_game_against_the_computer_is_analysed_when_it_ends(make_app):
    app = make_app(**{**CONFIG, "ANALYSIS_AUTO": True})
    http = Http(client=app.test_client())
    gid, tokens = marbles_game(http, ("local", "computer"))
    play(http, gid, tokens, 1)
    wait_for(lambda: http.call("get", f"/api/games/{gid}")[1]["to_move"] == 1,
             "the computer's move")
    status, _ = http.call("post", f"/api/games/{gid}/leave", json={"seat": 1},
                          headers=bearer(tokens["1"]))
    assert status == 200
    done = wait_for(lambda: (lambda r: r[1] if r[0] == 200 and r[1]["status"] == "done"
                             else None)(http.call("get", f"/api/games/{gid}/analysis")),
                    "the analysis started by itself")
    assert [p["seat"] for p in done["plies"]] == [1, 2]


def test_any_process_of_a_club_serves_the_analysis(pg_url, redis_url, tmp_path):
    config = {**CONFIG, "STORE": pg_url, "MESSAGE_QUEUE": redis_url, "HEARTBEAT": 0.2,
              "BOT_DELAY": 0, "BOT_WORKERS": 1, "BOT_WARM_UP": False}
    one = create_app({**config, "DATA_DIR": str(tmp_path / "one")})
    two = create_app({**config, "DATA_DIR": str(tmp_path / "two")})
    try:
        a, b = Http(client=one.test_client()), Http(client=two.test_client())
        gid, seqs = finished_game(a)
        assert a.call("post", f"/api/games/{gid}/analysis")[0] == 202
        # the other process answers from the store, and asked too it leaves the job alone
        status, body = b.call("post", f"/api/games/{gid}/analysis")
        assert status == 202 and body["status"] in ("queued", "running", "done")
        done = wait_for(lambda: (lambda r: r[1] if r[1]["status"] == "done" else None)(
            b.call("get", f"/api/games/{gid}/analysis")), "the analysis on the other process")
        assert [p["seq"] for p in done["plies"]] == seqs
        assert a.call("get", f"/api/games/{gid}/analysis") == (200, done)
        assert not host_of(two).analyses.busy()
    finally:
        shutdown_app(one)
        shutdown_app(two)


def test_the_analysis_worker_runs_at_the_lowest_priority_and_stops_while_told():
    pool = BotPool(1, warm=False, nice=NICE)
    try:
        pid = pool.call(os.getpid, timeout=60)
        assert int(proc_fields(pid)[16]) == 19  # /proc/PID/stat's nice
        pool.pause()
        wait_for(lambda: proc_fields(pid)[0] == "T", "the worker stopped")
        pool.resume()
        wait_for(lambda: proc_fields(pid)[0] != "T", "the worker going on")
        assert pool.call(os.getpid, timeout=60) == pid
    finally:
        pool.shutdown()
