"""The throwaway Redis server the club tests use (tests/redis_fixtures.py): a real client
reads what it wrote, and the server comes back on the same port after a stop, empty."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

redis = pytest.importorskip("redis", reason="redis is in the club extra (scripts/test)")


def test_a_client_sets_and_gets_on_the_throwaway_server(redis_url):
    client = redis.Redis.from_url(redis_url)
    try:
        assert client.set("table:7", "seat 2 is away", ex=30)
        assert client.get("table:7") == b"seat 2 is away"
        assert 0 < client.ttl("table:7") <= 30
        assert client.config_get("save") == {"save": ""}  # nothing persisted
        assert client.config_get("appendonly") == {"appendonly": "no"}
    finally:
        client.close()


def test_each_test_starts_with_an_empty_server(redis_url):
    client = redis.Redis.from_url(redis_url)
    try:
        assert client.dbsize() == 0
        client.set("left over", 1)
    finally:
        client.close()


def test_stopped_the_server_refuses_and_restarted_on_the_same_port_it_serves_again(
        redis_server, redis_url):
    client = redis.Redis.from_url(redis_url, socket_timeout=2)
    try:
        client.set("before", 1)
        port = redis_server.port
        redis_server.stop()
        assert not redis_server.ping()
        with pytest.raises(redis.ConnectionError):
            client.get("before")
        time.sleep(0.2)
        redis_server.start()
        assert redis_server.port == port and redis_server.url == redis_url
        assert client.get("before") is None  # the client reconnects; nothing was kept
        assert client.set("after", 2) and client.get("after") == b"2"
    finally:
        client.close()


def test_an_outage_kills_the_server_and_brings_it_back_on_the_same_port(redis_server,
                                                                         redis_url):
    pid, port = redis_server.process.pid, redis_server.port
    with redis_server.down():
        assert not redis_server.ping()
    assert redis_server.process.pid != pid and redis_server.port == port
    assert redis_server.ping()


def test_the_server_dies_with_the_process_that_started_it(tmp_path):
    """A test run killed outright leaves no Redis behind (PR_SET_PDEATHSIG)."""
    from tests.redis_fixtures import binary

    if binary() is None:
        pytest.skip("Redis is not installed")
    starter = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\n"
         "from tests.redis_fixtures import RedisServer, binary\n"
         "s = RedisServer(binary()); s.start(); print(s.process.pid, s.root, flush=True)\n"
         "time.sleep(60)"],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[1])
    try:
        pid, root = starter.stdout.readline().split()
        pid = int(pid)
        assert Path(f"/proc/{pid}").exists()
    finally:
        starter.kill()
        starter.wait()
    shutil.rmtree(root, ignore_errors=True)  # its starter could not
    end = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and _state(pid) != "Z":
        assert time.monotonic() < end, "redis-server outlived the process that started it"
        time.sleep(0.05)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"
