"""What a hostile phone may upload or post: records longer than any legal game, JSON nested
deep or carrying numbers thousands of digits long, values out of range. Each is refused with
a 4xx that says what is wrong, in bounded time and memory, and nothing is stored; a stored
record that no longer loads answers 422, and the host stays healthy."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from engine.core import Game
from engine.cornerclaim.sgf import max_moves as blksgf_moves
from engine.corners.variants import VARIANTS
from engine.events import MAX_AT_MS
from replays import read_record
from server.host import host_of
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, create

SOLO_TAGS = '[Variant "classic-3x3"]\n[Mode "solo"]\n[Result "*"]\n\n'
SHUFFLE = "c3-d3 d3-c3 "


def nothing_stored(app) -> bool:
    folder = host_of(app).imports.folder
    return not folder.exists() or not any(folder.iterdir())


def peak_mb(fn) -> float:
    tracemalloc.start()
    try:
        fn()
    except Exception:  # noqa: BLE001 - the cost is measured whatever the outcome
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak / 2**20


# -- records longer than any legal game -----------------------------------------------------
def test_the_258_kb_solo_record_that_killed_the_host_is_refused_at_once(make_app):
    app = make_app()
    body = (SOLO_TAGS + SHUFFLE * 21_500).encode()  # 43,000 moves, 258,052 bytes
    assert len(body) > 250_000
    r = app.test_client().post("/api/replays", data=body, content_type="text/plain")
    assert r.status_code == 400, r.json
    message = r.json["error"]["message"]
    assert "43,000 moves" in message and "at most 160" in message
    assert nothing_stored(app)
    assert peak_mb(lambda: read_record(body)) < 32
    assert app.test_client().get("/api/health").status_code == 200


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_corners_record_one_move_past_its_variants_limit_is_refused(variant):
    limit = VARIANTS[variant].limit
    text = f'[Variant "{variant}"]\n[Result "*"]\n\n' + "x1-x2 " * (2 * limit + 1)
    with pytest.raises(Exception, match=f"has at most {2 * limit}"):
        read_record(text.encode())


def test_a_solo_race_ends_at_its_limit_and_its_record_imports(client):
    """The longest legal solo race: 160 moves back and forth, then the race is over (a
    loss); its record imports, replays and exports again."""
    race = Game.new("corners", "classic-3x3", ("Ann",))
    for i in range(VARIANTS["classic-3x3"].solo_limit):
        race.play(1, ("c3-d3", "d3-c3")[i % 2])
    assert race.state.end == ("move_limit", 0)
    assert "limit (move 160)" in race.rules.outcome(race.state).ending
    with pytest.raises(Exception, match="over"):
        race.play(1, "d3-c3")
    from engine.corners.record import write_record

    text = write_record(race)
    r = client.post("/api/replays", data=text.encode(), content_type="text/plain")
    assert r.status_code == 201, r.json
    assert r.json["moves"] == 160
    assert client.get(f"/api/replays/{r.json['id']}/replay.cgn").status_code == 200


@pytest.mark.parametrize("variant, gm", [("duo", "Blokus Duo"), ("classic", "Blokus")])
def test_a_blksgf_with_more_moves_than_any_game_is_refused_before_it_is_replayed(
        make_app, variant, gm):
    app = make_app()
    most = blksgf_moves(variant)
    mover = "B" if variant == "duo" else "1"
    body = f"(;GM[{gm}]" + f";{mover}[]" * (most + 1) + ")"
    r = app.test_client().post("/api/replays", data=body.encode(), content_type="text/plain")
    assert r.status_code == 400, r.json
    assert "more moves than any" in r.json["error"]["message"]
    assert nothing_stored(app)


def test_reading_a_long_log_costs_memory_linear_in_its_length():
    """A solo race's JSON log of moves and takebacks: four times the events cost at most
    about four times the memory (a quadratic read cost sixteen)."""
    def log(pairs: int) -> bytes:
        game = Game.new("corners", "classic-3x3", ("Ann",))
        for _ in range(pairs):
            game.play(1, "c3-d3")
            game.undo(1)
        return game.to_json().encode()

    small, large = log(250), log(1000)
    read_record(small)  # the games' modules loaded before measuring
    ratio = peak_mb(lambda: read_record(large)) / peak_mb(lambda: read_record(small))
    assert ratio < 6, ratio


# -- JSON nested deep, numbers thousands of digits long -------------------------------------
DEEP = "[" * 1000 + "]" * 1000
LONG = "9" * 5000


def _bad_json(r, limit: str) -> None:
    assert r.status_code == 400, (r.status_code, r.data[:300])
    error = r.json["error"]
    assert error["code"] == "bad_json", error
    assert error["details"]["limit"] == limit
    assert "limit" in error["message"]


@pytest.mark.parametrize("limit, value", [("depth", DEEP), ("number", LONG)])
def test_deep_json_and_long_numbers_in_a_rest_body_are_400_naming_the_limit(client, limit,
                                                                           value):
    g = create(client, "duo", ("local", "open"))
    token, gid = g["tokens"]["1"], g["id"]
    before = client.get(f"/api/games/{gid}").json["seq"]
    bodies = [
        ("/api/games", '{"variant": "duo", "seats": [{"kind": "local"}, {"kind": "local"}], '
                       f'"options": {{"setup": {value}}}}}', {}),
        (f"/api/games/{gid}/moves", f'{{"seat": 1, "move": {value}, "seq": 1}}',
         bearer(token)),
        (f"/api/games/{gid}/moves", f'{{"seat": 1, "move": "e9", "seq": {value}}}',
         bearer(token)),
        (f"/api/games/{gid}/seats/2", f'{{"name": {value}}}', {}),
    ]
    for path, body, headers in bodies:
        r = client.post(path, data=body, content_type="application/json", headers=headers)
        _bad_json(r, limit)
    assert client.get(f"/api/games/{gid}").json["seq"] == before
    assert client.get("/api/health").status_code == 200


@pytest.mark.parametrize("limit, value", [("nested", DEEP), ("characters", LONG)])
def test_an_imported_json_log_nested_deep_or_with_a_long_number_is_400(make_app, limit,
                                                                      value):
    app = make_app()
    body = ('{"format": "cornerclaim-log", "version": 1, "events": [{"type": "game_created", '
            f'"seq": 1, "game": "corners", "variant": "classic-3x3", "options": {{"x": {value}'
            '}}]}')
    r = app.test_client().post("/api/replays", data=body.encode(),
                               content_type="application/json")
    assert r.status_code == 400, r.json
    assert r.json["error"]["code"] == "bad_log"
    assert limit in r.json["error"]["message"] and "the limit is" in r.json["error"]["message"]
    assert nothing_stored(app)


# -- values out of range --------------------------------------------------------------------
def test_a_cgn_clock_or_move_number_of_thousands_of_digits_is_refused_naming_it(make_app):
    app = make_app()
    client = app.test_client()
    clock = f'[Variant "classic-3x3"]\n[Clock "{LONG}+0"]\n[Result "*"]\n\n1. c3-d3 *\n'
    r = client.post("/api/replays", data=clock.encode(), content_type="text/plain")
    assert r.status_code == 400, r.json
    assert r.json["error"]["message"].startswith("line 2: the clock is")
    number = f'[Variant "classic-3x3"]\n[Result "*"]\n\n{LONG}. c3-d3 *\n'
    r = client.post("/api/replays", data=number.encode(), content_type="text/plain")
    assert r.status_code == 400, r.json
    big = '[Variant "classic-3x3"]\n[Clock "999999999+0"]\n[Result "*"]\n\n*\n'
    r = client.post("/api/replays", data=big.encode(), content_type="text/plain")
    assert r.status_code == 400 and "line 2" in r.json["error"]["message"], r.json
    assert nothing_stored(app)


def _log_with_time(at_ms: int) -> bytes:
    game = Game.new("corners", "classic-3x3", ("Ann", "Bo"), {"reserve_s": 0})
    data = json.loads(game.to_json())
    data["events"].append({"type": "corners_moved", "seq": 2, "seat": 1, "move": "c3-d3",
                           "at_ms": at_ms})
    return json.dumps(data).encode()


def test_a_log_whose_time_is_past_the_year_9999_is_refused_at_import_naming_the_field(
        make_app):
    app = make_app()
    client = app.test_client()
    r = client.post("/api/replays", data=_log_with_time(10**17),
                    content_type="application/json")
    assert r.status_code == 400, r.json
    assert "at_ms" in r.json["error"]["message"] and "range" in r.json["error"]["message"]
    assert nothing_stored(app)
    r = client.post("/api/replays", data=_log_with_time(MAX_AT_MS),
                    content_type="application/json")
    assert r.status_code == 201, r.json
    cgn = client.get(f"/api/replays/{r.json['id']}/replay.cgn")
    assert cgn.status_code == 200 and b'[Date "9999.12.31"]' in cgn.data


# -- a stored record that no longer loads ---------------------------------------------------
def test_a_stored_record_that_no_longer_loads_is_422_and_the_host_stays_up(make_app):
    app = make_app()
    client = app.test_client()
    folder = host_of(app).imports.folder
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "i0123456789abcde.record").write_bytes((SOLO_TAGS + SHUFFLE * 200).encode())
    (folder / "i0123456789abcdf.record").write_bytes(b"x" * (300 * 1024))
    for rid, words in (("i0123456789abcde", "no longer loads"),
                       ("i0123456789abcdf", "over the import limit")):
        for path in ("", "/board.svg", "/replay.json"):
            r = client.get(f"/api/replays/{rid}{path}")
            assert r.status_code == 422, (path, r.status_code)
            assert r.json["error"]["code"] == "bad_record" and words in \
                r.json["error"]["message"]
    assert client.get("/api/health").status_code == 200
