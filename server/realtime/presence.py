"""Who is at the table right now: which sockets hold which seats, and since when a seat is away.

A phone that sleeps or loses Wi-Fi is *away*, not gone: its seat waits for it, and only after
a grace period may another seated player or the host declare it left. Presence is memory
only — after a restart every human seat counts as away from the moment the host started.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable

Key = tuple[str, int]  # (game id, seat)


class HeldSeats:
    """The seats each socket of this process holds. Not locked: its owner's lock guards it."""

    def __init__(self) -> None:
        self._by_sid: dict[str, set[Key]] = defaultdict(set)

    def add(self, sid: str, key: Key) -> None:
        self._by_sid[sid].add(key)

    def drop(self, sid: str) -> set[Key]:
        """Every seat the socket held, forgotten."""
        return self._by_sid.pop(sid, set())

    def drop_game(self, sid: str, game_id: str) -> set[Key]:
        """The seats of one game the socket held, forgotten (it left that game)."""
        held = self._by_sid.get(sid)
        if not held:
            return set()
        keys = {k for k in held if k[0] == game_id}
        held -= keys
        if not held:
            del self._by_sid[sid]
        return keys

    def holds(self, key: Key) -> bool:
        """Whether any socket of this process holds the seat."""
        return any(key in keys for keys in self._by_sid.values())

    def items(self) -> list[tuple[str, Key]]:
        return [(sid, key) for sid, keys in self._by_sid.items() for key in keys]

    def __len__(self) -> int:
        """How many sockets hold a seat."""
        return len(self._by_sid)


class Presence:
    """Socket ids per seat, and the moment each seat last lost its last socket."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._started = clock()
        self._lock = threading.Lock()
        self._sids: dict[Key, set[str]] = defaultdict(set)
        self._held = HeldSeats()
        self._away_since: dict[Key, float] = {}

    def connect(self, sid: str, game_id: str, seat: int) -> None:
        with self._lock:
            self._sids[(game_id, seat)].add(sid)
            self._held.add(sid, (game_id, seat))
            self._away_since.pop((game_id, seat), None)

    def disconnect(self, sid: str) -> set[str]:
        """Forget a socket; return the ids of games whose presence changed."""
        with self._lock:
            return self._release(sid, self._held.drop(sid))

    def release(self, sid: str, game_id: str) -> bool:
        """The socket left one game (the phone moved on, say to the rematch); True if a seat
        of that game lost its last socket."""
        with self._lock:
            return bool(self._release(sid, self._held.drop_game(sid, game_id)))

    def _release(self, sid: str, keys: set[Key]) -> set[str]:
        now = self._clock()
        changed = set()
        for key in keys:
            sids = self._sids.get(key)
            if sids is None:
                continue
            sids.discard(sid)
            if not sids:
                del self._sids[key]
                self._away_since[key] = now
                changed.add(key[0])
        return changed

    def forget(self, game_id: str) -> None:
        """Drop what is kept about a game's seats that no socket holds (a finished game is
        parked): presence keeps nothing per game once nobody is at its table."""
        with self._lock:
            for key in [k for k in self._away_since if k[0] == game_id]:
                if key not in self._sids:
                    del self._away_since[key]

    def connected(self, game_id: str, seat: int) -> bool:
        with self._lock:
            return bool(self._sids.get((game_id, seat)))

    def away_for(self, game_id: str, seat: int) -> float:
        """Seconds since the seat lost its last socket (0 while connected)."""
        with self._lock:
            if self._sids.get((game_id, seat)):
                return 0.0
            return self._clock() - self._away_since.get((game_id, seat), self._started)
