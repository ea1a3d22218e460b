"""The one service layer that REST, the socket and the bot runner all go through.

Each command takes a game's lock (one writer per game), checks credentials and host policy,
asks the game's rules for the event (the rules hold every rule), commits it to the store,
folds it into the live `Game`, and only then tells the listeners (socket broadcast, bot
runner) — so an acknowledged or broadcast move is always on disk, and events reach rooms in
seq order. At start-up every game is rebuilt by folding its stored events.

Nothing here knows a game: a table's game is looked up in `engine.registry` and every fact
(whose turn, the legal moves, whether it is over) comes from its `Rules`.

Time: every command passes the host's wall clock (`now=time.time()`). After every commit the
table's one timer is armed at `Rules.deadline` (a chess clock's flag); when it fires, the
event `Rules.expire` gives is committed like any other (a flag falls with nobody
connected). A command that arrives after a deadline whose timer has not fired yet first
commits what is due. At start-up every running game gets `Rules.resume`'s event, if any
(the time the host was down is not charged).

Chance: after creating a game and after every event it commits, the service asks
`Rules.chance` with the host's own random source and commits what it returns (a deal of
marbles), until it returns None; at start-up it draws what a game's last event left due.

Several processes, one host: with a shared store (`shared=True`, PostgreSQL) every
process may hold any game. Before a command or a read acts on a game, under the game's lock,
the table catches up with the store (`_sync`: one indexed read of the game's head, its last
seq and its record's version; the events after the table's seq and the record only when they
moved), so it acts on the latest log; a game another process created is loaded on first use,
and the lobby lists every game in the store. A pending takeback request is kept on the
game's record, so any process can answer it. Only the committing process announces an event
(the message queue carries it to every process's sockets). Work that must happen once — a
deal, a clock's flag, an expired takeback request, a computer's move (the bot runner) — is
taken with `once` (a Redis lock with expiry); `scan`, run every few seconds, catches every
running game up and does what is due, so work a dead process held is picked up when its lock
expires. The seq check of the store is what guarantees a move is never appended twice.
A single process on SQLite (`shared=False`) does none of this: no extra query.

Leaving: when a seat leaves and `Rules.replacement_level` names a level (a 4-player team
game goes on), the seat becomes a computer seat at that level, stored and broadcast, and the
bot runner plays it.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

import server.tables.views as views
from engine import registry
from engine.core import Event, Game, log_to_json
from engine.errors import EngineError, GameOverError, NotYourTurnError, StaleSeqError
from engine.rules import computer_names
from server.errors import ApiError, from_engine
from server.realtime.presence import Presence
from server.store import (
    EventStore,
    GameRecord,
    Head,
    RecordConflict,
    SeatRecord,
    SeqConflict,
    StoreUnavailable,
    load_game,
)
from server.tables.table import Table, UndoRequest, new_token

log = logging.getLogger(__name__)

#: The game a request names when it names none.
DEFAULT_GAME = "cornerclaim"

#: listener(kind, table, payload) with kind in "event", "state", "presence", "undo_request".
Listener = Callable[[str, Table, dict[str, Any]], None]

#: The options a create request's `clock` sets (a variant offers a clock if it has both).
CLOCK_OPTIONS = ("reserve_s", "increment_s")
#: The options a create request may name at its top level (as `given`) besides `options`.
GIVEN_OPTIONS = ("rounds", "setups")
#: `create(clock=UNSET)`: the request did not mention the clock.
UNSET: Any = object()
#: Seconds a clock's timer fires after its deadline (so the rules see the time is up), and
#: waits before trying again when committing what was due failed (a full disk).
CLOCK_SLACK = 0.005
CLOCK_RETRY = 1.0
#: Seconds a process holds a job it took with `once` (a deal, a flag, an expired takeback)
#: before another may take it up, should this one have died.
JOB_TTL = 5.0


class NoLock:
    """Work that must happen once, on a host of one process: every job is this process's
    (`server.realtime.shared.Once` is the lock of several)."""

    def take(self, job: str, ttl: float) -> bool:
        return True

    def drop(self, job: str) -> None:
        pass


class GameService:
    """All games on this host. Thread-safe; every public method may raise ApiError."""

    def __init__(self, store: EventStore, *, undo_timeout: float = 30.0,
                 away_grace: float = 120.0, max_games: int = 300,
                 clock: Callable[[], float] = time.monotonic, shared: bool = False,
                 presence: Any = None, once: Any = None,
                 others_alive: Callable[[], bool] | None = None):
        self.store = store
        #: The store is shared with other host processes: catch up before acting.
        self.shared = shared
        #: hinter(log_json, seat) -> move text or None: where hints are computed (the app
        #: sets the bot pool's; None computes in the caller's thread).
        self.hinter: Callable[[str, int], str | None] | None = None
        self.max_games = max_games
        self.undo_timeout = undo_timeout
        self.away_grace = away_grace
        self.presence = presence if presence is not None else Presence(clock)
        #: Takes a job that must be done once by the host's processes (`NoLock`: this one).
        self.once = once if once is not None else NoLock()
        self._others_alive = others_alive
        self.listeners: list[Listener] = []
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._loaded_finished: dict[str, Table] = {}  # finished games with their Game, LRU
        self._touched = 0  # a shared store's mark of the last heads read (`refresh`)
        self._refreshes = 0
        self._stopped = False
        #: The host's random source for what chance decides (`Rules.chance`: a deal).
        self.rng: random.Random = random.SystemRandom()
        self._load()

    # -- start-up --------------------------------------------------------------------------
    def _load(self) -> None:
        registry.games()  # the built-in games and their event types, before any log is read
        for record in self.store.games():
            try:
                game = self._fold(record.id)
            except EngineError:
                log.exception("game %s: its stored log does not fold; skipped", record.id)
                continue
            self._tables[record.id] = self._new_table(record, game, self.store.seats(record.id))
        if self.shared:  # the record versions, and the takeback requests of running games
            heads, self._touched = self.store.heads(0)
            for table in self.tables():
                head = heads.get(table.id)
                if head is not None and not table.finished:
                    self._reload_record(table)
                elif head is not None:
                    table.version = head.version
        for table in self.tables():
            with table.lock:
                self._resume(table)

    def _resume(self, table: Table) -> None:
        """A running game's clock restarts now (`Rules.resume`), its timer is armed, what
        chance left due is drawn, and seats that left and play on are computer seats. A game
        closed on its record before closing was an event gets its `game_closed` now."""
        if table.record.closed and table.game.closed is None and not table.over:
            try:
                self._commit(table, lambda g: g.close("closed"))
            except Exception:  # still shown as closed, from its record
                log.exception("game %s: could not log that it was closed", table.id)
        if table.finished:
            return
        try:
            event = None if self._clocks_running() else table.rules.resume(table.state,
                                                                            time.time())
            if event is not None:
                self._commit(table, lambda g: _appended(g, event))
        except Exception:  # a game that cannot resume must not keep the host from starting
            log.exception("game %s: could not resume its clock", table.id)
        self._draw_chance(table)
        for seat in sorted(table.left):
            self._replace_leaver(table, seat)
        self._arm(table)

    def _clocks_running(self) -> bool:
        """Whether another process of this host is up (its games' clocks never stopped)."""
        return self._others_alive is not None and self._others_alive()

    def stop(self) -> None:
        """Cancel every timer (the host is shutting down)."""
        self._stopped = True
        for table in self.tables():
            with table.lock:
                for timer in (table.clock_timer, table.undo_timer):
                    if timer is not None:
                        timer.cancel()
                table.clock_timer = None

    def _fold(self, game_id: str) -> Game:
        return load_game(self.store, game_id)

    def _new_table(self, record: GameRecord, game: Game, seats: list[SeatRecord]) -> Table:
        return Table(record, game, seats, loader=lambda: self._fold(record.id))

    # -- a shared store: catching up with the other processes -----------------------------
    def locked(self, game_id: str, *, reading: bool = False) -> Table | _Synced:
        """`with service.locked(game_id) as table`: the game's table, its lock held, caught
        up with the store (a shared one). For a read (`reading`) a store that cannot be
        reached is no error: the table is never ahead of the store, so what it holds was
        true a moment ago. One process: the table itself (entering it takes its lock)."""
        table = self.table(game_id)
        return _Synced(self, table, reading) if self.shared else table

    def _sync(self, table: Table, head: Head | None = None) -> None:
        """Bring the table up to the store's head (the caller holds its lock): the events
        another process appended, and the record, seats and takeback request if its version
        moved. Nothing is announced: the process that made a change announced it."""
        if not self.shared:
            return
        head = head or self.store.head(table.id)
        if head is None or (head.seq == table.seq and head.version == table.version):
            return
        moved = head.seq != table.seq
        if moved:
            if table.parked:
                table.game = self._fold(table.id)
            else:
                for body in self.store.events_since(table.id, table.game.seq):
                    table.game.append(Event.from_dict(body))
            table.forget()
            self._forget_undo(table)
        if head.version != table.version:
            self._reload_record(table)
        self._arm(table)
        self._notify("synced", table, {})

    def _reload_record(self, table: Table) -> None:
        found = self.store.game(table.id)
        if found is None:
            return
        record, version, undo = found
        table.record = record
        table.seats = self.store.seats(table.id)
        table.version = version
        table.forget()
        if table.undo_timer is not None:
            table.undo_timer.cancel()
            table.undo_timer = None
        table.undo_request = UndoRequest.from_json(undo) if undo else None
        if table.undo_request is not None and table.undo_request.seq != table.game.seq:
            table.undo_request = None  # asked at a position the log has left

    def _forget_undo(self, table: Table) -> None:
        if table.undo_timer is not None:
            table.undo_timer.cancel()
        table.undo_request = table.undo_timer = None

    def _load_stored(self, game_id: str) -> Table | None:
        """A game another process created: folded from the store, or None if unknown."""
        if not self.shared or not isinstance(game_id, str) or len(game_id) > 64:
            return None
        found = self.store.game(game_id)
        if found is None:
            return None
        record, version, undo = found
        try:
            game = self._fold(game_id)
        except EngineError:
            log.exception("game %s: its stored log does not fold", game_id)
            return None
        table = self._new_table(record, game, self.store.seats(game_id))
        table.version = version
        if undo:
            request = UndoRequest.from_json(undo)
            table.undo_request = request if request.seq == game.seq else None
        with self._lock:
            table = self._tables.setdefault(game_id, table)
        with table.lock:
            self._arm(table)
            self._notify("synced", table, {})
        self._touch(table)  # a finished game joins the others, parked beyond the most recent
        return table

    def _write_record(self, table: Table, write: Callable[..., Any], *args: Any,
                      **kwargs: Any) -> None:
        """A change of the game's record or seats; on a shared store only if nobody changed
        them since this process read them (else the table is read again and the command
        answered `stale_seq`: look again). The caller holds the lock."""
        if not self.shared:
            write(*args, **kwargs)
            return
        try:
            table.version = write(*args, version=table.version, **kwargs)
        except RecordConflict:
            self._sync(table)
            raise ApiError("stale_seq", "another player changed this game at the same moment; "
                           "look again", latest=table.seq) from None

    #: Every how many refreshes all heads are read, not only those changed since the last.
    FULL_REFRESH = 20

    def refresh(self) -> dict[str, Head]:
        """Load the games other processes created and catch up those that moved (a shared
        store; one query for the heads changed since the last refresh, and every
        FULL_REFRESH-th time for all). Returns the heads read."""
        if not self.shared:
            return {}
        with self._lock:
            self._refreshes += 1
            since = 0 if self._refreshes % self.FULL_REFRESH == 0 else \
                max(0, self._touched - self.store.touch_lookback)
        heads, mark = self.store.heads(since)
        with self._lock:
            self._touched = max(self._touched, mark)
            known = dict(self._tables)
        for game_id, head in heads.items():
            table = known.get(game_id)
            if table is None:
                self._load_stored(game_id)
            elif head.seq != table.seq or head.version != table.version:
                with table.lock:
                    self._sync(table, head)
        return heads

    def scan(self) -> None:
        """Catch every game up and do the work that is due, once for the host: an expired
        takeback request, a flag that fell, a deal. (The bot runner hears `synced` and
        looks at computer seats.) Run every few seconds by each process of a shared host."""
        if self._stopped:
            return
        try:
            self.refresh()
        except StoreUnavailable:
            return  # the database is away: nothing can be done until it is back
        now = time.time()
        running = [t for t in self.tables() if not t.parked and not t.finished]
        self._scan_presence(running)
        for table in running:
            with table.lock:
                request = table.undo_request
                if request is not None and request.expires_at <= now:
                    self._expire_undo(table, request)
                deadline = table.rules.deadline(table.state)
                if deadline is not None and deadline <= now and table.clock_timer is None:
                    self._arm(table)
                self._draw_chance(table)
            self._notify("scanned", table, {})

    # -- memory: finished games ------------------------------------------------------------
    #: Finished games kept folded in memory (the most recently used); older ones are parked:
    #: a summary stays, the `Game` is folded again from the store when someone asks.
    KEEP_FINISHED = 32

    def _touch(self, table: Table) -> None:
        """Note a use of a finished game; park the least recently used beyond KEEP_FINISHED."""
        if table.parked or not table.finished:
            return
        with self._lock:
            self._loaded_finished.pop(table.id, None)
            self._loaded_finished[table.id] = table
            excess = len(self._loaded_finished) - self.KEEP_FINISHED
            oldest = list(self._loaded_finished.values())[:max(excess, 0)]
        for old in oldest:
            if old is table or not old.lock.acquire(blocking=False):
                continue  # in use right now: parked on a later call
            try:
                if old.parked or old.park():
                    self.presence.forget(old.id)
                    with self._lock:
                        if self._loaded_finished.get(old.id) is old:
                            del self._loaded_finished[old.id]
            finally:
                old.lock.release()

    def park_finished(self) -> int:
        """Park every finished game (after start-up, once the ladder has read them)."""
        parked = 0
        for table in self.tables():
            with table.lock:
                parked += table.park()
            with self._lock:
                self._loaded_finished.pop(table.id, None)
        return parked

    # -- lookup ----------------------------------------------------------------------------
    def _scan_presence(self, tables: list[Table]) -> None:
        """Announce the seats whose phones another process lost without saying so (it died:
        its sockets expired), once for the host; one round trip for every seat."""
        many = getattr(self.presence, "connected_many", None)
        if many is None:
            return
        seats = {t.id: t.humans() for t in tables}
        found = many([(t.id, s) for t in tables for s in seats[t.id]])
        if found is None:
            return
        for table in tables:
            seen = tuple(found[(table.id, s)] for s in seats[table.id])
            if table.presence_seen not in (None, seen) and self.once.take(
                    f"presence:{table.id}:{''.join('1' if c else '0' for c in seen)}",
                    JOB_TTL):
                with table.lock:
                    self._notify("presence", table, self.presence_body(table))
            table.presence_seen = seen

    def table(self, game_id: str) -> Table:
        with self._lock:
            table = self._tables.get(game_id)
        if table is None and self.shared:
            table = self._load_stored(game_id)
        if table is None:
            raise ApiError("unknown_game", f"there is no game {game_id!r}", game_id=game_id)
        self._touch(table)
        return table

    def known(self) -> set[str]:
        """The ids of the games this process holds."""
        with self._lock:
            return set(self._tables)

    def tables(self) -> list[Table]:
        with self._lock:
            return list(self._tables.values())

    def _notify(self, kind: str, table: Table, payload: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(kind, table, payload)
            except Exception:  # a broken listener must not undo a committed move
                log.exception("listener failed on %s for game %s", kind, table.id)

    # -- reading ---------------------------------------------------------------------------
    def state(self, game_id: str) -> dict[str, Any]:
        with self.locked(game_id, reading=True) as table:
            return views.game_body(table, self.presence)

    def lobby(self) -> list[dict[str, Any]]:
        try:
            self.refresh()
        except StoreUnavailable:
            pass  # the games this process holds
        result = []
        for table in self.tables():
            with table.lock:
                result.append(views.lobby_entry(table))
        return result

    def events_since(self, game_id: str, since: int) -> list[dict[str, Any]]:
        with self.locked(game_id, reading=True) as table:
            return [e.to_dict() for e in table.game.events_since(max(since, 0))]

    def log_json(self, game_id: str) -> str:
        """The game's JSON log as a record to keep: its `game_created` names each seat as
        the game shows it (`views.seat_names`: who claimed it, "Computer L3")."""
        with self.locked(game_id, reading=True) as table:
            return log_to_json(_named_events(table))

    def export(self, game_id: str, fmt: str) -> tuple[str, str, str]:
        """(game id, text, mimetype) of the game's record in its format `fmt`; no_such_format
        if its game has none by that name."""
        with self.locked(game_id, reading=True) as table:
            rules = table.rules
            spec = rules.formats.get(fmt)
            if spec is None:
                raise ApiError("no_such_format", f"{rules.title} has no .{fmt} records",
                               formats=sorted(rules.formats))
            try:
                named = Game.from_events(_named_events(table))
                return rules.game, rules.export(named, fmt), spec.mimetype
            except EngineError as e:
                raise from_engine(e) from None

    def legal(self, game_id: str, seat: int, query: str | None = None) -> dict[str, Any]:
        """Legal moves of `seat` now (empty when it is not that seat's turn), narrowed by the
        game's legal query (Corner Claim: a piece name) if given."""
        return json.loads(self.legal_json(game_id, seat, query))

    def legal_json(self, game_id: str, seat: int, query: str | None = None) -> bytes:
        """`legal` as compact JSON, built once per (seq, seat, query) from the rules'
        `legal_json`: a phone that asks again, or piece by piece, costs a dict lookup."""
        with self.locked(game_id, reading=True) as table:
            table.seat(seat)
            return table.memo(("legal_json", seat, query),
                              lambda: self._legal_bytes(table, seat, query))

    @staticmethod
    def _legal_bytes(table: Table, seat: int, query: str | None) -> bytes:
        try:
            moves = table.rules.legal_json(table.state, seat, query)
        except EngineError as e:  # a query the game does not know (bad_piece)
            raise from_engine(e) from None
        if table.finished:  # closed by the host: the query was checked, nothing is legal
            moves = b"[]"
        head = json.dumps({"seat": seat, "seq": table.game.seq}, separators=(",", ":"))
        return b"".join((head[:-1].encode(), b',"moves":', moves, b"}"))

    def hint(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        """The move the game's hint suggests for `seat` now (its token required; only on its
        turn). Computed by `hinter` (the bot pool) outside the game's lock, once per seq."""
        with self.locked(game_id, reading=True) as table:
            table.require_seat_token(seat, token)
            rules = table.rules
            if getattr(rules, "hint_level", None) is None:
                raise ApiError("no_hints", f"{rules.title} gives no hints", game=rules.game)
            self._require_playing(table)
            if table.finished:
                raise from_engine(GameOverError("the game is over"))
            if table.to_move != seat:
                raise from_engine(NotYourTurnError(
                    f"it is seat {table.to_move}'s turn, not seat {seat}'s",
                    to_move=table.to_move))
            seq = table.game.seq
            cached = table.memo(("hint", seat), dict)  # filled below once computed
            if cached:
                return cached["body"]
            log_json, state = table.game.to_json(), table.state
        try:
            if self.hinter is not None:
                move = self.hinter(log_json, seat)
            else:
                move = rules.hint(state, seat)
        except EngineError as e:
            raise from_engine(e) from None
        body = {"seat": seat, "seq": seq, "move": move}
        with table.lock:
            if table.game.seq == seq:
                table.memo(("hint", seat), dict)["body"] = body
        return body

    # -- creating and seating --------------------------------------------------------------
    def create(self, variant: str, seats: list[dict[str, Any]], *,
               game: str = DEFAULT_GAME, options: dict[str, Any] | None = None,
               clock: dict[str, int] | None = UNSET,
               given: dict[str, Any] | None = None,
               rematch_of: Table | None = None) -> dict[str, Any]:
        """A new game of `game` (its `variant`, with `options`): checked against the
        variant's seat counts, options and the game's computer levels. `clock` sets the
        variant's clock options (`{reserve_s, increment_s?}`, None: no clock); `given` sets
        options named at the request's top level (`rounds`, `setups`); options not given
        take their defaults, or their `computer_default` when a computer is seated. What
        chance decides at the start (a deal) is drawn and committed at once.
        Returns its id, the host token and the local seats' tokens."""
        try:
            rules = registry.get(game)
        except EngineError as e:
            raise from_engine(e) from None
        variant_spec = rules.variants.get(variant)
        if variant_spec is None:
            raise ApiError("no_such_variant", f"{rules.title} has no variant {variant!r}",
                           game=game, variants=sorted(rules.variants))
        if len(seats) not in variant_spec.seats:
            counts = " or ".join(str(n) for n in variant_spec.seats)
            raise ApiError("invalid_request", f"{variant_spec.label} takes {counts} seats, "
                           f"not {len(seats)}", seats=list(variant_spec.seats))
        options = dict(options or {})
        if clock is not UNSET:
            options = _clock_options(rules.title, variant_spec, options, clock)
        if given:
            options = _given_options(options, given)
        computer = any(seat["kind"] == "computer" for seat in seats)
        try:
            options = variant_spec.option_values(options, computer=computer)
        except EngineError as e:
            raise from_engine(e) from None
        levels = sorted(rules.levels)
        for i, seat in enumerate(seats, start=1):
            if seat["kind"] == "computer" and seat.get("level", 1) not in levels:
                raise ApiError("invalid_request",
                               f"seat {i}: {rules.title} has no computer level "
                               f"{seat.get('level', 1)}", levels=levels)
        if rematch_of is None:
            self._require_room()
        computers = computer_names([seat.get("level", 1) if seat["kind"] == "computer"
                                    else None for seat in seats])
        names = tuple(computers[i] or seat.get("name") or variant_spec.colours[i].capitalize()
                      for i, seat in enumerate(seats))
        try:
            fresh = Game.new(game, variant, names, options)
        except EngineError as e:
            raise from_engine(e) from None
        host_token, host_hash = new_token()
        tokens: dict[int, str] = {}
        records = []
        for i, spec in enumerate(seats, start=1):
            kind = spec["kind"]
            level = spec.get("level", 1) if kind == "computer" else None
            token_hash = None
            if kind == "local":
                tokens[i], token_hash = new_token()
            records.append(SeatRecord(i, kind, spec.get("name"), level, token_hash))
        record = GameRecord(uuid.uuid4().hex[:12], time.time(), variant, host_hash,
                            rematch_of=rematch_of.id if rematch_of else None, game=game)
        if rematch_of is not None:  # same people at the same seats: same credentials
            record.host_hash = rematch_of.record.host_hash
            for new, old in zip(records, rematch_of.seats, strict=True):
                new.token_hash = old.token_hash if old.kind != "computer" else None
        self.store.create_game(record, records, fresh.events[0].to_dict())
        table = self._new_table(record, fresh, records)
        with self._lock:
            self._tables[record.id] = table
        with table.lock:
            self._notify("state", table, {})
            self._draw_chance(table)
        return {"id": record.id, "host_token": host_token,
                "tokens": {str(k): v for k, v in tokens.items()}}

    def _require_room(self) -> None:
        """At most `max_games` unfinished games: each is memory and work for the host."""
        self.refresh()
        unfinished = sum(1 for t in self.tables() if not t.finished)
        if unfinished >= self.max_games:
            raise ApiError("too_many_games", f"this host already has {unfinished} unfinished "
                           "games; finish or close some first", limit=self.max_games)

    def claim(self, game_id: str, seat: int, name: str) -> dict[str, Any]:
        """Claim an open seat with a display name; returns the seat's token. (On a shared
        store, a claim another process saved first makes this one seat_taken, or, if that
        was another change of the game, is tried once more on the game as it is now.)"""
        try:
            return self._claim(game_id, seat, name)
        except ApiError as e:
            if e.code != "stale_seq":
                raise
            return self._claim(game_id, seat, name)

    def _claim(self, game_id: str, seat: int, name: str) -> dict[str, Any]:
        with self.locked(game_id) as table:
            record = table.seat(seat)
            if record.kind != "open":
                raise ApiError("not_open", f"seat {seat} is a {record.kind} seat, not open")
            if record.token_hash or seat in table.left:
                raise ApiError("seat_taken", f"seat {seat} is already taken")
            if table.finished:
                raise ApiError("closed", "this game has finished")
            token, token_hash = new_token()
            updated = SeatRecord(seat, "open", name, None, token_hash)
            self._write_record(table, self.store.update_seat, game_id, updated)
            table.seats[seat - 1] = updated
            self._notify("state", table, {})
            return {"seat": seat, "token": token, "game_id": game_id}

    # -- playing ---------------------------------------------------------------------------
    def _commit(self, table: Table, action: Callable[[Game], Event]) -> dict[str, Any]:
        """Run an engine command on the live game, make its event durable, then announce it;
        then draw and commit what chance makes due after it (a deal), each announced in
        turn. Returns the command's event.

        The engine checks and folds in memory first; if the commit fails the live game is
        rebuilt from its previous events, so memory never runs ahead of the disk.
        """
        body = self._commit_one(table, action)
        self._draw_chance(table)
        return body

    def _draw_chance(self, table: Table) -> None:
        """Commit `Rules.chance`'s events until it returns None; the caller holds the lock.
        A draw that cannot be saved (a full disk) is tried again a little later."""
        if table.closed or table.parked:
            return
        chance = getattr(table.rules, "chance", None)
        if chance is None:
            return
        job = f"chance:{table.id}:{table.game.seq}"
        if self.shared and chance(table.state, random.Random(0)) is None:
            return  # nothing due (asked with a throwaway source: the check draws nothing)
        if not self.once.take(job, JOB_TTL):
            return  # another process draws it; the scan looks again if it died
        try:
            for _ in range(1000):  # a game that never stops drawing is a bug, not a hang
                event = chance(table.state, self.rng)
                if event is None:
                    return
                self._commit_one(table, lambda g, e=event: _appended(g, e))
            log.error("game %s: chance kept drawing; stopped", table.id)
        except ApiError as e:  # the rules refused their own draw: a bug, not worth retrying
            log.error("game %s: chance drew an event its rules refuse: %s", table.id, e.message)
        except SeqConflict:  # another process moved the game on first: nothing to draw here
            self._sync(table)
        except Exception:
            log.exception("game %s: could not commit what chance drew", table.id)
            if not self._stopped:
                timer = threading.Timer(CLOCK_RETRY, self._retry_chance, (table,))
                timer.daemon = True
                timer.start()

    def _retry_chance(self, table: Table) -> None:
        if self._stopped:
            return
        with table.lock:
            self._draw_chance(table)

    def _commit_one(self, table: Table, action: Callable[[Game], Event]) -> dict[str, Any]:
        before = list(table.game.events)
        try:
            event = action(table.game)
        except EngineError as e:
            raise from_engine(e) from None
        try:
            self.store.append(table.id, event.to_dict())
        except SeqConflict:  # another host process on a shared store saved this seq first
            if self.shared:
                table.game = Game.from_events(before)
                table.forget()
                try:
                    self._sync(table)
                except Exception:
                    log.exception("game %s: could not read the store after a seq conflict",
                                  table.id)
                raise
            table.game = self._stored_or(table.id, before)
            table.forget()
            raise
        except BaseException:
            table.game = Game.from_events(before)
            table.forget()
            raise
        self._drop_undo_request(table, reason="moved_on")
        self._arm(table)
        body = event.to_dict()
        self._notify("event", table, body)
        if table.finished:
            self._touch(table)
        return body

    def _stored_or(self, game_id: str, before: list[Event]) -> Game:
        """The game as the store holds it now (the moves another process saved), or as it
        was before the refused append if the store cannot be read either."""
        try:
            return load_game(self.store, game_id)
        except Exception:
            log.exception("game %s: could not read the stored log after a seq conflict", game_id)
            return Game.from_events(before)

    # -- time ------------------------------------------------------------------------------
    def _arm(self, table: Table, *, at_least: float = 0.0) -> None:
        """(Re-)arm the table's one timer at its game's deadline, or none if it has none or
        is finished; the caller holds the lock."""
        old, table.clock_timer = table.clock_timer, None
        if old is not None:
            old.cancel()
        if self._stopped or table.finished:
            return
        deadline = table.rules.deadline(table.state)
        if deadline is None:
            return
        delay = max(deadline - time.time(), at_least) + CLOCK_SLACK

        def fire() -> None:
            self._deadline_reached(table, timer)  # this timer: a re-armed table ignores it

        timer = threading.Timer(delay, fire)
        timer.daemon = True
        table.clock_timer = timer
        timer.start()

    def _deadline_reached(self, table: Table, timer: threading.Timer) -> None:
        with table.lock:
            if table.clock_timer is not timer or self._stopped:
                return  # re-armed or cancelled meanwhile
            table.clock_timer = None
            try:
                self._sync(table)
                deadline = table.rules.deadline(table.state)
                if (self.shared and deadline is not None and deadline <= time.time()
                        and not self.once.take(f"clock:{table.id}:{table.seq}", JOB_TTL)):
                    self._arm(table, at_least=JOB_TTL)  # another process commits the flag
                    return
                self._catch_up(table)
            except ApiError:  # the game ended: nothing more is due
                return
            except Exception:
                log.exception("game %s: could not commit what its clock made due", table.id)
                self._arm(table, at_least=CLOCK_RETRY)
                return
            if table.clock_timer is None:
                self._arm(table)  # not due yet after all (the timer fired early)

    def _catch_up(self, table: Table) -> None:
        """Commit what the game's clock has made due by now (a flag that fell) before a
        command runs on it; game_over if that ended the game. The caller holds the lock."""
        if table.finished:
            return
        rules, state = table.rules, table.state
        deadline = rules.deadline(state)
        now = time.time()
        if deadline is None or deadline > now:
            return
        event = rules.expire(state, now)
        if event is None:
            return
        self._commit(table, lambda g: _appended(g, event))
        if table.finished:
            raise from_engine(GameOverError("the game is over: the time ran out",
                                            seq=table.game.seq))

    def _require_playing(self, table: Table) -> None:
        if table.closed:
            raise ApiError("closed", "the host closed this game")
        if table.status == "open" and not table.over:
            raise ApiError("not_started", "waiting for open seats to be claimed",
                           open_seats=table.unclaimed())

    def move(self, game_id: str, seat: int, move: str, seq: int, token: str | None) -> dict:
        with self.locked(game_id) as table:
            table.require_seat_token(seat, token)
            self._require_playing(table)
            self._catch_up(table)
            return self._commit(table, lambda g: g.play(seat, move, seq=seq, now=time.time()))

    def act(self, game_id: str, seat: int, action: str, seq: int,
            token: str | None) -> dict[str, Any]:
        """One of the game's own actions (its catalog's `actions`: resign, offer a draw…)."""
        with self.locked(game_id) as table:
            table.require_seat_token(seat, token)
            self._require_playing(table)
            rules = table.rules
            actions = list(getattr(rules, "actions", ()))
            if action not in actions:
                raise ApiError("no_such_action", f"{rules.title} has no action {action!r}",
                               actions=actions)
            self._catch_up(table)
            return self._commit(table, lambda g: g.act(seat, action, seq=seq, now=time.time()))

    def bot_move(self, game_id: str, seat: int, move: str, seq: int) -> dict | None:
        """A computer seat's placement, computed for `seq`; None if the game moved on."""
        with self.locked(game_id) as table:
            if table.seat(seat).kind != "computer" or table.finished or table.status != "running":
                return None
            try:
                self._catch_up(table)
                return self._commit(table, lambda g: g.play(seat, move, seq=seq, now=time.time()))
            except ApiError as e:
                if e.code not in ("stale_seq", "not_your_turn", "game_over"):
                    log.warning("game %s: bot move %s refused: %s", game_id, move, e.message)
                return None

    def bot_act(self, game_id: str, seat: int, action: str, seq: int) -> dict | None:
        """A computer seat's own action (`Rules.computer_action`: declining a draw offered
        to it), decided at `seq`; None if the game moved on or the rules no longer want it."""
        with self.locked(game_id) as table:
            if table.seat(seat).kind != "computer" or table.finished or table.status != "running":
                return None
            try:
                self._catch_up(table)
                return self._commit(table, lambda g: g.act(seat, action, seq=seq, now=time.time()))
            except ApiError as e:
                if e.code not in ("stale_seq", "game_over"):
                    log.warning("game %s: computer action %s refused: %s", game_id, action,
                                e.message)
                return None

    def leave(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        with self.locked(game_id) as table:
            table.require_seat_token(seat, token)
            if table.closed:
                raise ApiError("closed", "the host closed this game")
            self._catch_up(table)
            event = self._commit(table, lambda g: g.leave(seat, now=time.time()))
            self._replace_leaver(table, seat)
            return event

    def _replace_leaver(self, table: Table, seat: int) -> None:
        """Seat a computer for `seat`, which left, if its game goes on with it played
        (`Rules.replacement_level`): stored, then announced. The caller holds the lock."""
        if table.finished:
            return
        replacement = getattr(table.rules, "replacement_level", None)
        level = None if replacement is None else replacement(table.state, seat)
        record = table.seat(seat)
        if level is None or (record.kind == "computer" and record.level == level):
            return
        updated = SeatRecord(seat, "computer", record.name, level, None)
        try:
            self._write_record(table, self.store.update_seat, table.id, updated)
        except Exception:  # the leave stands; the next start-up seats the computer
            log.exception("game %s: could not seat a computer for seat %s", table.id, seat)
            return
        table.seats[seat - 1] = updated
        self._notify("state", table, {})

    def declare_left(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        """The host or another seated player declares an away seat left after the grace."""
        with self.locked(game_id) as table:
            record = table.seat(seat)
            if not table.is_host(token):
                others = [s for s in table.seats_of(token) if s != seat]
                if not token:
                    raise ApiError("unauthorized", "this needs a seat or host token")
                if not any(s in table.humans() for s in others):
                    raise ApiError("forbidden", "only the host or another seated player may")
            if record.kind == "computer":
                raise ApiError("not_away", f"seat {seat} is a computer; remove it instead")
            unclaimed = seat in table.unclaimed()
            if not unclaimed and self.presence.connected(game_id, seat):
                raise ApiError("not_away", f"seat {seat} is connected")
            away = self.presence.away_for(game_id, seat)
            if not unclaimed and away < self.away_grace:
                wait = round(self.away_grace - away, 1)
                raise ApiError("grace_period", f"seat {seat} has been away {away:.0f} s; "
                               f"wait {wait:.0f} s more", seconds_left=wait)
            if table.closed:
                raise ApiError("closed", "the host closed this game")
            if unclaimed and len(table.seats) == 2:
                raise ApiError("never_claimed", f"seat {seat} was never claimed: in a "
                               "two-seat game declaring it left would hand the other seat "
                               "the win. Seat a computer there, or close the game (it is "
                               "then cancelled)", status=409, seat=seat)
            self._catch_up(table)
            event = self._commit(table, lambda g: g.leave(seat, now=time.time()))
            self._replace_leaver(table, seat)
            return event

    # -- undo ------------------------------------------------------------------------------
    def undo(self, game_id: str, seat: int, seq: int, token: str | None, *,
             device_tokens: Iterable[str] = ()) -> dict[str, Any]:
        """Take back the seat's latest placement: at once if every other person at the table
        sits at the requester's device (`Table.same_device`, or a seat one of
        `device_tokens`, the device's other tokens, holds), else as a request that every
        person at another device must accept; computers are not asked (see docs/api.md)."""
        with self.locked(game_id) as table:
            table.require_seat_token(seat, token)
            self._require_playing(table)
            self._catch_up(table)
            if table.over:
                raise from_engine(GameOverError("the game is over: no more takebacks"))
            mine = {s for t in device_tokens for s in table.seats_of(t)}
            others = [s for s in table.humans()
                      if not table.same_device(seat, s) and s not in mine]
            if not others:
                event = self._commit(table, lambda g: g.undo(seat, seq=seq, now=time.time()))
                return {"event": event, "undo_request": None}
            if table.undo_request is not None:
                raise ApiError("undo_pending", "a takeback is already waiting for an answer",
                               undo_request=table.undo_request.to_dict())
            if seq != table.game.seq:
                raise from_engine(StaleSeqError(
                    f"the game has moved on: you acted on {seq}, the latest is "
                    f"{table.game.seq}", latest=table.game.seq))
            try:
                table.game.rules.undo(table.state, seat, now=time.time())  # anything to take back?
            except EngineError as e:
                raise from_engine(e) from None
            request = UndoRequest(seat, seq, others, expires_in=self.undo_timeout,
                                  expires_at=time.time() + self.undo_timeout)
            self._save_undo(table, request)
            table.undo_request = request
            timer = threading.Timer(self.undo_timeout, self._expire_undo, (table, request))
            timer.daemon = True
            table.undo_timer = timer
            timer.start()
            self._notify("undo_request", table, {"undo_request": request.to_dict()})
            return {"event": None, "undo_request": request.to_dict()}

    def undo_answer(self, game_id: str, seat: int, accept: bool,
                    token: str | None) -> dict[str, Any]:
        with self.locked(game_id) as table:
            table.require_seat_token(seat, token)
            request = table.undo_request
            if request is None or seat not in request.waiting:
                raise ApiError("no_undo_request", f"no takeback is waiting for seat {seat}")
            if not accept:
                self._save_undo(table, None)
                self._drop_undo_request(table, reason="declined", by=seat)
                return {"event": None, "undo_request": None}
            request = dataclasses.replace(
                request, waiting=[s for s in request.waiting if s != seat],
                accepted=[*request.accepted, seat])
            if request.waiting:
                self._save_undo(table, request)
            table.undo_request = request
            if request.waiting:
                self._notify("undo_request", table, {"undo_request": request.to_dict()})
                return {"event": None, "undo_request": request.to_dict()}
            self._catch_up(table)
            event = self._commit(table, lambda g: g.undo(request.seat, seq=request.seq,
                                                            now=time.time()))
            return {"event": event, "undo_request": None}

    def _expire_undo(self, table: Table, request: UndoRequest) -> None:
        with table.lock:
            try:
                self._sync(table)
                if table.undo_request is None or \
                        table.undo_request.key() != request.key():
                    return
                self._save_undo(table, None)  # one process wins; the others read it
            except Exception:
                log.info("game %s: the takeback request's timeout went to another process "
                         "or the store is away", table.id)
                return
            self._drop_undo_request(table, reason="timeout")

    def _save_undo(self, table: Table, request: UndoRequest | None) -> None:
        """Keep the pending takeback request on a shared store's record (the caller holds
        the lock): every process answers it and times it out."""
        if self.shared:
            self._write_record(table, self.store.set_undo_request, table.id,
                               None if request is None else request.to_json(),
                               seq=table.game.seq)

    def _drop_undo_request(self, table: Table, *, reason: str, by: int | None = None) -> None:
        if table.undo_request is None:
            return
        if table.undo_timer is not None:
            table.undo_timer.cancel()
        dropped = table.undo_request
        table.undo_request = table.undo_timer = None
        self._notify("undo_request", table, {"undo_request": None, "dropped": dropped.to_dict(),
                                             "reason": reason, "by": by})

    # -- host actions ----------------------------------------------------------------------
    def close(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Host only: end the game before its rules do. It is abandoned: nobody wins and
        nothing counts (`engine.rules.outcome_of`); a game still waiting for players to
        take their seats is cancelled. Closing a finished game changes nothing."""
        with self.locked(game_id) as table:
            table.require_host(token)
            if not table.finished:
                reason = "cancelled" if table.status == "open" else "closed"
                self._drop_undo_request(table, reason="closed")
                self._commit(table, lambda g: g.close(reason))
                self._mark_closed(table)
            return views.game_body(table, self.presence)

    def _mark_closed(self, table: Table) -> None:
        """Mirror a closed log on the game's record (the store's lists of games read it)."""
        if table.record.closed:
            return
        try:
            self._write_record(table, self.store.set_closed, table.id)
        except Exception:  # the log says it is closed: that is what counts
            log.exception("game %s: could not mark the game closed in the store", table.id)
            return
        table.record.closed = True

    def seat_computer(self, game_id: str, seat: int, level: int,
                      token: str | None) -> dict[str, Any]:
        """Host only: a computer at `level` takes an open seat nobody has claimed (the
        opponent who never arrived); the game starts once no seat waits."""
        with self.locked(game_id) as table:
            table.require_host(token)
            record = table.seat(seat)
            if table.finished:
                raise ApiError("closed", "this game has finished")
            if seat not in table.unclaimed():
                raise ApiError("not_open", f"seat {seat} is not an open seat waiting for a "
                               "player", seat=seat)
            levels = sorted(table.rules.levels)
            if level not in levels:
                raise ApiError("invalid_request", f"{table.rules.title} has no computer "
                               f"level {level}", levels=levels)
            updated = SeatRecord(seat, "computer", record.name, level, None)
            self._write_record(table, self.store.update_seat, game_id, updated)
            table.seats[seat - 1] = updated
            self._notify("state", table, {})
            return views.game_body(table, self.presence)

    def remove_computer(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        """Turn a computer seat into an open seat a person can claim (the game waits)."""
        with self.locked(game_id) as table:
            table.require_host(token)
            record = table.seat(seat)
            if record.kind != "computer":
                raise ApiError("not_computer", f"seat {seat} is not a computer")
            if table.finished:
                raise ApiError("closed", "this game has finished")
            if seat in table.left:
                raise ApiError("seat_left", f"seat {seat} has left: the computer plays it "
                               "for the rest of the game")
            updated = SeatRecord(seat, "open", None, None, None)
            self._write_record(table, self.store.update_seat, game_id, updated)
            table.seats[seat - 1] = updated
            self._notify("state", table, {})
            return views.game_body(table, self.presence)

    def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The rematch's id: created by the first seat (or host) to ask, shared by the rest."""
        with self.locked(game_id) as table:
            if not table.is_host(token) and not table.seats_of(token):
                if not token:
                    raise ApiError("unauthorized", "a rematch needs a seat or host token")
                raise ApiError("forbidden", "only the players or the host may ask for a rematch")
            if table.record.rematch_id:
                return {"id": table.record.rematch_id, "created": False}
            if not table.finished:
                raise ApiError("not_finished", "the game is still being played")
            specs = [{"kind": s.kind, "name": None if s.kind == "computer" else s.name,
                      "level": s.level or 1} for s in table.seats]  # a computer: its own name
            variant = registry.get(table.record.game).variants[table.record.variant]
            created = self.create(table.record.variant, specs, game=table.record.game,
                                  options=variant.rematch_options(table.options),
                                  rematch_of=table)
            try:
                self._write_record(table, self.store.link_rematch, game_id, created["id"])
            except ApiError:  # another process linked its rematch first: that one it is
                self._cancel(created["id"])
                if table.record.rematch_id:
                    return {"id": table.record.rematch_id, "created": False}
                raise
            table.record.rematch_id = created["id"]
            self._notify("state", table, {})
            return {"id": created["id"], "created": True}

    def _cancel(self, game_id: str) -> None:
        """Close a game this process just made and nobody will play (a rematch another
        process made at the same moment)."""
        try:
            with self.locked(game_id) as table:
                self._commit(table, lambda g: g.close("cancelled"))
                self._mark_closed(table)
        except Exception:
            log.exception("game %s: could not cancel a rematch made twice", game_id)

    # -- presence --------------------------------------------------------------------------
    def join(self, sid: str, game_id: str, tokens: list[str]) -> list[int]:
        """A socket joins a game; returns the seats its tokens hold (none for a spectator)."""
        with self.locked(game_id) as table:
            seats = sorted({s for t in tokens for s in table.seats_of(t)})
            for seat in seats:
                self.presence.connect(sid, game_id, seat)
            if seats:
                self._notify("presence", table, self.presence_body(table))
            return seats

    def unjoin(self, sid: str, game_id: str) -> None:
        """A socket leaves a game (its phone went back to the lobby or on to the rematch):
        its seats there lose this socket, as if it had disconnected from that game only."""
        if self.presence.release(sid, game_id):
            self._presence_changed(game_id)

    def disconnect(self, sid: str) -> None:
        for game_id in self.presence.disconnect(sid):
            self._presence_changed(game_id)

    def _presence_changed(self, game_id: str) -> None:
        try:
            table = self.table(game_id)
        except ApiError:
            return
        with table.lock:
            self._notify("presence", table, self.presence_body(table))

    def presence_body(self, table: Table) -> dict[str, Any]:
        return views.presence_body(table, self.presence)


class _Synced:
    """`GameService.locked` on a shared store: the lock, then the catch-up."""

    __slots__ = ("service", "table", "reading")

    def __init__(self, service: GameService, table: Table, reading: bool) -> None:
        self.service, self.table, self.reading = service, table, reading

    def __enter__(self) -> Table:
        self.table.lock.acquire()
        try:
            self.service._sync(self.table)
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


def _named_events(table: Table) -> list[Event]:
    """The game's log with its `game_created` naming the seats as the game shows them (the
    names given at creation may since have changed: a seat claimed, a computer seated)."""
    events = list(table.game.events)
    events[0] = dataclasses.replace(events[0], players=views.seat_names(table))
    return events


def _appended(game: Game, event: Event) -> Event:
    """Append an event the rules gave outside a command (a flag fall, a clock resumed)."""
    game.append(event)
    return event


def _given_options(options: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """`options` with those a create request names at its top level (`rounds`, `setups`);
    invalid_request if `options` sets one of them too."""
    both = sorted(set(given) & set(options))
    if both:
        raise ApiError("invalid_request", f"{both[0]} is set both at the top level and in "
                       "options", option=both[0])
    return {**options, **given}


def _clock_options(title: str, variant, options: dict[str, Any],
                   clock: dict[str, int] | None) -> dict[str, Any]:
    """`options` with the clock options a create request's `clock` sets; bad_option if the
    variant has no clock, invalid_request if `options` sets them too."""
    names = {o.name for o in variant.options}
    if not set(CLOCK_OPTIONS) <= names:
        raise ApiError("bad_option", f"{title} {variant.label} is played without a clock",
                       options=sorted(names))
    given = {"reserve_s": 0} if clock is None else dict(clock)
    both = sorted(set(given) & set(options))
    if both:
        raise ApiError("invalid_request", f"{both[0]} is set by both clock and options",
                       option=both[0])
    return {**options, **given}
