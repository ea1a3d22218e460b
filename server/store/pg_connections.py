"""One host process's connections to the club's PostgreSQL database (`PostgresStore`'s).

Connections are opened when a command needs one and none is idle, at most `max_open` of
them, and kept open for the next commands; a command that finds them all in use waits for
one to be given back. A connection the server dropped (a restart) is closed when it is next
taken or given back, and the process opens another.

Why no pool library: connections here are opened when needed (connect fails at once when the
server is down) and a dropped one is replaced on the next call, so a restarted database is
used again by the very next command; a pool's background reconnection with growing back-off
could keep answering 503 for a while after the database is back.
"""

from __future__ import annotations

import threading
import time

import psycopg
from psycopg import conninfo, pq

from server.store.base import StoreBusy, StoreError, StoreUnavailable

#: Seconds to wait for a connection before the database counts as unreachable.
CONNECT_TIMEOUT = 5
#: Seconds a command waits for one of the process's connections when all are in use (a
#: burst: a room of phones joining at once) before it answers 503.
BUSY_WAIT = 30.0
#: Connections one process opens at most, all kept open for reuse once made. A command
#: that finds them all busy waits for one (up to CONNECT_TIMEOUT) instead of opening more:
#: opening a connection costs the database a new backend process, far more than the few
#: milliseconds a command holds one, and a fixed number per process lets the database's
#: `max_connections` be sized as processes × MAX_OPEN (docs/deploy.md).
MAX_OPEN = 16


class Connections:
    """The connections to one database (`where` names it in messages). Thread-safe (and
    greenlet-safe under gevent): every connection `take`n goes back through `give` or
    `discard`."""

    def __init__(self, url: str, where: str, *, connect_timeout: float = CONNECT_TIMEOUT,
                 max_open: int = MAX_OPEN, busy_wait: float = BUSY_WAIT) -> None:
        self.url = url
        self.where = where
        self.connect_timeout = connect_timeout
        self.max_open = max_open
        self.busy_wait = busy_wait
        self.idle: list[psycopg.Connection] = []
        #: Connections open now (idle or in use), and the condition a command waits on for
        #: one to be given back when `max_open` are.
        self._open = 0
        self._ready = threading.Condition(threading.Lock())
        self._closed = False

    @property
    def count(self) -> int:
        """Connections open now, idle or in use."""
        return self._open

    def _connect(self) -> psycopg.Connection:
        try:
            conn = psycopg.connect(self.url, autocommit=True,
                                   connect_timeout=max(1, round(self.connect_timeout)))
        except psycopg.OperationalError as e:
            raise StoreUnavailable(
                f"the game database ({self.where}) cannot be reached: {first_line(e)}") from e
        try:
            conn.execute("SET synchronous_commit TO on")
        except psycopg.Error as e:
            conn.close()
            raise StoreUnavailable(
                f"the game database ({self.where}) cannot be reached: {first_line(e)}") from e
        return conn

    def take(self) -> tuple[psycopg.Connection, bool]:
        """An idle connection (True: it may have been dropped meanwhile), or a new one while
        fewer than `max_open` are open, or the first one given back; StoreBusy after
        `busy_wait` seconds."""
        deadline = time.monotonic() + self.busy_wait
        with self._ready:
            while True:
                if self._closed:
                    raise StoreError("the store is closed")
                while self.idle:
                    conn = self.idle.pop()
                    if not conn.closed:
                        return conn, True
                    self._open -= 1  # closed while idle
                if self._open < self.max_open:
                    self._open += 1
                    break
                left = deadline - time.monotonic()
                if left <= 0 or not self._ready.wait(left):
                    raise StoreBusy(
                        f"the game database ({self.where}) is busy: all {self.max_open} of "
                        "this process's connections stayed in use")
        try:
            return self._connect(), False
        except BaseException:
            self._closed_one()
            raise

    def give(self, conn: psycopg.Connection) -> None:
        """Keep a connection for the next command, or close it if it is no longer usable."""
        healthy = (not conn.closed and not conn.broken
                   and conn.info.transaction_status == pq.TransactionStatus.IDLE)
        with self._ready:
            if healthy and not self._closed:
                self.idle.append(conn)
                self._ready.notify()
                return
        self.discard(conn)

    def discard(self, conn: psycopg.Connection) -> None:
        """Close a connection that was taken; a waiting command may open another."""
        try:
            conn.close()
        finally:
            self._closed_one()

    def _closed_one(self) -> None:
        with self._ready:
            self._open -= 1
            self._ready.notify()

    def drop_idle(self) -> None:
        """Close every idle connection (what broke one, a restart, broke the others too)."""
        with self._ready:
            idle, self.idle = self.idle, []
        for conn in idle:
            self.discard(conn)

    def close(self) -> None:
        """No more connections: the idle ones are closed, the ones in use when given back."""
        with self._ready:
            self._closed = True
        self.drop_idle()


def describe(url: str) -> str:
    """The database a URL names, for messages: `dbname on host:port`, never a password."""
    try:
        info = conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "an unreadable database URL"
    host = info.get("host") or "localhost"
    port = info.get("port") or "5432"
    return f"{info.get('dbname') or info.get('user') or 'postgres'} on {host}:{port}"


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
