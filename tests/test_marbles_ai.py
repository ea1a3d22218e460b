"""Corner's computer players: every level plays a legal move in both variants, replays the same
move for the same seed, keeps within its time, and the expert plays the end of a round
perfectly (checked against a slow exhaustive search through the rules)."""

from __future__ import annotations

import random
import time

import pytest

from engine import errors as E
from engine.marbles import RULES, start_state
from engine.marbles.ai import LEVELS, WIN, choose_move, greedy_move
from engine.marbles.board import BLACK, colour_score, random_setup


def advance(state, plies: int, seed: int):
    rng = random.Random(seed)
    for _ in range(plies):
        if not state.playing:
            break
        moves = RULES.legal(state, state.to_move)
        state = RULES.apply(state, RULES.play(state, state.to_move, rng.choice(moves)["move"]))
    return state


@pytest.mark.parametrize("variant", ["2p", "4p"])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_a_legal_move(variant, level):
    for plies in (0, 1, 3, 9):
        state = advance(start_state(variant, random_setup(random.Random(plies))), plies, 1)
        if not state.playing:
            continue
        seat = state.to_move
        move = choose_move(state, seat, level=level, seed=4)
        assert move in {m["move"] for m in RULES.legal(state, seat)}
        assert choose_move(state, seat, level=level, seed=4) == move
        other = seat % state.seats + 1
        assert choose_move(state, other, level=level, seed=4) is None


def test_an_unknown_level_is_refused():
    with pytest.raises(E.EngineError, match="no level 9"):
        choose_move(start_state(), 1, level=9, seed=0)
    assert RULES.hint(start_state(), 1) in list("abcdef")


@pytest.mark.parametrize("variant", ["2p", "4p"])
def test_the_expert_keeps_within_a_second_of_cpu_time(variant):
    state = advance(start_state(variant, random_setup(random.Random(11))), 3, 2)
    t = time.process_time()
    choose_move(state, state.to_move, level=4, seed=0)
    assert time.process_time() - t <= 1.0


def test_greedy_takes_the_marble_that_scores_most_for_itself():
    state = advance(start_state("2p", random_setup(random.Random(3))), 6, 5)
    seat = state.to_move
    side = (seat - 1) % 2
    mine, theirs = state.counts[side], state.counts[1 - side]

    def gain(text):
        col, row = "abcdef".index(text[0]), int(text[1]) - 1
        c = state.board[row * 6 + col]
        return colour_score(mine[c] + 1, theirs[c]) - colour_score(mine[c], theirs[c])

    best = max(gain(m["move"]) for m in RULES.legal(state, seat))
    for seed in range(5):
        assert gain(greedy_move(state, seat, seed=seed)) == best


def exact(state) -> int:
    """The value of a game's last round for red by trying every move through the rules: the
    final difference, and a won game above any margin."""
    if not state.playing:
        red, yellow = state.totals()
        d = red - yellow
        return d + (WIN if d > 0 else -WIN if d < 0 else 0)
    seat = state.to_move
    values = [exact(RULES.apply(state, RULES.play(state, seat, m["move"])))
              for m in RULES.legal(state, seat)]
    return max(values) if seat % 2 == 1 else min(values)


def round_end(variant: str, seed: int, left: int):
    """A last round played at random until `left` marbles that can be taken remain (the
    first of a few deals where the round lasts that long)."""
    for attempt in range(50):
        rng = random.Random(seed * 1000 + attempt)
        state = start_state(variant, random_setup(rng), rounds=1)
        while state.playing and sum(1 for c in state.board if c < BLACK) > left:
            moves = RULES.legal(state, state.to_move)
            state = RULES.apply(state, RULES.play(state, state.to_move,
                                                  rng.choice(moves)["move"]))
        if state.playing:
            return state
    raise AssertionError("no round lasted long enough")


@pytest.mark.parametrize("variant", ["2p", "4p"])
@pytest.mark.parametrize("seed", range(3))
def test_the_expert_plays_a_rounds_end_perfectly(variant, seed):
    state = round_end(variant, seed, 9 if variant == "2p" else 8)
    seat = state.to_move
    best = exact(state)
    move = choose_move(state, seat, level=4, seed=seed)
    got = exact(RULES.apply(state, RULES.play(state, seat, move)))
    assert got == best
