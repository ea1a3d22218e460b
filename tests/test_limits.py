"""What one client may ask of the host: body size, names, games per host, writes per second,
replay imports and paths. Every refusal is the standard error shape with a clear code."""

from __future__ import annotations

import pytest
import socketio

from server.host import host_of
from server.web.limits import RateLimiter
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, create
from tests.socket_client import Client

PLUS = "e9,d10,e10,f10,e11"


def test_a_body_over_16_kib_is_refused_with_413(client):
    r = client.post("/api/games", data=b"{" + b" " * 17000 + b"}",
                    content_type="application/json")
    assert r.status_code == 413 and r.json["error"]["code"] == "too_large"


def test_a_socket_message_over_64_kib_is_dropped_and_the_host_goes_on(live):
    host = live()
    sio = Client()
    sio.connect(host.url, transports=["websocket"], wait_timeout=30)
    try:
        with pytest.raises(socketio.exceptions.SocketIOError):
            sio.call("join", {"game_id": "x" * 70_000}, timeout=5)
    finally:
        sio.disconnect()
    assert host.app.test_client().get("/api/health").status_code == 200


@pytest.mark.parametrize("name", ["", " ", "x" * 41, "Ann\x00", "Ann\nBob", "Ann\x1b[31m",
                                  "\u202eevil", "a\u2028b", "\ud800"])
def test_a_name_that_is_blank_too_long_or_has_control_characters_is_refused(client, name):
    g = create(client, "duo", ("local", "open"))
    r = client.post(f"/api/games/{g['id']}/seats/2", json={"name": name})
    assert r.status_code == 422, name
    assert r.json["error"]["code"] == "invalid_request"
    r = client.post("/api/games", json={"variant": "duo", "seats": [
        {"kind": "local", "name": name}, {"kind": "local"}]})
    assert r.status_code == 422, name


@pytest.mark.parametrize("name", ["Zoë", "李雷", "👩‍👩‍👧 family", "<b>Bo</b>", "O'Neil & co"])
def test_names_with_accents_emoji_and_markup_characters_are_accepted(client, name):
    g = create(client, "duo", ("local", "open"))
    r = client.post(f"/api/games/{g['id']}/seats/2", json={"name": name})
    assert r.status_code == 200, r.json
    assert client.get(f"/api/games/{g['id']}").json["seats"][1]["name"] == name


def test_a_host_holds_a_bounded_number_of_unfinished_games(make_app):
    client = make_app(MAX_GAMES=3).test_client()
    games = [create(client, "duo") for _ in range(3)]
    r = client.post("/api/games", json={"variant": "duo", "seats": [{"kind": "local"}] * 2})
    assert r.status_code == 409 and r.json["error"]["code"] == "too_many_games"
    assert r.json["error"]["details"]["limit"] == 3
    client.post(f"/api/games/{games[0]['id']}/close", headers=bearer(games[0]["host_token"]))
    assert create(client, "duo")["id"]  # a closed game no longer counts


def test_rest_writes_past_the_rate_get_429_with_retry_after(make_app):
    client = make_app(WRITE_RATE=2, WRITE_BURST=4).test_client()
    g = create(client, "duo", ("local", "open"))
    statuses = [client.post(f"/api/games/{g['id']}/undo", headers=bearer(g["tokens"]["1"]),
                            json={"seat": 1, "seq": 1}).status_code for _ in range(6)]
    assert 429 in statuses and statuses.index(429) <= 3
    r = client.post(f"/api/games/{g['id']}/leave", headers=bearer(g["tokens"]["1"]),
                    json={"seat": 1})
    assert r.status_code == 429
    assert r.json["error"]["code"] == "too_many_requests"
    assert float(r.json["error"]["details"]["retry_after"]) > 0
    assert int(r.headers["Retry-After"]) >= 1
    assert client.get(f"/api/games/{g['id']}").status_code == 200  # reads are not limited
    other = client.post(f"/api/games/{g['id']}/seats/2", json={"name": "Bo"},
                        environ_base={"REMOTE_ADDR": "192.168.1.23"})
    assert other.status_code == 200  # another phone is not held up


def test_socket_writes_past_the_rate_get_a_too_many_requests_ack(live):
    host = live(WRITE_RATE=1, WRITE_BURST=3)
    g = create(host.app.test_client(), "duo")
    sio = Client()
    sio.connect(host.url, transports=["websocket"], wait_timeout=30)
    try:
        msg = {"game_id": g["id"], "seat": 1, "move": "z99", "seq": 1, "token": g["tokens"]["1"]}
        codes = [sio.call("move", msg, timeout=30)["error"]["code"] for _ in range(5)]
        assert codes[:3] == ["off_board"] * 3 and codes[3:] == ["too_many_requests"] * 2
        assert sio.call("join", {"game_id": g["id"]}, timeout=30)["ok"]  # reads go on
    finally:
        sio.disconnect()


def test_the_rate_limiter_refills_at_its_rate():
    now = [0.0]
    limiter = RateLimiter(2, 3, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [0, 0, 0]
    assert limiter.take("a") == pytest.approx(0.5)
    assert limiter.take("b") == 0
    now[0] += 0.5
    assert limiter.take("a") == 0 and limiter.take("a") > 0
    now[0] += 100  # idle keys are forgotten; a returning one starts full
    assert limiter.take("c") == 0 and "a" not in limiter._buckets


@pytest.mark.parametrize("path", [
    "/api/replays/..%2F..%2Fpyproject.toml", "/api/replays/../../pyproject.toml",
    "/api/replays/i0123456789abcd%2F..", "/api/replays/%2e%2e/board.svg",
    "/api/replays/I0123456789ABCDE/replay.json", "/api/replays/i0123456789abcdef0",
    "/..%2Fpyproject.toml", "/%2e%2e/server/app.py", "/js/..%2F..%2Fpyproject.toml",
    "/node_modules/socket.io-client/package.json", "/api/players/..%2F..%2Fetc%2Fpasswd",
])
def test_no_path_reaches_outside_the_phone_ui_or_the_import_folder(client, path):
    r = client.get(path)
    assert r.status_code in (404, 405), (path, r.status_code)
    assert b"cornerclaim" not in r.data.lower() or r.status_code == 404
    assert b"[project]" not in r.data and b"create_app" not in r.data


def test_an_import_over_the_limit_or_malformed_is_refused_and_nothing_is_stored(make_app):
    from server.web.ladder_api import MAX_IMPORT

    app = make_app()
    client = app.test_client()
    big = client.post("/api/replays", data=b"(;GM[Blokus Duo]C[" + b"x" * MAX_IMPORT + b"])",
                      content_type="application/x-blokus-sgf")
    assert big.status_code == 413 and big.json["error"]["code"] == "too_large"
    for body in (b"(;GM[Blokus Duo];B[../../etc/passwd])", b'{"format": "../x"}',
                 b"\x00" * 100):
        r = client.post("/api/replays", data=body, content_type="application/x-blokus-sgf")
        assert r.status_code == 400, (body, r.json)
        assert r.json["error"]["message"]
    folder = host_of(app).imports.folder
    assert not folder.exists() or not any(folder.iterdir())
