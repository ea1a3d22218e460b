"""What a game says about a state: its `Outcome` (with the generic ending words and the
abandoned outcome of a closed game), its public view, what it gives the ladder, a replay's
step and the board as a picture. Re-exported by `engine.rules`, where the games import them
from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# -- what a game says about a state -----------------------------------------------------------


@dataclass(frozen=True)
class Team:
    """Seats that play as one side and share its result (the marble game's 4-player teams):
    the side's name as players call it ("Yellow") and its seats in seat order."""

    name: str
    seats: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "seats": list(self.seats)}


@dataclass(frozen=True)
class Outcome:
    """How a game ended (or stands): seats are 1-based, tuples in seat order.

    `winners` are the seats on top (several on a shared win or a draw); `results` is
    "win" | "draw" | "loss" per seat; `scores` the game's own score per seat; `points` the
    match points the result is worth per seat; `reason` a short code of why it ended
    ("finished", "resigned", "left", "home_deadline", …, "playing" while it runs).
    `ending` says how it ended in the game's own words, with colours and move numbers, never
    names ("Black filled White's home on move 41"); a game that gives none gets the generic
    `ending_text`. `teams` the sides of a team game (empty: every seat plays for itself).
    A game ended without a result (closed by the host: `abandoned`) has no winners and
    empty `results` and `points`."""

    winners: tuple[int, ...]
    results: tuple[str, ...]
    scores: tuple[int, ...]
    reason: str
    points: tuple[int, ...] = ()
    ending: str = ""
    teams: tuple[Team, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "results": list(self.results),
                "scores": list(self.scores), "points": list(self.points),
                "reason": self.reason, "ending": self.ending or ending_text(self.reason),
                "teams": [t.to_dict() for t in self.teams]}


#: The generic words for an end a game does not word itself, by reason.
GENERIC_ENDINGS = {
    "playing": "",
    "finished": "The game is over",
    "resigned": "A player resigned",
    "left": "A player left",
    "everyone_left": "Everyone left",
    "closed": "The host closed this game",
    "cancelled": "The host cancelled this game before it started",
}


def ending_text(reason: str) -> str:
    """The generic sentence for an end `reason` (a game's own `Outcome.ending` comes first)."""
    return GENERIC_ENDINGS.get(reason, "The game is over")


def abandoned(outcome: Outcome, reason: str) -> Outcome:
    """A game that ended without a result (the host closed it: `reason` "closed" or
    "cancelled"): nobody wins, no seat has a result or match points; the scores as they
    stood."""
    return Outcome((), (), outcome.scores, reason, (), ending_text(reason), outcome.teams)


@dataclass(frozen=True)
class SeatView:
    """The public facts of one seat: the same keys in every game, and `view` for the game's
    own (Corner Claim: pieces left and open corners). `out_of_moves`: the seat is still at the
    table but has no move left in a game that goes on, so the host skips its turns (Corner
    Claim; a game that never skips a seat leaves it False)."""

    colour: str
    left: bool
    score: int | None
    can_move: bool
    view: dict[str, Any] = field(default_factory=dict)
    out_of_moves: bool = False


@dataclass(frozen=True)
class PublicView:
    """What the API and the UI show of a state: `board` is the game's own picture of the
    table (any JSON value the game's board module draws), `seats` one `SeatView` per seat,
    `last_move` the move that counts last as {"seat", "move", "seq"} (or None)."""

    board: dict[str, Any]
    seats: tuple[SeatView, ...]
    last_move: dict[str, Any] | None = None


@dataclass(frozen=True)
class LadderSeat:
    """What one seat of a finished game gives the ladder: its match points and the game's
    statistics (keys from `Rules.stats`, numbers or booleans, summed per player)."""

    points: int
    stats: dict[str, int | float | bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """One event of a log as a replay shows it: `kind` is "move", "left", "takeback" (or a
    game's own word for its other events), with the seat and the move text where it has them
    and `details` the game's own facts about the step (Corner Claim: the piece and its size).
    """

    kind: str
    seat: int | None = None
    move: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    #: The step in words, its seat (the subject) left out: "offered a draw", "left"; a viewer
    #: puts the player's name before it (a step without a seat: the whole sentence). Empty
    #: for a move (the game's board module words it).
    text: str = ""


@dataclass(frozen=True)
class Picture:
    """A board drawn as a grid, for the replay's SVG picture: `cells[row][col]` is a colour
    name or "" (row 0 is the top), optional `marks` [(row, col, text)], and the labels of the
    columns (left to right) and rows (top to bottom)."""

    cells: tuple[tuple[str, ...], ...]
    columns: tuple[str, ...]
    rows: tuple[str, ...]
    marks: tuple[tuple[int, int, str], ...] = ()
