"""Learned priors: the search's inline logits equal the weights times the training features,
the stored weights fit the feature list, and a search with them plays legal moves.
(The training script's own tests are in lab/tests/test_train_priors.py.)"""

import json
import random

import pytest

from engine.cornerclaim import new_game
from engine.cornerclaim.ai import features, search_move
from engine.cornerclaim.ai.features import (
    FEATURE_NAMES,
    NAMES,
    NU_FEATURES,
    feature_rows,
    prior_logits,
    recent_placements,
    weights_for,
)
from engine.cornerclaim.ai.flat import FlatSearch
from engine.cornerclaim.pieces import NU_PIECES
from tests.test_ai import random_game


@pytest.mark.parametrize("variant", ("duo", "trio", "classic"))
def test_inline_logits_are_the_weighted_features(variant):
    rnd = random.Random(3)
    w = tuple(rnd.uniform(-1, 1) for _ in range(NU_FEATURES))
    locals_seen = 0  # moves covering an attach point an opponent's recent move opened
    for seed, plies in ((1, 0), (2, 5), (3, 12), (4, 25), (5, 18), (6, 30)):
        state = random_game(variant, plies, seed=seed).state
        if state.is_over:
            continue
        color = state.to_move - 1
        pos = state.position
        moves = pos.legal_moves(color)
        recent = recent_placements(state)
        rows = feature_rows(pos, color, moves, recent)
        assert all(len(r) == NU_FEATURES for r in rows)
        locals_seen += sum(r[NAMES.index("local")] for r in rows)
        phase = pos.nu_played[color] / NU_PIECES
        nd = len(NAMES)
        for r in rows:  # one piece indicator each, and the same piece's phase column
            piece = r.index(1.0, nd)
            assert sum(r[nd:nd + NU_PIECES]) == 1
            assert r[nd + NU_PIECES:] == [phase if i == piece - nd else 0.0
                                          for i in range(NU_PIECES)]
        for z, r in zip(prior_logits(pos, color, moves, w, recent), rows, strict=True):
            assert z == pytest.approx(sum(a * b for a, b in zip(w, r, strict=True)))
    assert locals_seen > 0


@pytest.mark.parametrize("variant", ("duo", "trio", "classic"))
def test_stored_weights_match_the_features(variant):
    # Both board sizes ship weights (trio plays on the classic board and shares them).
    state = random_game(variant, 4, seed=1).state
    w = weights_for(state.position)
    assert w is not None and len(w) == NU_FEATURES == len(NAMES) + 2 * NU_PIECES


def test_weights_are_read_by_feature_name(tmp_path, monkeypatch):
    # A weights file fitted before a feature existed still loads: that feature counts 0 and
    # every other weight keeps its meaning; a name the code no longer knows is an error.
    names = list(NAMES[:3]) + ["piece X"]
    path = tmp_path / "priors.json"
    path.write_text(json.dumps({"duo": {"features": names, "weights": [0.5, -1.0, 2.0, 3.0]}}))
    monkeypatch.setattr(features, "PRIORS_FILE", path)
    features._all_weights.cache_clear()
    try:
        w = features._all_weights()["duo"]
        assert len(w) == NU_FEATURES
        assert w[:3] == (0.5, -1.0, 2.0) and not any(w[3:len(NAMES)])
        assert w[FEATURE_NAMES.index("piece X")] == 3.0
        assert sum(w) == pytest.approx(4.5)
        path.write_text(json.dumps({"duo": {"features": ["wingspan"], "weights": [1.0]}}))
        features._all_weights.cache_clear()
        with pytest.raises(ValueError, match="wingspan"):
            features._all_weights()
    finally:
        features._all_weights.cache_clear()


@pytest.mark.parametrize("variant, colors", (("classic", 4), ("trio", 3)))
def test_opening_weights_serve_the_first_rounds_only(tmp_path, monkeypatch, variant, colors):
    # A "classic opening" entry serves the first OPENING_ROUNDS rounds of every colour on
    # the big board; from the next placement on, the board's own weights; duo has neither.
    path = tmp_path / "priors.json"
    path.write_text(json.dumps({
        "classic": {"features": [NAMES[0]], "weights": [1.0]},
        "classic opening": {"features": [NAMES[0]], "weights": [2.0]},
    }))
    monkeypatch.setattr(features, "PRIORS_FILE", path)
    features._all_weights.cache_clear()
    try:
        last_opening = features.OPENING_ROUNDS * colors - 1
        for plies, expected in ((0, 2.0), (last_opening, 2.0), (last_opening + 1, 1.0)):
            pos = random_game(variant, plies, seed=4).state.position
            assert sum(pos.nu_played) == plies
            assert weights_for(pos)[0] == expected
        assert weights_for(new_game("duo").state.position) is None
    finally:
        features._all_weights.cache_clear()


@pytest.mark.parametrize("variant", ("duo", "classic"))
def test_a_search_with_learned_priors_plays_legal_moves(variant):
    for seed in (1, 2):
        state = random_game(variant, 6 + 4 * seed, seed=seed).state
        seat = state.to_move
        search = FlatSearch(state.position, seat - 1, seed=seed, learned=True, local=True)
        search.run(40)
        assert search.best_move() in state.legal_moves(seat)
        move = search_move(state, seat, level=6, seed=seed, playouts=30, book=False,
                           reuse=False)
        assert move in state.legal_moves(seat)
