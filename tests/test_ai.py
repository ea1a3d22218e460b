"""Computer players: legal moves at every level in every variant, reproducible with a seed,
whole games between bots that the engine accepts. Budgets are tiny (a few playouts): these
tests check behaviour, never strength or speed."""

import random

import pytest

from engine.cornerclaim import RULES, new_game
from engine.cornerclaim.ai import LEVELS, choose_move, hint, search_move

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
        move = search_move(state, seat, level=level, seed=i, **FAST)
        assert move in state.legal_moves(seat)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_seat_without_placements_gets_none(level):
    game = random_game("duo", 200, seed=3)
    state = game.state
    assert state.is_over
    assert search_move(state, 1, level=level, seed=1, **FAST) is None


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_seed_same_move(level):
    state = random_game("duo", 8, seed=11).state
    seat = state.to_move
    first = search_move(state, seat, level=level, seed=42, reuse=False, **FAST)
    again = search_move(state, seat, level=level, seed=42, reuse=False, **FAST)
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
        move = search_move(state, seat, level=levels[seat], seed=seat, playouts=20)
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


def test_unknown_level_is_refused():
    state = new_game("duo").state
    with pytest.raises(ValueError):
        choose_move(state, 1, level=99)


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


def test_the_second_player_answers_a_first_piece_with_the_reply_games_chose():
    """Level 6 as the second player answers e8,d9,e9,e10,f10 at once from its book with
    i5,j5,j6,k6,j7: of a long search's best replies, the one that won the most games
    Pentobi 7 finished from each (lab/second_reply.py), not the search's most visited
    (h4,i4,i5,j5,i6); and its book goes on after Pentobi's usual second pieces."""
    from engine.cornerclaim.ai.book import book_move

    game = new_game("duo")
    game.play(1, "e8,d9,e9,e10,f10")
    state = game.state
    assert state.move_str(choose_move(state, 2, level=6, seed=1)) == "i5,j5,j6,k6,j7"
    game.play(2, "i5,j5,j6,k6,j7")
    game.play(1, "g7,g8,h8,i8,g9")
    assert book_move(game.state, 2) is not None


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


def test_the_book_is_built_by_the_top_levels_own_search(monkeypatch):
    """`scripts/make_book.py`'s `build` searches each position with every search option
    level 6 plays (last good replies, the relative and length bonuses, the rising expansion
    threshold...), on the flat tree, and keeps a legal move for the side to play."""
    import importlib.util
    from pathlib import Path

    from engine.cornerclaim.ai import LEVELS, flat

    path = Path(__file__).resolve().parent.parent / "scripts" / "make_book.py"
    spec = importlib.util.spec_from_file_location("make_book", path)
    book = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(book)

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
    top = LEVELS[max(LEVELS)].search_options(state.position, 1)
    assert len(made) == 1 and all(made[0][k] == v for k, v in top.items())
    assert made[0]["recent"] == ((0, state.placements[0][2]),)


def test_the_big_boards_opening_keeps_only_moves_heading_for_the_centre():
    """20×20, first placements: the search's children are the legal big-piece moves that
    come within RACE_SLACK of the closest approach to the centre; the rest are pruned.
    Duo and later classic positions are not pruned."""
    import math

    from engine.cornerclaim.ai.flat import FlatSearch
    from engine.cornerclaim.ai.mcts import RACE_PLACEMENTS, RACE_SLACK, considered_moves

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
    tree = FlatSearch(pos, 0, seed=1).tree  # every level races
    assert set(tree.move[tree.children(0)].tolist()) == set(kept)

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
    from engine.cornerclaim.ai.mcts import RACE_PLACEMENTS, considered_moves, corner_gains

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
    tree = FlatSearch(pos, 0, seed=1, race_corners=True).tree  # the heuristic's order
    assert set(tree.move[tree.children(0)].tolist()) == set(kept)

    # The compiled listing prunes a node below the root the same way (seat 2's second
    # piece after seat 1's).
    search = FlatSearch(pos, 0, seed=1, learned=True, race_corners=True)
    after = pos.copy()
    after.play(0, kept[0])
    one = np.zeros(1, np.int64)
    c, got, _ = leaf_lists(1, one, one, one * 0, one + kept[0], search._leaf)
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

    # Level 6 plays so (lab/README.md: 1.95 over 192 classic games against three
    # Pentobi-5 seats, where it chose its second piece as the race's mean).
    assert LEVELS[6].race_corners and not any(LEVELS[k].race_corners for k in range(1, 6))
    move = search_move(game.state, 1, level=6, playouts=40, seed=2, book=False, reuse=False)
    assert move in kept


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


def test_level_6_weighs_new_corners_on_the_big_board_in_the_middle_pieces(corners_seen):
    """Level 6's playouts weigh new corners (`corners_big`) on the 20×20 board while the
    colour to move places its fourth to sixth pieces (`CORNERS_MIDDLE`); duo and the other
    levels keep their playouts."""
    from engine.cornerclaim.ai import CORNERS_MIDDLE

    assert CORNERS_MIDDLE == (3, 6) and LEVELS[6].corners_big == 4.0
    assert not any(LEVELS[k].corners_big for k in range(1, 6))
    for variant, plies, middle, shipped in (("classic", 8, False, 0.0),
                                            ("classic", 13, True, 4.0),
                                            ("classic", 22, True, 4.0),
                                            ("classic", 26, False, 0.0),
                                            ("duo", 2, False, 0.0), ("duo", 7, True, 0.0),
                                            ("duo", 12, False, 0.0)):
        state = random_game(variant, plies, seed=3).state
        color = state.to_move - 1
        assert (3 <= state.position.nu_played[color] < 6) == middle
        assert LEVELS[6].search_options(state.position, color)["corners"] == shipped
        corners_seen.clear()
        for level in (5, 6):
            move = search_move(state, state.to_move, level=level, seed=1, playouts=4,
                               book=False, reuse=False)
            assert move in state.legal_moves(state.to_move)
        assert corners_seen == [0.0, shipped], (variant, plies)


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
from engine.cornerclaim.ai import LEVELS, compiled_kernels, search_move, warm_up
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
                search_move(state, state.to_move, level=level, seed=1, playouts=400,
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


CACHE_CHECK = """
import json
from engine.cornerclaim.ai import features, flat, leaf, playout, warm_up

warm_up()
hits = misses = 0
for module in (features, flat, leaf, playout):
    for value in vars(module).values():
        stats = getattr(value, "stats", None)
        if hasattr(stats, "cache_hits"):
            hits += sum(stats.cache_hits.values())
            misses += sum(stats.cache_misses.values())
print(json.dumps({"hits": hits, "misses": misses}))
"""


def test_the_set_up_step_compiles_the_search_into_numbas_cache():
    """`cornerclaim warm-up` (what `scripts/serve` and `scripts/test` run after installing)
    leaves every kernel in numba's cache beside the package: a later process's warm-up loads
    them all and compiles none. (On a cache the set-up step already filled, the first run
    here only loads it.)"""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "server.cli", "warm-up"], cwd=root,
                          capture_output=True, text=True, check=True, timeout=900)
    assert "Corner Claim: computer players ready" in done.stdout
    assert any((root / "engine" / "cornerclaim" / "ai").rglob("*.nbc"))
    out = subprocess.run([sys.executable, "-c", CACHE_CHECK], cwd=root,
                         capture_output=True, text=True, check=True, timeout=600)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["hits"] > 0
    assert result["misses"] == 0
