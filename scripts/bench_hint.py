#!/usr/bin/env python3
"""Corners' practice hint (the strongest level's move, asked with GET /api/games/{id}/hint):
seconds from the question to the answer, on a host started in this process, printed as a
Markdown table (docs/performance.md).

    .venv/bin/python scripts/bench_hint.py     # classic 3×3 and Halma 16×16, 6 hints each
    .venv/bin/python scripts/bench_hint.py --hints 10 --variants classic-3x3

Each variant gets a practice game of two seats on this phone; its moves are played over REST
(each side's first legal move), and a hint is asked every other ply, once per position (the
host keeps a position's hint, so each question is a new search). A row gives the hints'
wall-clock seconds over HTTP (mean, median, max) and, for the same positions, the engine's own
CPU seconds for `RULES.hint` run in this process.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _row(name: str, values: list[float]) -> str:
    return (f"| {name} | {len(values)} | {statistics.mean(values):.2f} | "
            f"{statistics.median(values):.2f} | {max(values):.2f} |")


def bench(url: str, variant: str, hints: int) -> tuple[list[float], list[float]]:
    """(HTTP seconds, engine CPU seconds) of `hints` practice hints in one game of `variant`."""
    from engine.core import Game
    from engine.corners.rules import RULES

    made = requests.post(f"{url}/api/games", json={
        "game": "corners", "variant": variant, "options": {"practice": True},
        "seats": [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bob"}]},
        timeout=10).json()
    gid, tokens = made["id"], made["tokens"]
    walls, cpus = [], []
    while len(walls) < hints:
        state = requests.get(f"{url}/api/games/{gid}", timeout=10).json()
        if state["status"] != "running":
            break
        seat = state["to_move"]
        auth = {"Authorization": f"Bearer {tokens[str(seat)]}"}
        if state["seq"] % 2:
            start = time.perf_counter()
            r = requests.get(f"{url}/api/games/{gid}/hint", params={"seat": seat},
                             headers=auth, timeout=30)
            r.raise_for_status()
            walls.append(time.perf_counter() - start)
            log = requests.get(f"{url}/api/games/{gid}/replay.json", timeout=10).content
            local = Game.from_json(log)
            start = time.thread_time()
            RULES.hint(local.state, seat)
            cpus.append(time.thread_time() - start)
        moves = requests.get(f"{url}/api/games/{gid}/legal", params={"seat": seat},
                             headers=auth, timeout=10).json()["moves"]
        requests.post(f"{url}/api/games/{gid}/moves", headers=auth, timeout=10, json={
            "seat": seat, "move": moves[0]["move"], "seq": state["seq"]}).raise_for_status()
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hints", type=int, default=6)
    parser.add_argument("--variants", nargs="+", default=["classic-3x3", "halma-16x16"])
    args = parser.parse_args()
    from server.app import create_app, shutdown_app
    from server.serve import werkzeug_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app = create_app({"DATA_DIR": tempfile.mkdtemp(prefix="bench-hint-"), "BOT_WORKERS": 1})
    server = werkzeug_server("127.0.0.1", 0, app)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.port}"
    try:
        print("| practice hint (Corners, strongest level) | hints | mean s | median s | max s |")
        print("|---|---:|---:|---:|---:|")
        for variant in args.variants:
            walls, cpus = bench(url, variant, args.hints)
            print(_row(f"{variant}: GET /hint, wall clock", walls))
            print(_row(f"{variant}: engine, CPU", cpus))
    finally:
        server.shutdown()
        shutdown_app(app)


if __name__ == "__main__":
    main()
