"""Corners' own actions, the `Actions` capability: resign, offer a draw, accept or decline
one; what a computer does with a draw offered to it; and the fold of their events."""

from __future__ import annotations

from dataclasses import replace

from ..capabilities import Actions
from ..events import Event
from . import errors as E
from .events import ACTION_EVENTS, ACTIONS, DrawAccepted, DrawOffered, Resigned, check_ms, to_ms
from .state import State, later, stopped


class CornersActions(Actions):
    """A seat's actions besides moving, each an event of its own."""

    actions = ACTIONS

    def act(self, state: State, seat: int, action: str, *, now: float | None = None) -> Event:
        """`resign`, `offer_draw`, `accept_draw` or `decline_draw`, each an event."""
        cls = ACTION_EVENTS.get(action)
        if cls is None:
            raise E.EngineError(f"Corners has no action {action!r}", actions=list(ACTIONS))
        event = cls(seq=state.seq + 1, seat=seat, at_ms=to_ms(now))
        self._acted(state, event)  # the same checks as the fold
        return event

    def computer_action(self, state: State, seat: int) -> str | None:
        """A computer declines a draw offered to it (it plays on: its moves show why)."""
        if state.end is None and state.draw_offer == 3 - seat and seat not in state.left:
            return "decline_draw"
        return None

    def available_actions(self, state: State, seat: int) -> list[str]:
        """The actions `seat` may take now. The solo race offers none: leaving is its one way
        out, and ends it as resigning would ("gave up the race")."""
        out = []
        for action in () if state.solo else ACTIONS:
            try:
                self.act(state, seat, action)
            except E.EngineError:
                continue
            out.append(action)
        return out


    # -- the fold of the actions' events -------------------------------------------------------
    def _acted(self, state: State, event) -> State:
        check_ms(event.at_ms, event.TYPE)
        seat = event.seat
        self._check_open(state, seat)
        if state.flag_down(event.at_ms):
            raise E.TimeUpError(f"seat {state.running}'s time is up", seat=state.running)
        last = later(state.last_at_ms, event.at_ms)
        if isinstance(event, Resigned):
            return replace(state, seq=event.seq, end=("resigned", 3 - seat), draw_offer=None,
                           last_at_ms=last, **stopped(state, event.at_ms))
        if isinstance(event, DrawOffered):
            if state.solo:
                raise E.DrawOfferRefusedError("the solo race has nobody to offer a draw to")
            if state.draw_offer == seat:
                raise E.DrawOfferRefusedError("your draw offer is waiting for an answer")
            if state.draw_offer == 3 - seat:
                raise E.DrawOfferRefusedError(
                    "the other side has offered a draw: accept or decline it")
            if state.offered_at[seat - 1] >= state.own_moves(seat):
                raise E.DrawOfferRefusedError("make a move before you offer a draw again")
            offered = list(state.offered_at)
            offered[seat - 1] = state.own_moves(seat)
            return replace(state, seq=event.seq, draw_offer=seat, last_at_ms=last,
                           offered_at=(offered[0], offered[1]))
        if state.draw_offer != 3 - seat:
            raise E.NoDrawOfferError("the other side has not offered a draw")
        if isinstance(event, DrawAccepted):
            return replace(state, seq=event.seq, end=("draw_agreed", 0), draw_offer=None,
                           last_at_ms=last, **stopped(state, event.at_ms))
        return replace(state, seq=event.seq, draw_offer=None, last_at_ms=last)

