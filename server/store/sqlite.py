"""The durable event store: every game's log, seats and credentials, on stdlib sqlite3.

Why SQLite: one file in the data dir, no server to install on a home PC, and with WAL plus
`synchronous=FULL` a committed transaction survives a power cut — so a move the host has
acknowledged is on disk. `SqliteStore` implements `EventStore` (`server.store`), the
interface the host reaches storage through (append with an expected seq, read since a seq,
list games, seat records, finish times); `server.store.postgres.PostgresStore` is the other
implementation.

Events are stored as the engine's own JSON dicts (`Event.to_dict`) and read back with
`Event.from_dict`; the store never interprets them. The primary key (game_id, seq) and the
expected-seq check inside one IMMEDIATE transaction make gaps and double appends impossible.
Token *hashes* only are stored, never tokens.
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from server.store.base import (
    ANALYSIS_STATUSES,
    AnalysisRecord,
    GameRecord,
    SeatRecord,
    SeqConflict,
    StoreError,
)

log = logging.getLogger(__name__)

#: A commit slower than this is the disk's doing (a lone commit is ~0.5 ms on an idle SSD):
#: it is counted, and logged at most once per SLOW_LOG_EVERY seconds, so a host's operator
#: learns why the phones waited.
SLOW_COMMIT_S = 0.05
SLOW_LOG_EVERY = 10.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    created_at  REAL NOT NULL,
    variant     TEXT NOT NULL,
    host_hash   TEXT NOT NULL,
    closed      INTEGER NOT NULL DEFAULT 0,
    rematch_of  TEXT,
    rematch_id  TEXT,
    game        TEXT NOT NULL DEFAULT 'cornerclaim'
);
CREATE TABLE IF NOT EXISTS events (
    game_id  TEXT NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,
    type     TEXT NOT NULL,
    body     TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats (
    game_id     TEXT NOT NULL REFERENCES games(id),
    seat        INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    name        TEXT,
    level       INTEGER,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seat_tokens (
    game_id     TEXT NOT NULL REFERENCES games(id),
    seat        INTEGER NOT NULL,
    token_hash  TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS analyses (
    game_id  TEXT PRIMARY KEY REFERENCES games(id),
    status   TEXT NOT NULL,
    total    INTEGER NOT NULL,
    plies    TEXT NOT NULL,
    level    INTEGER,
    seq      INTEGER NOT NULL,
    error    TEXT,
    updated  REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS host (
    one  INTEGER PRIMARY KEY CHECK (one = 1),
    id   TEXT NOT NULL
);
"""


def _first_schema(db: sqlite3.Connection) -> None:
    """Version 1: every table of `SCHEMA`. A file from before versions were kept has some of
    them already (made again by IF NOT EXISTS), and its games table may want `game` (every
    game before it was Corner Claim's)."""
    db.executescript(SCHEMA)
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "game" not in columns:
        db.execute("ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'cornerclaim'")


#: The steps from one schema version to the next: MIGRATIONS[v] brings version v to v + 1.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_first_schema]
SCHEMA_VERSION = len(MIGRATIONS)


def _store_error(error: sqlite3.Error) -> StoreError:
    """A sqlite3 error as a StoreError, a full disk (SQLITE_FULL) marked as such."""
    code = getattr(error, "sqlite_errorcode", None)
    full = code == sqlite3.SQLITE_FULL or "full" in str(error).lower()
    return StoreError(str(error), full=full)


class SqliteStore:
    """`EventStore` on one SQLite file. Thread-safe: one connection behind a lock.

    One lock is enough for a LAN party (a commit is a few milliseconds); the service layer
    also holds a per-game lock so there is one writer per game at a time.
    """

    FILENAME = "cornerclaim.sqlite3"

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        if path.is_dir() or not path.suffix:
            path.mkdir(parents=True, exist_ok=True)
            path = path / self.FILENAME
        self.path = path
        self.where = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()
        self.slow_commits = 0
        self.slowest_commit_s = 0.0
        self._slow_unlogged = 0
        self._slow_logged_at = float("-inf")

    def _migrate(self) -> None:
        """Bring the file to `SCHEMA_VERSION`, its version kept in `PRAGMA user_version`
        as PostgreSQL's store keeps its own in `schema_version`: each step of `MIGRATIONS`
        moves it one version on. A file written by a newer host is refused (StoreError)
        rather than guessed at."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"the game store ({self.where}) has schema version {version}, "
                             f"written by a newer host; this one knows up to "
                             f"{SCHEMA_VERSION}")
        for step in range(version, SCHEMA_VERSION):
            MIGRATIONS[step](self._db)
            self._db.execute(f"PRAGMA user_version = {step + 1}")
            log.info("game store %s: schema version %d -> %d", self.where, step, step + 1)

    # -- writing ---------------------------------------------------------------------------
    def _write(self, statements: Iterable[tuple[str, tuple]]) -> None:
        """Run statements in one IMMEDIATE transaction; commit (fsync) or roll back."""

        def run() -> None:
            for sql, args in statements:
                self._db.execute(sql, args)

        self._transaction(run)

    def _transaction(self, body: Callable[[], None]) -> None:
        """`body` inside BEGIN IMMEDIATE … COMMIT, rolled back on any failure (a COMMIT that
        fails on a full disk leaves the transaction open, so it is rolled back too).
        sqlite3 errors come out as StoreError; SeqConflict as itself."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    body()
                    t = time.perf_counter()
                    self._db.execute("COMMIT")
                    took = time.perf_counter() - t
                    if took > SLOW_COMMIT_S:
                        self._slow_commit(took)
                except BaseException:
                    if self._db.in_transaction:
                        try:
                            self._db.execute("ROLLBACK")
                        except sqlite3.Error:  # the original failure is the one to report
                            pass
                    raise
            except sqlite3.Error as e:
                raise _store_error(e) from e

    def _slow_commit(self, took: float) -> None:
        """Count a commit the disk held up; log it, or the ones since the last line."""
        self.slow_commits += 1
        self.slowest_commit_s = max(self.slowest_commit_s, took)
        self._slow_unlogged += 1
        now = time.monotonic()
        if now - self._slow_logged_at >= SLOW_LOG_EVERY:
            log.warning("slow disk: a commit took %.0f ms (%d commits over %.0f ms since the "
                        "last report, %d in all; the longest %.0f ms)", took * 1000,
                        self._slow_unlogged, SLOW_COMMIT_S * 1000, self.slow_commits,
                        self.slowest_commit_s * 1000)
            self._slow_logged_at = now
            self._slow_unlogged = 0

    def create_game(self, game: GameRecord, seats: list[SeatRecord],
                    first_event: dict[str, Any]) -> None:
        if first_event.get("seq") != 1:
            raise SeqConflict(first_event.get("seq", 0), 0)
        stmts = [(
            "INSERT INTO games (id, created_at, variant, host_hash, closed, rematch_of, game)"
            " VALUES (?, ?, ?, ?, 0, ?, ?)",
            (game.id, game.created_at, game.variant, game.host_hash, game.rematch_of,
             game.game),
        )]
        for s in seats:
            stmts.append(("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                          (game.id, s.seat, s.kind, s.name, s.level)))
            if s.token_hash:
                stmts.append(("INSERT INTO seat_tokens VALUES (?, ?, ?)",
                              (game.id, s.seat, s.token_hash)))
        stmts.append(self._event_insert(game.id, first_event))
        self._write(stmts)

    @staticmethod
    def _event_insert(game_id: str, event: dict[str, Any],
                      at: float | None = None) -> tuple[str, tuple]:
        return ("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                (game_id, event["seq"], event["type"], json.dumps(event),
                 time.time() if at is None else at))

    def put_game(self, game: GameRecord, seats: list[SeatRecord],
                 events: list[tuple[dict[str, Any], float]]) -> None:
        """Store a whole game at once, its record as it is and its events with the times
        they were stored (`cornerclaim store copy`); StoreError if the id is taken."""
        stmts = [(
            "INSERT INTO games (id, created_at, variant, host_hash, closed, rematch_of,"
            " rematch_id, game) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game.id, game.created_at, game.variant, game.host_hash, int(game.closed),
             game.rematch_of, game.rematch_id, game.game),
        )]
        stmts += [("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                   (game.id, s.seat, s.kind, s.name, s.level)) for s in seats]
        stmts += [("INSERT INTO seat_tokens VALUES (?, ?, ?)", (game.id, s.seat, s.token_hash))
                  for s in seats if s.token_hash]
        stmts += [self._event_insert(game.id, e, at) for e, at in events]
        try:
            self._write(stmts)
        except StoreError as e:
            if "UNIQUE" in str(e) and "games.id" in str(e):
                raise StoreError(f"there is already a game {game.id}") from None
            raise

    def append(self, game_id: str, event: dict[str, Any]) -> None:
        seq = event["seq"]

        def run() -> None:
            row = self._db.execute(
                "SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,)).fetchone()
            latest = row[0] or 0
            if seq != latest + 1 or latest == 0:
                raise SeqConflict(seq, latest)
            self._db.execute(*self._event_insert(game_id, event))

        self._transaction(run)

    def update_seat(self, game_id: str, seat: SeatRecord) -> None:
        stmts = [
            ("UPDATE seats SET kind = ?, name = ?, level = ? WHERE game_id = ? AND seat = ?",
             (seat.kind, seat.name, seat.level, game_id, seat.seat)),
            ("DELETE FROM seat_tokens WHERE game_id = ? AND seat = ?", (game_id, seat.seat)),
        ]
        if seat.token_hash:
            stmts.append(("INSERT INTO seat_tokens VALUES (?, ?, ?)",
                          (game_id, seat.seat, seat.token_hash)))
        self._write(stmts)

    def set_closed(self, game_id: str) -> None:
        self._write([("UPDATE games SET closed = 1 WHERE id = ?", (game_id,))])

    def link_rematch(self, old_id: str, new_id: str) -> None:
        self._write([("UPDATE games SET rematch_id = ? WHERE id = ?", (new_id, old_id))])

    def put_analysis(self, record: AnalysisRecord) -> None:
        self._write([("INSERT OR REPLACE INTO analyses VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                      (record.game_id, record.status, record.total, json.dumps(record.plies),
                       record.level, record.seq, record.error, record.updated))])

    # -- reading ---------------------------------------------------------------------------
    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def events_since(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        rows = self._query(
            "SELECT body FROM events WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, seq))
        return [json.loads(body) for (body,) in rows]

    def events_at(self, game_id: str) -> list[tuple[dict[str, Any], float]]:
        """Every event of the game with the time it was stored (for `store copy`)."""
        rows = self._query("SELECT body, at FROM events WHERE game_id = ? ORDER BY seq",
                           (game_id,))
        return [(json.loads(body), at) for body, at in rows]

    def finish_times(self, game_id: str | None = None) -> dict[str, float]:
        if game_id is None:
            rows = self._query("SELECT game_id, MAX(at) FROM events GROUP BY game_id")
        else:
            rows = self._query("SELECT game_id, MAX(at) FROM events WHERE game_id = ?"
                               " GROUP BY game_id", (game_id,))
        return dict(rows)

    def games(self) -> list[GameRecord]:
        rows = self._query(
            "SELECT id, created_at, variant, host_hash, closed, rematch_of, rematch_id, game"
            " FROM games ORDER BY created_at, id")
        return [GameRecord(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], r[7]) for r in rows]

    def seats(self, game_id: str) -> list[SeatRecord]:
        rows = self._query(
            "SELECT s.seat, s.kind, s.name, s.level, t.token_hash FROM seats s"
            " LEFT JOIN seat_tokens t ON t.game_id = s.game_id AND t.seat = s.seat"
            " WHERE s.game_id = ? ORDER BY s.seat", (game_id,))
        return [SeatRecord(*r) for r in rows]

    def analysis(self, game_id: str) -> AnalysisRecord | None:
        rows = self._query("SELECT game_id, status, total, plies, level, seq, error, updated"
                           " FROM analyses WHERE game_id = ?", (game_id,))
        return _analysis(rows[0]) if rows else None

    def analyses(self, statuses: tuple[str, ...] = ANALYSIS_STATUSES) -> list[AnalysisRecord]:
        marks = ", ".join("?" * len(statuses))
        rows = self._query("SELECT game_id, status, total, plies, level, seq, error, updated"
                           f" FROM analyses WHERE status IN ({marks}) ORDER BY updated",
                           tuple(statuses))
        return [_analysis(r) for r in rows]

    def host_id(self) -> str:
        rows = self._query("SELECT id FROM host")
        if not rows:
            self._write([("INSERT OR IGNORE INTO host (one, id) VALUES (1, ?)",
                          (secrets.token_hex(8),))])
            rows = self._query("SELECT id FROM host")
        return rows[0][0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
        if self.slow_commits:
            log.warning("slow disk: %d commits over %.0f ms while the store was open; the "
                        "longest %.0f ms", self.slow_commits, SLOW_COMMIT_S * 1000,
                        self.slowest_commit_s * 1000)



def _analysis(row: tuple) -> AnalysisRecord:
    game_id, status, total, plies, level, seq, error, updated = row
    return AnalysisRecord(game_id, status, total, json.loads(plies), level, seq, error, updated)
