"""Computer players: legal moves at every level in every variant, reproducible with a seed,
whole games between bots that the engine accepts. Budgets are tiny (a few playouts): these
tests check behaviour, never strength or speed."""

import random

import pytest

from engine.cornerclaim import RULES, new_game
from engine.cornerclaim.ai import LEVELS, choose_move, hint
from engine.cornerclaim.ai.mcts import rewards

VARIANTS = ("duo", "trio", "classic")
FAST = {"playouts": 12, "seconds": 5.0}


def random_game(variant: str, plies: int, seed: int):
    """A game after up to `plies` uniformly random placements."""
    rnd = random.Random(seed)
    game = new_game(variant)
    for _ in range(plies):
        state = game.state
        if state.is_over:
            break
        seat = state.to_move
        move = rnd.choice(state.legal_moves(seat))
        game.play(seat, state.move_str(move))
    return game


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_a_legal_move_on_random_positions(variant, level):
    for i, plies in enumerate((0, 3, 9, 20, 35, 60)):
        state = random_game(variant, plies, seed=100 * level + i).state
        if state.is_over:
            continue
        seat = state.to_move
        move = choose_move(state, seat, level=level, seed=i, **FAST)
        assert move in state.legal_moves(seat)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_seat_without_placements_gets_none(level):
    game = random_game("duo", 200, seed=3)
    state = game.state
    assert state.is_over
    assert choose_move(state, 1, level=level, seed=1, **FAST) is None


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_seed_same_move(level):
    state = random_game("duo", 8, seed=11).state
    seat = state.to_move
    first = choose_move(state, seat, level=level, seed=42, reuse=False, **FAST)
    again = choose_move(state, seat, level=level, seed=42, reuse=False, **FAST)
    assert first == again


@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_play_whole_games_the_engine_accepts(variant):
    """Seats at different levels play to the end through `Game.play`, which re-checks
    every placement; tree reuse is on, as in a real game."""
    game = new_game(variant)
    levels = {1: 6, 2: 3, 3: 1, 4: 5}
    while not game.state.is_over:
        state = game.state
        seat = state.to_move
        move = choose_move(state, seat, level=levels[seat], seed=seat, playouts=20)
        assert move is not None
        game.play(seat, state.move_str(move))
    assert len(RULES.outcome(game.state).scores) == game.state.nu_seats


def test_hint_is_a_reproducible_legal_move():
    state = random_game("classic", 10, seed=5).state
    seat = state.to_move
    move = hint(state, seat)
    assert move in state.legal_moves(seat)
    assert hint(state, seat) == move


def test_levels_have_friendly_names_from_beginner_to_strongest():
    assert len(LEVELS) >= 5
    assert all(level.name and level.description for level in LEVELS.values())
    budgets = [LEVELS[n].playouts for n in sorted(LEVELS)]
    assert budgets == sorted(budgets)


def test_reward_ranks_every_colour():
    r = rewards([-10, -3, -3, -20])
    assert r[1] == r[2] > r[0] > r[3]
    two = rewards([-5, -9])
    assert two[0] > 0.9 and two[1] < 0.1


def test_unknown_level_is_refused():
    state = new_game("duo").state
    with pytest.raises(ValueError):
        choose_move(state, 1, level=99)


def test_seats_that_left_never_move_in_the_search():
    """Four seats, seat 2 left: no node of the tree is seat 2's to move, and the move
    chosen is legal."""
    from engine.cornerclaim.ai.mcts import Search

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
    from engine.cornerclaim.ai.mcts import Search

    state = random_game("duo", 6, seed=2).state
    root = Search(state.position, state.to_move - 1, seed=1).root
    values = [w / n for w, n in zip(root.w, root.n, strict=True)]
    assert values[0] == max(values) and min(root.n) == max(root.n) > 0
    plain = Search(state.position, state.to_move - 1, seed=1, prior_n=0).root
    assert plain.n == [0] * len(plain.moves)


def test_the_opening_book_gives_legal_moves_and_only_in_book():
    from engine.cornerclaim.ai.book import _book, book_move

    entries = _book().get("duo", {})
    assert "" in entries  # the empty board is in the book
    for line in entries:
        game = new_game("duo")
        for text in line.split():
            game.play(game.state.to_move, text)
        state = game.state
        assert book_move(state, state.to_move) in state.legal_moves(state.to_move)
    state = random_game("duo", 9, seed=4).state
    assert book_move(state, state.to_move) is None
    assert choose_move(new_game("duo").state, 1, level=6, seed=1) == book_move(
        new_game("duo").state, 1)


def _corner_game(variant: str, rounds: int, mirrored: frozenset = frozenset()):
    """A game in which every seat has played `rounds` of the corner book's moves (the seats
    in `mirrored` play the first one mirrored in their corner's diagonal, and the book
    follows them), from seat 1's turn."""
    from engine.cornerclaim.ai.book import _cells_text, _frame, corner_move

    game = new_game(variant)
    for _ in range(rounds):
        for seat in game.state.seats:
            move = corner_move(game.state, seat)
            assert move is not None, (seat, game.state.placements)
            cells = game.state.position.bc.move_cells(move)
            if seat in mirrored and not game.state.position.nu_played[seat - 1]:
                to, _ = _frame(game.state.variant, seat - 1, False)
                _, back = _frame(game.state.variant, seat - 1, True)
                cells = [back(to(c)) for c in cells]
            game.play(seat, _cells_text(game.state.position.bc, cells))
    return game


@pytest.mark.parametrize("variant", ["trio", "classic"])
def test_the_corner_book_sees_each_colour_from_its_own_corner(variant, monkeypatch):
    """Each colour's view maps its start corner to a1 and is its own inverse; in a game in
    which every colour follows the corner book, all of them have the same key and get the
    same book move from their own corner for the first `CORNER_PLIES` moves (a colour that
    plays the line mirrored gets it mirrored); level 6 plays the book's move when asked
    to (`corner`); and the book
    stops answering when another colour is nearer than `CORNER_GAP`."""
    from engine.cornerclaim.ai import book
    from engine.cornerclaim.variants import VARIANTS

    v = VARIANTS[variant]
    cells = [(x, y) for x in range(v.size) for y in range(v.size)]
    for color, start in enumerate(v.starts):
        for swap in (False, True):
            to, back = book._frame(v, color, swap)
            assert to(start) == (0, 0)
            assert all(back(to(c)) == c == to(back(c)) for c in cells)
    assert len(book._book()[book.corner_book_name(v)]) >= book.CORNER_PLIES
    first = book.corner_move(new_game(variant).state, 1)
    empty = new_game(variant).state
    assert choose_move(empty, 1, level=6, seed=1, corner=True) == first
    assert book.book_move(empty, 1, corner=True) == first and book.book_move(empty, 1) is None
    for rounds in range(book.CORNER_PLIES):
        game = _corner_game(variant, rounds)
        state = game.state
        keys = set()
        views = set()
        for seat in state.seats:
            key, swap = book.corner_key(state, seat)
            keys.add(key)
            move = book.corner_move(state, seat)
            assert move in state.legal_moves(seat)
            to, _ = book._frame(v, seat - 1, swap)
            views.add(book._cells_text(state.position.bc,
                                        map(to, state.position.bc.move_cells(move))))
            game.play(seat, state.move_str(move))
            state = game.state
        assert len(keys) == 1 and len(views) == 1, (keys, views)
    # seat 2 played the line mirrored: the book follows it there
    game = _corner_game(variant, 2, mirrored=frozenset({2}))
    game.play(1, game.state.move_str(book.corner_move(game.state, 1)))
    mirrored = book.corner_move(game.state, 2)
    assert mirrored in game.state.legal_moves(2)
    plain = _corner_game(variant, 2)
    plain.play(1, plain.state.move_str(book.corner_move(plain.state, 1)))
    key, swap = book.corner_key(game.state, 2)
    assert (key, not swap) == book.corner_key(plain.state, 2)
    to, _ = book._frame(v, 1, False)
    seen = {to(c) for c in game.state.position.bc.move_cells(mirrored)}
    normal = plain.state.position.bc.move_cells(book.corner_move(plain.state, 2))
    assert seen == {to(c)[::-1] for c in normal}
    # out of the book after its last move, and off while another colour is near
    assert book.corner_move(_corner_game(variant, book.CORNER_PLIES).state, 1) is None
    near = _corner_game(variant, 2).state
    assert book.corner_move(near, 1) is not None
    monkeypatch.setattr(book, "CORNER_GAP", 12)
    assert book.corner_move(new_game(variant).state, 1) == first
    assert book.corner_move(near, 1) is None
    duo = new_game("duo").state  # the small board has no corner book
    assert book.corner_move(duo, 1) is None


@pytest.mark.parametrize("plies", [5, 18, 33])
def test_priors_are_the_same_from_every_corner(plies):
    """The big board turned a quarter (a20 -> t20 -> t1 -> a1), each colour moved on a
    seat, is the same game for the colour to move: the same legal moves, and the learned
    priors and the one-ply heuristic give the same values, so no seat plays a differently
    guided game."""
    from engine.cornerclaim.ai import features, heuristic
    from engine.cornerclaim.position import Position

    state = random_game("classic", plies, seed=plies).state
    pos, bc = state.position, state.position.bc
    n = state.variant.size - 1

    def turned(move: int) -> int:
        return bc.move_by_cells_mask[bc.mask_of([(y, n - x) for x, y in bc.move_cells(move)])]

    other = Position(state.variant)
    for _, seat, move in state.placements:
        other.play(seat % 4, turned(move))
    color = state.to_move - 1
    moves = pos.legal_moves(color)
    assert len(moves) > 1 and len(set(features.prior_logits(
        pos, color, moves, features.weights_for(pos), ()))) > 1  # not a trivial check
    assert sorted(map(turned, moves)) == sorted(other.legal_moves((color + 1) % 4))
    recent = features.recent_placements(state)
    weights = features.weights_for(pos)
    assert weights == features.weights_for(other)
    mine = features.prior_logits(pos, color, moves, weights, recent)
    theirs = features.prior_logits(other, (color + 1) % 4, [turned(m) for m in moves],
                                   weights, tuple(((c + 1) % 4, turned(m)) for c, m in recent))
    assert mine == theirs
    assert heuristic.score_moves(pos, color, moves) == heuristic.score_moves(
        other, (color + 1) % 4, [turned(m) for m in moves])


def test_the_corner_book_is_built_by_the_top_levels_search(monkeypatch):
    """`book.build_corner` searches the first colour's move at each step of the game in
    which every colour plays the line so far, and takes the steps already known from the
    book instead of searching them."""
    import engine.cornerclaim.ai as ai
    from engine.cornerclaim.ai import book

    searched = []
    real = ai.choose_move

    def spy(state, seat, **kw):
        searched.append(len(state.placements))
        assert seat == 1 and kw["book"] is False and kw["level"] == max(LEVELS)
        return real(state, seat, **{**kw, "playouts": 30})

    monkeypatch.setattr(ai, "choose_move", spy)
    entries = book.build_corner("classic", 2, seconds=1.0)
    assert searched == [0, 4] and len(entries) == 2 and "" in entries
    again = book.build_corner("classic", 3, seconds=1.0, known=entries)
    assert searched == [0, 4, 8] and list(again)[:2] == list(entries)
    assert all(again[k] == v for k, v in entries.items())


def test_the_book_is_built_by_the_top_levels_own_search(monkeypatch):
    """`book.build` searches each position with every search option level 6 plays (last good
    replies, the relative and length bonuses, the rising expansion threshold...), on the
    flat tree, and keeps a legal move for the side to play."""
    from engine.cornerclaim.ai import LEVELS, book, flat

    made = []
    real = flat.FlatSearch.__init__

    def spy(self, pos, color, **kw):
        made.append(kw)
        real(self, pos, color, **kw)

    monkeypatch.setattr(flat.FlatSearch, "__init__", spy)
    line = "e8,d9,e9,e10,f10"
    entries = book.build("duo", [line], seconds=0.05, skip=frozenset({""}))
    assert list(entries) == [line]
    game = new_game("duo")
    game.play(1, line)
    state = game.state
    from engine.cornerclaim import RULES

    assert RULES.parse_move(state, 2, entries[line]) in state.legal_moves(2)
    top = LEVELS[max(LEVELS)].search_args()
    assert len(made) == 1 and all(made[0][k] == v for k, v in top.items())
    assert made[0]["recent"] == ((0, state.placements[0][2]),)


def test_the_big_boards_opening_keeps_only_moves_heading_for_the_centre():
    """20×20, first placements: the search's children are the legal big-piece moves that
    come within RACE_SLACK of the closest approach to the centre; the rest are pruned.
    Duo and later classic positions are not pruned."""
    import math

    from engine.cornerclaim.ai.mcts import RACE_PLACEMENTS, RACE_SLACK, Search, considered_moves

    def closest(pos, move):
        mid = (pos.bc.size - 1) / 2
        return max(2.0, min(math.hypot(x - mid, y - mid) for x, y in pos.bc.move_cells(move)))

    game = new_game("classic")
    for text in ("a17,b17,a18,a19,a20", "s17,t17,t18,t19,t20", "t1,t2,t3,s4,t4",
                 "a1,a2,a3,a4,a5"):
        game.play(game.state.to_move, text)
    pos = game.state.position
    every, _ = considered_moves(pos, 0)
    kept, _ = considered_moves(pos, 0, race=RACE_PLACEMENTS)
    best = min(closest(pos, m) for m in every)
    assert set(kept) == {m for m in every if closest(pos, m) <= best + RACE_SLACK}
    assert 0 < len(kept) < len(every)
    assert set(Search(pos, 0, seed=1).root.moves) == set(kept)  # on by default
    assert set(Search(pos, 0, seed=1, race=0).root.moves) == set(every)

    duo = random_game("duo", 2, seed=3).state.position
    assert considered_moves(duo, 0, race=RACE_PLACEMENTS) == considered_moves(duo, 0)
    late = random_game("classic", 16, seed=3).state
    color = late.to_move - 1
    assert considered_moves(late.position, color, race=RACE_PLACEMENTS) == considered_moves(
        late.position, color)


def test_race_corners_keeps_the_race_moves_that_gain_the_most_attach_points():
    """With `race_corners`, while the race lasts a colour that has placed a piece keeps only
    the race's moves that gain it the most attach points (`corner_gains`: the count after
    the move less the count before, as the engine keeps them); its first piece, the moves
    after the race and the duo board are as without it. The flat tree (its compiled
    listing too) and the Python tree keep the same moves."""
    import numpy as np

    from engine.cornerclaim.ai.flat import FlatSearch
    from engine.cornerclaim.ai.leaf import leaf_lists
    from engine.cornerclaim.ai.mcts import RACE_PLACEMENTS, Search, considered_moves, corner_gains

    game = new_game("classic")
    for text in ("a17,b17,a18,a19,a20", "s17,t17,t18,t19,t20", "t1,t2,t3,s4,t4",
                 "a1,a2,a3,a4,a5"):
        game.play(game.state.to_move, text)
    pos = game.state.position
    race, _ = considered_moves(pos, 0, race=RACE_PLACEMENTS)
    kept, _ = considered_moves(pos, 0, race=RACE_PLACEMENTS, race_corners=True)
    before = pos.attach_points(0).bit_count()
    gains = {}
    for m in race:
        after = pos.copy()
        after.play(0, m)
        gains[m] = after.attach_points(0).bit_count() - before
    assert corner_gains(pos, 0, np.array(race, np.int64)).tolist() == [gains[m] for m in race]
    assert set(kept) == {m for m in race if gains[m] == max(gains.values())}
    assert 0 < len(kept) < len(race)
    assert kept == [m for m in race if m in kept]  # the prior's order is kept
    tree = FlatSearch(pos, 0, seed=1, learned=True, race_corners=True).tree
    assert set(tree.move[tree.children(0)].tolist()) == set(kept)
    assert set(Search(pos, 0, seed=1, race_corners=True).root.moves) == set(kept)

    # The compiled listing prunes a node below the root the same way (seat 2's second
    # piece after seat 1's).
    search = FlatSearch(pos, 0, seed=1, learned=True, race_corners=True)
    after = pos.copy()
    after.play(0, kept[0])
    one = np.zeros(1, np.int64)
    c, got, _ = leaf_lists(1, one, one, one * 0, one + kept[0], *search._leaf)
    want, _ = considered_moves(after, 1, learned=search.learned, race=RACE_PLACEMENTS,
                               race_corners=True, recent=((0, kept[0]),))
    assert c == 1 and set(got.tolist()) == set(want)
    assert len(want) < len(considered_moves(after, 1, race=RACE_PLACEMENTS)[0])

    fresh = new_game("classic").state.position  # a first piece: only the race
    assert considered_moves(fresh, 0, race=RACE_PLACEMENTS, race_corners=True) == \
        considered_moves(fresh, 0, race=RACE_PLACEMENTS)
    duo = random_game("duo", 2, seed=3).state.position
    assert considered_moves(duo, 0, race=RACE_PLACEMENTS, race_corners=True) == \
        considered_moves(duo, 0)
    late = random_game("classic", 16, seed=3).state
    color = late.to_move - 1
    assert considered_moves(late.position, color, race=RACE_PLACEMENTS,
                            race_corners=True) == considered_moves(late.position, color)

    # Level 6 plays so (1.95 over 192 classic games against three Pentobi-5 seats, where
    # it chose its second piece as the race's mean: docs/ai.md, thirty-second session).
    assert LEVELS[6].race_corners and not any(LEVELS[k].race_corners for k in range(1, 6))
    move = choose_move(game.state, 1, level=6, playouts=40, seed=2, book=False, reuse=False)
    assert move in kept


def test_the_race_is_counted_on_the_average_or_per_colour():
    """On the average (the default) seat 1 races its fourth move and seats 2–4 do not; per
    colour (`race_each`) every seat races exactly `race` moves; never on the duo board."""
    from engine.cornerclaim.ai.flat import FlatSearch
    from engine.cornerclaim.ai.mcts import Search, considered_moves, racing

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
        tree = FlatSearch(pos, 0, seed=1, race=race, race_each=True).tree  # level 6's tree
        assert set(tree.move[tree.children(0)].tolist()) == set(want)
        assert set(Search(pos, 0, seed=1, race=race, race_each=True).root.moves) == set(want)
    game.play(1, state.move_str(kept[0]))
    pos = game.state.position  # seat 2's fourth move: 13 placements
    assert not racing(pos, 1, 3) and racing(pos, 1, 4, each=True)
    assert not racing(random_game("duo", 0, seed=1).state.position, 0, 4, each=True)


def test_the_big_boards_can_have_their_own_exploration_constant():
    """`uct_big` sets the UCT constant on the 20×20 boards only; an explicit `uct_c` wins on
    every board; both trees read it the same way."""
    from engine.cornerclaim.ai.flat import FlatSearch
    from engine.cornerclaim.ai.mcts import UCT_C, Search, exploration

    big = random_game("classic", 8, seed=2).state.position
    duo = random_game("duo", 4, seed=2).state.position
    assert exploration(big) == exploration(duo) == UCT_C
    assert exploration(big, uct_big=0.4) == 0.4 and exploration(duo, uct_big=0.4) == UCT_C
    assert exploration(big, 0.1, uct_big=0.4) == exploration(duo, 0.1, 0.4) == 0.1
    for tree in (Search, FlatSearch):
        assert tree(big, 0, seed=1, uct_big=0.4).uct_c == 0.4  # seat 1 to move in both
        assert tree(duo, 0, seed=1, uct_big=0.4).uct_c == UCT_C
    args = LEVELS[6].search_args()
    assert args["uct_big"] == LEVELS[6].uct_big
    assert LEVELS[6].search_args(uct_big=0.5)["uct_big"] == 0.5


def test_the_widening_rate_sets_how_many_children_a_node_may_visit():
    """`widen` (`Level.widen`, `level:6/widen=…` in match.py): only the first
    WIDEN_BASE + widen·√visits children of a node (best prior first) are ever visited, in
    both trees; a wider rate spreads the same simulations over more root moves."""
    from engine.cornerclaim.ai.flat import FlatSearch
    from engine.cornerclaim.ai.mcts import PRIOR_N, WIDEN_BASE, WIDEN_RATE, Search

    pos = random_game("classic", 24, seed=5).state.position
    color = next(c for c in range(4) if pos.has_moves(c))
    for tree in (Search, FlatSearch):
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
    assert LEVELS[6].search_args()["widen"] == 0.0  # level 6 keeps mcts.WIDEN_RATE


def test_a_time_bound_search_stops_once_its_move_is_decided():
    """With `stop_decided`, a search whose best root move leads by more visits than the
    time left could add stops at its first check after DECIDED_MIN simulations; without it
    (or without a time limit) it runs its whole budget."""
    from engine.cornerclaim.ai.mcts import DECIDED_MIN, TIME_CHECK_EVERY, Search

    state = random_game("duo", 6, seed=5).state
    color = state.to_move - 1

    def search():
        s = Search(state.position, color, seed=1)
        s.root.n[1] += 10**9  # a lead no 60-second search could make up
        return s

    decided = search()
    decided.run(10**6, 60.0, stop_decided=True)
    assert DECIDED_MIN < decided.simulations <= DECIDED_MIN + TIME_CHECK_EVERY + 1
    assert decided.lead() > 10**9 - 10**6
    assert decided.best_move() == decided.root.moves[1]
    for stop, seconds in ((False, 60.0), (True, None)):
        whole = search()
        whole.run(150, seconds, stop_decided=stop)
        assert whole.simulations == 150


def test_the_time_bank_keeps_unused_time_for_the_same_game_only():
    """With `bank`, level 6 keeps the seconds a search did not use for the game's next
    moves (at most BANK_CAP budgets), and starts every other game with an empty bank. The
    bounds are read from the wall time of each call, so a slow machine cannot fail this."""
    import time

    import engine.cornerclaim.ai as ai

    game = random_game("classic", 13, seed=6)  # out of the book

    def banked():
        key = next(k for k in ai._reuse if k[0] == "classic" and k[2] == 6)
        return ai._reuse[key][2]

    def timed(state):
        t = time.perf_counter()
        move = choose_move(state, state.to_move, level=6, seed=1, playouts=4, seconds=5.0,
                           bank=True)
        return move, time.perf_counter() - t

    ai._reuse.clear()
    move, took = timed(game.state)
    assert move in game.state.legal_moves(game.state.to_move)
    first = banked()
    assert 5.0 - took <= first <= 5.0  # 4 simulations leave most of the 5 s
    game.play(game.state.to_move, game.state.move_str(move))
    for _ in range(3):  # the other seats
        seat = game.state.to_move
        game.play(seat, game.state.move_str(choose_move(game.state, seat, level=2, seed=1)))
    _, took = timed(game.state)
    assert first + 5.0 - took <= banked() <= first + 5.0  # same game: the bank grows
    _, took = timed(random_game("classic", 13, seed=7).state)
    assert 5.0 - took <= banked() <= 5.0  # another game: it starts empty
    ai._reuse.clear()


def test_distance_weighted_rave_credits_later_moves_less():
    """With `rave_dist`, a node's RAVE statistics get each later move of its colour with
    weight 1 − (j − d) / (L − d): j the move's index in the simulation, d the node's, L the
    simulation's length (the playout's moves in turn order from the colour after the path)."""
    from engine.cornerclaim.ai.mcts import Node, Search

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
    from engine.cornerclaim.ai.mcts import EXPAND_AT, PRIOR_N, Search

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

    from engine.cornerclaim.ai.mcts import RelativeRewards

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

    from engine.cornerclaim.ai.mcts import RelativeRewards

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


def test_paced_search_time_follows_the_placements_and_keeps_the_mean(monkeypatch):
    """With `pace`, a time-bound search gets `pace_share(k, PACES[pace])` of its budget, k
    the pieces its colour has placed, and over a game of 16–21 placements the shares of
    each split average one budget
    (±5 %; after the corner book, which plays the first `CORNER_PLIES` at no cost, counting
    those as free); without it every move gets the whole budget (less what the call spent
    before the search: a loose bound, not a timing)."""
    import engine.cornerclaim.ai as ai
    from engine.cornerclaim.ai import PACE_BOOK, PACE_EARLY, PACE_MIDDLE, PACES, pace_share
    from engine.cornerclaim.ai.book import CORNER_PLIES

    for table in PACES.values():
        free = CORNER_PLIES if table is PACE_BOOK else 0
        for n in range(16, 22):
            assert 0.95 <= sum(pace_share(k, table) for k in range(free, n)) / n <= 1.05
    assert pace_share(0) < pace_share(10) and pace_share(20) < pace_share(10)
    # the early split: most from the third to the ninth piece
    assert pace_share(0, PACE_EARLY) < 1 < pace_share(4, PACE_EARLY)
    assert pace_share(12, PACE_EARLY) < 1
    # the middle split: most for the fourth to sixth pieces, less from the tenth
    assert pace_share(2, PACE_MIDDLE) == 1 < pace_share(3, PACE_MIDDLE)
    assert pace_share(3, PACE_MIDDLE) == pace_share(5, PACE_MIDDLE)
    assert pace_share(6, PACE_MIDDLE) == 1 > pace_share(9, PACE_MIDDLE)
    asked: list[float] = []
    real_run = ai.FlatSearch.run  # level 6's tree

    def run(self, playouts, seconds=None, **kw):
        asked.append(seconds)
        return real_run(self, 4, seconds, **kw)  # a few simulations: only the time matters

    monkeypatch.setattr(ai.FlatSearch, "run", run)
    # a first call loads the compiled playouts, which must not come off a timed budget
    warm = random_game("classic", 13, seed=8).state
    choose_move(warm, warm.to_move, level=6, seed=1, reuse=False)
    shares = set()
    for placed in (13, 37):
        state = random_game("classic", placed, seed=8).state
        k = state.position.nu_played[state.to_move - 1]
        shares.add(pace_share(k))
        asked.clear()
        for pace in (True, 2, 3, 4, False):
            move = choose_move(state, state.to_move, level=6, seed=1, seconds=2.0, pace=pace,
                               reuse=False)
            assert move in state.legal_moves(state.to_move)
        # the seconds count from the call's start, so setting up the search comes off them
        wanted = (2.0 * pace_share(k), 2.0 * pace_share(k, PACE_EARLY),
                  2.0 * pace_share(k, PACE_BOOK), 2.0 * pace_share(k, PACE_MIDDLE), 2.0)
        for got, want in zip(asked, wanted, strict=True):
            assert want - 1.0 < got <= want
    assert len(shares) == 2
    # the corner book's and the middle's splits are for the big board: the small one keeps
    # a flat budget
    duo = random_game("duo", 8, seed=8).state
    k = duo.position.nu_played[duo.to_move - 1]
    for pace, table in ((3, PACE_BOOK), (4, PACE_MIDDLE)):
        asked.clear()
        choose_move(duo, duo.to_move, level=6, seed=1, seconds=2.0, pace=pace, reuse=False)
        assert pace_share(k, table) != 1.0
        assert 1.0 < asked[0] <= 2.0


@pytest.fixture
def corners_seen(monkeypatch) -> list[float]:
    """The `corners` factor of every `FlatSearch` built while the test runs, in order."""
    import engine.cornerclaim.ai as ai

    seen: list[float] = []
    real_init = ai.FlatSearch.__init__

    def init(self, *args, **kw):
        seen.append(kw["corners"])
        real_init(self, *args, **kw)

    monkeypatch.setattr(ai.FlatSearch, "__init__", init)
    return seen


def test_corners_mid_weighs_new_corners_only_for_a_colours_fourth_to_sixth_pieces(
        corners_seen):
    """With `corners_mid` the search's playouts get the `corners` factor only when the
    colour to move has placed `CORNERS_MIDDLE` pieces (three to five); without it, on
    every move."""
    from engine.cornerclaim.ai import CORNERS_MIDDLE

    assert CORNERS_MIDDLE == (3, 6)
    for plies, middle in ((8, False), (13, True), (22, True), (26, False)):
        state = random_game("classic", plies, seed=3).state
        placed = state.position.nu_played[state.to_move - 1]
        assert (3 <= placed < 6) == middle
        corners_seen.clear()
        for mid in (True, False):
            move = choose_move(state, state.to_move, level=6, seed=1, playouts=4,
                               book=False, corners=4.0, corners_mid=mid, reuse=False)
            assert move in state.legal_moves(state.to_move)
        assert corners_seen == [4.0 if middle else 0.0, 4.0]


def test_level_6_weighs_new_corners_on_the_big_board_only(corners_seen):
    """Level 6's playouts weigh new corners (`corners_big`) on the 20×20 board, in a
    colour's fourth to sixth pieces only (`corners_mid`); duo keeps its playouts. An asked
    `corners` factor applies on every board (in the same pieces), 0 turning it off."""
    six = LEVELS[6]
    assert (six.corners, six.corners_big, six.corners_mid) == (0.0, 4.0, True)
    for variant, plies, middle, shipped in (("classic", 8, False, 0.0),
                                            ("classic", 13, True, 4.0),
                                            ("classic", 22, True, 4.0),
                                            ("duo", 2, False, 0.0), ("duo", 7, True, 0.0),
                                            ("duo", 12, False, 0.0)):
        state = random_game(variant, plies, seed=3).state
        color = state.to_move - 1
        assert (3 <= state.position.nu_played[color] < 6) == middle
        assert six.options_for(state.position, color)["corners"] == shipped
        corners_seen.clear()
        for corners in (None, 2.0, 0.0):
            move = choose_move(state, state.to_move, level=6, seed=1, playouts=4,
                               book=False, corners=corners, reuse=False)
            assert move in state.legal_moves(state.to_move)
        assert corners_seen == [shipped, 2.0 if middle else 0.0, 0.0], (variant, plies)


def _merged_search(rave_dist: bool = False):
    from engine.cornerclaim.ai.mcts import MERGED_C, Search

    search = Search.__new__(Search)
    search.merged, search.merged_c, search.rave_dist = True, MERGED_C, rave_dist
    search.reward_sum = [0.0] * 4
    return search


def test_merged_backup_adds_real_and_rave_samples_to_one_value():
    """Pentobi's tree policy (`merged`): the child a node chose gets one real sample (and a
    real visit); the node's other children whose moves its colour played later get a
    sample of weight 0.7 in the same mean, unless they already count more than
    `MERGED_RAVE_CHILD_MAX`; a node's own move is never its RAVE sample."""
    from engine.cornerclaim.ai.mcts import MERGED_RAVE_CHILD_MAX, Node, Search

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
    from engine.cornerclaim.ai.mcts import Node, Search

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

    from engine.cornerclaim.ai.mcts import MERGED_PRIOR_N, Node

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

    from engine.cornerclaim.ai.mcts import MERGED_C, Node, Search

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
    from engine.cornerclaim.ai.mcts import Node, Search

    root = Node(0, [10, 11], [0.0, 0.0])
    root.n, root.w = [10, 8], [4.0, 6.4]
    search = Search.__new__(Search)
    search.root, search.merged = root, False
    assert search.best_move() == 10
    search.merged = True
    assert search.best_move() == 11


@pytest.mark.parametrize("variant", VARIANTS)
def test_level_6_with_the_merged_tree_policy_plays_legal_reproducible_moves(variant):
    for i, plies in enumerate((0, 9, 30)):
        state = random_game(variant, plies, seed=40 + i).state
        if state.is_over:
            continue
        seat = state.to_move
        moves = {choose_move(state, seat, level=6, seed=i, playouts=60, seconds=5.0,
                             merged=True, book=False, reuse=False) for _ in range(2)}
        assert len(moves) == 1 and moves.pop() in state.legal_moves(seat)


def test_merged_exploration_constant_is_pentobis_for_the_board():
    """Pentobi tuned 0.4 for the 20×20 boards and 0.5 for duo; `puct_c` overrides both."""
    from engine.cornerclaim.ai.mcts import MERGED_C, MERGED_C_DUO, Search

    for variant, expected in (("duo", MERGED_C_DUO), ("classic", MERGED_C),
                              ("trio", MERGED_C)):
        state = new_game(variant).state
        pos, color = state.position, state.to_move - 1
        assert Search(pos, color, seed=1, merged=True).merged_c == expected
        assert Search(pos, color, seed=1, merged=True, puct_c=0.7).merged_c == 0.7
    assert (MERGED_C, MERGED_C_DUO) == (0.4, 0.5)


def test_a_levels_search_args_are_its_search_options():
    """`Level.search_args` names only `Search` options, takes them from the level, and puts
    an override in place unless it is None (the benchmarks build level 6's search by it)."""
    import dataclasses
    import inspect

    from engine.cornerclaim.ai import Level
    from engine.cornerclaim.ai.mcts import Search

    params = inspect.signature(Search).parameters
    fields = {f.name for f in dataclasses.fields(Level)}
    assert set(Level.SEARCH_FIELDS) <= set(params) & fields
    six = LEVELS[6]
    args = six.search_args()
    assert args == {name: getattr(six, name) for name in Level.SEARCH_FIELDS}
    assert args["learned"] and args["lgr"] and args["length"] == six.length
    changed = six.search_args(length=0.0, merged=not six.merged, lgr=None)
    assert changed == {**args, "length": 0.0, "merged": not six.merged}


def test_the_merged_policy_works_with_heuristic_priors_too():
    """Without learned priors (levels 3–5) a merged node gets the linear prior values and
    the same P for every child, and the search still plays legal moves."""
    from engine.cornerclaim.ai.mcts import MERGED_PRIOR_N, Node

    node = Node(0, [1, 2, 3], [5.0, 3.0, 1.0], slope=0.05, merged=0.5)
    assert node.p == [pytest.approx(1 / 3)] * 3 and node.n == [MERGED_PRIOR_N] * 3
    assert [w / n for w, n in zip(node.w, node.n, strict=True)] == pytest.approx(
        [0.6, 0.5, 0.4])
    for variant in VARIANTS:
        state = random_game(variant, 10, seed=9).state
        seat = state.to_move
        move = choose_move(state, seat, level=4, seed=2, merged=True, playouts=40)
        assert move in state.legal_moves(seat)


@pytest.mark.parametrize("variant", ("duo", "classic"))
def test_selection_from_kept_values_is_the_full_recomputation(variant):
    """`select` reads the children's values `backup` keeps (`Node.q`): a search doing so
    grows exactly the tree of one recomputing every child's value at every visit, and
    every kept value is the recomputed one."""
    from engine.cornerclaim.ai import LEVELS
    from engine.cornerclaim.ai.features import recent_placements
    from engine.cornerclaim.ai.mcts import Search

    state = random_game(variant, 10 if variant == "duo" else 16, seed=4).state
    color = state.to_move - 1
    args = LEVELS[6].search_args()
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


def test_opening_is_the_same_level_2_placements_every_time():
    """`opening` (the position `warm_up` searches and the first-move benchmark times) is a
    fixed position: `plies` placements, the same ones on every call."""
    from engine.cornerclaim import PiecePlaced
    from engine.cornerclaim.ai import opening

    for variant in ("duo", "classic"):
        first, second = opening(variant, 4), opening(variant, 4)
        placed = [e for e in first.events if isinstance(e, PiecePlaced)]
        assert len(placed) == 4 and len(first.events) == 5  # created + four placements
        assert [e.to_dict() for e in first.events] == [e.to_dict() for e in second.events]
        assert not first.state.is_over


WARM_CHECK = """
import json, random
from engine.cornerclaim.ai import LEVELS, choose_move, compiled_kernels, warm_up
from engine.cornerclaim import new_game

warm_up()
before = compiled_kernels()
rnd = random.Random(5)
for variant in ("duo", "trio", "classic"):
    for plies in (6, 30, 60):
        game = new_game(variant)
        for _ in range(plies):
            state = game.state
            if state.is_over:
                break
            game.play(state.to_move, state.move_str(rnd.choice(state.legal_moves(state.to_move))))
        state = game.state
        if state.is_over:
            continue
        for level, spec in LEVELS.items():
            if spec.playouts:
                choose_move(state, state.to_move, level=level, seed=1, playouts=400,
                            seconds=60.0, book=False)
print(json.dumps({"before": len(before), "new": sorted(map(list, compiled_kernels() - before))}))
"""


def test_after_warm_up_no_real_move_compiles_anything():
    """`warm_up` (run by every bot worker before its first job) leaves nothing for numba to
    compile on real moves of any level in any variant: checked in a fresh process."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    out = subprocess.run([sys.executable, "-c", WARM_CHECK], capture_output=True, text=True,
                         check=True, timeout=600, cwd=Path(__file__).resolve().parents[1])
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["before"] > 0
    assert result["new"] == []
