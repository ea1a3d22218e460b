"""Record imports fuzzed, one Hypothesis strategy per format: `.cgn` (tags and movetext),
`.blksgf` (nodes and properties) and the JSON log of every game (events). Each example
takes a real game's record apart and puts it back shuffled, repeated, cut, made overlong or
given out-of-range values. Whatever arrives, the host answers 201 (and then replays and
exports the record) or a 4xx with the error body, and a refusal stores nothing.

Bounded: a fixed number of examples per format, no deadline per example (a host import is
a few milliseconds), about 5 s in all on this machine.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.core import Game
from engine.cornerclaim.sgf import game_to_sgf
from engine.corners.record import write_record
from engine.marbles import RULES as MARBLES
from engine.marbles import new_game as new_marbles
from server.host import host_of
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.test_corners_record import random_game as random_corners
from tests.test_sgf import random_game as random_cornerclaim

EXAMPLES = 150
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.data_too_large])

#: Numbers a hostile file tries: edges of every range the host keeps, and far past them.
NUMBERS = st.sampled_from([0, -1, 1, 2, 3, 255, 2**31, 2**53 - 1, 2**53, 2**63, 10**17,
                           253_402_300_799_999, 253_402_300_800_000, 10**30])
WORDS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
                max_size=12)
REPEAT = st.integers(min_value=1, max_value=400)


def _marbles_game(seed: int) -> Game:
    game = new_marbles("2p", ("Ann", "Bo"), {"rounds": 1})
    rng = random.Random(seed)
    while not game.rules.is_over(game.state):
        deal = MARBLES.chance(game.state, rng)
        if deal is not None:
            game.append(deal)
            continue
        seat = game.state.to_move
        game.play(seat, rng.choice(MARBLES.legal(game.state, seat))["move"])
    return game


@pytest.fixture
def client(make_app):
    """A host without the write rate: the fuzzer is one client importing many files."""
    return make_app(WRITE_RATE=None).test_client()


@pytest.fixture(scope="module")
def records():
    corners = random_corners("classic-3x3", 5, plies=60)
    cornerclaim = random_cornerclaim("duo", 3, undo_chance=0.1)
    marbles = _marbles_game(7)
    return {"cgn": write_record(corners), "blksgf": game_to_sgf(cornerclaim),
            "logs": [json.loads(g.to_json()) for g in (corners, cornerclaim, marbles)]}


def post(client, body: bytes):
    """Import `body`; check the answer is 201 (and then the replay and every download
    answer) or a 4xx error body, and that a refusal stored nothing."""
    folder = host_of(client.application).imports.folder
    before = set(folder.iterdir()) if folder.exists() else set()
    r = client.post("/api/replays", data=body, content_type="application/octet-stream")
    assert r.status_code in (201, 400, 413, 422), (r.status_code, body[:200])
    event(f"answered {r.status_code}")
    if r.status_code != 201:
        error = r.json["error"]
        assert error["code"] and error["message"], error
        after = set(folder.iterdir()) if folder.exists() else set()
        assert after == before
        return r
    rid = r.json["id"]
    replay = client.get(f"/api/replays/{rid}")
    assert replay.status_code == 200, replay.json
    for f in replay.json["formats"]:
        got = client.get(f"/api/replays/{rid}/replay.{f['ext']}")
        assert got.status_code == 200, (f["ext"], got.data[:200])
    return r


# -- .cgn -----------------------------------------------------------------------------------
TAG_NAMES = st.sampled_from(["Variant", "White", "Black", "Date", "Clock", "Mode", "Result",
                             "Reason", "Setup", "Event", "X"])


def _cgn_tag_value(name: str):
    known = {"Variant": ["classic-3x3", "diagonal-3x4", "halma", "4x4", ""],
             "Clock": ["300+3", "-", "0+0", "10800+600", "10801+0", "1+601", "9" * 40 + "+0",
                       "١٠+0", "-5+0"],
             "Mode": ["solo", "practice", "ladder"],
             "Result": ["1-0", "0-1", "1/2-1/2", "*", "2-0"],
             "Reason": ["target", "resigned", "timeout", "draw_agreed", "move_limit", "x"],
             "Date": ["2026.12.07", "9999.12.31", "0001.01.01", "2026.13.40", "99999.1.1"],
             "Setup": ["W:a1,b1,c1 B:f6,g7,h8 w 1", "W:a1 B:h8 b 999999999999"]}
    return st.sampled_from(known[name]) | WORDS if name in known else WORDS


@st.composite
def cgn_records(draw, base: str) -> str:
    head, _, moves = base.partition("\n\n")
    tokens = moves.split()
    tags = [line for line in head.splitlines() if line]
    for _ in range(draw(st.integers(0, 4))):
        name = draw(TAG_NAMES)
        value = draw(_cgn_tag_value(name)).replace("\\", "").replace('"', "")
        tags.insert(draw(st.integers(0, len(tags))), f'[{name} "{value}"]')
    if draw(st.booleans()):
        tags = draw(st.permutations(tags))
    how = draw(st.sampled_from(["keep", "shuffle", "repeat", "cut", "numbers"]))
    if how == "shuffle":
        tokens = draw(st.permutations(tokens))
    elif how == "repeat":
        tokens = tokens[:-1] * draw(REPEAT) + tokens[-1:]
    elif how == "cut":
        tokens = tokens[:draw(st.integers(0, len(tokens)))]
    elif how == "numbers":
        tokens = [f"{draw(NUMBERS)}." if t.endswith(".") else t for t in tokens]
    return "\n".join(tags) + "\n\n" + " ".join(tokens) + "\n"


@FUZZ
@given(data=st.data())
def test_fuzzed_cgn_records_are_imported_or_refused_cleanly(client, records, data):
    post(client, data.draw(cgn_records(records["cgn"])).encode())


# -- .blksgf --------------------------------------------------------------------------------
PROPERTY_VALUES = st.sampled_from(["", "pass", "e9", "a1,a2", "z99", "e10,e10", "]", "\\",
                                   "9" * 30]) | WORDS


@st.composite
def blksgf_records(draw, base: str) -> str:
    body = base.strip()[1:-1]  # the nodes of the one game tree
    nodes = [";" + n.strip() for n in body.split(";") if n.strip()]
    root, moves = nodes[0], nodes[1:]
    how = draw(st.sampled_from(["keep", "shuffle", "repeat", "cut", "props", "variation"]))
    if how == "shuffle":
        moves = draw(st.permutations(moves))
    elif how == "repeat":
        moves = moves * draw(REPEAT)
    elif how == "cut":
        moves = moves[:draw(st.integers(0, len(moves)))]
    elif how == "props":
        for _ in range(draw(st.integers(1, 5))):
            pid = draw(st.sampled_from(["B", "W", "1", "2", "3", "4", "AB", "GM", "C", "PB"]))
            value = draw(PROPERTY_VALUES).replace("]", "\\]")
            at = draw(st.integers(0, len(moves)))
            moves.insert(at, f";{pid}[{value}]")
    elif how == "variation":
        at = draw(st.integers(0, len(moves)))
        moves = moves[:at] + ["(" + "".join(moves[at:]) + ")"] * draw(st.integers(1, 3))
    if draw(st.booleans()):
        root = root.replace("Blokus Duo", draw(st.sampled_from(
            ["Blokus", "Blokus Three-Player", "Go", "blokus duo", ""])))
    return "(" + root + "".join(moves) + ")"


@FUZZ
@given(data=st.data())
def test_fuzzed_blksgf_records_are_imported_or_refused_cleanly(client, records, data):
    post(client, data.draw(blksgf_records(records["blksgf"])).encode())


# -- JSON logs ------------------------------------------------------------------------------
FIELD_VALUES = NUMBERS | WORDS | st.none() | st.booleans() | st.floats(allow_nan=False) \
    | st.just([[[[1]]]]) | st.just({"x": -1})


@st.composite
def json_logs(draw, bases: list[dict]) -> bytes:
    log = json.loads(json.dumps(draw(st.sampled_from(bases))))
    events = log["events"]
    how = draw(st.sampled_from(["keep", "shuffle", "repeat", "cut", "fields", "renumber",
                                "deep"]))
    if how == "shuffle":
        events[1:] = draw(st.permutations(events[1:]))
    elif how == "repeat":
        events[1:] = events[1:] * draw(st.integers(1, 40))
    elif how == "cut":
        del events[draw(st.integers(1, len(events))):]
    elif how == "fields":
        for _ in range(draw(st.integers(1, 4))):
            event = draw(st.sampled_from(events))
            key = draw(st.sampled_from(sorted(event)))
            if key != "type":
                event[key] = draw(FIELD_VALUES)
    elif how == "renumber":  # repeated moves, numbered as if they followed on
        events[1:] = events[1:] * draw(st.integers(1, 40))
        for seq, event in enumerate(events, 1):
            event["seq"] = seq
    elif how == "deep":
        event = draw(st.sampled_from(events))
        event[draw(st.sampled_from(sorted(event)))] = "@"
        text = json.dumps(log)
        depth = draw(st.integers(30, 3000))
        return text.replace('"@"', "[" * depth + "]" * depth, 1).encode()
    if draw(st.booleans()):
        log[draw(st.sampled_from(["format", "version", "events"]))] = draw(FIELD_VALUES)
    return json.dumps(log).encode()


@FUZZ
@given(data=st.data())
def test_fuzzed_json_logs_of_every_game_are_imported_or_refused_cleanly(client, records,
                                                                        data):
    post(client, data.draw(json_logs(records["logs"])))
