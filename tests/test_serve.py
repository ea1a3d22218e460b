"""`cornerclaim serve` as a real process, the command's options, and mDNS on loopback."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
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
from server.host import host_of
from tests.server_fixtures import DEADLINE, host_answers, proc_fields
from tests.test_api import PLUS
from tests.throwaway import free_port

VENV_BIN = Path(sys.executable).parent



def start_host(data_dir: Path, port: int, *extra: str, mdns: bool = False) -> subprocess.Popen:
    """`cornerclaim serve` on loopback; with `mdns`, announced on 127.0.0.1 only."""
    cmd = [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port",
           str(port), "--data-dir", str(data_dir), "--no-qr", *extra,
           *(["--mdns-interfaces", "127.0.0.1"] if mdns else ["--no-mdns"])]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=Path(__file__).resolve().parent.parent)
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        if host_answers(f"http://127.0.0.1:{port}"):
            return proc
        if proc.poll() is not None:
            raise AssertionError(proc.stdout.read())
        time.sleep(0.1)
    proc.kill()
    raise AssertionError("the host did not come up")


def acknowledged_then_killed(host: subprocess.Popen, url: str) -> str:
    """A Duo game created on `host` (at `url`) and its first move acknowledged, then the host
    SIGKILLed right after the acknowledgement; the game's id."""
    try:
        g = requests.post(f"{url}/api/games", json={
            "variant": "duo", "seats": [{"kind": "local"}, {"kind": "local"}]}).json()
        r = requests.post(f"{url}/api/games/{g['id']}/moves",
                          json={"seat": 1, "move": PLUS, "seq": 1},
                          headers={"Authorization": f"Bearer {g['tokens']['1']}"})
        assert r.status_code == 201
        host.send_signal(signal.SIGKILL)
    finally:
        host.kill()
        host.wait()
    return g["id"]


def serves_the_move_then_stops(host: subprocess.Popen, url: str, game_id: str) -> str:
    """Checks that `host` serves the move `acknowledged_then_killed` made, stops it with
    SIGTERM and checks that it exits cleanly; its output."""
    try:
        state = requests.get(f"{url}/api/games/{game_id}").json()
        assert state["seq"] == 2 and state["last_move"]["move"] == PLUS
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(DEADLINE)
    assert host.returncode == 0
    return host.stdout.read()


@pytest.mark.parametrize("server", ["gevent", "threading"])
def test_an_acknowledged_move_survives_sigkill(tmp_path, server):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    host = start_host(tmp_path, port, "--server", server)
    game_id = acknowledged_then_killed(host, url)
    # a log line names its logger: here the new store's first schema
    assert re.search(r" INFO server\.store\.sqlite: game store .* schema version 0 -> 1",
                     host.stdout.read())
    again = start_host(tmp_path, port, "--server", server)
    assert f"http://127.0.0.1:{port}/" in serves_the_move_then_stops(again, url, game_id)


def test_the_command_has_the_documented_options():
    parser = argparse.ArgumentParser()
    serve.configure(parser)
    args = parser.parse_args([])
    assert (args.host, args.port, args.data_dir, args.no_mdns) == ("0.0.0.0", 8000, None, False)
    assert args.log_level == "info" and parser.parse_args(["--log-level", "debug"]).log_level \
        == "debug"
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
    assert host_of(a).service is not host_of(b).service
    shutdown_app(a)
    shutdown_app(b)


@pytest.mark.skipif(os.environ.get("CORNERCLAIM_NO_MDNS") == "1", reason="mDNS disabled")
def test_a_host_announced_on_loopback_is_discovered():
    from server.lan.discovery import Announcer, discover

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


def _children(pid: int) -> set[int]:
    """Live (not zombie) pids whose parent is `pid` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        fields = proc_fields(stat.parent.name)
        if fields is not None and int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def test_the_host_is_one_event_loop_with_keep_alive(tmp_path):
    """`serve` runs gevent's server: two requests share one TCP connection (HTTP/1.1)."""
    port = free_port()
    host = start_host(tmp_path, port)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=DEADLINE) as s:
            request = b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"
            answers = b""
            for _ in range(2):
                s.sendall(request)
                while answers.count(b'"ok":true') < _ + 1:
                    chunk = s.recv(65536)
                    assert chunk, "the host closed the connection after one request"
                    answers += chunk
        assert answers.count(b"HTTP/1.1 200 OK") == 2
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(DEADLINE)
    assert host.returncode == 0
    assert "Stopping." in host.stdout.read()


def _status(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def test_sockets_cost_the_host_no_threads_and_it_loads_no_client_library(tmp_path):
    from tests.socket_client import Client

    port = free_port()
    host = start_host(tmp_path, port)
    clients = []
    try:
        before = _status(host.pid, "Threads")
        for _ in range(12):
            sio = Client()
            sio.connect(f"http://127.0.0.1:{port}", transports=["websocket"], wait_timeout=30)
            clients.append(sio)
        assert _status(host.pid, "Threads") <= before + 1  # greenlets, not threads
        assert "aiohttp" not in Path(f"/proc/{host.pid}/maps").read_text()  # its C parts
    finally:
        for sio in clients:
            sio.disconnect()
        host.send_signal(signal.SIGTERM)
        host.wait(DEADLINE)
    assert host.returncode == 0


def finished_state(url: str, game_id: str) -> dict:
    """Poll a game of computer seats until it ends (the host must answer every poll and
    its health check meanwhile); its final state."""
    end = time.monotonic() + 3 * DEADLINE
    while True:
        assert requests.get(f"{url}/api/health", timeout=DEADLINE).ok
        state = requests.get(f"{url}/api/games/{game_id}", timeout=DEADLINE).json()
        if state["status"] == "finished":
            return state
        assert time.monotonic() < end, f"the computers did not finish (seq {state['seq']})"
        time.sleep(0.2)


@contextlib.contextmanager
def computer_game(tmp_path: Path, *levels: int):
    """A served host (bots without delay) with a duo game of computer seats at `levels`;
    yields (host process, url, game id) and checks the host stops cleanly after."""
    port = free_port()
    host = start_host(tmp_path, port, "--bot-delay", "0")
    url = f"http://127.0.0.1:{port}"
    try:
        g = requests.post(f"{url}/api/games", json={"variant": "duo", "seats": [
            {"kind": "computer", "level": n} for n in levels]}).json()
        yield host, url, g["id"]
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(DEADLINE)
    assert host.returncode == 0


def test_computer_seats_play_a_whole_game_on_the_served_host(tmp_path):
    """The bot pool works inside the event loop, and the host answers while bots think."""
    with computer_game(tmp_path, 2, 3) as (_, url, game_id):
        state = finished_state(url, game_id)
    assert state["result"] is not None and state["seq"] > 20


def test_a_killed_bot_worker_is_replaced_on_the_served_host(tmp_path):
    """The pool's recovery works inside the event loop: kill the worker, the game goes on."""
    with computer_game(tmp_path, 3, 3) as (host, url, game_id):
        end = time.monotonic() + DEADLINE
        workers: set[int] = set()
        while not workers:
            assert time.monotonic() < end, "no bot worker started"
            workers = {pid for pid in _children(host.pid)
                       if b"resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_bytes()}
            time.sleep(0.05)
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        finished_state(url, game_id)
        assert not workers & _children(host.pid)  # new workers, not the killed ones
    assert "replacing the pool" in host.stdout.read()


@pytest.mark.skipif(os.environ.get("CORNERCLAIM_NO_MDNS") == "1", reason="mDNS disabled")
def test_serve_announces_itself_and_its_mdns_process_ends_with_it(tmp_path):
    from server.lan.discovery import discover

    port = free_port()
    host = start_host(tmp_path, port, mdns=True)
    try:
        mine, seconds, end = [], 3.0, time.monotonic() + DEADLINE
        while not mine and time.monotonic() < end:
            found = discover(seconds, interfaces=["127.0.0.1"])
            mine = [h for h in found if h.url == f"http://127.0.0.1:{port}/"]
            seconds = min(2 * seconds, 12.0)
        assert mine and mine[0].name.startswith("Corner Claim on ")
        children = _children(host.pid)
        assert children  # zeroconf runs in its own process
        host.send_signal(signal.SIGKILL)  # even a killed host leaves no announcer behind
        host.wait()
        end = time.monotonic() + DEADLINE
        while any(Path(f"/proc/{pid}").exists() for pid in children):
            assert time.monotonic() < end, "the mDNS process outlived the host"
            time.sleep(0.1)
    finally:
        host.kill()
        host.wait()


def test_the_command_tells_its_version(capsys):
    from server import version
    from server.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"cornerclaim {version()}" != "cornerclaim "
