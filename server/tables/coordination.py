"""How the processes of one host agree: one interface, two implementations, chosen at
start-up (`coordination_for`).

`Local` is one process on its own store (SQLite): a game's lock is its table's lock, the
table is the truth, every job is this process's. `Shared` is several processes on one
store (PostgreSQL) and one Redis: before a command or a read acts on a game, under the
game's lock, the table catches up with the store (`sync`: one indexed read of the game's
head, its last seq and its record's version; the events after the table's seq and the record
only when they moved), so it acts on the latest log; a game another process created is
loaded on first use; a record is changed only at the version this process read (else the
command is answered `stale_seq`: look again); a pending takeback request is kept on the
game's record, so any process can answer it; and work that must happen once (a deal, a
clock's flag) is taken with `once` (a Redis lock with expiry). The seq check of the store is
what guarantees a move is never appended twice.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any, Protocol

from engine.core import Game
from engine.errors import EngineError
from engine.events import Event
from server.errors import ApiError
from server.store import EventStore, Head, RecordConflict, StoreUnavailable, load_game
from server.tables.events import Learned, Notify, Synced
from server.tables.table import Table, UndoRequest
from server.tables.tableset import TableSet

log = logging.getLogger(__name__)

#: Seconds a process holds a job it took with `once` (a deal, a flag, an expired takeback)
#: before another may take it up, should this one have died.
JOB_TTL = 5.0


class Once(Protocol):
    """Takes a job that must be done once by the host's processes."""

    def take(self, job: str, ttl: float) -> bool: ...

    def drop(self, job: str) -> None: ...


class NoLock:
    """Work that must happen once, on a host of one process: every job is this process's
    (`server.realtime.shared.Once` is the lock of several)."""

    def take(self, job: str, ttl: float) -> bool:
        return True

    def drop(self, job: str) -> None:
        pass


class Coordination(Protocol):
    """What the service asks of the host's processes; `Local` and `Shared` answer it."""

    once: Once

    def start(self, tables: list[Table]) -> None:
        """At start-up, after the games were folded: their record versions and requests."""

    def locked(self, game_id: str, *, reading: bool = False, at_seq: int | None = None) -> Any:
        """`with coordination.locked(game_id) as table`: the game's table, its lock held,
        caught up (`reading`: a read, which a store out of reach does not refuse).
        A command acting on `at_seq`, the table's own seq, may skip the catch-up: the
        append's seq check refuses it if another process appended meanwhile, and a check
        the table refuses is asked again after a catch-up (`recheck`)."""

    def recheck(self, table: Table) -> bool:
        """After a command's check refused on a table entered without its catch-up: catch
        up, and whether the check is worth asking again (the table may have moved)."""

    def sync(self, table: Table, head: Head | None = None) -> None:
        """Catch the table up with the store (the caller holds its lock)."""

    def load_stored(self, game_id: str) -> Table | None:
        """A game another process created, folded from the store; None if none."""

    def write_record(self, table: Table, write: Callable[..., Any], *args: Any,
                     **kwargs: Any) -> None:
        """A change of the game's record or seats through `write` (a store method)."""

    def refresh(self) -> dict[str, Head]:
        """Load the games other processes created, catch up those that moved."""

    def learn(self, game_id: str, body: dict) -> bool:
        """Fold an event another process appended and pushed, if it is the table's next."""

    def save_undo(self, table: Table, request: UndoRequest | None) -> None:
        """Keep the pending takeback request where every process sees it."""

    def take_draw(self, table: Table, chance: Callable[..., Any]) -> bool:
        """Whether this process draws what chance has made due now."""

    def take_flag(self, table: Table) -> bool:
        """Whether this process commits what the game's clock made due now."""

    def refused(self, table: Table, before: list[Event]) -> None:
        """Set the table right after the store refused an append (its seq was taken)."""

    def clocks_running(self) -> bool:
        """Whether another process of this host is up (its games' clocks never stopped)."""


#: arm(table): (re-)arm the table's clock timer (`Clocks.arm`).
Arm = Callable[[Table], None]


class Local:
    """One process: the table is the truth; nothing to catch up, every job is ours.

    `tables`: the games this process holds; `arm(table)` arms a table's clock after a
    catch-up, `notify` announces one (both unused here: nothing is caught up)."""

    def __init__(self, store: EventStore, tables: TableSet, *, arm: Arm, notify: Notify,
                 once: Once | None = None,
                 others_alive: Callable[[], bool] | None = None) -> None:
        self.store = store
        self.tables = tables
        self.arm = arm
        self.notify = notify
        self.once = once if once is not None else NoLock()
        self._others_alive = others_alive

    def start(self, tables: list[Table]) -> None:
        pass

    def locked(self, game_id: str, *, reading: bool = False,
               at_seq: int | None = None) -> Any:
        return self.tables.table(game_id)  # entering it takes its lock

    def recheck(self, table: Table) -> bool:
        return False  # the table is the truth: a refusal stands

    def sync(self, table: Table, head: Head | None = None) -> None:
        pass

    def load_stored(self, game_id: str) -> Table | None:
        return None

    def write_record(self, table: Table, write: Callable[..., Any], *args: Any,
                     **kwargs: Any) -> None:
        write(*args, **kwargs)

    def refresh(self) -> dict[str, Head]:
        return {}

    def learn(self, game_id: str, body: dict) -> bool:
        return False  # nobody else appends

    def save_undo(self, table: Table, request: UndoRequest | None) -> None:
        pass  # the table's request is the only one

    def take_draw(self, table: Table, chance: Callable[..., Any]) -> bool:
        return self.once.take(f"chance:{table.id}:{table.game.seq}", JOB_TTL)

    def take_flag(self, table: Table) -> bool:
        return True

    def refused(self, table: Table, before: list[Event]) -> None:
        """The game as the store holds it now, or as it was before the refused append if
        the store cannot be read either."""
        try:
            table.game = load_game(self.store, table.id)
        except Exception:
            log.exception("game %s: could not read the stored log after a seq conflict",
                          table.id)
            table.game = Game.from_events(before)
        table.forget()

    def clocks_running(self) -> bool:
        return self._others_alive is not None and self._others_alive()


class Shared(Local):
    """Several processes on one store: catch up before acting, change records at the version
    read, keep takeback requests on the record, take once-only jobs with `once`."""

    #: Every how many refreshes all heads are read, not only those changed since the last.
    FULL_REFRESH = 20

    def __init__(self, store: EventStore, tables: TableSet, *, arm: Arm, notify: Notify,
                 once: Once | None = None,
                 others_alive: Callable[[], bool] | None = None) -> None:
        super().__init__(store, tables, arm=arm, notify=notify, once=once,
                         others_alive=others_alive)
        self._touched = 0  # the mark of the last heads read (`refresh`)
        self._refreshes = 0

    def start(self, tables: list[Table]) -> None:
        """The record versions, and the takeback requests of running games."""
        heads, self._touched = self.store.heads(0)
        for table in tables:
            head = heads.get(table.id)
            if head is not None and not table.finished:
                self._reload_record(table)
            elif head is not None:
                table.version = head.version

    def locked(self, game_id: str, *, reading: bool = False,
               at_seq: int | None = None) -> Any:
        """For a read (`reading`) a store that cannot be reached is no error: the table is
        never ahead of the store, so what it holds was true a moment ago. A command on the
        table's own seq (`at_seq`) skips the head read: a phone acting on the last event it
        was pushed through this process finds the table there already."""
        return _Synced(self, self.tables.table(game_id), reading, at_seq)

    def recheck(self, table: Table) -> bool:
        head = self.store.head(table.id)
        if head is None or (head.seq == table.seq and head.version == table.version):
            return False
        self.sync(table, head)
        return True

    def sync(self, table: Table, head: Head | None = None) -> None:
        """Bring the table up to the store's head: the events another process appended, and
        the record, seats and takeback request if its version moved. Nothing is announced:
        the process that made a change announced it."""
        store = self.store
        head = head or store.head(table.id)
        if head is None or (head.seq == table.seq and head.version == table.version):
            return
        if head.seq != table.seq:
            if table.parked:
                table.game = self.tables.fold(table.id)
            else:
                for body in store.events_since(table.id, table.game.seq):
                    table.game.append(Event.from_dict(body))
            self._moved_on(table)
        if head.version != table.version:
            self._reload_record(table)
        self.arm(table)
        self.notify(Synced(table))

    def _moved_on(self, table: Table) -> None:
        """The table's log grew: drop what was derived from the old seq."""
        table.forget()
        table.forget_undo()

    def _reload_record(self, table: Table) -> None:
        store = self.store
        found = store.game(table.id)
        if found is None:
            return
        record, version, undo = found
        table.record = record
        table.seats = store.seats(table.id)
        table.version = version
        table.forget()
        table.forget_undo()
        table.undo_request = UndoRequest.from_json(undo) if undo else None
        if table.undo_request is not None and table.undo_request.seq != table.game.seq:
            table.undo_request = None  # asked at a position the log has left

    def load_stored(self, game_id: str) -> Table | None:
        if not isinstance(game_id, str) or len(game_id) > 64:
            return None
        store, tables = self.store, self.tables
        found = store.game(game_id)
        if found is None:
            return None
        record, version, undo = found
        try:
            game = tables.fold(game_id)
        except EngineError:
            log.exception("game %s: its stored log does not fold", game_id)
            return None
        table = tables.new_table(record, game, store.seats(game_id))
        table.version = version
        if undo:
            request = UndoRequest.from_json(undo)
            table.undo_request = request if request.seq == game.seq else None
        table = tables.add(table)
        with table.lock:
            self.arm(table)
            self.notify(Synced(table))
        tables.touch(table)  # a finished game joins the others, parked beyond the most recent
        return table

    def write_record(self, table: Table, write: Callable[..., Any], *args: Any,
                     **kwargs: Any) -> None:
        """Only if nobody changed the record since this process read it (else the table is
        read again and the command answered `stale_seq`: look again)."""
        try:
            table.version = write(*args, version=table.version, **kwargs)
        except RecordConflict:
            self.sync(table)
            raise ApiError("stale_seq", "another player changed this game at the same moment; "
                           "look again", latest=table.seq) from None

    def learn(self, game_id: str, body: dict) -> bool:
        """Another process appended `body` (an event's dict, pushed through the message
        queue): fold it into this process's table when it is the next event there, without
        reading the store; anything else (a gap, a table not held, parked or locked by a
        command right now) is left to the next catch-up. The record's version is not
        pushed: a table that learned an event still reads the record when its head's
        version moved. Whether it was folded."""
        table = self.tables.held().get(game_id)
        seq = body.get("seq") if isinstance(body, dict) else None
        if table is None or not isinstance(seq, int):
            return False
        if not table.lock.acquire(blocking=False):
            return False  # a command holds it (the queue never waits on a game)
        try:
            if table.parked or seq != table.seq + 1:
                return False
            try:
                table.game.append(Event.from_dict(body))  # all or nothing
            except Exception:
                log.exception("game %s: a pushed event at seq %d does not fold; the next "
                              "catch-up reads the store", game_id, seq)
                return False
            self._moved_on(table)
            self.arm(table)
            self.notify(Learned(table))
            return True
        finally:
            table.lock.release()

    def refresh(self) -> dict[str, Head]:
        """One query for the heads changed since the last refresh (every FULL_REFRESH-th
        time for all). Returns the heads read."""
        tables, store = self.tables, self.store
        with tables.lock:
            self._refreshes += 1
            since = 0 if self._refreshes % self.FULL_REFRESH == 0 else \
                max(0, self._touched - store.touch_lookback)
        heads, mark = store.heads(since)
        with tables.lock:
            self._touched = max(self._touched, mark)
        known = tables.held()
        for game_id, head in heads.items():
            table = known.get(game_id)
            if table is None:
                self.load_stored(game_id)
            elif head.seq != table.seq or head.version != table.version:
                with table.lock:
                    self.sync(table, head)
        return heads

    def save_undo(self, table: Table, request: UndoRequest | None) -> None:
        self.write_record(table, self.store.set_undo_request, table.id,
                          None if request is None else request.to_json(), seq=table.game.seq)

    def take_draw(self, table: Table, chance: Callable[..., Any]) -> bool:
        if chance(table.state, random.Random(0)) is None:
            return False  # nothing due (asked with a throwaway source: the check draws nothing)
        return super().take_draw(table, chance)

    def take_flag(self, table: Table) -> bool:
        deadline = table.deadline()
        return deadline is None or deadline > time.time() or \
            self.once.take(f"clock:{table.id}:{table.seq}", JOB_TTL)

    def refused(self, table: Table, before: list[Event]) -> None:
        """Another process saved this seq first: the table as it was, then caught up."""
        table.game = Game.from_events(before)
        table.forget()
        try:
            self.sync(table)
        except Exception:
            log.exception("game %s: could not read the store after a seq conflict", table.id)


class _Synced:
    """`Shared.locked`: the lock, then the catch-up."""

    __slots__ = ("coordination", "table", "reading", "at_seq")

    def __init__(self, coordination: Shared, table: Table, reading: bool,
                 at_seq: int | None) -> None:
        self.coordination, self.table, self.reading = coordination, table, reading
        self.at_seq = at_seq

    def __enter__(self) -> Table:
        self.table.lock.acquire()
        if self.at_seq is not None and self.at_seq == self.table.seq:
            return self.table  # the append's seq check stands in for the catch-up
        try:
            self.coordination.sync(self.table)
        except StoreUnavailable:
            if not self.reading:
                self.table.lock.release()
                raise
        except BaseException:
            self.table.lock.release()
            raise
        return self.table

    def __exit__(self, *exc: object) -> None:
        self.table.lock.release()


def coordination_for(shared: bool, store: EventStore, tables: TableSet, *, arm: Arm,
                     notify: Notify, once: Once | None = None,
                     others_alive: Callable[[], bool] | None = None) -> Coordination:
    """The coordination of a host whose store is `shared` with other processes, or not."""
    return (Shared if shared else Local)(store, tables, arm=arm, notify=notify, once=once,
                                         others_alive=others_alive)
