"""The playouts of two commits timed side by side in one process, and checked to be the same.

  python scripts/ab_playout.py                 # the working tree against HEAD, classic
  python scripts/ab_playout.py --base HEAD~3 --game duo --rounds 12

This machine's speed drifts by ±25 % between runs (and by more at times), so two runs of
`bench_ai.py --playouts-only`, one per commit, cannot see a change of a few per cent. Here
the playouts' files as they were at `--base` (the kernels, `engine/cornerclaim/ai/playout.py`,
and their Python side, `playing.py` beside it, where the revision has one; before it
everything was in `playout.py`) are loaded as second modules beside the working tree's
(their own compiled code; the rest of the engine is the working tree's, so the base's files
must still fit it), and the two play the same playouts from the same positions in
alternating rounds (A B, then B A, ...). The table gives each side's CPU µs per playout
move (this thread's time) and the median of the per-round ratios work / base, which the
drift moves far less. The last column says whether both played exactly the same playouts
(the same moves and scores for every seed): a change meant only to be faster should say yes.

The positions are those of `bench_ai.py` (a game `plies` placements in, level 2 playing),
the playouts those of level 6's search there (`Level.search_options`: local-first, and on the
20×20 boards the new-corners weight while the mover places its fourth to sixth pieces),
with the last three placements as the recent moves.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_ai import _game  # noqa: E402

from engine.cornerclaim.ai import LEVELS  # noqa: E402
from engine.cornerclaim.ai import playing as work  # noqa: E402
from engine.cornerclaim.ai.features import recent_placements  # noqa: E402

#: Where the kernels' file was, newest first; the Python side is `playing.py` beside it.
PLAYOUT_PATHS = ("engine/cornerclaim/ai/playout.py", "engine/ai/playout.py")
PYTHON_SIDE = "playing.py"
#: The base files' relative imports, made absolute so they load outside the package.
IMPORTS = ((re.compile(r"^from \.\.(\w+) import", re.M), r"from engine.cornerclaim.\1 import"),
           (re.compile(r"^from \.(\w+) import", re.M), r"from engine.cornerclaim.ai.\1 import"))


def _source(rev: str | None, path: str) -> str | None:
    """The text of `path` at git revision `rev` (None: the working tree's), None if absent."""
    if rev is None:
        file = ROOT / path
        return file.read_text() if file.is_file() else None
    shown = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True,
                           text=True)
    return shown.stdout if shown.returncode == 0 else None


def _load(src: str, into: Path, name: str, kernels: str | None = None):
    """`src` as module `name` (in `sys.modules`, so a later file can import it), its
    relative imports absolute, `from .playout import` taken from the module `kernels`,
    and numba's cache off (so its compiled code is never mistaken for the working tree's)."""
    if kernels is not None:
        src = re.sub(r"^from \.playout import", f"from {kernels} import", src, flags=re.M)
    for pattern, absolute in IMPORTS:
        src = pattern.sub(absolute, src)
    src = src.replace("cache=True", "cache=False")
    path = into / f"{name}.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_base(rev: str | None, into: Path, name: str = "playout_base"):
    """The playouts at git revision `rev` (None: the working tree's) as modules of their
    own: the kernels' file as `name`_kernels and, where `rev` has it, the Python side as
    `name`, calling those kernels. Returns the module whose `playout` plays them."""
    for path in PLAYOUT_PATHS:  # where the kernels' file was at `rev`
        kernels_src = _source(rev, path)
        if kernels_src is not None:
            break
    else:
        raise FileNotFoundError(f"no playouts' file at {rev or 'the working tree'}")
    python_src = _source(rev, str(Path(path).with_name(PYTHON_SIDE)))
    if python_src is None:  # everything in one file
        return _load(kernels_src, into, name)
    kernels = _load(kernels_src, into, f"{name}_kernels")
    return _load(python_src, into, name, kernels=kernels.__name__)


def compare(base, variant: str, plies: int, rounds: int, per_round: int) -> dict:
    """Both modules' µs per playout move from the position `plies` placements in, the
    median and spread of the per-round ratios, and whether they played the same (only
    `over` when the game has ended by then)."""
    state = _game(variant, plies, seed=plies + 3).state
    if state.is_over:
        return {"plies": plies, "over": True}
    pos = state.position
    first = (state.to_move or 1) - 1
    recent = recent_placements(state)
    args = LEVELS[6].search_options(pos, first)  # the playout options as level 6 searches
    options = dict(recent=recent, local_mode=args["local"], corners=args["corners"])
    for module in (base, work):  # compile, and fill the window caches
        for seed in range(100):
            module.playout(pos, first, seed, **options)
    spent = {"base": 0.0, "work": 0.0}
    ratios = []
    moves = 0
    same = True
    for r in range(rounds):
        seeds = range(r * per_round, (r + 1) * per_round)
        order = (("base", base), ("work", work)) if r % 2 else (("work", work), ("base", base))
        took = {}
        results = {}
        for name, module in order:
            t0 = time.thread_time()
            results[name] = [module.playout(pos, first, s, **options) for s in seeds]
            took[name] = time.thread_time() - t0
            spent[name] += took[name]
        same = same and results["base"] == results["work"]
        moves += sum(len(m) for played, _ in results["work"] for m in played)
        ratios.append(took["work"] / took["base"])
    return {"plies": plies, "base": spent["base"] / moves * 1e6,
            "work": spent["work"] / moves * 1e6, "median": statistics.median(ratios),
            "min": min(ratios), "max": max(ratios), "same": same}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="HEAD", help="the git revision to compare with")
    ap.add_argument("--game", default="classic", choices=("duo", "trio", "classic"))
    ap.add_argument("--plies", type=int, nargs="+", default=[0, 16, 32, 48],
                    help="placements before each position")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--playouts", type=int, default=150, help="playouts a side a round")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = load_base(args.base, Path(tmp))
        print(f"{args.game}: the playouts of the working tree against {args.base}, "
              f"{args.rounds} rounds of {args.playouts} playouts a side\n")
        print("| placements | base µs/move | work µs/move | work / base (median) | "
              "min–max | same playouts |")
        print("|---:|---:|---:|---:|---|---|")
        for plies in args.plies:
            row = compare(base, args.game, plies, args.rounds, args.playouts)
            if row.get("over"):
                print(f"| {plies} | the game is over | | | | |", flush=True)
                continue
            print(f"| {row['plies']} | {row['base']:.2f} | {row['work']:.2f} | "
                  f"{row['median']:.3f} | {row['min']:.3f}–{row['max']:.3f} | "
                  f"{'yes' if row['same'] else 'NO'} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
