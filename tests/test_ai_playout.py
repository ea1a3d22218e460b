"""Playouts (both policies) play only what the rules allow, and level 6's richer priors
score the way they say. Tiny budgets: behaviour, never strength or speed."""

import random

import pytest

from engine.ai.features import recent_placements
from engine.ai.heuristic import score_moves
from engine.ai.playout import playout
from engine.ai.tables import move_facts
from tests.test_ai import random_game


@pytest.mark.parametrize("variant", ("duo", "trio", "classic"))
@pytest.mark.parametrize("local", (False, True))
def test_playouts_place_only_legal_pieces(variant, local):
    """Every colour's playout moves are disjoint from everything else on the board, never
    edge-touch its own pieces, use each piece once, and end with no legal move left."""
    for seed, plies in ((1, 0), (2, 6), (3, 14), (4, 30)):
        game = random_game(variant, plies, seed=seed)
        state = game.state
        if state.is_over:
            continue
        pos = state.position.copy()
        bc = pos.bc
        facts = move_facts(bc.size)
        before = [pos.occupied[c] for c in range(pos.nu_colors)]
        recent = recent_placements(state)
        played = playout(pos, state.to_move - 1, random.Random(seed).random, facts,
                         recent=recent, local_mode=local)
        taken = 0
        for c in before:
            taken |= c
        for c, moves in enumerate(played):
            own = before[c]
            pieces = set()
            for m in moves:
                cells = bc.move_cells_mask[m]
                assert not cells & taken
                assert not facts.adj[m] & own
                assert bc.move_piece[m] not in pieces
                pieces.add(bc.move_piece[m])
                taken |= cells
                own |= cells
        if variant != "duo":  # duo stops once the winner is certain
            assert not any(pos.legal_moves(c) for c in range(pos.nu_colors))


def test_rich_priors_penalise_wasting_own_corners():
    """The rich score differs from the plain one exactly by its two documented terms."""
    from engine.ai.heuristic import W_OPP_NEAR, W_OWN_LOST, opponents_attach

    state = random_game("duo", 10, seed=5).state
    pos = state.position
    color = state.to_move - 1
    moves = pos.legal_moves(color)
    plain = score_moves(pos, color, moves)
    rich = score_moves(pos, color, moves, rich=True)
    facts = move_facts(pos.bc.size)
    own = pos.attach_points(color)
    near = pos.bc.edge_neighbours(opponents_attach(pos, color)) & ~pos.forbidden[color]
    for m, p, r in zip(moves, plain, rich, strict=True):
        cells = pos.bc.move_cells_mask[m]
        lost = max(0, ((cells | facts.adj[m]) & own).bit_count() - 1)
        assert r == pytest.approx(p - W_OWN_LOST * lost
                                  + W_OPP_NEAR * (cells & near).bit_count())
