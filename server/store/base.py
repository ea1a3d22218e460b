"""What every event store is: the `EventStore` interface, its records and its errors.

The service layer reaches durable storage only through `EventStore` (create a game, append an
event at an expected seq, read events since a seq, list games, seat records). Two backends
implement it: `server.store.sqlite.SqliteStore` (one file on the host PC, the default) and
`server.store.postgres.PostgresStore` (a PostgreSQL database several host processes share).
`open_store` picks one by the place it is given: a `postgresql://` URL or a SQLite path.

Events are the engine's own JSON dicts (`Event.to_dict`); a store keeps them as they are and
never interprets them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from engine.core import Event, Game

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


class EventStore(Protocol):
    """What the service layer needs from durable storage. Every method is thread-safe; a
    write is committed (durable) when it returns, and any failure raises a StoreError with
    nothing of that write kept."""

    def create_game(self, game: GameRecord, seats: list[SeatRecord],
                    first_event: dict[str, Any]) -> None:
        """Store a new game, its seats and its `game_created` event (seq 1) together."""
        ...

    def append(self, game_id: str, event: dict[str, Any]) -> None:
        """Commit `event` (with its `seq`) durably; SeqConflict unless seq == last + 1."""
        ...

    def events_since(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        """The game's events after `seq`, in seq order ([] for an unknown game)."""
        ...

    def games(self) -> list[GameRecord]:
        """Every game, oldest first."""
        ...

    def seats(self, game_id: str) -> list[SeatRecord]: ...

    def update_seat(self, game_id: str, seat: SeatRecord) -> None: ...

    def set_closed(self, game_id: str) -> None: ...

    def link_rematch(self, old_id: str, new_id: str) -> None: ...

    def host_id(self) -> str:
        """The id of the host this store belongs to: made at random when first asked and kept
        in the store, so it outlives restarts and every process sharing the store (a club's
        database) has the same one; mDNS groups a host's processes by it."""
        ...

    def close(self) -> None: ...


def is_database_url(where: str | Path | None) -> bool:
    """Whether `where` names a PostgreSQL database rather than a SQLite file or folder."""
    return isinstance(where, str) and where.startswith(POSTGRES_SCHEMES)


def open_store(where: str | Path) -> EventStore:
    """The store at `where`: a `postgresql://` URL (PostgresStore; needs the `club` extra), or
    a SQLite file or data folder (SqliteStore). The schema is created or migrated on open."""
    if is_database_url(where):
        try:
            from server.store.postgres import PostgresStore
        except ModuleNotFoundError as e:
            if e.name != "psycopg":
                raise
            raise StoreError("a PostgreSQL store needs psycopg: install the club extra "
                             "(pip install 'cornerclaim[club]')") from None
        return PostgresStore(str(where))
    from server.store.sqlite import SqliteStore

    return SqliteStore(where)


def load_game(store: EventStore, game_id: str) -> Game:
    """A stored game folded from its events by its game's rules (the game its log's
    `game_created` names); LogError if the log does not fold, or there is none."""
    return Game.from_events(Event.from_dict(e) for e in store.events_since(game_id, 0))
