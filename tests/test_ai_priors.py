"""Learned priors: the search's inline logits equal the weights times the training features,
the stored weights fit the feature list, and a search with them plays legal moves."""

import json
import random
from pathlib import Path

import pytest

from engine.ai import choose_move, features
from engine.ai.features import (
    FEATURE_NAMES,
    NAMES,
    NU_FEATURES,
    feature_rows,
    prior_logits,
    recent_placements,
    weights_for,
)
from engine.ai.mcts import RACE_PLACEMENTS, Search, considered_moves
from engine.cornerclaim import RULES, new_game
from engine.pieces import NU_PIECES
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
    from replays.sgf import read_sgf
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


FAKE_GTP = '''
import sys
sys.path.insert(0, {root!r})
from engine.ai.mcts import RACE_PLACEMENTS, considered_moves
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

    from replays.sgf import read_sgf
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
