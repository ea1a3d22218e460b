"""The store's bad days: a torn write, a full disk, a second host on the same data dir,
a data file that is not a database. Each ends in a clear message or a host that goes on."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys

import pytest
import requests

from server import serve
from server.app import create_app, shutdown_app
from server.host import host_of
from server.store.sqlite import SqliteStore
from server.web.limits import DataDirLocked
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, create
from tests.test_serve import start_host
from tests.throwaway import free_port

DB = SqliteStore.FILENAME


def play_random(client, game: dict, moves: int, rng: random.Random) -> list[dict]:
    """`moves` random legal placements through the REST API; the events acknowledged."""
    gid, events = game["id"], []
    for _ in range(moves):
        state = client.get(f"/api/games/{gid}").json
        seat = state["to_move"]
        legal = client.get(f"/api/games/{gid}/legal?seat={seat}").json["moves"]
        r = client.post(f"/api/games/{gid}/moves", headers=bearer(game["tokens"][str(seat)]),
                        json={"seat": seat, "move": rng.choice(legal)["move"],
                              "seq": state["seq"]})
        assert r.status_code == 201, r.json
        events.append(r.json["event"])
    return events


def snapshot_while_open(app, source, target) -> None:
    """Copy the SQLite file and its WAL as a crash would leave them (the host still has the
    file open, so nothing has been checkpointed into the main file yet)."""
    target.mkdir()
    for name in (DB, DB + "-wal"):
        shutil.copyfile(source / name, target / name)


@pytest.mark.parametrize("damage", ["torn_last_frame", "garbage_tail"])
def test_a_torn_wal_tail_costs_at_most_the_write_it_tore(tmp_path, damage):
    app = create_app({"DATA_DIR": str(tmp_path / "a"), "START_BOTS": False})
    client = app.test_client()
    game = create(client, "classic")
    acked = play_random(client, game, 12, random.Random(5))
    snapshot_while_open(app, tmp_path / "a", tmp_path / "b")
    shutdown_app(app)
    wal = tmp_path / "b" / (DB + "-wal")
    data = wal.read_bytes()
    assert len(data) > 4096, "the moves should still be in the WAL"
    if damage == "torn_last_frame":
        wal.write_bytes(data[:-100])  # the last commit's frame is half written
    else:
        wal.write_bytes(data + random.Random(1).randbytes(3000))  # a frame that never was

    again = create_app({"DATA_DIR": str(tmp_path / "b"), "START_BOTS": False})
    try:
        c = again.test_client()
        events = c.get(f"/api/games/{game['id']}/events").json["events"][1:]
        kept = len(events)
        assert events == acked[:kept], "what survives is a prefix of what was acknowledged"
        assert kept == (len(acked) - 1 if damage == "torn_last_frame" else len(acked))
        more = play_random(c, game, 1, random.Random(9))  # and the game goes on from there
        assert more[0]["seq"] == kept + 2
    finally:
        shutdown_app(again)


def test_a_full_disk_is_a_clear_error_and_the_host_keeps_serving_reads(make_app):
    app = make_app()
    client = app.test_client()
    game = create(client, "duo")
    gid, token = game["id"], bearer(game["tokens"]["1"])
    store = host_of(app).service.store
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from now on
    r = None
    for _ in range(500):  # place and take back until a write needs a page there is not
        seq = client.get(f"/api/games/{gid}").json["seq"]
        if seq % 2:
            r = client.post(f"/api/games/{gid}/moves", headers=token,
                            json={"seat": 1, "move": "e9,d10,e10,f10,e11", "seq": seq})
        else:
            r = client.post(f"/api/games/{gid}/undo", headers=token, json={"seat": 1, "seq": seq})
        if r.status_code >= 300:
            break
    assert r.status_code == 507, r.json
    assert r.json["error"]["code"] == "disk_full"
    assert "disk is full" in r.json["error"]["message"]
    state = client.get(f"/api/games/{gid}").json  # reads go on, from what was saved
    stored = store.events_since(gid, 0)
    assert state["seq"] == len(stored) == stored[-1]["seq"], "memory never runs ahead of disk"
    assert client.get("/api/games").status_code == 200
    assert client.get(f"/api/games/{gid}/events").json["seq"] == state["seq"]
    assert client.get(f"/api/games/{gid}/replay.json").status_code == 200
    refused = client.post("/api/games", json={"variant": "duo", "seats": [{"kind": "local"}] * 2})
    assert refused.status_code == 507
    store._db.execute("PRAGMA max_page_count = 1073741823")  # space freed
    seq = state["seq"]
    if seq % 2:
        r = client.post(f"/api/games/{gid}/moves", headers=token,
                        json={"seat": 1, "move": "e9,d10,e10,f10,e11", "seq": seq})
    else:
        r = client.post(f"/api/games/{gid}/undo", headers=token, json={"seat": 1, "seq": seq})
    assert r.status_code in (200, 201), r.json


def test_a_second_app_on_one_data_dir_is_refused(tmp_path):
    first = create_app({"DATA_DIR": str(tmp_path), "START_BOTS": False})
    try:
        with pytest.raises(DataDirLocked, match="already using"):
            create_app({"DATA_DIR": str(tmp_path), "START_BOTS": False})
    finally:
        shutdown_app(first)
    create_app({"DATA_DIR": str(tmp_path), "START_BOTS": False})  # free again after shutdown


def test_a_second_host_on_the_same_data_dir_is_refused_with_a_clear_message(tmp_path):
    port = free_port()
    first = start_host(tmp_path, port)
    try:
        second = subprocess.run(
            [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port",
             str(free_port()), "--data-dir", str(tmp_path), "--no-mdns", "--no-qr"],
            capture_output=True, text=True, timeout=60)
        assert second.returncode == 3
        assert "another Corner Claim host" in second.stderr
        assert f"pid {first.pid}" in second.stderr
        assert requests.get(f"http://127.0.0.1:{port}/api/health", timeout=10).ok
        first.send_signal(signal.SIGKILL)  # a crashed host does not hold its folder
        first.wait()
        again = start_host(tmp_path, port)
        again.send_signal(signal.SIGTERM)
        assert again.wait(60) == 0
    finally:
        first.kill()
        first.wait()


def test_a_data_file_that_is_not_a_database_stops_the_host_with_a_clear_message(tmp_path):
    (tmp_path / DB).write_bytes(b"this is not a database, " * 200)
    # The real command in its own process: `serve` monkey-patches the process it runs in.
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "serve", "--data-dir", str(tmp_path),
         "--no-mdns", "--no-qr", "--host", "127.0.0.1", "--port", str(free_port())],
        capture_output=True, text=True, timeout=60, cwd=serve.__file__.rsplit("/server/", 1)[0])
    assert done.returncode == 4
    assert "cannot be read" in done.stderr and str(tmp_path) in done.stderr
    (tmp_path / DB).unlink()
    app = create_app({"DATA_DIR": str(tmp_path), "START_BOTS": False})  # the lock was released
    shutdown_app(app)
    (tmp_path / DB).unlink()
    shutdown_app(create_app({"DATA_DIR": str(tmp_path), "START_BOTS": False}))
