"""Pentobi's .blksgf records: Pentobi's own games load with their scores, our records load
back as the same game in every variant, and a broken file says what is wrong."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Game
from engine.cornerclaim import new_game
from engine.cornerclaim.sgf import (
    SgfError,
    effective_moves,
    game_to_sgf,
    load_game,
    read_sgf,
    write_sgf,
)
from engine.cornerclaim.variants import VARIANTS
from tests.conftest import COLOR_SEAT, PENTOBI, load_record, pentobi_records

SGF_FILES = sorted(PENTOBI.glob("*.blksgf"))


def random_game(variant: str, seed: int, *, stop_after: int | None = None,
                undo_chance: float = 0.0) -> Game:
    """A game of uniformly random legal moves, sometimes taking a move back."""
    rnd = random.Random(seed)
    seats = VARIANTS[variant].nu_seats
    game = new_game(variant, tuple(f"Player {i}" for i in range(1, seats + 1)))
    placed = 0
    while not game.state.is_over and (stop_after is None or placed < stop_after):
        state = game.state
        seat = state.to_move
        if rnd.random() < undo_chance and state.last_placement_seq(seat):
            game.undo(seat)
            continue
        game.play(seat, state.move_str(rnd.choice(state.legal_moves(seat))))
        placed += 1
    return game


# -- Pentobi's own files ----------------------------------------------------------------------


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda p: p.stem)
def test_pentobi_records_load_with_the_recorded_scores(path):
    record = load_record(path.with_suffix(".json"))
    game = load_game(path.read_text())
    state = game.state
    assert state.is_over
    scores = record["corner_claim_scores"]
    assert [state.score(COLOR_SEAT[c]) for c in scores] == [v["score"] for v in scores.values()]
    assert len(state.placements) == record["n_placed"]


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda p: p.stem)
def test_pentobi_records_read_as_their_variant_with_every_move(path):
    record = load_record(path.with_suffix(".json"))
    sgf = read_sgf(path.read_bytes())
    assert sgf.variant == record["game"]
    played = [(COLOR_SEAT[m["color"]], m["move"]) for m in record["moves"] if m["move"] != "pass"]
    assert list(sgf.moves) == played


def test_a_written_finished_duo_game_matches_pentobis_result():
    game = load_game((PENTOBI / "duo_L3_g1.blksgf").read_text())
    text = game_to_sgf(game, date="2026-11-29")
    assert text.startswith("(\n;GM[Blokus Duo]CA[UTF-8]AP[Corner Claim]")
    assert "PB[Blue]PW[Green]DT[2026-11-29]RE[B+9]" in text
    assert ";B[e9,d10,e10,f10,e11]\n;W[j5,i6,j6,k6,j7]\n" in text
    assert text.endswith("\n)\n")


def test_a_written_classic_game_gives_each_colours_points():
    game = load_game((PENTOBI / "classic_L3_g1.blksgf").read_text())
    assert "RE[78 77 78 78]" in game_to_sgf(game)
    assert "P1[Blue]P2[Yellow]P3[Red]P4[Green]" in game_to_sgf(game)


# -- round trips ------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["duo", "trio", "classic"]), seed=st.integers(0, 2**32),
       stop=st.one_of(st.none(), st.integers(0, 40)))
def test_export_then_import_gives_the_same_game(variant, seed, stop):
    game = random_game(variant, seed, stop_after=stop, undo_chance=0.05)
    back = load_game(game_to_sgf(game))
    assert effective_moves(back.state) == effective_moves(game.state)
    assert back.state.same_position_key() == game.state.same_position_key()
    assert back.state.players == game.state.players
    assert back.state.is_over == game.state.is_over


def test_taken_back_moves_are_not_written():
    game = new_game("duo")
    game.play(1, "e10")
    game.play(2, "j5")
    game.play(1, "d8,d9")
    game.undo(1)
    text = game_to_sgf(game)
    assert "d9" not in text and ";B[e10]\n;W[j5]\n)" in text
    assert "RE[" not in text  # not over


def test_trio_is_written_as_pentobis_three_player_game_with_three_colours():
    game = random_game("trio", 7)
    text = game_to_sgf(game)
    assert text.startswith("(\n;GM[Blokus Three-Player]")
    assert "P1[Player 1]P2[Player 2]P3[Player 3]" in text
    ids = {line[1] for line in text.splitlines()[2:-1]}
    assert ids == {"1", "2", "3"}
    scores = " ".join(str(game.state.position.points(c)) for c in range(3))
    assert f"RE[{scores}]" in text


def test_a_resignation_in_duo_is_written_as_b_plus_r():
    game = new_game("duo")
    game.play(1, "e10")
    game.leave(2)
    assert "RE[B+R]" in game_to_sgf(game)


def test_names_with_brackets_and_backslashes_survive():
    game = new_game("duo", ("Ann [the] \\best\\", "Bo"))
    back = load_game(game_to_sgf(game))
    assert back.state.players == ("Ann [the] \\best\\", "Bo")


def test_missing_names_become_the_colour_names():
    game = load_game("(;GM[Blokus];1[a20])")
    assert game.state.players == ("Blue", "Yellow", "Red", "Green")


# -- what else a file may hold ---------------------------------------------------------------


def test_a_pass_node_is_accepted_when_the_colour_cannot_move():
    text = (PENTOBI / "duo_L3_g1.blksgf").read_text()
    text = text.replace(";B[n5,n6,n7]", ";W[]\n;B[n5,n6,n7]\n;B[]\n;W[]")
    game = load_game(text)
    assert game.state.is_over
    assert [game.state.score(s) for s in (1, 2)] == [-16, -25]


def test_pentobis_older_colour_ids_and_loose_layout_are_read():
    sgf = read_sgf("  ( ; GM [Blokus Duo] FF[4] ; BLUE [e10] ;GREEN[j5]\n;1[d9] ; 2 [k4])  ")
    assert sgf.moves == ((1, "e10"), (2, "j5"), (1, "d9"), (2, "k4"))


def test_only_the_main_line_of_variations_is_read():
    sgf = read_sgf("(;GM[Blokus Duo];B[e10](;W[j5](;B[d9])(;B[f9]))(;W[j4]))")
    assert sgf.moves == ((1, "e10"), (2, "j5"), (1, "d9"))


def test_moves_are_read_in_any_cell_order_and_written_canonically():
    sgf = read_sgf("(;GM[Blokus Duo];B[e11,e10,e9,d10,f10])")
    assert sgf.moves == ((1, "e9,d10,e10,f10,e11"),)
    assert ";B[e9,d10,e10,f10,e11]" in write_sgf("duo", [(1, "f10,e11,e10,e9,d10")])


def test_date_and_result_are_read_back():
    sgf = read_sgf(write_sgf("duo", [(1, "e10")], players=("A", "B"), date="2026-01-02",
                             result="B+3"))
    assert (sgf.players, sgf.date, sgf.result) == (("A", "B"), "2026-01-02", "B+3")


# -- broken files -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "must start with '\\('"),
        ("GM[Blokus Duo]", "must start with '\\('"),
        ("(;GM[Blokus Duo];B[e10]", "unbalanced parentheses: 1 '\\(' never closed"),
        ("(;GM[Blokus Duo];B[e10]))", "'\\)' without '\\('"),
        ("(;GM[Blokus Duo];B[e10", "never closed with '\\]'"),
        ("(GM[Blokus Duo])", "must start with a node"),
        ("(;GM[Blokus Duo];B)", "property B has no value"),
        ("(;GM[Blokus Duo]GM[Blokus])", "property GM twice"),
        ("(;GM[Blokus Duo];B[e10]W[j5])", "move 1: one node holds several moves"),
        ("(;GM[Blokus Duo];B[e10]!)", "unexpected '!'"),
        ("(;FF[4];B[e10])", "no GM property"),
        ("(;GM[Go];B[dd])", "unknown game GM\\[Go\\]"),
        ("(;GM[Blokus Two-Player];1[a20])", "unknown game GM\\[Blokus Two-Player\\]"),
        ("(;GM[Blokus Duo];B[e10];W[zz9])", "move 2: W\\[zz9\\] is not a move"),
        ("(;GM[Blokus Duo];B[e10];W[j5,j5])", "move 2: .*names a cell twice"),
        ("(;GM[Blokus Duo]AB[e10];W[j5])", "setup properties \\(AB\\) are not supported"),
        ("(;GM[Blokus Three-Player];1[a20];4[a1])", "move 2: colour 4 does not play in trio"),
    ],
)
def test_a_malformed_file_says_what_is_wrong(text, words):
    with pytest.raises(SgfError, match=words):
        load_game(text)


@pytest.mark.parametrize(
    "moves, words",
    [
        (";B[e10];W[j5];B[e11,e12]", "illegal move at move 3 \\(B\\[e11,e12\\]\\): .*edge at e11"),
        (";B[d9,d10]", "illegal move at move 1 .*start square e10"),
        (";B[e10];B[d9]", "illegal move at move 2 .*seat 2's turn"),
        (";B[e10];W[j5];B[e10]", "move 3 .*already placed the 1"),
        (";B[e10];W[j5];B[]", "illegal move at move 3 \\(B\\[pass\\]\\): .*cannot pass"),
        (";B[e10,g10]", "move 1 .*do not form one of the 21 pieces"),
        (";B[o15]", "move 1 .*off the 14×14 board"),
    ],
)
def test_an_illegal_move_is_refused_with_its_number(moves, words):
    with pytest.raises(SgfError, match=words):
        load_game(f"(;GM[Blokus Duo]{moves})")


def test_a_file_over_one_megabyte_is_refused_before_parsing():
    huge = "(;GM[Blokus Duo]" + ";C[x]" * 250_000 + ")"
    with pytest.raises(SgfError, match="too large"):
        read_sgf(huge)
    with pytest.raises(SgfError, match="too large"):
        read_sgf(huge.encode())


def test_a_file_that_is_not_utf8_is_refused():
    with pytest.raises(SgfError, match="not UTF-8"):
        read_sgf(b"(;GM[Blokus Duo]PB[\xff])")


def test_a_deeply_nested_file_does_not_crash_the_reader():
    text = "(;GM[Blokus Duo]" + "(;C[x]" * 50_000 + ")" * 50_001
    assert read_sgf(text).moves == ()


def test_sgf_errors_are_log_errors_with_their_own_code():
    from engine.errors import LogError

    with pytest.raises(LogError) as info:
        read_sgf("(")
    assert info.value.code == "bad_sgf"


def test_every_pentobi_record_has_a_matching_sgf():
    assert {p.stem for p in pentobi_records()} == {p.stem for p in SGF_FILES}


def test_sgf_escapes_and_soft_line_breaks_are_undone():
    sgf = read_sgf("(;GM[Blokus Duo]PB[a\\]b\\\\c\\\nd]PW[x\\\\])")
    assert sgf.players == ("a]b\\cd", "x\\")
