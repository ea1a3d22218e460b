"""Learned priors: the search's inline logits equal the weights times the training features,
the stored weights fit the feature list, and a search with them plays legal moves."""

import json
import random
from pathlib import Path

import pytest

from engine.cornerclaim import RULES, new_game
from engine.cornerclaim.ai import choose_move, features
from engine.cornerclaim.ai.features import (
    FEATURE_NAMES,
    NAMES,
    NU_FEATURES,
    feature_rows,
    prior_logits,
    recent_placements,
    weights_for,
)
from engine.cornerclaim.ai.mcts import RACE_PLACEMENTS, Search, considered_moves
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
        search = Search(state.position, seat - 1, seed=seed, learned=True, local=True)
        search.run(40)
        assert search.best_move() in state.legal_moves(seat)
        move = choose_move(state, seat, level=6, seed=seed, playouts=30, learned=True,
                           book=False, reuse=False)
        assert move in state.legal_moves(seat)


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
    moves = {choose_move(state, seat, level=6, seed=5, playouts=120, puct_c=0.3, book=False,
                         reuse=False) for _ in range(2)}
    assert len(moves) == 1 and moves <= set(state.legal_moves(seat))  # same seed, same move
    # Off (the default), or without learned priors, no node keeps a prior.
    plain = Search(state.position, seat - 1, seed=3, learned=True, local=True)
    heuristic = Search(state.position, seat - 1, seed=3, learned=False, puct_c=0.3)
    assert plain.root.p is None and heuristic.root.p is None


def test_game_records_become_training_positions_and_fit(tmp_path):
    """`train_priors.py games` turns a finished record (here Pentobi's) into positions with
    one visit on the move played, and `fit` learns weights from them into the file given."""
    from engine.cornerclaim.sgf import read_sgf
    from tests.test_load import script

    train = script("train_priors")
    record = Path(__file__).parent / "data" / "pentobi" / "classic_L7_g1.blksgf"
    out = tmp_path / "pos.jsonl"
    assert train.main(["games", str(record), "--out", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    placements = [m for m in read_sgf(record.read_bytes()).moves if m[1] is not None]
    assert 40 < len(lines) <= len(placements)
    game = new_game("classic")
    by_ply = {rec["ply"]: rec for rec in lines}
    for ply, (seat, cells) in enumerate(read_sgf(record.read_bytes()).moves):
        if cells is None:
            continue
        rec = by_ply.get(ply)
        if rec is not None:
            state = game.state
            assert sum(rec["visits"]) == 1 and len(rec["visits"]) == len(rec["rows"]) > 1
            moves, _ = considered_moves(state.position, seat - 1, race=RACE_PLACEMENTS)
            played = moves[rec["visits"].index(1)]
            assert played == RULES.parse_move(state, seat, cells)  # the record's own move
            recent = recent_placements(state)
            row = feature_rows(state.position, seat - 1, [played], recent)[0]
            stored = rec["rows"][rec["visits"].index(1)]
            assert stored[-1] == row.index(1.0, len(NAMES)) - len(NAMES)  # its piece
            assert stored[:-1] == pytest.approx(row[:len(NAMES)], abs=1e-4)
        game.play(seat, cells)
    priors = tmp_path / "priors.json"
    assert train.main(["fit", str(out), "--key", "classic", "--steps", "30",
                       "--priors", str(priors)]) == 0
    entry = json.loads(priors.read_text())["classic"]
    assert len(entry["weights"]) == NU_FEATURES and any(entry["weights"])
    # Every considered move kept, held out on given positions, stored under the opening key
    # beside the board's own weights.
    assert train.main(["fit", str(out), "--key", "classic opening", "--steps", "10",
                       "--keep", "0", "--val", str(out), "--priors", str(priors)]) == 0
    stored = json.loads(priors.read_text())
    assert set(stored) == {"classic", "classic opening"}
    assert any(stored["classic opening"]["weights"])


def test_the_fit_loss_is_the_softmax_cross_entropy_and_its_gradient():
    # Two positions by hand: the batched loss equals the per-position softmax cross-entropy
    # (an unvisited move standing for `mult` moves counts `mult` times in the normaliser),
    # and its gradient matches finite differences.
    import math

    import numpy as np

    from tests.test_load import script

    train = script("train_priors")
    rnd = random.Random(5)
    nd = len(NAMES)
    data = []
    for k, mult in ((3, 1.0), (5, 2.5)):
        dense = [[rnd.uniform(0, 3) for _ in range(nd)] for _ in range(k)]
        piece = [rnd.randrange(NU_PIECES) for _ in range(k)]
        data.append((dense, piece, [1.0] + [mult] * (k - 1), [1.0] + [0.0] * (k - 1), 0, 0.4))
    w = np.array([rnd.uniform(-0.3, 0.3) for _ in range(NU_FEATURES)])
    batch = train.Batch(data)
    loss, grad = train.loss_grad(w, batch, 0.0)
    expected = 0.0
    ranks = []
    for dense, piece, mul, _, _, phase in data:
        zs = [float(np.dot(w[:nd], row)) + w[nd + p] + phase * w[nd + NU_PIECES + p]
              for row, p in zip(dense, piece, strict=True)]
        expected -= zs[0] - math.log(sum(m * math.exp(z) for m, z in zip(mul, zs, strict=True)))
        ranks.append(sum(z > zs[0] for z in zs))
    assert loss == pytest.approx(expected / 2)
    top1, mean_rank = train.agreement(w, batch)
    assert (top1, mean_rank) == (sum(r == 0 for r in ranks) / 2, pytest.approx(sum(ranks) / 2))
    for j in (0, nd - 1, nd + data[0][1][0], nd + NU_PIECES + data[1][1][2]):
        step = np.zeros(NU_FEATURES)
        step[j] = 1e-6
        numeric = (train.loss_grad(w + step, batch, 0.0)[0]
                   - train.loss_grad(w - step, batch, 0.0)[0]) / 2e-6
        assert grad[j] == pytest.approx(numeric, rel=1e-4, abs=1e-7)


FAKE_GTP = '''
import sys
sys.path.insert(0, {root!r})
from engine.cornerclaim.ai.mcts import RACE_PLACEMENTS, considered_moves
from server.gtp import GtpSession


class Session(GtpSession):
    """Answers genmove with the highest-numbered move a search node considers."""

    def _computer_move(self, seat):
        state = self._state(seat)
        moves, _ = considered_moves(state.position, seat - 1, race=RACE_PLACEMENTS)
        return max(moves)


session = Session("classic")
for line in sys.stdin:
    sys.stdout.write(session.handle(line))
    sys.stdout.flush()
    if session.quit:
        break
'''


def test_relabel_puts_the_engines_own_choice_on_each_position(tmp_path):
    """`train_priors.py relabel` replays a record to each ply asked for and records the GTP
    engine's genmove there as the one visit (here a fake engine whose choice is known)."""
    import sys

    from engine.cornerclaim.sgf import read_sgf
    from tests.test_load import script

    train = script("train_priors")
    root = str(Path(__file__).resolve().parent.parent)
    fake = tmp_path / "fake_gtp.py"
    fake.write_text(FAKE_GTP.format(root=root))
    record = Path(__file__).parent / "data" / "pentobi" / "classic_L7_g1.blksgf"
    out = tmp_path / "pos.jsonl"
    assert train.main(["relabel", str(record), "--engine", f"{sys.executable} {fake}",
                       "--plies", "8-20", "--jobs", "1", "--out", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [rec["ply"] for rec in lines] == list(range(8, 21))
    game = new_game("classic")
    by_ply = {rec["ply"]: rec for rec in lines}
    for ply, (seat, cells) in enumerate(read_sgf(record.read_bytes()).moves):
        if ply in by_ply:
            rec = by_ply[ply]
            moves, _ = considered_moves(game.state.position, seat - 1, race=RACE_PLACEMENTS)
            assert len(rec["visits"]) == len(moves) and sum(rec["visits"]) == 1
            assert moves[rec["visits"].index(1)] == max(moves)  # the engine's, not the record's
        game.play(seat, cells)
