"""The OpenAPI document as the host serves it: the limits it enforces, written in.

flask-smorest writes the document from the marshmallow schemas, which check shape only. What
the host also refuses depends on the games it offers, so it is written in here, from
`engine.registry`, each time the document is asked for (a game registered later is in it):

- `POST /api/games`: one alternative (`oneOf`) per game, variant and seat count: the game's
  id, the variant's name, exactly that many seats, each a person's seat (`open`, `local`) or
  a computer seat with one of the game's levels; the variant's options with their types and
  ranges (none for a variant without options); `clock` only for a variant with a clock, and
  `rounds` / `setups` at the top level only for a variant with those options, each given in
  one place only (at the top level or in `options`).
- display names (a seat's, a claim's): the characters `server.web.limits.check_name` allows,
  as a `pattern`, not blank.
- a computer seat's level: the levels of the host's games.
- `GET /api/players`: `game` one of the games, `variant` `all` or one of their variants.

What no schema can say is documented as the error it gets: a record that is not a game this
host reads (`POST /api/replays`, 400), a marble setup that is not a full set (422
`bad_setup`), more setups than rounds (422 `bad_option`).
"""

from __future__ import annotations

import copy
import unicodedata
from functools import lru_cache
from itertools import combinations
from typing import Any

from engine import registry
from engine.registry import DEFAULT_GAME
from engine.rules import OptionSpec, Rules, VariantSpec
from server.web.limits import BAD_CATEGORIES, BIDI_CONTROLS

#: Options a create request may set at its top level (server.tables.service.GIVEN_OPTIONS)
GIVEN = ("rounds", "setups")
#: The options the top-level `clock` sets (server.tables.service.CLOCK_OPTIONS)
CLOCK = ("reserve_s", "increment_s")
NAME_LENGTH = 40
STRING_LENGTH = 200  # characters of one string of a strings option (schemas.CreateGame)
PERSON_KINDS = ["open", "local"]
ALL = "all"
NAME = "DisplayName"  # the component of a display name


def ref(component: str, *, nullable: bool = False) -> dict[str, Any]:
    schema: dict[str, Any] = {"$ref": f"#/components/schemas/{component}"}
    return {"nullable": True, "allOf": [schema]} if nullable else schema


def seat_component(rules: Rules) -> str:
    return f"Seat_{rules.game}"


def published(spec: dict[str, Any]) -> dict[str, Any]:
    """`spec` (flask-smorest's document) with the registry's limits written in."""
    spec = copy.deepcopy(spec)
    schemas = spec.get("components", {}).get("schemas", {})
    schemas[NAME] = name_schema()
    if "CreateGame" in schemas:
        schemas["CreateGame"] = create_game_schema(schemas["CreateGame"])
        schemas.pop("SeatSpec", None)
        schemas.pop("ClockSpec", None)
        for rules in registry.games():
            schemas[seat_component(rules)] = seat_schema(rules)
    if "Claim" in schemas:
        schemas["Claim"]["properties"]["name"] = ref(NAME)
    if "ComputerSeat" in schemas and all_levels():
        schemas["ComputerSeat"]["properties"]["level"].update(
            enum=all_levels(), description="one of the computer levels of the game's catalog "
            "line (422 invalid_request for a level this game does not have)")
    most = max((n for rules in registry.games() for v in rules.variants.values()
                for n in v.seats), default=4)
    for item in spec.get("paths", {}).values():
        for parameter in item.get("parameters", []):
            if parameter["in"] == "path" and parameter["name"] == "seat":
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": most}
                parameter["description"] = ("a seat number of the game (400 bad_seat for one "
                                            "it does not have)")
    legal = spec.get("paths", {}).get("/api/games/{game_id}/legal", {}).get("get")
    if legal:
        legal["parameters"] = [p for p in legal.get("parameters", [])
                               if p["in"] != "query" or p["name"] == "seat"]
        legal["parameters"] += legal_query_parameters()
    imports = spec.get("paths", {}).get("/api/replays", {}).get("post")
    if imports and "requestBody" in imports:
        imports["requestBody"]["description"] = record_description()
        for media in imports["requestBody"].get("content", {}).values():
            media.get("schema", {})["minLength"] = 1
    players = spec.get("paths", {}).get("/api/players", {}).get("get")
    if players:
        for parameter in players.get("parameters", []):
            if parameter["name"] == "game":
                parameter["schema"]["enum"] = [rules.game for rules in registry.games()]
            elif parameter["name"] == "variant":
                parameter["schema"]["enum"] = [ALL, *all_variants()]
                parameter["description"] = ("all, or a variant of the game (404 "
                                            "no_such_variant for another game's variant)")
    return spec


def legal_query_parameters() -> list[dict[str, Any]]:
    """One query parameter per name a game's legal list is narrowed by (its catalog's
    `legal_query`), with that game's values."""
    by_name: dict[str, list[Rules]] = {}
    for rules in registry.games():
        if rules.legal_query:
            by_name.setdefault(rules.legal_query, []).append(rules)
    parameters = []
    for name, games in by_name.items():
        schemas = [g.legal_query_schema or {"type": "string", "minLength": 1, "maxLength": 40}
                   for g in games]
        schema = schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
        titles = ", ".join(g.title for g in games)
        parameters.append({
            "in": "query", "name": name, "required": False, "schema": schema,
            "description": f"{titles} only: narrows the list (422 invalid_request in another "
                           "game, which takes no such parameter)"})
    return parameters


def record_description() -> str:
    """What `POST /api/replays` reads: which no schema can check (the moves must replay)."""
    formats = [f"{rules.title}'s .{f.ext} ({f.label}, {f.mimetype})"
               for rules in registry.games() for f in rules.formats.values()]
    return ("a game record, the file itself, whatever its content type: the JSON game log of "
            "any game of the host (an object whose format is cornerclaim-log, as "
            "GET …/replay.json writes it)" + "".join(f", or {f}" for f in formats)
            + "; at most 256 KiB. A file that is empty, in no such format, or whose moves do "
            "not replay is refused with 400 (bad_log, or the format's own code such as "
            "bad_sgf) saying where and why.")


def all_levels() -> list[int]:
    return sorted({n for rules in registry.games() for n in rules.levels})


def all_variants() -> list[str]:
    return list(dict.fromkeys(v for rules in registry.games() for v in rules.variants))


# -- display names --------------------------------------------------------------------------
def _allowed(ch: str) -> bool:
    return ch not in BIDI_CONTROLS and unicodedata.category(ch) not in BAD_CATEGORIES


def _ranges(test) -> list[tuple[int, int]]:
    """The runs of code points `test` holds for, surrogates left out (a JSON string that
    decodes holds none but by escape, and `check_name` refuses those)."""
    runs: list[tuple[int, int]] = []
    start = None
    for code in range(0x110001):
        ok = code < 0x110000 and not 0xD800 <= code <= 0xDFFF and test(chr(code))
        if ok and start is None:
            start = code
        elif not ok and start is not None:
            runs.append((start, code - 1))
            start = None
    return runs


def _class_body(runs: list[tuple[int, int]]) -> str:
    """Ranges as a regex class's contents, read alike by ECMA 262 (u flag), Python and Rust:
    a BMP code point as `\\uXXXX`, another as the character itself."""
    def lit(code: int) -> str:
        return f"\\u{code:04X}" if code <= 0xFFFF else chr(code)
    return "".join(lit(a) if a == b else f"{lit(a)}-{lit(b)}" for a, b in runs)


@lru_cache(maxsize=1)
def name_pattern() -> str:
    """A display name as `check_name` allows it: 1 to 40 characters, leading spaces, one
    character that is neither a space nor refused, then any characters not refused.

    Written with negated classes of the few refused characters (a class of the allowed ones
    is a million code points, slow for a generator to draw from), and the length as a
    lookahead rather than minLength/maxLength, which schemathesis folds into the pattern and
    then spells in a way its own regex check refuses."""
    refused = _class_body(_ranges(lambda ch: not _allowed(ch)))
    spaces = _class_body(_ranges(lambda ch: _allowed(ch) and ch.isspace()))
    return (f"^(?=[\\s\\S]{{1,{NAME_LENGTH}}}$)"  # 1 to 40 characters: see the docstring
            f"[{spaces}]*[^{refused}{spaces}][^{refused}]*$")


def name_schema() -> dict[str, Any]:
    return {
        "type": "string", "pattern": name_pattern(),
        "description": "a display name: 1 to 40 characters, not blank, without control "
        "characters, surrogates, private-use characters, line or paragraph separators "
        "(Unicode categories Cc, Cs, Co, Zl, Zp) or bidirectional controls "
        "(U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069)"}


# -- creating a game ------------------------------------------------------------------------
def create_game_schema(base: dict[str, Any]) -> dict[str, Any]:
    """`POST /api/games`'s body: one alternative per game, variant, seat count and place of
    the options that may be given at the top level."""
    alternatives = [body for rules in registry.games() for variant in rules.variants.values()
                    for body in variant_bodies(rules, variant)]
    return {"type": "object", "oneOf": alternatives,
            "description": "one of the games of GET /api/catalog, one of its variants, one "
            "seat per seat of a count the variant allows, and the variant's options (defaults "
            "fill the rest). " + base.get("description", "")}


def variant_bodies(rules: Rules, variant: VariantSpec) -> list[dict[str, Any]]:
    names = {o.name: o for o in variant.options}
    has_clock = all(name in names for name in CLOCK)
    given = [name for name in GIVEN if name in names]
    placements: list[tuple[bool, tuple[str, ...]]] = [
        (clock, top) for clock in ((False, True) if has_clock else (False,))
        for k in range(len(given) + 1) for top in combinations(given, k)]
    bodies = []
    for count in variant.seats:
        for clock, top in placements:
            in_options = [o for o in variant.options
                          if o.name not in top and not (clock and o.name in CLOCK)]
            properties: dict[str, Any] = {
                "game": {"type": "string", "enum": [rules.game]},
                "variant": {"type": "string", "enum": [variant.name]},
                "seats": {"type": "array", "minItems": count, "maxItems": count,
                          "items": ref(seat_component(rules))},
                "options": {"type": "object", "additionalProperties": False,
                            "properties": {o.name: option_schema(o) for o in in_options}},
            }
            required = ["variant", "seats"]
            if rules.game != DEFAULT_GAME:
                required.insert(0, "game")
            if clock:
                properties["clock"] = clock_schema(names)
                required.append("clock")
            for name in top:
                properties[name] = option_schema(names[name])
                required.append(name)
            bodies.append({"type": "object", "title": _title(rules, variant, count, clock, top),
                           "properties": properties, "required": required,
                           "additionalProperties": False})
    return bodies


def _title(rules: Rules, variant: VariantSpec, count: int, clock: bool,
           top: tuple[str, ...]) -> str:
    title = f"{rules.title} {variant.label}, {count} seats"
    if clock:
        title += ", with clock"
    for name in top:
        title += f", with {name}"
    return title


def seat_schema(rules: Rules) -> dict[str, Any]:
    levels = sorted(rules.levels)
    level: dict[str, Any] = {"type": "integer", "enum": levels,
                             "description": f"one of {rules.title}'s computer levels"}
    computer: dict[str, Any] = {
        "type": "object", "title": "a computer seat", "additionalProperties": False,
        "properties": {"kind": {"type": "string", "enum": ["computer"]},
                       "name": ref(NAME, nullable=True), "level": level},
        "required": ["kind"] if 1 in levels else ["kind", "level"]}
    if 1 in levels:
        level["default"] = 1
    person = {
        "type": "object", "title": "a person's seat", "additionalProperties": False,
        "properties": {"kind": {"type": "string", "enum": PERSON_KINDS,
                                "description": "open: for someone to claim; local: played "
                                "on this device"},
                       "name": ref(NAME, nullable=True)},
        "required": ["kind"]}
    if not levels:  # no computer player: a computer seat is refused
        return {**person, "description": f"a seat of a {rules.title} game: a person's"}
    return {"oneOf": [person, computer],
            "description": f"a seat of a {rules.title} game: a person's or a computer's"}


def option_schema(option: OptionSpec) -> dict[str, Any]:
    schema: dict[str, Any]
    if option.kind == "int":
        schema = {"type": "integer"}
        if option.minimum is not None:
            schema["minimum"] = option.minimum
        if option.maximum is not None:
            schema["maximum"] = option.maximum
    elif option.kind == "bool":
        schema = {"type": "boolean"}
    elif option.kind == "choice":
        schema = {"type": "string", "enum": list(option.choices)}
    elif option.kind == "strings":
        schema = {"type": "array", "items": {"type": "string", "maxLength": STRING_LENGTH}}
        if option.maximum is not None:
            schema["maxItems"] = option.maximum
    elif option.kind == "text":
        schema = {"type": "string"}
        if option.maximum is not None:
            schema["maxLength"] = option.maximum
    else:  # a kind the catalog does not know: any value; the game checks it
        schema = {}
    schema["description"] = " ".join(p for p in (option.label + ":", option.description,
                                                   f"(default {option.default!r})") if p)
    return schema


def clock_schema(options: dict[str, OptionSpec]) -> dict[str, Any]:
    properties = {name: option_schema(options[name]) for name in CLOCK}
    return {"type": "object", "nullable": True, "additionalProperties": False,
            "properties": properties, "required": ["reserve_s"],
            "description": "sets the clock options (then not in `options`); null: no clock "
            "(reserve_s 0)"}

