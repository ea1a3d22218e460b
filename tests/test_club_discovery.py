"""A club's host on the LAN: its processes share one host id kept in the store, each announces
itself by mDNS, and `cornerclaim discover` lists one host with every process's address.
Over loopback only."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from server.lan import discover as discover_command
from server.lan.discovery import Announcer, FoundHost, _Process, discover, group, identity
from server.store.sqlite import SqliteStore
from tests.server_fixtures import DEADLINE
from tests.throwaway import free_port

no_mdns = pytest.mark.skipif(os.environ.get("CORNERCLAIM_NO_MDNS") == "1",
                             reason="mDNS disabled")


# -- the host's id, kept in the store ----------------------------------------------------
def test_a_home_host_keeps_its_id_across_restarts(tmp_path):
    store = SqliteStore(tmp_path / "home")
    first = store.host_id()
    assert first == store.host_id() and len(first) == 16
    store.close()
    again = SqliteStore(tmp_path / "home")
    assert again.host_id() == first
    other = SqliteStore(tmp_path / "next-door")
    assert other.host_id() != first
    again.close()
    other.close()


def test_every_process_on_one_database_has_the_same_host_id(pg_url):
    pytest.importorskip("psycopg")
    from server.store.postgres import PostgresStore

    one, two = PostgresStore(pg_url), PostgresStore(pg_url)
    try:
        assert one.host_id() == two.host_id()
    finally:
        one.close()
        two.close()
    again = PostgresStore(pg_url)
    try:
        assert again.host_id() == PostgresStore(pg_url).host_id()
    finally:
        again.close()


def test_a_club_database_of_the_first_schema_gains_its_host_id(pg_url):
    import psycopg

    from server.store.pg_schema import MIGRATIONS, SCHEMA_VERSION
    from server.store.postgres import PostgresStore

    with psycopg.connect(pg_url) as conn:  # as a host of the first schema left it
        conn.execute("CREATE TABLE schema_version (one boolean PRIMARY KEY DEFAULT true"
                     " CHECK (one), version integer NOT NULL)")
        conn.execute(MIGRATIONS[0])
        conn.execute("INSERT INTO schema_version (version) VALUES (1)")
    store = PostgresStore(pg_url)
    try:
        assert store.host_id()
        with psycopg.connect(pg_url) as conn:
            assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == (
                SCHEMA_VERSION)
    finally:
        store.close()


def test_a_club_process_is_named_by_its_port_and_the_host_by_its_machine(tmp_path):
    store = SqliteStore(tmp_path)
    try:
        club = identity(store, 8001, shared=True)
        home = identity(store, 8001, shared=False)
    finally:
        store.close()
    assert club["name"] == club["host_name"] + ":8001"
    assert club["host_name"].startswith("Corner Claim on ")
    assert home["name"] == home["host_name"] and home["host_id"] == club["host_id"]


# -- grouping what was found ---------------------------------------------------------------
def _found(label: str, url: str, **props: str) -> _Process:
    return _Process(label, url, {"version": "1", "open_games": "0", **props})


def test_processes_of_one_host_are_listed_as_one_host_with_their_addresses():
    hosts = group([
        _found("Corner Claim on club:8001", "http://10.0.0.5:8001/", host="c1ub",
               host_name="Corner Claim on club", open_games="3"),
        _found("Corner Claim on home", "http://10.0.0.9:8000/", open_games="1"),
        _found("Corner Claim on club:8000", "http://10.0.0.5:8000/", host="c1ub",
               host_name="Corner Claim on club", open_games="2"),
        _found("Corner Claim on annex:8000", "http://10.0.0.6:8000/", host="c1ub",
               host_name="Corner Claim on annex", open_games="3"),
    ])
    assert [(h.name, h.urls, h.open_games) for h in hosts] == [
        ("Corner Claim on annex", ["http://10.0.0.5:8000/", "http://10.0.0.5:8001/",
                                   "http://10.0.0.6:8000/"], 3),
        ("Corner Claim on home", ["http://10.0.0.9:8000/"], 1)]
    assert hosts[0].url == "http://10.0.0.5:8000/" and hosts[0].host_id == "c1ub"
    assert hosts[1].host_id is None  # an older host, announcing no id


def test_discover_prints_a_club_host_once_with_each_address_below(monkeypatch, capsys):
    club = FoundHost("Corner Claim on club", "http://10.0.0.5:8000/", 3, "1",
                     ["http://10.0.0.5:8000/", "http://10.0.0.5:8001/"], "c1ub")
    home = FoundHost("Corner Claim on home", "http://10.0.0.9:8000/", 1, "1",
                     ["http://10.0.0.9:8000/"], "h0me")
    monkeypatch.setattr("server.lan.discovery.discover", lambda seconds: [club, home])
    assert discover_command.run(argparse.Namespace(seconds=0)) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Corner Claim on club\thttp://10.0.0.5:8000/\t3 open games",
        "\thttp://10.0.0.5:8001/",
        "Corner Claim on home\thttp://10.0.0.9:8000/\t1 open game"]


# -- over loopback ---------------------------------------------------------------------------
def _discover_until(check, deadline: float = DEADLINE) -> list[FoundHost]:
    """Browse loopback until `check(found)` holds: a browse window can end before a loaded
    machine answers, so each look is longer, up to the deadline."""
    found, seconds, end = [], 3.0, time.monotonic() + deadline
    while time.monotonic() < end:
        found = discover(seconds, interfaces=["127.0.0.1"])
        if check(found):
            break
        seconds = min(2 * seconds, 12.0)
    return found


@no_mdns
def test_announced_processes_of_one_host_are_discovered_as_one_host():
    ports = [free_port() for _ in range(3)]
    announcers = [
        Announcer("127.0.0.1", ports[0], version="test", open_games=lambda: 2,
                  name=f"Corner Claim test club:{ports[0]}", interfaces=["127.0.0.1"],
                  host_id="c1ub7e57", host_name="Corner Claim test club"),
        Announcer("127.0.0.1", ports[1], version="test", open_games=lambda: 2,
                  name=f"Corner Claim test club:{ports[1]}", interfaces=["127.0.0.1"],
                  host_id="c1ub7e57", host_name="Corner Claim test club"),
        Announcer("127.0.0.1", ports[2], version="test", open_games=lambda: 0,
                  name="Corner Claim test home", interfaces=["127.0.0.1"],
                  host_id="h0me7e57")]
    for a in announcers:
        a.start()
    try:
        assert all(a.registered.wait(DEADLINE) for a in announcers)
        club_urls = sorted(f"http://127.0.0.1:{p}/" for p in ports[:2])

        def complete(found):
            mine = {h.host_id: h for h in found}
            return (mine.get("c1ub7e57") and mine["c1ub7e57"].urls == club_urls
                    and "h0me7e57" in mine)

        found = {h.host_id: h for h in _discover_until(complete)}
        assert found["c1ub7e57"].urls == club_urls
        assert found["c1ub7e57"].name == "Corner Claim test club"
        assert found["c1ub7e57"].open_games == 2
        assert found["h0me7e57"].urls == [f"http://127.0.0.1:{ports[2]}/"]
        assert found["h0me7e57"].name.startswith("Corner Claim test home")
    finally:
        for a in announcers:
            a.stop()


def _start_club_process(pg_url: str, data_dir: Path, port: int) -> subprocess.Popen:
    """`cornerclaim serve --store` on loopback, announced on 127.0.0.1 only; once it answers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(data_dir), "--store", pg_url, "--no-qr",
         "--mdns-interfaces", "127.0.0.1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parent.parent)
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        try:
            if requests.get(f"http://127.0.0.1:{port}/api/health", timeout=5).ok:
                return proc
        except requests.RequestException:
            assert proc.poll() is None, "the host process ended"
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the host did not come up")


@no_mdns
def test_two_serve_processes_on_one_database_are_discovered_as_one_host(pg_url, tmp_path):
    ports = [free_port(), free_port()]
    hosts = []
    try:
        for p in ports:
            hosts.append(_start_club_process(pg_url, tmp_path / str(p), p))
        urls = sorted(f"http://127.0.0.1:{p}/" for p in ports)

        def complete(found):
            return any(h.urls == urls for h in found)

        mine = [h for h in _discover_until(complete) if set(h.urls) & set(urls)]
        assert len(mine) == 1 and mine[0].urls == urls
        assert mine[0].name.startswith("Corner Claim on ") and ":" not in mine[0].name
    finally:
        for h in hosts:
            h.kill()
            h.wait()
