"""Playouts (both policies) play only what the rules allow, the compiled move lists are
the engine's, and the last good replies are stored and played as they say. Tiny budgets:
behaviour, never strength or speed."""

import numpy as np
import pytest

from engine.cornerclaim.ai.features import recent_placements
from engine.cornerclaim.ai.playing import Replies, legal_moves, playout, root_lists
from engine.cornerclaim.ai.tables import move_facts
from tests.test_ai import random_game


def _replay(pos, first: int, played: list[list[int]]) -> None:
    """Play a playout's moves on `pos` in the order the playout made them (round by round
    from `first`; a colour that passed once never moves again), each checked legal."""
    n = pos.nu_colors
    for r in range(max(map(len, played), default=0)):
        for j in range(n):
            c = (first + j) % n
            if r < len(played[c]):
                assert pos.is_legal(c, played[c][r]), (c, r, played[c][r])
                pos.play(c, played[c][r])


@pytest.mark.parametrize("variant", ("duo", "trio", "classic"))
@pytest.mark.parametrize("local", (False, True))
def test_playouts_place_only_legal_pieces(variant, local):
    """Replayed through the engine, every playout move is legal, the scores are the
    engine's, and the game is over at the end (duo may stop once the winner is certain);
    the position the playout started from is left alone."""
    for seed, plies in ((1, 0), (2, 6), (3, 14), (4, 30), (5, 50)):
        game = random_game(variant, plies, seed=seed)
        state = game.state
        if state.is_over:
            continue
        pos = state.position.copy()
        before = pos.key()
        first = state.to_move - 1
        played, scores = playout(pos, first, seed, recent=recent_placements(state),
                                 local_mode=local)
        assert pos.key() == before
        assert any(played)
        _replay(pos, first, played)
        assert scores == [pos.score(c) for c in range(pos.nu_colors)]
        if variant != "duo":
            assert not any(pos.legal_moves(c) for c in range(pos.nu_colors))
        else:
            stuck = [c for c in range(2) if not pos.legal_moves(c)]
            assert stuck  # it ends when a colour is stuck behind, or both are
            if len(stuck) == 1:
                assert pos.squares_placed[stuck[0]] < pos.squares_placed[1 - stuck[0]]


@pytest.mark.parametrize("local", (False, True))
def test_playouts_repeat_for_a_seed_and_vary_across_seeds(local):
    state = random_game("classic", 12, seed=9).state
    pos = state.position
    recent = recent_placements(state)
    runs = [playout(pos, state.to_move - 1, s, recent=recent, local_mode=local)
            for s in (7, 7, 8)]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_dead_colours_never_move_in_a_playout():
    state = random_game("classic", 8, seed=11).state
    pos = state.position.copy()
    played, _ = playout(pos, 0, 3, dead=frozenset({1, 3}), local_mode=True)
    assert not played[1] and not played[3]
    _replay(pos, 0, played)
    assert not pos.legal_moves(0) and not pos.legal_moves(2)


def test_the_window_cache_starts_over_when_half_full(monkeypatch):
    """A long-running process does not grow the candidate cache without bound; playouts
    after the reset still play legal games."""
    import engine.cornerclaim.ai.playing as P

    tables = P.play_tables(20)
    opening = random_game("classic", 0, seed=12).state
    for s in range(5):
        playout(opening.position, 0, s)
    entries = int(tables.window_top[0])
    late = random_game("classic", 40, seed=12).state
    assert not late.is_over
    monkeypatch.setattr(P, "WINDOW_POOL", 2 * int(tables.window_top[1]) - 2)
    played, _ = playout(late.position, late.to_move - 1, 2)  # starts over first
    assert 0 < tables.window_top[0] < entries
    assert (tables.window_index >= 0).sum() == tables.window_top[0]  # no entry of before is left
    pos = late.position.copy()
    _replay(pos, late.to_move - 1, played)


@pytest.mark.parametrize("variant", ("duo", "trio", "classic"))
def test_compiled_move_lists_equal_the_engines(variant):
    """The search's compiled move list is the engine's, in the same order, for every colour
    of random positions, with and without the opening's size filter."""
    for seed, plies in enumerate((0, 2, 7, 15, 25, 40, 60)):
        state = random_game(variant, plies, seed=seed).state
        pos = state.position
        for c in range(pos.nu_colors):
            every = pos.legal_moves(c)
            assert legal_moves(pos, c) == every
            for size in (3, 5):
                assert legal_moves(pos, c, size) == [
                    m for m in every if pos.bc.move_piece[m] in _sizes_at_least(size)]


def _sizes_at_least(size: int) -> set[int]:
    from engine.cornerclaim.pieces import PIECES

    return {p.index for p in PIECES if p.size >= size}


@pytest.mark.parametrize("variant", ("duo", "classic"))
def test_root_lists_hold_exactly_the_legal_moves_and_serve_positions_below(variant):
    """A search's root lists hold each colour's legal moves (by attach point and piece),
    and playouts from positions below the root that start from them stay legal."""
    for seed, plies in enumerate((0, 9, 24, 44)):
        state = random_game(variant, plies, seed=seed).state
        if state.is_over:
            continue
        pos = state.position
        roots = root_lists(pos)
        for c in range(pos.nu_colors):
            listed = {int(roots.moves[roots.offset[c, s] + i])
                      for s in np.flatnonzero(roots.length[c] > 0)
                      for i in range(roots.length[c, s])}
            assert listed == set(pos.legal_moves(c))
        below = pos.copy()
        first = state.to_move - 1
        below.play(first, pos.legal_moves(first)[0])  # one move down the tree
        for local in (False, True):
            played, scores = playout(below, (first + 1) % pos.nu_colors, seed, roots=roots,
                                     local_mode=local)
            after = below.copy()
            _replay(after, (first + 1) % pos.nu_colors, played)
            assert scores == [after.score(c) for c in range(pos.nu_colors)]


def _order(first: int, n: int, played: list[list[int]]) -> list[tuple[int, int]]:
    """A playout's placements as (colour, move) in the order it made them (see `_replay`)."""
    return [((first + j) % n, played[(first + j) % n][r])
            for r in range(max(map(len, played), default=0)) for j in range(n)
            if r < len(played[(first + j) % n])]


@pytest.mark.parametrize("variant", ("duo", "classic"))
@pytest.mark.parametrize("local", (False, True))
def test_playouts_with_stored_replies_stay_legal(variant, local):
    """Replies are only played when legal: with reply tables full of arbitrary moves (legal
    ones among them) every playout move is still legal and the scores are the engine's."""
    rng = np.random.default_rng(3)
    for seed, plies in ((1, 0), (2, 8), (3, 20), (4, 36)):
        state = random_game(variant, plies, seed=seed).state
        if state.is_over:
            continue
        pos = state.position
        replies = Replies(pos.bc.size, pos.nu_colors)
        nm = pos.bc.nu_moves
        replies.to_last[:] = rng.integers(-1, nm, replies.to_last.shape)
        legal = [m for c in range(pos.nu_colors) for m in pos.legal_moves(c)]
        replies.to_last[:, :: 7] = rng.choice(legal, replies.to_last[:, :: 7].shape)
        replies.to_pair[:] = rng.choice(legal, replies.to_pair.shape)
        first = state.to_move - 1
        played, scores = playout(pos, first, seed, recent=recent_placements(state),
                                 local_mode=local, replies=replies)
        after = pos.copy()
        _replay(after, first, played)
        assert scores == [after.score(c) for c in range(pos.nu_colors)]


def test_winners_store_their_replies_and_the_others_forget_them():
    """After a playout every placement of a colour with the best score is stored as its
    reply to the placement before it; every other colour's placements are not (a stored one
    is forgotten), including the simulation's placements before the playout."""
    state = random_game("classic", 12, seed=21).state
    pos = state.position.copy()
    first = state.to_move - 1
    n = pos.nu_colors
    before = list(recent_placements(state))  # the first of these is context only
    replies = Replies(pos.bc.size, n)
    none = pos.bc.nu_moves
    for (_, p), (c, m) in zip(before, before[1:], strict=False):
        replies.to_last[c, p] = m  # to be forgotten by the colours that do not win
    played, scores = playout(pos, first, 5, recent=tuple(before), local_mode=True,
                             replies=replies, before=tuple(before), context=1)
    seq = before + _order(first, n, played)
    best = max(scores)
    assert sum(map(len, played)) > 20
    checked = set()
    for (_, p), (c, m) in zip(seq, seq[1:], strict=False):
        if scores[c] == best:
            assert replies.to_last[c, p] == m
        else:
            assert replies.to_last[c, p] != m
        checked.add(scores[c] == best)
    assert checked == {True, False}
    assert (replies.to_last[:, none] == -1).all()  # the context had a previous placement
    stored = np.flatnonzero(replies.to_last.ravel() >= 0).size
    assert stored == sum(1 for c, _ in seq[1:] if scores[c] == best)


def test_a_search_with_replies_repeats_for_a_seed():
    from engine.cornerclaim.ai.flat import FlatSearch

    state = random_game("classic", 16, seed=4).state
    pos, color = state.position, state.to_move - 1
    recent = recent_placements(state)
    runs = []
    for _ in range(2):
        s = FlatSearch(pos, color, seed=8, recent=recent, local=True, learned=True, lgr=True)
        s.run(150)
        runs.append((s.best_move(), s.root_stats(), int((s.replies.to_last >= 0).sum())))
    assert runs[0] == runs[1]
    assert runs[0][2] > 0


def _new_corners_played(pos, first, played) -> list[int]:
    """Replay a playout and count, for each placement, the corners it opened that its
    colour had not got yet and could still cover (the engine's own view)."""

    attach = move_facts(pos.bc.size).attach
    after = pos.copy()
    opened = []
    n = after.nu_colors
    turns = [list(p) for p in played]
    c = first
    while any(turns):
        if turns[c]:
            m = turns[c].pop(0)
            had = after.corners[c] if after.nu_played[c] else 0
            after.play(c, m)
            opened.append((attach[m] & ~had & ~after.forbidden[c]).bit_count())
        c = (c + 1) % n
    return opened


@pytest.mark.parametrize("size", (14, 20))
def test_no_placement_opens_more_corners_than_the_weight_table_holds(size):
    """The compiled playout indexes `corner_weights` by a placement's new corners without a
    bounds check: no placement on either board has more attach points than the table."""
    from engine.cornerclaim.ai.playout import MAX_NEW_CORNERS

    most = max(a.bit_count() for a in move_facts(size).attach)
    assert 8 <= most <= MAX_NEW_CORNERS


@pytest.mark.parametrize("local", (False, True))
def test_playouts_weighing_new_corners_stay_legal_and_open_more_corners(local):
    """`corners` multiplies a candidate's weight per corner it opens for its colour: the
    playouts stay legal, with the engine's scores, and their placements open more new
    corners than the same playouts without it (Corner Claim's own count of them)."""
    from engine.cornerclaim.ai.playing import corner_weights
    from engine.cornerclaim.ai.playout import MAX_NEW_CORNERS

    assert corner_weights(0).tolist() == [1.0]
    assert corner_weights(2.0).tolist() == [2.0 ** j for j in range(MAX_NEW_CORNERS + 1)]
    more = [0, 0]
    for seed in range(12):
        state = random_game("classic", 8 + 2 * seed, seed=seed).state
        pos = state.position
        first = state.to_move - 1
        recent = recent_placements(state)
        for i, corners in enumerate((0.0, 4.0)):
            played, scores = playout(pos, first, seed, recent=recent, local_mode=local,
                                     corners=corners)
            after = pos.copy()
            _replay(after, first, played)
            assert scores == [after.score(c) for c in range(pos.nu_colors)]
            opened = _new_corners_played(pos, first, played)
            more[i] += sum(opened) / len(opened)
    # Local-first playouts keep the candidate covering the most local points and weigh
    # only ties, so the factor moves them less than it moves the sampled ones.
    assert more[1] > more[0] * (1.02 if local else 1.1)


@pytest.mark.parametrize("variant", ("duo", "trio", "classic"))
@pytest.mark.parametrize("local", (False, True))
def test_a_playout_from_a_packed_root_and_placements_equals_one_from_their_position(
        variant, local):
    """A search packs its root once and hands the playout its tree's placements below it
    (`pack_position`, `after`): the playout is move for move and score for score the one from
    the position those placements lead to, first placements and stuck colours included."""
    from engine.cornerclaim.ai.playing import pack_position

    rng = np.random.default_rng(5)
    for seed, plies in ((1, 0), (2, 3), (3, 10), (4, 24), (5, 40)):
        state = random_game(variant, plies, seed=seed).state
        if state.is_over:
            continue
        root = state.position
        packed = pack_position(root)
        recent = recent_placements(state)
        for extra in range(6):
            pos = root.copy()
            after = []
            c = state.to_move - 1
            for _ in range(extra):  # a few random placements, as a tree path makes
                for _ in range(pos.nu_colors):
                    if pos.legal_moves(c):
                        break
                    c = (c + 1) % pos.nu_colors
                moves = pos.legal_moves(c)
                if not moves:
                    break
                m = moves[int(rng.integers(len(moves)))]
                pos.play(c, m)
                after.append((c, m))
                c = (c + 1) % pos.nu_colors
            hist = tuple((list(recent) + after)[-3:])
            s = seed * 100 + extra
            want = playout(pos, c, s, recent=hist, local_mode=local)
            got = playout(None, c, s, recent=hist, local_mode=local, packed=packed,
                          after=tuple(after))
            assert got == want, (seed, extra)
