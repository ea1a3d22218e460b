"""How a game ended, in each game's own words (`Outcome.ending`, `result.ending` in the state
and the replay): every end reason of Corners, Corner Claim and Corner (marbles), with colours
and move numbers only; the teams of a 4-player Corner game and its rule that a seat that left
cannot win; the generic words of a game that gives none."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.cornerclaim import RULES as CLAIM
from engine.cornerclaim import new_game as claim_game
from engine.corners import RULES as CORNERS
from engine.corners import setup_state, start_state
from engine.events import GameCreated
from engine.marbles import RULES as MARBLES
from engine.marbles import start_state as marbles_state
from engine.marbles.rules import NO_COUNTS, RoundScore
from engine.rules import Outcome, Team, abandoned
from tests.games.tictactoe import RULES as TICTACTOE
from tests.test_corners_moves import board_from
from tests.test_corners_rules import BOTH_CLOSE, HOMEBODY, play


def ending(rules, state) -> str:
    outcome = rules.outcome(state)
    assert outcome.to_dict()["ending"] == outcome.ending
    return outcome.ending


# -- Corners -------------------------------------------------------------------------------------


def test_corners_a_filled_home_names_the_side_and_the_move_number():
    state = play(setup_state("classic-3x3", BOTH_CLOSE, number=41), "e6-e5", "d3-c3")
    assert ending(CORNERS, state) == "Black filled White's home on move 41"
    state = play(setup_state("classic-3x3", BOTH_CLOSE, number=20), "e6-f6", "d3-d4")
    assert ending(CORNERS, state) == "White filled Black's home on move 20"
    state = play(setup_state("classic-3x3", BOTH_CLOSE, number=20), "e6-f6", "d3-c3")
    assert ending(CORNERS, state) == "Draw: both sides filled the other's home on move 20"


def test_corners_the_home_deadline_and_a_return_home_after_it():
    state = play(setup_state("classic-3x3", HOMEBODY, to_move=2, number=40), "e7-e8")
    assert ending(CORNERS, state) == "White still had a piece at home after move 40"
    board = list(HOMEBODY)
    board[63] = 2
    state = play(setup_state("classic-3x3", board, to_move=2, number=40), "e7-e8")
    assert ending(CORNERS, state) == (
        "Draw: both sides still had pieces at home after move 40")
    board = board_from([
        "........", "....B...", "........", "........",
        ".B......", "...W....", "...W....", "...W..B."])
    state = play(setup_state("classic-3x3", board, number=41), "d1-c1")
    assert ending(CORNERS, state) == (
        "White moved back into its home on move 41, after the deadline (move 40)")


def test_corners_the_move_limit_gives_the_counts():
    board = board_from([
        ".....WW.", "......W.", "........", "........",
        "........", "........", "B.......", "BB....B."])
    state = play(setup_state("classic-3x3", board, to_move=2, number=80), "g1-g2")
    assert ending(CORNERS, state) == (
        "Draw at the move limit (move 80): 3 pieces each in the other's home")
    board[16] = 2
    state = play(setup_state("classic-3x3", board, to_move=2, number=80), "g1-g2")
    assert ending(CORNERS, state) == (
        "Black had more pieces in the other's home at the move limit (move 80): 4 to 3")


def test_corners_repetition_no_move_and_the_players_own_ends():
    state = play(start_state("classic-3x3"), *["c3-d3", "f6-e6", "d3-c3", "e6-f6"] * 2)
    assert ending(CORNERS, state) == "Draw: the same position three times"
    board = board_from([
        ".....WWB", "......WW", ".....W..", ".......W",
        "........", "........", "........", "W......."])
    state = play(setup_state("diagonal-3x3", board), "h5-h6")
    assert ending(CORNERS, state) == "Draw: Black had no legal move after move 1"
    state = play(start_state("classic-3x3"), "c3-d3")
    assert ending(CORNERS, CORNERS.apply(state, CORNERS.act(state, 1, "resign"))) == (
        "White resigned")
    assert ending(CORNERS, CORNERS.apply(state, CORNERS.leave(state, 2))) == (
        "Black left the game")
    offered = CORNERS.apply(state, CORNERS.act(state, 1, "offer_draw"))
    assert ending(CORNERS, CORNERS.apply(offered, CORNERS.act(offered, 2, "accept_draw"))) == (
        "Draw agreed")
    clocked = play(start_state("classic-3x3", reserve_s=60, increment_s=0), "c3-d3", now=100.0)
    fallen = CORNERS.apply(clocked, CORNERS.expire(clocked, CORNERS.deadline(clocked)))
    assert ending(CORNERS, fallen) == "Black's time ran out"
    assert CORNERS.outcome(start_state("classic-3x3")).ending == ""  # still playing


# -- Corner Claim --------------------------------------------------------------------------------


def test_corner_claim_nobody_can_place_with_the_margin_or_the_tie():
    state = claim_game("classic").state
    assert CLAIM.ending(state, "finished", (2,), (-20, -5, -12, -30)) == (
        "Nobody can place another piece: Yellow wins by 7 points")
    assert CLAIM.ending(state, "finished", (1,), (-4, -5, -12, -30)) == (
        "Nobody can place another piece: Blue wins by 1 point")
    assert CLAIM.ending(state, "finished", (1, 3), (-4, -5, -4, -30)) == (
        "Nobody can place another piece: Blue and Red tie on -4")


def test_corner_claim_a_leaver_and_everyone_leaving():
    duo = claim_game("duo")
    duo.leave(1)
    assert ending(CLAIM, duo.state) == "Blue left the game"
    four = claim_game("classic")
    for seat in (1, 2, 3, 4):
        four.leave(seat)
    assert ending(CLAIM, four.state) == "Everyone left"


# -- Corner (marbles) ---------------------------------------------------------------------------


def finished(variant: str, red_yellow: list[tuple[int, int]], **changes):
    """A game over after rounds scored `red_yellow`."""
    history = tuple(RoundScore(i, "", 1 + (i + 1) % 2, NO_COUNTS, scores)
                    for i, scores in enumerate(red_yellow, 1))
    state = marbles_state(variant, rounds=len(red_yellow))
    return replace(state, round=len(red_yellow), history=history, end="finished", **changes)


def test_corner_the_totals_after_the_rounds():
    assert ending(MARBLES, finished("2p", [(40, 30), (44, 24)])) == (
        "Red wins 84–54 after 2 rounds")
    assert ending(MARBLES, finished("2p", [(20, 54)])) == "Yellow wins 54–20 after 1 round"
    assert ending(MARBLES, finished("4p", [(30, 30), (30, 30)])) == "Draw: 60–60 after 2 rounds"


def test_corner_resigning_and_a_team_forfeiting():
    state = marbles_state("2p")
    state = replace(state, round=1, left=frozenset({2}), end="resigned", forfeit=1)
    assert ending(MARBLES, state) == "Yellow resigned in round 1"
    state = replace(marbles_state("4p"), round=2, left=frozenset({1, 3}), end="left", forfeit=0)
    assert ending(MARBLES, state) == "Red forfeited: both red players left in round 2"
    assert MARBLES.outcome(state).results == ("loss", "win", "loss", "win")


def test_corner_four_players_name_their_teams_and_a_leaver_cannot_win():
    state = finished("4p", [(30, 50), (24, 34)], left=frozenset({4}))
    o = MARBLES.outcome(state)
    assert o.teams == (Team("Red", (1, 3)), Team("Yellow", (2, 4)))
    # Yellow won 84–54; seat 4 left and was played by the computer: a loss, no points
    assert o.results == ("loss", "win", "loss", "loss") and o.points == (0, 2, 0, 0)
    assert o.winners == (2,) and o.ending == "Yellow wins 84–54 after 2 rounds"
    assert o.to_dict()["teams"] == [{"name": "Red", "seats": [1, 3]},
                                    {"name": "Yellow", "seats": [2, 4]}]
    assert [s.points for s in MARBLES.ladder(state)] == [0, 2, 0, 0]
    # a leaver on a drawn side does not share the draw either
    draw = finished("4p", [(30, 30)], left=frozenset({1}))
    assert MARBLES.outcome(draw).results == ("loss", "draw", "draw", "draw")
    # nobody left: partners share the side's result
    assert MARBLES.outcome(finished("4p", [(60, 10)])).results == ("win", "loss", "win", "loss")
    assert MARBLES.outcome(finished("2p", [(60, 10)])).teams == ()


# -- the generic words ---------------------------------------------------------------------------


def test_a_game_without_words_of_its_own_gets_the_generic_ones():
    state = TICTACTOE.initial_state(GameCreated(seq=1, game=TICTACTOE.game, variant="3x3"))
    state = TICTACTOE.apply(state, TICTACTOE.leave(state, 1))
    o = TICTACTOE.outcome(state)
    assert o.ending == "" and o.to_dict()["ending"] == "A player resigned"
    assert o.to_dict()["teams"] == []
    assert Outcome((1,), ("win", "loss"), (1, 0), "finished").to_dict()["ending"] == (
        "The game is over")
    assert Outcome((), (), (0, 0), "someday").to_dict()["ending"] == "The game is over"


@pytest.mark.parametrize("reason, words", [
    ("closed", "The host closed this game"),
    ("cancelled", "The host cancelled this game before it started")])
def test_an_abandoned_game_says_the_host_ended_it(reason, words):
    o = abandoned(MARBLES.outcome(finished("4p", [(1, 2)])), reason)
    assert o.ending == words and o.to_dict()["ending"] == words and o.results == ()



def test_the_terminal_replay_names_the_winning_team_and_says_how_it_ended():
    from engine.marbles import new_game
    from replays.cli import render
    from replays.cursor import Cursor, Replay

    game = new_game("4p", ("Rita", "Yuki", "Rolf", "Yara"), options={"rounds": 1})
    game.append(MARBLES.chance(game.state, random.Random(0)))
    for seat in (4, 1, 3):
        game.leave(seat)
    lines = render(Cursor(Replay(game), -1)).splitlines()
    assert lines[-2:] == ["Game over: won by Yellow (Yuki)",
                          "Red forfeited: both red players left in round 1"]
