"""The game-agnostic parts: events, the log, the fold and the rules interface.

Nothing here knows any one game. A game module supplies a `Rules` object (`engine.rules`)
and registers its own event types; `Game` keeps the log, checks `seq`, and folds events into
state through the rules `engine.registry` holds for the log's game.

Events are frozen and past-tense. A command (`Rules.play_move`, `.undo`, `.leave`) checks the
current state and returns the event it would append, or raises; `Rules.apply` folds an event
into a new state, checking it again so a log loaded from disk is held to the same rules.
Derived facts (an automatic skip, the end of the game) are never events.

Closing is the one event every game shares that no game's rules fold: `GameClosed`, the
host's decision to end a game before its rules end it. `Game` keeps it beside the rules'
state (which stays as it stood) and refuses every event after it; the game is then
abandoned (`engine.rules.outcome_of`: nobody wins, nothing counts).
"""

from __future__ import annotations

import json
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any, ClassVar, Generic, TypeVar

from . import boundedjson
from .capabilities import Actions, ApplyMove, capability
from .errors import EngineError, GameOverError, LogError, StaleSeqError

FORMAT_VERSION = 1
#: The largest whole number an event field holds: a JavaScript number's exact range, so a
#: browser reads every one as written.
MAX_INT = 2**53 - 1
#: The latest host time an event may record (`at_ms`, ms since 1970, UTC): the last
#: millisecond of the year 9999, the last a date in a record can name.
MAX_AT_MS = 253_402_300_799_999

#: Every event type by its name (`TYPE`). The naming rule: an event's type says what happened,
#: in the past tense, in snake case; the events every game shares (here) have no prefix
#: (`player_left`), a game's own events start with its game id (`corners_flag_fell`,
#: `cornerclaim_piece_placed`), so no two games' events can share a name.
EVENT_TYPES: dict[str, type[Event]] = {}
#: Names an event type was written under before it followed the rule, still read from the
#: logs that have them: old name -> its class.
EVENT_ALIASES: dict[str, type[Event]] = {}


def event_type(cls=None, *, aliases: tuple[str, ...] = ()):
    """Class decorator: register an event class under its `TYPE` for JSON loading, and under
    each of `aliases` (its old names) for reading only: `@event_type` or
    `@event_type(aliases=("piece_placed",))`."""
    def register(cls):
        for name in (cls.TYPE, *aliases):
            if name in EVENT_TYPES or name in EVENT_ALIASES:
                raise ValueError(f"event type {name} registered twice")
        EVENT_TYPES[cls.TYPE] = cls
        for name in aliases:
            EVENT_ALIASES[name] = cls
        return cls

    return register if cls is None else register(cls)


@dataclass(frozen=True, kw_only=True)
class Event:
    """Something that happened to a game. `seq` is 1, 2, 3… within the game, without gaps."""

    TYPE: ClassVar[str] = "event"
    seq: int

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k, v in d.items():
            if isinstance(v, tuple):
                d[k] = list(v)
        return {"type": self.TYPE, **d}

    @staticmethod
    def from_dict(data: Any) -> Event:
        """Build an event from its JSON dict; raises LogError on anything malformed."""
        if not isinstance(data, dict):
            raise LogError(f"an event must be an object, not {type(data).__name__}")
        name = data.get("type")
        cls = EVENT_TYPES.get(name) or EVENT_ALIASES.get(name)  # type: ignore[arg-type]
        if cls is None:
            raise LogError(f"unknown event type {data.get('type')!r}")
        names = {f.name: f for f in fields(cls)}
        extra = set(data) - set(names) - {"type"}
        missing = {n for n, f in names.items() if n not in data
                   and f.default is MISSING and f.default_factory is MISSING}
        if extra or missing:
            what = f"missing {sorted(missing)}" if missing else f"unexpected {sorted(extra)}"
            raise LogError(f"event {cls.TYPE} is {what}")
        kwargs = {}
        for name, f in names.items():
            if name not in data:
                continue
            value = data[name]
            kwargs[name] = _check_field(cls.TYPE, name, f.type, value)
        return cls(**kwargs)


def _check_field(type_name: str, name: str, annotation: Any, value: Any) -> Any:
    """`value` checked against the field's type; a whole number also against its range
    (`MAX_INT`; `at_ms`: 0 to `MAX_AT_MS`). LogError names the event and the field."""
    ann = str(annotation)
    shown = repr(value) if not isinstance(value, (str, list, dict)) or len(value) < 40 \
        else f"of {type(value).__name__} length {len(value)}"
    bad = LogError(f"event {type_name}: field {name} has a bad value {shown}",
                   field=name)
    if ann in ("int", "int | None"):
        if value is None and ann == "int | None":
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad
        low, high = (0, MAX_AT_MS) if name == "at_ms" else (-MAX_INT, MAX_INT)
        if not low <= value <= high:
            raise LogError(f"event {type_name}: field {name} is {value}, out of its range "
                           f"({low} to {high})", field=name, low=low, high=high)
    elif ann == "str":
        if not isinstance(value, str):
            raise bad
    elif ann.startswith("tuple[str"):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad
        value = tuple(value)
    elif ann.startswith("dict"):
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise bad
    return value


@event_type
@dataclass(frozen=True, kw_only=True)
class GameCreated(Event):
    """A new game: which game and variant, the players' display names in seat order, and
    the variant's options (every one, defaults filled in; a log without them had none)."""

    TYPE: ClassVar[str] = "game_created"
    game: str
    variant: str
    players: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.seq, self.game, self.variant, self.players))


@event_type
@dataclass(frozen=True, kw_only=True)
class PlayerLeft(Event):
    """A seat left the table (in a two-seat game: resigned)."""

    TYPE: ClassVar[str] = "player_left"
    seat: int


@event_type
@dataclass(frozen=True, kw_only=True)
class MoveTakenBack(Event):
    """Undo: the move at `from_seq` and every move after it no longer count.

    The taken-back events stay in the log; the fold skips them.
    """

    TYPE: ClassVar[str] = "move_taken_back"
    seat: int
    from_seq: int


#: Why a game was closed: "closed" (the host ended it before its end) or "cancelled" (the
#: host ended it while it still waited for players to take their seats).
CLOSE_REASONS = ("closed", "cancelled")


@event_type
@dataclass(frozen=True, kw_only=True)
class GameClosed(Event):
    """The host closed the game before its rules ended it (`reason`: one of CLOSE_REASONS).
    Nothing may follow it; the game's own state stays as it stood."""

    TYPE: ClassVar[str] = "game_closed"
    reason: str = "closed"


S = TypeVar("S")

#: game id -> its rules (`engine.rules.Rules`), filled by `engine.registry`.
RULES: dict[str, Any] = {}
#: Called once when a log names a game not in RULES yet (the registry's loading of the
#: built-in games, installed by `engine.registry` when the engine package is imported).
LOAD_GAMES: list[Any] = []


def rules_for(game: str):
    """The rules of `game`; LogError if no game of that id is registered."""
    if game not in RULES:
        for load in LOAD_GAMES:
            load()
    try:
        return RULES[game]
    except KeyError:
        raise LogError(f"unknown game {game!r}") from None


class Game(Generic[S]):
    """One game's log and its current state (the fold of the log).

    `play`, `undo` and `leave` take the `seq` the client acted on (optional) and refuse with
    StaleSeqError if the log has moved on; each appends exactly one event or raises.
    """

    #: Every this many events the state is kept, so `state_at` refolds at most this many
    #: events while memory stays a small fraction of one state per event.
    SNAPSHOT_EVERY = 16

    def __init__(self, rules: Any, created: GameCreated, initial: S) -> None:
        self.rules = rules
        self._events: list[Event] = [created]
        self._state = initial
        self._snapshots: dict[int, S] = {created.seq: initial}
        self._last_read: tuple[int, S] = (created.seq, initial)  # speeds up stepping forward
        self._closed: GameClosed | None = None

    @classmethod
    def new(cls, game: str, variant: str, players: tuple[str, ...] = (),
            options: dict[str, Any] | None = None) -> Game:
        created = GameCreated(seq=1, game=game, variant=variant, players=tuple(players),
                              options=dict(options or {}))
        rules = rules_for(game)
        return cls(rules, created, rules.initial_state(created))

    @classmethod
    def from_events(cls, events) -> Game:
        """Fold a whole log; raises LogError if it is empty, out of order or breaks a rule."""
        events = list(events)
        if not events or not isinstance(events[0], GameCreated):
            raise LogError("a game log must start with game_created")
        first = events[0]
        if first.seq != 1:
            raise LogError(f"the first event must have seq 1, not {first.seq}")
        rules = rules_for(first.game)
        try:
            game = cls(rules, first, rules.initial_state(first))
        except EngineError as e:
            raise LogError(f"event 1: {e.message}") from e
        for event in events[1:]:
            try:
                game.append(event)
            except LogError:
                raise
            except EngineError as e:
                raise LogError(f"event {event.seq}: {e.message}") from e
        return game

    # -- reading ---------------------------------------------------------------------------
    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def seq(self) -> int:
        return self._events[-1].seq

    @property
    def state(self) -> S:
        return self._state

    @property
    def closed(self) -> GameClosed | None:
        """The event that closed the game, or None."""
        return self._closed

    def closed_at(self, seq: int) -> GameClosed | None:
        """The closing event if the game was closed by event `seq` (at or before it)."""
        closed = self._closed
        return closed if closed is not None and closed.seq <= seq else None

    def state_at(self, seq: int) -> S:
        """The state right after event `seq` (1 ≤ seq ≤ self.seq).

        Refolds from the nearest kept snapshot (or the last state read, when stepping
        forward): at most `SNAPSHOT_EVERY` events, O(1) per step when walking a replay.
        """
        if not 1 <= seq <= self.seq:
            raise EngineError(f"no event {seq} in this game (1 to {self.seq})")
        if seq == self.seq:
            return self._state
        base = seq - (seq - 1) % self.SNAPSHOT_EVERY
        state = self._snapshots[base]
        last_seq, last_state = self._last_read
        if base <= last_seq <= seq:
            base, state = last_seq, last_state
        for event in self._events[base:seq]:
            if not isinstance(event, GameClosed):
                state = self.rules.apply(state, event)
        self._last_read = (seq, state)
        return state

    def events_since(self, seq: int) -> list[Event]:
        return self._events[max(seq, 0):]

    # -- changing --------------------------------------------------------------------------
    def append(self, event: Event, *, move: Any = None) -> S:
        """Fold `event` in. Its seq must be exactly the last seq + 1. `move`: the game's move
        value `check_move` gave for the event (a move made here, `play`), so a game that
        declares `ApplyMove` folds it without checking it again; None, or a game without
        that capability, checks the event in full (`Rules.apply`)."""
        if isinstance(event, GameCreated):
            raise LogError(f"event {event.seq}: game_created may only be the first event")
        if event.seq != self.seq + 1:
            raise LogError(f"event seq {event.seq} out of order (expected {self.seq + 1})")
        if self._closed is not None:
            raise GameOverError("the host closed this game")
        if isinstance(event, GameClosed):
            self._check_close(event)
            state = self._state
            self._closed = event
        elif move is not None and (fold := capability(self.rules, ApplyMove)) is not None:
            state = fold.apply_move(self._state, event, move)
        else:
            state = self.rules.apply(self._state, event)
        self._events.append(event)
        self._state = state
        if (event.seq - 1) % self.SNAPSHOT_EVERY == 0:
            self._snapshots[event.seq] = state
        return state

    def _check_close(self, event: GameClosed) -> None:
        if event.reason not in CLOSE_REASONS:
            raise LogError(f"event {event.seq}: a game is closed for one of "
                           f"{', '.join(CLOSE_REASONS)}, not {event.reason!r}")
        if self.rules.is_over(self._state):
            raise GameOverError("the game is over: there is nothing to close")

    def _check_seq(self, seq: int | None) -> None:
        """Before a command: the game is not closed, and `seq` (if given) is the latest."""
        if self._closed is not None:
            raise GameOverError("the host closed this game")
        if seq is not None and seq != self.seq:
            raise StaleSeqError(
                f"the game has moved on: you acted on {seq}, the latest is {self.seq}",
                latest=self.seq,
            )

    def play(self, seat: int, move: str, *, seq: int | None = None,
             now: float | None = None) -> Event:
        """A move: checked once into the game's move value (`check_move`), made an event
        (`play_move`) and folded without checking it again (`ApplyMove`, if the game has it)."""
        self._check_seq(seq)
        rules, state = self.rules, self.state
        value = rules.check_move(state, seat, move, now=now)
        event = rules.play_move(state, seat, value, now=now)
        self.append(event, move=value)
        return event

    def undo(self, seat: int, *, seq: int | None = None, now: float | None = None) -> Event:
        self._check_seq(seq)
        return self._append_new(self.rules.undo(self.state, seat, now=now))

    def leave(self, seat: int, *, seq: int | None = None, now: float | None = None) -> Event:
        self._check_seq(seq)
        return self._append_new(self.rules.leave(self.state, seat, now=now))

    def act(self, seat: int, action: str, *, seq: int | None = None,
            now: float | None = None) -> Event:
        """A game's own action (resign, offer a draw…: the `Actions` capability's `actions`);
        EngineError if the game has no actions."""
        self._check_seq(seq)
        actions = capability(self.rules, Actions)
        if actions is None:
            raise EngineError(f"{self.rules.title} has no action {action!r}", actions=[])
        return self._append_new(actions.act(self.state, seat, action, now=now))

    def close(self, reason: str = "closed", *, seq: int | None = None) -> Event:
        """The host ends the game before its rules do: it is abandoned (`reason`: one of
        CLOSE_REASONS). GameOverError if it is over or closed already."""
        self._check_seq(seq)
        return self._append_new(GameClosed(seq=self.seq + 1, reason=reason))

    def _append_new(self, event: Event) -> Event:
        self.append(event)
        return event

    # -- JSON ------------------------------------------------------------------------------
    def to_json(self) -> str:
        return log_to_json(self._events)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        return cls.from_events(log_from_json(text))


def log_to_json(events) -> str:
    return json.dumps(
        {"format": "cornerclaim-log", "version": FORMAT_VERSION,
         "events": [e.to_dict() for e in events]},
        indent=None, separators=(",", ":"),
    )


def log_from_json(text: str | bytes) -> list[Event]:
    """Parse a JSON log; raises LogError on bad JSON (nesting or numbers past
    `boundedjson`'s limits among it), a wrong version or a bad event."""
    try:
        data = boundedjson.loads(text)
    except boundedjson.JsonLimitError as e:
        raise LogError(f"not a JSON game log: {e.message}") from None
    if not isinstance(data, dict) or data.get("format") != "cornerclaim-log":
        raise LogError("not a Corner Claim game log (format is not cornerclaim-log)")
    if data.get("version") != FORMAT_VERSION:
        raise LogError(f"unsupported log version {data.get('version')!r} (this host reads 1)")
    events = data.get("events")
    if not isinstance(events, list):
        raise LogError("the log has no list of events")
    return [Event.from_dict(e) for e in events]
