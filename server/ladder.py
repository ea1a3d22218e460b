"""The ladder: match points, Elo ratings and per-player stats, folded from finished games.

A projection, never a source of truth: every number here is folded from the finished games'
event logs (scores and results from `RULES.outcome`) plus their seat records (who sat where),
in the order the games finished, and the whole thing is rebuilt at start-up. A game that
finishes while the host runs is folded in the same way, so the live ladder always equals a
rebuild from the logs (tests/test_ladder.py checks exactly that).

Who is who (docs/ladder.md):
- A **profile** is a name. A human seat (an open seat someone claimed, or a seat on the
  host's device) belongs to the profile of its display name, compared without case and
  surrounding blanks ("Ann" and " ann " are one player; the latest spelling is shown).
  A seat nobody named or claimed belongs to no profile.
- A computer seat is its level, with the fixed rating `LEVEL_RATINGS[level]`; levels are
  opponents, not ladder entries, and their ratings never move.

What counts:
- A game counts once the engine says it is over (nobody can place, or a duo resignation).
  A game the host closed before its end counts for nothing: its standing is not a result.
- Every seated profile gets its match points (win 22, draw 8, loss 3; leavers lose) and
  stats, in the game's variant and overall.
- Only two-seat games move ratings (Elo, start `START_RATING`, `K_FACTOR`): two profiles
  rate against each other; a profile against a computer moves against the level's fixed
  rating; a profile playing itself, or anyone against an unnamed seat, moves nothing.
  Three- and four-seat games leave ratings alone.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from engine.core import Event, Game
from engine.cornerclaim import RULES, State
from engine.cornerclaim.pieces import PIECES, SINGLE
from engine.errors import EngineError

START_RATING = 1500.0
#: Elo's K: how far one game moves a rating. 32 is the common club value: a new player finds
#: their level within about 15–20 games on a LAN-party host where few games are played.
K_FACTOR = 32.0
#: Fixed ratings of the computer levels (the ai LEVELS), set from their strength against
#: each other: each level beats the one below it about three games in four (~200 points).
LEVEL_RATINGS: dict[int, float] = {1: 800.0, 2: 1000.0, 3: 1250.0, 4: 1450.0, 5: 1650.0,
                                   6: 1850.0}
HUMAN_KINDS = ("open", "local")
ALL = "all"
RECENT = 20


def profile_key(name: str) -> str:
    """The profile a display name belongs to: case and surrounding blanks do not matter."""
    return " ".join(name.split()).casefold()


# -- one finished game, summarised ------------------------------------------------------------


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game: who sat there and how it ended for them."""

    seat: int
    colour: str
    kind: str  # "open" | "local" | "computer"
    name: str | None  # the profile's display name (None: no profile)
    level: int | None
    score: int
    result: str  # "win" | "draw" | "loss"
    points: int
    left: bool
    all_placed: bool
    single_last: bool
    squares_left: int

    @property
    def profile(self) -> str | None:
        return profile_key(self.name) if self.name and self.kind in HUMAN_KINDS else None


@dataclass(frozen=True)
class FinishedGame:
    """What the ladder needs of one finished game; `finished_at` orders the fold."""

    id: str
    finished_at: float
    variant: str
    seats: tuple[SeatResult, ...]

    @property
    def sort_key(self) -> tuple[float, str]:
        return (self.finished_at, self.id)


def summarise(game_id: str, finished_at: float, game: Game, seats: Iterable[Any]
              ) -> FinishedGame | None:
    """A finished game's summary from its folded log and its seat records (objects with
    `seat`, `kind`, `name`, `level`, like `server.store.SeatRecord`); None while it runs."""
    state: State = game.state
    if not state.is_over:
        return None
    outcome = RULES.outcome(state)
    records = {r.seat: r for r in seats}
    pos = state.position
    out = []
    for s in state.seats:
        r = records.get(s)
        kind = r.kind if r else "open"
        name = (r.name or "").strip() if r else ""
        c = s - 1
        out.append(SeatResult(
            seat=s, colour=state.variant.colours[c], kind=kind,
            name=name or None, level=r.level if r else None,
            score=outcome.scores[c], result=outcome.results[c], points=outcome.points[c],
            left=s in state.left, all_placed=pos.all_placed(c),
            single_last=pos.all_placed(c) and pos.last_piece[c] == SINGLE,
            squares_left=sum(PIECES[i].size for i in pos.pieces_left(c))))
    return FinishedGame(game_id, finished_at, state.variant.name, tuple(out))


# -- the fold ---------------------------------------------------------------------------------


@dataclass
class Stats:
    """A player's record in one variant (or all of them)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    score_total: int = 0
    best_score: int | None = None
    all_placed: int = 0
    single_last: int = 0
    squares_left_total: int = 0

    def add(self, r: SeatResult) -> None:
        self.games += 1
        self.wins += r.result == "win"
        self.draws += r.result == "draw"
        self.losses += r.result == "loss"
        self.points += r.points
        self.score_total += r.score
        self.best_score = r.score if self.best_score is None else max(self.best_score, r.score)
        self.all_placed += r.all_placed
        self.single_last += r.single_last
        self.squares_left_total += r.squares_left

    def to_dict(self) -> dict[str, Any]:
        n = self.games
        return {
            "games": n, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "points": self.points,
            "average_score": round(self.score_total / n, 2) if n else None,
            "best_score": self.best_score, "all_placed": self.all_placed,
            "single_last": self.single_last,
            "average_squares_left": round(self.squares_left_total / n, 2) if n else None,
        }


@dataclass
class Player:
    """A profile's standing: rating, stats by variant, rating history, games."""

    key: str
    name: str
    rating: float = START_RATING
    peak: float = START_RATING
    rated_games: int = 0
    stats: dict[str, Stats] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)  # one per rated game
    #: The newest RECENT game lines, newest last (all the API shows; the stats above count
    #: every game, so a long party's ladder does not grow with each game played).
    games: deque[GameLine] = field(default_factory=lambda: deque(maxlen=RECENT))

    def stats_for(self, variant: str) -> Stats:
        return self.stats.setdefault(variant, Stats())

    def summary(self, variant: str = ALL) -> dict[str, Any]:
        stats = self.stats.get(variant) or Stats()
        return {"name": self.name, "rating": round(self.rating), "peak_rating": round(self.peak),
                "rated_games": self.rated_games, **stats.to_dict()}

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.summary(),
            "rating_exact": self.rating,
            "by_variant": {v: s.to_dict() for v, s in sorted(self.stats.items()) if v != ALL},
            "rating_history": list(self.history),
            "recent_games": [line.to_dict() for line in reversed(self.games)],
        }


def expected(rating: float, other: float) -> float:
    """Elo's expected score of `rating` against `other` (0 to 1)."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


RESULT_VALUE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def fold_game(players: dict[str, Player], game: FinishedGame) -> None:
    """Fold one finished game into `players` (in place): points, stats, then ratings."""
    for r in game.seats:
        key = r.profile
        if key is None:
            continue
        p = players.get(key)
        if p is None:
            p = players[key] = Player(key, r.name or key)
        p.name = r.name or p.name
        p.stats_for(game.variant).add(r)
        p.stats_for(ALL).add(r)
    changes = _rating_changes(players, game)
    for r in game.seats:
        if r.profile is None:
            continue
        p = players[r.profile]
        change = changes.get(r.seat)
        if change is not None:
            before, after, opponent = change
            p.rating = after
            p.peak = max(p.peak, after)
            p.rated_games += 1
            p.history.append({"game_id": game.id, "at": game.finished_at,
                              "before": round(before, 1), "after": round(after, 1),
                              "opponent": opponent, "result": r.result})
        p.games.append(_game_line(game, r, change))


def _rating_changes(players: dict[str, Player], game: FinishedGame
                    ) -> dict[int, tuple[float, float, str]]:
    """seat -> (rating before, after, opponent) for the seats this game rates."""
    if len(game.seats) != 2:
        return {}
    a, b = game.seats
    if a.profile is not None and b.profile is not None:
        if a.profile == b.profile:
            return {}
        ra, rb = players[a.profile].rating, players[b.profile].rating
        return {a.seat: (ra, _elo(ra, rb, a.result), b.name or ""),
                b.seat: (rb, _elo(rb, ra, b.result), a.name or "")}
    out = {}
    for me, other in ((a, b), (b, a)):
        if me.profile is not None and other.kind == "computer" and other.level in LEVEL_RATINGS:
            r = players[me.profile].rating
            level = other.level
            out[me.seat] = (r, _elo(r, LEVEL_RATINGS[level], me.result), f"Computer L{level}")
    return out


def _elo(rating: float, other: float, result: str) -> float:
    return rating + K_FACTOR * (RESULT_VALUE[result] - expected(rating, other))


class GameLine(NamedTuple):
    """One game in a player's recent games (a tuple: a party's ladder holds thousands)."""

    game_id: str
    at: float
    variant: str
    seat: int
    colour: str
    score: int
    result: str
    points: int
    left: bool
    rating_change: float | None
    opponents: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        out = self._asdict()
        out["opponents"] = list(self.opponents)
        return out


def _game_line(game: FinishedGame, r: SeatResult, change) -> GameLine:
    return GameLine(game.id, game.finished_at, game.variant, r.seat, r.colour, r.score,
                    r.result, r.points, r.left,
                    round(change[1] - change[0], 1) if change else None,
                    tuple(seat_label(o) for o in game.seats if o.seat != r.seat))


def seat_label(r: SeatResult) -> str:
    if r.kind == "computer":
        return f"Computer L{r.level}"
    return r.name or f"Seat {r.seat}"


def fold(games: Iterable[FinishedGame]) -> dict[str, Player]:
    """The whole ladder from finished games, in the order they finished."""
    players: dict[str, Player] = {}
    for game in sorted(games, key=lambda g: g.sort_key):
        fold_game(players, game)
    return players


# -- the live projection ----------------------------------------------------------------------

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

    def __contains__(self, game_id: str) -> bool:
        with self._lock:
            return game_id in self._games

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Every player's full record (for comparing a rebuild with the live ladder)."""
        with self._lock:
            return {k: p.to_dict() for k, p in sorted(self._players.items())}

    def standings(self, *, sort: str = "rating", variant: str = ALL,
                  descending: bool | None = None) -> list[dict[str, Any]]:
        """The ladder table: one summary per player who played `variant`, sorted, ranked."""
        if sort not in SORT_KEYS:
            raise ValueError(f"sort by one of {', '.join(SORT_KEYS)}")
        with self._lock:
            rows = [p.summary(variant) for p in self._players.values()
                    if variant in p.stats]
        if descending is None:
            descending = sort != "name"

        def key(row):
            value = row[sort]
            if sort == "name":
                return (profile_key(value),)
            return (value is not None, value if value is not None else 0)

        rows.sort(key=lambda r: profile_key(r["name"]))
        rows.sort(key=key, reverse=descending)
        for rank, row in enumerate(rows, 1):
            row["rank"] = rank
        return rows

    def player(self, name: str) -> dict[str, Any] | None:
        with self._lock:
            p = self._players.get(profile_key(name))
            return p.to_dict() if p else None


# -- reading finished games from the host's store -----------------------------------------


def finish_times(db_path: str | Path | None) -> dict[str, float]:
    """game id -> commit time of its last event, read-only from the SQLite store file.

    The store keeps each event's commit time (`events.at`) but its interface does not read
    it; this is the one place that does, through its own read-only connection."""
    if db_path is None or not Path(db_path).is_file():
        return {}
    db = sqlite3.connect(f"file:{Path(db_path).as_posix()}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT game_id, MAX(at) FROM events GROUP BY game_id").fetchall()
    finally:
        db.close()
    return {gid: at for gid, at in rows}


def finish_time(db_path: str | Path | None, game_id: str, default: float) -> float:
    if db_path is None or not Path(db_path).is_file():
        return default
    db = sqlite3.connect(f"file:{Path(db_path).as_posix()}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT MAX(at) FROM events WHERE game_id = ?", (game_id,)).fetchone()
    finally:
        db.close()
    return row[0] if row and row[0] is not None else default


def games_from_store(store) -> list[FinishedGame]:
    """Every finished game in an `EventStore`, each log folded afresh by the engine."""
    times = finish_times(getattr(store, "path", None))
    out = []
    for record in store.games():
        events = [Event.from_dict(e) for e in store.events_since(record.id, 0)]
        try:
            game = Game.from_events(events)
        except EngineError:
            continue  # the service skips such a game too (and logs it)
        summary = summarise(record.id, times.get(record.id, record.created_at), game,
                            store.seats(record.id))
        if summary is not None:
            out.append(summary)
    return out


def games_from_tables(tables, db_path: str | Path | None) -> list[FinishedGame]:
    """Every finished game among the service's live tables (already folded at start-up)."""
    times = finish_times(db_path)
    out = []
    for table in tables:
        with table.lock:
            summary = summarise(table.id, times.get(table.id, table.record.created_at),
                                table.game, list(table.seats))
        if summary is not None:
            out.append(summary)
    return out


def with_finish_time(game: FinishedGame, at: float) -> FinishedGame:
    return replace(game, finished_at=at)
