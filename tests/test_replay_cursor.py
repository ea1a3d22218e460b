"""The replay cursor: stepping through Pentobi's games to their recorded scores, takebacks
hidden or shown, whose turn at every point, the score series, and the final board as SVG;
and the same for a game that is not Corner Claim (the test-only tic-tac-toe)."""

import xml.etree.ElementTree as ET

import pytest

from engine.core import Game
from engine.cornerclaim import RULES, new_game
from engine.cornerclaim.sgf import load_game
from replays.board_svg import board_svg
from replays.cursor import Cursor, Replay
from replays.frames import expand_frames
from tests.conftest import COLOR_SEAT, PENTOBI, load_record
from tests.games import tictactoe
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
    assert (first.kind, first.seat, first.move, first.details) == (
        "move", 1, "e9,d10,e10,f10,e11", {"piece": "X", "squares": 5})
    assert cursor.to_move == 2 and cursor.scores == (-84, -89)
    assert cursor.jump(10).index == 10 and cursor.step(-3).index == 7
    assert cursor.last().index == 32 and cursor.forward().index == 32
    assert cursor.jump(-1).index == 32 and cursor.jump(999).index == 32
    assert cursor.first().index == 0


def test_takebacks_are_hidden_by_default():
    replay = Replay(ann_and_bo_with_a_takeback())
    assert [(f.kind, f.move) for f in replay.frames] == [
        ("start", None), ("move", "e10"), ("move", "j5"), ("move", "f8,f9")]
    assert replay.final.seq == 6  # the frame keeps the real log's seq
    assert replay.final.scores == (-86, -88)
    assert replay.frames[2].state.board()[14 - 9][3] == 0  # d9 never shows Ann's domino


def test_takebacks_are_shown_on_demand_with_the_withdrawn_move_marked():
    replay = Replay(ann_and_bo_with_a_takeback(), show_takebacks=True)
    kinds = [(f.kind, f.move, f.taken_back) for f in replay.frames]
    assert kinds == [("start", None, False), ("move", "e10", False), ("move", "j5", False),
                     ("move", "d8,d9", True), ("takeback", None, False),
                     ("move", "f8,f9", False)]
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
    pos = replay.final.state.position
    assert [sum(s) for s in squares] == list(pos.squares_placed[:4])


def test_the_viewer_data_carries_board_turn_scores_and_result():
    replay = Replay(load_game((PENTOBI / "duo_L3_g1.blksgf").read_text()))
    data = expand_frames(replay.to_dict())
    assert (data["game"], data["variant"], data["over"]) == ("cornerclaim", "duo", True)
    assert data["colours"] == ["blue", "green"] and len(data["frames"]) == 33
    last = data["frames"][-1]
    assert last["scores"] == [-16, -25] and last["to_move"] is None
    assert last["result"] == RULES.outcome(replay.game.state).to_dict()
    assert last["board"]["size"] == 14
    assert last["board"]["rows"][0] == [1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 2]  # row 14
    assert [s["colour"] for s in last["seats"]] == ["blue", "green"]
    assert set(last["seats"][0]) == {"colour", "left", "score", "can_move", "view", "out_of_moves"}
    assert last["details"] == {"piece": "I3", "squares": 3} and last["kind"] == "move"
    assert data["frames"][0]["board"]["rows"][0] == [0] * 14
    assert data["frames"][0]["kind"] == "start" and data["frames"][0]["result"] is None
    assert [sum(s) for s in data["series"]["squares"]] == [73, 64]


def test_the_final_board_svg_is_well_formed_with_one_square_per_covered_cell():
    state = load_game((PENTOBI / "duo_L3_g1.blksgf").read_text()).state
    svg = board_svg(RULES, state, title="Ann <&> Bo")
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    blue = [r for r in root.iter(f"{ns}rect") if r.get("fill") == "#2f6fde"]
    green = [r for r in root.iter(f"{ns}rect") if r.get("fill") == "#2e9e4f"]
    assert len(blue) == 73 + 1 and len(green) == 64 + 1  # cells + the caption's swatch
    assert "Ann &lt;&amp;&gt; Bo" in svg and "-16 (win)" in svg


# -- a game that is not Corner Claim -----------------------------------------------------------


def noughts_and_crosses_with_a_takeback() -> Game:
    """Ann (crosses) takes b2 back for a1 and wins down the a column."""
    game = Game.new("tictactoe", "3x3", ("Ann", "Bo"))
    game.play(1, "b2")
    game.undo(1)
    for seat, cell in ((1, "a1"), (2, "b1"), (1, "a2"), (2, "b2"), (1, "a3")):
        game.play(seat, cell)
    return game


def test_a_tictactoe_log_replays_with_its_takeback_hidden_or_shown():
    game = noughts_and_crosses_with_a_takeback()
    hidden = Replay(game)
    assert [(f.kind, f.seat, f.move) for f in hidden.frames] == [
        ("start", None, None), ("move", 1, "a1"), ("move", 2, "b1"), ("move", 1, "a2"),
        ("move", 2, "b2"), ("move", 1, "a3")]
    assert [f.seq for f in hidden.frames] == [1, 4, 5, 6, 7, 8]  # the real log's seqs
    assert hidden.frames[1].state.owner(1, 1) == 0  # b2 is never shown as a cross
    assert [f.to_move for f in hidden.frames] == [1, 2, 1, 2, 1, None]
    assert hidden.final.scores == (3, 2) and hidden.squares_per_turn() == [[], []]
    shown = Replay(game, show_takebacks=True)
    assert [(f.kind, f.move, f.taken_back) for f in shown.frames][:3] == [
        ("start", None, False), ("move", "b2", True), ("takeback", None, False)]
    assert shown.frames[2].to_move == 1 and len(shown) == 8
    cursor = Cursor(shown)
    assert cursor.forward().state.owner(1, 1) == 1 and cursor.forward().state.owner(1, 1) == 0
    assert cursor.last().index == 7 and cursor.at_end


def test_a_tictactoe_replays_viewer_data_is_the_games_own():
    data = expand_frames(Replay(noughts_and_crosses_with_a_takeback()).to_dict())
    assert (data["game"], data["title"], data["variant"]) == ("tictactoe", "Tic-tac-toe", "3x3")
    assert data["players"] == ["Ann", "Bo"] and data["colours"] == ["cross", "nought"]
    assert data["takebacks"] == 1 and data["over"]
    last = data["frames"][-1]
    assert last["board"] == {"rows": [[1, 0, 0], [1, 2, 0], [1, 2, 0]]}
    assert last["seats"][1] == {"colour": "nought", "left": False, "score": None,
                                "can_move": False, "view": {"marks": 2}, "out_of_moves": False}
    assert last["details"] == {} and last["result"]["winners"] == [1]
    assert data["result"] == last["result"] and data["series"]["scores"][0][-1] == 3


def test_board_svg_draws_a_tictactoe_picture_from_its_colour_names():
    from replays.board_svg import PALETTE

    state = noughts_and_crosses_with_a_takeback().state
    svg = board_svg(tictactoe.RULES, state, names=["Ann", "Bo"])
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    fills = [r.get("fill") for r in root.iter(f"{ns}rect")]
    assert fills.count(PALETTE["cross"]) == 3 + 1 and fills.count(PALETTE["nought"]) == 2 + 1
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert {"a", "b", "c", "1", "2", "3"} <= set(texts)
    assert "Ann: 3 (win)" in texts and "Bo: 2 (loss)" in texts
    assert "<title>Tic-tac-toe: Ann, Bo</title>" in svg


def test_an_unknown_colour_name_gets_the_fallback_fill():
    from engine.rules import Picture
    from replays.board_svg import UNKNOWN

    class Odd(tictactoe.TicTacToeRules):
        def picture(self, state):
            return Picture((("mauve", ""),), ("a", "b"), ("1",), marks=((0, 1, "!"),))

    state = Game.new("tictactoe", "3x3").state
    root = ET.fromstring(board_svg(Odd(), state))
    ns = "{http://www.w3.org/2000/svg}"
    assert UNKNOWN in [r.get("fill") for r in root.iter(f"{ns}rect")]
    assert "!" in [t.text for t in root.iter(f"{ns}text")]
