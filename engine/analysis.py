"""A computer review of a finished game: each move's value next to the engine's best move,
and a label for what the move lost.

A game that can review its moves declares the `Analysis` capability: `analyse_ply(state,
seat, move, level=...)` gives a `PlyReview` of `move`, played by `seat` in `state` (the
state right before it): the engine's best move there (in the game's notation, legal in
`state`), the value of the position for the mover with the best move (`value_before`) and
with the move played (`value_after`), both from the mover's side in the game's unit
(`Thresholds.unit`: "win", a win chance from 0 to 1, or "points", the expected score
difference). The loss is what the move gave away (never below 0) and its label comes from
the game's thresholds: `best`, `good`, `inaccuracy`, `mistake`, `blunder`, or `book` for a
move of the game's opening book.

`review` walks a game's log and yields one `Ply` per move event, in log order (a move later
taken back included: each is reviewed in the position it was played in). `seed` changes the
random draws of a game whose search has them: a second review with another seed measures the
review's noise.

`end_value` is how the game ended, in the review's unit from the first seat's side: its win
chance made certain (1, 0, or 0.5 for a draw) or the final score difference, whatever ended
the game (play, a resignation, time, an agreement, a seat leaving).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from .events import GameClosed

#: What an analysis's body gives for one reviewed move.
PLY_FIELDS = ("ply", "seq", "seat", "move", "best", "value_before", "value_after", "loss",
              "label")
#: Every label, from the best to the worst ("book" first: a move out of the opening book).
LABELS = ("book", "best", "good", "inaccuracy", "mistake", "blunder")
UNITS = ("win", "points")


@dataclass(frozen=True)
class Thresholds:
    """A game's bounds on a move's loss, in its `unit`: a loss of at most `best` is a best
    move, below `inaccuracy` a good one, then inaccuracy, mistake, and a blunder from
    `blunder` on."""

    unit: str
    inaccuracy: float
    mistake: float
    blunder: float
    best: float = 0.0

    def label(self, loss: float) -> str:
        if loss <= self.best:
            return "best"
        if loss < self.inaccuracy:
            return "good"
        if loss < self.mistake:
            return "inaccuracy"
        if loss < self.blunder:
            return "mistake"
        return "blunder"


@dataclass(frozen=True)
class PlyReview:
    """The engine's view of one move: its best move in the position (None when the mover had
    no move to choose, which a logged move never is), the values for the mover with the best
    move and with the move played, whether the move played is from the opening book, and
    whether the values are exact (a solved position)."""

    best: str | None
    value_before: float
    value_after: float
    book: bool = False
    exact: bool = False

    @property
    def loss(self) -> float:
        return max(0.0, self.value_before - self.value_after)


def label(review: PlyReview, move: str, thresholds: Thresholds) -> str:
    """The label of `move` reviewed as `review`: `book` for a book move, `best` for the
    engine's own move, else by its loss."""
    if review.book:
        return "book"
    if review.best is not None and same_move(review.best, move):
        return "best"
    return thresholds.label(review.loss)


def same_move(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


@dataclass(frozen=True)
class Ply:
    """One reviewed move of a log: `ply` counts the log's moves from 1, `seq` is its event."""

    ply: int
    seq: int
    seat: int
    move: str
    best: str | None
    value_before: float
    value_after: float
    loss: float
    label: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ply:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__})


def moves_of(game) -> list[tuple[int, Any, Any]]:
    """(seq, the move's step, the state right before it) for every move event of `game`'s
    log, in log order."""
    rules = game.rules
    out = []
    state = game.state_at(1)
    for event in game.events[1:]:
        if isinstance(event, GameClosed):
            continue
        after = rules.apply(state, event)
        step = rules.step(after, event)
        if step.kind == "move" and step.seat is not None and step.move is not None:
            out.append((event.seq, step, state))
        state = after
    return out


def review(game, analyst, thresholds: Thresholds, *, level: int | None = None,
           start: int = 0, seed: int = 0) -> Iterator[Ply]:
    """Review `game`'s moves with `analyst` (its rules as `Analysis`) from the `start`-th
    move on (0: the first), one `Ply` at a time."""
    for i, (seq, step, before) in enumerate(moves_of(game)):
        if i < start:
            continue
        yield review_ply(analyst, thresholds, i + 1, seq, step.seat, step.move, before,
                         level=level, seed=seed)


def review_ply(analyst, thresholds: Thresholds, ply: int, seq: int, seat: int, move: str,
               before, *, level: int | None = None, seed: int = 0) -> Ply:
    got = analyst.analyse_ply(before, seat, move, level=level, seed=seed)
    return Ply(ply, seq, seat, move, got.best, round(got.value_before, 4),
               round(got.value_after, 4), round(got.loss, 4), label(got, move, thresholds))


def counts(plies, seats) -> dict[int, dict[str, int]]:
    """How many moves of each label every seat in `seats` made."""
    out = {s: dict.fromkeys(LABELS, 0) for s in seats}
    for p in plies:
        out.setdefault(p.seat, dict.fromkeys(LABELS, 0))[p.label] += 1
    return out


def end_value(game, unit: str) -> float | None:
    """How `game` ended, from the first seat's side in `unit`: "win" 1, 0.5 or 0 by its result;
    "points" the final score difference (its side's score less the best other one), signed
    by the result where a resignation, time or a seat leaving decided it against the score
    (at least 1 point then). None while it is played, or if it ended without a result."""
    outcome = game.rules.outcome(game.state)
    if outcome.reason == "playing" or not outcome.results:
        return None
    result = outcome.results[0]
    if unit == "win":
        return {"win": 1.0, "draw": 0.5}.get(result, 0.0)
    mine = {1}
    for team in outcome.teams:
        if 1 in team.seats:
            mine = set(team.seats)
    others = [s for i, s in enumerate(outcome.scores, 1) if i not in mine]
    diff = float(outcome.scores[0] - max(others)) if others else 0.0
    if result == "win":
        return max(diff, 1.0)
    if result == "loss":
        return min(diff, -1.0)
    return diff


def body(game_id: str, status: str, progress: float, unit: str | None, level: int | None,
         end: float | None, plies, error: str | None = None) -> dict[str, Any]:
    """An analysis as the host answers it (`GET /api/games/{id}/analysis`) and
    `cornerclaim analyse --json` prints it: `plies` as dicts or `Ply`s."""
    out = {"game_id": game_id, "status": status, "progress": round(progress, 4),
           "unit": unit, "level": level, "end_value": end,
           "plies": [{k: (p[k] if isinstance(p, dict) else getattr(p, k)) for k in PLY_FIELDS}
                     for p in plies]}
    if error:
        out["error"] = error
    return out
