"""Corners' plain-text game record, `.cgn` ("Corners game notation"), like chess's PGN: tag
pairs, then the moves in numbered pairs and the result token (docs/formats.md).

    [Variant "classic-3x3"]
    [White "Ann"]
    [Black "Bo"]
    [Date "2026.12.06"]
    [Clock "300+3"]
    [Result "1-0"]
    [Reason "target"]

    1. c3-d3 f6-e6 2. c1-c3-e3 … 41. b3-b5 1-0

`write_record` prints a `Game` (the moves that count, full paths); `read_record` reads one
back into a `Game` by playing every move through the rules (`Game.play`, the table's own
check: a from–to such as `c3-e5` is resolved to its canonical path), then the end the tags
give when the moves do not reach one (a resignation, a flag fall, an agreed draw). Parsing
and printing sit next to each other so the two agree. A record that cannot be read raises
`RecordError` (a `LogError`, code `bad_record`) naming the line.

A practice game says so (`[Mode "practice"]`), and the solo race too (`[Mode "solo"]`: one
player, white, every move numbered on its own). A game started from a set-up position
carries `[Setup "…"]`, the text of its `setup` option (`practice.setup_text`: `W:a1,b1,c1
B:f6,g7,h8 w 1`); reading it creates the game with that option, the one way a game starts
from a set-up position (`rules.setup_state`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ..core import Game, rules_for
from ..events import GameCreated
from .errors import EngineError, RecordError
from .practice import setup_text
from .variants import COLOURS, GAME, REASONS, VARIANTS

EXT = "cgn"
MIMETYPE = "text/plain"
LABEL = "Corners game notation"
WIDTH = 79  # the longest line of moves written
MAX_CHARS = 1_000_000

#: The result tokens: a seat's win, or a draw; `*` a game not finished.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: The order tags are written in; others are read and kept, never written.
TAG_ORDER = ("Variant", "White", "Black", "Date", "Clock", "Mode", "Result", "Reason",
             "Setup")
#: The `Mode` tag's values: a practice game, the solo race (none: a game on the ladder).
MODES = ("practice", "solo")
#: The ends a record gives when its moves do not reach an end themselves.
TAG_ENDS = ("resigned", "timeout", "draw_agreed")

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER = re.compile(r"([0-9]{1,9})(\.(?:\.\.)?)(.*)")  # ASCII digits, a sane length
_CLOCK = re.compile(r"([0-9]{1,9})\+([0-9]{1,9})")
_SPACE = re.compile(r"\s*")


@dataclass(frozen=True)
class Token:
    text: str
    line: int


@dataclass
class Record:
    """What a `.cgn` text says: its tags (name -> (value, line)), the move tokens in order
    (move numbers taken off, kept with the move they stand before) and the result token."""

    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    moves: list[tuple[int | None, Token]] = field(default_factory=list)
    result: Token | None = None

    def tag(self, name: str, default: str | None = None) -> str | None:
        entry = self.tags.get(name)
        return default if entry is None else entry[0]

    def line_of(self, name: str) -> int:
        entry = self.tags.get(name)
        return 1 if entry is None else entry[1]


# -- printing ----------------------------------------------------------------------------------


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def result_token(state) -> str:
    """`1-0` white won, `0-1` black won (the solo race: white did not make it), `1/2-1/2`
    a draw, `*` not over."""
    if state.end is None:
        return "*"
    if state.solo:
        return "1-0" if state.end[0] == "target" else "0-1"
    return ("1/2-1/2", "1-0", "0-1")[state.end[1]]


def _date(game: Game) -> str:
    for event in game.events:
        at_ms = getattr(event, "at_ms", None)
        if isinstance(at_ms, int):
            return datetime.fromtimestamp(at_ms / 1000, UTC).strftime("%Y.%m.%d")
    return "????.??.??"


def write_record(game: Game) -> str:
    """The `.cgn` text of a Corners `Game`: its tags, the moves that count (takebacks
    leave out the moves they took back) as full paths in numbered pairs, the result."""
    state = game.state
    names = state.players
    tags = {"Variant": state.variant.name, "White": names[0], "Date": _date(game),
            "Clock": (f"{state.reserve_ms // 1000}+{state.increment_ms // 1000}"
                      if state.has_clock else "-"),
            "Result": result_token(state)}
    if not state.solo:
        tags["Black"] = names[1]
    if state.solo or state.practice:
        tags["Mode"] = "solo" if state.solo else "practice"
    if state.end is not None:
        tags["Reason"] = state.end[0]
    if game.events[0].options.get("setup"):
        start = game.state_at(1)
        tags["Setup"] = setup_text(start.variant, start.board, start.to_move or 1,
                                   start.number)
    head = [f'[{k} "{_quote(tags[k])}"]' for k in TAG_ORDER if k in tags]
    path_text = state.variant.board.path_text
    units = []
    played = [m for m in state.moves if m.seq]  # a set-up start's placeholders have none
    ply = len(state.moves) - len(played)
    for m in played:
        if state.solo:
            units.append(f"{ply + 1}. {path_text(m.path)}")
        elif ply % 2 == 0:
            units.append(f"{ply // 2 + 1}. {path_text(m.path)}")
        elif not units:
            units.append(f"{ply // 2 + 1}... {path_text(m.path)}")
        else:
            units.append(path_text(m.path))
        ply += 1
    units.append(tags["Result"])
    lines, line = [], ""
    for unit in units:
        if line and len(line) + 1 + len(unit) > WIDTH:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    lines.append(line)
    return "\n".join(head) + "\n\n" + "\n".join(lines) + "\n"


# -- parsing -----------------------------------------------------------------------------------


def looks_like_record(text: str) -> bool:
    """Whether `text` starts (after blank lines and comments) with a tag pair."""
    for raw in text.lstrip("\ufeff").splitlines():
        line = raw.strip()
        if not line or line.startswith(";") or line.startswith("%"):
            continue
        return _TAG.match(line) is not None
    return False


def parse(text: str) -> Record:
    """A `.cgn` text's tags, moves and result, unchecked against the rules; RecordError
    (with the line) for text that is not a record."""
    if len(text) > MAX_CHARS:
        raise RecordError(f"the record is over {MAX_CHARS:,} characters")
    record = Record()
    tokens: list[Token] = []
    in_comment = 0  # the line a `{` comment opened on, while it is open
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw
        if not in_comment:
            stripped = line.strip()
            if stripped.startswith(";") or stripped.startswith("%"):
                continue
            if stripped.startswith("[") and not tokens:
                at = 0  # tags one after another on the line: read in place, never re-sliced
                while at < len(stripped) and stripped[at] != ";":
                    match = _TAG.match(stripped, at)
                    if match is None:
                        rest = stripped[at:at + 60]
                        raise RecordError(f'line {number}: a tag pair is [Name "value"], not '
                                          f"{rest!r}", line=number)
                    name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
                    if name in record.tags:
                        raise RecordError(f"line {number}: the tag {name} is given twice",
                                          line=number)
                    record.tags[name] = (value, number)
                    at = _SPACE.match(stripped, match.end()).end()
                continue
        pos = 0
        while pos < len(line):
            if in_comment:
                close = line.find("}", pos)
                if close < 0:
                    break
                in_comment, pos = 0, close + 1
                continue
            ch = line[pos]
            if ch == "{":
                in_comment, pos = number, pos + 1
            elif ch == ";":
                break
            elif ch.isspace():
                pos += 1
            elif ch in "[]()":
                what = "a tag pair after the moves" if ch in "[]" else "variations ( )"
                raise RecordError(f"line {number}: {what} cannot be read here ({ch!r})",
                                  line=number)
            else:
                end = pos
                while end < len(line) and not line[end].isspace() and line[end] not in "{;":
                    end += 1
                tokens.append(Token(line[pos:end], number))
                pos = end
    if in_comment:
        raise RecordError(f"line {in_comment}: a comment {{ is never closed", line=in_comment)
    pending: int | None = None
    for i, token in enumerate(tokens):
        if token.text in RESULTS:
            if i != len(tokens) - 1:
                raise RecordError(f"line {token.line}: the result {token.text} must come "
                                  "after the last move", line=token.line)
            record.result = token
            break
        match = _NUMBER.fullmatch(token.text)
        if match is not None:
            pending = int(match.group(1))
            if not match.group(3):
                continue
            token = Token(match.group(3), token.line)
        elif token.text.startswith("$"):  # a numeric annotation, as PGN has
            continue
        record.moves.append((pending, token))
        pending = None
    return record


def _fail(line: int, message: str) -> RecordError:
    return RecordError(f"line {line}: {message}", line=line)


def _options(record: Record) -> dict[str, int]:
    clock = (record.tag("Clock") or "-").strip()
    if clock in ("-", "", "?"):
        return {"reserve_s": 0}
    match = _CLOCK.fullmatch(clock.replace(" ", ""))
    if match is None:
        raise _fail(record.line_of("Clock"), f'the clock is "reserve+increment" in seconds '
                    f'("300+3") or "-" for none, not {clock!r}')
    return {"reserve_s": int(match.group(1)), "increment_s": int(match.group(2))}


def _start(record: Record) -> Game:
    """The game before the record's first move: its variant, players, clock, mode, set-up
    position (the game's `setup` option)."""
    variant = record.tag("Variant")
    if variant is None:
        raise _fail(1, 'the record names no variant ([Variant "classic-3x3"])')
    if variant not in VARIANTS:
        raise _fail(record.line_of("Variant"), f"Corners has no variant {variant!r} "
                    f"({', '.join(VARIANTS)})")
    mode = record.tag("Mode")
    if mode is not None and mode not in MODES:
        raise _fail(record.line_of("Mode"), f"the mode is {' or '.join(MODES)} (or no tag: "
                    f"a game on the ladder), not {mode!r}")
    white = record.tag("White") or "White"
    players = (white,) if mode == "solo" else (white, record.tag("Black") or "Black")
    options: dict = _options(record)
    if mode == "practice":
        options["practice"] = True
    if record.tag("Setup"):
        options["setup"] = record.tag("Setup")
    try:
        rules = rules_for(GAME)  # the registry's: the rules module imports this one
        created = GameCreated(seq=1, game=GAME, variant=variant, players=players,
                              options=rules.variants[variant].option_values(options))
        return Game(rules, created, rules.initial_state(created))
    except EngineError as e:
        tag = "Setup" if e.details.get("option") == "setup" else "Clock"
        raise _fail(record.line_of(tag), e.message) from None


def _moment(record: Record, clock: bool, timed: bool) -> float | None:
    """The host time every move read is made at: none (a record has no times), except
    without a clock (the Date's midnight, UTC, so the game keeps its date) and for a game
    lost on time (the Date's midnight, or 0: the clocks then run on no time at all, and the
    loser's flag falls at its time left)."""
    if clock and not timed:
        return None
    date = record.tag("Date") or ""
    try:
        day = datetime.strptime(date, "%Y.%m.%d").replace(tzinfo=UTC)
    except ValueError:
        day = None
    if day is None or day.year < 1970:  # host times start in 1970
        return 0.0 if timed else None
    return day.timestamp()


def _expected(record: Record) -> tuple[str, int]:
    """The result the record gives (tag and token agreeing) and its line."""
    tag, token = record.tag("Result"), record.result
    if tag is not None and tag not in RESULTS:
        raise _fail(record.line_of("Result"), f"the result is one of {', '.join(RESULTS)}, "
                    f"not {tag!r}")
    if tag is not None and token is not None and tag != token.text:
        raise _fail(token.line, f"the result {token.text} after the moves is not the "
                    f"[Result] tag's {tag}")
    if token is not None:
        return token.text, token.line
    return (tag or "*"), record.line_of("Result")


def read_record(text: str) -> Game:
    """The `Game` a `.cgn` text records: every move played through the rules, then the end
    the tags give. RecordError (with the line) if it cannot be read or a move is illegal."""
    record = parse(text)
    game = _start(record)
    _check_length(record, game.state)
    expected, result_line = _expected(record)
    reason = record.tag("Reason")
    if reason is not None and reason not in REASONS:
        raise _fail(record.line_of("Reason"), f"the reason is one of {', '.join(REASONS)}, "
                    f"not {reason!r}")
    timed = reason == "timeout"
    if timed and not game.state.has_clock:
        raise _fail(record.line_of("Reason"), "a game without a clock cannot end by timeout")
    now = _moment(record, game.state.has_clock, timed)
    for number, token in record.moves:
        state = game.state
        seat = state.to_move
        label = f"{state.number}{'.' if seat == 1 else '...'} {token.text}"
        if seat is None:
            raise _fail(token.line, f"the game is over ({state.end[0]}) before {token.text}")
        if number is not None and number != state.number:
            raise _fail(token.line, f"move {number} is numbered where move {state.number} "
                        f"of {COLOURS[seat - 1]} comes ({token.text})")
        try:
            game.play(seat, token.text, now=now)
        except EngineError as e:
            raise _fail(token.line, f"{label}: {e.message}") from None
    _finish(game, expected, reason, result_line, record.line_of("Reason"), now)
    return game


def max_moves(state) -> int:
    """The most moves a game from `state` can have: the solo race's limit, or both sides'
    moves up to the two-player limit (a set-up position's moves before it counted too)."""
    variant = state.variant
    return variant.solo_limit if state.solo else 2 * variant.limit


def _check_length(record: Record, start) -> None:
    """Refuse a record with more moves than any game of its kind can have, before a move is
    played."""
    most = max_moves(start) - len(start.moves)
    if len(record.moves) > most:
        kind = "solo race" if start.solo else "game"
        line = record.moves[most][1].line
        raise RecordError(f"line {line}: the record has {len(record.moves):,} moves; a "
                          f"{start.variant.label} {kind} from its start has at most {most}",
                          line=line, moves=len(record.moves), limit=most)


def _finish(game: Game, expected: str, reason: str | None, line: int, reason_line: int,
            now: float | None) -> None:
    """Check the end the moves reached against the record's, or make the record's."""
    state = game.state
    if state.end is not None:
        got = result_token(state)
        if expected not in ("*", got):
            raise _fail(line, f"the moves end the game {got} ({state.end[0]}), not "
                        f"{expected}")
        if reason is not None and reason != state.end[0]:
            raise _fail(reason_line, f"the moves end the game by {state.end[0]}, not by "
                        f"{reason}")
        return
    if expected == "*":
        return
    draw = expected == "1/2-1/2"
    reason = reason or ("draw_agreed" if draw else "resigned")
    if reason not in TAG_ENDS or (reason == "draw_agreed") != draw:
        raise _fail(reason_line, f"the moves do not end the game ({expected} by {reason})")
    if state.solo and (expected, reason) != ("0-1", "resigned"):
        raise _fail(reason_line, f"the moves do not end the race ({expected} by {reason}): "
                    "only the filled target wins it, and 0-1 is giving up")
    seat = state.to_move or 1
    try:
        if reason == "draw_agreed":
            game.act(seat, "offer_draw", now=now)
            game.act(3 - seat, "accept_draw", now=now)
        elif reason == "resigned":
            game.act(2 if expected == "1-0" else 1, "resign", now=now)
        else:
            loser = 2 if expected == "1-0" else 1
            if state.running != loser:
                raise _fail(reason_line, f"{COLOURS[loser - 1].capitalize()}'s clock is not "
                            "running: its time cannot run out")
            deadline = game.rules.deadline(state)
            assert deadline is not None
            flag = game.rules.expire(state, deadline)
            assert flag is not None
            game.append(flag)
    except RecordError:
        raise
    except EngineError as e:
        raise _fail(line, e.message) from None
