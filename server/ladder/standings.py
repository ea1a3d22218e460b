"""The ladder: match points, Elo ratings and per-player stats, folded from finished games of
every game the host offers.

A projection, never a source of truth: every number here is folded from the finished games'
event logs (through each game's rules: `outcome` for scores and results, `ladder` for match
points and the game's own statistics) plus their seat records (who sat where), in the order
the games finished, and the whole thing is rebuilt at start-up. A game that finishes while
the host runs is folded in the same way, so the live ladder always equals a rebuild from the
logs (tests/test_ladder.py checks exactly that).

Who is who (docs/ladder.md):
- A **profile** is a name. A human seat (an open seat someone claimed, or a seat on the
  host's device) belongs to the profile of its display name, compared without case and
  surrounding blanks ("Ann" and " ann " are one player; the latest spelling is shown).
  A seat nobody named or claimed belongs to no profile: it is a guest, shown in the game
  by its colour.
- A computer seat is its level, at a fixed rating (`level_rating`); levels are opponents,
  not ladder entries, and their ratings never move. A player who left a game the computer
  played on for them (a 4-player Corner game) stays their profile: the seat's result (a
  loss: a leaver cannot win) is theirs.

What counts:
- A game counts once its rules say it is over. A game the host closed before its end
  (its log's `game_closed`: abandoned, or cancelled before it started) counts for nothing:
  its standing is not a result. A 3- or 4-seat game that every seat left counts as a loss
  for each of them (each left), with the loss's match points.
- Every seated profile gets the match points and statistics its game gives the seat, in the
  game, in the game's variant, and in the player's totals over every game.
- Ratings are per game and variant (`rating_key`: "cornerclaim/duo"); only a variant the
  game marks `rated` and played by two seats moves them (Elo, start `START_RATING`,
  `K_FACTOR`): two profiles rate against each other; a profile against a computer moves
  against the level's fixed rating; a profile playing itself, or anyone against an unnamed
  seat, moves nothing. Other games and variants count points and stats only.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from engine.registry import DEFAULT_GAME
from server.ladder.players import (  # noqa: F401  (the ladder's names, read as L.<name>)
    ALL,
    K_FACTOR,
    RECENT,
    RESULT_VALUE,
    START_RATING,
    GameLine,
    Player,
    Rating,
    Stats,
    expected,
    fold,
    fold_game,
    seat_label,
)
from server.ladder.results import (  # noqa: F401
    DEFAULT_LEVEL_RATING,
    LEVEL_STEP,
    FinishedGame,
    SeatResult,
    finish_time,
    games_from_store,
    games_from_tables,
    level_rating,
    level_ratings,
    profile_key,
    rated_variants,
    rating_key,
    summarise,
    with_finish_time,
)

SORT_KEYS = ("rating", "points", "games", "wins", "average_score", "best_score", "name")


class Ladder:
    """The ladder of one host: thread-safe; `add` a game as it finishes, read any time."""

    def __init__(self, games: Iterable[FinishedGame] = ()) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, FinishedGame] = {}
        self._order: list[FinishedGame] = []
        self._players: dict[str, Player] = {}
        self.rebuild(games)

    def rebuild(self, games: Iterable[FinishedGame]) -> None:
        with self._lock:
            self._games = {g.id: g for g in games}
            self._order = sorted(self._games.values(), key=lambda g: g.sort_key)
            self._players = fold(self._order)

    def add(self, game: FinishedGame) -> bool:
        """Fold a newly finished game in (once); False if it was already counted. A game
        that finished before the latest counted one (a race between tables) refolds all."""
        with self._lock:
            if game.id in self._games:
                return False
            self._games[game.id] = game
            if self._order and game.sort_key < self._order[-1].sort_key:
                self._order = sorted(self._games.values(), key=lambda g: g.sort_key)
                self._players = fold(self._order)
            else:
                self._order.append(game)
                fold_game(self._players, game)
            return True

    def finished_since(self, since: float) -> list[FinishedGame]:
        """The counted games that finished at or after `since` (host time), in order."""
        with self._lock:
            return [g for g in self._order if g.finished_at >= since]

    def __contains__(self, game_id: str) -> bool:
        with self._lock:
            return game_id in self._games

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Every player's full record (for comparing a rebuild with the live ladder)."""
        with self._lock:
            return {k: p.to_dict() for k, p in sorted(self._players.items())}

    def standings(self, *, game: str = DEFAULT_GAME, variant: str = ALL, sort: str = "rating",
                  descending: bool | None = None) -> list[dict[str, Any]]:
        """The ladder table of one game: a row per player who played `game` (`variant`, or
        all its variants), sorted, ranked."""
        if sort not in SORT_KEYS:
            raise ValueError(f"sort by one of {', '.join(SORT_KEYS)}")
        key = game if variant == ALL else rating_key(game, variant)
        with self._lock:
            rows = [p.summary(game, variant) for p in self._players.values() if key in p.stats]
        if descending is None:
            descending = sort != "name"

        def order(row):
            value = row[sort]
            if sort == "name":
                return (profile_key(value),)
            return (value is not None, value if value is not None else 0)

        rows.sort(key=lambda r: profile_key(r["name"]))
        rows.sort(key=order, reverse=descending)
        for rank, row in enumerate(rows, 1):
            row["rank"] = rank
        return rows

    def player(self, name: str) -> dict[str, Any] | None:
        with self._lock:
            p = self._players.get(profile_key(name))
            return p.to_dict() if p else None


# -- reading finished games from the host's store -----------------------------------------
