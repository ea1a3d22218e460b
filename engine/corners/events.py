"""Corners' events besides the shared ones (`engine.core`): a move, the clock's, and the
actions a seat may take (resign, offer, accept or decline a draw), with the host's clock as
whole milliseconds (`at_ms`) in each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..events import Event, event_type
from . import errors as E

ACTIONS = ("resign", "offer_draw", "accept_draw", "decline_draw")


@event_type
@dataclass(frozen=True, kw_only=True)
class Moved(Event):
    """A seat moved a piece: `move` is its canonical path (c3-e3-e5); `at_ms` the host's
    clock in milliseconds when it was made (None: no time passes, as in analysis)."""

    TYPE: ClassVar[str] = "corners_moved"
    seat: int
    move: str
    at_ms: int | None = None


@event_type
@dataclass(frozen=True, kw_only=True)
class ClockResumed(Event):
    """The host started again: the running clock restarts at `at_ms`, the time since it last
    started (the host was down) not charged."""

    TYPE: ClassVar[str] = "corners_clock_resumed"
    at_ms: int


@event_type
@dataclass(frozen=True, kw_only=True)
class FlagFell(Event):
    """`seat`'s time ran out (noticed by the host at `at_ms`): it loses."""

    TYPE: ClassVar[str] = "corners_flag_fell"
    seat: int
    at_ms: int


@event_type
@dataclass(frozen=True, kw_only=True)
class Resigned(Event):
    TYPE: ClassVar[str] = "corners_resigned"
    seat: int
    at_ms: int | None = None


@event_type
@dataclass(frozen=True, kw_only=True)
class DrawOffered(Event):
    TYPE: ClassVar[str] = "corners_draw_offered"
    seat: int
    at_ms: int | None = None


@event_type
@dataclass(frozen=True, kw_only=True)
class DrawAccepted(Event):
    TYPE: ClassVar[str] = "corners_draw_accepted"
    seat: int
    at_ms: int | None = None


@event_type
@dataclass(frozen=True, kw_only=True)
class DrawDeclined(Event):
    TYPE: ClassVar[str] = "corners_draw_declined"
    seat: int
    at_ms: int | None = None


#: A replay's words for the events besides moves: (kind, text with the seat left out).
STEP_WORDS = {FlagFell: ("timeout", "ran out of time"), Resigned: ("resigned", "resigned"),
              DrawOffered: ("draw_offered", "offered a draw"),
              DrawAccepted: ("draw_agreed", "accepted the draw offer"),
              DrawDeclined: ("draw_declined", "declined the draw offer"),
              ClockResumed: ("clock_resumed", "The host restarted the clock")}
ACTION_EVENTS = {"resign": Resigned, "offer_draw": DrawOffered, "accept_draw": DrawAccepted,
                 "decline_draw": DrawDeclined}


def to_ms(now: float | None) -> int | None:
    """The host's clock (seconds) as whole milliseconds."""
    return None if now is None else int(round(now * 1000))


def check_ms(value, what: str) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                              or value < 0):
        raise E.LogError(f"{what}: at_ms must be a whole number of milliseconds, not {value!r}")

