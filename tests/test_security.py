"""Hostile clients on the LAN: fuzzed socket messages, stolen or missing credentials, double
submits, and the tokens themselves (unguessable, compared in constant time, never logged
or echoed). The threat model is docs/security.md."""

from __future__ import annotations

import logging
import string
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.host import host_of
from server.tables import table as table_module
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, create
from tests.socket_client import Client

PLUS = "e9,d10,e10,f10,e11"
HANDLERS = ["join", "unjoin", "move", "undo", "undo_answer", "leave", "declare_left"]
WRITES = {"move", "undo", "undo_answer", "leave", "declare_left"}
KEYS = ["game_id", "seat", "move", "seq", "token", "tokens", "last_seq", "accept"]


def connect(url: str) -> Client:
    sio = Client()
    sio.connect(url, transports=["websocket"], wait_timeout=30)
    return sio


def is_error_ack(ack) -> bool:
    """The standard shape: {"error": {"code": str, "message": str, "details": dict}}."""
    if not isinstance(ack, dict) or set(ack) != {"error"}:
        return False
    e = ack["error"]
    return (set(e) == {"code", "message", "details"} and isinstance(e["code"], str)
            and isinstance(e["message"], str) and isinstance(e["details"], dict))


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40),
                      st.floats(allow_nan=False), st.text(max_size=80))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


@pytest.fixture(scope="module")
def fuzz_host(tmp_path_factory):
    """One live host for the module, with a four-seat game one move in."""
    from server.app import create_app, shutdown_app
    from server.serve import werkzeug_server

    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("sec")), "START_BOTS": False,
                      "WRITE_RATE": None, "AWAY_GRACE": 0})
    server = werkzeug_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    client = app.test_client()
    game = create(client, "classic", ("local", "local", "open", "computer"))
    r = client.post(f"/api/games/{game['id']}/seats/3", json={"name": "Cy"})
    game["tokens"]["3"] = r.json["token"]
    move = client.post(f"/api/games/{game['id']}/moves", headers=bearer(game["tokens"]["1"]),
                       json={"seat": 1, "move": "a20", "seq": 1})
    assert move.status_code == 201, move.json
    try:
        yield f"http://127.0.0.1:{server.port}", app, game
    finally:
        server.shutdown()
        server.server_close()
        shutdown_app(app)


def snapshot(app, game_id: str) -> tuple:
    service = host_of(app).service
    t = service.table(game_id)
    return (t.game.seq, [(s.kind, s.name, s.token_hash) for s in t.seats], t.record.closed,
            t.undo_request, len(service.store.events_since(game_id, 0)))


@pytest.mark.parametrize("handler", HANDLERS)
def test_any_payload_on_any_handler_gets_an_answer_and_changes_nothing(fuzz_host, handler,
                                                                       caplog):
    url, app, game = fuzz_host
    sio = connect(url)
    before = snapshot(app, game["id"])
    payloads = st.one_of(
        json_value,
        st.fixed_dictionaries({}, optional={k: json_value for k in KEYS}),
        st.fixed_dictionaries({"game_id": st.just(game["id"])},
                              optional={k: st.one_of(json_value, st.integers(0, 5),
                                                     st.text(string.ascii_letters, max_size=50))
                                        for k in KEYS if k != "game_id"}))

    @given(payload=payloads)
    @settings(max_examples=60, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(payload):
        ack = sio.call(handler, payload, timeout=30)
        if isinstance(ack, dict) and ack.get("ok") is True:
            assert handler not in WRITES, (payload, ack)  # no token, no write
        else:
            assert is_error_ack(ack), (payload, ack)
            assert ack["error"]["code"] != "internal", (payload, ack)

    try:
        with caplog.at_level(logging.ERROR):
            check()
            for args in [(), (1, 2), ({"game_id": game["id"]}, "extra")]:
                ack = sio.call(handler, args if args else None, timeout=30) if len(args) != 1 \
                    else None
                assert ack is None or is_error_ack(ack) or ack.get("ok"), (args, ack)
        assert snapshot(app, game["id"]) == before
        assert "socket handler failed" not in caplog.text
    finally:
        sio.disconnect()


def test_several_arguments_or_none_get_an_error_ack(fuzz_host):
    url, app, game = fuzz_host
    sio = connect(url)
    try:
        ack = sio.call("move", data=({"game_id": game["id"]}, "more"), timeout=30)
        assert is_error_ack(ack) and ack["error"]["code"] == "bad_request"
        ack = sio.call("move", timeout=30)
        assert is_error_ack(ack) and ack["error"]["code"] == "bad_request"
    finally:
        sio.disconnect()


# -- who may act --------------------------------------------------------------------------
def test_nobody_acts_for_another_seat_as_the_host_or_as_a_spectator(client):
    g = create(client, "duo", ("local", "open"))
    gid = g["id"]
    bob = client.post(f"/api/games/{gid}/seats/2", json={"name": "Bob"}).json["token"]
    other = create(client, "duo")
    move = {"seat": 1, "move": PLUS, "seq": 1}
    cases = [
        (None, 401), (bob, 403), (g["host_token"], 403), (other["tokens"]["1"], 403),
        (g["tokens"]["1"] + "x", 403), (g["tokens"]["1"][:-1], 403), ("x" * 5000, 403),
    ]
    for token, status in cases:
        headers = bearer(token) if token else {}
        assert client.post(f"/api/games/{gid}/moves", json=move, headers=headers
                           ).status_code == status, token
    host_only = [("post", f"/api/games/{gid}/close"), ("delete", f"/api/games/{gid}/seats/2")]
    for method, path in host_only:
        assert getattr(client, method)(path).status_code == 401
        assert getattr(client, method)(path, headers=bearer(bob)).status_code == 403
        assert getattr(client, method)(path, headers=bearer(g["tokens"]["1"])).status_code == 403
    assert client.post(f"/api/games/{gid}/seats/2/left").status_code == 401
    assert client.post(f"/api/games/{gid}/seats/1", json={"name": "Eve"}).status_code == 409
    assert client.get(f"/api/games/{gid}").json["seq"] == 1  # nothing happened


def test_a_spectator_socket_and_a_wrong_token_cannot_move(live):
    host = live()
    g = create(host.app.test_client(), "duo")
    spectator = connect(host.url)
    try:
        ack = spectator.call("join", {"game_id": g["id"], "last_seq": 0,
                                      "tokens": ["not-a-token"]}, timeout=30)
        assert ack["ok"] and ack["seats"] == []
        msg = {"game_id": g["id"], "seat": 1, "move": PLUS, "seq": 1}
        assert spectator.call("move", msg, timeout=30)["error"]["code"] == "unauthorized"
        for token in (g["tokens"]["2"], g["host_token"]):
            ack = spectator.call("move", {**msg, "token": token}, timeout=30)
            assert ack["error"]["code"] == "forbidden"
    finally:
        spectator.disconnect()
    assert host.app.test_client().get(f"/api/games/{g['id']}").json["seq"] == 1


def test_the_same_move_sent_from_two_sockets_at_once_is_accepted_exactly_once(live):
    host = live()
    for _ in range(3):
        g = create(host.app.test_client(), "duo")
        phones = [connect(host.url) for _ in range(2)]
        acks: list[dict] = []
        go = threading.Barrier(2)

        def send(sio, g=g, go=go, acks=acks):
            go.wait()
            acks.append(sio.call("move", {"game_id": g["id"], "seat": 1, "move": PLUS, "seq": 1,
                                          "token": g["tokens"]["1"]}, timeout=30))

        threads = [threading.Thread(target=send, args=(p,)) for p in phones]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        for p in phones:
            p.disconnect()
        assert sorted("ok" in a for a in acks) == [False, True], acks
        refused = next(a for a in acks if "error" in a)
        assert refused["error"]["code"] == "stale_seq"
        events = host_of(host.app).service.store.events_since(g["id"], 0)
        assert [e["type"] for e in events] == ["game_created", "cornerclaim_piece_placed"]


# -- the tokens themselves -----------------------------------------------------------------
def test_tokens_are_long_random_distinct_and_only_their_hashes_are_stored(make_app, tmp_path):
    app = make_app()
    c = app.test_client()
    tokens = []
    for _ in range(30):
        g = create(c, "classic")
        tokens += [g["host_token"], *g["tokens"].values()]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 43 for t in tokens)  # 32 random bytes, URL-safe base64
    host_of(app).service.store._db.execute("PRAGMA wal_checkpoint(FULL)")
    stored = b"".join(p.read_bytes() for p in (tmp_path / "data").glob("cornerclaim.sqlite3*"))
    assert not any(t.encode() in stored for t in tokens)


def test_tokens_are_compared_in_constant_time(client, monkeypatch):
    g = create(client, "duo")
    calls = []
    real = table_module.hmac.compare_digest

    def spy(a, b):
        calls.append((len(a), len(b)))
        return real(a, b)

    monkeypatch.setattr(table_module.hmac, "compare_digest", spy)
    r = client.post(f"/api/games/{g['id']}/moves", headers=bearer("x" * 7),
                    json={"seat": 1, "move": PLUS, "seq": 1})
    assert r.status_code == 403
    assert calls and all(a == b == 64 for a, b in calls)  # SHA-256 hex of both: equal lengths


def test_no_token_is_logged_or_echoed_during_a_game(live, caplog):
    host = live(AWAY_GRACE=0)
    rest = host.app.test_client()
    seen: list[str] = []
    with caplog.at_level(logging.DEBUG):
        g = create(rest, "duo", ("local", "open"))
        bob = rest.post(f"/api/games/{g['id']}/seats/2", json={"name": "Bob"}).json["token"]
        tokens = [g["host_token"], g["tokens"]["1"], bob]
        phone = connect(host.url)
        phone.on("*", lambda event, data: seen.append(repr(data)))
        try:
            seen.append(repr(phone.call("join", {"game_id": g["id"], "last_seq": 0,
                                                 "tokens": tokens}, timeout=30)))
            for token in tokens + [tokens[0] + "x"]:
                for msg in ({"seat": 1, "move": PLUS, "seq": 1}, {"seat": 9, "seq": "x"},
                            {"seat": 1, "move": PLUS, "seq": 1, "token": 5, "extra": token}):
                    seen.append(repr(phone.call("move", {"game_id": g["id"], "token": token,
                                                         **msg}, timeout=30)))
                    r = rest.post(f"/api/games/{g['id']}/moves", json=msg,
                                  headers=bearer(token))
                    seen.append(r.get_data(as_text=True))
            seen.append(repr(phone.call("leave", {"game_id": g["id"], "seat": 2,
                                                  "token": bob}, timeout=30)))
            for path in ("", "/events", "/replay.json", "/replay.blksgf", "/legal?seat=1"):
                seen.append(rest.get(f"/api/games/{g['id']}{path}").get_data(as_text=True))
            seen.append(rest.get("/api/games").get_data(as_text=True))
        finally:
            phone.disconnect()
    logged = caplog.text + "".join(r.getMessage() for r in caplog.records)
    assert len(seen) > 20
    for token in tokens:
        assert token not in logged
        assert not any(token in text for text in seen), "a token was echoed"
