"""Fixtures for the host's tests: a real app per test on a real SQLite file in tmp_path, and a
live server on a free loopback port for Socket.IO. Import them with

    from tests.server_fixtures import *  # noqa: F403 - the fixtures
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests

from server.app import create_app, shutdown_app
from server.serve import werkzeug_server

__all__ = ["make_app", "client", "live"]

def proc_fields(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first, then the parent's
    pid), or None when there is no such process."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def alive(pid: int) -> bool:
    """Whether `pid` is a running process (not gone, not a zombie)."""
    fields = proc_fields(pid)
    return fields is not None and fields[0] != "Z"


DEADLINE = 60.0  # seconds a test waits for something that must happen (not a timing assert)

KINDS = {"duo": 2, "trio": 3, "classic": 4}


@pytest.fixture
def make_app(tmp_path) -> Callable[..., Any]:
    """make_app(**config) -> a fresh host on tmp_path/data (bots move at once)."""
    apps = []

    def make(**config):
        base = {"DATA_DIR": str(tmp_path / "data"), "BOT_DELAY": 0, "BOT_WORKERS": 1,
                "BOT_WARM_UP": False,  # test_botpool.py and the browser's host warm up
                "ANALYSIS_AUTO": False,  # a finished game is analysed when a test asks
                "TESTING": True, "LOCK_DATA_DIR": False}  # some tests open two apps on one dir
        app = create_app({**base, **config})
        apps.append(app)
        return app

    yield make
    for app in apps:
        shutdown_app(app)


@pytest.fixture
def client(make_app):
    return make_app().test_client()


@dataclass
class Live:
    url: str
    app: Any
    server: Any
    thread: threading.Thread

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


@pytest.fixture
def live(make_app):
    """live(**config) -> a host served on 127.0.0.1 at a free port, in a thread."""
    servers: list[Live] = []

    def start(**config) -> Live:
        app = make_app(**config)
        server = werkzeug_server("127.0.0.1", 0, app)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        live = Live(f"http://127.0.0.1:{server.port}", app, server, thread)
        servers.append(live)
        return live

    yield start
    for s in servers:
        s.stop()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client, variant: str = "duo", kinds: tuple[str, ...] | None = None,
           **seat_extra: Any) -> dict:
    """Create a game through the API; kinds default to all local seats."""
    kinds = kinds or ("local",) * KINDS[variant]
    seats = [{"kind": k, **({"level": 1} if k == "computer" else {})} for k in kinds]
    r = client.post("/api/games", json={"variant": variant, "seats": seats})
    assert r.status_code == 201, r.json
    return r.json


def host_answers(url: str) -> bool:
    """Whether a host started at `url` answers its health check: False while nothing listens
    there yet. Once the host has taken the connection it has the whole DEADLINE to answer, so a
    host that starts slowly on a busy machine is waited for, not failed."""
    try:
        return requests.get(f"{url}/api/health", timeout=DEADLINE).ok
    except requests.ConnectionError:
        return False


def wait_for(predicate: Callable[[], Any], what: str, deadline: float = DEADLINE) -> Any:
    """Poll until `predicate()` is truthy; fail the test after `deadline` seconds."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what}")
