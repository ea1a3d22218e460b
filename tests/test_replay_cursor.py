"""The replay cursor: stepping through Pentobi's games to their recorded scores, takebacks
hidden or shown, whose turn at every point, the score series, and the final board as SVG."""

import xml.etree.ElementTree as ET

import pytest

from engine.cornerclaim import RULES, new_game
from engine.cornerclaim.sgf import load_game
from replays.board_svg import board_svg
from replays.cursor import Cursor, Replay
from tests.conftest import COLOR_SEAT, PENTOBI, load_record
from tests.test_sgf import random_game

SGF_FILES = sorted(PENTOBI.glob("*.blksgf"))


def ann_and_bo_with_a_takeback():
    """Ann opens on e10, Bo on j5, Ann lays a domino, thinks better of it, lays it elsewhere."""
    game = new_game("duo", ("Ann", "Bo"))
    game.play(1, "e10")
    game.play(2, "j5")
    game.play(1, "d8,d9")
    game.undo(1)
    game.play(1, "f8,f9")
    return game


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda p: p.stem)
def test_stepping_to_the_end_of_a_pentobi_game_gives_its_recorded_scores(path):
    record = load_record(path.with_suffix(".json"))
    cursor = Cursor(Replay(load_game(path.read_text())))
    while not cursor.at_end:
        cursor.forward()
    expected = {COLOR_SEAT[c]: v["score"] for c, v in record["corner_claim_scores"].items()}
    assert list(cursor.scores) == [expected[s] for s in sorted(expected)]
    assert cursor.index == record["n_placed"]
    assert cursor.to_move is None


def test_the_cursor_walks_forward_and_back_and_clamps_at_both_ends():
    cursor = Cursor(Replay(load_game((PENTOBI / "duo_L3_g1.blksgf").read_text())))
    assert cursor.at_start and cursor.to_move == 1 and cursor.scores == (-89, -89)
    assert cursor.back().index == 0
    first = cursor.forward()
    assert (first.seat, first.move, first.piece, first.squares) == (1, "e9,d10,e10,f10,e11",
                                                                   "X", 5)
    assert cursor.to_move == 2 and cursor.scores == (-84, -89)
    assert cursor.jump(10).index == 10 and cursor.step(-3).index == 7
    assert cursor.last().index == 32 and cursor.forward().index == 32
    assert cursor.jump(-1).index == 32 and cursor.jump(999).index == 32
    assert cursor.first().index == 0


def test_takebacks_are_hidden_by_default():
    replay = Replay(ann_and_bo_with_a_takeback())
    assert [(f.kind, f.move) for f in replay.frames] == [
        ("start", None), ("placed", "e10"), ("placed", "j5"), ("placed", "f8,f9")]
    assert replay.final.seq == 6  # the frame keeps the real log's seq
    assert replay.final.scores == (-86, -88)
    assert replay.frames[2].state.board()[14 - 9][3] == 0  # d9 never shows Ann's domino


def test_takebacks_are_shown_on_demand_with_the_withdrawn_move_marked():
    replay = Replay(ann_and_bo_with_a_takeback(), show_takebacks=True)
    kinds = [(f.kind, f.move, f.taken_back) for f in replay.frames]
    assert kinds == [("start", None, False), ("placed", "e10", False), ("placed", "j5", False),
                     ("placed", "d8,d9", True), ("takeback", None, False),
                     ("placed", "f8,f9", False)]
    assert replay.frames[3].scores == (-86, -88) and replay.frames[4].scores == (-88, -88)
    assert replay.frames[4].to_move == 1  # after the takeback it is Ann's turn again


def test_both_views_end_on_the_games_own_state():
    game = random_game("classic", 7, undo_chance=0.1)
    for show in (False, True):
        replay = Replay(game, show_takebacks=show)
        assert replay.final.state.same_position_key() == game.state.same_position_key()


def test_a_seat_that_leaves_is_a_frame_and_the_result_comes_from_the_engine():
    game = new_game("trio", ("Ann", "Bo", "Cy"))
    game.play(1, "a20")
    game.leave(2)
    replay = Replay(game)
    assert replay.frames[-1].kind == "left" and replay.frames[-1].seat == 2
    assert replay.frames[-1].to_move == 3


def test_the_score_series_has_one_point_per_frame_and_seat():
    replay = Replay(load_game((PENTOBI / "classic_L3_g1.blksgf").read_text()))
    series = replay.score_series()
    assert len(series) == 4 and all(len(line) == len(replay) for line in series)
    assert [line[-1] for line in series] == list(replay.final.scores)
    squares = replay.squares_per_turn()
    assert [sum(s) for s in squares] == list(replay.final.squares_placed())


def test_the_viewer_data_carries_board_turn_scores_and_result():
    replay = Replay(load_game((PENTOBI / "duo_L3_g1.blksgf").read_text()))
    data = replay.to_dict()
    assert data["variant"] == "duo" and data["size"] == 14 and data["over"]
    assert len(data["frames"]) == 33
    last = data["frames"][-1]
    assert last["scores"] == [-16, -25] and last["to_move"] is None
    assert last["result"] == RULES.outcome(replay.game.state).to_dict()
    assert last["board"][0] == "11110000011102"  # row 14 of Pentobi's final board
    assert data["frames"][0]["board"][0] == "0" * 14


def test_the_final_board_svg_is_well_formed_with_one_square_per_covered_cell():
    state = load_game((PENTOBI / "duo_L3_g1.blksgf").read_text()).state
    svg = board_svg(state, title="Ann <&> Bo")
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    blue = [r for r in root.iter(f"{ns}rect") if r.get("fill") == "#2f6fde"]
    green = [r for r in root.iter(f"{ns}rect") if r.get("fill") == "#2e9e4f"]
    assert len(blue) == 73 + 1 and len(green) == 64 + 1  # cells + the caption's swatch
    assert "Ann &lt;&amp;&gt; Bo" in svg and "-16 (win)" in svg
