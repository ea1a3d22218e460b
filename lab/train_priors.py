"""Fit level 6's move priors (`engine/cornerclaim/ai/priors.json`) to searches or to game records.

Training positions come from one of two sources, then one fit:

  # 1a. self-play: at every position a search with every root move eligible and no prior
  #     at the root (each move tried once, then UCT-RAVE); record each considered move's
  #     features and its visits (JSON lines, one per position)
  python lab/train_priors.py gen --game duo --games 40 --playouts 1500 --out /tmp/pri.jsonl
  # 1b. or finished games (.blksgf, e.g. a stronger program's self-play saved by
  #     scripts/match.py): each position's considered moves with one visit on the move played
  python lab/train_priors.py games /tmp/games/*.blksgf --out /tmp/pri.jsonl
  # 1c. or the positions of finished games, each labelled by another engine's choice there
  #     (any GTP command, e.g. a stronger program than the one that played the games)
  python lab/train_priors.py relabel /tmp/games/*.blksgf --engine 'CMD' --jobs 2 \
      --out /tmp/pri.jsonl
  # 2. fit a softmax over the features to the visit shares (cross-entropy, L2), and store
  #    the weights under the board's key in engine/cornerclaim/ai/priors.json
  python lab/train_priors.py fit /tmp/pri.jsonl --key duo

`gen --learned` searches with the current learned priors (a second round); by default the
searches use the one-ply heuristic. Openings are varied by drawing the first
`--random-plies` moves in proportion to their visits; later moves are the search's choice.
Fitting is Adam on the full batch in numpy (unvisited moves beyond `--keep` per position are
subsampled and weighted up so the softmax's normaliser stays unbiased; `--keep 0` keeps
them all). `--key "classic opening"` stores weights the first rounds of the big board read
instead of "classic" (`engine.cornerclaim.ai.features.OPENING_ROUNDS`), fitted e.g. on plies 0–23.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from engine.cornerclaim import RULES, new_game  # noqa: E402
from engine.cornerclaim.ai.features import (  # noqa: E402
    FEATURE_NAMES,
    NAMES,
    NU_FEATURES,
    PRIORS_FILE,
    feature_rows,
    recent_placements,
    stored_weights,
)
from engine.cornerclaim.ai.mcts import RACE_PLACEMENTS, considered_moves  # noqa: E402
from engine.cornerclaim.pieces import NU_PIECES  # noqa: E402
from engine.cornerclaim.sgf import read_sgf  # noqa: E402
from engine.errors import EngineError  # noqa: E402
from lab.pysearch import Search  # noqa: E402


def gen(args) -> int:
    with open(args.out, "a") as out:
        rnd = random.Random(args.seed)
        t0 = time.perf_counter()
        positions = 0
        for g in range(args.games):
            game = new_game(args.game)
            ply = 0
            while not game.state.is_over:
                state = game.state
                seat = state.to_move
                color = seat - 1
                pos = state.position
                recent = recent_placements(state)
                search = Search(pos, color, seed=rnd.randrange(1 << 30), recent=recent,
                                local=True, learned=args.learned)
                search.wide_root = True
                root = search.root
                root.n = [0] * len(root.moves)  # no prior at the root: every move tried once
                root.w = [0.0] * len(root.moves)
                root.q = [0.0] * len(root.moves)
                if root.color != color or not root.moves:
                    break
                if len(root.moves) > 1:
                    search.run(args.playouts)
                    visits = root.n[:]
                    out.write(_record(args.game, ply, pos, color, root.moves, visits, recent))
                    positions += 1
                    if ply < args.random_plies:
                        move = rnd.choices(root.moves, [v + 0.01 for v in visits])[0]
                    else:
                        move = search.best_move()
                else:
                    move = root.moves[0]
                game.play(seat, state.move_str(move))
                ply += 1
            out.flush()
            print(f"game {g + 1}/{args.games}: {positions} positions, "
                  f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


def _choices(record, first: int = 0, last: int = 10**9):
    """Walk a finished record: for each placement at plies `first`..`last` where a search
    node considers more than one move, yield (ply, game, seat, considered moves), the game
    standing before that placement; the record's move is played when the walk resumes."""
    game = new_game(record.variant)
    for ply, (seat, cells) in enumerate(record.moves):
        if cells is None:
            continue
        if first <= ply <= last:
            moves, _ = considered_moves(game.state.position, seat - 1, race=RACE_PLACEMENTS)
            if len(moves) > 1:
                yield ply, game, seat, moves
        game.play(seat, cells)


def _labelled(variant: str, ply: int, state, seat: int, moves: list[int], move) -> str | None:
    """The training line with one visit on `move`, or None when a search would not
    consider it."""
    if move not in moves:
        return None
    return _record(variant, ply, state.position, seat - 1, moves,
                   [int(m == move) for m in moves], recent_placements(state))


def games(args) -> int:
    """Positions from finished game records (.blksgf, e.g. a stronger program's self-play):
    each position's considered moves, as a search would see them, with one "visit" on the
    move the record plays there (positions where it plays a move the search would not
    consider are skipped and counted)."""
    positions = skipped = 0
    with open(args.out, "a") as out:
        for path in args.files:
            record = read_sgf(Path(path).read_bytes())
            for ply, game, seat, moves in _choices(record):
                move = RULES.parse_move(game.state, seat, record.moves[ply][1])
                line = _labelled(record.variant, ply, game.state, seat, moves, move)
                if line is None:
                    skipped += 1
                else:
                    out.write(line)
                    positions += 1
    print(f"{positions} positions from {len(args.files)} games; {skipped} skipped (the "
          f"record's move is not among the considered moves)")
    return 0


def _relabel_game(job) -> tuple[list[str], int]:
    """One record's positions (plies `first`..`last`), each with the GTP engine's genmove
    there as the one "visit": (JSON lines, positions skipped)."""
    path, command, first, last = job
    from match import GtpEngine  # scripts/match.py: the same GTP client the matches use
    record = read_sgf(Path(path).read_bytes())
    engine = GtpEngine(command, record.variant)
    lines, skipped = [], 0
    try:
        for ply, game, seat, moves in _choices(record, first, last):
            engine.set_position(game, record.moves[:ply])
            answer = engine.genmove(game, seat)
            try:
                move = RULES.parse_move(game.state, seat, answer)
            except EngineError:  # a pass, a resignation or an illegal move: no label
                move = None
            line = _labelled(record.variant, ply, game.state, seat, moves, move)
            if line is None:
                skipped += 1
            else:
                lines.append(line)
    finally:
        engine.close()
    return lines, skipped


def relabel(args) -> int:
    """Positions from finished game records, each labelled by a GTP engine's own choice
    (`genmove` after replaying the record up to it): the records give the positions (e.g.
    the ones our searches meet in matches), the engine the targets."""
    first, _, last = args.plies.partition("-")
    jobs = [(path, args.engine, int(first or 0), int(last or 10**9)) for path in args.files]
    positions = skipped = 0
    t0 = time.perf_counter()
    with open(args.out, "a") as out, ProcessPoolExecutor(args.jobs) as pool:
        for i, (lines, missed) in enumerate(pool.map(_relabel_game, jobs), 1):
            out.writelines(lines)
            out.flush()
            positions += len(lines)
            skipped += missed
            print(f"{i}/{len(jobs)} games, {positions} positions, {skipped} skipped, "
                  f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


def _record(game: str, ply: int, pos, color: int, moves: list[int], visits: list[int],
            recent: tuple) -> str:
    """One training position as a JSON line: each considered move's visits and features,
    and the mover's share of pieces played."""
    rows = feature_rows(pos, color, moves, recent)
    return json.dumps({"game": game, "ply": ply, "visits": visits,
                       "phase": pos.nu_played[color] / NU_PIECES,
                       "rows": _compact(rows)}) + "\n"


def _compact(rows: list[list[float]]) -> list[list[float]]:
    """Feature rows as stored: the dense features, then the piece's index (the piece ×
    phase column is rebuilt from the record's `phase`)."""
    return [[round(x, 4) for x in r[:len(NAMES)]] + [r.index(1.0, len(NAMES)) - len(NAMES)]
            for r in rows]


def load(paths: list[str], keep: int, seed: int, power: float = 1.0) -> list[tuple]:
    """Positions as (dense rows, piece ids, multiplicities, targets, best, phase): the
    targets are the visit shares raised to `power` (renormalised), `best` the index of the
    most visited move, `phase` the mover's share of pieces played. At most `keep` unvisited
    moves are kept a position (0: all), each weighted up by how many it stands for."""
    rnd = random.Random(seed)
    data = []
    for path in paths:
        for line in open(path):
            rec = json.loads(line)
            visits = [v ** power if v > 0 else 0.0 for v in rec["visits"]]
            total = sum(visits)
            if total <= 0:
                continue
            rows = rec["rows"]
            seen = [i for i, v in enumerate(visits) if v > 0]
            unseen = [i for i, v in enumerate(visits) if v <= 0]
            mult = 1.0
            if keep and len(unseen) > keep:
                mult = len(unseen) / keep
                unseen = rnd.sample(unseen, keep)
            idx = seen + unseen
            dense = [rows[i][:-1] for i in idx]
            piece = [rows[i][-1] for i in idx]
            mul = [1.0] * len(seen) + [mult] * len(unseen)
            target = [visits[i] / total for i in seen] + [0.0] * len(unseen)
            best = max(range(len(seen)), key=lambda i: visits[seen[i]])
            data.append((dense, piece, mul, target, best, rec["phase"]))
    return data


class Batch:
    """Positions stacked for numpy: one full feature row a kept move (the dense features,
    the piece's indicator, the piece × phase column), its multiplicity and target, and
    where each position's moves start."""

    def __init__(self, data: list[tuple]):
        nd = len(NAMES)
        sizes = [len(d[0]) for d in data]
        self.n = len(data)
        self.starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        self.group = np.repeat(np.arange(self.n), sizes)
        rows = np.zeros((sum(sizes), NU_FEATURES))
        at = 0
        for dense, piece, _, _, _, phase in data:
            k = len(dense)
            rows[at:at + k, :nd] = dense
            span = np.arange(at, at + k)
            rows[span, nd + np.asarray(piece)] = 1.0
            rows[span, nd + NU_PIECES + np.asarray(piece)] = phase
            at += k
        self.x = rows
        self.mul = np.concatenate([d[2] for d in data])
        self.target = np.concatenate([d[3] for d in data])
        self.best = self.starts + np.array([d[4] for d in data], dtype=np.int64)


def loss_grad(w, batch: Batch, l2: float) -> tuple[float, np.ndarray]:
    """The mean cross-entropy of the softmax over each position's kept moves (the unvisited
    ones weighted by their multiplicity in the normaliser) plus L2, and its gradient."""
    w = np.asarray(w, dtype=float)
    z = batch.x @ w
    top = np.maximum.reduceat(z, batch.starts)
    e = batch.mul * np.exp(z - top[batch.group])
    zsum = np.add.reduceat(e, batch.starts)
    log_z = top + np.log(zsum)
    loss = -float(np.sum(batch.target * (z - log_z[batch.group]))) / batch.n
    g = e / zsum[batch.group] - batch.target
    grad = batch.x.T @ g / batch.n + l2 * w
    return loss + 0.5 * l2 * float(w @ w), grad


def heuristic_weights() -> list[float]:
    """`heuristic.score_moves` in these features (the single's penalty as if early)."""
    from engine.cornerclaim.ai import heuristic as h
    from engine.cornerclaim.pieces import PIECES, SINGLE

    w = [0.0] * NU_FEATURES
    w[NAMES.index("new_corners")] = h.W_NEW_CORNER
    w[NAMES.index("opp_attach")] = h.W_BLOCK
    w[NAMES.index("centre")] = -h.W_CENTRE
    for p, piece in enumerate(PIECES):
        w[len(NAMES) + p] = h.W_SIZE * piece.size - (h.W_EARLY_SINGLE if p == SINGLE else 0)
    return w


def agreement(w, batch: Batch) -> tuple[float, float]:
    """Share of positions where the top-scored move is the most visited, and the mean rank
    (0 = top) of the most visited move among the kept moves."""
    z = batch.x @ np.asarray(w, dtype=float)
    above = np.add.reduceat((z > z[batch.best][batch.group]).astype(np.int64), batch.starts)
    return float(np.mean(above == 0)), float(np.mean(above))


def fit(args) -> int:
    data = load(args.files, args.keep, args.seed, args.power)
    rnd = random.Random(args.seed)
    rnd.shuffle(data)
    if args.val:  # held out: the positions given, every considered move kept
        val = load(args.val, 0, args.seed, args.power)
        train = data
    else:
        n_val = len(data) // 10
        val, train = data[:n_val], data[n_val:]
    print(f"{len(train)} training positions, {len(val)} held out", flush=True)
    train, val = Batch(train), Batch(val)
    hw = heuristic_weights()
    w = np.array([x * args.init_scale for x in hw] if args.init_scale else [0.0] * NU_FEATURES)
    m = np.zeros(NU_FEATURES)
    v = np.zeros(NU_FEATURES)
    b1, b2, lr = 0.9, 0.999, args.lr
    for step in range(1, args.steps + 1):
        loss, g = loss_grad(w, train, args.l2)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w -= lr * (m / (1 - b1 ** step)) / (np.sqrt(v / (1 - b2 ** step)) + 1e-8)
        if step % 20 == 0 or step == args.steps:
            vl, _ = loss_grad(w, val, 0.0)
            print(f"step {step}: train {loss:.4f}, held out {vl:.4f}", flush=True)
    baseline = loss_grad([0.0] * NU_FEATURES, val, 0.0)[0]
    print(f"held-out cross-entropy: uniform {baseline:.4f}, fitted "
          f"{loss_grad(w, val, 0.0)[0]:.4f}")
    target = Path(args.priors)
    priors = json.loads(target.read_text()) if target.exists() else {}
    rivals = {"heuristic": hw}
    for key in dict.fromkeys((args.key, args.key.split()[0])):
        if key in priors:  # the weights this fit would replace, and the board's own
            rivals[f"stored {key!r}"] = stored_weights(priors[key], f"{target} [{key}]")
    print("held-out top-1 agreement and mean rank of the most visited move (among the kept "
          "moves):")
    for name, rw in [*rivals.items(), ("fitted", w)]:
        top1, rank = agreement(rw, val)
        print(f"  {name:20s} {top1:.3f} / {rank:.2f}")
    names = list(FEATURE_NAMES)
    for name, x in zip(names, w, strict=True):
        print(f"  {name:16s} {x:+.3f}")
    priors[args.key] = {
        "features": names,
        "weights": [round(float(x), 4) for x in w],
        "source": args.source or f"{len(data)} positions of our own self-play searches",
    }
    target.write_text(json.dumps(priors, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.key} to {target}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen", help="self-play searches to a JSON-lines file")
    g.add_argument("--game", default="duo")
    g.add_argument("--games", type=int, default=20)
    g.add_argument("--playouts", type=int, default=1500)
    g.add_argument("--random-plies", type=int, default=4)
    g.add_argument("--learned", action="store_true", help="search with the learned priors")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", required=True)
    r = sub.add_parser("games", help="positions from game records (.blksgf) to JSON lines")
    r.add_argument("files", nargs="+")
    r.add_argument("--out", required=True)
    e = sub.add_parser("relabel", help="positions from game records, labelled by a GTP engine")
    e.add_argument("files", nargs="+")
    e.add_argument("--engine", required=True, help="GTP command line (Pentobi's dialect)")
    e.add_argument("--plies", default="0-", help="which plies to label, e.g. 0-47")
    e.add_argument("--jobs", type=int, default=2)
    e.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the weights and write engine/cornerclaim/ai/priors.json")
    f.add_argument("files", nargs="+")
    f.add_argument("--key", default="duo",
                   help='duo (14×14), classic (20×20) or "classic opening" (its first rounds)')
    f.add_argument("--steps", type=int, default=200)
    f.add_argument("--lr", type=float, default=0.05)
    f.add_argument("--l2", type=float, default=1e-4)
    f.add_argument("--keep", type=int, default=40,
                   help="unvisited moves kept per position (0: all)")
    f.add_argument("--val", nargs="+", default=[],
                   help="held-out positions (JSON lines, all moves kept); "
                        "default: a random tenth of the training files")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--power", type=float, default=1.0, help="targets ∝ visits ** power")
    f.add_argument("--init-scale", type=float, default=0.0,
                   help="start from the heuristic's weights times this (0: from zero)")
    f.add_argument("--source", default="", help="how the data was made (stored with it)")
    f.add_argument("--priors", default=str(PRIORS_FILE), help="the weights file to update")
    args = ap.parse_args(argv)
    return {"gen": gen, "games": games, "relabel": relabel, "fit": fit}[args.cmd](args)


if __name__ == "__main__":
    raise SystemExit(main())
