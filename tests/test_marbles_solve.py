"""Corner's exact solver: a solved position's value and every move's loss equal a brute-force
minimax written here through the rules; it gives up (None) beyond its budget; the expert
plays an optimal move wherever the solver answers."""

from __future__ import annotations

import random

import pytest

from engine.marbles import RULES, start_state
from engine.marbles.ai import LEVELS, SOLVE_FROM, choose_move
from engine.marbles.board import cell_of, random_setup
from engine.marbles.solve import solve, takeable


def played_to(variant: str, seed: int, left: int):
    """Round 1 of a 2-round game dealt from `seed`, played at random to `left` takeable
    marbles (None if the round ends first)."""
    rng = random.Random(seed)
    state = start_state(variant, random_setup(rng))
    while state.playing and takeable(state) > left:
        move = rng.choice(RULES.legal(state, state.to_move))["move"]
        state = RULES.apply(state, RULES.play(state, state.to_move, move))
    return state if state.playing else None


def minimax(state, seat: int) -> int:
    """The round's final score difference (finished rounds included) from `seat`'s side,
    both sides playing perfectly, by trying every move through the rules."""
    if not state.playing:
        red, yellow = state.totals()
        return red - yellow if seat % 2 else yellow - red
    mover = state.to_move
    values = [minimax(RULES.apply(state, RULES.play(state, mover, m["move"])), mover)
              for m in RULES.legal(state, mover)]
    best = max(values)
    return best if (mover - seat) % 2 == 0 else -best


def key(state, move: str) -> tuple[int, int | None]:
    return RULES.resolve(state, state.to_move, move)


@pytest.mark.parametrize("variant, seed",
                         [("2p", 1), ("2p", 12), ("2p", 13), ("4p", 7), ("4p", 12)])
def test_a_solved_positions_value_and_every_moves_loss_are_exact(variant, seed):
    state = played_to(variant, seed, 9)
    assert state is not None
    seat = state.to_move
    solved = solve(state, nodes=0)
    truth = {m["move"]: minimax(RULES.apply(state, RULES.play(state, seat, m["move"])), seat)
             for m in RULES.legal(state, seat)}
    assert solved.value == max(truth.values())
    assert len(solved.moves) == len(truth)
    for move, value in truth.items():
        assert solved.loss(key(state, move)) == max(truth.values()) - value
    assert len(set(truth.values())) > 1  # the position has moves worth different amounts
    # solving the best moves only finds the same optimal moves
    assert sorted(solve(state, nodes=0, every=False).best, key=str) == sorted(solved.best, key=str)


def test_the_solver_gives_up_beyond_its_budget():
    state = played_to("2p", 4, 28)
    assert solve(state, nodes=500) is None
    assert solve(played_to("2p", 4, 12), nodes=500) is not None


def test_the_expert_plays_an_optimal_move_where_the_solver_answers():
    assert (LEVELS[4].solve, LEVELS[4].solve4) == (SOLVE_FROM[2], SOLVE_FROM[4])
    states = [s for s in (played_to("2p", seed, 22) for seed in range(20, 30)) if s][:3]
    assert len(states) == 3
    for seed, state in enumerate(states):
        seat = state.to_move
        solved = solve(state, nodes=0)
        move = choose_move(state, seat, level=4, seed=seed)
        assert key(state, move) in solved.best
        col, row = "abcdef".index(move[0]), int(move[1]) - 1
        assert state.board[cell_of(col, row)] < 6


def test_the_review_of_a_solved_position_gives_the_optimal_move_and_the_exact_loss():
    state = played_to("2p", 13, 9)
    seat = state.to_move
    truth = {m["move"]: minimax(RULES.apply(state, RULES.play(state, seat, m["move"])), seat)
             for m in RULES.legal(state, seat)}
    top = max(truth.values())
    for move, value in truth.items():
        got = RULES.analyse_ply(state, seat, move)
        assert got.exact
        assert truth[got.best] == top
        assert (got.value_before, got.value_after, got.loss) == (top, value, top - value)
        assert got.best == move if value == top else got.best != move
