"""Where a multi-player match is won or lost: two diagnostics over `scripts/match.py` games.

Both read the .blksgf files a match saved (`gameNNN.blksgf`; engine A sat in seat
NNN mod seats + 1, as `match.py` seats it) and take engines as `match.py` does (a GTP
command line, or `level:N[/option=value…]`).

  # 1. agreement: at every placement, does `--engine` choose the move the record plays?
  #    A table by seat and round, for A's placements and for the other seats' placements,
  #    and one for the learned prior's first choice against the engine's (every placement)
  python lab/diagnose.py agree /tmp/m1/*.blksgf --engine 'pentobi-gtp -g classic -l 6 …'
  # 2. finish: from A's first placement at or after `--from-ply`, finish the game once per
  #    `--engine` in A's seat (the other seats played by `--others`): paired mean ranks and
  #    scores say whether the rounds after that ply are where A loses ground
  python lab/diagnose.py finish /tmp/m1/*.blksgf --from-ply 48 --engine level:6 \
      --engine 'pentobi-gtp … -l 6 …' --others 'pentobi-gtp … -l 5 …'
  # 3. a stretch alone: each --engine plays A's next --moves turns, then --then plays the
  #    rest of A's (a fast, fixed engine), so only those turns differ between the runs
  python lab/diagnose.py finish … --from-ply 12 --moves 3 --then 'pentobi-gtp … -l 6 …'

Agreement is a weak signal on its own (equivalent moves, and engines of one family share
their tie-breaks); `finish` measures what a stretch of the game is worth in rank.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import mean, stdev

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from match import make_engine, rank_of, seat_of_a  # noqa: E402

from engine.cornerclaim import RULES, new_game  # noqa: E402
from engine.cornerclaim.ai import LEVELS  # noqa: E402
from engine.cornerclaim.ai.features import recent_placements, weights_for  # noqa: E402
from engine.cornerclaim.ai.mcts import RACE_PLACEMENTS, considered_moves  # noqa: E402
from engine.cornerclaim.sgf import read_sgf  # noqa: E402
from engine.errors import EngineError  # noqa: E402

#: Rounds (one placement per seat each) grouped as the tables print them.
ROUND_GROUPS = ((1, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 21))


def a_seat(path: str, seats: int) -> int:
    """The seat engine A sat in: `match.py` puts it in seat index mod seats + 1."""
    found = re.search(r"game(\d+)\.blksgf$", path)
    if not found:
        raise SystemExit(f"{path}: not a match.py game file (gameNNN.blksgf)")
    return seat_of_a(int(found.group(1)), seats)


def group_of(ply: int, seats: int) -> str:
    """The printed round group of a ply (passes keep their plies, so ply // seats is the
    round)."""
    rnd = min(ply // seats + 1, ROUND_GROUPS[-1][1])
    lo, hi = next(g for g in ROUND_GROUPS if g[0] <= rnd <= g[1])
    return f"{lo}-{hi}"


# -- agreement ---------------------------------------------------------------------------------

def prior_first(state, seat: int) -> int:
    """The move a level-6 search node puts first (best prior) for `seat`: the learned
    prior over the moves it considers (the opening's big pieces, level 6's race to the
    middle), or the one-ply heuristic on a board without fitted weights."""
    pos, top = state.position, LEVELS[6]
    moves, _ = considered_moves(pos, seat - 1, learned=weights_for(pos) if top.learned else None,
                                race=RACE_PLACEMENTS, recent=recent_placements(state),
                                race_corners=top.race_corners)
    return moves[0]


def _agree_game(job) -> list[dict]:
    """Every placement of one record: the record's move against the engine's there, and
    the prior's first choice against the engine's."""
    path, spec = job
    record = read_sgf(Path(path).read_bytes())
    game = new_game(record.variant)
    seats = game.state.nu_seats
    mine = a_seat(path, seats)
    engine = make_engine(spec, record.variant, 1)
    rows = []
    try:
        for ply, (seat, cells) in enumerate(record.moves):
            if cells is None:
                continue
            engine.set_position(game, record.moves[:ply])
            answer = engine.genmove(game, seat)
            played = RULES.parse_move(game.state, seat, cells)
            try:
                chosen = RULES.parse_move(game.state, seat, answer)
            except EngineError:  # a pass or a move our rules refuse: never agreement
                chosen = None
            rows.append({"ply": ply, "seat": seat, "a": seat == mine,
                         "agree": played == chosen, "size": len(cells.split(",")),
                         "prior_agree": prior_first(game.state, seat) == chosen,
                         "engine_move": answer if chosen is not None else None,
                         "engine_size": len(answer.split(",")) if chosen is not None else 0})
            game.play(seat, cells)
    finally:
        engine.close()
    return rows


def agreement_table(rows: list[dict], seats: int) -> str:
    """Agreement in % (positions) by seat and round group: the record's move with the
    engine's at A's placements and at the others', then the prior's first choice with the
    engine's at every placement."""
    count = defaultdict(lambda: [0, 0])
    for r in rows:
        for who, hit in ((r["a"], r["agree"]), ("prior", r["prior_agree"])):
            c = count[(who, r["seat"], group_of(r["ply"], seats))]
            c[0] += 1
            c[1] += hit
    out = []
    for who, title in ((True, "engine A's placements"), (False, "the other seats' placements"),
                       ("prior", "the prior's first choice (level 6's node order), every "
                                 "placement")):
        out.append(f"{title}: % agreeing with the engine (positions)")
        out.append("rounds " + "".join(f"{'seat ' + str(s):>15}" for s in range(1, seats + 1))
                   + f"{'all':>8}")
        names = [f"{lo}-{hi}" for lo, hi in ROUND_GROUPS]
        for name in (*names, "all"):
            keys = names if name == "all" else [name]
            line, tn, ta = f"{name:7}", 0, 0
            for s in range(1, seats + 1):
                n = sum(count[(who, s, g)][0] for g in keys)
                a = sum(count[(who, s, g)][1] for g in keys)
                tn, ta = tn + n, ta + a
                line += f"{100 * a / n if n else 0:8.1f} ({n:4})"
            out.append(line + f"{100 * ta / tn if tn else 0:8.1f}")
        out.append("")
    return "\n".join(out)


def agree(args) -> int:
    jobs = [(path, args.engine) for path in args.files]
    rows: list[dict] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(_agree_game, jobs):
            rows += part
    seats = new_game(read_sgf(Path(args.files[0]).read_bytes()).variant).state.nu_seats
    if args.out:
        Path(args.out).write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"{len(rows)} placements from {len(args.files)} games\n")
    print(agreement_table(rows, seats))
    return 0


# -- finishing games ---------------------------------------------------------------------------

def _finish_game(job) -> dict | None:
    """From A's first placement at or after `first`, finish the record's game once per
    engine in A's seat; None when A places nothing from there on. With `then`, each engine
    plays only A's next `moves` turns and the engine `then` the rest of A's, so the finish
    measures those turns alone."""
    path, first, specs, others, seed, then, moves = job
    record = read_sgf(Path(path).read_bytes())
    seats = new_game(record.variant).state.nu_seats
    mine = a_seat(path, seats)
    start = next((p for p, (s, c) in enumerate(record.moves)
                  if p >= first and s == mine and c is not None), None)
    if start is None:
        return None
    result = {"game": path, "seat": mine, "ply": start, "runs": []}
    for spec in specs:
        game = new_game(record.variant)
        ours = make_engine(spec, record.variant, seed)
        rest = make_engine(others, record.variant, seed + 500)
        after = make_engine(then, record.variant, seed + 1000) if then else None
        engines = [e for e in (ours, rest, after) if e is not None]
        stretch = []  # A's moves in the turns under test (all of A's without `then`)
        try:
            for s, cells in record.moves[:start]:
                if cells is not None:
                    game.play(s, cells)
            for engine in engines:
                engine.set_position(game, record.moves[:start])
            while not game.state.is_over:
                seat = game.state.to_move
                if seat != mine:
                    engine = rest
                else:
                    engine = after if after is not None and len(stretch) >= moves else ours
                cells = engine.genmove(game, seat)
                game.play(seat, cells)  # a pass or an illegal move is an error here
                if engine is ours:
                    stretch.append(cells)
                for other in engines:
                    if other is not engine:
                        other.played(game, seat, cells)
        finally:
            for engine in engines:
                engine.close()
        scores = list(RULES.outcome(game.state).scores)
        result["runs"].append({"scores": scores, "rank": rank_of(scores, mine - 1),
                               "moves": stretch})
    return result


def _se(values: list[float]) -> float:
    """The standard error of the mean of `values`."""
    return stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")


def finish_summary(results: list[dict], specs: list[str]) -> str:
    """Mean rank and own score per engine in A's seat, and each engine paired against the
    first (mean difference ± its standard error)."""
    n = len(results)
    out = [f"{n} positions (A's first placement at or after the ply), finished once per engine"]
    for i, spec in enumerate(specs):
        ranks = [r["runs"][i]["rank"] for r in results]
        own = [r["runs"][i]["scores"][r["seat"] - 1] for r in results]
        out.append(f"  [{i}] mean rank {mean(ranks):.3f}, own score {mean(own):+.2f}: {spec}")
    for i in range(1, len(specs)):
        d = [r["runs"][i]["rank"] - r["runs"][0]["rank"] for r in results]
        e = [r["runs"][i]["scores"][r["seat"] - 1] - r["runs"][0]["scores"][r["seat"] - 1]
             for r in results]
        out.append(f"  [{i}] − [0]: rank {mean(d):+.3f} ± {_se(d):.3f}, own score "
                   f"{mean(e):+.2f} ± {_se(e):.2f}, rank differs in {sum(x != 0 for x in d)}")
    return "\n".join(out)


def finish(args) -> int:
    jobs = [(path, args.from_ply, args.engine, args.others, args.seed + i, args.then,
             args.moves) for i, path in enumerate(args.files)]
    results = []
    with ProcessPoolExecutor(args.jobs, initializer=_warm) as pool:
        for r in pool.map(_finish_game, jobs):
            if r is not None:
                results.append(r)
                print(f"{r['game']} from ply {r['ply']}: ranks "
                      f"{[run['rank'] for run in r['runs']]}", flush=True)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(r) + "\n" for r in results))
    if not results:
        print("no positions: engine A places nothing at or after that ply")
        return 1
    print(finish_summary(results, args.engine))
    return 0


def _warm() -> None:
    from engine.cornerclaim.ai import warm_up

    warm_up()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("agree", help="does an engine choose the recorded moves? by seat, round")
    a.add_argument("files", nargs="+")
    a.add_argument("--engine", required=True)
    a.add_argument("--jobs", type=int, default=2)
    a.add_argument("--out", help="also write every placement as a JSON line here")
    f = sub.add_parser("finish", help="finish the games from a ply with each engine in A's seat")
    f.add_argument("files", nargs="+")
    f.add_argument("--from-ply", type=int, required=True)
    f.add_argument("--engine", action="append", required=True,
                   help="an engine for A's seat (repeat: the first is the reference)")
    f.add_argument("--others", required=True, help="the engine in every other seat")
    f.add_argument("--then", help="the engine that plays A's turns after the first --moves")
    f.add_argument("--moves", type=int, default=3,
                   help="with --then: A's turns each --engine plays (default 3)")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--jobs", type=int, default=2)
    f.add_argument("--out", help="also write every finished position as a JSON line here")
    args = parser.parse_args(argv)
    return {"agree": agree, "finish": finish}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
