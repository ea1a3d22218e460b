"""Where a match was decided: engine A's mobility against the other colours', by round.

  python scripts/match.py --game classic --a level:6 --b '…' --games 24 --out /tmp/m/x \\
      > /tmp/m/x.out
  python lab/mobility.py /tmp/m/x.out /tmp/m/y.out      # games in /tmp/m/x/, /tmp/m/y/

Reads the game lines of `scripts/match.py` printouts (`game N: A seat S scores [...]`),
replays each game's record (`gameNNN.blksgf` in the directory named like the printout
without `.out`, where `--out` saved it) and, at the start of every other round from the
third, counts each colour's legal moves. A's mobility is its count over the mean of the
other colours'. Prints the mean mobility by round for the games A finished first, second,
third and fourth (a tie counts as the better place), so one can see when the games A loses
start to go wrong: in level 6's games against three Pentobi seats (December 2026) the lost
ones fall behind from about the fifth round (docs/ai.md).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cornerclaim import new_game  # noqa: E402
from engine.cornerclaim.sgf import read_sgf  # noqa: E402

GAME_LINE = re.compile(r"game\s+(\d+): A seat (\d) scores \[([^\]]*)\]")
ROUNDS = (3, 5, 7, 9, 11, 13)


def place(scores: list[int], seat: int) -> int:
    """A's place (1 best) with score `scores[seat - 1]`; a tie counts as the better one."""
    return 1 + sum(s > scores[seat - 1] for s in scores)


def mobility(record_path: Path, seat: int, rounds=ROUNDS) -> dict[int, float]:
    """A's legal moves over the mean of the other colours' at the start of each round in
    `rounds` that the game reached (0 when the others have none either)."""
    record = read_sgf(record_path.read_bytes())
    game = new_game(record.variant)
    n = game.state.position.nu_colors
    out: dict[int, float] = {}
    for ply, (mover, cells) in enumerate([*record.moves, (0, None)]):
        if ply % n == 0 and ply // n in rounds:
            pos = game.state.position
            counts = [len(pos.legal_moves(c)) for c in range(n)]
            others = (sum(counts) - counts[seat - 1]) / (n - 1)
            out[ply // n] = counts[seat - 1] / others if others else 0.0
        if cells is not None:
            game.play(mover, cells)
    return out


def table(printouts: list[Path], rounds=ROUNDS) -> list[str]:
    """The Markdown table: mean mobility by A's place and round, with the game counts."""
    by_place: dict[int, dict[int, list[float]]] = {}
    for printout in printouts:
        games = printout.with_suffix("")
        for m in GAME_LINE.finditer(printout.read_text()):
            index, seat = int(m[1]), int(m[2])
            scores = [int(x) for x in m[3].split(",")]
            found = mobility(games / f"game{index:03d}.blksgf", seat, rounds)
            row = by_place.setdefault(place(scores, seat), {})
            for r, value in found.items():
                row.setdefault(r, []).append(value)
    lines = ["| A's place | games | " + " | ".join(f"round {r}" for r in rounds) + " |",
             "|---|---:|" + "---:|" * len(rounds)]
    for p in sorted(by_place):
        row = by_place[p]
        cells = [f"{sum(v) / len(v):.2f}" if (v := row.get(r)) else "–" for r in rounds]
        games = max((len(v) for v in row.values()), default=0)
        lines.append(f"| {p} | {games} | " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("printouts", nargs="+", type=Path,
                    help="scripts/match.py printouts (NAME.out, games in NAME/)")
    args = ap.parse_args(argv)
    print("\n".join(table(args.printouts)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
