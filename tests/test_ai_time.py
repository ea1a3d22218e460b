"""Level 6's own budget is a mean over the game, spent more in the opening
(`Level.move_seconds`), and `search_move` hands the search that move's share."""

from __future__ import annotations

import dataclasses

import pytest

from engine.cornerclaim import ai, new_game
from engine.cornerclaim.levels import LEVELS, MIN_SHARE, TAPER_FROM, USUAL_MOVES


@pytest.mark.parametrize("size", sorted(USUAL_MOVES))
def test_the_shares_average_the_level_s_seconds_over_a_usual_game(size):
    level = LEVELS[6]
    usual = USUAL_MOVES[size]
    times = [level.move_seconds(placed, size) for placed in range(usual + 4)]
    assert sum(times[:usual]) / usual == pytest.approx(level.seconds)
    # the first moves get the most, the same each; then every move less than the last
    assert times[0] == times[TAPER_FROM] > times[TAPER_FROM + 1]
    tapering = [t for t in times[TAPER_FROM:] if t > MIN_SHARE * level.seconds]
    assert tapering == sorted(tapering, reverse=True) and len(set(tapering)) == len(tapering)
    assert times[TAPER_FROM + 1] == pytest.approx(level.taper * times[TAPER_FROM])
    # a move past the usual game still searches
    assert min(times) == pytest.approx(MIN_SHARE * level.seconds)
    assert level.move_seconds(40, size) >= MIN_SHARE * level.seconds


def test_without_a_taper_every_move_gets_the_seconds():
    flat = dataclasses.replace(LEVELS[6], taper=0.0)
    assert {flat.move_seconds(placed, 14) for placed in range(20)} == {flat.seconds}


def test_the_search_gets_the_move_s_share_unless_the_caller_gives_seconds(monkeypatch):
    """The level's own budget follows the pieces the mover has placed; a caller's `seconds`
    (a clock, GTP, a match at equal time) is taken as it is."""
    given = []

    def run(self, budget, seconds):
        given.append(seconds)

    monkeypatch.setattr(ai.FlatSearch, "run", run)
    state = new_game("duo").state
    level = dataclasses.replace(LEVELS[6], seconds=2.0)
    ai.search_move(state, 1, level=6, seed=1, book=False, reuse=False)  # compiles the root
    given.clear()
    ai.search_move(state, 1, level=6, seed=1, book=False, reuse=False, spec=level)
    ai.search_move(state, 1, level=6, seed=1, book=False, reuse=False, spec=level,
                   seconds=0.5)
    assert given[0] == pytest.approx(level.move_seconds(0, 14), abs=0.05)
    assert given[0] > level.seconds and given[1] <= 0.5
