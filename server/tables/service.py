"""The one service layer that REST, the socket and the bot runner all go through: a thin
façade over the service's parts in `server.tables` (see docs/architecture.md):

- `writes`: the one write path. A command takes the game's lock, catches up with the store,
  checks credentials and host policy, commits what the clock made due, asks the game's rules
  for the event, appends it to the store, folds it into the live `Game`, and only then tells
  the listeners — so an acknowledged or broadcast move is always on disk, and events reach
  rooms in seq order; then what chance makes due (a deal) is drawn and committed.
- `coordination`: how the host's processes agree (locking, catch-up, once-only jobs, record
  versions): `Local` for one process on SQLite, `Shared` for a club's processes on
  PostgreSQL and Redis, chosen at start-up.
- `clocks`, `takebacks`, `seating`, `creation`, `reads`, `upkeep` (start-up and a shared
  host's scan) and `tableset` (the games this process holds, folded from the store at
  start-up; finished ones parked).

Each part is given what it uses when it is made; `build_parts` is the one place that wires
them.

Nothing here knows a game: a table's game is looked up in `engine.registry` and every fact
(whose turn, the legal moves, whether it is over) comes from its `Rules`. Listeners hear
typed news (`server.tables.events`).
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.capabilities import Actions, capability
from engine.registry import DEFAULT_GAME
from server.errors import ApiError
from server.realtime.presence import Presence
from server.store import EventStore, Head
from server.tables.clocks import Clocks
from server.tables.coordination import Coordination, NoLock, Once, coordination_for
from server.tables.creation import CLOCK_OPTIONS, GIVEN_OPTIONS, UNSET, Creation
from server.tables.events import Listeners
from server.tables.reads import Hinter, Reads
from server.tables.seating import Seating
from server.tables.table import Table
from server.tables.tableset import TableSet
from server.tables.takebacks import Takebacks
from server.tables.upkeep import Upkeep
from server.tables.writes import WritePath, doing, require_playing

log = logging.getLogger(__name__)

__all__ = ["CLOCK_OPTIONS", "DEFAULT_GAME", "GIVEN_OPTIONS", "UNSET", "GameService", "NoLock"]


@dataclass(frozen=True)
class Parts:
    """The service's parts, wired by `build_parts`."""

    tables: TableSet
    coordination: Coordination
    clocks: Clocks
    writes: WritePath
    takebacks: Takebacks
    seating: Seating
    creation: Creation
    reads: Reads
    upkeep: Upkeep


def build_parts(store: EventStore, listeners: Listeners, presence: Any, *, shared: bool,
                once: Once | None, others_alive: Callable[[], bool] | None,
                undo_timeout: float, away_grace: float, max_games: int,
                hinter: Hinter | None, stopped: threading.Event) -> Parts:
    """Make each part with what it uses. Two needs run both ways, and each is met by a
    callable made before the part it calls exists: the table set loads a game another
    process created through the coordination, which holds the table set; a clock's timer
    commits what is due through the write path, which arms the clocks."""
    notify = listeners.notify
    coordination: Coordination | None = None
    writes: WritePath | None = None

    def load_stored(game_id: str) -> Table | None:
        assert coordination is not None
        return coordination.load_stored(game_id)

    def on_deadline(table: Table, timer: threading.Timer) -> None:
        assert writes is not None
        writes.deadline_reached(table, timer)

    tables = TableSet(store, presence, load_stored=load_stored)
    clocks = Clocks(tables, stopped, on_deadline=on_deadline)
    coordination = coordination_for(shared, store, tables, arm=clocks.arm, notify=notify,
                                    once=once, others_alive=others_alive)
    #: The host's random source for what chance decides (`Rules.chance`: a deal).
    rng = random.SystemRandom()
    writes = WritePath(store, coordination, tables, clocks, notify, rng=rng, stopped=stopped)
    takebacks = Takebacks(writes, coordination, notify, timeout=undo_timeout)
    seating = Seating(store, coordination, tables, writes, presence, notify,
                      away_grace=away_grace)
    creation = Creation(store, coordination, tables, writes, takebacks, presence, notify,
                        max_games=max_games)
    reads = Reads(coordination, tables, presence, hinter=hinter)
    upkeep = Upkeep(coordination, tables, writes, clocks, seating, takebacks, notify,
                    stopped=stopped)
    return Parts(tables, coordination, clocks, writes, takebacks, seating, creation, reads,
                 upkeep)


class GameService:
    """All games on this host. Thread-safe; every public method may raise ApiError.

    `shared`: the store is shared with other host processes (`Shared` coordination, with
    `once` the host's lock for once-only jobs and `others_alive` whether another process is
    up). `hinter(game_id, game, seq, seat)` computes a hint (the bot pool's workers; None: in the
    caller's thread)."""

    def __init__(self, store: EventStore, *, undo_timeout: float = 30.0,
                 away_grace: float = 120.0, max_games: int = 300,
                 clock: Callable[[], float] = time.monotonic, shared: bool = False,
                 presence: Any = None, once: Once | None = None,
                 others_alive: Callable[[], bool] | None = None,
                 hinter: Hinter | None = None):
        self.store = store
        self.presence = presence if presence is not None else Presence(clock)
        self.listeners = Listeners()
        self.stopped = threading.Event()
        parts = build_parts(store, self.listeners, self.presence, shared=shared, once=once,
                            others_alive=others_alive, undo_timeout=undo_timeout,
                            away_grace=away_grace, max_games=max_games, hinter=hinter,
                            stopped=self.stopped)
        self.table_set, self.coordination = parts.tables, parts.coordination
        self.clocks, self.writes, self.takebacks = parts.clocks, parts.writes, parts.takebacks
        self.seating, self.creation, self.reads = parts.seating, parts.creation, parts.reads
        self.upkeep = parts.upkeep
        self.once = self.coordination.once
        self.table_set.load()
        self.upkeep.start()

    # -- the host --------------------------------------------------------------------------
    def stop(self) -> None:
        """Cancel every timer (the host is shutting down)."""
        self.stopped.set()
        self.clocks.stop()

    def scan(self) -> None:
        """Catch every game up and do what is due, once for the host (a shared host's tick)."""
        self.upkeep.scan()

    def refresh(self) -> dict[str, Head]:
        return self.coordination.refresh()

    def learn(self, game_id: str, event: dict) -> bool:
        """An event another process of the host appended, as its push carried it: folded
        into this process's table when it is the next one there (no store read)."""
        return self.coordination.learn(game_id, event)

    def park_finished(self) -> int:
        return self.table_set.park_finished()

    def locked(self, game_id: str, *, reading: bool = False) -> Any:
        """`with service.locked(game_id) as table`: the game's table, its lock held, caught
        up with the store (a shared one)."""
        return self.coordination.locked(game_id, reading=reading)

    def table(self, game_id: str) -> Table:
        return self.table_set.table(game_id)

    def known(self) -> set[str]:
        """The ids of the games this process holds."""
        return self.table_set.known()

    def tables(self) -> list[Table]:
        return self.table_set.all()

    # -- reading ---------------------------------------------------------------------------
    def state(self, game_id: str) -> dict[str, Any]:
        return self.reads.state(game_id)

    def lobby(self) -> list[dict[str, Any]]:
        return self.reads.lobby()

    def events_since(self, game_id: str, since: int) -> list[dict[str, Any]]:
        return self.reads.events_since(game_id, since)

    def log_json(self, game_id: str) -> str:
        return self.reads.log_json(game_id)

    def export(self, game_id: str, fmt: str) -> tuple[str, str, str]:
        return self.reads.export(game_id, fmt)

    def legal(self, game_id: str, seat: int, query: str | None = None,
              seq: int | None = None) -> dict[str, Any]:
        """Legal moves of `seat` now (empty when it is not that seat's turn), narrowed by the
        game's legal query (Corner Claim: a piece name) if given. `seq`: the seq the asker
        shows (see `Reads.legal_json`)."""
        return json.loads(self.reads.legal_json(game_id, seat, query, seq))

    def legal_json(self, game_id: str, seat: int, query: str | None = None,
                   seq: int | None = None) -> bytes:
        return self.reads.legal_json(game_id, seat, query, seq)

    def hint(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        return self.reads.hint(game_id, seat, token)

    # -- creating, seating, closing --------------------------------------------------------
    def create(self, variant: str, seats: list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
        return self.creation.create(variant, seats, **kwargs)

    def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        return self.creation.rematch(game_id, token)

    def close(self, game_id: str, token: str | None) -> dict[str, Any]:
        return self.creation.close(game_id, token)

    def claim(self, game_id: str, seat: int, name: str) -> dict[str, Any]:
        return self.seating.claim(game_id, seat, name)

    def seat_computer(self, game_id: str, seat: int, level: int,
                      token: str | None) -> dict[str, Any]:
        return self.seating.seat_computer(game_id, seat, level, token)

    def remove_computer(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        return self.seating.remove_computer(game_id, seat, token)

    def leave(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        return self.seating.leave(game_id, seat, token)

    def declare_left(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        return self.seating.declare_left(game_id, seat, token)

    # -- playing ---------------------------------------------------------------------------
    def move(self, game_id: str, seat: int, move: str, seq: int, token: str | None) -> dict:
        def check(table: Table) -> None:
            table.require_seat_token(seat, token)
            require_playing(table)

        return self.writes.command(game_id, doing(lambda g: g.play(seat, move, seq=seq,
                                                                   now=time.time())),
                                   check=check, at_seq=seq)

    def act(self, game_id: str, seat: int, action: str, seq: int,
            token: str | None) -> dict[str, Any]:
        """One of the game's own actions (its catalog's `actions`: resign, offer a draw…)."""
        def check(table: Table) -> None:
            table.require_seat_token(seat, token)
            require_playing(table)
            own = capability(table.rules, Actions)
            actions = list(own.actions) if own is not None else []
            if action not in actions:
                raise ApiError("no_such_action", f"{table.rules.title} has no action "
                               f"{action!r}", actions=actions)

        return self.writes.command(game_id, doing(lambda g: g.act(seat, action, seq=seq,
                                                                  now=time.time())),
                                   check=check)

    def bot_move(self, game_id: str, seat: int, move: str, seq: int) -> dict | None:
        """A computer seat's move, computed for `seq`; None if the game moved on."""
        return self._computer(game_id, seat, f"bot move {move}",
                              ("stale_seq", "not_your_turn", "game_over"),
                              lambda g: g.play(seat, move, seq=seq, now=time.time()))

    def bot_act(self, game_id: str, seat: int, action: str, seq: int) -> dict | None:
        """A computer seat's own action (`Rules.computer_action`: declining a draw offered
        to it), decided at `seq`; None if the game moved on or the rules no longer want it."""
        return self._computer(game_id, seat, f"computer action {action}",
                              ("stale_seq", "game_over"),
                              lambda g: g.act(seat, action, seq=seq, now=time.time()))

    def _computer(self, game_id: str, seat: int, what: str, quiet: tuple[str, ...],
                  action: Callable) -> dict | None:
        def due(table: Table) -> bool:
            return table.seat(seat).kind == "computer" and not table.finished \
                and table.status == "running"

        def refused(e: ApiError) -> None:
            if e.code not in quiet:
                log.warning("game %s: %s refused: %s", game_id, what, e.message)

        return self.writes.command(game_id, doing(action), check=due, refused=refused)

    def undo(self, game_id: str, seat: int, seq: int, token: str | None, *,
             device_tokens: Iterable[str] = ()) -> dict[str, Any]:
        """Take back the seat's latest move: at once if every other person at the table
        sits at the requester's device (`Table.same_device`, or a seat one of
        `device_tokens`, the device's other tokens, holds), else as a request that every
        person at another device must accept; computers are not asked (see docs/api.md)."""
        return self.takebacks.undo(game_id, seat, seq, token, device_tokens=device_tokens)

    def undo_answer(self, game_id: str, seat: int, accept: bool,
                    token: str | None) -> dict[str, Any]:
        return self.takebacks.answer(game_id, seat, accept, token)

    # -- presence --------------------------------------------------------------------------
    def join(self, sid: str, game_id: str, tokens: list[str]) -> list[int]:
        """A socket joins a game; returns the seats its tokens hold (none for a spectator)."""
        return self.seating.join(sid, game_id, tokens)

    def unjoin(self, sid: str, game_id: str) -> None:
        """A socket leaves a game (its phone went back to the lobby or on to the rematch):
        its seats there lose this socket, as if it had disconnected from that game only."""
        self.seating.unjoin(sid, game_id)

    def disconnect(self, sid: str) -> None:
        self.seating.disconnect(sid)

    def presence_body(self, table: Table) -> dict[str, Any]:
        return self.seating.body(table)

