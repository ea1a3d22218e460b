"""What the service tells its listeners (the socket layer, the bot runner, the ladder): one
small dataclass per kind of news, each naming its table. A listener is called with one of
them after the change it reports is durable, under the game's lock, in seq order."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from server.tables.table import Table

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableNews:
    """Something happened to `table`. `kind` names it in a word; `payload` is its body."""

    table: Table
    kind: ClassVar[str] = ""

    @property
    def payload(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class Appended(TableNews):
    """An event was committed to the game's log (`event`: its JSON body)."""

    event: dict[str, Any] = field(default_factory=dict)
    kind: ClassVar[str] = "event"

    @property
    def payload(self) -> dict[str, Any]:
        return self.event


@dataclass(frozen=True)
class StateChanged(TableNews):
    """The game's record or seats changed (a claim, a computer seated, a rematch linked), or
    the game was just created."""

    kind: ClassVar[str] = "state"


@dataclass(frozen=True)
class PresenceChanged(TableNews):
    """Which seats have a phone connected changed (`body`: the presence message)."""

    body: dict[str, Any] = field(default_factory=dict)
    kind: ClassVar[str] = "presence"

    @property
    def payload(self) -> dict[str, Any]:
        return self.body


@dataclass(frozen=True)
class UndoChanged(TableNews):
    """A takeback request was made, answered in part, or dropped (`body`: `undo_request`,
    and for a dropped one `dropped`, `reason` and `by`)."""

    body: dict[str, Any] = field(default_factory=dict)
    kind: ClassVar[str] = "undo_request"

    @property
    def payload(self) -> dict[str, Any]:
        return self.body


@dataclass(frozen=True)
class Synced(TableNews):
    """The table caught up with what another host process stored (a shared store), or a
    game another process created was loaded. That process announced it to the sockets."""

    kind: ClassVar[str] = "synced"


@dataclass(frozen=True)
class Learned(Synced):
    """The table folded in an event another host process appended and pushed through the
    queue (`Shared.learn`). That process does the work the event makes due (a computer's
    move); this one only follows, and takes such work up in its scan if nobody did."""

    kind: ClassVar[str] = "learned"


@dataclass(frozen=True)
class Scanned(TableNews):
    """A running game was looked at by the periodic scan of a shared host."""

    kind: ClassVar[str] = "scanned"


#: listener(news): called after each change, under the game's lock.
Listener = Callable[[TableNews], None]
#: notify(news): tell every listener (what the service's parts are given to announce with).
Notify = Callable[[TableNews], None]


class Listeners(list):
    """The service's listeners; `notify` tells each of them, in the order they subscribed."""

    def notify(self, news: TableNews) -> None:
        if isinstance(news, (Appended, StateChanged, Synced)):
            news.table.changed_at = time.time()
        for listener in list(self):
            try:
                listener(news)
            except Exception:  # a broken listener must not undo a committed move
                log.exception("listener failed on %s for game %s", news.kind, news.table.id)


def undo_dropped(table: Table, *, reason: str, by: int | None = None) -> UndoChanged | None:
    """Drop the table's pending takeback request (if any, its timer cancelled) and return
    the news saying why; the caller holds the lock and announces it."""
    if table.undo_request is None:
        return None
    dropped = table.undo_request
    table.forget_undo()
    return UndoChanged(table, {"undo_request": None, "dropped": dropped.to_dict(),
                               "reason": reason, "by": by})
