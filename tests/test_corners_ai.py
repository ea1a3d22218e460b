"""Corners' computer players: every level plays a legal move in every variant, the same one
for the same seed (the timed Expert at a fixed depth), takes a win in one, keeps away from a
move that loses; the Expert's search finds a plain minimax's value; the greedy player of the
match runner; hints.

The Expert thinks a second a move; here it gets a twentieth of one (`quick_expert`): the same
search, cut sooner."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.corners import RULES, deep, setup_state, start_state
from engine.corners.ai import LEVELS, WIN, DeepSearch, choose_move, greedy_move
from engine.corners.moves import judge, legal_pairs, stuck_end
from engine.corners.variants import VARIANTS
from engine.errors import EngineError
from tests.test_corners_moves import board_from
from tests.test_corners_rules import BOTH_CLOSE, play


def legal(state, seat):
    return {m["move"] for m in RULES.legal(state, seat)}


@pytest.fixture
def quick_expert(monkeypatch):
    monkeypatch.setitem(LEVELS, 4, replace(LEVELS[4], seconds=0.05))
    monkeypatch.setattr(deep, "_KEPT", {})


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


@pytest.mark.parametrize("variant", ["classic-3x3", "diagonal-3x3", "halma-16x16"])
def test_the_expert_plays_legal_moves(variant, quick_expert):
    state = start_state(variant, reserve_s=0)
    for _ in range(4):
        seat = state.to_move
        move = choose_move(state, seat, level=4, seed=3)
        assert move in legal(state, seat)
        state = play(state, move)
    assert greedy_move(state, 1, seed=3) in legal(state, 1)


def test_the_expert_at_a_fixed_depth_repeats_for_a_seed():
    state = play(start_state("classic-3x3", reserve_s=0), "c3-d3", "f6-e6")
    lv = LEVELS[4]
    moves = set()
    for _ in range(2):
        search = DeepSearch(state.variant, state.board, state.plies, state.pending, 1e9,
                            replace(lv, keep=False))
        moves.add(search.root(random.Random(5), 3))
    assert len(moves) == 1


def minimax(search: DeepSearch, depth: int, ply: int = 0) -> int:
    """The plain negamax value over the search's own evaluation: every move, no pruning."""
    s = search.plies % 2
    moves = legal_pairs(search.board, s + 1, search.variant)
    if not moves:
        return search.end_value(stuck_end(search.pending)[1], s, ply)
    best = -2 * WIN
    for f, t in moves:
        number, pending = search.plies // 2 + 1, search.pending
        search.make(s, f, t)
        reason, winner, after = judge(search.variant, search.board, s + 1, number, t, pending)
        if reason is not None:
            v = search.end_value(winner, s, ply + 1)
        elif depth == 1:
            v = -search.evaluate()
        else:
            search.pending = after
            v = -minimax(search, depth - 1, ply + 1)
            search.pending = pending
        search.unmake(s, f, t)
        best = max(best, v)
    return best


@pytest.mark.parametrize("variant, moves", [
    ("classic-3x3", ("c3-d3", "f6-e6", "b3-b4", "g6-g5")),
    ("diagonal-3x3", ("c3-d4", "f6-e5")),
])
def test_the_expert_without_pruning_finds_the_minimax_value(variant, moves):
    state = play(start_state(variant, reserve_s=0), *moves)
    full = replace(LEVELS[4], width=0, lmr=0, keep=False)
    search = DeepSearch(state.variant, state.board, state.plies, state.pending, 1e9, full)
    best = minimax(search, 3)
    f, t = search.root(random.Random(1), 3)
    s = search.plies % 2
    search.make(s, f, t)
    assert -minimax(search, 2, 1) == best
    search.unmake(s, f, t)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_but_the_beginner_fills_the_target_when_it_can(level, quick_expert):
    state = setup_state("classic-3x3", BOTH_CLOSE, number=20)
    if level > 1:
        assert choose_move(state, 1, level=level, seed=1) == "e6-f6"
    # black, replying, draws by filling its own target
    reply = play(state, "e6-f6")
    if level > 1:
        assert choose_move(reply, 2, level=level, seed=1) == "d3-c3"
    assert choose_move(reply, 2, level=level, seed=1) in legal(reply, 2)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_no_level_walks_home_after_the_deadline(level, quick_expert):
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
