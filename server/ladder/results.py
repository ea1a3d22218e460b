"""What the ladder reads of one finished game: each seat's result, profile and match points
(`summarise`, through the game's rules), the rating a computer level plays at, and reading
every finished game from the host's store or its live tables, each at its finish time."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from engine import registry
from engine.catalog import LevelSpec
from engine.core import Game
from engine.errors import EngineError
from engine.events import GameCreated
from engine.rules import is_practice, ladder_seats
from server.store import HUMAN_KINDS, EventStore, load_game

#: The fixed rating of a computer level is its game's (the catalog's `LevelSpec.rating`); a
#: level whose LevelSpec names none plays at DEFAULT_LEVEL_RATING + LEVEL_STEP × (level − 1).
DEFAULT_LEVEL_RATING = 1000.0
LEVEL_STEP = 200.0


def profile_key(name: str) -> str:
    """The profile a display name belongs to: case and surrounding blanks do not matter."""
    return " ".join(name.split()).casefold()


def rating_key(game: str, variant: str) -> str:
    """The key of the rating a game's variant moves: "cornerclaim/duo"."""
    return f"{game}/{variant}"


def _levels(game: str) -> dict[int, LevelSpec]:
    try:
        return dict(registry.get(game).levels)
    except EngineError:
        return {}


def level_rating(game: str, level: int | None) -> float | None:
    """The fixed rating of `game`'s computer level (None: no such level)."""
    if level is None:
        return None
    spec = _levels(game).get(level)
    if spec is None:
        return None
    if spec.rating is not None:
        return float(spec.rating)
    return DEFAULT_LEVEL_RATING + LEVEL_STEP * (level - 1)


def level_ratings(game: str) -> dict[int, float]:
    """Every level of `game` and its fixed rating."""
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
    if game.closed is not None or not rules.is_over(state) or is_practice(rules, state):
        return None  # a practice game never reaches the ladder
    created = game.events[0]
    assert isinstance(created, GameCreated)
    outcome = rules.outcome(state)
    given = ladder_seats(rules, state)
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
