"""A hostile phone on the host's Socket.IO port, speaking Engine.IO v4 / Socket.IO v5 frames by
hand over a plain websocket: reserved event names, packets the host cannot read or does not
serve, frames that are not Engine.IO at all, and a fuzzer of all of them. Each message gets an
answer (an error ack when it carries an ack id, else the connection closed), one WARNING line
and no traceback, and the host goes on serving everyone else (server/realtime/guard.py)."""

from __future__ import annotations

import json
import logging
import re
import threading
import time

import pytest
import requests
import websocket
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import boundedjson
from server.realtime.guard import RESERVED
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import create, wait_for
from tests.socket_client import Client

#: Seconds to wait for a frame the host must send. Only a failing test waits this long.
TIMEOUT = 30.0
GUARD = "server.realtime.guard"
HANDLERS = ["join", "unjoin", "move", "action", "undo", "undo_answer", "leave", "declare_left"]
ACK = re.compile(r"43(\d+)(.*)\Z", re.S)


class Raw:
    """A websocket to the host, Engine.IO and Socket.IO written by hand. It answers the host's
    pings, keeps what the host pushes, and reports each other frame or the close."""

    def __init__(self, url: str, *, connect: bool = True) -> None:
        port = url.rsplit(":", 1)[1]
        self.ws = websocket.create_connection(
            f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", timeout=TIMEOUT)
        self.pushed: list[str] = []
        self.last_push: dict = {}
        self.closed = False
        opening = self.ws.recv()
        assert opening.startswith("0{"), opening
        if connect:
            self.send("40")
            frame = self.next()
            assert frame is not None and frame.startswith('40{"sid":'), frame

    def send(self, frame: str | bytes) -> None:
        try:
            if isinstance(frame, bytes):
                self.ws.send_binary(frame)
            else:
                self.ws.send(frame)
        except (OSError, websocket.WebSocketException):
            self.closed = True  # the host closed it already: the close is its answer

    def next(self, *, push: str | None = None) -> str | None:
        """The host's next Socket.IO frame other than a push (or, with `push`, the next push
        of that event); None once it has closed the connection (Engine.IO's `1`, or the
        websocket itself). The host's pings do not count: after TIMEOUT, the test fails."""
        deadline = time.monotonic() + TIMEOUT
        while not self.closed:
            if push is not None and self.pushed:
                name, self.last_push = json.loads(self.pushed.pop(0)[2:])
                if name == push:
                    return name
                continue
            left = deadline - time.monotonic()
            assert left > 0, "the host sent nothing in time"
            self.ws.settimeout(left)
            try:
                frame = self.ws.recv()
            except (websocket.WebSocketConnectionClosedException, ConnectionError):
                frame = ""  # closed, or reset (the host shut it while a long frame went out)
            if frame == "2":
                try:
                    self.send("3")
                except (websocket.WebSocketConnectionClosedException, ConnectionError):
                    self.closed = True
            elif frame.startswith("42"):
                self.pushed.append(frame)
            elif frame in ("", "1"):
                self.closed = True
            elif frame == "6":
                pass  # Engine.IO's noop: what an upgrade packet is answered with
            else:
                return frame
        return None

    def answer(self) -> tuple[int, object] | None:
        """The next ack as (id, its first argument), or None when the host closed instead."""
        frame = self.next()
        if frame is None:
            return None
        match = ACK.match(frame)
        assert match, f"not an ack: {frame[:200]!r}"
        args = json.loads(match[2])
        return int(match[1]), args[0] if args else None

    def call(self, ack_id: int, event: str, data: object) -> object:
        self.send(f"42{ack_id}{json.dumps([event, data])}")
        answer = self.answer()
        assert answer is not None and answer[0] == ack_id, answer
        return answer[1]

    def push(self, event: str) -> dict:
        """The data of the next push of `event` (waiting for it); other pushes are dropped."""
        frame = self.next(push=event)
        assert frame == event, f"expected a push of {event!r}, got {frame!r}"
        return self.last_push

    def is_closed(self) -> bool:
        """Whether the host closes this connection: nothing but the close comes."""
        frame = self.next()
        assert frame is None, f"expected the connection closed, got {frame[:200]!r}"
        return True

    def close(self) -> None:
        self.ws.close(timeout=0)


def is_error(ack: object, code: str | None = None) -> bool:
    """The API's error shape: {"error": {"code": str, "message": str, "details": dict}}."""
    if not isinstance(ack, dict) or set(ack) != {"error"}:
        return False
    e = ack["error"]
    return (set(e) == {"code", "message", "details"} and isinstance(e["message"], str)
            and isinstance(e["details"], dict) and (code is None or e["code"] == code))


def warnings_and_tracebacks(caplog) -> tuple[list[str], list[str]]:
    """The guard's WARNING lines, and every record that is an error or carries a traceback."""
    guard = [r.getMessage() for r in caplog.records
             if r.name == GUARD and r.levelno == logging.WARNING]
    bad = [f"{r.name}: {r.getMessage()[:300]}" for r in caplog.records
           if r.levelno >= logging.ERROR or r.exc_info or "Traceback" in r.getMessage()]
    return guard, bad


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """One live host for the module's bad packets and fuzzer (no write limit, no bots)."""
    from server.app import create_app, shutdown_app
    from server.serve import werkzeug_server

    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("hostile")), "START_BOTS": False,
                      "WRITE_RATE": None, "TESTING": True, "LOCK_DATA_DIR": False})
    server = werkzeug_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}", app
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
        shutdown_app(app)


def assert_host_healthy(url: str, other: Raw) -> None:
    """REST answers, and a socket that did nothing wrong is still served."""
    assert requests.get(f"{url}/api/health", timeout=TIMEOUT).status_code == 200
    ack = other.call(7, "join", {"game_id": "no-such-game"})
    assert is_error(ack, "unknown_game"), ack


# -- a client's `disconnect` and `connect` events --------------------------------------------
def test_a_disconnect_event_neither_resets_the_rate_limit_nor_shows_the_seat_away(live, caplog):
    host = live(WRITE_RATE=0.001, WRITE_BURST=3)  # three writes, then none for a long while
    rest = host.app.test_client()
    g = create(rest, "duo")
    fan, phone = Raw(host.url), Raw(host.url)
    try:
        assert fan.call(1, "join", {"game_id": g["id"]})["ok"]
        joined = phone.call(1, "join", {"game_id": g["id"], "tokens": [g["tokens"]["1"]]})
        assert joined["ok"] and joined["seats"] == [1]
        assert fan.push("presence")["seats"][0] == {"seat": 1, "connected": True, "away": False}
        move = {"game_id": g["id"], "seat": 1, "move": "z99", "seq": 1, "token": g["tokens"]["1"]}
        codes = [phone.call(10 + i, "move", move)["error"]["code"] for i in range(4)]
        assert codes == ["off_board"] * 3 + ["too_many_requests"]
        with caplog.at_level(logging.WARNING):
            for i, (name, args) in enumerate([("disconnect", []), ("disconnect", ["transport"]),
                                              ("connect", [{}]), ("connect", [])] * 3):
                phone.send(f"42{20 + i}{json.dumps([name, *args])}")
                ack_id, ack = phone.answer()
                assert ack_id == 20 + i and is_error(ack, "reserved_event"), ack
                assert ack["error"]["details"]["event"] == name
                assert phone.call(40 + i, "move", move)["error"]["code"] == "too_many_requests"
                assert rest.get(f"/api/games/{g['id']}").json["seats"][0]["connected"]
        guard, bad = warnings_and_tracebacks(caplog)
        assert len(guard) == 12 and all("reserved" in line for line in guard), guard
        assert bad == []
    finally:
        phone.close()
    try:
        # The next presence the fan is sent is the real disconnect's: the seat away.
        assert fan.push("presence")["seats"][0] == {"seat": 1, "connected": False, "away": True}
        assert not rest.get(f"/api/games/{g['id']}").json["seats"][0]["connected"]
    finally:
        fan.close()


def test_every_reserved_name_is_refused_with_or_without_arguments(host):
    url, _ = host
    phone = Raw(url)
    try:
        for i, name in enumerate(sorted(RESERVED)):
            for j, args in enumerate(([], [{}], ["x", 1])):
                ack_id = 100 * i + j
                phone.send(f"42{ack_id}{json.dumps([name, *args])}")
                assert phone.answer() == (ack_id, reserved_error(name)), name
    finally:
        phone.close()
    assert {"connect", "disconnect", "connect_error", "__disconnect_final"} <= RESERVED


def reserved_error(name: str) -> dict:
    return {"error": {"code": "reserved_event", "message": f"{name!r} is a name Socket.IO "
                      "keeps for itself; a client cannot send it", "details": {"event": name}}}


# -- packets the host cannot read or does not serve: an error ack, or the connection closed ---
DEEP = "[" * 2000 + "]" * 2000
LONG = "9" * 5000

ACKED = {  # a packet with an ack id -> the code of its error ack, and a detail it carries
    "unknown event": ('421["nope",{}]', "unknown_event", ("event", "nope")),
    "unknown event, no arguments": ('421["message"]', "unknown_event", ("event", "message")),
    "non-string event name": ('421[5,{}]', "bad_request", None),
    "null event name": ('421[null]', "bad_request", None),
    "empty array": ("421[]", "bad_request", None),
    "an object for data": ('421{"event":"move"}', "bad_request", None),
    "a string for data": ('421"move"', "bad_request", None),
    "JSON 2,000 deep": (f'421["move",{DEEP}]', "bad_json", ("limit", "depth")),
    "JSON 33 deep": (f'421["move",{"[" * 32 + "]" * 32}]', "bad_json", ("limit", "depth")),
    "a 5,000-digit number": (f'421["move",{LONG}]', "bad_json", ("limit", "number")),
    "a 5,000-digit number as the name": (f"421[{LONG}]", "bad_json", ("limit", "number")),
    "NaN": ('421["move",NaN]', "bad_json", ("limit", "number")),
    "explicit namespace": ('42/,1["nope"]', "unknown_event", ("event", "nope")),
}


@pytest.mark.parametrize("case", list(ACKED))
def test_a_bad_packet_with_an_ack_id_gets_an_error_ack(host, caplog, case):
    url, _ = host
    frame, code, detail = ACKED[case]
    phone, other = Raw(url), Raw(url)
    try:
        with caplog.at_level(logging.WARNING):
            phone.send(frame)
            answer = phone.answer()
            assert answer is not None, f"{case}: the host closed instead of an ack"
            ack_id, ack = answer
            assert ack_id == 1 and is_error(ack, code), (case, ack)
            if detail:
                assert ack["error"]["details"][detail[0]] == detail[1], ack
            if code == "bad_json":
                assert "limit" in ack["error"]["message"] and ack["error"]["details"]["max"]
            assert_host_healthy(url, phone)  # the socket itself goes on
            assert_host_healthy(url, other)
        guard, bad = warnings_and_tracebacks(caplog)
        assert len(guard) == 1 and bad == [], (guard, bad)
    finally:
        phone.close()
        other.close()


CLOSED = {  # a packet or frame that breaks the protocol -> the connection closed
    "not JSON": "42not json",
    "not JSON, with an ack id": "421not json",
    "truncated JSON": '421["move",{',
    "a 5,000-digit ack id": "42" + "1" * 5000 + '["move",{}]',
    "a 101-digit ack id": "42" + "1" * 101 + '["move",{}]',
    "an odd digit in the ack id": '421²["move",{}]',
    "namespace /admin": '42/admin,1["move",{}]',
    "namespace /admin, no ack id": '42/admin,["move",{}]',
    "unknown event, no ack id": '42["nope",{}]',
    "reserved event, no ack id": '42["disconnect"]',
    "empty array, no ack id": "42[]",
    "JSON 2,000 deep, no ack id": f'42["move",{DEEP}]',
    "a 5,000-digit number, no ack id": f'42["move",{LONG}]',
    "an ack nobody asked for": "431[]",
    "an ack with id 0": "430[]",
    "a binary event": '451-["move",{"_placeholder":true,"num":0}]',
    "a CONNECT_ERROR": '44{"message":"x"}',
    "packet type 7": "47",
    "packet type 9": '491["move"]',
    "a disconnect from a namespace not joined": "41/admin,",
    "an Engine.IO message without a Socket.IO packet": "4",
    "an Engine.IO message of deep JSON": "4" + DEEP,
    "an Engine.IO message of JSON": '4["move",{}]',
    "not Engine.IO": "x",
    "an empty frame": "",
    "an Engine.IO open from the client": '0{"sid":"x"}',
    "an Engine.IO noop": "6",
    "an Engine.IO ping from the client": "2",
    "a base64 frame": "bBAQ=",
    "a binary frame": b"\x04\x02\x00",
    "a digit that is not ASCII": "٤٢[\"nope\"]",
    "a message over 64 KiB": '421["join",{"game_id":"' + "x" * 70_000 + '"}]',
}


@pytest.mark.parametrize("case", list(CLOSED))
def test_a_packet_that_breaks_the_protocol_closes_the_connection(host, caplog, case):
    url, _ = host
    phone, other = Raw(url), Raw(url)
    try:
        with caplog.at_level(logging.WARNING):
            phone.send(CLOSED[case])
            assert phone.is_closed()
            assert_host_healthy(url, other)
            # a message over the limit is refused by the websocket as it arrives (close 1009,
            # nothing held): the host's line about it follows the close
            wait_for(lambda: warnings_and_tracebacks(caplog)[0], "the host's warning")
        guard, bad = warnings_and_tracebacks(caplog)
        assert len(guard) == 1 and bad == [], (guard, bad)
        assert "closed" in guard[0]
    finally:
        phone.close()
        other.close()


def test_a_frame_over_the_limit_is_refused_as_it_arrives_not_held_whole(host, caplog):
    """A 4 MB frame: the websocket refuses it once 64 KiB have come (close 1009), so the
    host never holds it whole."""
    url, _ = host
    phone, other = Raw(url), Raw(url)
    try:
        with caplog.at_level(logging.WARNING):
            try:
                phone.send('421["join",{"game_id":"' + "x" * 4_000_000 + '"}]')
            except OSError:
                pass  # the host shut the connection while the frame was still going out
            assert phone.is_closed()
            assert_host_healthy(url, other)
            wait_for(lambda: warnings_and_tracebacks(caplog)[0], "the host's warning")
        guard, bad = warnings_and_tracebacks(caplog)
        assert len(guard) == 1 and bad == [], (guard, bad)
        assert "refused as it arrived" in guard[0] and "4,000" not in guard[0]
    finally:
        phone.close()
        other.close()


def test_an_event_before_the_connect_packet_closes_the_connection(host, caplog):
    url, _ = host
    early, other = Raw(url, connect=False), Raw(url)
    try:
        with caplog.at_level(logging.WARNING):
            early.send('421["join",{"game_id":"x"}]')
            assert early.is_closed()
            assert_host_healthy(url, other)
        guard, bad = warnings_and_tracebacks(caplog)
        assert len(guard) == 1 and bad == [], (guard, bad)
    finally:
        early.close()
        other.close()


def test_a_connect_to_a_namespace_not_served_or_twice_is_refused_and_the_socket_goes_on(
        host, caplog):
    url, _ = host
    phone = Raw(url)
    try:
        with caplog.at_level(logging.WARNING):
            phone.send("40/admin,")
            assert phone.next() == '44/admin,"Unable to connect"'
            phone.send("40")
            assert phone.next() == '44"Unable to connect"'
            assert_host_healthy(url, phone)
        guard, bad = warnings_and_tracebacks(caplog)
        assert len(guard) == 2 and bad == [], (guard, bad)
    finally:
        phone.close()


def test_a_client_can_still_disconnect_and_reconnect_the_namespace(host, caplog):
    url, _ = host
    phone = Raw(url)
    try:
        with caplog.at_level(logging.WARNING):
            phone.send("41")
            phone.send("40")
            frame = phone.next()
            assert frame is not None and frame.startswith('40{"sid":'), frame
            assert_host_healthy(url, phone)
        assert warnings_and_tracebacks(caplog) == ([], [])
    finally:
        phone.close()


def test_a_python_socketio_client_sees_no_difference(host, caplog):
    url, _ = host
    sio = Client()
    with caplog.at_level(logging.WARNING):
        sio.connect(url, transports=["websocket"], wait_timeout=TIMEOUT)
        try:
            assert is_error(sio.call("join", {"game_id": "x"}, timeout=TIMEOUT), "unknown_game")
            sio.emit("unjoin", {"game_id": "x"})  # no ack asked: none sent, nothing closed
            assert is_error(sio.call("nope", {}, timeout=TIMEOUT), "unknown_event")
            assert is_error(sio.call("move", timeout=TIMEOUT), "bad_request")
        finally:
            sio.disconnect()
    guard, bad = warnings_and_tracebacks(caplog)
    assert len(guard) == 1 and "nope" in guard[0] and bad == [], (guard, bad)


class Polling:
    """Engine.IO's long-polling transport, written by hand over HTTP."""

    def __init__(self, url: str) -> None:
        base = f"{url}/socket.io/?EIO=4&transport=polling"
        opening = requests.get(base, timeout=TIMEOUT).text
        assert opening.startswith("0{"), opening
        self.sid = json.loads(opening[1:])["sid"]
        self.url = f"{base}&sid={self.sid}"
        assert self.post("40") == 200
        assert self.get()[0].startswith('40{"sid":')

    def post(self, body: str | bytes) -> int:
        return requests.post(self.url, data=body, timeout=TIMEOUT).status_code

    def get(self) -> list[str]:
        r = requests.get(self.url, timeout=TIMEOUT)
        assert r.status_code == 200, r.text
        return r.text.split("\x1e")


def engineio_sockets(app) -> dict:
    return app.extensions["socketio"].server.eio.sockets


def test_over_long_polling_a_bad_packet_is_answered_too(host, caplog):
    url, app = host
    with caplog.at_level(logging.WARNING):
        phone = Polling(url)
        assert phone.post('421["nope",{}]' + "\x1e" + '422["join",{"game_id":"x"}]') == 200
        acks = [ACK.match(frame) for frame in phone.get()]
        assert [int(a[1]) for a in acks] == [1, 2]
        assert is_error(json.loads(acks[0][2])[0], "unknown_event")
        assert is_error(json.loads(acks[1][2])[0], "unknown_game")
        bodies = {  # a packet refused: the POST was taken (200); a frame refused: 400
            '42/admin,3["move",{}]': 200, "42not json": 200, "x": 400, "4[[[[": 400,
            '421[]\x1ex': 400, "\x1e".join(["3"] * 17): 400, b"\xff\xfe": 400, "6": 400,
            '421["join",{"game_id":"' + "x" * 70_000 + '"}]': 400}
        chunked = iter([b'421["join",{"game_id":"x"}]'])  # no Content-Length
        for body, status in [*bodies.items(), (chunked, 400)]:
            other = Polling(url)
            assert other.post(body) == status, body
            assert other.sid not in engineio_sockets(app), body  # closed
        assert phone.post('424["join",{"game_id":"x"}]') == 200  # the first one goes on
        [ack] = phone.get()
        assert is_error(json.loads(ACK.match(ack)[2])[0], "unknown_game")
        assert requests.get(f"{url}/api/health", timeout=TIMEOUT).status_code == 200
    guard, bad = warnings_and_tracebacks(caplog)
    assert len(guard) == 2 + len(bodies) and bad == [], (guard, bad)


# -- the fuzzer -------------------------------------------------------------------------------
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40),
                      st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8)
names = st.one_of(st.sampled_from(HANDLERS), st.sampled_from(sorted(RESERVED)),
                  st.text(max_size=12))
argument = st.one_of(
    *[json_value.map(json.dumps)] * 5,
    st.integers(1, 2500).map(lambda n: "[" * n + "]" * n),  # deep, near and far past the bound
    st.integers(1, 6000).map(lambda n: "1" * n),  # long numbers, near and far past the bound
    st.text(max_size=12),  # not JSON, mostly
)


def expectation(kind: str, namespace: str, ack_id: str | None, data: str) -> str:
    """How the host must answer `4{kind}{namespace}{ack_id}{data}` (the socket holds `/`):
    "ack" (an ack with that id, the connection open), "none" (a good event without an ack id:
    no answer, the connection open), "refused" (a CONNECT_ERROR), "close", or "any" where the
    frame's parts run into each other (data after the ack id that starts with a digit, `-` or
    `/` is read as more of the id, attachments or a namespace)."""
    if data[:1].isdigit() or data[:1] in ("-", "/"):
        return "any"
    if ack_id is not None and len(ack_id) > 100:
        return "close"
    served = namespace in ("", "/,")
    try:
        value = boundedjson.loads(data) if data else None
    except boundedjson.JsonLimitError as e:
        bounded = e.limit is not None and kind == "2" and served and ack_id is not None
        return "ack" if bounded else "close"
    if kind == "0":
        return "refused"  # `/` again, or a namespace the host does not serve
    if kind != "2" or not served:
        return "close"  # a DISCONNECT of `/` too: the good call after it then closes
    if ack_id is not None:
        return "ack"
    event = isinstance(value, list) and value and value[0] in HANDLERS
    return "none" if event else "close"


@st.composite
def socketio_packets(draw) -> tuple[str, str | None, str]:
    """A Socket.IO packet of any type, to any namespace, with or without an ack id (a long one
    too), an event array or any JSON, deep, long numbers or no JSON at all: (the frame, its ack
    id, how the host must answer it)."""
    kind = draw(st.sampled_from("2" * 40 + "013456789"))  # mostly an EVENT
    namespace = draw(st.sampled_from([""] * 8 + ["/,", "/admin,", "/x?y=1,"]))
    short_id = st.integers(0, 10**9).map(str)
    ack_id = draw(st.one_of(st.none(), *[short_id] * 4,
                            st.integers(90, 6000).map(lambda n: "7" * n)))
    shape = draw(st.sampled_from(["event", "event", "event", "value", "argument", "none"]))
    if shape == "event":
        args = draw(st.lists(argument, max_size=3))
        data = "[" + ",".join([json.dumps(draw(names)), *args]) + "]"
    elif shape == "value":
        data = json.dumps(draw(json_value))
    elif shape == "argument":
        data = draw(argument)
    else:
        data = ""
    frame = f"4{kind}{namespace}{ack_id or ''}{data}"
    return frame, ack_id, expectation(kind, namespace, ack_id, data)


def frame_expectation(frame: str | bytes) -> str:
    """How the host must answer a frame that is not a Socket.IO packet: Engine.IO's own
    close, pong, upgrade and probe are taken as ever; anything else closes the connection."""
    if frame == "1":
        return "bye"
    if frame in ("3", "5", "2probe"):
        return "none"
    return "close"


garbage_frames = st.one_of(
    st.text(max_size=40).filter(lambda t: not re.match("4[0-9]", t)),
    st.binary(max_size=40),
    st.sampled_from(["1", "3", "5", "2probe", "2", "6", "0", "4", ""]),
).map(lambda f: (f, None, frame_expectation(f)))
frames = st.sampled_from(["packet"] * 6 + ["frame", "message"]).flatmap(lambda kind: {
    "packet": socketio_packets(), "frame": garbage_frames,
    "message": st.text(max_size=40).map(lambda t: ("4" + t, None, "any"))}[kind])


def test_fuzzed_packets_and_frames_are_each_answered_and_the_host_stays_healthy(host, caplog):
    url, _ = host
    phone: list[Raw] = [Raw(url)]
    sentinel = iter(range(10**12, 10**13))

    @given(frame=frames)
    @settings(max_examples=250, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(frame):
        text, ack_id, expect = frame
        if phone[0].closed:
            phone[0].close()
            phone[0] = Raw(url)
        raw = phone[0]
        caplog.clear()
        raw.send(text)
        probe = next(sentinel)  # a good call after it: its answer shows the frame's has come
        raw.send(f"42{probe}" + json.dumps(["join", {"game_id": "x"}]))
        acks: dict[int, object] = {}
        refused = False
        while probe not in acks:
            got = raw.next()
            if got is None:
                break
            if got.startswith("44"):
                refused = True
                continue
            match = ACK.match(got)
            assert match, got[:200]
            args = json.loads(match[2])
            acks[int(match[1])] = args[0] if args else None
        what = repr(text[:200])
        guard, bad = warnings_and_tracebacks(caplog)
        assert bad == [], (what, bad)
        fuzzed = {k: v for k, v in acks.items() if k != probe}
        if expect == "ack":
            assert not raw.closed and ack_id is not None and int(ack_id) in fuzzed, what
            assert len(guard) <= 1, (what, guard)
        elif expect == "none":
            assert not raw.closed and not fuzzed and not guard, (what, fuzzed, guard)
        elif expect == "refused":
            assert not raw.closed and refused and len(guard) == 1, (what, guard)
        elif expect == "bye":
            assert raw.closed and not guard, (what, guard)
        elif expect == "close":
            assert raw.closed and not fuzzed, (what, fuzzed)
        if raw.closed and expect != "bye":
            assert len(guard) == 1 and "closed" in guard[0], (what, guard)
        for ack in fuzzed.values():
            if isinstance(ack, dict) and ack.get("ok") is True:
                assert json.loads(re.sub(r"^4\d(/,)?\d*", "", text))[0] in HANDLERS, what
            else:
                assert is_error(ack) and ack["error"]["code"] != "internal", (what, ack)

    try:
        with caplog.at_level(logging.WARNING):
            check()
    finally:
        phone[0].close()
    other = Raw(url)
    try:
        assert_host_healthy(url, other)
    finally:
        other.close()
    sio = Client()
    sio.connect(url, transports=["websocket"], wait_timeout=TIMEOUT)
    try:
        assert is_error(sio.call("join", {"game_id": "x"}, timeout=TIMEOUT), "unknown_game")
    finally:
        sio.disconnect()


def test_an_upgrade_from_long_polling_to_a_websocket_goes_through(host, caplog):
    url, _ = host
    with caplog.at_level(logging.WARNING):
        polling = Polling(url)
        port = url.rsplit(":", 1)[1]
        ws = websocket.create_connection(f"ws://127.0.0.1:{port}/socket.io/?EIO=4"
                                         f"&transport=websocket&sid={polling.sid}",
                                         timeout=TIMEOUT)
        try:
            ws.send("2probe")
            assert ws.recv() == "3probe"
            ws.send("5")
            ws.send('421["join",{"game_id":"x"}]')
            frame = ws.recv()
            while frame in ("2", "6"):  # a ping; the noop the upgrade is answered with
                if frame == "2":
                    ws.send("3")
                frame = ws.recv()
            assert is_error(json.loads(ACK.match(frame)[2])[0], "unknown_game"), frame
        finally:
            ws.close(timeout=0)
    assert warnings_and_tracebacks(caplog) == ([], [])
