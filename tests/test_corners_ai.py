"""Corners' computer players: every level plays a legal move in every variant, the same one
for the same seed, takes a win in one, keeps away from a move that loses; the greedy player
of the match runner; hints."""

from __future__ import annotations

import pytest

from engine.corners import RULES, setup_state, start_state
from engine.corners.ai import LEVELS, choose_move, greedy_move
from engine.corners.variants import VARIANTS
from engine.errors import EngineError
from tests.test_corners_moves import board_from
from tests.test_corners_rules import BOTH_CLOSE, play


def legal(state, seat):
    return {m["move"] for m in RULES.legal(state, seat)}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("level", [1, 2, 3])
def test_each_level_plays_legal_moves_in_every_variant(variant, level):
    state = start_state(variant, reserve_s=0)
    for _ in range(6):
        seat = state.to_move
        move = choose_move(state, seat, level=level, seed=7)
        assert move in legal(state, seat)
        assert move == choose_move(state, seat, level=level, seed=7)
        state = play(state, move)
    assert choose_move(state, 3 - state.to_move, level=level, seed=0) is None


@pytest.mark.parametrize("variant", ["classic-3x3", "diagonal-3x3"])
def test_the_expert_plays_legal_moves_and_repeats_for_a_seed(variant):
    state = play(start_state(variant, reserve_s=0), "c3-d3", "f6-e6")
    move = choose_move(state, 1, level=4, seed=3)
    assert move in legal(state, 1)
    if variant == "classic-3x3":  # well within the time cap: the same move for the seed
        assert move == choose_move(state, 1, level=4, seed=3)
    assert greedy_move(state, 1, seed=3) in legal(state, 1)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_but_the_beginner_fills_the_target_when_it_can(level):
    state = setup_state("classic-3x3", BOTH_CLOSE, number=20)
    if level > 1:
        assert choose_move(state, 1, level=level, seed=1) == "e6-f6"
    # black, replying, draws by filling its own target
    reply = play(state, "e6-f6")
    if level > 1:
        assert choose_move(reply, 2, level=level, seed=1) == "d3-c3"
    assert choose_move(reply, 2, level=level, seed=1) in legal(reply, 2)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_no_level_walks_home_after_the_deadline(level):
    board = board_from([
        "........", "....B...", "........", "........",
        ".W......", "...W....", "...W....", "...W..B."])
    state = setup_state("classic-3x3", board, number=41)
    losing = {m["move"] for m in RULES.legal(state, 1) if m.get("loses")}
    assert losing
    for seed in range(5):
        assert choose_move(state, 1, level=level, seed=seed) not in losing
    assert greedy_move(state, 1, seed=0) not in losing


def test_hint_and_the_seam():
    state = start_state("classic-3x3")
    assert RULES.hint(state, 1) in legal(state, 1)
    assert RULES.hint(state, 2) is None
    assert RULES.choose_move(state, 1, level=2, seed=0) in legal(state, 1)
    with pytest.raises(EngineError):
        RULES.choose_move(state, 1, level=9, seed=0)
    assert [lv.number for lv in RULES.levels.values()] == [1, 2, 3, 4]
