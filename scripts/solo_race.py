"""The solo race's best lines: per Corners variant, iterative-deepening A* within a budget of
positions (a proof of the optimum when it answers) and beam search at each width asked; prints
a table and the line found, replayed through the rules.

    .venv/bin/python scripts/solo_race.py                      # every variant, widths 100 1000
    .venv/bin/python scripts/solo_race.py --variants classic-3x3 --widths 100 2000
    .venv/bin/python scripts/solo_race.py --variants halma-16x16 --widths 300 --ida-nodes 0

The figures in `engine.corners.solo.BEST_KNOWN` (and docs/corners.md) come from this script.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.corners import solo  # noqa: E402
from engine.corners.rules import RULES, start_state  # noqa: E402
from engine.corners.variants import VARIANTS  # noqa: E402


def replay(variant: str, line) -> int:
    """Plays `line` ((from, to) pairs) through the rules' solo race; the moves it took to fill
    the target (AssertionError if the rules refuse a move or the race is not over)."""
    state = start_state(variant, players=("Solo",))
    board = state.variant.board
    for f, t in line:
        state = RULES.apply(state, RULES.play(state, 1, f"{board.name(f)}-{board.name(t)}"))
    assert RULES.outcome(state).reason == "target", RULES.outcome(state)
    return len(state.moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--widths", nargs="*", type=int, default=[100, 1000])
    parser.add_argument("--ida-nodes", type=int, default=200_000,
                        help="IDA*'s budget of positions expanded (0: skip it)")
    parser.add_argument("--lines", action="store_true", help="print each best line")
    args = parser.parse_args()
    print("Moves to fill the target (CPU seconds in brackets):\n")
    print("| variant | lower bound | IDA* | " + " | ".join(f"beam {w}" for w in args.widths)
          + " | best | how |")
    print("| --- " * (5 + len(args.widths)) + "|")
    for name in args.variants:
        variant = VARIANTS[name]
        bound = solo.lower_bound(variant, solo.start(variant), solo.goal(variant))
        cells = [name, str(bound)]
        best: tuple[int, str, list] | None = None
        if not args.ida_nodes:
            cells.append("not run")
        else:
            t = time.process_time()
            line = solo.ida_star(variant, max_nodes=args.ida_nodes)
            took = time.process_time() - t
            if line is None:
                cells.append(f"no answer ({args.ida_nodes:,} positions, {took:.0f} s)")
            else:
                cells.append(f"{len(line)} ({took:.1f} s)")
                best = (len(line), "IDA*, proven optimal", line)
        for width in args.widths:
            t = time.process_time()
            line = solo.beam(variant, width=width)
            took = time.process_time() - t
            cells.append("—" if line is None else f"{len(line)} ({took:.1f} s)")
            if line is not None and (best is None or len(line) < best[0]):
                best = (len(line), f"beam width {width}", line)
        if best is not None:
            assert replay(name, best[2]) == best[0]
            cells += [str(best[0]), best[1]]
        else:
            cells += ["—", ""]
        print("| " + " | ".join(cells) + " |", flush=True)
        if args.lines and best is not None:
            board = variant.board
            print("   ", " ".join(f"{board.name(f)}-{board.name(t)}" for f, t in best[2]))


if __name__ == "__main__":
    main()
