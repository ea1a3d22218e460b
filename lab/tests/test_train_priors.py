"""lab/train_priors.py: game records become training positions, the fit's loss and
gradient, and relabelling positions with an engine's own choices."""

import json
import random
from pathlib import Path

import pytest

from engine.cornerclaim import RULES, new_game
from engine.cornerclaim.ai.features import (
    NAMES,
    NU_FEATURES,
    feature_rows,
    recent_placements,
)
from engine.cornerclaim.ai.mcts import RACE_PLACEMENTS, considered_moves
from engine.cornerclaim.pieces import NU_PIECES
from lab.tests import tool

PENTOBI = Path(__file__).resolve().parents[2] / "tests" / "data" / "pentobi"


def test_game_records_become_training_positions_and_fit(tmp_path):
    """`train_priors.py games` turns a finished record (here Pentobi's) into positions with
    one visit on the move played, and `fit` learns weights from them into the file given."""
    from engine.cornerclaim.sgf import read_sgf
    train = tool("train_priors")
    record = PENTOBI / "classic_L7_g1.blksgf"
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

    train = tool("train_priors")
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
from engine.cornerclaim.gtp import GtpSession


class Session(GtpSession):
    """Answers genmove with the highest-numbered move a search node considers."""

    def _search(self, seat):
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
    train = tool("train_priors")
    root = str(Path(__file__).resolve().parents[2])
    fake = tmp_path / "fake_gtp.py"
    fake.write_text(FAKE_GTP.format(root=root))
    record = PENTOBI / "classic_L7_g1.blksgf"
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
