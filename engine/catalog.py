"""What a game offers, as the host's catalog lists it: its variants and their options and
presets, its seat colours, its computer levels, its record formats and its ladder statistics.
Re-exported by `engine.rules`, where the games import them from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import BadOptionError

# -- what a game offers (the catalog) -----------------------------------------------------------


@dataclass(frozen=True)
class OptionSpec:
    """One option a variant takes at creation (a number of rounds, a clock), with its default.

    `kind` is "int" (between `minimum` and `maximum`), "bool", "choice" (one of `choices`),
    "strings" (a list of at most `maximum` strings, which the game checks further when the
    game is created: the marble game's given setups) or "text" (one string of at most
    `maximum` characters, checked further by the game: Corners' set-up position).
    `computer_default` (None: the same as `default`) is the value a table with a computer seat
    gets when its creator did not set the option (Corners: no clock against the computer).
    `rematch` False: a rematch starts with the default instead of this game's value (the
    marble game's given setups are for one game; its rematch is dealt at random).
    `placeholder` shows a value's format in an empty input (the marble game's setups).
    `editor` "board": the game's board module edits the value as well as its field (its
    `editSetup`: Corners' set-up position, placed on a board).
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
    editor: str = ""

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
        elif self.kind == "text":
            if not isinstance(value, str):
                raise BadOptionError(f"option {self.name} must be a text", option=self.name)
            if self.maximum is not None and len(value) > self.maximum:
                raise BadOptionError(f"option {self.name} takes at most {self.maximum} "
                                     "characters", option=self.name, maximum=self.maximum)
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
        if self.kind in ("int", "strings", "text"):
            d.update(minimum=self.minimum, maximum=self.maximum)
        if self.kind == "choice":
            d["choices"] = list(self.choices)
        if self.computer_default is not None:
            d["computer_default"] = self.computer_default
        if not self.rematch:
            d["rematch"] = False
        if self.placeholder:
            d["placeholder"] = self.placeholder
        if self.editor:
            d["editor"] = self.editor
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
