"""A throwaway Redis server for the tests: `redis_server` (one per test session) and
`redis_url` (the session's server, emptied for each test).

The server is scripts/throwaway.py's `RedisServer`: Debian's `redis-server` on a free loopback
port, persisting nothing, our child (SIGKILL should this process die), stopped and its folder
deleted at the end of the session, so nothing is left running or on disk. Without the binary
the tests that need it are skipped (`scripts/test` installs Debian's `redis-server`).
"""

from __future__ import annotations

import socket

import pytest

from scripts.throwaway import RedisServer, binary

__all__ = ["RedisServer", "binary", "redis_server", "redis_url"]


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
