"""How a game ended, in its review: `end_value` from the first seat's side after every kind
of ending (played out, a resignation, time, an agreed draw, a seat leaving), in each game's
unit, so the review's graph ends at the result."""

from __future__ import annotations

import random

import pytest

from engine.analysis import end_value
from engine.capabilities import Chance, capability
from engine.core import Game
from engine.corners import DrawAccepted, DrawOffered, FlagFell, Resigned
from engine.events import PlayerLeft


def played(game_id: str, variant: str, options: dict, plies: int | None = None,
           seed: int = 3) -> Game:
    """A game by the computer's level 2 after `plies` moves (None: to its end)."""
    game = Game.new(game_id, variant, ("Ann", "Bob"), options)
    rules = game.rules
    rng = random.Random(seed)
    made = 0
    while not rules.is_over(game.state) and (plies is None or made < plies):
        deal = c.chance(game.state, rng) if (c := capability(rules, Chance)) else None
        if deal is not None:
            game.append(type(deal)(**{**deal.__dict__, "seq": game.seq + 1}))
            continue
        seat = rules.to_move(game.state)
        game.play(seat, rules.choose_move(game.state, seat, level=2, seed=made))
        made += 1
    return game


def test_a_game_played_to_its_end_ends_at_its_result():
    game = played("cornerclaim", "duo", {})
    outcome = game.rules.outcome(game.state)
    want = {"win": 1.0, "draw": 0.5, "loss": 0.0}[outcome.results[0]]
    assert end_value(game, "win") == want
    assert end_value(played("cornerclaim", "duo", {}, plies=6), "win") is None  # still played


def test_the_marble_game_ends_at_the_final_score_difference():
    game = played("marbles", "2p", {"rounds": 1})
    outcome = game.rules.outcome(game.state)
    assert end_value(game, "points") == outcome.scores[0] - outcome.scores[1]


@pytest.mark.parametrize("leaver,want", [(1, 0.0), (2, 1.0)])
def test_a_seat_that_leaves_a_two_seat_game_loses_it(leaver, want):
    game = played("cornerclaim", "duo", {}, plies=6)
    game.append(PlayerLeft(seq=game.seq + 1, seat=leaver))
    assert end_value(game, "win") == want


@pytest.mark.parametrize("leaver", [1, 2])
def test_a_resignation_in_the_marble_game_puts_the_winner_ahead_whatever_the_score(leaver):
    game = played("marbles", "2p", {"rounds": 1}, plies=8)
    game.append(PlayerLeft(seq=game.seq + 1, seat=leaver))
    got = end_value(game, "points")
    assert (got <= -1) if leaver == 1 else (got >= 1)
    scores = game.rules.outcome(game.state).scores
    assert abs(got) == max(1, abs(scores[0] - scores[1])) or got * (scores[0] - scores[1]) < 0


CORNERS = ("corners", "classic-3x3", {"reserve_s": 0})


def test_corners_resignation_time_and_an_agreed_draw():
    game = played(*CORNERS, plies=6)
    game.append(Resigned(seq=game.seq + 1, seat=1))
    assert end_value(game, "win") == 0.0
    game = played(*CORNERS, plies=6)
    game.append(DrawOffered(seq=game.seq + 1, seat=1))
    game.append(DrawAccepted(seq=game.seq + 1, seat=2))
    assert end_value(game, "win") == 0.5
    assert end_value(played(*CORNERS), "win") in (0.0, 0.5, 1.0)


def test_corners_time_running_out_loses():
    game = Game.new("corners", "classic-3x3", ("Ann", "Bob"), {"reserve_s": 60,
                                                               "increment_s": 0})
    game.play(1, "c3-d3", now=100.0)
    flag = game.rules.expire(game.state, game.rules.deadline(game.state))
    assert isinstance(flag, FlagFell) and flag.seat == 2
    game.append(flag)
    assert end_value(game, "win") == 1.0
