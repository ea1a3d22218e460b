"""A throwaway Redis server for the tests: `redis_server` (one per test session) and
`redis_url` (the session's server, emptied for each test).

The server is Debian's `redis-server`, listening on a free loopback port with its working
folder (and log) in a temporary folder and no persistence at all: no RDB snapshots, no
append-only file. It is our child and gets SIGKILL should this process die
(PR_SET_PDEATHSIG); at the end of the session it is stopped and the folder deleted, so nothing
is left running or on disk. `RedisServer.stop()` and `start()` take it down and bring it back
on the same port (an outage: everything it held is gone, as after a crash of a Redis that
keeps nothing). Without the binary the tests that need it are skipped (`scripts/test`
installs Debian's `redis-server`).

`RedisServer` needs neither pytest nor the `redis` package: `scripts/loadtest.py` starts one
for a run of several host processes.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.throwaway import die_with_parent, free_port


def binary() -> str | None:
    """The `redis-server` executable, or None if Redis is not installed."""
    return shutil.which("redis-server") or next(
        (p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if Path(p).is_file()),
        None)


class RedisServer:
    """One `redis-server` on 127.0.0.1 in a temporary folder, persisting nothing; `stop()` and
    `start()` again on the same port, `close()` to end it and delete the folder."""

    def __init__(self, executable: str, *, port: int | None = None) -> None:
        self.executable = executable
        self.root = Path(tempfile.mkdtemp(prefix="cornerclaim-redis-"))
        self.log = self.root / "server.log"
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def argv(self) -> list[str]:
        return [self.executable, "--bind", "127.0.0.1", "--port", str(self.port),
                "--dir", str(self.root), "--logfile", str(self.log),
                "--save", "", "--appendonly", "no", "--daemonize", "no",
                "--protected-mode", "yes", "--maxmemory", "256mb",
                "--maxmemory-policy", "noeviction"]

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and wait until it answers PING."""
        assert self.process is None, "already running"
        self.process = subprocess.Popen(self.argv(), cwd=self.root, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        preexec_fn=die_with_parent(signal.SIGKILL))
        deadline = time.monotonic() + timeout
        while not self.ping():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                log = self.log.read_text()[-3000:] if self.log.exists() else ""
                raise RuntimeError(f"redis-server did not start on port {self.port}:\n{log}")
            time.sleep(0.02)

    def ping(self) -> bool:
        """Whether the server answers PING (a plain RESP exchange, no client library)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """SIGTERM: the server closes its clients and exits (it saves nothing)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def kill(self) -> None:
        """SIGKILL, as a crash."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    @contextlib.contextmanager
    def down(self, *, crash: bool = True):
        """An outage for the length of the `with` block: killed (SIGKILL, or SIGTERM with
        `crash=False`) on entry, started again on the same port on exit, empty."""
        self.kill() if crash else self.stop()
        try:
            yield self
        finally:
            self.start()

    def close(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@pytest.fixture(scope="session")
def redis_server():
    """The session's Redis server (skips the test if `redis-server` is missing)."""
    found = binary()
    if found is None:
        pytest.skip("Redis is not installed (scripts/test installs Debian's redis-server)")
    server = RedisServer(found)
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def redis_url(redis_server):
    """The session's Redis URL, emptied (FLUSHALL) for the test; a test that stopped the
    server has it started again afterwards."""
    _flushall(redis_server.port)
    yield redis_server.url
    if redis_server.process is None:
        redis_server.start()


def _flushall(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"FLUSHALL\r\n")
        assert s.recv(64).startswith(b"+OK")
