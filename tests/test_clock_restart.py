"""Clocks across a quick restart: a host killed (SIGKILL) and started again at once, on its
own SQLite or as a club's only process on PostgreSQL and Redis, restarts the running clock
when it comes back. The time no process held the game is not charged, so no flag falls for
it; the clock the player left is the clock the player finds."""

from __future__ import annotations

import time

from server.realtime.shared import PRESENCE_TTL, Cluster
from tests.test_club import Host

CLOCK = {"reserve_s": 60, "increment_s": 0}
#: Nothing here asks the computer: its workers need not warm up.
QUIET = {"BOT_WARM_UP": False}
TWO = [{"kind": "local", "name": "Wanda"}, {"kind": "local", "name": "Boris"}]


def clocked_corners(host: Host) -> tuple[str, dict[str, str]]:
    """A clocked Corners game with a move each, so both clocks have been charged and
    white's is running."""
    g = host.post("/api/games", {"game": "corners", "variant": "classic-3x3", "seats": TWO,
                                 "clock": CLOCK}).json()
    gid, tokens = g["id"], g["tokens"]
    for seq, (seat, move) in enumerate([(1, "c3-d3"), (2, "f6-e6"), (1, "d3-d4"),
                                        (2, "e6-e5")], start=1):
        r = host.post(f"/api/games/{gid}/moves", {"seat": seat, "move": move, "seq": seq},
                      tokens[str(seat)])
        assert r.status_code == 201, r.json()
    return gid, tokens


def clock_of(host: Host, gid: str) -> dict:
    state = host.get(f"/api/games/{gid}").json()
    assert state["status"] == "running", state.get("result")
    return state["board"]["clock"]


def kill_and_restart(host: Host, gid: str, start) -> tuple[dict, dict, int, Host]:
    """The clock before the kill, after the restart, the kill's time (ms), the new host."""
    before = clock_of(host, gid)
    assert before["running"] == 1
    host.kill()
    killed_ms = int(time.time() * 1000)
    again = start(host.port)
    after = clock_of(again, gid)
    return before, after, killed_ms, again


def assert_not_charged(host: Host, gid: str, before: dict, after: dict, killed_ms: int) -> None:
    # the clock restarted after the kill, from what each side had: nothing charged for the
    # time the host was away, and the game goes on
    assert after["running"] == 1
    assert after["remaining_ms"] == before["remaining_ms"]
    assert after["running_since_ms"] >= killed_ms > before["running_since_ms"]
    events = host.get(f"/api/games/{gid}/events?since=5").json()["events"]
    assert [e["type"] for e in events] == ["corners_clock_resumed"]
    assert events[0]["at_ms"] == after["running_since_ms"]


def test_one_host_killed_and_started_again_at_once_does_not_charge_its_downtime(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    host = Host(None, None, data, **QUIET)
    again = None
    try:
        gid, tokens = clocked_corners(host)
        before, after, killed_ms, again = kill_and_restart(
            host, gid, lambda port: Host(None, None, data, port=port, **QUIET))
        assert_not_charged(again, gid, before, after, killed_ms)
        # and the clock runs on: white's move is charged from the restart only
        r = again.post(f"/api/games/{gid}/moves", {"seat": 1, "move": "d4-d5", "seq": 6},
                       tokens["1"])
        assert r.status_code == 201, r.json()
        moved = r.json()["event"]["at_ms"]
        now = clock_of(again, gid)
        assert now["remaining_ms"][0] == before["remaining_ms"][0] - (
            moved - after["running_since_ms"])
    finally:
        host.kill()
        if again is not None:
            again.stop()


def test_a_club_process_killed_and_started_again_at_once_does_not_charge_its_downtime(
        postgres, redis_server, tmp_path):
    store = postgres.create_database()
    data = tmp_path / "data"
    data.mkdir()
    # the host's own presence time: its heartbeat is still fresh when it comes back, and it
    # must not take it for another process holding the game
    host = Host(store, redis_server.url, data, PRESENCE_TTL=PRESENCE_TTL, **QUIET)
    again = None
    try:
        gid, _tokens = clocked_corners(host)
        before, after, killed_ms, again = kill_and_restart(
            host, gid, lambda port: Host(store, redis_server.url, data, port=port,
                                         PRESENCE_TTL=PRESENCE_TTL, **QUIET))
        assert_not_charged(again, gid, before, after, killed_ms)
    finally:
        host.kill()
        if again is not None:
            again.stop()
        postgres.drop_database(store)


def test_a_process_is_up_while_its_heartbeat_is_fresh_and_its_connection_open(redis_server):
    """What a starting process asks before it restarts clocks: another process that beats
    is up; one whose connections closed (killed) is not, however fresh its last beat."""
    one, other = Cluster(redis_server.url), Cluster(redis_server.url)
    try:
        assert not one.others_alive()
        other.beat()
        assert one.others_alive()
        other.client.connection_pool.disconnect()  # what a SIGKILL does to its sockets
        assert not one.others_alive()
        other.beat()  # it reconnects: up again
        assert one.others_alive()
    finally:
        for cluster in (one, other):
            cluster.stop()
