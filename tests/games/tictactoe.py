"""Tic-tac-toe, a test-only game: proof that a game needs nothing outside its engine module,
its client board module (`tictactoe.js` beside this file) and its registration (the last
lines here). Importing this module registers it with the host's registry.

Seat 1 plays crosses, seat 2 noughts; cells a1..c3 (a1 bottom left). Three in a row wins;
a full board is a draw. A seat may take back its latest mark (and every later one); in this
two-seat game leaving is resigning. One computer level: it wins if it can, blocks if it must,
else plays a random free cell drawn from its seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from engine import registry
from engine.capabilities import ApplyMove, Computer
from engine.errors import (
    EngineError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    NothingToUndoError,
    NotYourTurnError,
    SeatLeftError,
)
from engine.events import Event, GameCreated, MoveTakenBack, PlayerLeft, event_type
from engine.rules import (
    BaseRules,
    ColourSpec,
    LevelSpec,
    Outcome,
    Picture,
    PublicView,
    SeatView,
    VariantSpec,
)

GAME = "tictactoe"
COLUMNS = "abc"
LINES = ([(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
         [(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
         [(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)])


@event_type
@dataclass(frozen=True, kw_only=True)
class Marked(Event):
    TYPE: ClassVar[str] = "tictactoe_marked"
    seat: int
    move: str


@dataclass(frozen=True)
class State:
    seq: int
    marks: tuple[tuple[int, int, int, int], ...]  # (seq, seat, x, y) in play order
    left: frozenset[int] = frozenset()

    def owner(self, x: int, y: int) -> int:
        return next((s for _, s, mx, my in self.marks if (mx, my) == (x, y)), 0)

    def line_winner(self) -> int:
        for line in LINES:
            owners = {self.owner(x, y) for x, y in line}
            if len(owners) == 1 and 0 not in owners:
                return owners.pop()
        return 0

    @property
    def over(self) -> bool:
        return bool(self.left) or bool(self.line_winner()) or len(self.marks) == 9

    @property
    def to_move(self) -> int | None:
        return None if self.over else 1 + len(self.marks) % 2


def cell(text: str) -> tuple[int, int]:
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "123":
        raise NotationError(f"{text!r} is not a cell a1 to c3")
    return COLUMNS.index(text[0]), int(text[1]) - 1


def name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


class TicTacToeRules(BaseRules, Computer, ApplyMove):
    game = GAME
    title = "Tic-tac-toe"
    tagline = "noughts and crosses, 2 players"
    palette = {"cross": ColourSpec("#c2410c", "#fff", "✕"),
               "nought": ColourSpec("#0f766e", "#fff", "◯")}
    variants = {"3x3": VariantSpec("3x3", "3×3", (2,), ("cross", "nought"), rated=True,
                                   description="three in a row wins")}
    levels = {1: LevelSpec(1, "Blocker", "wins when it can, blocks when it must", 0.01)}

    def initial_state(self, created: GameCreated) -> State:
        if created.variant not in self.variants:
            raise EngineError(f"unknown variant {created.variant!r} (3x3)")
        self.variants[created.variant].option_values(created.options)
        if created.players and len(created.players) != 2:
            raise EngineError(f"3x3 has 2 seats, not {len(created.players)}")
        return State(created.seq, ())

    def apply(self, state: State, event: Event) -> State:
        if isinstance(event, Marked):
            return self.apply_move(state, event, self._check_mark(state, event.seat, event.move))
        if isinstance(event, PlayerLeft):
            self._check_seated(state, event.seat)
            return State(event.seq, state.marks, state.left | {event.seat})
        if isinstance(event, MoveTakenBack):
            self._check_undo(state, event.seat, event.from_seq)
            kept = tuple(m for m in state.marks if m[0] < event.from_seq)
            return State(event.seq, kept, state.left)
        raise EngineError(f"event {event.TYPE} is not a tic-tac-toe event")

    def apply_move(self, state: State, event: Event, move: tuple[int, int]) -> State:
        if not isinstance(event, Marked):
            return self.apply(state, event)
        x, y = move
        return State(event.seq, state.marks + ((event.seq, event.seat, x, y),), state.left)

    def _check_seated(self, state: State, seat: int) -> None:
        if seat not in (1, 2):
            raise EngineError(f"seat must be 1 or 2, not {seat}")
        if seat in state.left:
            raise SeatLeftError(f"seat {seat} has left")
        if state.over:
            raise GameOverError("the game is over")

    def _check_mark(self, state: State, seat: int, text: str) -> tuple[int, int]:
        self._check_seated(state, seat)
        if state.to_move != seat:
            raise NotYourTurnError(f"it is seat {state.to_move}'s turn, not seat {seat}'s",
                                   to_move=state.to_move)
        x, y = cell(text)
        if state.owner(x, y):
            raise IllegalMoveError(f"{name(x, y)} is already marked", cell=name(x, y))
        return x, y

    def _check_undo(self, state: State, seat: int, from_seq: int) -> None:
        self._check_seated(state, seat)
        if not any(q == from_seq and s == seat for q, s, _, _ in state.marks):
            raise NothingToUndoError(f"seat {seat} has no mark to take back")

    def check_move(self, state: State, seat: int, text: str, *, now=None) -> tuple[int, int]:
        return self._check_mark(state, seat, text)

    def play_move(self, state: State, seat: int, move: tuple[int, int], *, now=None) -> Marked:
        return Marked(seq=state.seq + 1, seat=seat, move=name(*move))

    def undo(self, state: State, seat: int, *, now=None) -> MoveTakenBack:
        own = [q for q, s, _, _ in state.marks if s == seat]
        if not own:
            raise NothingToUndoError(f"seat {seat} has no mark to take back")
        self._check_undo(state, seat, own[-1])
        return MoveTakenBack(seq=state.seq + 1, seat=seat, from_seq=own[-1])

    def leave(self, state: State, seat: int, *, now=None) -> PlayerLeft:
        self._check_seated(state, seat)
        return PlayerLeft(seq=state.seq + 1, seat=seat)

    def to_move(self, state: State) -> int | None:
        return state.to_move

    def is_over(self, state: State) -> bool:
        return state.over

    def left(self, state: State) -> frozenset[int]:
        return state.left

    def outcome(self, state: State) -> Outcome:
        scores = tuple(sum(1 for _, s, _, _ in state.marks if s == seat) for seat in (1, 2))
        if state.left:
            winner, reason = 3 - next(iter(state.left)), "resigned"
        else:
            winner = state.line_winner()
            reason = "finished" if state.over else "playing"
        if winner:
            results = tuple("win" if s == winner else "loss" for s in (1, 2))
            winners: tuple[int, ...] = (winner,)
        elif state.over:
            results, winners = ("draw", "draw"), (1, 2)
        else:
            results, winners = ("draw", "draw"), ()
        points = tuple({"win": 2, "draw": 1, "loss": 0}[r] for r in results)
        return Outcome(winners, results, scores, reason, points)

    def legal(self, state: State, seat: int, query: str | None = None) -> list[dict]:
        if state.to_move != seat:
            return []
        return [{"move": name(x, y)} for y in range(3) for x in range(3)
                if not state.owner(x, y)]

    def public_view(self, state: State) -> PublicView:
        rows = [[state.owner(x, y) for x in range(3)] for y in (2, 1, 0)]
        seats = tuple(SeatView(colour, s in state.left, None,
                               state.to_move == s, {"marks": sum(1 for m in state.marks
                                                                 if m[1] == s)})
                      for s, colour in ((1, "cross"), (2, "nought")))
        last = None
        if state.marks:
            q, s, x, y = state.marks[-1]
            last = {"seat": s, "move": name(x, y), "seq": q}
        return PublicView({"rows": rows}, seats, last)

    def picture(self, state: State) -> Picture:
        colours = ("", "cross", "nought")
        cells = tuple(tuple(colours[state.owner(x, y)] for x in range(3)) for y in (2, 1, 0))
        return Picture(cells, tuple(COLUMNS), ("3", "2", "1"))

    def choose_move(self, state: State, seat: int, *, level: int, seed: int) -> str | None:
        free = [(x, y) for y in range(3) for x in range(3) if not state.owner(x, y)]
        if state.to_move != seat or not free:
            return None
        for who in (seat, 3 - seat):  # win, else block
            for x, y in free:
                trial = State(state.seq, state.marks + ((0, who, x, y),))
                if trial.line_winner() == who:
                    return name(x, y)
        return name(*random.Random(seed).choice(free))

    def warm_up(self) -> float:
        return 0.0


RULES = TicTacToeRules()
BOARD = Path(__file__).with_name("tictactoe.js")


def register() -> TicTacToeRules:
    """(Re)register the game: a test that withdraws it must not leave later tests without."""
    return registry.register(RULES, board=BOARD, module=__name__)


register()
