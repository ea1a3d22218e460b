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
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from engine import registry
from engine.core import Game, GameCreated
from engine.errors import EngineError
from engine.rules import computer_name
from server.store import HUMAN_KINDS, EventStore, load_game

START_RATING = 1500.0
#: Elo's K: how far one game moves a rating. 32 is the common club value: a new player finds
#: their level within about 15–20 games on a LAN-party host where few games are played.
K_FACTOR = 32.0
#: Fixed ratings of computer levels, per game: Corner Claim's set from their strength against
#: each other (each level beats the one below it about three games in four, ~200 points).
LEVEL_RATINGS: dict[str, dict[int, float]] = {
    "cornerclaim": {1: 800.0, 2: 1000.0, 3: 1250.0, 4: 1450.0, 5: 1650.0, 6: 1850.0},
}
#: A level of a game not in LEVEL_RATINGS whose LevelSpec names no rating:
#: DEFAULT_LEVEL_RATING + LEVEL_STEP × (level − 1).
DEFAULT_LEVEL_RATING = 1000.0
LEVEL_STEP = 200.0
ALL = "all"
RECENT = 20
DEFAULT_GAME = "cornerclaim"


def profile_key(name: str) -> str:
    """The profile a display name belongs to: case and surrounding blanks do not matter."""
    return " ".join(name.split()).casefold()


def rating_key(game: str, variant: str) -> str:
    """The key of the rating a game's variant moves: "cornerclaim/duo"."""
    return f"{game}/{variant}"


def _levels(game: str) -> dict[int, Any]:
    try:
        return dict(registry.get(game).levels)
    except EngineError:
        return {}


def level_rating(game: str, level: int | None) -> float | None:
    """The fixed rating of `game`'s computer level (None: no such level)."""
    if level is None:
        return None
    table = LEVEL_RATINGS.get(game)
    if table is not None:
        return table.get(level)
    spec = _levels(game).get(level)
    if spec is None:
        return None
    rating = getattr(spec, "rating", None)
    return float(rating) if rating is not None else DEFAULT_LEVEL_RATING + LEVEL_STEP * (level - 1)


def level_ratings(game: str) -> dict[int, float]:
    """Every level of `game` and its fixed rating."""
    if game in LEVEL_RATINGS:
        return dict(LEVEL_RATINGS[game])
    return {n: r for n in sorted(_levels(game)) if (r := level_rating(game, n)) is not None}


def rated_variants(game: str) -> list[str]:
    """The variants of `game` that move ratings: rated, for two seats."""
    try:
        rules = registry.get(game)
    except EngineError:
        return []
    return [v.name for v in rules.variants.values() if v.rated and 2 in v.seats]


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
    stats: dict[str, int | float | bool] = field(default_factory=dict)

    @property
    def human(self) -> bool:
        """A person's seat: a human kind, or a player who left a game the computer played
        on for them (the seat record turned "computer" keeps their name)."""
        return self.kind in HUMAN_KINDS or (self.left and bool(self.name))

    @property
    def profile(self) -> str | None:
        return profile_key(self.name) if self.name and self.human else None


@dataclass(frozen=True)
class FinishedGame:
    """What the ladder needs of one finished game; `finished_at` orders the fold. `rated`:
    its variant moves ratings (rated by its game, two seats)."""

    id: str
    finished_at: float
    game: str
    variant: str
    seats: tuple[SeatResult, ...]
    rated: bool = False

    @property
    def sort_key(self) -> tuple[float, str]:
        return (self.finished_at, self.id)

    @property
    def rating_key(self) -> str:
        return rating_key(self.game, self.variant)


def summarise(game_id: str, finished_at: float, game: Game, seats: Iterable[Any]
              ) -> FinishedGame | None:
    """A finished game's summary from its folded log and its seat records (objects with
    `seat`, `kind`, `name`, `level`, like `server.store.SeatRecord`); None while it runs."""
    rules = game.rules
    state = game.state
    if game.closed is not None or not rules.is_over(state):
        return None
    created = game.events[0]
    assert isinstance(created, GameCreated)
    outcome = rules.outcome(state)
    given = rules.ladder(state)
    view = rules.public_view(state)
    left = rules.left(state)
    records = {r.seat: r for r in seats}
    out = []
    for c, seat_view in enumerate(view.seats):
        s = c + 1
        r = records.get(s)
        name = (r.name or "").strip() if r else ""
        out.append(SeatResult(
            seat=s, colour=seat_view.colour, kind=r.kind if r else "open",
            name=name or None, level=r.level if r else None,
            score=outcome.scores[c], result=outcome.results[c], points=given[c].points,
            left=s in left, stats=dict(given[c].stats)))
    spec = rules.variants.get(created.variant)
    rated = bool(spec is not None and spec.rated and len(out) == 2)
    return FinishedGame(game_id, finished_at, created.game, created.variant, tuple(out), rated)


# -- the fold ---------------------------------------------------------------------------------


@dataclass
class Stats:
    """A player's record in one game (or one variant of it, or every game together).

    The game's own statistics are summed per key: a yes/no statistic counts the games it
    held in (`all_placed`); a number is summed and averaged per game (`squares_left`,
    `average_squares_left`)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    score_total: int = 0
    best_score: int | None = None
    totals: dict[str, float] = field(default_factory=dict)
    counted: set[str] = field(default_factory=set)  # keys whose values are yes/no

    def add(self, r: SeatResult) -> None:
        self.games += 1
        self.wins += r.result == "win"
        self.draws += r.result == "draw"
        self.losses += r.result == "loss"
        self.points += r.points
        self.score_total += r.score
        self.best_score = r.score if self.best_score is None else max(self.best_score, r.score)
        for key, value in r.stats.items():
            if isinstance(value, bool):
                self.counted.add(key)
            self.totals[key] = self.totals.get(key, 0) + value

    def game_stats(self) -> dict[str, int | float | None]:
        n = self.games
        out: dict[str, int | float | None] = {}
        for key in sorted(self.totals):
            total = self.totals[key]
            out[key] = int(total) if key in self.counted or float(total).is_integer() else total
            if key not in self.counted:
                out[f"average_{key}"] = round(total / n, 2) if n else None
        return out

    def results(self) -> dict[str, int]:
        return {"games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "points": self.points}

    def to_dict(self) -> dict[str, Any]:
        n = self.games
        return {
            **self.results(),
            "average_score": round(self.score_total / n, 2) if n else None,
            "best_score": self.best_score, "stats": self.game_stats(),
        }


@dataclass
class Rating:
    """A profile's rating in one rated variant of one game."""

    rating: float = START_RATING
    peak: float = START_RATING
    rated_games: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"rating": round(self.rating), "rating_exact": self.rating,
                "peak_rating": round(self.peak), "rated_games": self.rated_games}


@dataclass
class Player:
    """A profile's standing: ratings by game/variant, stats by game and variant, rating
    history, games."""

    key: str
    name: str
    totals: Stats = field(default_factory=Stats)  # every game together
    #: "cornerclaim" (the game, every variant) and "cornerclaim/duo" (one variant) -> Stats
    stats: dict[str, Stats] = field(default_factory=dict)
    ratings: dict[str, Rating] = field(default_factory=dict)  # rating key -> Rating
    history: list[dict[str, Any]] = field(default_factory=list)  # one per rated game
    #: The newest RECENT game lines, newest last (all the API shows; the stats above count
    #: every game, so a long party's ladder does not grow with each game played).
    games: deque[GameLine] = field(default_factory=lambda: deque(maxlen=RECENT))

    def stats_for(self, key: str) -> Stats:
        return self.stats.setdefault(key, Stats())

    def rating_for(self, key: str) -> Rating:
        return self.ratings.setdefault(key, Rating())

    def main_rating(self, game: str, variant: str = ALL) -> tuple[str | None, Rating | None]:
        """The rating a ladder row of `game` (one variant, or all) shows: that variant's if
        it is rated, else the game's first rated variant's. (None, None): the game has none."""
        variants = rated_variants(game)
        if variant != ALL and variant in variants:
            key = rating_key(game, variant)
        elif variants:
            key = rating_key(game, variants[0])
        else:
            return None, None
        return key, self.ratings.get(key) or Rating()

    def summary(self, game: str, variant: str = ALL) -> dict[str, Any]:
        """A ladder row: name, the rating, and the stats of `game` (one variant, or all)."""
        key = game if variant == ALL else rating_key(game, variant)
        stats = self.stats.get(key) or Stats()
        rkey, rating = self.main_rating(game, variant)
        return {"name": self.name, "rating_key": rkey,
                "rating": round(rating.rating) if rating else None,
                "rating_exact": rating.rating if rating else None,
                "peak_rating": round(rating.peak) if rating else None,
                "rated_games": rating.rated_games if rating else 0, **stats.to_dict()}

    def section(self, game: str) -> dict[str, Any]:
        """Everything the player did in one game: its stats overall and by variant, the
        ratings of its rated variants, their history."""
        prefix = f"{game}/"
        try:
            title = registry.get(game).title
        except EngineError:
            title = game
        return {
            "game": game, "title": title, **self.summary(game),
            "by_variant": {k[len(prefix):]: s.to_dict() for k, s in sorted(self.stats.items())
                           if k.startswith(prefix)},
            "ratings": {k[len(prefix):]: r.to_dict() for k, r in sorted(self.ratings.items())
                        if k.startswith(prefix)},
            "rating_history": [h for h in self.history if h["game"] == game],
        }

    def played(self) -> list[str]:
        return sorted(k for k in self.stats if "/" not in k)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "totals": self.totals.results(),
            "games": {g: self.section(g) for g in self.played()},
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
        p.totals.add(r)
        p.stats_for(game.game).add(r)
        p.stats_for(game.rating_key).add(r)
    changes = _rating_changes(players, game)
    for r in game.seats:
        if r.profile is None:
            continue
        p = players[r.profile]
        change = changes.get(r.seat)
        if change is not None:
            before, after, opponent = change
            rating = p.rating_for(game.rating_key)
            rating.rating = after
            rating.peak = max(rating.peak, after)
            rating.rated_games += 1
            p.history.append({"game_id": game.id, "at": game.finished_at, "game": game.game,
                              "variant": game.variant, "before": round(before, 1),
                              "after": round(after, 1), "opponent": opponent,
                              "result": r.result})
        p.games.append(_game_line(game, r, change))


def _rating_changes(players: dict[str, Player], game: FinishedGame
                    ) -> dict[int, tuple[float, float, str]]:
    """seat -> (rating before, after, opponent) for the seats this game rates."""
    if not game.rated or len(game.seats) != 2:
        return {}
    key = game.rating_key
    a, b = game.seats
    if a.profile is not None and b.profile is not None:
        if a.profile == b.profile:
            return {}
        ra = players[a.profile].rating_for(key).rating
        rb = players[b.profile].rating_for(key).rating
        return {a.seat: (ra, _elo(ra, rb, a.result), b.name or ""),
                b.seat: (rb, _elo(rb, ra, b.result), a.name or "")}
    out = {}
    for me, other in ((a, b), (b, a)):
        if me.profile is None or other.kind != "computer":
            continue
        fixed = level_rating(game.game, other.level)
        if fixed is not None:
            r = players[me.profile].rating_for(key).rating
            out[me.seat] = (r, _elo(r, fixed, me.result), computer_name(other.level))
    return out


def _elo(rating: float, other: float, result: str) -> float:
    return rating + K_FACTOR * (RESULT_VALUE[result] - expected(rating, other))


class GameLine(NamedTuple):
    """One game in a player's recent games (a tuple: a party's ladder holds thousands)."""

    game_id: str
    at: float
    game: str
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
    return GameLine(game.id, game.finished_at, game.game, game.variant, r.seat, r.colour,
                    r.score, r.result, r.points, r.left,
                    round(change[1] - change[0], 1) if change else None,
                    tuple(seat_label(o) for o in game.seats if o.seat != r.seat))


def seat_label(r: SeatResult) -> str:
    if not r.human:
        return computer_name(r.level)
    return r.name or r.colour.capitalize()  # a guest: its colour


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


def finish_time(store: EventStore, game_id: str, default: float) -> float:
    """When the game finished: the time the store stored its last event (`default` if it
    holds none). Every store keeps each event's time; the ladder reads it only through the
    store's interface (`EventStore.finish_times`)."""
    return store.finish_times(game_id).get(game_id, default)


def games_from_store(store: EventStore) -> list[FinishedGame]:
    """Every finished game in an `EventStore`, each log folded afresh by its game's rules
    (the game named by the log's `game_created`)."""
    times = store.finish_times()
    out = []
    for record in store.games():
        try:
            game = load_game(store, record.id)
        except EngineError:
            continue  # the service skips such a game too (and logs it)
        summary = summarise(record.id, times.get(record.id, record.created_at), game,
                            store.seats(record.id))
        if summary is not None:
            out.append(summary)
    return out


def games_from_tables(tables, store: EventStore) -> list[FinishedGame]:
    """Every finished game among the service's live tables (already folded at start-up),
    each at the finish time its store holds."""
    times = store.finish_times()
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
