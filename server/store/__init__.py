"""Durable storage: the event store, reached through the interface this package exports.

The host imports from here, never from a backend's module: the interface (`EventStore`, and
`SharedStore` for a store several host processes share), its records and errors (defined in
`server.store.base`), `load_game`, and `open_store`, which opens the backend a place names:
`server.store.sqlite.SqliteStore` (a SQLite file or data folder, the default) or
`server.store.postgres.PostgresStore` (a `postgresql://` URL, a club's database). The backends
import `server.store.base`, never this package, so the imports run one way.
"""

from __future__ import annotations

from pathlib import Path

from server.store.base import (
    ANALYSIS_STATUSES,
    HUMAN_KINDS,
    AnalysisRecord,
    EventStore,
    GameRecord,
    Head,
    RecordConflict,
    SeatRecord,
    SeqConflict,
    SharedStore,
    StoreBusy,
    StoreError,
    StoreUnavailable,
    is_database_url,
    load_game,
)

__all__ = [
    "ANALYSIS_STATUSES", "AnalysisRecord", "HUMAN_KINDS", "EventStore", "GameRecord", "Head",
    "RecordConflict", "SeatRecord",
    "SeqConflict", "SharedStore", "StoreBusy", "StoreError", "StoreUnavailable",
    "is_database_url", "load_game", "open_store",
]


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
