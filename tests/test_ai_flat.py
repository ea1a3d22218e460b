"""The compiled search tree (`ai.flat`): reproducible for a seed, a reused subtree copied
exactly, seats that left never moving, Duo's mirror cap, the time limit. Small budgets:
behaviour, never strength or speed. (That it grows the very tree of a plain Python search
with the same options is `lab/tests/test_pysearch.py`.)"""

import numpy as np

from engine.cornerclaim.ai import LEVELS, search_move
from engine.cornerclaim.ai.features import recent_placements
from engine.cornerclaim.ai.flat import FlatNode, FlatSearch, Tree
from tests.test_ai import random_game


def _search(state, level: int, seed: int, **extra) -> FlatSearch:
    color = state.to_move - 1
    options = dict(LEVELS[level].search_options(state.position, color), **extra)
    return FlatSearch(state.position, color, seed=seed, recent=recent_placements(state),
                      **options)


def _same_subtree(a: Tree, v: int, b: Tree, u: int) -> int:
    """Assert node `v` of `a` and node `u` of `b` hold the same subtree; returns how many
    nodes were compared."""
    assert a.color[v] == b.color[u] and a.visits[v] == b.visits[u]
    sa, sb = a.children(v), b.children(u)
    for name in ("move", "n", "w", "rn", "rw", "q", "cap"):
        assert (getattr(a, name)[sa] == getattr(b, name)[sb]).all(), name
    count = 1
    for ka, kb in zip(a.kid[sa].tolist(), b.kid[sb].tolist(), strict=True):
        assert (ka < 0) == (kb < 0)
        if ka >= 0:
            count += _same_subtree(a, ka, b, kb)
    return count


def test_a_search_repeats_for_a_seed():
    """The levels' moves are legal and repeat for a seed."""
    state = random_game("classic", 16, seed=8).state
    seat = state.to_move
    moves = {search_move(state, seat, level=6, seed=5, playouts=150, seconds=60, reuse=False,
                         book=False) for _ in range(2)}
    assert len(moves) == 1
    assert state.position.is_legal(seat - 1, moves.pop())


def test_a_reused_subtree_is_a_compact_copy_of_the_kept_node():
    """The node two placements down the most visited line becomes node 0 of a compact
    copy (`Tree.subtree`) holding exactly its subtree, which a new search grows on."""
    state = random_game("classic", 20, seed=6).state
    flat = _search(state, 6, seed=2, uct_c=0.25)
    flat.run(400)
    tree, v, handle = flat.tree, 0, flat.root
    for _ in range(2):
        span = tree.children(v)
        i = int(np.argmax(tree.n[span]))
        move, color = int(tree.move[span][i]), int(tree.color[v])
        v = int(tree.kid[span][i])
        handle = handle.child(color, move)
        assert v >= 0 and isinstance(handle, FlatNode) and handle.index == v
    copy = tree.subtree(v)
    assert copy.nodes == _same_subtree(tree, v, copy, 0) > 1


def test_seats_that_left_never_move_in_the_tree():
    state = random_game("classic", 12, seed=3).state
    color = state.to_move - 1
    flat = _search(state, 5, seed=7, dead=frozenset({(color + 1) % 4}))
    flat.run(200)
    assert not (flat.tree.color[:flat.tree.nodes] == (color + 1) % 4).any()


def test_duo_mirror_moves_are_capped():
    """On a point-symmetric Duo board with the first colour to move, the moves the mirror
    can copy are capped at a draw."""
    from engine.cornerclaim.ai.tables import move_facts

    game = random_game("duo", 0, seed=1)
    mirror = move_facts(14).mirror
    first = game.state.legal_moves(1)[7]
    game.play(1, game.state.move_str(first))
    game.play(2, game.state.move_str(mirror[first]))
    flat = _search(game.state, 6, seed=4)
    span = flat.tree.children(0)
    capped = flat.tree.cap[span]
    assert capped.any() and not capped.all()
    flat.run(200)
    assert flat.best_move() in flat.tree.move[span].tolist()


def test_a_time_bound_flat_search_stops_on_time():
    state = random_game("classic", 8, seed=2).state
    flat = _search(state, 6, seed=1)
    flat.run(50)  # warm (compiled on first use)
    flat.run(10**9, 0.3)
    assert flat.simulations > 50
    moves, visits = flat.root_stats()
    assert sum(visits) > 0 and flat.best_move() in moves
