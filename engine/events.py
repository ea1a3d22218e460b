"""The events every game shares and the JSON log they are kept in.

An event is frozen and past-tense: something that happened to a game. A game module defines
its own event types (`@event_type`) beside the shared ones here: `GameCreated`, `PlayerLeft`,
`MoveTakenBack` and `GameClosed`, the host's decision to end a game before its rules end it.
`engine.core.Game` keeps the log and folds it; this module knows no game and no rules.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any, ClassVar

from . import boundedjson
from .errors import LogError

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
