"""The review's labels mean something: on games between strong players few moves are flagged
(at most one in ten a mistake or a blunder, hardly any blunder), a second seed gives the same
label, and the moves the host's Hint offered are labelled at worst an inaccuracy.

The games: Pentobi level 7 against itself in Duo (tests/data/pentobi), Corners' Expert
against itself and Corner's Expert against itself (tests/data/review, made by
lab/review/strong_games.py), and a Duo game whose first seat played the Hint each move
(scripts/bench_review.py hint --save). The searches count simulations or positions, never
time, so each review here is the same on any machine. scripts/bench_review.py measures the
same over more games (docs/review.md)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import registry
from engine.analysis import moves_of, review, review_ply
from engine.capabilities import Chance, capability
from engine.core import Game
from replays import read_record

DATA = Path(__file__).parent / "data"
BAD = ("mistake", "blunder")
AT_WORST_INACCURACY = ("book", "best", "good", "inaccuracy")


def load(path: Path) -> Game:
    registry.games()
    return read_record(path.read_bytes())


def reviewed(game: Game, first: int, last: int, seed: int = 0, seats=None):
    rules = game.rules
    out = []
    for i, (seq, step, before) in enumerate(moves_of(game)[first:last], first):
        if seats is None or step.seat in seats:
            out.append(review_ply(rules, rules.analysis_thresholds, i + 1, seq, step.seat,
                                  step.move, before, seed=seed))
    return out


def test_corner_claim_flags_few_moves_of_pentobi_s_game_and_a_second_seed_agrees():
    game = load(DATA / "pentobi" / "duo_L7_g1.blksgf")
    a = reviewed(game, 8, 16, seed=0)
    b = reviewed(game, 8, 16, seed=1)
    assert len(a) == 8
    assert sum(p.label in BAD for p in a) <= 1
    assert not any(p.label == "blunder" for p in a)
    assert sum(x.label == y.label for x, y in zip(a, b, strict=True)) >= 7


@pytest.mark.parametrize("name", ["corners-expert", "marbles-expert"])
def test_a_game_between_experts_has_few_mistakes_and_its_review_is_the_same_again(name):
    game = load(DATA / "review" / f"{name}.json")
    last = 40 if name.startswith("corners") else None
    plies = reviewed(game, 0, last)
    assert sum(p.label in BAD for p in plies) <= len(plies) // 10
    assert sum(p.label == "blunder" for p in plies) <= len(plies) * 3 // 100
    assert reviewed(game, 0, 6, seed=1) == plies[:6]  # no random draws: a seed changes nothing


def test_corner_claim_s_hint_is_labelled_at_worst_an_inaccuracy():
    game = load(DATA / "review" / "cornerclaim-duo-hint.json")  # the first seat played the Hint
    plies = reviewed(game, 0, 12, seats=(1,))
    assert len(plies) == 6
    assert sum(p.label in AT_WORST_INACCURACY for p in plies) >= 0.9 * len(plies)


@pytest.mark.parametrize("game_id,variant,options", [
    ("corners", "classic-3x3", {"reserve_s": 0}),
    ("marbles", "2p", {"rounds": 1}),
])
def test_the_hint_is_labelled_at_worst_an_inaccuracy(game_id, variant, options):
    """The first seat plays the host's Hint every move, the second the computer's level 2."""
    game = Game.new(game_id, variant, ("Hint", "Computer"), options)
    rules = game.rules
    rng = random.Random(5)
    hinted = set()
    while not rules.is_over(game.state) and len(hinted) < 12:
        deal = c.chance(game.state, rng) if (c := capability(rules, Chance)) else None
        if deal is not None:
            game.append(type(deal)(**{**deal.__dict__, "seq": game.seq + 1}))
            continue
        seat = rules.to_move(game.state)
        if seat == 1:
            game.play(seat, rules.hint(game.state, seat))
            hinted.add(game.seq)
        else:
            game.play(seat, rules.choose_move(game.state, seat, level=2, seed=game.seq))
    plies = [p for p in review(game, rules, rules.analysis_thresholds) if p.seq in hinted]
    assert len(plies) == len(hinted) >= 8
    assert sum(p.label in AT_WORST_INACCURACY for p in plies) >= 0.9 * len(plies)


def test_a_corners_lead_counts_for_more_the_shorter_the_race_left():
    from engine.corners.analysis import remaining, win_chance
    from engine.corners.rules import start_state

    start = remaining(start_state("classic-3x3"))
    assert start > 50
    assert 0.5 < win_chance(3, start) < win_chance(3, 10) < win_chance(3, 0) < 1.0
    assert win_chance(-3, 10) == pytest.approx(1 - win_chance(3, 10))
    assert win_chance(100_000, start) == 1.0 and win_chance(-100_000, 0) == 0.0
