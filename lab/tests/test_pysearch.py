"""The engine's compiled search tree (`ai.flat`) grows exactly the tree the lab's Python
search (`lab.pysearch.Search`) grows with the same options and seed: every node, child
count, value and RAVE statistic, through expansions, Duo's mirror cap, seats that left,
and a reused subtree. Small budgets: behaviour, never strength or speed."""

import numpy as np
import pytest

from engine.cornerclaim.ai import LEVELS
from engine.cornerclaim.ai.features import recent_placements
from engine.cornerclaim.ai.flat import FlatNode, FlatSearch, Tree
from engine.cornerclaim.ai.mcts import UCT_C
from lab.pysearch import Search
from tests.test_ai import random_game


def _same_tree(node, tree: Tree, v: int) -> int:
    """Assert `mcts.Node` `node` and the flat tree's node `v` hold the same subtree;
    returns how many nodes were compared."""
    assert node.color == tree.color[v]
    span = tree.children(v)
    assert node.moves == tree.move[span].tolist()
    assert node.n == tree.n[span].tolist()
    assert node.w == pytest.approx(tree.w[span].tolist(), abs=0, rel=0)
    assert node.rn == tree.rn[span].tolist()
    assert node.rw == tree.rw[span].tolist()
    assert node.q == tree.q[span].tolist()
    assert node.visits == tree.visits[v]
    assert sorted(node.capped) == np.flatnonzero(tree.cap[span]).tolist()
    count = 1
    for kid, fk in zip(node.kids, tree.kid[span].tolist(), strict=True):
        assert (kid is None) == (fk < 0)
        if kid is not None:
            count += _same_tree(kid, tree, fk)
    return count


def _options(state, level: int) -> dict:
    return LEVELS[level].search_options(state.position, state.to_move - 1)


def _pair(state, options: dict, seed: int, **extra):
    color = state.to_move - 1
    args = dict(options, seed=seed, recent=recent_placements(state), **extra)
    return Search(state.position, color, **args), FlatSearch(state.position, color, **args)


@pytest.mark.parametrize("variant,plies", (("duo", 0), ("duo", 10), ("trio", 12),
                                          ("classic", 0), ("classic", 16),
                                          ("classic", 40)))
@pytest.mark.parametrize("level", (4, 6))
def test_the_flat_tree_is_the_search_tree(variant, plies, level):
    """Level 4's options (sampled playouts, plain rewards) and level 6's (local-first
    playouts, learned priors, replies, the relative and length bonuses, a rising expansion
    threshold): the same tree, the same replies, the same move."""
    state = random_game(variant, plies, seed=5).state
    options = _options(state, level)
    ref, flat = _pair(state, options, seed=11)
    ref.run(300)
    flat.run(300)
    assert flat.simulations == ref.simulations == 300
    assert _same_tree(ref.root, flat.tree, 0) > 20  # the tree grew below the root
    assert flat.best_move() == ref.best_move()
    assert flat.value() == pytest.approx(ref.value())
    assert flat.lead() == ref.lead()
    if level == 6:
        assert (flat.replies.to_last == ref.replies.to_last).all()
        assert (flat.replies.to_pair == ref.replies.to_pair).all()
        assert (ref.replies.to_last >= 0).sum() > 0


def test_a_reused_subtree_grows_on_as_the_kept_node_does():
    """Two placements later the flat search starts from a compact copy of its subtree
    (`Tree.subtree`), the reference search from the kept node itself; both go on alike,
    with the replies they carried over."""
    game = random_game("classic", 20, seed=6)
    state = game.state
    # Level 6 with duo's narrower exploration, so 400 simulations grow a deep line to keep
    # (its 20×20 constant spreads them wider: the other tests here search with it).
    options = dict(_options(state, 6), uct_c=UCT_C)
    ref, flat = _pair(state, options, seed=2)
    ref.run(400)
    flat.run(400)
    node, handle = ref.root, flat.root
    later = random_game("classic", 20, seed=6)
    for _ in range(2):  # the most visited line: a subtree that exists in both trees
        color = node.color
        assert later.state.to_move == color + 1
        i = max(range(len(node.moves)), key=lambda j: (node.n[j], -j))
        move = node.moves[i]
        node, handle = node.child(color, move), handle.child(color, move)
        later.play(color + 1, later.state.move_str(move))
    assert node is not None and isinstance(handle, FlatNode)
    assert _same_tree(node, handle.tree, handle.index) > 1
    after = later.state
    args = dict(options, seed=9, recent=recent_placements(after))
    ref2 = Search(after.position, after.to_move - 1, root=node, replies=ref.replies, **args)
    flat2 = FlatSearch(after.position, after.to_move - 1, root=handle, replies=flat.replies,
                       **args)
    assert flat2.tree.nodes == _same_tree(ref2.root, flat2.tree, 0)  # compact: nothing else
    ref2.run(200)
    flat2.run(200)
    _same_tree(ref2.root, flat2.tree, 0)
    assert flat2.best_move() == ref2.best_move()


def test_duo_mirror_moves_are_capped_alike():
    """On a point-symmetric Duo board with the first colour to move, the moves the mirror
    can copy are capped at a draw in both trees."""
    from engine.cornerclaim.ai.tables import move_facts

    game = random_game("duo", 0, seed=1)
    mirror = move_facts(14).mirror
    first = game.state.legal_moves(1)[7]
    game.play(1, game.state.move_str(first))
    game.play(2, game.state.move_str(mirror[first]))
    state = game.state
    assert state.to_move == 1
    ref, flat = _pair(state, _options(state, 6), seed=4)
    assert ref.root.capped and flat.tree.cap[flat.tree.children(0)].any()
    ref.run(200)
    flat.run(200)
    _same_tree(ref.root, flat.tree, 0)
    assert flat.best_move() == ref.best_move()


def test_seats_that_left_never_move_in_the_flat_tree():
    state = random_game("classic", 12, seed=3).state
    color = state.to_move - 1
    dead = frozenset({(color + 1) % 4})
    ref, flat = _pair(state, _options(state, 5), seed=7, dead=dead)
    ref.run(200)
    flat.run(200)
    _same_tree(ref.root, flat.tree, 0)
    assert not (flat.tree.color[:flat.tree.nodes] == (color + 1) % 4).any()
