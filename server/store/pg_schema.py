"""The schema of the PostgreSQL event store (`server.store.postgres`) and its migrations.

Created or migrated when a store opens, under an advisory lock so processes starting together
do not race; the version is kept in `schema_version`. A database written by a newer host is
refused rather than guessed at.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from server.store.base import StoreError

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger(__name__)

#: The key of the advisory lock held while the schema is created or migrated.
SCHEMA_LOCK = 0x636F726E  # "corn"

#: Each step brings the schema from version i to i + 1; a new column is a new step.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id          text PRIMARY KEY,
        created_at  double precision NOT NULL,
        variant     text NOT NULL,
        host_hash   text NOT NULL,
        closed      boolean NOT NULL DEFAULT false,
        rematch_of  text,
        rematch_id  text,
        game        text NOT NULL DEFAULT 'cornerclaim',
        last_seq    integer NOT NULL
    );
    CREATE TABLE events (
        game_id  text NOT NULL REFERENCES games (id),
        seq      integer NOT NULL CHECK (seq >= 1),
        type     text NOT NULL,
        body     text NOT NULL,
        at       double precision NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE seats (
        game_id  text NOT NULL REFERENCES games (id),
        seat     integer NOT NULL,
        kind     text NOT NULL,
        name     text,
        level    integer,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE seat_tokens (
        game_id     text NOT NULL REFERENCES games (id),
        seat        integer NOT NULL,
        token_hash  text NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    """,
    """
    CREATE TABLE host (
        one  boolean PRIMARY KEY DEFAULT true CHECK (one),
        id   text NOT NULL
    );
    """,
    """
    ALTER TABLE games ADD COLUMN version integer NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN undo_request text;
    CREATE SEQUENCE games_touched;
    ALTER TABLE games ADD COLUMN touched bigint NOT NULL DEFAULT nextval('games_touched');
    CREATE INDEX games_by_touched ON games (touched);
    """,
    """
    CREATE TABLE analyses (
        game_id  text PRIMARY KEY REFERENCES games (id),
        status   text NOT NULL,
        total    integer NOT NULL,
        plies    text NOT NULL,
        level    integer,
        seq      integer NOT NULL,
        error    text,
        updated  double precision NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: psycopg.Connection, where: str) -> None:
    """Create the schema, or bring an older one up to SCHEMA_VERSION, in the transaction of
    `conn`; one process at a time (an advisory lock held until that transaction ends).
    `where` names the database in messages."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                 " one boolean PRIMARY KEY DEFAULT true CHECK (one),"
                 " version integer NOT NULL)")
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    version = row[0] if row else 0
    if version > SCHEMA_VERSION:
        raise StoreError(f"the game database ({where}) has schema version {version}, "
                         f"written by a newer host; this one knows up to {SCHEMA_VERSION}")
    for step in MIGRATIONS[version:]:
        conn.execute(step)
    if version < SCHEMA_VERSION:
        conn.execute("INSERT INTO schema_version (version) VALUES (%s)"
                     " ON CONFLICT (one) DO UPDATE SET version = excluded.version",
                     (SCHEMA_VERSION,))
        log.info("game database %s: schema version %d -> %d", where, version,
                 SCHEMA_VERSION)
