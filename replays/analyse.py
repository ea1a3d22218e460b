"""`cornerclaim analyse RECORD [--level N] [--seed N] [--json]`: the computer's review of a
game record, as a table on the terminal (or, with `--json`, the JSON body the host answers
`GET /api/games/{id}/analysis` with, once the analysis is done): each move with the engine's
best move there, the values before and after from the mover's side (a win chance, or points
in the marble game), the loss and its label, then each seat's count of labels. The record is
any game's JSON log or one of a game's own formats (.blksgf, .cgn), read as `cornerclaim
replay show` reads it. The same review as the host's (`engine.analysis`), in this process.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

#: The labels a seat's count names, worst first (a best or good move is not counted).
COUNTED = ("blunder", "mistake", "inaccuracy")
PLURAL = {"inaccuracy": "inaccuracies"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", type=Path,
                        help="a game record: a JSON log, .blksgf, .cgn …")
    parser.add_argument("--level", type=int, default=None,
                        help="review at this computer level (default: the game's own "
                             "analysis, its strongest search)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the searches' random draws (default 0, as the host's)")
    parser.add_argument("--json", action="store_true",
                        help="print the analysis as the host's API answers it")


def run(args: argparse.Namespace) -> int:
    from engine.capabilities import Analysis, capability
    from engine.errors import EngineError, LogError
    from replays import read_record

    try:
        game = read_record(args.record.read_bytes())
    except OSError as e:
        print(f"cannot read {args.record}: {e.strerror}", file=sys.stderr)
        return 2
    except (LogError, EngineError) as e:
        print(f"{args.record}: {e.message}", file=sys.stderr)
        return 2
    analyst = capability(game.rules, Analysis)
    if analyst is None:
        print(f"{game.rules.title} has no computer analysis", file=sys.stderr)
        return 2
    try:
        if args.json:
            print(json.dumps(json_body(game, analyst, args.record.stem, args.level, args.seed),
                             indent=1))
            return 0
        for line in table_lines(game, analyst, args.level, args.seed):
            print(line, flush=True)
    except EngineError as e:
        print(f"{args.record}: {e.message}", file=sys.stderr)
        return 2
    return 0


def seat_names(game) -> dict[int, str]:
    created = game.events[0]
    spec = game.rules.variants.get(created.variant)
    colours = tuple(spec.colours) if spec is not None else ()
    names = {}
    for seat in range(1, max(len(colours), len(created.players)) + 1):
        colour = colours[seat - 1].capitalize() if seat <= len(colours) else f"Seat {seat}"
        player = created.players[seat - 1] if seat <= len(created.players) else ""
        names[seat] = f"{player} ({colour})" if player and player != colour else colour
    return names


def json_body(game, analyst, game_id: str, level: int | None, seed: int = 0) -> dict:
    """The whole review as the host's API answers it for a done analysis (`game_id`: the
    record's name; a record carries no host's id)."""
    from engine.analysis import body, end_value, review

    thresholds = analyst.analysis_thresholds
    plies = list(review(game, analyst, thresholds, level=level, seed=seed))
    return body(game_id, "done", 1.0, thresholds.unit, level,
                end_value(game, thresholds.unit), plies)


def table_lines(game, analyst, level: int | None, seed: int = 0):
    """The review's lines, one per move as it is reviewed, then the counts."""
    from engine.analysis import counts, review

    thresholds = analyst.analysis_thresholds
    unit = "win chance" if thresholds.unit == "win" else "points"
    names = seat_names(game)
    created = game.events[0]
    yield (f"{game.rules.title} ({created.variant}): the computer's review, values for the "
           f"mover in {unit}" + (f", level {level}" if level is not None else ""))
    width = max(12, *(len(n) for n in names.values()))
    yield (f"{'#':>3} {'seq':>4}  {'seat':<{width}}  {'move':<18} {'best':<18} "
           f"{'before':>7} {'after':>7} {'loss':>6}  label")
    plies = []
    number = (lambda v: f"{v:7.2f}") if thresholds.unit == "win" else (lambda v: f"{v:7.1f}")
    for p in review(game, analyst, thresholds, level=level, seed=seed):
        plies.append(p)
        yield (f"{p.ply:>3} {p.seq:>4}  {names.get(p.seat, p.seat):<{width}}  "
               f"{_cut(p.move):<18} {_cut(p.best or '-'):<18} {number(p.value_before)} "
               f"{number(p.value_after)} {number(p.loss)[1:]}  {p.label}")
    for seat, got in counts(plies, sorted(names)).items():
        said = [f"{got[k]} {PLURAL.get(k, k + 's') if got[k] != 1 else k}"
                for k in COUNTED if got[k]]
        yield f"{names.get(seat, seat)}: {', '.join(said) if said else 'no mistakes'}"


def _cut(text: str, width: int = 18) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"
