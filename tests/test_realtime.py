"""Socket.IO against a live host on a free loopback port, with python-socketio's client."""

from __future__ import annotations

import queue
import threading

import requests

from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import DEADLINE, wait_for
from tests.socket_client import Client
from tests.test_api import GREEN_X, PLUS

RED = 1


class Phone:
    """A phone at the table: a Socket.IO client that records what the room pushes."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sio = Client()
        self.pushed: dict[str, queue.Queue] = {}
        self.seen: list[int] = []
        self._lock = threading.Lock()
        for name in ("event", "state", "presence", "thinking", "undo_request"):
            self.pushed[name] = queue.Queue()
            self.sio.on(name, self._recorder(name))
        self.sio.connect(url, transports=["websocket"], wait_timeout=10)

    def _recorder(self, name):
        def record(data):
            if name == "event":
                with self._lock:
                    self.seen.append(data["event"]["seq"])
            self.pushed[name].put(data)
        return record

    def call(self, event: str, data: dict) -> dict:
        return self.sio.call(event, data, timeout=DEADLINE)

    def next(self, name: str) -> dict:
        return self.pushed[name].get(timeout=DEADLINE)

    def close(self) -> None:
        self.sio.disconnect()


def new_duo(url: str, kinds=("open", "open")) -> tuple[str, dict]:
    seats = [{"kind": k, **({"level": 1} if k == "computer" else {})} for k in kinds]
    g = requests.post(f"{url}/api/games", json={"variant": "duo", "seats": seats}).json()
    tokens = dict(g["tokens"])
    for i, kind in enumerate(kinds, start=1):
        if kind == "open":
            r = requests.post(f"{url}/api/games/{g['id']}/seats/{i}", json={"name": f"P{i}"})
            tokens[str(i)] = r.json()["token"]
    return g["id"], tokens


def test_two_phones_see_each_others_moves_in_order(live):
    host = live()
    gid, tok = new_duo(host.url)
    ann, bob = Phone(host.url), Phone(host.url)
    try:
        a = ann.call("join", {"game_id": gid, "last_seq": 0, "tokens": [tok["1"]]})
        assert a["ok"] and a["seats"] == [1] and [e["seq"] for e in a["events"]] == [1]
        assert a["state"]["id"] == gid and a["state"]["seq"] == 1
        b = bob.call("join", {"game_id": gid, "last_seq": 1, "tokens": [tok["2"]]})
        assert b["seats"] == [2] and b["events"] == []
        r = ann.call("move", {"game_id": gid, "seat": 1, "move": PLUS, "seq": 1,
                              "token": tok["1"]})
        assert r == {"ok": True, "event": {"type": "cornerclaim_piece_placed", "seq": 2,
                                           "seat": 1, "move": PLUS}}
        pushed = bob.next("event")
        assert pushed["game_id"] == gid and pushed["event"]["seq"] == 2
        assert pushed["state"]["to_move"] == 2
        r = bob.call("move", {"game_id": gid, "seat": 2, "move": GREEN_X, "seq": 2,
                              "token": tok["2"]})
        assert r["ok"]
        assert ann.next("event")["event"]["seq"] == 2
        assert ann.next("event")["event"]["seq"] == 3
        assert bob.next("event")["event"]["seq"] == 3
        assert ann.seen == bob.seen == [2, 3]
    finally:
        ann.close()
        bob.close()


def test_a_phone_that_drops_gets_exactly_what_it_missed(live):
    host = live()
    gid, tok = new_duo(host.url)
    ann, bob = Phone(host.url), Phone(host.url)
    ann.call("join", {"game_id": gid, "last_seq": 0, "tokens": [tok["1"]]})
    bob.call("join", {"game_id": gid, "last_seq": 0, "tokens": [tok["2"]]})
    ann.call("move", {"game_id": gid, "seat": 1, "move": PLUS, "seq": 1, "token": tok["1"]})
    assert bob.next("event")["event"]["seq"] == 2
    bob.close()  # Bob's phone sleeps
    presence = ann.next("presence")
    while presence["seats"][1]["connected"]:
        presence = ann.next("presence")
    assert presence["seats"][1] == {"seat": 2, "connected": False, "away": True}
    r = requests.post(f"{host.url}/api/games/{gid}/undo", json={"seat": 1, "seq": 2},
                      headers={"Authorization": f"Bearer {tok['1']}"})
    assert r.json()["undo_request"]["waiting"] == [2]  # Bob must still agree
    requests.post(f"{host.url}/api/games/{gid}/undo/answer", json={"seat": 2, "accept": True},
                  headers={"Authorization": f"Bearer {tok['2']}"})
    ann.call("move", {"game_id": gid, "seat": 1, "move": "e10", "seq": 3, "token": tok["1"]})
    back = Phone(host.url)
    try:
        r = back.call("join", {"game_id": gid, "last_seq": 2, "tokens": [tok["2"]]})
        assert [(e["seq"], e["type"]) for e in r["events"]] == [
            (3, "move_taken_back"), (4, "cornerclaim_piece_placed")]
        assert r["state"]["seq"] == 4 and r["state"]["seats"][1]["connected"]
        assert not r["state"]["seats"][1]["away"]
    finally:
        back.close()
        ann.close()


def test_a_stale_move_over_the_socket_is_refused_and_changes_nothing(live):
    host = live()
    gid, tok = new_duo(host.url)
    ann = Phone(host.url)
    try:
        ann.call("join", {"game_id": gid, "last_seq": 0, "tokens": [tok["1"]]})
        r = ann.call("move", {"game_id": gid, "seat": 1, "move": PLUS, "seq": 0,
                              "token": tok["1"]})
        assert r["error"]["code"] == "stale_seq" and r["error"]["details"] == {"latest": 1}
        r = ann.call("move", {"game_id": gid, "seat": 1, "move": "a1", "seq": 1,
                              "token": tok["1"]})
        assert r["error"]["code"] == "start_cell" and "e10" in r["error"]["message"]
        r = ann.call("move", {"game_id": gid, "seat": 2, "move": GREEN_X, "seq": 1,
                              "token": tok["1"]})
        assert r["error"]["code"] == "forbidden"
        assert ann.call("move", {"game_id": gid})["error"]["code"] == "invalid_request"
        assert ann.call("move", ["not", "a", "dict"])["error"]["code"] == "bad_request"
        r = ann.call("join", {"game_id": "nope", "last_seq": 0})
        assert r["error"]["code"] == "unknown_game"
        assert requests.get(f"{host.url}/api/games/{gid}").json()["seq"] == 1
        assert ann.pushed["event"].empty()
    finally:
        ann.close()


def test_a_spectator_watches_and_undo_requests_reach_the_room(live):
    host = live()
    gid, tok = new_duo(host.url)
    ann, fan = Phone(host.url), Phone(host.url)
    try:
        ann.call("join", {"game_id": gid, "last_seq": 0, "tokens": [tok["1"]]})
        watch = fan.call("join", {"game_id": gid, "last_seq": 0})
        assert watch["ok"] and watch["seats"] == []
        ann.call("move", {"game_id": gid, "seat": 1, "move": PLUS, "seq": 1, "token": tok["1"]})
        assert fan.next("event")["event"]["seq"] == 2
        r = ann.call("undo", {"game_id": gid, "seat": 1, "seq": 2, "token": tok["1"]})
        assert r["ok"] and r["undo_request"]["waiting"] == [2]
        assert fan.next("undo_request")["undo_request"]["seat"] == 1
        r = fan.call("undo_answer", {"game_id": gid, "seat": 2, "accept": True})
        assert r["error"]["code"] == "unauthorized"  # a spectator cannot answer
        r = ann.call("leave", {"game_id": gid, "seat": 1, "token": tok["1"]})
        assert r["ok"] and r["event"]["type"] == "player_left"
        assert fan.next("undo_request")["undo_request"] is None  # dropped: the game moved on
        final = fan.next("event")
        assert final["state"]["status"] == "finished" and final["state"]["result"]["winners"] == [2]
    finally:
        ann.close()
        fan.close()


def test_computer_seats_play_a_whole_game_and_say_when_they_think(live):
    host = live()
    gid, _ = new_duo(host.url, ("computer", "computer"))
    fan = Phone(host.url)
    try:
        joined = fan.call("join", {"game_id": gid, "last_seq": 0})
        seen = [e["seq"] for e in joined["events"]]
        status = joined["state"]["status"]
        while status != "finished":
            pushed = fan.next("event")
            seen.append(pushed["event"]["seq"])
            status = pushed["state"]["status"]
        assert seen == list(range(1, len(seen) + 1))  # every event once, in order
        thinking = fan.next("thinking")
        assert thinking["game_id"] == gid and thinking["seat"] in (1, 2)
        state = requests.get(f"{host.url}/api/games/{gid}").json()
        assert state["result"]["winners"] and state["to_move"] is None
        assert all(not s["can_move"] for s in state["seats"])
    finally:
        fan.close()


def test_presence_follows_the_phones(live):
    host = live()
    gid, tok = new_duo(host.url)
    fan = Phone(host.url)
    fan.call("join", {"game_id": gid, "last_seq": 0})
    ann = Phone(host.url)
    ann.call("join", {"game_id": gid, "last_seq": 0, "tokens": [tok["1"]]})
    p = fan.next("presence")
    assert p["game_id"] == gid and p["seats"][0] == {"seat": 1, "connected": True, "away": False}
    ann.close()
    p = fan.next("presence")
    assert p["seats"][0] == {"seat": 1, "connected": False, "away": True}
    wait_for(lambda: requests.get(f"{host.url}/api/games/{gid}").json()["seats"][0]["away"],
             "the REST state to show the seat away")
    fan.close()


def test_socket_events_run_in_a_request_context_without_a_routing_error(make_app):
    """Flask-SocketIO builds each event's request context from the socket's handshake; a
    routing error kept there is a reference cycle per move, left to the cyclic collector."""
    import gc

    from flask import request

    app = make_app(START_BOTS=False)
    websocket = {"Upgrade": "websocket", "Connection": "Upgrade"}
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(20):
            with app.test_request_context("/socket.io/?EIO=4&transport=websocket",
                                          headers=websocket):
                assert request.routing_exception is None
        gc.collect()
        exceptions = [o for o in gc.garbage if isinstance(o, BaseException)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert exceptions == []
    with app.test_request_context("/socket.io/?EIO=4&transport=polling"):
        assert request.routing_exception is None  # the phone UI's catch-all route
    assert app.test_client().get("/socket.io/", headers=websocket).status_code in (400, 404)


def test_a_phone_that_leaves_a_game_no_longer_holds_its_seat(live):
    """`unjoin` (back to the lobby, on to the rematch) releases the seat at once: the others
    see it away, without waiting for the socket to close."""
    host = live()
    gid, tok = new_duo(host.url)
    fan = Phone(host.url)
    fan.call("join", {"game_id": gid, "last_seq": 0})
    ann = Phone(host.url)
    try:
        ann.call("join", {"game_id": gid, "last_seq": 0, "tokens": [tok["1"]]})
        p = fan.next("presence")
        assert p["seats"][0] == {"seat": 1, "connected": True, "away": False}
        assert ann.call("unjoin", {"game_id": gid}) == {"ok": True}
        p = fan.next("presence")
        assert p["seats"][0] == {"seat": 1, "connected": False, "away": True}
        state = requests.get(f"{host.url}/api/games/{gid}").json()
        assert state["seats"][0]["away"]
        assert ann.sio.connected  # the socket itself stays, for the next game
    finally:
        ann.close()
        fan.close()


def test_pushes_are_sent_as_json_without_a_scan_for_binary_parts(live, monkeypatch):
    """The host sends JSON only: python-socketio's walk over every pushed state looking for
    bytes is never made (`JsonPacket`)."""
    from socketio.packet import Packet

    scan = Packet.data_is_binary
    pushes = []

    def scanned(cls, data):  # the test's own clients use Packet too: only the pushes count
        if isinstance(data, list) and data[:1] == ["event"]:
            pushes.append(data)
        return scan(data)

    monkeypatch.setattr(Packet, "data_is_binary", classmethod(scanned))
    host = live()
    gid, tok = new_duo(host.url)
    ann, bob = Phone(host.url), Phone(host.url)
    try:
        assert ann.call("join", {"game_id": gid, "last_seq": 0, "tokens": [tok["1"]]})["ok"]
        assert bob.call("join", {"game_id": gid, "last_seq": 0, "tokens": [tok["2"]]})["ok"]
        r = ann.call("move", {"game_id": gid, "seat": 1, "move": PLUS, "seq": 1,
                              "token": tok["1"]})
        assert r["ok"]
        assert bob.next("event")["state"]["seq"] == 2
        assert ann.next("event")["state"]["seq"] == 2
        assert pushes == []
    finally:
        ann.close()
        bob.close()
