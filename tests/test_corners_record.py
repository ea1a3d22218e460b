"""Corners' `.cgn` record: printing and reading agree on every variant (random games to
their end, from–to moves, a set-up start, the ends only the tags carry), bad records are
refused with the line, and the host exports and imports it (HTTP and the CLI)."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from engine import registry
from engine.core import Game
from engine.corners import RULES, new_game, setup_state
from engine.corners.errors import RecordError
from engine.corners.record import parse, read_record, write_record
from engine.corners.variants import VARIANTS
from engine.errors import LogError
from replays.frames import expand_frames
from server.cli import main
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer

TWO = [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}]


def random_game(variant: str, seed: int, plies: int = 1000, **options) -> Game:
    """`variant` played by random legal moves (seeded) until it ends or `plies` are made."""
    game = new_game(variant, ("Ann", "Bo"), {"reserve_s": 0, **options})
    rng = random.Random(seed)
    for _ in range(plies):
        state = game.state
        seat = state.to_move
        if seat is None:
            break
        game.play(seat, rng.choice(RULES.legal(state, seat))["move"])
    return game


def same_game(a: Game, b: Game, ending: bool = True) -> None:
    sa, sb = a.state, b.state
    assert sb.variant == sa.variant and sb.board == sa.board
    assert [m.path for m in sb.moves] == [m.path for m in sa.moves]
    oa, ob = RULES.outcome(sa), RULES.outcome(sb)
    assert ob == (oa if ending else replace(oa, ending=ob.ending))
    assert sb.players == sa.players and sb.reserve_ms == sa.reserve_ms


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_random_game_of_every_variant_round_trips_to_its_end(variant):
    game = random_game(variant, seed=len(variant))
    assert game.state.end is not None, "random play ends every variant by its limits"
    text = write_record(game)
    assert f'[Variant "{variant}"]' in text and f'[Reason "{game.state.end[0]}"]' in text
    assert all(len(line) <= 79 for line in text.splitlines())
    back = read_record(text)
    same_game(game, back)
    assert write_record(back) == text
    same_game(game, Game.from_json(back.to_json()))  # the game read has a log of its own
    # the same record read through the host's record reader (any game's)
    same_game(game, registry.read_record(text))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_from_to_moves_read_as_the_full_paths(variant):
    game = random_game(variant, seed=7, plies=24)
    short = []
    for line in write_record(game).splitlines():
        words = [w if "-" not in w or w.count("-") < 2 else
                 f"{w.split('-')[0]}-{w.split('-')[-1]}" for w in line.split()]
        short.append(" ".join(words))
    text = "\n".join(short)
    assert text != write_record(game) or all(m.path and len(m.path) == 2
                                             for m in game.state.moves)
    back = read_record(text)
    same_game(game, back)
    assert write_record(back) == write_record(game)


def test_a_game_played_out_by_the_computer_keeps_its_result_and_reason():
    game = new_game("classic-3x3", ("Ann", "Computer L2"), {"reserve_s": 0})
    seed = 3
    while game.state.to_move is not None:
        seat = game.state.to_move
        game.play(seat, RULES.choose_move(game.state, seat, level=2, seed=seed), now=1.8e9)
        seed += 1
    outcome = RULES.outcome(game.state)
    text = write_record(game)
    token = {(1,): "1-0", (2,): "0-1", (1, 2): "1/2-1/2"}[outcome.winners]
    assert f'[Result "{token}"]' in text and f'[Reason "{outcome.reason}"]' in text
    assert '[Date "2027.01.15"]' in text and '[Clock "-"]' in text
    assert text.rstrip().endswith(token)
    back = read_record(text)
    same_game(game, back)
    assert write_record(back) == text  # the date too: the moves read are stamped with it


def test_the_record_s_layout():
    game = new_game("classic-3x3", ("Ann \"A\" Lee", "Bo"), {"reserve_s": 300,
                                                              "increment_s": 3})
    for seat, move in ((1, "c3-d3"), (2, "f6-e6"), (1, "c1-c3-e3"), (2, "g6-g5")):
        game.play(seat, move, now=1_765_000_000.0 + seat)
    text = write_record(game)
    assert text == ('[Variant "classic-3x3"]\n[White "Ann \\"A\\" Lee"]\n[Black "Bo"]\n'
                    '[Date "2025.12.06"]\n[Clock "300+3"]\n[Result "*"]\n\n'
                    "1. c3-d3 f6-e6 2. c1-c3-e3 g6-g5 *\n")
    back = read_record(text)
    assert back.state.players == ('Ann "A" Lee', "Bo") and back.state.has_clock
    assert RULES.outcome(back.state).reason == "playing"


def test_takebacks_leave_only_the_moves_that_count():
    game = new_game("classic-3x3", ("Ann", "Bo"), {"reserve_s": 0})
    game.play(1, "c3-d3")
    game.play(2, "f6-e6")
    game.undo(2)
    game.play(2, "g6-g5")
    assert "1. c3-d3 g6-g5 *" in write_record(game)


@pytest.mark.parametrize("action, result, reason", [
    ("resign", "1-0", "resigned"), ("leave", "1-0", "resigned"),
    ("draw", "1/2-1/2", "draw_agreed")])
def test_an_end_no_move_makes_comes_back_from_the_tags(action, result, reason):
    game = new_game("diagonal-3x3", ("Ann", "Bo"), {"reserve_s": 600, "increment_s": 5})
    game.play(1, "c3-d4")
    game.play(2, "f6-e5")
    game.play(1, "b2-c3")
    if action == "resign":
        game.act(2, "resign")
    elif action == "leave":
        game.leave(2)
    else:
        game.act(2, "offer_draw")
        game.act(1, "accept_draw")
    text = write_record(game)
    assert f'[Result "{result}"]\n[Reason "{reason}"]' in text
    back = read_record(text)
    same_game(game, back, ending=action != "leave")  # a seat that left: it resigned
    assert RULES.outcome(back.state).reason == reason


def test_a_loss_on_time_comes_back_with_the_flag_of_the_side_to_move():
    game = new_game("classic-3x3", ("Ann", "Bo"), {"reserve_s": 60, "increment_s": 0})
    game.play(1, "c3-d3", now=1000.0)
    game.play(2, "f6-e6", now=1010.0)
    game.append(RULES.expire(game.state, 1200.0))
    text = write_record(game)
    assert '[Result "0-1"]\n[Reason "timeout"]' in text
    back = read_record(text)
    same_game(game, back)
    same_game(game, Game.from_json(back.to_json()))
    assert RULES.outcome(back.state).ending == "White's time ran out"
    wrong = text.replace('"0-1"', '"1-0"').rstrip()[:-3] + "1-0"
    with pytest.raises(RecordError, match="Black's clock is not running"):
        read_record(wrong)
    with pytest.raises(RecordError, match="without a clock cannot end by timeout"):
        read_record(wrong.replace('[Clock "60+0"]', '[Clock "-"]'))


NEAR = "W:a1,a2,a3,b1,b2,b3,c1,c2,d3 B:e8,f6,f7,f8,g6,g7,g8,h6,h7 b 12"


def test_a_set_up_start_is_written_as_its_setup_and_read_from_it():
    game = new_game("classic-3x3", ("Ann", "Bo"), {"setup": NEAR})
    # black to move at move 12: the record starts "12... "
    game.play(2, "e8-e7")
    game.play(1, "d3-d4")
    text = write_record(game)
    assert f'[Mode "practice"]\n[Result "*"]\n[Setup "{NEAR}"]' in text
    assert "12... e8-e7 13. d3-d4 *" in text
    back = read_record(text)
    same_game(game, back)
    assert back.events[0].options["setup"] == NEAR and write_record(back) == text
    start = setup_state("classic-3x3", game.state_at(1).board, to_move=2, number=12,
                        playable=True)
    assert back.state_at(1).board == start.board and back.state_at(1).moves == start.moves
    # the setup is in the log: the JSON log of the game read gives the same game
    same_game(game, Game.from_json(back.to_json()))


@pytest.mark.parametrize("setup, words", [
    ("W:a1 B:h8 w 1", "White has 1 piece; Classic 3×3 is played with 9"),
    ("W:a1,z9 B:h8", "'z9' is not a square a1 to h8"),
    ("f6 g6", "a setup lists the pieces as W:"),
    (NEAR.replace(" b 12", " x 12"), "the side to move is w or b"),
])
def test_a_bad_setup_is_refused_with_what_is_wrong(setup, words):
    text = f'[Variant "classic-3x3"]\n[Setup "{setup}"]\n\n*\n'
    with pytest.raises(RecordError, match="line 2: .*" + words):
        read_record(text)


def test_a_practice_game_and_a_solo_race_say_so():
    game = new_game("diagonal-3x3", ("Ann", "Computer L4"), {"practice": True})
    game.play(1, "c3-d4")
    text = write_record(game)
    assert '[Clock "-"]\n[Mode "practice"]\n[Result "*"]' in text
    back = read_record(text)
    assert back.state.practice and not back.state.solo
    same_game(game, back)

    race = new_game("classic-3x3", ("Ann",))
    rng = random.Random(5)
    for _ in range(12):
        race.play(1, rng.choice(RULES.legal(race.state, 1))["move"])
    race.act(1, "resign")
    text = write_record(race)
    assert '[White "Ann"]\n[Date' in text and "[Black" not in text
    assert '[Mode "solo"]\n[Result "0-1"]\n[Reason "resigned"]' in text
    assert " 2. " in text and " 12. " in text and "..." not in text  # a number a move
    back = read_record(text)
    assert back.state.solo and back.state.players == ("Ann",)
    same_game(race, back)
    with pytest.raises(RecordError, match="only the filled target wins it"):
        read_record(text.replace('"0-1"', '"1-0"').rstrip()[:-3] + "1-0")


def test_a_solo_race_to_its_end_round_trips():
    # a race set up one step from its end: e7-e8 fills the target
    setup = "W:e7,f7,f8,g6,g7,g8,h5,h6,h7,h8 B: w 4"
    race = new_game("triangle", ("Ann",), {"setup": setup})
    race.play(1, "e7-e8")
    assert race.state.end == ("target", 1)
    text = write_record(race)
    assert f'[Result "1-0"]\n[Reason "target"]\n[Setup "{setup}"]' in text
    assert text.endswith("\n\n4. e7-e8 1-0\n")
    same_game(race, read_record(text))


def test_comments_numbers_and_case_are_read_leniently():
    text = """; a game between friends
[Variant "classic-3x3"]   [White "Ann"]
[Black "Bo"] ; from the club
[Event "club night"]

{the usual opening} 1.C3-d3 f6-e6 ; black copies
2. c1-e3 {a jump over c2… then over d3} $1 2... g6-g5
3.b3-b4 1/2-1/2
"""
    record = parse(text)
    assert record.tag("Event") == "club night" and record.result.text == "1/2-1/2"
    game = read_record(text)
    assert [RULES.public_view(game.state).board["moves"][i] for i in (0, 2)] == [
        "c3-d3", "c1-c3-e3"]
    assert RULES.outcome(game.state).reason == "draw_agreed"


def test_a_date_before_host_times_is_kept_out_of_the_moves():
    text = '[Variant "4x4"]\n[Date "1969.07.20"]\n\n1. d4-d5 *'
    game = read_record(text)
    assert game.events[1].at_ms is None and '[Date "????.??.??"]' in write_record(game)


@pytest.mark.parametrize("text, words", [
    ('[Variant "classic-9x9"]\n\n*', "line 1: Corners has no variant 'classic-9x9'"),
    ('[White "Ann"]\n\n1. c3-d3 *', "line 1: the record names no variant"),
    ('[Variant "classic-3x3"]\n[Variant "4x4"]\n', "line 2: the tag Variant is given twice"),
    ('[Variant "classic-3x3"]\n[Clock "5 min"]\n', "line 2: the clock is"),
    ('[Variant "classic-3x3"]\n[Clock "99999+0"]\n', "line 2: .*reserve"),
    ('[Variant "classic-3x3"]\n\n1. c3-d3 f6-e6\n2. c3-c5 *',
     r"line 4: 2\. c3-c5: there is no white piece on c3"),
    ('[Variant "classic-3x3"]\n\n1. c3-d3 f6-e6\n2. c1-c3-c5 *', r"line 4: 2\. c1-c3-c5: "
     "c1-c3-c5 is not a chain"),
    ('[Variant "classic-3x3"]\n\n1. c3-d3 zz9 *', r"line 3: 1\.\.\. zz9: .*not a path"),
    ('[Variant "classic-3x3"]\n\n1. c3-d3 f6-e6 3. c1-d1 *',
     "line 3: move 3 is numbered where move 2 of white comes"),
    ('[Variant "classic-3x3"]\n\n1. c3-d3 {never closed\n *', "line 3: a comment { is never"),
    ('[Variant "classic-3x3"]\n\n1. c3-d3 (1. c3-c4) *', r"line 3: variations \( \)"),
    ('[Variant "classic-3x3"]\n\n1. c3-d3 * f6-e6', "line 3: the result .* after the last"),
    ('[Variant "classic-3x3"]\n[Result "1-0"]\n\n1. c3-d3 0-1', "line 4: the result 0-1 "
     "after the moves is not the .Result. tag's 1-0"),
    ('[Variant "classic-3x3"]\n[Result "2-0"]\n', "line 2: the result is one of"),
    ('[Variant "classic-3x3"]\n[Reason "mate"]\n', "line 2: the reason is one of"),
    ('[Variant "classic-3x3"]\n[Reason "target"]\n\n1-0',
     "line 2: the moves do not end the game"),
    ('[Variant "classic-3x3"]\n[Reason "resigned"]\n\n1/2-1/2',
     "line 2: the moves do not end the game"),
    ('[Variant "classic-3x3"\n', "line 1: a tag pair is"),
])
def test_a_bad_record_is_refused_with_its_line(text, words):
    with pytest.raises(RecordError, match=words) as e:
        read_record(text)
    assert isinstance(e.value, LogError) and e.value.code == "bad_record"


def test_a_finished_record_must_agree_with_its_moves():
    game = random_game("classic-3x3", seed=2)
    text = write_record(game)
    token = text.rstrip().rsplit(None, 1)[1]
    other = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[token]
    wrong = text.replace(f'"{token}"', f'"{other}"').rstrip()[:-len(token)] + other
    with pytest.raises(RecordError, match=f"the moves end the game {token}"):
        read_record(wrong)
    extra = text.rstrip()[:-len(token)] + " a1-a2 " + token
    with pytest.raises(RecordError, match=r"the game is over \("):
        read_record(extra)


def test_only_a_record_that_starts_with_a_tag_is_read_as_one():
    assert RULES.read('{"format": "cornerclaim-log"}') is None
    assert RULES.read("(;GM[Blokus Duo])") is None
    assert RULES.read("1. c3-d3 *") is None
    assert RULES.read('\n; made by hand\n[Variant "4x4"]\n\n*\n') is not None
    with pytest.raises(LogError, match="not a game record this host reads .*cgn"):
        registry.read_record("1. c3-d3 *")


# -- the host --------------------------------------------------------------------------------


def test_the_host_exports_a_game_and_imports_its_record(client):
    catalog = {g["game"]: g for g in client.get("/api/catalog").json["games"]}
    assert catalog["corners"]["formats"] == [
        {"ext": "cgn", "mimetype": "text/plain", "label": "Corners game notation"}]
    r = client.post("/api/games", json={"game": "corners", "variant": "classic-3x3",
                                        "seats": TWO})
    assert r.status_code == 201, r.json
    gid, tokens = r.json["id"], r.json["tokens"]
    for seat, move in ((1, "c3-d3"), (2, "f6-e6"), (1, "c1-e3")):
        seq = client.get(f"/api/games/{gid}").json["seq"]
        r = client.post(f"/api/games/{gid}/moves", json={"seat": seat, "move": move,
                                                         "seq": seq},
                        headers=bearer(tokens[str(seat)]))
        assert r.status_code == 201, r.json
    replay = client.get(f"/api/games/{gid}/replay").json
    assert [f["ext"] for f in replay["formats"]] == ["json", "cgn"]
    r = client.get(replay["links"]["cgn"])
    assert r.status_code == 200 and r.mimetype == "text/plain"
    text = r.get_data(as_text=True)
    assert '[White "Ann"]\n[Black "Bo"]' in text and "1. c3-d3 f6-e6 2. c1-c3-e3 *" in text

    r = client.post("/api/replays", data=text.encode(), headers={"Content-Type": "text/plain"})
    assert r.status_code == 201, r.json
    assert (r.json["game"], r.json["variant"], r.json["players"], r.json["moves"]) == (
        "corners", "classic-3x3", ["Ann", "Bo"], 3)
    rid = r.json["id"]
    assert r.json["url"] == f"/replay.html?import={rid}"
    imported = client.get(f"/api/replays/{rid}").json
    assert (expand_frames(imported)["frames"][-1]["board"]["rows"]
            == expand_frames(replay)["frames"][-1]["board"]["rows"])
    again = client.get(imported["links"]["cgn"])
    assert again.status_code == 200
    # a game with a clock is read without times: the date is the one thing not kept
    assert again.get_data(as_text=True) == re.sub(r'Date "[^"]*"', 'Date "????.??.??"', text)

    r = client.post("/api/replays", data=text.replace("c1-c3-e3", "c1-e5").encode(),
                    headers={"Content-Type": "text/plain"})
    assert r.status_code == 400
    assert r.json["error"]["code"] == "bad_record"
    assert r.json["error"]["message"] == "line 8: 2. c1-e5: the piece on c1 cannot get to e5"


def test_the_cli_exports_a_stored_game_as_cgn(tmp_path, capsys):
    from server.store.sqlite import SqliteStore
    from server.tables.service import GameService

    store = SqliteStore(tmp_path)
    service = GameService(store)
    created = service.create("triangle", TWO, game="corners")
    tokens = created["tokens"]
    service.move(created["id"], 1, "d1-e1", 1, tokens["1"])
    service.move(created["id"], 2, "e8-d8", 2, tokens["2"])
    service.stop()  # its clock timers too
    store.close()
    assert main(["replay", "export", created["id"], "--data-dir", str(tmp_path),
                 "--format", "cgn"]) == 0
    text = capsys.readouterr().out
    assert '[Variant "triangle"]' in text and "1. d1-e1 e8-d8 *" in text
    game = read_record(text)
    assert game.state.players == ("Ann", "Bo") and len(game.state.moves) == 2
    out = tmp_path / "game.cgn"
    assert main(["replay", "export", created["id"], "--data-dir", str(tmp_path),
                 "--format", "cgn", "-o", str(out)]) == 0
    assert out.read_text() == text
    assert main(["replay", "show", str(out)]) == 0  # the record shown like any other
    shown = capsys.readouterr().out.splitlines()
    assert shown[0] == "triangle · move 2 of 2: Bo played e8-d8"
    assert shown[1] == "8 . . . K . K K K" and shown[8] == "1 W W W . W . . ."


def test_a_log_that_names_a_move_by_from_and_to_is_written_with_the_full_path():
    log = ('{"format": "cornerclaim-log", "version": 1, "events": ['
           '{"type": "game_created", "seq": 1, "game": "corners", "variant": "classic-3x3",'
           ' "players": ["Ann", "Bo"], "options": {"reserve_s": 0}},'
           '{"type": "corners_moved", "seq": 2, "seat": 1, "move": "c3-d3"},'
           '{"type": "corners_moved", "seq": 3, "seat": 2, "move": "f6-e6"},'
           '{"type": "corners_moved", "seq": 4, "seat": 1, "move": "c1-e3"}]}')
    assert "1. c3-d3 f6-e6 2. c1-c3-e3 *" in write_record(Game.from_json(log))
