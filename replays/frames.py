"""Replay frames as changes: the JSON delta between two values, and its inverse.

The replay answer (`Replay.to_dict`) sends frame 0 in full and each later frame's `board` and
`seats` only as a change from the frame before (docs/formats.md, "Replay frames"), so a
frame costs what its move changed, not the size of the board. `expand_frames` rebuilds the
full frames; client_web/js/frames.js does the same in the browser.

A change (`delta(old, new)`), read against the old value:

- a scalar (number, string, true, false, null): the new value is that scalar;
- `[v]`: the new value is `v`, whatever it is; `[]`, as a key's change in an object: the
  key is gone;
- an object, on an old object: `{key: change}` for each key that changed or is new;
- an object, on an old array or string: `{"s": [[at, cut, insert], …], "<i>": change, …}`:
  first each splice in turn (remove `cut` items from index `at` of the old value, put
  `insert` there: an array of items, or a string), the splices from the end back so every
  `at` counts in the old value; then each item `i` of the result changed in place.

Pure functions of JSON values (dicts, lists, tuples as lists, strings, numbers, booleans,
None). Values compare as Python values, where `True == 1`: a true that became 1 at the same
place, inside a value that is otherwise the same, is not seen as a change.
"""

from __future__ import annotations

import json
from difflib import SequenceMatcher
from typing import Any

#: What `delta` answers for two equal values.
SAME: Any = object()
#: Longest old or new middle (after the common ends are cut off) worth a real diff;
#: longer ones are replaced whole.
DIFF_LIMIT = 400
#: Unchanged characters between two changed runs of a string below which they share a splice.
GAP = 6


def delta(old: Any, new: Any) -> Any:
    """The change from `old` to `new`, or SAME when they are equal (a tuple is a list)."""
    if type(old) is tuple:
        old = list(old)
    if type(new) is tuple:
        new = list(new)
    if old == new and type(old) is type(new):
        return SAME
    if isinstance(new, dict) and isinstance(old, dict):
        return _object_delta(old, new)
    if isinstance(new, list) and isinstance(old, list):
        return _shorter(_list_delta(old, new), [new])
    if isinstance(new, str) and isinstance(old, str):
        return _shorter(_string_delta(old, new), new)
    return _put(new)


def patch(old: Any, change: Any) -> Any:
    """The value `change` (from `delta`) makes of `old`. `old` is never modified."""
    if isinstance(change, list):
        return change[0]
    if not isinstance(change, dict):
        return change
    if isinstance(old, dict):
        out = dict(old)
        for key, value in change.items():
            if value == []:
                out.pop(key, None)
            else:
                out[key] = patch(old.get(key), value)
        return out
    if isinstance(old, str):
        for at, cut, insert in change["s"]:
            old = old[:at] + insert + old[at + cut:]
        return old
    if isinstance(old, list):
        out = list(old)
        for at, cut, insert in change.get("s", ()):
            out[at:at + cut] = insert
        for key, value in change.items():
            if key != "s":
                out[int(key)] = patch(out[int(key)], value)
        return out
    raise ValueError(f"a change {change!r} on {type(old).__name__} {old!r}")


def _put(value: Any) -> Any:
    return [value] if isinstance(value, (dict, list, tuple)) else value


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def _size_upto(value: Any, cap: int) -> int:
    """About the JSON size of `value` (a string's escapes are not counted), or some size
    above `cap` once it is known to exceed it: a long list is not measured to its end."""
    if isinstance(value, (list, tuple)):
        if 2 * len(value) + 1 > cap:  # a digit and a comma an item at the least
            return 2 * len(value) + 1
        total = 1
        for item in value:
            total += 1 + _size_upto(item, cap - total)
            if total > cap:
                return total
        return total + (not value)
    if isinstance(value, dict):
        total = 1
        for key, item in value.items():
            total += 4 + len(key) + _size_upto(item, cap - total)
            if total > cap:
                return total
        return total + (not value)
    if isinstance(value, str):
        return len(value) + 2
    if value is None or value is True:
        return 4
    if value is False:
        return 5
    if isinstance(value, int):
        return len(str(value))
    return _size(value)


def _shorter(change: Any, whole: Any) -> Any:
    """`change`, unless sending the value whole is no longer."""
    size = _size(change)
    return whole if _size_upto(whole, size) <= size else change


def _object_delta(old: dict, new: dict) -> dict:
    out: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            out[key] = _put(value)
        else:
            d = delta(old[key], value)
            if d is not SAME:
                out[key] = d
    for key in old:
        if key not in new:
            out[key] = []
    return out


def _ends(old, new) -> tuple[int, int]:
    """The lengths of the common start and the common end (not overlapping) of two sequences.

    Slices compare at C speed: a list that only grew at its end costs one comparison."""
    n = min(len(old), len(new))
    if old[:n] == new[:n]:
        return n, 0
    lo, hi = 0, n  # old[:lo] == new[:lo], old[:hi] != new[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if old[:mid] == new[:mid]:
            lo = mid
        else:
            hi = mid
    start, n = lo, n - lo
    lo, hi = 0, n
    if old[len(old) - n:] == new[len(new) - n:]:
        return start, n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if old[len(old) - mid:] == new[len(new) - mid:]:
            lo = mid
        else:
            hi = mid
    return start, lo


def _key(item: Any) -> Any:
    """A hashable stand-in for a JSON value, equal for equal values."""
    if isinstance(item, (dict, list, tuple)):
        return json.dumps(item, sort_keys=True, separators=(",", ":"))
    return (type(item).__name__, item)


def _list_delta(old: list, new: list) -> dict:
    start, end = _ends(old, new)
    a, b = old[start:len(old) - end], new[start:len(new) - end]
    splices: list[list] = []
    inplace: dict[str, Any] = {}
    if len(a) == len(b) and not any(isinstance(x, str) for x in a):
        # the same places: each changed item as a change of its own (a board's rows, its
        # cells, the seats); a list of names (a seat's open corners) is diffed instead
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            d = delta(x, y)
            if d is not SAME:
                inplace[str(start + i)] = d
    elif max(len(a), len(b)) > DIFF_LIMIT:
        splices.append([start, len(a), b])
    else:
        ops = SequenceMatcher(None, [_key(x) for x in a], [_key(y) for y in b],
                              autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in ops:
            if tag == "equal":
                continue
            if tag == "replace" and i2 - i1 == j2 - j1 and isinstance(a[i1],
                                                                      (dict, list, tuple, str)):
                for k in range(i2 - i1):
                    d = delta(a[i1 + k], b[j1 + k])
                    if d is not SAME:
                        inplace[str(start + j1 + k)] = d
            else:
                splices.append([start + i1, i2 - i1, b[j1:j2]])
    out: dict[str, Any] = {}
    if splices:
        out["s"] = splices[::-1]
    out.update(inplace)
    return out


def _string_delta(old: str, new: str) -> dict:
    start, end = _ends(old, new)
    a, b = old[start:len(old) - end], new[start:len(new) - end]
    runs: list[list] = []  # [i1, i2, j1, j2] in a and b
    if len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x == y:
                continue
            if runs and i - runs[-1][1] <= GAP:
                runs[-1][1] = runs[-1][3] = i + 1
            else:
                runs.append([i, i + 1, i, i + 1])
    elif max(len(a), len(b)) > DIFF_LIMIT:
        runs.append([0, len(a), 0, len(b)])
    else:
        runs = [[i1, i2, j1, j2] for tag, i1, i2, j1, j2
                in SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if tag != "equal"]
    return {"s": [[start + i1, i2 - i1, b[j1:j2]] for i1, i2, j1, j2 in reversed(runs)]}


def expand_frames(data: dict) -> dict:
    """The replay answer with every frame in full: each later frame's `changes` applied to
    the frame before (its `board` and `seats`), as the viewer does on arrival."""
    out: list[dict] = []
    for frame in data["frames"]:
        if "changes" not in frame:  # frame 0, or a frame already whole
            out.append(frame)
            continue
        prev = out[-1]
        whole = patch({"board": prev["board"], "seats": prev["seats"]}, frame["changes"])
        full = {k: v for k, v in frame.items() if k != "changes"}
        full.update(board=whole["board"], seats=whole["seats"])
        out.append(full)
    return {**data, "frames": out}


def encode_frames(frames: list[dict]) -> list[dict]:
    """Full frames (`Frame.to_dict`) as the answer sends them: frame 0 whole, each later one
    with its `board` and `seats` as `changes` from the frame before."""
    out: list[dict] = []
    prev: dict | None = None
    for frame in frames:
        whole = {"board": frame["board"], "seats": frame["seats"]}
        if prev is None:
            out.append(frame)
        else:
            change = delta(prev, whole)
            rest = {k: v for k, v in frame.items() if k not in whole}
            rest["changes"] = {} if change is SAME else change
            out.append(rest)
        prev = whole
    return out
