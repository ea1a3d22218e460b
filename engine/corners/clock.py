"""Corners' clock, the `Clocked` capability: the host's timer is armed at `deadline`, the
flag falls by `expire`, a restarted host resumes the running clock (`resume`); and the
`Takebacks` capability it brings, a rated game with a clock taking none. The fold of the
clock's events is here too."""

from __future__ import annotations

from dataclasses import replace

from ..capabilities import Clocked, Takebacks
from . import errors as E
from .events import ClockResumed, FlagFell, check_ms, to_ms
from .state import State, later


class CornersClock(Clocked, Takebacks):
    """The chess clock of a Corners game (`reserve_s` + `increment_s` a move)."""

    def deadline(self, state: State) -> float | None:
        seat = state.running
        if seat is None or state.clock_started_ms is None:
            return None
        return (state.clock_started_ms + state.clock[seat - 1]) / 1000

    def expire(self, state: State, now: float) -> FlagFell | None:
        at = to_ms(now)
        if not state.flag_down(at):
            return None
        assert state.running is not None and at is not None
        return FlagFell(seq=state.seq + 1, seat=state.running, at_ms=at)

    def resume(self, state: State, now: float) -> ClockResumed | None:
        if state.running is None:
            return None
        return ClockResumed(seq=state.seq + 1, at_ms=to_ms(now))

    def takeback_refusal(self, state: State) -> str | None:
        """A rated variant played with a clock takes no takebacks."""
        if state.variant.rated and state.has_clock:
            return "No takebacks in a rated game played with a clock"
        return None


    # -- the fold of the clock's events --------------------------------------------------------
    def _flag_fell(self, state: State, event: FlagFell) -> State:
        check_ms(event.at_ms, "corners_flag_fell")
        self._check_open(state, event.seat)
        if state.running != event.seat or not state.flag_down(event.at_ms):
            raise E.LogError(f"seat {event.seat}'s time is not up at {event.at_ms}")
        clock = list(state.clock)
        clock[event.seat - 1] = 0
        return replace(state, seq=event.seq, end=("timeout", 3 - event.seat), draw_offer=None,
                       clock=(clock[0], clock[1]), clock_started_ms=None,
                       last_at_ms=later(state.last_at_ms, event.at_ms))


    @staticmethod
    def _clock_resumed(state: State, event: ClockResumed) -> State:
        check_ms(event.at_ms, "clock_resumed")
        if event.at_ms is None or state.running is None:
            raise E.LogError("no clock is running to resume")
        return replace(state, seq=event.seq, clock_started_ms=event.at_ms,
                       last_at_ms=later(state.last_at_ms, event.at_ms))
