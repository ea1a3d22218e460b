"""Presence in memory: which sockets hold which seats, and what is kept once they go."""

from __future__ import annotations

from server.realtime.presence import Presence


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_socket_that_moves_on_to_another_game_releases_the_old_seat():
    clock = Clock()
    p = Presence(clock)
    p.connect("s1", "g1", 1)
    p.connect("s2", "g1", 1)  # the same seat on a second phone
    p.connect("s1", "g1", 2)
    clock.now = 110.0
    assert p.release("s1", "g1")  # seat 2 lost its only socket
    assert p.connected("g1", 1) and not p.connected("g1", 2)
    clock.now = 115.0
    assert p.away_for("g1", 2) == 5.0
    assert not p.release("s1", "g1")  # nothing left to release
    p.connect("s1", "g2", 1)
    assert p.disconnect("s1") == {"g2"}  # only the game it still held
    assert p.connected("g1", 1)
    assert p.disconnect("s2") == {"g1"}
    assert not p.connected("g1", 1)


def test_nothing_is_kept_for_a_game_nobody_is_at():
    """Sockets that leave drop their entries; `forget` drops a parked game's away times."""
    clock = Clock()
    p = Presence(clock)
    for game in range(50):
        gid = f"g{game}"
        for seat in (1, 2, 3, 4):
            p.connect(f"s{seat}", gid, seat)
        for seat in (1, 2, 3, 4):
            p.release(f"s{seat}", gid)
        p.forget(gid)
    assert not p._sids and not p._held and not p._away_since
    # A seat still held is not forgotten, and a forgotten seat counts as away since start.
    p.connect("s1", "g0", 1)
    p.forget("g0")
    assert p.connected("g0", 1)
    clock.now = 130.0
    assert p.away_for("g0", 2) == 30.0


def test_release_of_a_game_the_socket_never_joined_changes_nothing():
    p = Presence(Clock())
    p.connect("s1", "g1", 1)
    assert not p.release("s1", "g2") and not p.release("s9", "g1")
    assert p.connected("g1", 1)
