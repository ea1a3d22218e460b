"""A replay of one game's log: its frames (the start, then one per event that counts) and a
cursor that steps, jumps and tells whose turn it was and the scores at every point. Pure:
events in, values out; every fact comes from the engine's fold (`Game.state_at`, `RULES`).

Two views of the same log:

- **takebacks hidden** (the default): the game as it stands — the placements that count and
  the seats that left, in order. Taken-back placements and the takeback events are left out,
  and the positions are those of a log without them, so the board never shows a piece that
  was withdrawn.
- **takebacks shown**: every event is a frame at the state right after it
  (`Game.state_at(seq)`); a placement later withdrawn carries `taken_back=True`, and each
  takeback is a frame of its own.

Cost: building a replay folds the log once more (hidden view: the cleaned log), about as
much as loading the game; frames then share the engine's immutable states.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event, Game, GameCreated, MoveTakenBack, PlayerLeft
from engine.cornerclaim import RULES, PiecePlaced, State
from engine.cornerclaim.pieces import PIECES
from engine.errors import EngineError


@dataclass(frozen=True)
class Frame:
    """One point of a replay: the state right after event `seq` (the start: seq 1)."""

    index: int
    seq: int
    kind: str  # "start" | "placed" | "left" | "takeback"
    state: State = field(repr=False, compare=False)
    seat: int | None = None
    move: str | None = None
    piece: str | None = None
    squares: int = 0  # squares this placement laid
    taken_back: bool = False  # a placement a later takeback withdrew (shown view only)

    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.state.score(s) for s in self.state.seats)

    def squares_placed(self) -> tuple[int, ...]:
        pos = self.state.position
        return tuple(pos.squares_placed[s - 1] for s in self.state.seats)

    def to_dict(self) -> dict[str, Any]:
        """JSON for a viewer: the move, whose turn, scores, board rows and (at the end) result."""
        state = self.state
        return {
            "index": self.index, "seq": self.seq, "kind": self.kind, "seat": self.seat,
            "move": self.move, "piece": self.piece, "squares": self.squares,
            "taken_back": self.taken_back, "to_move": state.to_move,
            "scores": list(self.scores), "squares_placed": list(self.squares_placed()),
            "pieces_left": [len(state.pieces_left(s)) for s in state.seats],
            "left": sorted(state.left),
            "board": ["".join(str(c) for c in row) for row in state.board()],
            "result": RULES.outcome(state).to_dict() if state.is_over else None,
        }


def _placement_frame(index: int, event: PiecePlaced, state: State, *,
                     taken_back: bool = False) -> Frame:
    """Right after a placement, the state's last placement is that one."""
    piece = PIECES[state.position.bc.move_piece[state.placements[-1][2]]]
    return Frame(index, event.seq, "placed", state, event.seat, event.move, piece.name,
                 piece.size, taken_back)


class Replay:
    """The frames of one game in one view. Frame 0 is the empty board."""

    def __init__(self, game: Game, *, show_takebacks: bool = False) -> None:
        self.game = game
        self.show_takebacks = show_takebacks
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
    def variant(self) -> str:
        return self.game.state.variant.name

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.state.players

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
        return [[f.scores[s] for f in self.frames] for s in range(len(self.players))]

    def squares_per_turn(self) -> list[list[int]]:
        """Per seat, the squares each of its placements laid, in order (taken-back ones too
        in the shown view)."""
        out: list[list[int]] = [[] for _ in self.players]
        for f in self.frames:
            if f.kind == "placed":
                out[f.seat - 1].append(f.squares)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Everything a viewer needs: players, colours, size, frames, series, final result."""
        state = self.game.state
        return {
            "variant": state.variant.name, "size": state.variant.size,
            "players": list(state.players), "colours": list(state.variant.colours),
            "seq": self.game.seq, "over": state.is_over,
            "show_takebacks": self.show_takebacks,
            "takebacks": sum(isinstance(e, MoveTakenBack) for e in self.game.events),
            "frames": [f.to_dict() for f in self.frames],
            "series": {"scores": self.score_series(), "squares": self.squares_per_turn()},
            "result": RULES.outcome(state).to_dict() if state.is_over else None,
        }


def _withdrawn(game: Game) -> set[int]:
    """Seqs of placements some later takeback withdrew."""
    gone: set[int] = set()
    placed: list[int] = []
    for e in game.events:
        if isinstance(e, PiecePlaced):
            placed.append(e.seq)
        elif isinstance(e, MoveTakenBack):
            gone.update(q for q in placed if q >= e.from_seq)
            placed = [q for q in placed if q < e.from_seq]
    return gone


def _shown_frames(game: Game) -> list[Frame]:
    gone = _withdrawn(game)
    frames = [Frame(0, 1, "start", game.state_at(1))]
    for e in game.events[1:]:
        state = game.state_at(e.seq)
        i = len(frames)
        if isinstance(e, PiecePlaced):
            frames.append(_placement_frame(i, e, state, taken_back=e.seq in gone))
        elif isinstance(e, PlayerLeft):
            frames.append(Frame(i, e.seq, "left", state, e.seat))
        elif isinstance(e, MoveTakenBack):
            frames.append(Frame(i, e.seq, "takeback", state, e.seat))
    return frames


def _hidden_frames(game: Game) -> list[Frame]:
    """Frames of the log without its takebacks: folded again so no withdrawn piece shows.

    The cleaned log keeps each event's original seq in the frame (for links to the real
    log); if it cannot be folded (a leave that only made sense with a withdrawn piece on the
    board), the frames fall back to the real states."""
    gone = _withdrawn(game)
    kept = [e for e in game.events[1:]
            if isinstance(e, PlayerLeft) or (isinstance(e, PiecePlaced) and e.seq not in gone)]
    created = game.events[0]
    assert isinstance(created, GameCreated)
    try:
        clean = Game.from_events([created] + [_renumber(e, i) for i, e in enumerate(kept, 2)])
        states = [clean.state_at(i) for i in range(2, len(kept) + 2)]
    except EngineError:
        states = [game.state_at(e.seq) for e in kept]
    frames = [Frame(0, 1, "start", game.state_at(1))]
    for i, (e, state) in enumerate(zip(kept, states, strict=True), 1):
        if isinstance(e, PiecePlaced):
            frames.append(_placement_frame(i, e, state))
        else:
            frames.append(Frame(i, e.seq, "left", state, e.seat))
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
    def state(self) -> State:
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
