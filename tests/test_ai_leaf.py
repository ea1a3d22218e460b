"""The compiled node listing (`ai.leaf.leaf_lists`) returns what `mcts.expand_lists`
returns for the same node, element for element: the colour to move, the considered moves
in order and their learned scores, on random positions of every variant, through
placements below the root, the race to the middle (both ways of counting it, with and
without keeping only the moves that gain the most attach points), seats that
left, the opening weights and random weights that switch features off."""

import random

import numpy as np
import pytest

from engine.cornerclaim.ai.features import NU_FEATURES, recent_placements, weights_for
from engine.cornerclaim.ai.flat import FlatSearch
from engine.cornerclaim.ai.leaf import leaf_lists, leaf_lists_from_python, random_path
from engine.cornerclaim.ai.mcts import RACE_PLACEMENTS, expand_lists
from tests.test_ai import VARIANTS, random_game


def _weights(kind: str, pos, rnd: random.Random) -> tuple[float, ...]:
    if kind == "fitted":
        w = weights_for(pos)
        assert w is not None
        return w
    # Random weights, some of them zero (a feature switched off, as fitted weights have).
    return tuple(0.0 if rnd.random() < 0.3 else rnd.uniform(-2, 2) for _ in range(NU_FEATURES))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("share", (0, 0.05, 0.15, 0.35, 0.6))
def test_the_compiled_listing_is_expand_lists(variant, share):
    """`share`: how far into the game the root lies (of every colour's 21 pieces)."""
    rnd = random.Random(f"{variant}{share}")
    colours = random_game(variant, 0, seed=0).state.position.nu_colors
    state = random_game(variant, int(share * 21 * colours), seed=7).state
    assert not state.is_over
    root = state.position
    n = root.nu_colors
    checked = 0
    for trial in range(12):
        dead = frozenset(rnd.sample(range(n), 1)) if trial % 4 == 3 else frozenset()
        kind = "fitted" if trial % 2 == 0 and weights_for(root) is not None else "random"
        w = _weights(kind, root, rnd)
        race = (0, RACE_PLACEMENTS, 3)[trial % 3]
        race_corners = trial % 2 == 1
        search = FlatSearch(root, state.to_move - 1, seed=trial, learned=True,
                            recent=recent_placements(state), race_corners=race_corners,
                            dead=dead)
        args = search._leaf._replace(weights=np.array(w, np.float64), race=race)
        pos = root.copy()
        path = random_path(pos, rnd, 1 + trial % 6, dead)
        if not path:
            continue
        depth = len(path)
        color = np.array([c for c, _ in path], np.int64)
        move = np.array([m for _, m in path], np.int64)
        steps = np.arange(depth, dtype=np.int64)
        got_c, got_moves, got_scores = leaf_lists(depth, steps, steps, color, move, args)
        from_python = leaf_lists_from_python(depth, steps, steps, color, move, args)
        assert (from_python[0], from_python[1].tolist(), from_python[2].tolist()) == (
            got_c, got_moves.tolist(), got_scores.tolist())
        recent = (recent_placements(state) + tuple(path))[-3:]
        want_c, want_moves, want_scores = expand_lists(
            pos, (path[-1][0] + 1) % n, dead=dead, learned=w, race=race, recent=recent,
            race_corners=race_corners)
        assert got_c == want_c
        assert got_moves.tolist() == want_moves.tolist()
        assert got_scores.tolist() == want_scores.tolist()  # the same arithmetic: exact
        checked += want_c >= 0
    assert checked >= 3  # most trials list a colour's moves (late duo games end early)


def test_a_node_where_no_colour_can_move_is_listed_empty():
    """The end of a game: colour −1 and no moves, as `expand_lists` says."""
    game = random_game("duo", 200, seed=3)
    state = game.state
    assert state.is_over
    pos = state.position
    search_pos = random_game("duo", len(state.placements) - 1, seed=3).state
    root = search_pos.position
    c, m = recent_placements(state, 1)[0]
    search = FlatSearch(root, search_pos.to_move - 1, seed=1, learned=True,
                        recent=recent_placements(search_pos))
    one = np.zeros(1, np.int64)
    got_c, got_moves, got_scores = leaf_lists(1, one, one, np.array([c]), np.array([m]),
                                              search._leaf)
    assert expand_lists(pos, (c + 1) % 2, learned=weights_for(root))[0] == -1
    assert (got_c, len(got_moves), len(got_scores)) == (-1, 0, 0)
