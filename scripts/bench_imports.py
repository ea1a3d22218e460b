"""What importing a record costs the host: for the longest legal game of every variant (in its
game's own format: `.blksgf`, `.cgn`; Corner's JSON log), and for refused over-long and
hostile files, the import's answer and time, the replay answer's size and time, and the
host's peak memory.

Each record goes to a fresh `cornerclaim serve` on loopback (scripts/loadtest.py's
`HostProcess`), so the peak (`VmHWM` of /proc/<pid>/status) is that record's alone; the
first row is an idle host's peak, the floor every other row starts from. The games are those
of scripts/bench_replay.py (played out to the variant's limit where the rules allow).

    python scripts/bench_imports.py [--seed 1] [--only corners]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Game  # noqa: E402
from scripts.bench_replay import games  # noqa: E402
from scripts.loadtest import HostProcess  # noqa: E402


def record_of(game: Game) -> tuple[str, bytes]:
    """The game in its own format (Corner's: our JSON log)."""
    rules = game.rules
    if rules.game == "cornerclaim":
        from engine.cornerclaim.sgf import game_to_sgf

        return "blksgf", game_to_sgf(game).encode()
    if rules.game == "corners":
        from engine.corners.record import write_record

        return "cgn", write_record(game).encode()
    return "json", game.to_json().encode()


def hostile() -> list[tuple[str, str, bytes]]:
    """Files no legal game makes, each just under the import limit (256 KiB), and one legal
    log as long as that limit allows (a move and its takeback, over and over)."""
    solo = '[Variant "classic-3x3"]\n[Mode "solo"]\n[Result "*"]\n\n' + "c3-d3 d3-c3 " * 21_500
    passes = "(;GM[Blokus]" + ";1[]" * 64_000 + ")"
    game = Game.new("marbles", "2p", ("A", "B"), {"rounds": 1})
    events = json.loads(game.to_json())
    events["events"] += [{"type": "marbles_moved", "seq": seq, "seat": 1, "move": "c1"}
                         for seq in range(2, 3500)]
    deep = '{"format": "cornerclaim-log", "version": 1, "events": ' + "[" * 120_000 \
        + "]" * 120_000 + "}"
    takebacks = Game.new("cornerclaim", "duo", ("A", "B"))
    while len(takebacks.to_json()) < 250_000:
        takebacks.play(1, "e10")
        takebacks.undo(1)
    return [("corners solo, 43,000 moves", "cgn", solo.encode()),
            ("cornerclaim classic, 64,000 passes", "blksgf", passes.encode()),
            ("marbles, 3,498 moves before any deal", "json", json.dumps(events).encode()),
            ("a JSON log nested 120,000 deep", "json", deep.encode()),
            (f"legal: cornerclaim duo, a move taken back {takebacks.seq // 2:,} times", "json",
             takebacks.to_json().encode())]


def measure(name: str, fmt: str, body: bytes, moves: int | str) -> tuple:
    with tempfile.TemporaryDirectory() as tmp:
        host = HostProcess(Path(tmp) / "data").start()
        try:
            requests.get(f"{host.url}/api/health", timeout=30)
            idle = host.status("VmHWM")
            t = time.perf_counter()
            r = requests.post(f"{host.url}/api/replays", data=body, timeout=300,
                              headers={"Content-Type": "application/octet-stream"})
            imported = time.perf_counter() - t
            answer, replayed = "–", "–"
            if r.status_code == 201:
                t = time.perf_counter()
                replay = requests.get(f"{host.url}/api/replays/{r.json()['id']}", timeout=300)
                replayed = f"{(time.perf_counter() - t) * 1000:.0f}"
                answer = f"{len(replay.content):,}"
            health = requests.get(f"{host.url}/api/health", timeout=30).status_code
            peak = host.status("VmHWM")
        finally:
            host.kill()
    return (name, fmt, f"{len(body):,}", moves, f"{r.status_code} / {health}",
            f"{imported * 1000:.0f}", answer, replayed, f"{peak / 1024:.0f}",
            f"{(peak - idle) / 1024:+.0f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="one game id (cornerclaim, corners, marbles)")
    args = ap.parse_args(argv)
    head = ("record", "format", "bytes", "moves", "import / health", "import ms",
            "replay answer B", "replay ms", "host peak MB", "over idle MB")
    print("| " + " | ".join(head) + " |")
    print("|---|---|" + "--:|" * (len(head) - 2))
    rows = [measure("an idle host (health only)", "–", b"", "–")]
    print("| " + " | ".join(str(c) for c in rows[0][:4]) + " | – | – | – | – | "
          + " | ".join(rows[0][8:]) + " |", flush=True)
    for name, game, _ in games(args.only, args.seed):
        fmt, body = record_of(game)
        moves = sum(1 for e in game.events[1:] if type(e).__name__.endswith(("Placed", "Moved")))
        row = measure(f"{game.events[0].game} {name}", fmt, body, moves)
        print("| " + " | ".join(str(c) for c in row) + " |", flush=True)
    for name, fmt, body in hostile():
        if args.only and not name.startswith(args.only) and args.only != "hostile":
            continue
        label = name if name.startswith("legal") else f"refused: {name}"
        row = measure(label, fmt, body, "–")
        print("| " + " | ".join(str(c) for c in row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
