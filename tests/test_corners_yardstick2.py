"""The second Corners yardstick (`scripts/corners_yardstick2.py`): legal moves through a short
game in two variants, an exact matching, a budget kept (counted on a clock of its own, never
timed), a win in one taken."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.corners import RULES, start_state
from engine.corners.moves import legal_pairs
from engine.corners.variants import VARIANTS
from scripts.corners_matching import _match_hungarian, match_cost
from scripts.corners_yardstick2 import HARD_CAP, Yardstick2, yardstick2_move


def brute_force(rows):
    if not rows:
        return 0
    return min(sum(row[j] for row, j in zip(rows, cols, strict=True))
               for cols in itertools.permutations(range(len(rows[0])), len(rows)))


def board_of(white, black, size=8):
    board = [0] * (size * size)
    g = VARIANTS["classic-3x3"].board if size == 8 else VARIANTS["halma-16x16"].board
    for name in white:
        board[g.parse_square(name)] = 1
    for name in black:
        board[g.parse_square(name)] = 2
    return board


@pytest.mark.parametrize("variant", ["classic-3x3", "diagonal-3x3"])
def test_plays_legal_moves_through_a_short_game(variant):
    state = start_state(variant, reserve_s=0)
    for _ in range(12):
        seat = state.to_move
        move = yardstick2_move(state, seat, seconds=0.02, seed=3)
        path = state.variant.board.parse_path(move)
        assert (path[0], path[-1]) in legal_pairs(list(state.board), seat, state.variant)
        state = RULES.apply(state, RULES.play(state, seat, move))
        if state.over:
            break
    assert state.plies >= 12 or state.over


def test_the_matching_is_exact_on_a_hand_made_position():
    # white: two pieces in its target (f6, h8), the rest beside it, behind it, far off
    white = ["f6", "h8", "h5", "e7", "d8", "a1", "c2", "g3", "e4"]
    black = ["g7", "b2", "a3"]
    v = VARIANTS["classic-3x3"]
    search = Yardstick2(v, board_of(white, black), 0, False, 1.0)
    rows = search.open_rows(0)
    assert len(rows) == 7 and len(rows[0]) == 7
    assert search.matching(0) == brute_force(rows)
    # eight directions: king-move distances
    d = VARIANTS["diagonal-3x3"]
    search = Yardstick2(d, board_of(white, black), 0, False, 1.0)
    assert search.matching(0) == brute_force(search.open_rows(0))


def test_both_matchings_agree_with_brute_force():
    rng = random.Random(7)
    for _ in range(20):
        n = rng.randint(1, 6)
        rows = [[rng.randrange(12) for _ in range(n)] for _ in range(rng.randint(1, n))]
        assert match_cost(rows) == brute_force(rows) == _match_hungarian(rows)


class CountingClock:
    """A clock that moves on by `tick` seconds each time it is read."""

    def __init__(self, tick: float) -> None:
        self.tick, self.now, self.reads = tick, 0.0, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.tick
        return self.now


@pytest.mark.parametrize("seconds, limit", [(0.3, 0.3), (50.0, HARD_CAP)])
def test_the_budget_is_kept(seconds, limit):
    clock = CountingClock(0.01)
    v = VARIANTS["classic-3x3"]
    search = Yardstick2(v, v.start_board(), 0, False, seconds, clock=clock)
    assert search.best() in legal_pairs(list(v.start_board()), 1, v)
    # the clock is read every 64 positions and once a completed depth: it stops at the
    # first read past the budget (or the hard cap)
    assert search.log[-1].startswith(f"depth {search.depth_reached + 1} cut")
    start = 0.01
    assert start + limit < clock.now <= start + limit + 0.025
    assert search.nodes <= 64 * clock.reads


def test_a_win_in_one_is_found():
    # white fills its target with d6-f6 over e6; black cannot fill its own in reply
    white = ["d6", "g6", "h6", "f7", "g7", "h7", "f8", "g8", "h8"]
    black = ["e6", "c4", "d4", "e4", "c5", "d3", "e3", "b4", "e2"]
    v = VARIANTS["classic-3x3"]
    search = Yardstick2(v, board_of(white, black), 40, False, 0.2)
    assert search.best() == (v.board.parse_square("d6"), v.board.parse_square("f6"))
    assert search.log[-1].startswith("depth 2: 99")  # a win, found at the second ply
