"""Corner's events besides the shared ones (`engine.core`): a round's deal and a move."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..events import Event, event_type


@event_type
@dataclass(frozen=True, kw_only=True)
class RoundDealt(Event):
    """Round `round` starts with `setup`: 36 letters (a1…f1, a2…f2, up to f6) of `YRGBWSK`."""

    TYPE: ClassVar[str] = "marbles_round_dealt"
    round: int
    setup: str


@event_type
@dataclass(frozen=True, kw_only=True)
class Moved(Event):
    """`seat` moved its arrow: `move` is a line (`c`, `4`) for a round's opening placement,
    else the cell it took (`c4`)."""

    TYPE: ClassVar[str] = "marbles_moved"
    seat: int
    move: str
