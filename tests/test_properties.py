"""Property tests over random legal games, checked against a plain cell-by-cell oracle."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Game
from engine.cornerclaim import RULES, new_game
from engine.cornerclaim.notation import parse_cells

VARIANT = st.sampled_from(["duo", "trio", "classic"])


def random_game(variant: str, seed: int, *, undo_rate: float = 0.0, leave_rate: float = 0.0):
    rnd = random.Random(seed)
    g = new_game(variant)
    while not g.state.is_over and g.seq < 200:
        state = g.state
        seat = state.to_move
        r = rnd.random()
        if r < undo_rate and state.last_placement_seq(seat):
            g.undo(seat)
        elif r < undo_rate + leave_rate and state.nu_seats > 2:
            g.leave(seat)
        else:
            moves = state.legal_moves(seat)
            g.play(seat, state.move_str(rnd.choice(moves)), seq=g.seq)
    return g


def neighbours(x, y):
    return {(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)}


def diagonals(x, y):
    return {(x + 1, y + 1), (x - 1, y + 1), (x + 1, y - 1), (x - 1, y - 1)}


def check_with_oracle(g: Game) -> None:
    """Re-check every effective placement with sets of cells, not bitboards."""
    state = g.state
    owner: dict[tuple[int, int], int] = {}
    n = state.variant.size
    for _, seat, move in state.placements:
        cells = set(parse_cells(state.move_str(move)))
        own = {c for c, s in owner.items() if s == seat}
        assert all(0 <= x < n and 0 <= y < n for x, y in cells)
        assert not cells & set(owner), "overlap"
        assert not any(neighbours(*c) & own for c in cells), "own-colour edge contact"
        if own:
            assert any(diagonals(*c) & own for c in cells), "no corner contact"
        else:
            assert state.variant.starts[seat - 1] in cells, "first piece off its start"
        owner.update({c: seat for c in cells})
    board = state.board()
    for (x, y), seat in owner.items():
        assert board[n - 1 - y][x] == seat
    assert sum(v != 0 for row in board for v in row) == len(owner)


@settings(max_examples=25, deadline=None)
@given(VARIANT, st.integers(0, 10**6))
def test_random_games_keep_every_placement_rule(variant, seed):
    g = random_game(variant, seed, undo_rate=0.05, leave_rate=0.01)
    check_with_oracle(g)


@settings(max_examples=25, deadline=None)
@given(VARIANT, st.integers(0, 10**6))
def test_the_fold_of_the_log_equals_the_live_state(variant, seed):
    g = random_game(variant, seed, undo_rate=0.05, leave_rate=0.02)
    again = Game.from_events(g.events)
    assert again.state == g.state
    for seq in range(1, g.seq + 1):
        assert again.state_at(seq) == g.state_at(seq)
    for seq in sorted({1, 2, g.seq // 3, g.seq // 2 + 1, g.seq - 1, g.seq} - {0}, reverse=True):
        # stepping backwards and jumping: each equals the fold of the log up to there
        assert g.state_at(seq) == Game.from_events(g.events[:seq]).state
    assert Game.from_json(g.to_json()).state == g.state


@settings(max_examples=25, deadline=None)
@given(VARIANT, st.integers(0, 10**6), st.integers(1, 3))
def test_undo_restores_the_earlier_state_exactly(variant, seed, count):
    g = random_game(variant, seed)
    state = g.state
    seat = 1
    own = [q for q, s, _ in state.placements if s == seat]
    if len(own) < count:
        return
    event = RULES.undo(state, seat, count=count)
    g.append(event)
    before = g.state_at(event.from_seq - 1)
    assert g.state.same_position_key() == before.same_position_key()
    assert [s.legal_moves(s.to_move) for s in (g.state,) if s.to_move] == [
        s.legal_moves(s.to_move) for s in (before,) if s.to_move
    ]


@settings(max_examples=15, deadline=None)
@given(VARIANT, st.integers(0, 10**6))
def test_the_game_ends_only_when_no_seated_player_can_place(variant, seed):
    g = random_game(variant, seed, leave_rate=0.01)
    state = g.state
    assert state.is_over
    assert not any(state.position.has_moves(s - 1) for s in state.seats if s not in state.left)


@settings(max_examples=30, deadline=None)
@given(VARIANT, st.integers(0, 10**6))
def test_every_generated_move_is_legal_and_each_appears_once(variant, seed):
    rnd = random.Random(seed)
    g = random_game(variant, seed)
    seq = rnd.randint(1, g.seq)
    state = g.state_at(seq)
    for seat in state.seats:
        moves = state.position.legal_moves(seat - 1)
        assert len(moves) == len(set(moves))
        assert all(state.position.is_legal(seat - 1, m) for m in moves)
        narrow = state.position.legal_moves(seat - 1, narrow=True)
        assert sorted(narrow) == sorted(moves)
        brute = [
            m for m in range(state.position.bc.nu_moves) if state.position.is_legal(seat - 1, m)
        ]
        assert sorted(brute) == sorted(moves)


def test_random_move_draws_every_legal_move_about_equally():
    g = random_game("duo", 7)
    state = g.state_at(12)
    pos, color = state.position, state.to_move - 1
    moves = set(pos.legal_moves(color))
    draw = random.Random(1).random
    counts = dict.fromkeys(moves, 0)
    for _ in range(200 * len(moves)):
        counts[pos.random_move(color, draw)] += 1  # a KeyError would mean an illegal move
    assert min(counts.values()) > 200 * 0.6 and max(counts.values()) < 200 * 1.4
    final = g.state
    assert all(final.position.random_move(s - 1, draw) is None for s in final.seats)


def test_a_bounded_small_window_cache_gives_the_same_moves_and_stays_bounded():
    from engine.cornerclaim.position import bound_small_window, move_tables

    tables = move_tables(20, 1)
    saved = tables.cache, tables.old, tables.limit
    try:
        tables.cache, tables.old = {}, {}
        bound_small_window(50)
        for seed in range(3):
            g = random_game("classic", seed)
            for seq in range(1, g.seq + 1, 7):
                pos = g.state_at(seq).position
                for color in range(4):
                    brute = [m for m in range(pos.bc.nu_moves) if pos.is_legal(color, m)]
                    assert sorted(pos.legal_moves(color, narrow=True)) == brute
                    assert pos.has_moves(color) == bool(brute)
                    assert len(tables.cache) <= 50 and len(tables.old) <= 50
        assert tables.old  # the generations did turn over
    finally:
        bound_small_window(None)
        tables.cache, tables.old, _ = saved
