"""JSON read with bounds checked before the parse: nesting depth and the length of a number.

Python's `json.loads` recurses once per nested array or object (a body of 1,000 `[` is a
RecursionError) and turns any run of digits into an int (5,000 digits: the interpreter's
int-digits limit, or quadratic time under a raised one). Every JSON a client sends (a REST
body, an imported game log, a Socket.IO packet) goes through `loads` here instead, which
refuses both with a `JsonLimitError` naming the limit, in time linear in the text.

`loads` first measures the text's bracket depth outside strings (two regular-expression
passes and one scan of the brackets alone), then parses with hooks that refuse long numbers
and NaN/Infinity before converting them. Pure: text in, values out.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

#: The deepest nesting any message of ours needs is 5 (a log's events, an event, its options,
#: a set-up); 32 leaves room and stays far below the interpreter's recursion limit.
MAX_DEPTH = 32
#: The longest number literal, in characters: 20 holds every 64-bit integer (and its sign);
#: a float such as 0.1234567890123456789 fits in 32.
MAX_NUMBER = 32

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r'[^\[\]{}]+')
_STEP = str.maketrans({"[": "+", "{": "+", "]": "-", "}": "-"})


class JsonLimitError(ValueError):
    """The text breaks a bound (`limit`: "depth" or "number") or is not JSON (`limit` None).
    A ValueError, so code that catches a JSON decode error catches this too."""

    def __init__(self, message: str, *, limit: str | None = None, bound: int | None = None):
        super().__init__(message)
        self.message = message
        self.limit = limit
        self.bound = bound


def depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text`, brackets inside strings not
    counted. O(len(text)); a text that is not JSON gets some number, never an error."""
    skeleton = _NOT_BRACKET.sub("", _STRING.sub("", text)).translate(_STEP)
    if not skeleton:
        return 0
    return max(accumulate(1 if c == "+" else -1 for c in skeleton))


def _number(kind):
    def convert(literal: str):
        if len(literal) > MAX_NUMBER:
            raise JsonLimitError(
                f"a number in the JSON has {len(literal)} characters; the limit is "
                f"{MAX_NUMBER}", limit="number", bound=MAX_NUMBER)
        return kind(literal)
    return convert


def _constant(name: str):
    raise JsonLimitError(f"{name} is not a JSON number", limit="number", bound=MAX_NUMBER)


_DECODER = json.JSONDecoder(parse_int=_number(int), parse_float=_number(float),
                            parse_constant=_constant)


def check_depth(text: str, max_depth: int = MAX_DEPTH) -> None:
    found = depth(text)
    if found > max_depth:
        raise JsonLimitError(f"the JSON is nested {found} deep; the limit is {max_depth}",
                             limit="depth", bound=max_depth)


def loads(text: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads`, with nesting deeper than `max_depth` and number literals longer than
    MAX_NUMBER characters refused (JsonLimitError) before they cost anything. Bytes are
    read as UTF-8 (a BOM is not allowed, as in `json.loads`). Not JSON: JsonLimitError with
    `limit` None, carrying the decoder's message."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise JsonLimitError(f"the JSON is not UTF-8 ({e.reason} at byte {e.start})") \
                from None
    if not isinstance(text, str):
        raise JsonLimitError(f"JSON is text, not {type(text).__name__}")
    check_depth(text, max_depth)
    try:
        return _DECODER.decode(text)
    except JsonLimitError:
        raise
    except (ValueError, RecursionError) as e:
        raise JsonLimitError(str(e)) from None
