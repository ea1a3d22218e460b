"""Processes behind a reverse proxy (`serve --behind-proxy`, docs/deploy.md): the phones'
own addresses count for the write limit, and the Invite screen gives the address the phones
opened, the proxy's, not the process's."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import requests

from server import serve
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import DEADLINE
from tests.throwaway import free_port

CLUB = {"X-Forwarded-Host": "club.example", "X-Forwarded-Proto": "https"}


def _proxied(phone: str) -> dict:
    return {**CLUB, "X-Forwarded-For": phone}


def test_behind_the_proxy_the_invite_gives_the_address_the_phones_opened(make_app):
    app = make_app(PUBLIC_URL="http://127.0.0.1:8001/")
    serve.behind_proxy(app)
    invite = app.test_client().get("/api/invite", headers=_proxied("192.168.10.31")).json
    assert invite["url"] == "https://club.example/"


def test_without_the_option_forwarded_headers_are_not_believed(make_app):
    client = make_app(PUBLIC_URL="http://192.168.10.5:8001/").test_client()
    assert client.get("/api/invite", headers=_proxied("10.9.9.9")).json["url"] == (
        "http://192.168.10.5:8001/")


def test_behind_the_proxy_each_phone_has_its_own_write_limit(make_app):
    app = make_app(WRITE_RATE=1.0, WRITE_BURST=3)
    serve.behind_proxy(app)
    client = app.test_client()

    def write(phone: str) -> int:
        return client.post("/api/games", json={}, headers=_proxied(phone)).status_code

    assert [write("192.168.10.31") for _ in range(4)][-1] == 429  # a hammering phone
    assert write("192.168.10.32") != 429  # the phone beside it is not held back


def test_serve_behind_proxy_takes_the_proxys_headers(tmp_path):
    port = free_port()
    host = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(tmp_path), "--no-qr", "--no-mdns", "--behind-proxy"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parent.parent)
    try:
        url, end = f"http://127.0.0.1:{port}", time.monotonic() + DEADLINE
        while True:
            try:
                r = requests.get(f"{url}/api/invite", headers=_proxied("192.168.10.31"),
                                 timeout=5)
                break
            except requests.RequestException:
                assert host.poll() is None and time.monotonic() < end, "no host came up"
                time.sleep(0.2)
        assert r.json()["url"] == "https://club.example/"
        assert requests.get(f"{url}/api/invite", timeout=5).json()["url"] == f"{url}/"
    finally:
        host.kill()
        host.wait()
