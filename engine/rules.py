"""The seam between the host and a game: what every game module supplies, and the value types
they share.

A game is one object, its `Rules`, registered by id in `engine.registry`. The host, the
replays, the ladder and the bot pool hold a game only through it: a required core of at most
fifteen verbs (OpenSpiel's `State`, boardgame.io's `Game`): an initial state, `apply` to fold
an event in, a move's text checked once into the game's move value and made an event,
undo / leave as commands that return the event to append, the legal moves as text, whose turn
it is, whether it is over and its `Outcome`, a public view, a step and a picture of a state,
and its catalog entry, with the catalog attributes beside them. Anything a game needs beyond
them is its own event types and options, or a capability of `engine.capabilities` (a clock,
chance, actions, computer players, hints, records, practice games, ladder stats…) that the
game declares and the host finds by type (`capability(rules, Kind)`).

`BaseRules` derives what follows from the core (`play`, a `step` for the shared events, the
catalog line, a perft that walks the core) and holds the seat checks the games share; it
writes no capability's verb but `Perft`'s. What the host derives from the core and a
capability together is a function here: `legal_json`, `can_undo`, `ladder_seats`,
`is_practice`.
"""

from __future__ import annotations

import json
from importlib import import_module
from typing import Any, Protocol, TypeVar

from .capabilities import (
    Actions,
    Analysis,
    Hints,
    Ladder,
    LegalJson,
    Perft,
    Practice,
    capability,
)
from .catalog import (
    ColourSpec,
    FormatSpec,
    LevelSpec,
    OptionSpec,
    PresetSpec,
    StatSpec,
    VariantSpec,
    computer_name,
    computer_names,
)
from .core import is_over, outcome_of
from .errors import (
    BadSeatError,
    EngineError,
    GameOverError,
    NotYourTurnError,
    SeatLeftError,
)
from .events import Event, GameCreated
from .views import (
    GENERIC_ENDINGS,
    LadderSeat,
    Outcome,
    Picture,
    PublicView,
    SeatView,
    Step,
    Team,
    abandoned,
    ending_text,
)

S = TypeVar("S")

RESULTS = ("win", "draw", "loss")

#: The value types of `engine.catalog` and `engine.views`, which the games import from here.
__all__ = ["ColourSpec", "FormatSpec", "GENERIC_ENDINGS", "LadderSeat", "LevelSpec",
           "OptionSpec", "Outcome", "Picture", "PresetSpec", "PublicView", "SeatView",
           "StatSpec", "Step", "Team", "VariantSpec", "abandoned", "computer_name",
           "computer_names", "ending_text", "is_over", "outcome_of", "RESULTS", "CORE",
           "Rules", "BaseRules", "legal_json", "can_undo", "ladder_seats",
           "is_practice"]


class Rules(Protocol[S]):
    """The required core every game writes. States are immutable values; every method is
    pure. At most fifteen verbs (a test counts them): what OpenSpiel's `State` and
    boardgame.io's `Game` ask of a game.

    Catalog attributes: `game` (its id), `title`, `tagline`, `summary`, `palette`,
    `variants`, `levels`, `formats`, `stats`; `legal_query`, the name of the query `legal`
    takes (Corner Claim: "piece"; None: none), with `legal_query_schema`, its value's JSON
    schema for the host's OpenAPI document (None: any short string); `passing`, whether a
    seat may pass (the host skips its turns; the phones show a Pass button). `catalog()` is
    the game's line of the host's catalog.
    Commands return the event to append or raise EngineError: a move is checked once into the
    game's own move value (`check_move`), then made an event (`play_move`); `undo`, `leave`.
    Anything more (a clock, chance, actions, computer players, hints, records, practice games,
    ladder stats, a faster fold or legal list) is a capability of its own
    (`engine.capabilities`), declared by the game and found by type: the host calls nothing
    else on a game. `BaseRules` supplies what can be derived from the core (`play` from a
    move's text, `step`, `catalog`, `perft`); the functions below this module's classes
    derive the rest (`legal_json`, `can_undo`, `ladder_seats`, `is_practice`).
    """

    game: str
    title: str
    tagline: str
    summary: str
    palette: dict[str, ColourSpec]
    variants: dict[str, VariantSpec]
    levels: dict[int, LevelSpec]
    formats: dict[str, FormatSpec]
    stats: tuple[StatSpec, ...]
    legal_query: str | None
    legal_query_schema: dict[str, Any] | None
    passing: bool

    # the fold
    def initial_state(self, created: GameCreated) -> S: ...
    def apply(self, state: S, event: Event) -> S: ...

    # commands (`now`: the host's wall clock in seconds, for games with a clock; None in
    # analysis and tests)
    def check_move(self, state: S, seat: int, text: str, *,
                   now: float | None = None) -> Any: ...
    def play_move(self, state: S, seat: int, move: Any, *, now: float | None = None) -> Event: ...
    def undo(self, state: S, seat: int, *, now: float | None = None) -> Event: ...
    def leave(self, state: S, seat: int, *, now: float | None = None) -> Event: ...

    # queries
    def legal(self, state: S, seat: int, query: str | None = None) -> list[dict[str, Any]]: ...
    def to_move(self, state: S) -> int | None: ...
    def is_over(self, state: S) -> bool: ...
    def outcome(self, state: S) -> Outcome: ...
    def left(self, state: S) -> frozenset[int]: ...
    def public_view(self, state: S) -> PublicView: ...
    def step(self, state: S, event: Event) -> Step: ...
    def picture(self, state: S) -> Picture: ...
    def catalog(self) -> dict[str, Any]: ...


#: The verbs of the required core, in the order above (the tests hold every game to them).
CORE = ("initial_state", "apply", "check_move", "play_move", "undo", "leave", "legal",
        "to_move", "is_over", "outcome", "left", "public_view", "step", "picture", "catalog")


class BaseRules(Perft):
    """The base every game's rules derive from: what follows from the core (`play` from a
    move's text, a `step` for the shared events, `catalog`, a `perft` that walks the core)
    and the seat checks the games share (`check_seat`, `check_open`, `check_turn`,
    `check_leave`, `check_undo_seat`). No verb of any other capability: a game writes the
    verbs of each capability it names among its bases, and only those. Subclasses set the
    catalog attributes and implement the core (`Rules`)."""

    game: str = ""
    title: str = ""
    #: What the game is in a few words, for the lobby's picker ("marbles, 2 or 4 players").
    tagline: str = ""
    #: The game in one sentence, for the lobby's card ("Slide your arrow to a new line and
    #: take the marble where it crosses your opponent's.").
    summary: str = ""
    #: Each seat colour's look on the phones (the lobby's and the seat cards' chips).
    palette: dict[str, ColourSpec] = {}
    variants: dict[str, VariantSpec] = {}
    levels: dict[int, LevelSpec] = {}
    formats: dict[str, FormatSpec] = {}
    stats: tuple[StatSpec, ...] = ()
    #: The move query the legal list accepts (Corner Claim: "piece"), None for none.
    legal_query: str | None = None
    #: The JSON schema of the legal query's value, for the host's OpenAPI document (None:
    #: any string; the game refuses a value it does not know).
    legal_query_schema: dict[str, Any] | None = None
    #: Whether a seat may pass (Corner Claim: a seat with no placement left, whose turn the
    #: host skips); a game without passing has no Pass button.
    passing: bool = False

    # -- commands: a move's text checked once into the game's move value, then its event ----
    def check_move(self, state, seat: int, text: str, *, now: float | None = None) -> Any:
        """`text` as this game's move value if `seat` may play it at `now` (a game with a
        clock: its time is not up); EngineError saying why not. The default keeps the text,
        for a game that writes `play` itself."""
        return text

    def play_move(self, state, seat: int, move: Any, *, now: float | None = None) -> Event:
        """The event to append for `move`, a value `check_move` gave for this state and seat
        (not checked again). The default, for a game that writes `play` itself: `play`."""
        if type(self).play is BaseRules.play:
            raise NotImplementedError(f"{type(self).__name__} writes neither play_move nor play")
        return self.play(state, seat, move, now=now)

    def play(self, state, seat: int, move: str, *, now: float | None = None) -> Event:
        """The event to append for the move written `move`: `check_move`, then `play_move`."""
        return self.play_move(state, seat, self.check_move(state, seat, move, now=now),
                              now=now)

    # -- the seat checks every game repeats ------------------------------------------------
    @staticmethod
    def check_seat(seat: int, seats: int) -> None:
        """BadSeatError unless `seat` is a whole number from 1 to `seats`."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= seats:
            which = "1 or 2" if seats == 2 else f"1 to {seats}"
            raise BadSeatError(f"seat must be {which}", seat=seat)

    def check_open(self, state, seat: int, seats: int) -> None:
        """A seat of the game, still at the table, the game not over."""
        self.check_seat(seat, seats)
        if seat in self.left(state):
            raise SeatLeftError(f"seat {seat} has left this game")
        if self.is_over(state):
            raise GameOverError("the game is over")

    def check_turn(self, state, seat: int, seats: int) -> None:
        """Before a move: `check_open`, and it is the seat's turn (`to_move`)."""
        self.check_open(state, seat, seats)
        to_move = self.to_move(state)
        if seat != to_move:
            raise NotYourTurnError(f"it is seat {to_move}'s turn, not seat {seat}'s",
                                   to_move=to_move)

    def check_leave(self, state, seat: int, seats: int) -> None:
        """Before leaving: a seat of the game, still at the table, the game not over."""
        self.check_seat(seat, seats)
        if seat in self.left(state):
            raise SeatLeftError(f"seat {seat} has already left")
        if self.is_over(state):
            raise GameOverError("the game is over")

    def check_undo_seat(self, state, seat: int, seats: int) -> None:
        """Before a takeback: a seat of the game, still at the table (whether it has a move
        to take back is the game's own check)."""
        self.check_seat(seat, seats)
        if seat in self.left(state):
            raise SeatLeftError(f"seat {seat} has left this game")

    # -- what derives from the core -----------------------------------------------------------
    def step(self, state, event: Event) -> Step:
        """The shared events' steps (a move, leaving, a takeback); a game adds its own."""
        seat = getattr(event, "seat", None)
        move = getattr(event, "move", None)
        if event.TYPE == "player_left":
            return Step("left", seat, text="left")
        if event.TYPE == "move_taken_back":
            return Step("takeback", seat, text="took back")
        return Step("move" if move is not None else event.TYPE, seat, move)

    def perft(self, variant: str, depth: int, moves: tuple[str, ...] | list[str] = ()) -> int:
        """The number of legal move sequences of length `depth` from `variant`'s start after
        `moves` (move texts) are played, as chess engines count them to test a move
        generator. A sequence stops where the game ends (a move that ends it counts at the
        last depth only). This default walks the seam (`legal`, `play`, `apply`) with no
        clock running; a game with a faster counter overrides it."""
        if variant not in self.variants:
            raise EngineError(f"{self.title} has no variant {variant!r}",
                              variants=sorted(self.variants))
        if not isinstance(depth, int) or depth < 0:
            raise EngineError("the depth must be a whole number, 0 or more", depth=depth)
        state = self.initial_state(GameCreated(seq=1, game=self.game, variant=variant))
        for text in moves:
            seat = self.to_move(state)
            if seat is None:
                raise EngineError(f"the game is over before {text}", move=text)
            state = self.apply(state, self.play(state, seat, text))
        return self._perft(state, depth)

    def _perft(self, state, depth: int) -> int:
        if self.is_over(state):
            return 1 if depth == 0 else 0
        if depth == 0:
            return 1
        seat = self.to_move(state)
        if seat is None:
            return 0
        moves = self.legal(state, seat)
        if depth == 1:
            return len(moves)
        return sum(self._perft(self.apply(state, self.play(state, seat, m["move"])), depth - 1)
                   for m in moves)

    def catalog(self) -> dict[str, Any]:
        """This game's line of `GET /api/catalog`."""
        actions, hints = capability(self, Actions), capability(self, Hints)
        return {"game": self.game, "title": self.title, "tagline": self.tagline,
                "summary": self.summary,
                "palette": {name: c.to_dict() for name, c in self.palette.items()},
                "variants": [v.to_dict() for v in self.variants.values()],
                "levels": [lv.to_dict() for lv in self.levels.values()],
                "formats": [f.to_dict() for f in self.formats.values()],
                "stats": [s.to_dict() for s in self.stats],
                "legal_query": self.legal_query,
                "actions": list(actions.actions) if actions is not None else [],
                "hint": hints is not None and hints.hint_level is not None,
                "pass": self.passing}


class ReviewModule(Analysis):
    """`Analysis` written in a module of the game's own (`review_module`, which holds
    `THRESHOLDS` and `analyse_ply`), imported at the first review: it loads the game's
    search."""

    review_module: str

    @property
    def analysis_thresholds(self):  # type: ignore[override]
        return import_module(self.review_module).THRESHOLDS

    def analyse_ply(self, state, seat: int, move: str, *, level: int | None = None,
                    seed: int = 0):
        return import_module(self.review_module).analyse_ply(state, seat, move, level=level,
                                                            seed=seed)


# -- what the host derives from the core and the capabilities -----------------------------------

def legal_json(rules: Rules, state, seat: int, query: str | None = None) -> bytes:
    """The legal list as a compact JSON array: the game's own encoding if it declares
    `LegalJson`, else `legal` dumped."""
    own = capability(rules, LegalJson)
    if own is not None:
        return own.legal_json(state, seat, query)
    return json.dumps(rules.legal(state, seat, query), separators=(",", ":")).encode()


def can_undo(rules: Rules, state, seat: int) -> bool:
    """Whether `seat` may take a move back now (`undo` does not refuse)."""
    try:
        rules.undo(state, seat)
    except EngineError:
        return False
    return True


def ladder_seats(rules: Rules, state) -> tuple[LadderSeat, ...]:
    """Each seat's ladder points and stats in a finished game: the game's own if it declares
    `Ladder`, else the outcome's points (2 a win, 1 a draw, 0 a loss where it gives none)."""
    own = capability(rules, Ladder)
    if own is not None:
        return own.ladder(state)
    outcome = rules.outcome(state)
    points = outcome.points or tuple(
        {"win": 2, "draw": 1, "loss": 0}[r] for r in outcome.results)
    return tuple(LadderSeat(p) for p in points)


def is_practice(rules: Rules, state) -> bool:
    """Whether the game is played for practice, unrated and never on the ladder: only a game
    that declares `Practice` has such games (Corners: its practice option, a set-up
    position, the solo race)."""
    own = capability(rules, Practice)
    return own is not None and own.practice(state)
