"""The lab's Python search (`lab.pysearch.Search`): its rewards, priors and the
tree-policy experiments no level ships (merged, distance-weighted RAVE, a per-colour race,
other exploration and widening constants, the relative and length rewards as Python
computes them). Small budgets: behaviour, never strength. Run with
`.venv/bin/python -m pytest lab/tests`."""

import random

import pytest

from engine.cornerclaim import new_game
from engine.cornerclaim.ai import LEVELS
from lab.pysearch import Search, rewards
from tests.test_ai import random_game


def test_reward_ranks_every_colour():
    r = rewards([-10, -3, -3, -20])
    assert r[1] == r[2] > r[0] > r[3]
    two = rewards([-5, -9])
    assert two[0] > 0.9 and two[1] < 0.1


def test_seats_that_left_never_move_in_the_search():
    """Four seats, seat 2 left: no node of the tree is seat 2's to move, and the move
    chosen is legal."""
    from lab.pysearch import Search

    state = random_game("classic", 8, seed=7).state
    seat = state.to_move
    dead = frozenset({(seat % 4)})  # the next colour (0-based) left
    search = Search(state.position, seat - 1, seed=1, dead=dead)
    search.run(60)
    stack = [search.root]
    while stack:
        node = stack.pop()
        assert node.color not in dead
        stack.extend(k for k in node.kids if k is not None)
    assert search.best_move() in state.legal_moves(seat)


def test_priors_start_the_best_scored_child_highest():
    from lab.pysearch import Search

    state = random_game("duo", 6, seed=2).state
    root = Search(state.position, state.to_move - 1, seed=1).root
    values = [w / n for w, n in zip(root.w, root.n, strict=True)]
    assert values[0] == max(values) and min(root.n) == max(root.n) > 0
    plain = Search(state.position, state.to_move - 1, seed=1, prior_n=0).root
    assert plain.n == [0] * len(plain.moves)


def test_the_race_is_counted_on_the_average_or_per_colour():
    """On the average (the default) seat 1 races its fourth move and seats 2–4 do not; per
    colour (`race_each`) every seat races exactly `race` moves; never on the duo board."""
    from lab.pysearch import Search, considered_moves, racing

    game = random_game("classic", 12, seed=5)  # three placements each, seat 1 to move
    state = game.state
    assert state.to_move == 1 and list(state.position.nu_played) == [3, 3, 3, 3]
    pos = state.position
    assert racing(pos, 0, 3) and not racing(pos, 0, 3, each=True)
    assert racing(pos, 0, 4, each=True) and not racing(pos, 0, 0, each=True)
    kept, _ = considered_moves(pos, 0, race=4, race_each=True)
    every, _ = considered_moves(pos, 0)
    assert 0 < len(kept) < len(every)
    for race, want in ((4, kept), (3, every)):
        assert set(Search(pos, 0, seed=1, race=race, race_each=True).root.moves) == set(want)
    game.play(1, state.move_str(kept[0]))
    pos = game.state.position  # seat 2's fourth move: 13 placements
    assert not racing(pos, 1, 3) and racing(pos, 1, 4, each=True)
    assert not racing(random_game("duo", 0, seed=1).state.position, 0, 4, each=True)


def test_the_big_boards_can_have_their_own_exploration_constant():
    """`uct_big` sets the UCT constant on the 20×20 boards only; an explicit `uct_c` wins on
    every board."""
    from lab.pysearch import UCT_C, Search, exploration

    big = random_game("classic", 8, seed=2).state.position
    duo = random_game("duo", 4, seed=2).state.position
    assert exploration(big) == exploration(duo) == UCT_C
    assert exploration(big, uct_big=0.4) == 0.4 and exploration(duo, uct_big=0.4) == UCT_C
    assert exploration(big, 0.1, uct_big=0.4) == exploration(duo, 0.1, 0.4) == 0.1
    assert Search(big, 0, seed=1, uct_big=0.4).uct_c == 0.4  # seat 1 to move in both
    assert Search(duo, 0, seed=1, uct_big=0.4).uct_c == UCT_C


def test_the_widening_rate_sets_how_many_children_a_node_may_visit():
    """`widen`: only the first WIDEN_BASE + widen·√visits children of a node (best prior
    first) are ever visited; a wider rate spreads the same simulations over more root
    moves."""
    from lab.pysearch import PRIOR_N, WIDEN_BASE, WIDEN_RATE, Search

    pos = random_game("classic", 24, seed=5).state.position
    color = next(c for c in range(4) if pos.has_moves(c))
    for tree in (Search,):
        spread = {}
        for widen in (0.0, 6.0):
            search = tree(pos, color, seed=2, learned=True, widen=widen)
            search.run(600)
            if tree is Search:
                real, visits = [n - PRIOR_N for n in search.root.n], search.root.visits
            else:
                t = search.tree
                real, visits = (t.n[t.children(0)] - PRIOR_N).tolist(), int(t.visits[0])
            width = WIDEN_BASE + int((widen or WIDEN_RATE) * visits ** 0.5)
            assert len(real) > width  # the limit binds: there are more moves than it allows
            assert all(n == 0 for n in real[width:]) and all(n > 0 for n in real[:WIDEN_BASE])
            spread[widen] = sum(n > 0 for n in real)
        assert spread[6.0] > spread[0.0] + 20


def test_distance_weighted_rave_credits_later_moves_less():
    """With `rave_dist`, a node's RAVE statistics get each later move of its colour with
    weight 1 − (j − d) / (L − d): j the move's index in the simulation, d the node's, L the
    simulation's length (the playout's moves in turn order from the colour after the path)."""
    from lab.pysearch import Node, Search

    root = Node(0, [10, 11, 12])
    child = Node(1, [20, 21])
    search = Search.__new__(Search)
    path = [(root, 0), (child, 1)]  # colour 0 plays 10, colour 1 plays 21
    played = [[11, 12], [20], [], []]  # then colours 2, 3 pass, 0: 11, 1: 20, 0: 12
    Search.backup_dist(search, path, played, 2, [0.9, 0.1, 0.5, 0.5])
    assert root.n == [1, 0, 0] and root.w == [0.9, 0.0, 0.0] and root.visits == 1
    assert root.rn == pytest.approx([1.0, 0.6, 0.2])  # indices 0, 2, 4 of 5
    assert root.rw == pytest.approx([0.9, 0.54, 0.18])
    assert child.rn == pytest.approx([0.5, 1.0])  # index 3 and 1, from d = 1 of 5
    assert child.rw == pytest.approx([0.05, 0.1])
    assert child.n == [0, 1]


def test_deeper_nodes_expand_later_with_a_rising_threshold():
    """With `expand_inc`, a child d levels below the root's children is expanded only once
    it has had EXPAND_AT + d · expand_inc (real and virtual) visits; without it, on its
    second real visit at any depth."""
    from engine.cornerclaim.ai.features import recent_placements
    from lab.pysearch import EXPAND_AT, PRIOR_N, Search

    state = random_game("classic", 12, seed=6).state
    pos, color = state.position, state.to_move - 1
    counts = {}
    for inc in (0.0, 1.5):
        search = Search(pos, color, seed=3, recent=recent_placements(state), local=True,
                        learned=True, expand_inc=inc)
        search.run(600)
        expanded = 0
        stack = [(search.root, 0)]
        while stack:
            node, depth = stack.pop()
            for i, kid in enumerate(node.kids):
                if kid is not None:
                    expanded += 1
                    assert node.n[i] >= EXPAND_AT + PRIOR_N + inc * depth
                    stack.append((kid, depth + 1))
        counts[inc] = expanded
    assert 0 < counts[1.5] < counts[0.0]


def test_relative_rewards_add_the_margin_against_the_searchs_own_playouts():
    """`RelativeRewards`: rank plus weight · tanh(z), z the colour's margin over the mean of
    the others in standard deviations of the margins it had so far (itself included)."""
    import math
    import statistics

    from lab.pysearch import RelativeRewards

    rel = RelativeRewards(4, 0.3)
    rng = random.Random(2)
    seen: list[list[float]] = [[], [], [], []]
    for step in range(40):
        scores = [rng.randint(-40, 20) for _ in range(4)]
        got = rel(scores)
        plain = rewards(scores)
        for c, s in enumerate(scores):
            margin = s - (sum(scores) - s) / 3
            seen[c].append(margin)
            rank = plain[c] - 0.1 * math.tanh(margin / 10)  # `rewards` without its bonus
            sd = statistics.pstdev(seen[c])
            want = 0.3 * math.tanh((margin - statistics.fmean(seen[c])) / sd) if sd else 0.0
            assert got[c] == pytest.approx(rank + want)
            assert abs(got[c] - rank) <= 0.3
            if step == 0:
                assert got[c] == pytest.approx(rank)


def test_the_length_bonus_favours_short_wins_and_long_losses():
    """`RelativeRewards` with a `length` weight adds −length · (rank − ½) · tanh(z_len), z_len
    the simulation's length against the lengths so far (itself included), in standard
    deviations: on top of the rank and margin terms it is exactly that, bounded by
    length / 2, and zero for a colour ranked in the middle."""
    import math
    import statistics

    from lab.pysearch import RelativeRewards

    plain, timed = RelativeRewards(4, 0.3), RelativeRewards(4, 0.3, 0.12)
    rng = random.Random(3)
    lengths: list[int] = []
    for step in range(40):
        scores = [rng.randint(-40, 20) for _ in range(4)]
        moves = rng.randint(50, 80)
        lengths.append(moves)
        base, got = plain(scores), timed(scores, moves)
        sd = statistics.pstdev(lengths)
        z = (moves - statistics.fmean(lengths)) / sd if sd else 0.0
        for c, s in enumerate(scores):
            rank = rewards(scores)[c] - 0.1 * math.tanh((s - (sum(scores) - s) / 3) / 10)
            want = -0.12 * (rank - 0.5) * math.tanh(z)
            assert got[c] - base[c] == pytest.approx(want)
            assert abs(got[c] - base[c]) <= 0.06 + 1e-12
            if step == 0:
                assert got[c] == pytest.approx(base[c])
    winner = [10, 0, -5, -9]  # the same result in a longer game is worth less to the winner
    a, b = RelativeRewards(4, 0.0, 0.12), RelativeRewards(4, 0.0, 0.12)
    for m in (60, 70):
        a(winner, m), b(winner, m)
    short, long = a(winner, 55), b(winner, 75)
    assert short[0] > long[0] and short[3] < long[3]


def _merged_search(rave_dist: bool = False):
    from lab.pysearch import MERGED_C, Search

    search = Search.__new__(Search)
    search.merged, search.merged_c, search.rave_dist = True, MERGED_C, rave_dist
    search.reward_sum = [0.0] * 4
    return search


def test_merged_backup_adds_real_and_rave_samples_to_one_value():
    """Pentobi's tree policy (`merged`): the child a node chose gets one real sample (and a
    real visit); the node's other children whose moves its colour played later get a
    sample of weight 0.7 in the same mean, unless they already count more than
    `MERGED_RAVE_CHILD_MAX`; a node's own move is never its RAVE sample."""
    from lab.pysearch import MERGED_RAVE_CHILD_MAX, Node, Search

    root = Node(0, [10, 11, 12], [0.0, -1.0, -2.0], probs=True, merged=0.5)
    child = Node(1, [20, 21], [0.0, 0.0], probs=True, merged=0.5)
    root.n[2], root.w[2] = MERGED_RAVE_CHILD_MAX + 1, 1000.0  # too many samples for RAVE
    search = _merged_search()
    path = [(root, 0), (child, 1)]  # colour 0 plays 10, colour 1 plays 21
    played = [[11, 12], [20], [], []]  # then colours 2, 3 pass, 0: 11, 1: 20, 0: 12
    before = list(root.w)
    Search.backup_merged(search, path, played, 2, [0.9, 0.1, 0.5, 0.5])
    assert root.visits == 1 and root.rn == [1, 0, 0] and child.rn == [0, 1]
    assert root.n == pytest.approx([4.0, 3.7, MERGED_RAVE_CHILD_MAX + 1])
    assert root.w == pytest.approx([before[0] + 0.9, before[1] + 0.7 * 0.9, 1000.0])
    assert child.n == pytest.approx([3.7, 4.0])  # colour 1 played 20 after 21
    assert child.w == pytest.approx([1.5 + 0.07, 1.5 + 0.1])
    assert search.reward_sum == [0.9, 0.1, 0.5, 0.5]


def test_merged_backup_weights_rave_samples_by_distance():
    """With `rave_dist` too, the RAVE sample weighs 0.7 · (1 − (j − d) / (L − d)), the
    distance weight of `backup_dist`."""
    from lab.pysearch import Node, Search

    root = Node(0, [10, 11, 12], [0.0, 0.0, 0.0], probs=True, merged=0.5)
    child = Node(1, [20, 21], [0.0, 0.0], probs=True, merged=0.5)
    search = _merged_search(rave_dist=True)
    Search.backup_merged(search, [(root, 0), (child, 1)], [[11, 12], [20], [], []], 2,
                         [0.9, 0.1, 0.5, 0.5])
    assert root.n == pytest.approx([4.0, 3 + 0.7 * 0.6, 3 + 0.7 * 0.2])  # j = 2, 4 of 5
    assert root.w == pytest.approx([1.5 + 0.9, 1.5 + 0.42 * 0.9, 1.5 + 0.14 * 0.9])
    assert child.n == pytest.approx([3 + 0.7 * 0.5, 4.0])  # j = 3, from d = 1
    assert child.w == pytest.approx([1.5 + 0.35 * 0.1, 1.5 + 0.1])


def test_merged_nodes_start_from_pentobis_prior_values():
    """Each child starts as 3 samples of m · √(γ / γ_best), m the colour's mean reward so
    far and γ = e^logit, and its prior probability is γ's share."""
    import math

    from lab.pysearch import MERGED_PRIOR_N, Node

    logits = [1.0, 0.5, -2.0]
    node = Node(0, [1, 2, 3], logits, probs=True, merged=0.4)
    assert node.n == [MERGED_PRIOR_N] * 3
    assert [w / n for w, n in zip(node.w, node.n, strict=True)] == pytest.approx(
        [0.4, 0.4 * math.exp(-0.25), 0.4 * math.exp(-1.5)])
    total = sum(math.exp(x) for x in logits)
    assert node.p == pytest.approx([math.exp(x) / total for x in logits])


def test_merged_selection_equals_the_full_formula_over_every_child():
    """`select_merged` skips children that cannot win, yet picks what value + c · P ·
    √N · ln(N + 1) / n over all children picks (first of equals), the duo mirror cap
    included."""
    import math

    from lab.pysearch import MERGED_C, Node, Search

    rng = random.Random(5)
    search = _merged_search()
    for trial in range(300):
        k = rng.randint(1, 40)
        logits = sorted((rng.gauss(0, 2) for _ in range(k)), reverse=True)
        node = Node(0, list(range(k)), logits, probs=True, merged=rng.random())
        node.visits = rng.choice([0, 1, 5, 50, 3000])
        for i in range(k):
            extra = rng.choice([0, 0, rng.randint(1, 500)])
            node.n[i] += extra + rng.random()
            node.w[i] += rng.random() * extra
        if trial % 3 == 0:
            node.capped = frozenset(i for i in range(k) if rng.random() < 0.5)
        expl = MERGED_C * math.sqrt(node.visits) * math.log(node.visits + 1)
        best, best_v = None, -1.0
        for i in range(k):
            q = node.w[i] / node.n[i]
            if i in node.capped:
                q = min(q, 0.5)
            v = q + node.p[i] * expl / node.n[i]
            if best is None or v > best_v:
                best, best_v = i, v
        assert Search.select_merged(search, node) == best


def test_merged_search_plays_the_move_with_the_most_wins():
    """With Pentobi's tree policy the final move is the root child with the largest value
    count × value (its wins), not the most visited one."""
    from lab.pysearch import Node, Search

    root = Node(0, [10, 11], [0.0, 0.0])
    root.n, root.w = [10, 8], [4.0, 6.4]
    search = Search.__new__(Search)
    search.root, search.merged = root, False
    assert search.best_move() == 10
    search.merged = True
    assert search.best_move() == 11


def test_merged_exploration_constant_is_pentobis_for_the_board():
    """Pentobi tuned 0.4 for the 20×20 boards and 0.5 for duo; `puct_c` overrides both."""
    from lab.pysearch import MERGED_C, MERGED_C_DUO, Search

    for variant, expected in (("duo", MERGED_C_DUO), ("classic", MERGED_C),
                              ("trio", MERGED_C)):
        state = new_game(variant).state
        pos, color = state.position, state.to_move - 1
        assert Search(pos, color, seed=1, merged=True).merged_c == expected
        assert Search(pos, color, seed=1, merged=True, puct_c=0.7).merged_c == 0.7
    assert (MERGED_C, MERGED_C_DUO) == (0.4, 0.5)


@pytest.mark.parametrize("variant", ("duo", "classic"))
def test_selection_from_kept_values_is_the_full_recomputation(variant):
    """`select` reads the children's values `backup` keeps (`Node.q`): a search doing so
    grows exactly the tree of one recomputing every child's value at every visit, and
    every kept value is the recomputed one."""
    from engine.cornerclaim.ai.features import recent_placements
    from lab.pysearch import Search

    state = random_game(variant, 10 if variant == "duo" else 16, seed=4).state
    color = state.to_move - 1
    args = LEVELS[6].search_options(state.position, color)
    args.update(seed=3, recent=recent_placements(state))
    fast = Search(state.position, color, **args)
    slow = Search(state.position, color, **args)
    slow.cached = False
    fast.run(400)
    slow.run(400)
    assert fast.cached and fast.root.q is not None

    def walk(a, b):
        assert (a.moves, a.n, a.w, a.rn, a.rw) == (b.moves, b.n, b.w, b.rn, b.rw)
        assert a.q == [fast.child_value(*s) for s in zip(a.n, a.w, a.rn, a.rw, strict=True)]
        for x, y in zip(a.kids, b.kids, strict=True):
            assert (x is None) == (y is None)
            if x is not None:
                walk(x, y)

    walk(fast.root, slow.root)
    assert fast.best_move() == slow.best_move()




def test_the_puct_term_keeps_the_prior_on_each_node_and_plays_legal_moves():
    state = random_game("duo", 8, seed=3).state
    seat = state.to_move
    search = Search(state.position, seat - 1, seed=3, learned=True, local=True, puct_c=0.3)
    search.run(200)
    root = search.root
    assert root.p is not None and abs(sum(root.p) - 1.0) < 1e-9
    assert root.p == sorted(root.p, reverse=True)  # children are ordered by the prior
    grown = [k for k in root.kids if k is not None and k.moves]
    assert grown and all(k.p is not None for k in grown)
    assert search.best_move() in state.legal_moves(seat)
    # Off (the default), or without learned priors, no node keeps a prior.
    plain = Search(state.position, seat - 1, seed=3, learned=True, local=True)
    heuristic = Search(state.position, seat - 1, seed=3, learned=False, puct_c=0.3)
    assert plain.root.p is None and heuristic.root.p is None
