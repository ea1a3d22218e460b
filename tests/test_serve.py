"""`cornerclaim serve` as a real process, the command's options, and mDNS on loopback."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from server import serve
from server.app import create_app, shutdown_app
from tests.server_fixtures import DEADLINE
from tests.test_api import PLUS

VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_host(data_dir: Path, port: int) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port",
           str(port), "--data-dir", str(data_dir), "--no-mdns", "--no-qr"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=Path(__file__).resolve().parent.parent)
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        try:
            if requests.get(f"http://127.0.0.1:{port}/api/health", timeout=2).ok:
                return proc
        except requests.ConnectionError:
            if proc.poll() is not None:
                raise AssertionError(proc.stdout.read()) from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the host did not come up")


def test_an_acknowledged_move_survives_sigkill(tmp_path):
    port = free_port()
    host = start_host(tmp_path, port)
    url = f"http://127.0.0.1:{port}"
    try:
        g = requests.post(f"{url}/api/games", json={
            "variant": "duo", "seats": [{"kind": "local"}, {"kind": "local"}]}).json()
        r = requests.post(f"{url}/api/games/{g['id']}/moves",
                          json={"seat": 1, "move": PLUS, "seq": 1},
                          headers={"Authorization": f"Bearer {g['tokens']['1']}"})
        assert r.status_code == 201
        host.send_signal(signal.SIGKILL)  # right after the acknowledgement
    finally:
        host.kill()
        host.wait()
    again = start_host(tmp_path, port)
    try:
        state = requests.get(f"{url}/api/games/{g['id']}").json()
        assert state["seq"] == 2 and state["last_move"]["move"] == PLUS
    finally:
        again.send_signal(signal.SIGTERM)
        again.wait(DEADLINE)
    assert again.returncode == 0
    assert f"http://127.0.0.1:{port}/" in again.stdout.read()


def test_the_command_has_the_documented_options():
    parser = argparse.ArgumentParser()
    serve.configure(parser)
    args = parser.parse_args([])
    assert (args.host, args.port, args.data_dir, args.no_mdns) == ("0.0.0.0", 8000, None, False)
    args = parser.parse_args(["--port", "9000", "--data-dir", "/x", "--no-mdns"])
    assert (args.port, args.data_dir, args.no_mdns) == (9000, "/x", True)
    assert "cornerclaim" in serve.default_data_dir()


def test_the_url_names_an_ip_address_not_a_local_name():
    url = serve.public_url("0.0.0.0", 8000)
    address = url.removeprefix("http://").removesuffix(":8000/")
    socket.inet_aton(address)  # an IPv4 address
    assert serve.public_url("127.0.0.1", 8123) == "http://127.0.0.1:8123/"


def test_an_app_needs_a_data_dir_and_apps_share_nothing(tmp_path):
    with pytest.raises(ValueError):
        create_app({})
    a = create_app({"DATA_DIR": str(tmp_path / "a"), "START_BOTS": False})
    b = create_app({"DATA_DIR": str(tmp_path / "b"), "START_BOTS": False})
    assert a.extensions["socketio"] is not b.extensions["socketio"]
    assert a.extensions["socketio"].async_mode == "threading"
    assert a.extensions["cornerclaim"] is not b.extensions["cornerclaim"]
    shutdown_app(a)
    shutdown_app(b)


@pytest.mark.skipif(os.environ.get("CORNERCLAIM_NO_MDNS") == "1", reason="mDNS disabled")
def test_a_host_announced_on_loopback_is_discovered():
    from server.discovery import Announcer, discover

    announcer = Announcer("127.0.0.1", 8123, version="test", open_games=lambda: 2,
                          name="Corner Claim test host", interfaces=["127.0.0.1"]).start()
    try:
        assert announcer.registered.wait(DEADLINE)
        # A browse window can end before a loaded machine answers: look again, each time
        # longer, until the deadline. What is checked stays the same.
        mine, seconds, end = [], 3.0, time.monotonic() + DEADLINE
        while not mine and time.monotonic() < end:
            found = discover(seconds, interfaces=["127.0.0.1"])
            mine = [h for h in found if h.url == "http://127.0.0.1:8123/"]
            seconds = min(2 * seconds, 12.0)
        assert mine and mine[0].open_games == 2 and mine[0].version == "test"
        assert mine[0].name.startswith("Corner Claim test host")
    finally:
        announcer.stop()
