"""`cornerclaim replay show` prints a record's board in the terminal, for any game; `replay
export` writes a game from the host's store as JSON or a format its game offers (.blksgf)."""

import pytest

from engine.core import Game
from engine.cornerclaim import new_game
from engine.cornerclaim.sgf import load_game
from server.cli import main
from tests.conftest import PENTOBI
from tests.games import tictactoe  # noqa: F401 - registers the game

DUO = PENTOBI / "duo_L3_g1.blksgf"


def test_show_prints_the_final_board_scores_and_winner(capsys):
    assert main(["replay", "show", str(DUO)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "duo · move 32 of 32: Blue placed I3 at n5,n6,n7"
    assert out[1] == "14 B B B B . . . . . B B B . G"  # Pentobi's final board, row 14
    assert out[14] == "1 G G G G G . . . G G . G G B".rjust(len(out[1]))
    assert out[15] == "   a b c d e f g h i j k l m n"
    assert out[16:] == ["  B Blue: -16", "  G Green: -25", "Game over: won by Blue",
                        "Nobody can place another piece: Blue wins by 9 points"]


def test_show_move_n_prints_that_position_and_whose_turn(capsys):
    assert main(["replay", "show", str(DUO), "--move", "1"]) == 0
    out = capsys.readouterr().out
    assert "move 1 of 32: Blue placed X at e9,d10,e10,f10,e11" in out
    assert " 5 . . . . . . . . . . . . . .\n" in out
    assert "10 . . . B B B . . . . . . . .\n" in out
    assert "  G Green: -89  <- to move" in out


def test_show_reads_our_json_log_with_takebacks_on_demand(tmp_path, capsys):
    game = new_game("duo", ("Ann", "Bo"))
    for seat, move in ((1, "e10"), (2, "j5"), (1, "d8,d9")):
        game.play(seat, move)
    game.undo(1)
    path = tmp_path / "game.json"
    path.write_text(game.to_json())
    assert main(["replay", "show", str(path)]) == 0
    assert "move 2 of 2: Bo placed 1 at j5" in capsys.readouterr().out
    assert main(["replay", "show", str(path), "--takebacks"]) == 0
    assert "move 4 of 4: Ann took back" in capsys.readouterr().out


@pytest.mark.parametrize("content, words", [
    ("(;GM[Blokus Duo];B[e10];W[e10])", "illegal move at move 2"),
    ('{"format": "something-else"}', "not a Corner Claim game log"),
    ("", "the file is empty"),
    ("hello", "not a game record this host reads"),
])
def test_show_explains_a_broken_file(tmp_path, capsys, content, words):
    path = tmp_path / "broken.blksgf"
    path.write_text(content)
    assert main(["replay", "show", str(path)]) == 2
    assert words in capsys.readouterr().err


def test_show_refuses_a_move_the_game_does_not_have(capsys):
    assert main(["replay", "show", str(DUO), "--move", "33"]) == 2
    assert "no move 33 (0 to 32)" in capsys.readouterr().err


def test_export_writes_a_stored_game_as_blksgf_and_json(tmp_path, capsys):
    from server.store.sqlite import SqliteStore
    from server.tables.service import GameService

    store = SqliteStore(tmp_path)
    service = GameService(store)
    created = service.create("duo", [{"kind": "local", "name": "Ann"},
                                     {"kind": "local", "name": "Bo"}])
    token = created["tokens"]
    service.move(created["id"], 1, "e10", 1, token["1"])
    service.move(created["id"], 2, "j5", 2, token["2"])
    service.stop()  # its clock timers too
    store.close()
    out = tmp_path / "out.blksgf"
    assert main(["replay", "export", created["id"], "--data-dir", str(tmp_path),
                 "-o", str(out)]) == 0
    game = load_game(out.read_text())
    assert game.state.players == ("Ann", "Bo") and len(game.state.placements) == 2
    assert main(["replay", "export", created["id"], "--data-dir", str(tmp_path),
                 "--format", "json"]) == 0
    assert Game.from_json(capsys.readouterr().out).seq == 3
    assert main(["replay", "export", "nope", "--data-dir", str(tmp_path)]) == 2
    assert "there is no game 'nope'" in capsys.readouterr().err


def test_show_renders_a_tictactoe_log_from_its_picture(tmp_path, capsys):
    game = Game.new("tictactoe", "3x3", ("Ann", "Bo"))
    game.play(1, "b2")
    game.undo(1)
    for seat, cell in ((1, "a1"), (2, "b1"), (1, "a2"), (2, "b2"), (1, "a3")):
        game.play(seat, cell)
    path = tmp_path / "noughts.json"
    path.write_text(game.to_json())
    assert main(["replay", "show", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "3x3 · move 5 of 5: Ann played a3",
        "3 X . .",
        "2 X O .",
        "1 X O .",
        "  a b c",
        "  X Ann: 3",
        "  O Bo: 2",
        "Game over: won by Ann"]
    assert main(["replay", "show", str(path), "--takebacks", "--move", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "3x3 · move 2 of 7: Ann took back" and out[2] == "2 . . ."
    assert out[5] == "  X Ann: 0  <- to move"


def test_export_writes_a_tictactoe_game_as_json_only(tmp_path, capsys):
    from server.store.sqlite import SqliteStore
    from server.tables.service import GameService

    store = SqliteStore(tmp_path)
    service = GameService(store)
    created = service.create("3x3", [{"kind": "local", "name": "Ann"},
                                     {"kind": "local", "name": "Bo"}], game="tictactoe")
    service.move(created["id"], 1, "b2", 1, created["tokens"]["1"])
    service.stop()  # its clock timers too
    store.close()
    assert main(["replay", "export", created["id"], "--data-dir", str(tmp_path)]) == 0
    game = Game.from_json(capsys.readouterr().out)
    assert game.events[0].game == "tictactoe" and game.seq == 2
    assert main(["replay", "export", created["id"], "--data-dir", str(tmp_path),
                 "--format", "blksgf"]) == 2
    assert "Tic-tac-toe games export as json, not blksgf" in capsys.readouterr().err


def test_show_says_a_closed_game_ended_with_nobody_winning(tmp_path, capsys):
    game = new_game("duo", ("Ann", "Bo"))
    game.play(1, "e10")
    game.close()
    path = tmp_path / "closed.json"
    path.write_text(game.to_json())
    assert main(["replay", "show", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "duo · move 2 of 2: the host closed this game"
    assert out[-3:] == ["  B Ann: -88", "  G Bo: -89", "The host closed this game: nobody won"]
