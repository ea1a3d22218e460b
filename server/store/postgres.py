"""The event store on PostgreSQL (psycopg 3), for a club's host of several processes.

`PostgresStore` implements `EventStore` (`server.store`) exactly as `SqliteStore` does, so
the host does not know which one it has, and `SharedStore` besides (heads, record versions).
Several host processes, on one machine or several, may share one database:

- **One seq, one writer.** `append` locks the game's row (`SELECT … FOR UPDATE`), checks the
  seq against the row's `last_seq`, inserts the event and moves `last_seq` on, in one
  transaction. A second process appending to the same game waits for the lock, then sees the
  new `last_seq` and gets `SeqConflict` (the host answers `stale_seq`, as to a phone). The
  primary key (game_id, seq) refuses a repeated seq even to a writer that took no lock.
- **Acknowledged is committed.** A write returns once its `COMMIT` has returned, with
  `synchronous_commit` on for each connection (the server's WAL is flushed, whatever the
  database's default says).
- **Outages.** A database that cannot be reached (down, restarting, the network) raises
  `StoreUnavailable` (the host answers 503) and changes nothing. Connections are opened on
  demand and kept idle for reuse; a connection the server dropped while idle (a restart) is
  replaced and the transaction run once more on a fresh one, which is safe because nothing of
  it was committed. If the connection breaks during `COMMIT` itself, the outcome is unknown
  to the client: the caller gets `StoreUnavailable` and was not told it was saved.
- **Schema.** Created or migrated on open (`server.store.pg_schema`), under an advisory lock
  so processes starting together do not race; the version is kept in `schema_version`. A
  database written by a newer host is refused rather than guessed at.

The process's connections are `server.store.pg_connections.Connections`.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
from psycopg import errors

from server.store.base import (
    ANALYSIS_STATUSES,
    AnalysisRecord,
    GameRecord,
    Head,
    RecordConflict,
    SeatRecord,
    SeqConflict,
    StoreError,
    StoreUnavailable,
)
from server.store.pg_connections import (
    BUSY_WAIT,
    CONNECT_TIMEOUT,
    MAX_OPEN,
    Connections,
    describe,
    first_line,
)
from server.store.pg_schema import migrate

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How far before its last mark a process asks `heads` again (marks that transactions in
#: flight took: far more than a host's processes ever have open at once).
TOUCH_LOOKBACK = 1000

#: `append`: move the game's row from seq - 1 to seq and insert the event, or do nothing.
_APPEND = """WITH moved AS (
    UPDATE games SET last_seq = %s, undo_request = NULL, touched = nextval('games_touched')
    WHERE id = %s AND last_seq = %s AND last_seq > 0 RETURNING id)
INSERT INTO events (game_id, seq, type, body, at)
    SELECT id, %s, %s, %s, %s FROM moved RETURNING seq"""


class PostgresStore:
    """`SharedStore` on a PostgreSQL database named by a libpq URL (`postgresql://…`).

    Thread-safe (and greenlet-safe under gevent, which psycopg supports): each call takes one
    of the process's `connections` and gives it back when done."""

    #: How far before its last mark a reader of `heads` asks again.
    touch_lookback = TOUCH_LOOKBACK

    def __init__(self, url: str, *, connect_timeout: float = CONNECT_TIMEOUT,
                 max_open: int = MAX_OPEN, busy_wait: float = BUSY_WAIT) -> None:
        self.url = url
        self.where = describe(url)
        self.connections = Connections(url, self.where, connect_timeout=connect_timeout,
                                       max_open=max_open, busy_wait=busy_wait)
        self._run(lambda conn: migrate(conn, self.where))

    def _run(self, body: Callable[[psycopg.Connection], T], *, transaction: bool = True,
             writes: bool = False) -> T:
        """`body(conn)` in one transaction (or, for a single read or a single statement
        that `writes`, as one statement), on a connection of its own; committed when this
        returns. A failure before COMMIT on a connection that was idle is retried once on a
        fresh one (the server may have dropped it); a statement that `writes` is never sent
        twice: its outcome is then unknown. SeqConflict and StoreError come out as they are,
        psycopg's errors as StoreUnavailable (the database is unreachable) or StoreError."""
        connections = self.connections
        for attempt in (1, 2):
            conn, reused = connections.take()
            committing = writes and not transaction
            try:
                if not transaction:
                    result = body(conn)
                else:
                    with conn.transaction():
                        result = body(conn)
                        committing = True  # leaving the block sends COMMIT
            except StoreError:
                connections.give(conn)  # rolled back; the connection is fine
                raise
            except psycopg.OperationalError as e:
                connections.discard(conn)
                connections.drop_idle()  # what broke one (a restart) broke the others too
                if reused and not committing and attempt == 1:
                    continue
                outcome = ("its outcome is unknown: it was not acknowledged" if committing
                           else "nothing was changed")
                raise StoreUnavailable(f"the game database ({self.where}) cannot be reached "
                                       f"({outcome}): {first_line(e)}") from e
            except psycopg.Error as e:
                connections.give(conn)
                raise StoreError(f"the game database refused this: {first_line(e)}") from e
            except BaseException:
                connections.discard(conn)
                raise
            connections.give(conn)
            return result
        raise AssertionError("unreachable")

    # -- writing ---------------------------------------------------------------------------
    def create_game(self, game: GameRecord, seats: list[SeatRecord],
                    first_event: dict[str, Any]) -> None:
        if first_event.get("seq") != 1:
            raise SeqConflict(first_event.get("seq", 0), 0)
        self.put_game(game, seats, [(first_event, time.time())])

    def put_game(self, game: GameRecord, seats: list[SeatRecord],
                 events: list[tuple[dict[str, Any], float]]) -> None:
        """Store a whole game at once (its record as it is, its seats, its events with the
        times they were stored): `create_game`, and `cornerclaim store copy`. StoreError if
        the id is taken."""

        def run(conn: psycopg.Connection) -> None:
            try:
                conn.execute(
                    "INSERT INTO games (id, created_at, variant, host_hash, closed, rematch_of,"
                    " rematch_id, game, last_seq) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (game.id, game.created_at, game.variant, game.host_hash, game.closed,
                     game.rematch_of, game.rematch_id, game.game,
                     max((e["seq"] for e, _ in events), default=0)))
            except errors.UniqueViolation:
                raise StoreError(f"there is already a game {game.id}") from None
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO seats VALUES (%s, %s, %s, %s, %s)",
                                [(game.id, s.seat, s.kind, s.name, s.level) for s in seats])
                cur.executemany("INSERT INTO seat_tokens VALUES (%s, %s, %s)",
                                [(game.id, s.seat, s.token_hash) for s in seats if s.token_hash])
                cur.executemany("INSERT INTO events VALUES (%s, %s, %s, %s, %s)",
                                [(game.id, e["seq"], e["type"], json.dumps(e), at)
                                 for e, at in events])

        self._run(run)

    def append(self, game_id: str, event: dict[str, Any]) -> None:
        seq = event["seq"]

        body = json.dumps(event)

        def run(conn: psycopg.Connection) -> None:
            # One statement, so one round trip and atomic on its own: the game's row moves
            # to `seq` only from `seq - 1` (a writer that got there first holds the row
            # until it commits, and then the condition fails here), and the event is
            # inserted only if it did.
            try:
                done = conn.execute(_APPEND, (seq, game_id, seq - 1, seq, event["type"],
                                              body, time.time())).fetchone()
            except errors.UniqueViolation:  # a writer that did not move the row
                raise SeqConflict(seq, seq) from None
            if done is None:
                row = conn.execute("SELECT last_seq FROM games WHERE id = %s",
                                   (game_id,)).fetchone()
                raise SeqConflict(seq, row[0] if row else 0)

        try:
            self._run(run, transaction=False, writes=True)
        except StoreUnavailable:
            # Lost on the way: the statement may have been applied. Read what is at `seq`
            # (once more if the connection was only stale): this event (stored), another
            # (a conflict), or nothing (send it again).
            found = self._query("SELECT body FROM events WHERE game_id = %s AND seq = %s",
                                (game_id, seq))
            if found and found[0][0] == body:
                return
            if found:
                raise SeqConflict(seq, seq) from None
            self._run(run, transaction=False, writes=True)

    def update_seat(self, game_id: str, seat: SeatRecord, *,
                    version: int | None = None) -> int:
        def run(conn: psycopg.Connection) -> int:
            new = _bump(conn, game_id, version)
            conn.execute("UPDATE seats SET kind = %s, name = %s, level = %s"
                         " WHERE game_id = %s AND seat = %s",
                         (seat.kind, seat.name, seat.level, game_id, seat.seat))
            conn.execute("DELETE FROM seat_tokens WHERE game_id = %s AND seat = %s",
                         (game_id, seat.seat))
            if seat.token_hash:
                conn.execute("INSERT INTO seat_tokens VALUES (%s, %s, %s)",
                             (game_id, seat.seat, seat.token_hash))
            return new

        return self._run(run)

    def set_closed(self, game_id: str, *, version: int | None = None) -> int:
        def run(conn: psycopg.Connection) -> int:
            new = _bump(conn, game_id, version)
            conn.execute("UPDATE games SET closed = true WHERE id = %s", (game_id,))
            return new

        return self._run(run)

    def link_rematch(self, old_id: str, new_id: str, *, version: int | None = None) -> int:
        def run(conn: psycopg.Connection) -> int:
            new = _bump(conn, old_id, version)
            conn.execute("UPDATE games SET rematch_id = %s WHERE id = %s", (new_id, old_id))
            return new

        return self._run(run)

    def set_undo_request(self, game_id: str, body: str | None, *, version: int,
                         seq: int) -> int:
        """Keep (or with None drop) the game's pending takeback request as JSON, if the
        game's record is still at `version` and its log at `seq`: RecordConflict otherwise.
        Returns the record's new version. An append drops the request (it was for an older
        position)."""

        def run(conn: psycopg.Connection) -> int:
            row = conn.execute("SELECT last_seq FROM games WHERE id = %s FOR UPDATE",
                               (game_id,)).fetchone()
            if row is None or row[0] != seq:
                raise RecordConflict(game_id)
            new = _bump(conn, game_id, version)
            conn.execute("UPDATE games SET undo_request = %s WHERE id = %s", (body, game_id))
            return new

        return self._run(run)

    def put_analysis(self, record: AnalysisRecord) -> None:
        def run(conn: psycopg.Connection) -> None:
            conn.execute(
                "INSERT INTO analyses VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (game_id) DO UPDATE SET status = excluded.status,"
                " total = excluded.total, plies = excluded.plies, level = excluded.level,"
                " seq = excluded.seq, error = excluded.error, updated = excluded.updated",
                (record.game_id, record.status, record.total, json.dumps(record.plies),
                 record.level, record.seq, record.error, record.updated))

        self._run(run)

    def host_id(self) -> str:
        def run(conn: psycopg.Connection) -> str:
            conn.execute("INSERT INTO host (id) VALUES (%s) ON CONFLICT (one) DO NOTHING",
                         (secrets.token_hex(8),))
            return conn.execute("SELECT id FROM host").fetchone()[0]

        return self._run(run)

    # -- reading ---------------------------------------------------------------------------
    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        return self._run(lambda conn: conn.execute(sql, args).fetchall(), transaction=False)

    def events_since(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        rows = self._query("SELECT body FROM events WHERE game_id = %s AND seq > %s"
                           " ORDER BY seq", (game_id, seq))
        return [json.loads(body) for (body,) in rows]

    def events_at(self, game_id: str) -> list[tuple[dict[str, Any], float]]:
        """Every event of the game with the time it was stored (for `store copy`)."""
        rows = self._query("SELECT body, at FROM events WHERE game_id = %s ORDER BY seq",
                           (game_id,))
        return [(json.loads(body), at) for body, at in rows]

    def finish_times(self, game_id: str | None = None) -> dict[str, float]:
        if game_id is None:
            rows = self._query("SELECT game_id, MAX(at) FROM events GROUP BY game_id")
        else:
            rows = self._query("SELECT game_id, MAX(at) FROM events WHERE game_id = %s"
                               " GROUP BY game_id", (game_id,))
        return dict(rows)

    def games(self) -> list[GameRecord]:
        rows = self._query(
            "SELECT id, created_at, variant, host_hash, closed, rematch_of, rematch_id, game"
            " FROM games ORDER BY created_at, id")
        return [GameRecord(*r) for r in rows]

    def head(self, game_id: str) -> Head | None:
        """The game's last seq and record version (one indexed row): what a process
        compares with its copy before acting on the game; None for an unknown game."""
        rows = self._query("SELECT last_seq, version FROM games WHERE id = %s", (game_id,))
        return Head(*rows[0]) if rows else None

    def heads(self, since: int = 0) -> tuple[dict[str, Head], int]:
        """The heads of the games created or changed after the mark `since` (0: every game),
        by id, and the mark to ask from next time (one query: the lobby's and the due-work
        scan's). Each append and record change takes a new mark from a sequence; one taken
        by a transaction that commits after a later one was read would be missed, so the
        caller asks from a little before its last mark (`TOUCH_LOOKBACK`)."""
        rows = self._query("SELECT id, last_seq, version, touched FROM games"
                           " WHERE touched > %s", (since,))
        return {r[0]: Head(r[1], r[2]) for r in rows}, max((r[3] for r in rows), default=since)

    def game(self, game_id: str) -> tuple[GameRecord, int, str | None] | None:
        """The game's record, its version and its pending takeback request (JSON or None)."""
        rows = self._query(
            "SELECT id, created_at, variant, host_hash, closed, rematch_of, rematch_id, game,"
            " version, undo_request FROM games WHERE id = %s", (game_id,))
        if not rows:
            return None
        row = rows[0]
        return GameRecord(*row[:8]), row[8], row[9]

    def seats(self, game_id: str) -> list[SeatRecord]:
        rows = self._query(
            "SELECT s.seat, s.kind, s.name, s.level, t.token_hash FROM seats s"
            " LEFT JOIN seat_tokens t ON t.game_id = s.game_id AND t.seat = s.seat"
            " WHERE s.game_id = %s ORDER BY s.seat", (game_id,))
        return [SeatRecord(*r) for r in rows]

    def analysis(self, game_id: str) -> AnalysisRecord | None:
        rows = self._query("SELECT game_id, status, total, plies, level, seq, error, updated"
                           " FROM analyses WHERE game_id = %s", (game_id,))
        return _analysis(rows[0]) if rows else None

    def analyses(self, statuses: tuple[str, ...] = ANALYSIS_STATUSES) -> list[AnalysisRecord]:
        rows = self._query("SELECT game_id, status, total, plies, level, seq, error, updated"
                           " FROM analyses WHERE status = ANY(%s) ORDER BY updated",
                           (list(statuses),))
        return [_analysis(r) for r in rows]

    def close(self) -> None:
        self.connections.close()


def _analysis(row: tuple) -> AnalysisRecord:
    game_id, status, total, plies, level, seq, error, updated = row
    return AnalysisRecord(game_id, status, total, json.loads(plies), level, seq, error, updated)


def _bump(conn: psycopg.Connection, game_id: str, version: int | None) -> int:
    """Move the game record's version on (the mark other processes compare); if `version`
    is given it must be the current one, else RecordConflict: another process changed the
    record first. Returns the new version."""
    bump = "UPDATE games SET version = version + 1, touched = nextval('games_touched')"
    if version is None:
        row = conn.execute(bump + " WHERE id = %s RETURNING version", (game_id,)).fetchone()
    else:
        row = conn.execute(bump + " WHERE id = %s AND version = %s RETURNING version",
                           (game_id, version)).fetchone()
    if row is None:
        raise RecordConflict(game_id)
    return row[0]
