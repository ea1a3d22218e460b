"""The one write path: every change of a game goes through `WritePath.command` (a new game
through `WritePath.create`). A command takes the game's lock (caught up with the store),
checks credentials and host policy, commits what the clock made due, asks the game's rules
for the event, appends it to the store, folds it into the live `Game`, and only then tells
the listeners — so an acknowledged or broadcast move is always on disk, and events reach
rooms in seq order. After each command, what chance makes due (a deal) is drawn and
committed the same way."""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from typing import Any

from engine.capabilities import Chance, capability
from engine.core import Game
from engine.errors import EngineError, GameOverError
from engine.events import Event
from server.errors import ApiError, from_engine
from server.store import EventStore, GameRecord, SeatRecord, SeqConflict
from server.tables.clocks import Clocks
from server.tables.coordination import JOB_TTL, Coordination
from server.tables.events import Appended, Notify, StateChanged, undo_dropped
from server.tables.table import Table
from server.tables.tableset import TableSet

log = logging.getLogger(__name__)

#: Seconds to wait before trying again when committing what was due failed (a full disk).
RETRY = 1.0

#: An engine command on the live game, returning the event it appended.
Action = Callable[[Game], Event]
#: decide(table): under the lock, after the checks and the clock's catch-up, the engine
#: command whose event to commit, or None when the command appends no event.
Decide = Callable[[Table], "Action | None"]


def doing(action: Action) -> Decide:
    """The decision of a command that always commits `action`'s event."""
    return lambda table: action


def nothing(table: Table) -> None:
    """The decision of a command that appends no event of its own (what is due still is)."""
    return None


def require_playing(table: Table) -> None:
    """not_started while seats wait for players; closed once the host closed the game."""
    if table.closed:
        raise ApiError("closed", "the host closed this game")
    if table.status == "open" and not table.over:
        raise ApiError("not_started", "waiting for open seats to be claimed",
                       open_seats=table.unclaimed())


def appended(game: Game, event: Event) -> Event:
    """Append an event the rules gave outside a command (a flag fall, a clock resumed)."""
    game.append(event)
    return event


class WritePath:
    """`store`: where events go; `coord`: the lock and catch-up, and who does a once-only
    job; `tables`: the games held; `clocks`: their timers; `notify`: the listeners; `rng`:
    what chance draws with; nothing is retried once `stopped` is set."""

    def __init__(self, store: EventStore, coord: Coordination, tables: TableSet,
                 clocks: Clocks, notify: Notify, *, rng: random.Random,
                 stopped: threading.Event) -> None:
        self.store = store
        self.coord = coord
        self.tables = tables
        self.clocks = clocks
        self.notify = notify
        self.rng = rng
        self.stopped = stopped

    def command(self, game: str | Table, decide: Decide, *,
                check: Callable[[Table], bool | None] | None = None,
                at_seq: int | None = None, clock: bool = True,
                answer: Callable[[Table, dict[str, Any] | None], Any] | None = None,
                refused: Callable[[ApiError], None] | None = None) -> Any:
        """The one way a game changes. `game` is a game id: its table, locked and caught up
        with the store (a command acting on `at_seq` may skip the catch-up when the table is
        at that seq, `Coordination.locked`); or a table the caller caught up already (the
        host's own start-up and scan), entered with its lock only. Then, under the lock:
        `check(table)` raises a refusal (or returns False: nothing to do, None is answered);
        what the clock made due is committed (`clock`; game_over if that ended the game);
        `decide(table)` gives the engine command whose event is committed (or None: the
        command changed a record through the coordination, or nothing); what chance makes
        due is drawn; and `answer(table, event)` is the answer (default: the event's dict,
        or None). `refused(error)` takes a refusal of the catch-up, the decision or the
        commit instead of raising it (None is answered)."""
        entered = game if isinstance(game, Table) else self.coord.locked(game, at_seq=at_seq)
        with entered as table:
            if check is not None:
                try:
                    wanted = check(table)
                except ApiError:
                    if at_seq is None or not self.coord.recheck(table):
                        raise
                    wanted = check(table)
                if wanted is False:
                    return None
            try:
                if clock:
                    self._catch_up(table)
                action = decide(table)
                body = None if action is None else self._commit_one(table, action)
            except ApiError as e:
                if refused is None:
                    raise
                refused(e)
                return None
            self.draw_chance(table)
            return body if answer is None else answer(table, body)

    def create(self, record: GameRecord, seats: list[SeatRecord], game: Game) -> Table:
        """A new game: its record, seats and first event stored at once, its table held and
        announced, then what chance makes due at the start drawn."""
        self.store.create_game(record, seats, game.events[0].to_dict())
        table = self.tables.add(self.tables.new_table(record, game, seats))
        with table.lock:
            self.notify(StateChanged(table))
            self.draw_chance(table)
        return table

    def _commit_one(self, table: Table, action: Action) -> dict[str, Any]:
        """Run an engine command on the live game, make its event durable, then announce it;
        returns the event's dict. The caller holds the lock.

        The engine checks and folds in memory first; if the commit fails the live game is
        rebuilt from its previous events, so memory never runs ahead of the disk (the log is
        copied only then: a move costs no copy of it)."""
        game = table.game
        seq = game.seq
        try:
            event = action(game)
        except EngineError as e:
            raise from_engine(e) from None
        body = event.to_dict()  # once: what the store keeps and the listeners push
        try:
            self.store.append(table.id, body)
        except SeqConflict:  # another host process saved this seq first (or the disk says so)
            self.coord.refused(table, game.events_since(0)[:seq])
            raise
        except BaseException:
            table.game = Game.from_events(game.events_since(0)[:seq])
            table.forget()
            raise
        dropped = undo_dropped(table, reason="moved_on")
        if dropped is not None:
            self.notify(dropped)
        self.clocks.arm(table)
        self.notify(Appended(table, body))
        if table.finished:
            self.tables.touch(table)
        return body

    def draw_chance(self, table: Table) -> None:
        """Commit `Rules.chance`'s events until it returns None; the caller holds the lock.
        A draw that cannot be saved (a full disk) is tried again a little later."""
        if table.closed or table.parked:
            return
        drawer = capability(table.rules, Chance)
        chance = None if drawer is None else drawer.chance
        if chance is None or not self.coord.take_draw(table, chance):
            return  # nothing to draw, or another process draws it (a scan looks again)
        try:
            for _ in range(1000):  # a game that never stops drawing is a bug, not a hang
                event = chance(table.state, self.rng)
                if event is None:
                    return
                self._commit_one(table, lambda g, e=event: appended(g, e))
            log.error("game %s: chance kept drawing; stopped", table.id)
        except ApiError as e:  # the rules refused their own draw: a bug, not worth retrying
            log.error("game %s: chance drew an event its rules refuse: %s", table.id, e.message)
        except SeqConflict:  # another process moved the game on first: nothing to draw here
            self.coord.sync(table)
        except Exception:
            log.exception("game %s: could not commit what chance drew", table.id)
            if not self.stopped.is_set():
                timer = threading.Timer(RETRY, self._retry_chance, (table,))
                timer.daemon = True
                timer.start()

    def _retry_chance(self, table: Table) -> None:
        if self.stopped.is_set():
            return
        with table.lock:
            self.draw_chance(table)

    # -- what the clock makes due ----------------------------------------------------------
    def _catch_up(self, table: Table) -> None:
        """Commit what the game's clock has made due by now (a flag that fell) before a
        command runs on it; game_over if that ended the game. The caller holds the lock."""
        event = self.clocks.due(table)
        if event is None:
            return
        self._commit_one(table, lambda g: appended(g, event))
        self.draw_chance(table)
        if table.finished:
            raise from_engine(GameOverError("the game is over: the time ran out",
                                            seq=table.game.seq))

    def deadline_reached(self, table: Table, timer: threading.Timer) -> None:
        """The table's clock `timer` fired: commit what is due, once for the host."""
        clocks = self.clocks

        def check(table: Table) -> bool:
            if table.clock_timer is not timer or self.stopped.is_set():
                return False  # re-armed (by a catch-up, too) or cancelled meanwhile
            table.clock_timer = None
            if not self.coord.take_flag(table):
                clocks.arm(table, at_least=JOB_TTL)  # another process commits the flag
                return False
            return True

        def rearm(table: Table, event: dict[str, Any] | None) -> None:
            if table.clock_timer is None:
                clocks.arm(table)  # not due yet after all (the timer fired early)

        try:
            self.command(table.id, nothing, check=check, answer=rearm)
        except ApiError:  # the game ended: nothing more is due
            return
        except Exception:
            log.exception("game %s: could not commit what its clock made due", table.id)
            with table.lock:
                clocks.arm(table, at_least=RETRY)
