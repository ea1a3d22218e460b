"""The seam between the host and a game: what every game module supplies, and the value types
they share.

A game is one object, its `Rules`, registered by id in `engine.registry`. The host, the
replays, the ladder and the bot pool hold a game only through it: a required core of at most
fifteen verbs (OpenSpiel's `State`, boardgame.io's `Game`): an initial state, `apply` to fold
an event in, a move's text checked once into the game's move value and made an event,
undo / leave as commands that return the event to append, the legal moves as text, whose turn
it is, whether it is over and its `Outcome`, a public view, a step and a picture of a state,
and its catalog entry. Anything a game needs beyond them is its own event types and options,
or a capability of `engine.capabilities` (a clock, chance, actions, computer players, hints,
records, GTP) that the game declares and the host finds by type.

`BaseRules` derives what follows from the core, holds the seat checks the games share and
gives every capability's verbs a default of "nothing".
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .capabilities import Perft
from .core import Event, Game, GameCreated
from .errors import (
    BadOptionError,
    BadSeatError,
    EngineError,
    GameOverError,
    NotYourTurnError,
    SeatLeftError,
)

S = TypeVar("S")

RESULTS = ("win", "draw", "loss")


# -- what a game offers (the catalog) -----------------------------------------------------------


@dataclass(frozen=True)
class OptionSpec:
    """One option a variant takes at creation (a number of rounds, a clock), with its default.

    `kind` is "int" (between `minimum` and `maximum`), "bool", "choice" (one of `choices`)
    or "strings" (a list of at most `maximum` strings, which the game checks further when the
    game is created: the marble game's given setups).
    `computer_default` (None: the same as `default`) is the value a table with a computer seat
    gets when its creator did not set the option (Corners: no clock against the computer).
    `rematch` False: a rematch starts with the default instead of this game's value (the
    marble game's given setups are for one game; its rematch is dealt at random).
    `placeholder` shows a value's format in an empty input (the marble game's setups).
    """

    name: str
    label: str
    default: Any
    kind: str = "int"
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    description: str = ""
    computer_default: Any = None
    rematch: bool = True
    placeholder: str = ""

    def check(self, value: Any) -> Any:
        """`value` if it is allowed, else EngineError saying why."""
        bad = BadOptionError(f"option {self.name}: {value!r} is not allowed", option=self.name)
        if self.kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadOptionError(f"option {self.name} must be a whole number", option=self.name)
            if (self.minimum is not None and value < self.minimum) or (
                    self.maximum is not None and value > self.maximum):
                raise BadOptionError(f"option {self.name} must be {self.minimum} to {self.maximum}",
                                  option=self.name, minimum=self.minimum, maximum=self.maximum)
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise BadOptionError(f"option {self.name} must be true or false", option=self.name)
        elif self.kind == "strings":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise BadOptionError(f"option {self.name} must be a list of strings",
                                     option=self.name)
            if self.maximum is not None and len(value) > self.maximum:
                raise BadOptionError(f"option {self.name} takes at most {self.maximum}",
                                     option=self.name, maximum=self.maximum)
        elif self.kind == "choice":
            if value not in self.choices:
                raise BadOptionError(f"option {self.name} must be one of {', '.join(self.choices)}",
                                  option=self.name, choices=list(self.choices))
        else:
            raise bad
        return value

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "label": self.label, "default": self.default,
                             "kind": self.kind, "description": self.description}
        if self.kind in ("int", "strings"):
            d.update(minimum=self.minimum, maximum=self.maximum)
        if self.kind == "choice":
            d["choices"] = list(self.choices)
        if self.computer_default is not None:
            d["computer_default"] = self.computer_default
        if not self.rematch:
            d["rematch"] = False
        if self.placeholder:
            d["placeholder"] = self.placeholder
        return d


@dataclass(frozen=True)
class PresetSpec:
    """A set of option values chosen with one tap (Corners' clocks: "3+2" is a reserve of
    3 minutes and 2 seconds a move). `values` names some of the variant's options; the others
    keep theirs. A preset is chosen when every value it names is set."""

    label: str
    values: tuple[tuple[str, Any], ...]
    description: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "values": dict(self.values),
                "description": self.description}


@dataclass(frozen=True)
class ColourSpec:
    """How a seat colour looks on the phones: the fill of its chips and turn line, the text
    colour on that fill, and the letter or sign on its chip (a cue besides the colour)."""

    fill: str
    ink: str = "#fff"
    mark: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"fill": self.fill, "ink": self.ink, "mark": self.mark}


def _default(option: OptionSpec, computer: bool) -> Any:
    if computer and option.computer_default is not None:
        return option.computer_default
    return option.default


@dataclass(frozen=True)
class VariantSpec:
    """A way to play a game: its seat counts, the colour of each seat, whether the ladder rates
    it, and its options. `colours` names the seats of the largest table, in seat order.
    `leaving` (optional) says what leaving means in this variant, for the phone's leave dialog
    (the marble game's team variant: the computer plays on for the leaver).
    `presets` are sets of option values the lobby offers as one tap each, under
    `presets_label` (Corners: "Clock", 1+0 … 10+5 and no clock); each value is checked here."""

    name: str
    label: str
    seats: tuple[int, ...]
    colours: tuple[str, ...]
    rated: bool = True
    options: tuple[OptionSpec, ...] = ()
    description: str = ""
    leaving: str = ""
    presets: tuple[PresetSpec, ...] = ()
    presets_label: str = ""

    def __post_init__(self) -> None:
        for preset in self.presets:
            self.option_values(dict(preset.values))  # BadOptionError on a value not allowed

    def option_values(self, given: dict[str, Any] | None, *,
                      computer: bool = False) -> dict[str, Any]:
        """Every option's value: `given` checked, defaults for the rest (an option's
        `computer_default` where it has one, if a computer sits at the table); EngineError on
        an unknown option or a bad value."""
        given = dict(given or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise BadOptionError(f"{self.name} has no option {unknown[0]!r}",
                              options=sorted(known))
        return {name: o.check(given[name]) if name in given else _default(o, computer)
                for name, o in known.items()}

    def rematch_options(self, values: dict[str, Any]) -> dict[str, Any]:
        """A finished game's option `values` as its rematch takes them: an option that is not
        carried over (`OptionSpec.rematch` False) is left out, so it takes its default."""
        carried = {o.name for o in self.options if o.rematch}
        return {name: value for name, value in values.items() if name in carried}

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "seats": list(self.seats),
                "colours": list(self.colours), "rated": self.rated,
                "options": [o.to_dict() for o in self.options],
                "description": self.description, "leaving": self.leaving,
                "presets": [p.to_dict() for p in self.presets],
                "presets_label": self.presets_label}


@dataclass(frozen=True)
class LevelSpec:
    """A computer level: its number (1 = weakest), name, what it does, about how many
    seconds a move takes, and (optionally) the fixed rating the ladder gives it (None: the
    ladder's default for the level's number)."""

    number: int
    name: str
    description: str
    seconds: float
    rating: float | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"number": self.number, "name": self.name,
                             "description": self.description, "seconds": self.seconds}
        if self.rating is not None:
            d["rating"] = self.rating
        return d


def computer_name(level: int | None) -> str:
    """The one name a computer seat goes by everywhere (the game's state, the lobby, the
    replays, the exported records, the ladder): "Computer L3"."""
    return "Computer" if level is None else f"Computer L{level}"


def computer_names(levels: list[int | None] | tuple[int | None, ...]) -> list[str | None]:
    """The names of a table's computer seats, told apart: `levels` has each seat's computer
    level in seat order (None: not a computer seat nobody named). A level seated once goes by
    `computer_name` ("Computer L3"); seated more often, each is numbered in seat order
    ("Computer L3 (1)", "Computer L3 (2)")."""
    out: list[str | None] = []
    for i, level in enumerate(levels):
        if level is None:
            out.append(None)
            continue
        twins = [j for j, other in enumerate(levels) if other == level]
        name = computer_name(level)
        out.append(name if len(twins) < 2 else f"{name} ({twins.index(i) + 1})")
    return out


@dataclass(frozen=True)
class FormatSpec:
    """A game record format besides the JSON log (Corner Claim's `.blksgf`)."""

    ext: str
    mimetype: str
    label: str

    def to_dict(self) -> dict[str, Any]:
        return {"ext": self.ext, "mimetype": self.mimetype, "label": self.label}


@dataclass(frozen=True)
class StatSpec:
    """A per-seat statistic a game reports to the ladder (summed over a player's games)."""

    key: str
    label: str

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label}


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


class Rules(Protocol[S]):
    """The required core every game writes. States are immutable values; every method is
    pure. At most fifteen verbs (a test counts them): what OpenSpiel's `State` and
    boardgame.io's `Game` ask of a game.

    Catalog: `game` (its id), `title`, `tagline`, `palette`, `variants`, `levels`, `formats`,
    `stats`, and `catalog()`, its line of the host's catalog.
    Commands return the event to append or raise EngineError: a move is checked once into the
    game's own move value (`check_move`), then made an event (`play_move`); `undo`, `leave`.
    Anything more (a clock, chance, actions, computer players, hints, records, GTP) is a
    capability of its own (`engine.capabilities`), declared by the game and found by type.
    `BaseRules` supplies what can be derived from the core (`play` from a move's text,
    `legal_json`, `ladder`, `can_undo`, `perft`) and a default for every capability's verbs.
    """

    game: str
    title: str
    tagline: str
    palette: dict[str, ColourSpec]
    variants: dict[str, VariantSpec]
    levels: dict[int, LevelSpec]
    formats: dict[str, FormatSpec]
    stats: tuple[StatSpec, ...]

    # the fold
    def initial_state(self, created: GameCreated) -> S: ...
    def apply(self, state: S, event: Event) -> S: ...

    # commands (`now`: the host's wall clock in seconds, for games with a clock; None in
    # analysis and tests)
    def check_move(self, state: S, seat: int, text: str) -> Any: ...
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
    move's text, `legal_json`, `ladder`, `can_undo`, `perft`), the seat checks the games
    share (`check_seat`, `check_open`, `check_turn`, `check_leave`, `check_undo_seat`), and
    a default for every capability's verbs, so a host that calls one on a game without that
    capability gets "nothing" (no deadline, no chance, no hint). Subclasses set the catalog
    attributes, implement the core (`Rules`) and name their capabilities among their bases."""

    game: str = ""
    title: str = ""
    #: What the game is in a few words, for the lobby's picker ("marbles, 2 or 4 players").
    tagline: str = ""
    #: Each seat colour's look on the phones (the lobby's and the seat cards' chips).
    palette: dict[str, ColourSpec] = {}
    variants: dict[str, VariantSpec] = {}
    levels: dict[int, LevelSpec] = {}
    formats: dict[str, FormatSpec] = {}
    stats: tuple[StatSpec, ...] = ()
    #: Which level answers a hint (None: the game gives no hints).
    hint_level: int | None = None
    #: The move query the legal list accepts (Corner Claim: "piece"), None for none.
    legal_query: str | None = None
    #: The JSON schema of the legal query's value, for the host's OpenAPI document (None:
    #: any string; the game refuses a value it does not know).
    legal_query_schema: dict[str, Any] | None = None
    #: What a seat may do besides moving, taking back and leaving, each an event of the
    #: game's own (Corners: "resign", "offer_draw", "accept_draw", "decline_draw").
    actions: tuple[str, ...] = ()
    #: Whether a seat may pass (Corner Claim: a seat with no placement left, whose turn the
    #: host skips); a game without passing has no Pass button.
    passing: bool = False

    # -- commands: a move's text checked once into the game's move value, then its event ----
    def check_move(self, state, seat: int, text: str) -> Any:
        """`text` as this game's move value if `seat` may play it now; EngineError saying
        why not. The default keeps the text, for a game that writes `play` itself."""
        return text

    def play_move(self, state, seat: int, move: Any, *, now: float | None = None) -> Event:
        """The event to append for `move`, a value `check_move` gave for this state and seat
        (not checked again). The default, for a game that writes `play` itself: `play`."""
        if type(self).play is BaseRules.play:
            raise NotImplementedError(f"{type(self).__name__} writes neither play_move nor play")
        return self.play(state, seat, move, now=now)

    def play(self, state, seat: int, move: str, *, now: float | None = None) -> Event:
        """The event to append for the move written `move`: `check_move`, then `play_move`."""
        return self.play_move(state, seat, self.check_move(state, seat, move), now=now)

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

    # -- capabilities' defaults --------------------------------------------------------------
    def act(self, state, seat: int, action: str, *, now: float | None = None) -> Event:
        raise EngineError(f"{self.title} has no action {action!r}",
                          actions=list(self.actions))

    def available_actions(self, state, seat: int) -> list[str]:
        """The actions of `actions` that `seat` may take now (those `act` does not refuse,
        the clock aside)."""
        out = []
        for action in self.actions:
            try:
                self.act(state, seat, action)
            except EngineError:
                continue
            out.append(action)
        return out

    def deadline(self, state) -> float | None:
        """The host's wall-clock time (seconds) at which `expire` must run; None: never."""
        return None

    def expire(self, state, now: float) -> Event | None:
        """The event due at `now` (a flag fall), or None if nothing is due yet."""
        return None

    def resume(self, state, now: float) -> Event | None:
        """The event a host appends to a running game when it starts (a clock restarted at
        `now`, so the time the host was down is not charged), or None."""
        return None

    def chance(self, state, rng: random.Random) -> Event | None:
        """The event chance decides now (a deal at the start of a round), drawn with the
        host's `rng` and then appended like any other, so the fold and every replay see the
        same draw; None while the game needs none. The host asks after creating the game and
        after every event it appends."""
        return None

    def replacement_level(self, state, seat: int) -> int | None:
        """The computer level the host seats in place of `seat` after it left, if the game
        goes on with that seat played by the computer (a 4-player team game); None (the
        default): a seat that left stays empty."""
        return None

    def legal_json(self, state, seat: int, query: str | None = None) -> bytes:
        """The legal list as a compact JSON array."""
        return json.dumps(self.legal(state, seat, query), separators=(",", ":")).encode()

    def step(self, state, event: Event) -> Step:
        seat = getattr(event, "seat", None)
        move = getattr(event, "move", None)
        if event.TYPE == "player_left":
            return Step("left", seat, text="left")
        if event.TYPE == "move_taken_back":
            return Step("takeback", seat, text="took back")
        return Step("move" if move is not None else event.TYPE, seat, move)

    def takeback_refusal(self, state) -> str | None:
        """Why this game refuses every takeback now, a sentence for the players (Corners: a
        rated game with a clock); None when takebacks are allowed (a seat may still have
        nothing to take back). A game that refuses a takeback for this reason says these
        words in its error."""
        return None

    def computer_action(self, state, seat: int) -> str | None:
        """The action (one of `actions`) a computer at `seat` takes now besides moving: an
        answer to an offer made to it (Corners: it declines a draw). None: nothing to do."""
        return None

    def can_undo(self, state, seat: int) -> bool:
        try:
            self.undo(state, seat)
        except EngineError:
            return False
        return True

    def ladder(self, state) -> tuple[LadderSeat, ...]:
        outcome = self.outcome(state)
        points = outcome.points or tuple(
            {"win": 2, "draw": 1, "loss": 0}[r] for r in outcome.results)
        return tuple(LadderSeat(p) for p in points)

    def choose_move(self, state, seat: int, *, level: int, seed: int) -> str | None:
        raise EngineError(f"{self.title} has no computer players")

    def hint(self, state, seat: int) -> str | None:
        if self.hint_level is None:
            return None
        return self.choose_move(state, seat, level=self.hint_level, seed=0)

    def warm_up(self) -> float:
        return 0.0

    def prepare_host(self) -> None:
        """Ready a long-running host process to serve this game before it takes requests:
        build the tables its first game would otherwise build with every phone waiting,
        bound caches that would grow for as long as the host runs. Not the computer
        players' warm-up (`warm_up`, run in the bot workers). The default does nothing."""

    def export(self, game: Game, fmt: str) -> str:
        raise EngineError(f"{self.title} has no {fmt} format", formats=sorted(self.formats))

    def read(self, text: str) -> Game | None:
        """A game from a record in one of this game's own formats; None if `text` is none of
        them (EngineError if it is one but broken)."""
        return None

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
        return {"game": self.game, "title": self.title, "tagline": self.tagline,
                "palette": {name: c.to_dict() for name, c in self.palette.items()},
                "variants": [v.to_dict() for v in self.variants.values()],
                "levels": [lv.to_dict() for lv in self.levels.values()],
                "formats": [f.to_dict() for f in self.formats.values()],
                "stats": [s.to_dict() for s in self.stats],
                "legal_query": self.legal_query, "actions": list(self.actions),
                "hint": self.hint_level is not None, "pass": self.passing}
