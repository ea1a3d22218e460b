"""Halma 16×16 (`halma-16x16`): its camps of 19 named square by square, two-digit rows in the
notation and its errors, the board view and picture of 16 rows, a jump chain longer than the
move field of a smaller board, the home deadline after move 60 and the limit of 150, the
computer's quick levels, and a game over the host's REST from the lobby's catalog to moves."""

from __future__ import annotations

import pytest

from engine.corners import RULES, setup_state, start_state
from engine.corners import errors as E
from engine.corners.ai import choose_move, greedy_move
from server.cli import main as cli_main
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer
from tests.test_api import assert_error

COLS = "abcdefghijklmnop"
HALMA = "halma-16x16"
WHITE = ("a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 a3 b3 c3 d3 a4 b4 c4 a5 b5").split()
BLACK = ("p16 o16 n16 m16 l16 p15 o15 n15 m15 l15 p14 o14 n14 m14 p13 o13 n13 p12 "
         "o12").split()


def index(name: str) -> int:
    return (int(name[1:]) - 1) * 16 + COLS.index(name[0])


def board_with(white, black) -> list[int]:
    board = [0] * 256
    for sq in white:
        board[index(sq)] = 1
    for sq in black:
        board[index(sq)] = 2
    return board


def test_the_camps_are_nineteen_squares_in_opposite_corners():
    state = start_state(HALMA)
    v = state.variant
    assert (v.size, v.pieces, v.diagonal, v.locking_allowed, v.deadline, v.limit, v.rated) == (
        16, 19, True, True, 60, 150, False)
    assert state.board == tuple(board_with(WHITE, BLACK))
    view = RULES.public_view(state).board
    assert view["size"] == 16 and len(view["rows"]) == 16
    assert all(len(row) == 16 for row in view["rows"])
    assert view["rows"][0][11:] == [2] * 5 and view["rows"][15][:5] == [1] * 5
    assert sorted(view["homes"]["1"]) == sorted(WHITE)
    assert sorted(view["homes"]["2"]) == sorted(BLACK)
    picture = RULES.picture(state)
    assert "".join(picture.columns) == COLS
    assert picture.rows == tuple(str(r) for r in range(16, 0, -1))
    assert picture.cells[0][15] == "black" and picture.cells[15][0] == "white"


def test_two_digit_rows_in_moves_and_the_errors_name_the_board():
    state = start_state(HALMA)
    assert [m["move"] for m in RULES.legal(state, 1, "b5")] == ["b5-a6", "b5-b6", "b5-c5",
                                                                 "b5-c6"]
    state = RULES.apply(state, RULES.play(state, 1, "e2-f3"))
    state = RULES.apply(state, RULES.play(state, 2, "O12-O11"))  # case does not matter
    assert state.moves[-1].path == (index("o12"), index("o11"))
    assert RULES.public_view(state).board["last_move"] == "o12-o11"
    with pytest.raises(E.NotationError, match="a1 to p16"):
        RULES.play(state, 1, "q1-q2")
    with pytest.raises(E.NotationError, match="a1 to p16"):
        RULES.play(state, 1, "a17-a18")
    with pytest.raises(E.NotationError, match="a1 to h8"):
        RULES.play(start_state("classic-3x3"), 1, "a10-a11")
    with pytest.raises(E.EngineError, match="256 squares, not 64"):
        setup_state(HALMA, [0] * 64)


def test_a_long_chain_across_the_board():
    """a1 up the a column, along row 15 and down the o column: twenty jumps in one move."""
    blockers = ([f"a{r}" for r in range(2, 15, 2)] + [f"{c}15" for c in "bdfhjln"]
                + [f"o{r}" for r in range(14, 3, -2)])
    state = setup_state(HALMA, board_with(["a1"], blockers))
    entry = next(m for m in RULES.legal(state, 1, "a1") if m["to"] == "o3")
    path = ("a1-a3-a5-a7-a9-a11-a13-a15-c15-e15-g15-i15-k15-m15-o15-o13-o11-o9-o7-o5-o3")
    assert entry["move"] == path and len(path) > 64
    after = RULES.apply(state, RULES.play(state, 1, "a1-o3"))
    assert after.board[index("o3")] == 1 and after.board[index("a1")] == 0
    assert RULES.step(after, after_event(after)).details["jumps"] == 20


def after_event(state):
    from engine.corners import Moved

    last = state.moves[-1]
    return Moved(seq=last.seq, seat=last.seat, move=state.variant.board.path_text(last.path))


def test_the_home_deadline_is_after_move_sixty_and_the_limit_move_150():
    # Black's move 60 with a white piece still at home (b5): white loses at the deadline.
    white = ["b5"] + [f"{c}8" for c in "abcdefghijklmnopq"[:16]][:18]
    black = [f"{c}10" for c in COLS][:16] + ["a12", "c12", "e12"]
    state = setup_state(HALMA, board_with(white, black), to_move=2, number=60)
    state = RULES.apply(state, RULES.play(state, 2, "a12-a13"))
    assert state.end == ("deadline", 2)
    # Move 59: no deadline yet.
    state = setup_state(HALMA, board_with(white, black), to_move=2, number=59)
    state = RULES.apply(state, RULES.play(state, 2, "a12-a13"))
    assert state.end is None
    # White's move 61 into its home loses at once.
    state = setup_state(HALMA, board_with(["c6"] + white[1:], black), number=61)
    assert next(m for m in RULES.legal(state, 1, "c6") if m["to"] == "b5")["loses"]
    # After black's move 150 the side with more pieces in the other's home wins.
    near = board_with(["p16", "o16"] + white[3:], ["a1"] + black[1:])
    state = setup_state(HALMA, near, to_move=2, number=150)
    state = RULES.apply(state, RULES.play(state, 2, "a12-a13"))
    assert state.end == ("move_limit", 1)


def test_the_quick_computer_levels_play_halma():
    state = start_state(HALMA)
    legal = {m["move"] for m in RULES.legal(state, 1)}
    for level in (1, 2):
        assert choose_move(state, 1, level=level, seed=3) in legal
    assert greedy_move(state, 1, seed=3) in legal


def test_perft_on_the_command_line(capsys):
    assert cli_main(["perft", "--game", "corners", "--variant", HALMA, "--depth", "2"]) == 0
    assert capsys.readouterr().out == "1600\n"


def test_a_halma_game_over_rest(client):
    variants = {v["name"]: v for v in
                next(g for g in client.get("/api/catalog").json["games"]
                     if g["game"] == "corners")["variants"]}
    assert variants[HALMA]["label"] == "Halma 16×16" and not variants[HALMA]["rated"]
    r = client.post("/api/games", json={"game": "corners", "variant": HALMA, "seats": [
        {"kind": "local", "name": "Ana"}, {"kind": "local", "name": "Ben"}]})
    assert r.status_code == 201, r.json
    g = r.json
    gid, tokens = g["id"], g["tokens"]
    r = client.get(f"/api/games/{gid}/legal?seat=1&from=b5")
    assert [m["to"] for m in r.json["moves"]] == ["a6", "b6", "c5", "c6"]
    error = assert_error(client.get(f"/api/games/{gid}/legal?seat=1&from=q1"), 422,
                         "bad_notation")
    assert error["message"] == "'q1' is not a square a1 to p16"
    seq = client.get(f"/api/games/{gid}").json["seq"]
    for seat, move in ((1, "b5-b6"), (2, "o12-o11")):
        r = client.post(f"/api/games/{gid}/moves", json={"seat": seat, "move": move,
                                                          "seq": seq},
                        headers=bearer(tokens[str(seat)]))
        assert r.status_code == 201, r.json
        seq += 1
    s = client.get(f"/api/games/{gid}").json
    assert s["board"]["moves"] == ["b5-b6", "o12-o11"] and s["board"]["size"] == 16
    # A long path reaches the game (which says what is wrong with it), not a length limit.
    long = "-".join(["a5", "a7", "a9", "a11", "a13", "a15"] * 4)
    assert len(long) > 64
    r = client.post(f"/api/games/{gid}/moves", json={"seat": 1, "move": long, "seq": seq},
                    headers=bearer(tokens["1"]))
    assert_error(r, 422, "not_a_chain")
