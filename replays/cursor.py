"""A replay of one game's log, for any game: its frames (the start, then one per event that
counts) and a cursor that steps, jumps and tells whose turn it was and the scores at every
point. Pure: events in, values out; every fact comes from the game's rules (`game.rules`:
`step`, `outcome`, `public_view`, `to_move`, `left`) folding the log (`Game.state_at`).

Two views of the same log:

- **takebacks hidden** (the default): the game as it stands — the moves that count and the
  game's other events (a seat leaving), in order. Taken-back moves and the takeback events
  are left out, and the positions are those of a log without them, so the board never shows
  a move that was withdrawn.
- **takebacks shown**: every event is a frame at the state right after it
  (`Game.state_at(seq)`); a move later withdrawn carries `taken_back=True`, and each
  takeback is a frame of its own.

A game the host closed (`GameClosed`) ends with a frame of kind "closed": from it on the
replay is over and abandoned (`engine.rules.abandoned`: nobody wins), the board as it stood.

A takeback (`MoveTakenBack`) withdraws the events from its `from_seq` up to itself whose
step is a "move"; the game's other events in that range (a seat leaving) stay.

Cost: building a replay folds the log once more (hidden view: the cleaned log), about as
much as loading the game; frames then share the engine's immutable states. The viewer's
answer (`Replay.to_dict`) grows linearly with the events: frame 0 whole, then each frame's
board and seats as changes (`replays.frames`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from engine.core import Game
from engine.errors import EngineError
from engine.events import Event, GameClosed, GameCreated, MoveTakenBack
from engine.rules import Step, abandoned, is_over, is_practice

from .frames import encode_frames
from .progress import series


@dataclass(frozen=True)
class Frame:
    """One point of a replay: the state right after event `seq` (the start: seq 1).

    `kind` is "start" or the step's kind ("move", "left", "takeback", "closed", or a game's
    own word); `details` the game's own facts about the step (Corner Claim: piece and
    squares); `closed` the reason the host closed the game, from its closing frame on."""

    index: int
    seq: int
    kind: str
    state: Any = field(repr=False, compare=False)
    rules: Any = field(repr=False, compare=False)
    seat: int | None = None
    move: str | None = None
    details: dict[str, Any] = field(default_factory=dict, compare=False)
    taken_back: bool = False  # a move a later takeback withdrew (shown view only)
    closed: str | None = None
    text: str = ""  # the step in words, its seat left out (`Step.text`)

    @property
    def to_move(self) -> int | None:
        return None if self.closed else self.rules.to_move(self.state)

    @property
    def over(self) -> bool:
        return self.closed is not None or self.rules.is_over(self.state)

    @property
    def outcome(self):
        outcome = self.rules.outcome(self.state)
        return outcome if self.closed is None else abandoned(outcome, self.closed)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.outcome.scores)

    @property
    def left(self) -> list[int]:
        return sorted(self.rules.left(self.state))

    def to_dict(self) -> dict[str, Any]:
        """The frame in full, JSON for a viewer (docs/formats.md, "Replay frames"); the
        replay's answer sends a later frame's `board` and `seats` as changes."""
        view = self.rules.public_view(self.state)
        outcome = self.outcome
        return {
            "index": self.index, "seq": self.seq, "kind": self.kind, "seat": self.seat,
            "move": self.move, "text": self.text, "details": dict(self.details),
            "taken_back": self.taken_back,
            "to_move": self.to_move, "scores": list(outcome.scores), "left": self.left,
            "board": view.board,
            "seats": [_seat_dict(s) for s in view.seats],
            "result": outcome.to_dict() if self.over else None,
        }


def _seat_dict(seat) -> dict[str, Any]:
    """A seat view's JSON: its fields, the game's own `view` copied one level (a view is built
    afresh for every call; `dataclasses.asdict`'s deep copy cost as much as the view)."""
    out = {f.name: getattr(seat, f.name) for f in fields(seat)}
    out["view"] = dict(out["view"])
    return out


def players_of(game: Game) -> tuple[str, ...]:
    """The players' names as the log has them; a log without names: each seat's colour."""
    created = game.events[0]
    assert isinstance(created, GameCreated)
    if created.players:
        return tuple(created.players)
    view = game.rules.public_view(game.state_at(1))
    return tuple(s.colour.capitalize() for s in view.seats)


def colours_of(game: Game) -> tuple[str, ...]:
    return tuple(s.colour for s in game.rules.public_view(game.state_at(1)).seats)


class Replay:
    """The frames of one game in one view. Frame 0 is the start."""

    def __init__(self, game: Game, *, show_takebacks: bool = False) -> None:
        self.game = game
        self.rules = game.rules
        self.show_takebacks = show_takebacks
        created = game.events[0]
        assert isinstance(created, GameCreated)
        self.created = created
        self.frames: tuple[Frame, ...] = tuple(
            _shown_frames(game) if show_takebacks else _hidden_frames(game))

    @classmethod
    def from_events(cls, events: Iterable[Event], **options: Any) -> Replay:
        return cls(Game.from_events(events), **options)

    def __len__(self) -> int:
        return len(self.frames)

    @property
    def final(self) -> Frame:
        return self.frames[-1]

    @property
    def game_id(self) -> str:
        """The game's id in the registry ("cornerclaim")."""
        return self.created.game

    @property
    def variant(self) -> str:
        return self.created.variant

    @property
    def players(self) -> tuple[str, ...]:
        return players_of(self.game)

    @property
    def colours(self) -> tuple[str, ...]:
        return colours_of(self.game)

    def index_of_seq(self, seq: int) -> int:
        """The last frame at or before event `seq` (a hidden event shows the frame before)."""
        best = 0
        for f in self.frames:
            if f.seq > seq:
                break
            best = f.index
        return best

    def score_series(self) -> list[list[int]]:
        """Per seat, its score at every frame (the score-over-time chart's lines)."""
        scores = [f.scores for f in self.frames]
        return [[s[i] for s in scores] for i in range(len(scores[0]))]

    def squares_per_turn(self) -> list[list[int]]:
        """Per seat, the `squares` detail of each of its moves, in order (taken-back ones too
        in the shown view); empty lists for a game whose steps carry no squares."""
        out: list[list[int]] = [[] for _ in self.frames[0].scores]
        for f in self.frames:
            if f.kind == "move" and f.seat and "squares" in f.details:
                out[f.seat - 1].append(f.details["squares"])
        return out

    def moves(self) -> int:
        """How many moves the frames show."""
        return sum(f.kind == "move" for f in self.frames)

    def to_dict(self) -> dict[str, Any]:
        """Everything a viewer needs: the game, players, colours, frames, series, result.

        Frame 0 is whole; each later frame carries its `board` and `seats` as `changes` from
        the frame before (`replays.frames`: `expand_frames` makes them whole again), so the
        answer grows with what the moves changed, not with frames × board."""
        final = self.final
        return {
            "game": self.game_id, "title": self.rules.title, "variant": self.variant,
            "options": dict(self.created.options),
            "practice": is_practice(self.rules, final.state),
            "players": list(self.players), "colours": list(self.colours),
            "seq": self.game.seq, "over": is_over(self.game),
            "show_takebacks": self.show_takebacks,
            "takebacks": sum(isinstance(e, MoveTakenBack) for e in self.game.events),
            "frames": encode_frames([f.to_dict() for f in self.frames]),
            "series": {"scores": self.score_series(), "squares": self.squares_per_turn(),
                       **series(self.game_id, [f.state for f in self.frames])},
            "result": final.outcome.to_dict() if final.over else None,
        }


def _withdrawn(game: Game) -> set[int]:
    """Seqs of the moves some later takeback withdrew: events from a takeback's `from_seq`
    up to it whose step (on the real log) is a "move".

    One sweep over the log with the spans sorted by their start: an event is inside some
    span when the furthest end of the spans begun at or before it lies beyond it."""
    spans = sorted((e.from_seq, e.seq) for e in game.events if isinstance(e, MoveTakenBack))
    if not spans:
        return set()
    gone: set[int] = set()
    i, reach = 0, 0
    for e in game.events[1:]:
        while i < len(spans) and spans[i][0] <= e.seq:
            reach = max(reach, spans[i][1])
            i += 1
        if isinstance(e, MoveTakenBack) or e.seq >= reach:
            continue
        if game.rules.step(game.state_at(e.seq), e).kind == "move":
            gone.add(e.seq)
    return gone


def _start(game: Game) -> Frame:
    return Frame(0, 1, "start", game.state_at(1), game.rules)


def _frame(index: int, rules, event: Event, state, *, taken_back: bool = False,
           closed: str | None = None) -> Frame:
    if isinstance(event, GameClosed):  # the host's, the same in every game
        step = Step("closed", details={"reason": event.reason},
                    text=("The host cancelled the game" if event.reason == "cancelled"
                          else "The host closed the game"))
    else:
        step = rules.step(state, event)
    return Frame(index, event.seq, step.kind, state, rules, step.seat, step.move,
                 dict(step.details), taken_back, closed, step.text)


def _closed(game: Game, seq: int) -> str | None:
    """The reason the game was closed, if it was by event `seq` (of the real log)."""
    closed = game.closed_at(seq)
    return None if closed is None else closed.reason


def _shown_frames(game: Game) -> list[Frame]:
    gone = _withdrawn(game)
    frames = [_start(game)]
    for e in game.events[1:]:
        frames.append(_frame(len(frames), game.rules, e, game.state_at(e.seq),
                             taken_back=e.seq in gone, closed=_closed(game, e.seq)))
    return frames


def _hidden_frames(game: Game) -> list[Frame]:
    """Frames of the log without its takebacks: folded again so no withdrawn move shows.

    The cleaned log keeps each event's original seq in the frame (for links to the real
    log); if it cannot be folded (a leave that only made sense with a withdrawn move on the
    board), the frames fall back to the real states."""
    gone = _withdrawn(game)
    kept = [e for e in game.events[1:]
            if not isinstance(e, MoveTakenBack) and e.seq not in gone]
    created = game.events[0]
    if len(kept) == len(game.events) - 1:  # no takebacks: the log is already clean
        states = [game.state_at(e.seq) for e in kept]
    else:
        try:
            clean = Game.from_events([created]
                                     + [_renumber(e, i) for i, e in enumerate(kept, 2)])
            states = [clean.state_at(i) for i in range(2, len(kept) + 2)]
        except EngineError:
            states = [game.state_at(e.seq) for e in kept]
    frames = [_start(game)]
    for e, state in zip(kept, states, strict=True):
        frames.append(_frame(len(frames), game.rules, e, state, closed=_closed(game, e.seq)))
    return frames


def _renumber(event: Event, seq: int) -> Event:
    data = event.to_dict()
    data["seq"] = seq
    return Event.from_dict(data)


class Cursor:
    """A position in a replay: step, jump, first, last. Indexes clamp to the replay."""

    def __init__(self, replay: Replay, index: int = 0) -> None:
        self.replay = replay
        self.index = 0
        self.jump(index)

    @property
    def frame(self) -> Frame:
        return self.replay.frames[self.index]

    @property
    def state(self) -> Any:
        return self.frame.state

    @property
    def to_move(self) -> int | None:
        return self.frame.to_move

    @property
    def scores(self) -> tuple[int, ...]:
        return self.frame.scores

    @property
    def at_start(self) -> bool:
        return self.index == 0

    @property
    def at_end(self) -> bool:
        return self.index == len(self.replay) - 1

    def jump(self, index: int) -> Frame:
        """Go to frame `index` (negative counts from the end, like a list)."""
        n = len(self.replay)
        if index < 0:
            index += n
        self.index = min(max(index, 0), n - 1)
        return self.frame

    def step(self, by: int = 1) -> Frame:
        return self.jump(max(self.index + by, 0))

    def forward(self) -> Frame:
        return self.step(1)

    def back(self) -> Frame:
        return self.step(-1)

    def first(self) -> Frame:
        return self.jump(0)

    def last(self) -> Frame:
        return self.jump(len(self.replay) - 1)

    def jump_to_seq(self, seq: int) -> Frame:
        return self.jump(self.replay.index_of_seq(seq))
