"""What every event store is: its records, its errors, and the interface the host reaches it
through (`EventStore`, and `SharedStore` for a store several host processes share).

The host imports all of these from `server.store` (which also has `open_store`), never from a
backend's module. Two backends implement the interface: `server.store.sqlite.SqliteStore` (one
file on the host PC, the default) and `server.store.postgres.PostgresStore` (a PostgreSQL
database several host processes share, a `SharedStore`). This module imports neither.

Events are the engine's own JSON dicts (`Event.to_dict`); a store keeps them as they are and
never interprets them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from engine.core import Game

#: Seat kinds a person plays (an open seat someone claims, or a seat on the host's device).
from engine.events import Event

#: Seat kinds a person plays (an open seat someone claims, or a seat on the host's device).
HUMAN_KINDS = ("open", "local")

#: URL schemes that name a PostgreSQL database (libpq's own two).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class StoreError(Exception):
    """The store could not save (a full disk, an I/O error): nothing of the write was kept.

    `full` is True for a full disk (SQLITE_FULL), the one a host PC's owner can fix. `code` is
    the error code the host answers with (server.errors.from_store)."""

    code = "store_failed"

    def __init__(self, message: str, *, full: bool = False) -> None:
        super().__init__(message)
        self.full = full


class StoreUnavailable(StoreError):
    """The database cannot be reached (down, restarting, the network): nothing was written,
    or, if the connection broke during COMMIT, nothing was acknowledged. Transient: the
    same call works again once the database is back. The host answers 503."""

    code = "store_unavailable"


class StoreBusy(StoreUnavailable):
    """Every connection this process may open to the database stayed in use while the
    command waited: nothing was written. The host answers 503, saying the database is busy."""

    busy = True


class SeqConflict(StoreError):
    """An append whose seq is not exactly the stored last seq + 1: a gap, a repeat, or
    another host process that appended this seq first. Nothing was written; the host
    answers `stale_seq`, as to a phone that acted on an old seq."""

    code = "stale_seq"

    def __init__(self, expected: int, latest: int) -> None:
        super().__init__(f"append at seq {expected} but the log ends at {latest}")
        self.expected = expected
        self.latest = latest


class RecordConflict(StoreError):
    """A change to a game's record (a seat, closed, a takeback request) made against a version
    another host process has changed since: nothing was written; read the game again."""

    code = "stale_seq"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id}: another host process changed it first")
        self.game_id = game_id


class Head(NamedTuple):
    """Where a game stands in a shared store: its last seq and its record's version (moved on
    by every change of a seat, closed, the rematch link or a pending takeback)."""

    seq: int
    version: int


@dataclass
class SeatRecord:
    """One seat's durable facts: how it is played, by whom, and its token hash if claimed."""

    seat: int
    kind: str  # "open" | "local" | "computer"
    name: str | None = None
    level: int | None = None
    token_hash: str | None = None


@dataclass
class GameRecord:
    """A game's row: what the lobby and the service need besides the event log."""

    id: str
    created_at: float
    variant: str
    host_hash: str
    closed: bool = False
    rematch_of: str | None = None
    rematch_id: str | None = None
    game: str = "cornerclaim"  # the game's id in `engine.registry`


#: An analysis's states: waiting for the bot pool, under way, finished, given up.
ANALYSIS_STATUSES = ("queued", "running", "done", "failed")


@dataclass
class AnalysisRecord:
    """A finished game's computer review, kept beside its log (never in it): its `status`,
    the moves reviewed so far (`plies`, dicts of `engine.analysis.Ply`, in log order) out of
    `total`, the level asked for (None: the game's own analysis), the log's last seq it
    reviews, why it failed (`error`) and when it last moved on (`updated`, epoch seconds)."""

    game_id: str
    status: str
    total: int
    plies: list[dict[str, Any]]
    level: int | None = None
    seq: int = 0
    error: str | None = None
    updated: float = 0.0


class EventStore(Protocol):
    """What the host needs from durable storage: the service (games, their logs, seats and
    record), the ladder (finish times), mDNS (the host id) and `store copy` (whole games with
    their events' times). Every method is thread-safe; a write is committed (durable) when it
    returns, and any failure raises a StoreError with nothing of that write kept."""

    #: Where the store is, for messages: a SQLite file's path, or `dbname on host:port`.
    where: str

    # -- writing ---------------------------------------------------------------------------
    def create_game(self, game: GameRecord, seats: list[SeatRecord],
                    first_event: dict[str, Any]) -> None:
        """Store a new game, its seats and its `game_created` event (seq 1) together."""
        ...

    def put_game(self, game: GameRecord, seats: list[SeatRecord],
                 events: list[tuple[dict[str, Any], float]]) -> None:
        """Store a whole game at once: its record as it is, its seats, and its events with
        the times they were stored (`cornerclaim store copy`); StoreError if the id is taken."""
        ...

    def append(self, game_id: str, event: dict[str, Any]) -> None:
        """Commit `event` (with its `seq`) durably; SeqConflict unless seq == last + 1."""
        ...

    def update_seat(self, game_id: str, seat: SeatRecord) -> int | None:
        """Replace a seat's record (kind, name, level, token hash). This and the two record
        changes below return None, or on a `SharedStore` the record's new version."""
        ...

    def set_closed(self, game_id: str) -> int | None:
        """Mark the game's record closed (its log has ended with `game_closed`)."""
        ...

    def link_rematch(self, old_id: str, new_id: str) -> int | None:
        """Note on the old game's record the rematch that followed it."""
        ...

    def put_analysis(self, record: AnalysisRecord) -> None:
        """Store the game's analysis as it stands now (replacing the one stored)."""
        ...

    def host_id(self) -> str:
        """The id of the host this store belongs to: made at random when first asked and kept
        in the store, so it outlives restarts and every process sharing the store (a club's
        database) has the same one; mDNS groups a host's processes by it."""
        ...

    # -- reading ---------------------------------------------------------------------------
    def events_since(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        """The game's events after `seq`, in seq order ([] for an unknown game)."""
        ...

    def events_at(self, game_id: str) -> list[tuple[dict[str, Any], float]]:
        """Every event of the game with the time it was stored, in seq order."""
        ...

    def finish_times(self, game_id: str | None = None) -> dict[str, float]:
        """game id -> the time the game's last event was stored, for every game with events
        (or only `game_id`): a finished game's finish time, the order the ladder folds games in."""
        ...

    def games(self) -> list[GameRecord]:
        """Every game, oldest first."""
        ...

    def seats(self, game_id: str) -> list[SeatRecord]:
        """The game's seat records, by seat number."""
        ...

    def analysis(self, game_id: str) -> AnalysisRecord | None:
        """The game's analysis (None: never asked for)."""
        ...

    def analyses(self, statuses: tuple[str, ...] = ANALYSIS_STATUSES) -> list[AnalysisRecord]:
        """Every analysis in one of `statuses`, oldest change first."""
        ...

    def close(self) -> None: ...


class SharedStore(EventStore, Protocol):
    """An `EventStore` several host processes share (`PostgresStore`). Besides each game's
    last seq, its record has a version that every change of a seat, closed, the rematch link
    or the pending takeback request moves on: a process compares the heads with its copy
    before acting on a game (`GameService(shared=True)`), and changes a record only at the
    version it read."""

    #: How far before its last mark a reader of `heads` asks again (marks that transactions
    #: in flight took).
    touch_lookback: int

    def head(self, game_id: str) -> Head | None:
        """The game's last seq and record version; None for an unknown game."""
        ...

    def heads(self, since: int = 0) -> tuple[dict[str, Head], int]:
        """The heads of the games created or changed after the mark `since` (0: every game),
        by id, and the mark to ask from next time."""
        ...

    def game(self, game_id: str) -> tuple[GameRecord, int, str | None] | None:
        """The game's record, its version and its pending takeback request (JSON or None)."""
        ...

    def update_seat(self, game_id: str, seat: SeatRecord, *,
                    version: int | None = None) -> int:
        """As `EventStore.update_seat`; with `version`, only if the record is still at it
        (RecordConflict otherwise). Returns the record's new version; so do `set_closed` and
        `link_rematch`."""
        ...

    def set_closed(self, game_id: str, *, version: int | None = None) -> int: ...

    def link_rematch(self, old_id: str, new_id: str, *, version: int | None = None) -> int: ...

    def set_undo_request(self, game_id: str, body: str | None, *, version: int,
                         seq: int) -> int:
        """Keep (or with None drop) the game's pending takeback request, if its record is
        still at `version` and its log at `seq` (RecordConflict otherwise); an append drops
        it. Returns the record's new version."""
        ...


def is_database_url(where: str | Path | None) -> bool:
    """Whether `where` names a PostgreSQL database rather than a SQLite file or folder."""
    return isinstance(where, str) and where.startswith(POSTGRES_SCHEMES)


def load_game(store: EventStore, game_id: str) -> Game:
    """A stored game folded from its events by its game's rules (the game its log's
    `game_created` names); LogError if the log does not fold, or there is none."""
    return Game.from_events(Event.from_dict(e) for e in store.events_since(game_id, 0))
