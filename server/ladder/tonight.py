"""Tonight's standings: the match points of the games finished since the evening began, per
player, per game and in total.

A projection of the ladder's finished games (`Ladder.finished_since`), so it counts exactly
what the ladder counts: every finished game that is not practice (a solo race is practice
too), each named person's seat with the match points its game gives the seat (a player who
left gets a leaver's points), computer levels and unnamed guests left out. The evening
begins when the host starts; the host PC may begin a new one (`Tonight.begin`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from server.ladder.results import FinishedGame


class Tonight:
    """The evening of one host over its ladder (`server.ladder.standings.Ladder`):
    thread-safe. `listeners` are called with the new body whenever it may have changed (a
    game finished: `changed`; a new evening: `begin`)."""

    def __init__(self, ladder: Any, since: float | None = None) -> None:
        self.ladder = ladder
        self._since = time.time() if since is None else since
        self._lock = threading.Lock()
        self.listeners: list[Callable[[dict[str, Any]], None]] = []

    @property
    def since(self) -> float:
        with self._lock:
            return self._since

    def body(self) -> dict[str, Any]:
        since = self.since
        return standings(self.ladder.finished_since(since), since)

    def begin(self, at: float | None = None) -> dict[str, Any]:
        """A new evening from `at` (now): the games finished before it no longer count."""
        with self._lock:
            self._since = time.time() if at is None else at
        return self.changed()

    def changed(self) -> dict[str, Any]:
        body = self.body()
        for listener in list(self.listeners):
            listener(body)
        return body


def standings(games: Iterable[FinishedGame], since: float) -> dict[str, Any]:
    """Tonight's body: `since` (ISO 8601, UTC) and a row per player, most points first (then
    most wins, fewest games, name): name (the latest spelling), points, games, wins, draws,
    losses, and points by game id."""
    rows: dict[str, dict[str, Any]] = {}
    for game in games:
        for seat in game.seats:
            key = seat.profile
            if key is None:
                continue
            row = rows.setdefault(key, {"name": seat.name, "points": 0, "games": 0,
                                        "wins": 0, "draws": 0, "losses": 0, "by_game": {}})
            row["name"] = seat.name
            row["points"] += seat.points
            row["games"] += 1
            row[{"win": "wins", "draw": "draws"}.get(seat.result, "losses")] += 1
            row["by_game"][game.game] = row["by_game"].get(game.game, 0) + seat.points
    players = sorted(rows.values(), key=lambda r: (-r["points"], -r["wins"], r["games"],
                                                   r["name"].casefold()))
    return {"since": datetime.fromtimestamp(since, UTC).isoformat(timespec="seconds"),
            "players": players}
