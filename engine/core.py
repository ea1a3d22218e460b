"""The game-agnostic parts: the log and its fold (`Game`), and the registry of rules.

Nothing here knows any one game. A game module supplies a `Rules` object (`engine.rules`)
and registers its own event types; `Game` keeps the log, checks `seq`, and folds events into
state through the rules `engine.registry` holds for the log's game.

The events themselves, and the JSON log they are kept in, are `engine.events`. A command
(`Rules.play_move`, `.undo`, `.leave`) checks the current state and returns the event it
would append, or raises; `Rules.apply` folds an event into a new state, checking it again so
a log loaded from disk is held to the same rules.
Derived facts (an automatic skip, the end of the game) are never events.

Closing is the one event every game shares that no game's rules fold: `GameClosed`, the
host's decision to end a game before its rules end it. `Game` keeps it beside the rules'
state (which stays as it stood) and refuses every event after it; the game is then
abandoned (`engine.rules.outcome_of`: nobody wins, nothing counts).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from .capabilities import Actions, ApplyMove, capability
from .errors import EngineError, GameOverError, LogError, StaleSeqError
from .events import (
    CLOSE_REASONS,
    Event,
    GameClosed,
    GameCreated,
    log_from_json,
    log_to_json,
)
from .views import Outcome, abandoned

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


def outcome_of(game: Game, seq: int | None = None) -> Outcome:
    """The outcome of `game` after event `seq` (default: now): its rules' outcome, or, once
    the host has closed it, that of an abandoned game (`abandoned`), the same for every game."""
    seq = game.seq if seq is None else seq
    outcome = game.rules.outcome(game.state_at(seq))
    closed = game.closed_at(seq)
    return outcome if closed is None else abandoned(outcome, closed.reason)


def is_over(game: Game, seq: int | None = None) -> bool:
    """Whether `game` has ended after event `seq` (default: now): by its rules, or closed."""
    seq = game.seq if seq is None else seq
    return game.closed_at(seq) is not None or game.rules.is_over(game.state_at(seq))
