"""The one write path: a command takes the game's lock (caught up with the store), checks
credentials and host policy, commits what the clock made due, asks the game's rules for the
event, appends it to the store, folds it into the live `Game`, and only then tells the
listeners — so an acknowledged or broadcast move is always on disk, and events reach rooms
in seq order. After each event, what chance makes due (a deal) is drawn and committed the
same way."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.capabilities import Chance, capability
from engine.core import Event, Game
from engine.errors import EngineError
from server.errors import ApiError, from_engine
from server.store import SeqConflict
from server.tables.events import Appended
from server.tables.table import Table

if TYPE_CHECKING:
    from server.tables.core import Core

log = logging.getLogger(__name__)

#: Seconds to wait before trying again when committing what was due failed (a full disk).
RETRY = 1.0

Action = Callable[[Game], Event]


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
    def __init__(self, core: Core) -> None:
        self.core = core

    def command(self, game_id: str, check: Callable[[Table], bool | None], action: Action,
                *, then: Callable[[Table], None] | None = None,
                refused: Callable[[ApiError], None] | None = None,
                at_seq: int | None = None) -> dict[str, Any] | None:
        """Lock, catch up, check, append, notify: `check(table)` raises (or returns False:
        nothing to do, None is answered), what the clock made due is committed, then
        `action`'s event, then `then(table)`. `refused(error)` takes a refusal of the catch-up
        or the action instead of raising it (None is answered). A command acting on `at_seq`
        may skip the catch-up when the table is at that seq (`Coordination.locked`)."""
        with self.core.locked(game_id, at_seq=at_seq) as table:
            try:
                wanted = check(table)
            except ApiError:
                if at_seq is None or not self.core.coord.recheck(table):
                    raise
                wanted = check(table)
            if wanted is False:
                return None
            try:
                self.core.clocks.catch_up(table)
                body = self.commit(table, action)
            except ApiError as e:
                if refused is None:
                    raise
                refused(e)
                return None
            if then is not None:
                then(table)
            return body

    def commit(self, table: Table, action: Action) -> dict[str, Any]:
        """Run an engine command on the live game, make its event durable, then announce it;
        then draw and commit what chance makes due after it, each announced in turn. Returns
        the command's event. The caller holds the lock.

        The engine checks and folds in memory first; if the commit fails the live game is
        rebuilt from its previous events, so memory never runs ahead of the disk."""
        body = self.commit_one(table, action)
        self.draw_chance(table)
        return body

    def commit_one(self, table: Table, action: Action) -> dict[str, Any]:
        core = self.core
        before = list(table.game.events)
        try:
            event = action(table.game)
        except EngineError as e:
            raise from_engine(e) from None
        try:
            core.store.append(table.id, event.to_dict())
        except SeqConflict:  # another host process saved this seq first (or the disk says so)
            core.coord.refused(table, before)
            raise
        except BaseException:
            table.game = Game.from_events(before)
            table.forget()
            raise
        core.takebacks.drop(table, reason="moved_on")
        core.clocks.arm(table)
        body = event.to_dict()
        core.notify(Appended(table, body))
        if table.finished:
            core.tables.touch(table)
        return body

    def draw_chance(self, table: Table) -> None:
        """Commit `Rules.chance`'s events until it returns None; the caller holds the lock.
        A draw that cannot be saved (a full disk) is tried again a little later."""
        if table.closed or table.parked:
            return
        drawer = capability(table.rules, Chance)
        chance = None if drawer is None else drawer.chance
        if chance is None or not self.core.coord.take_draw(table, chance):
            return  # nothing to draw, or another process draws it (a scan looks again)
        try:
            for _ in range(1000):  # a game that never stops drawing is a bug, not a hang
                event = chance(table.state, self.core.rng)
                if event is None:
                    return
                self.commit_one(table, lambda g, e=event: appended(g, e))
            log.error("game %s: chance kept drawing; stopped", table.id)
        except ApiError as e:  # the rules refused their own draw: a bug, not worth retrying
            log.error("game %s: chance drew an event its rules refuse: %s", table.id, e.message)
        except SeqConflict:  # another process moved the game on first: nothing to draw here
            self.core.coord.sync(table)
        except Exception:
            log.exception("game %s: could not commit what chance drew", table.id)
            if not self.core.stopped:
                timer = threading.Timer(RETRY, self._retry_chance, (table,))
                timer.daemon = True
                timer.start()

    def _retry_chance(self, table: Table) -> None:
        if self.core.stopped:
            return
        with table.lock:
            self.draw_chance(table)
