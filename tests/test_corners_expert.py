"""Corners' Expert (level 4): the race at the end decided by the solo solver, its budget."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.corners import race
from engine.corners.ai import LEVELS, WIN, DeepSearch, choose_pair
from engine.corners.rules import setup_state
from engine.corners.solo import ida_star
from engine.corners.variants import VARIANTS

CLASSIC = VARIANTS["classic-3x3"]


def board_of(white: str, black: str) -> list[int]:
    names = {CLASSIC.board.name(q): q for q in range(CLASSIC.squares)}
    board = [0] * CLASSIC.squares
    for seat, squares in ((1, white), (2, black)):
        for name in squares.split():
            board[names[name]] = seat
    return board


#: White is one piece short (h2, six moves from g8), black one piece (b4, four moves): the
#: distances say white (to move) is ahead by its tempo, the race says black fills first.
WHITE = "h2 f6 g6 h6 f7 g7 h7 f8 h8"
BLACK = "a1 b1 c1 d1 c2 a3 b3 c3 b4"


def test_the_sides_are_apart_only_when_every_white_piece_is_past_every_black_one():
    assert race.apart(CLASSIC, board_of(WHITE, BLACK))
    assert not race.apart(CLASSIC, board_of(WHITE.replace("h2", "e1"), BLACK))  # sum 4 = b4's
    at_home = board_of("a1 f6 g6 h6 f7 g7 h7 f8 h8", "b1 c1 d1 c2 a3 b3 c3 b4 a2")
    assert not race.apart(CLASSIC, at_home)  # white's a1 is still at home


@pytest.mark.parametrize(("white", "black", "white_to_move", "winner"), [
    (3, 4, True, 1), (3, 3, True, 0), (4, 3, True, 2),
    (3, 5, False, 1), (3, 4, False, 0), (3, 3, False, 2), (4, 3, False, 2),
])
def test_who_wins_a_race_with_black_s_reply(white, black, white_to_move, winner):
    assert race.winner(white, black, white_to_move) == winner


def test_each_side_s_race_is_measured_exactly_in_white_s_frame():
    board = board_of(WHITE, BLACK)
    lo, hi, line = race.solo_range(CLASSIC, race.frame(CLASSIC, board, 1), 8, 5_000)
    assert lo == hi == len(line) == len(ida_star(CLASSIC, race.frame(CLASSIC, board, 1)))
    assert lo == 6
    lo, hi, _ = race.solo_range(CLASSIC, race.frame(CLASSIC, board, 2), 8, 5_000)
    assert lo == hi == 4


def test_a_race_the_distances_misjudge_is_scored_exactly():
    board = board_of(WHITE, BLACK)
    plies = 60  # white's move 31
    expert = LEVELS[4]
    plain = DeepSearch(CLASSIC, board, plies, False, 1e18, replace(expert, race=False))
    assert plain.evaluate() > 0  # white to move looks ahead by the distances
    race.solo_range(CLASSIC, race.frame(CLASSIC, board, 1), 8, 5_000)  # exact in the table
    race.solo_range(CLASSIC, race.frame(CLASSIC, board, 2), 8, 5_000)
    search = DeepSearch(CLASSIC, board, plies, False, 1e18, replace(expert, keep=False))
    value = search.negamax(3, -2 * WIN, 2 * WIN, 0)
    assert value <= -WIN // 2  # black fills first: a loss for white, found at once
    assert search.nodes == 1
    assert -plain.negamax(2, -2 * WIN, 2 * WIN, 0) < WIN // 2  # two plies do not see it


def test_the_expert_plays_the_solo_line_once_the_sides_are_apart():
    board = board_of(WHITE, BLACK)
    state = setup_state(CLASSIC.name, board, to_move=2, number=31)
    pair = choose_pair(state, 2, level=4, seed=1)
    last = CLASSIC.squares - 1
    line = race.solo_range(CLASSIC, race.frame(CLASSIC, board, 2), 8, 5_000)[2]
    assert pair == (last - line[0][0], last - line[0][1])


@pytest.mark.parametrize(("seconds", "budget"), [(None, 1.0), (0.4, 0.4), (5.0, 1.0)])
def test_the_expert_s_budget_is_its_second_or_the_hint_s_less(monkeypatch, seconds, budget):
    from engine.corners import ai
    from engine.corners.rules import start_state

    clock = iter(range(1_000_000))
    monkeypatch.setattr(ai.time, "thread_time", lambda: float(next(clock)) * 1e-6)
    seen = []
    real = ai.DeepSearch

    def spy(variant, board, plies, pending, stop_at, lv):
        seen.append(stop_at - ai.time.thread_time())
        # the fake clock moves a microsecond a reading: search no further than the budget's check
        return real(variant, board, plies, pending, 0.0, lv)

    monkeypatch.setattr(ai, "DeepSearch", spy)
    choose_pair(start_state(CLASSIC.name, reserve_s=0), 1, level=4, seed=1, seconds=seconds)
    assert seen and budget - 1e-3 < seen[0] <= budget
    assert all(lv.seconds <= ai.TIME_CAP <= 1.8 for lv in LEVELS.values())


def test_the_race_solver_s_time_counts_against_the_search(monkeypatch):
    from engine.corners import ai

    board = board_of(WHITE, BLACK)
    search = DeepSearch(CLASSIC, board, 60, False, 10.0, replace(LEVELS[4], keep=False))
    monkeypatch.setattr(ai.time, "thread_time", lambda: 11.0)  # past the budget
    with pytest.raises(ai.Stop):
        search.negamax(3, -2 * WIN, 2 * WIN, 0)


def test_the_root_race_on_halma_gets_the_leaves_budget():
    assert race.root_budget(VARIANTS["halma-16x16"]) == (race.LEAF_WIDTH, race.LEAF_NODES)
    assert race.root_budget(CLASSIC) == (race.ROOT_WIDTH, race.ROOT_NODES)
