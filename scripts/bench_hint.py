#!/usr/bin/env python3
"""The Hint (GET /api/games/{id}/hint): seconds from the question to the answer, on a host
started in this process, printed as a Markdown table (docs/performance.md). Corners' practice
hint (its strongest level, cut short), Corner Claim's (level 6's search, cut short) and
Corner's.

    .venv/bin/python scripts/bench_hint.py     # every game below, 6 hints each
    .venv/bin/python scripts/bench_hint.py --hints 10 --games corners/classic-3x3

Each game gets a table of local seats on this phone (Corners': a practice game); its moves
are played over REST (each side's first legal move), and a hint is asked every other ply,
once per position (the host keeps a position's hint, so each question is a new search),
after one untimed hint that loads the worker's compiled search. A row gives the hints'
wall-clock seconds over HTTP (mean, median, max) and, for the same positions, the engine's own
CPU seconds for the game's `hint` run in this process.
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


#: game/variant -> (its options, its seats)
GAMES = {"corners/classic-3x3": ({"practice": True}, 2),
         "corners/halma-16x16": ({"practice": True}, 2),
         "cornerclaim/duo": ({}, 2), "cornerclaim/classic": ({}, 4),
         "marbles/2p": ({}, 2)}


def bench(url: str, name: str, hints: int) -> tuple[list[float], list[float]]:
    """(HTTP seconds, engine CPU seconds) of `hints` hints in one game of `name`."""
    from engine import registry
    from engine.capabilities import Hints, capability
    from engine.core import Game

    game_id, variant = name.split("/")
    rules = registry.get(game_id)
    hinter = capability(rules, Hints)
    options, seats = GAMES[name]
    made = requests.post(f"{url}/api/games", json={
        "game": game_id, "variant": variant, "options": options,
        "seats": [{"kind": "local", "name": n} for n in ("Ann", "Bob", "Cy", "Di")[:seats]]},
        timeout=10).json()
    gid, tokens = made["id"], made["tokens"]
    walls, cpus = [], []
    warm = False
    while len(walls) < hints:
        state = requests.get(f"{url}/api/games/{gid}", timeout=10).json()
        if state["status"] != "running":
            break
        seat = state["to_move"]
        auth = {"Authorization": f"Bearer {tokens[str(seat)]}"}
        if not warm:  # the worker's first job loads its compiled search: not timed
            requests.get(f"{url}/api/games/{gid}/hint", params={"seat": seat}, headers=auth,
                         timeout=60).raise_for_status()
            log = requests.get(f"{url}/api/games/{gid}/replay.json", timeout=10).content
            hinter.hint(Game.from_json(log).state, seat)  # and this process's
            warm = True
        elif state["seq"] % 2:
            start = time.perf_counter()
            r = requests.get(f"{url}/api/games/{gid}/hint", params={"seat": seat},
                             headers=auth, timeout=30)
            r.raise_for_status()
            walls.append(time.perf_counter() - start)
            log = requests.get(f"{url}/api/games/{gid}/replay.json", timeout=10).content
            local = Game.from_json(log)
            start = time.thread_time()
            hinter.hint(local.state, seat)
            cpus.append(time.thread_time() - start)
        moves = requests.get(f"{url}/api/games/{gid}/legal", params={"seat": seat},
                             headers=auth, timeout=10).json()["moves"]
        requests.post(f"{url}/api/games/{gid}/moves", headers=auth, timeout=10, json={
            "seat": seat, "move": moves[0]["move"], "seq": state["seq"]}).raise_for_status()
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hints", type=int, default=6)
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    args = parser.parse_args()
    from server.app import create_app, shutdown_app
    from server.serve import werkzeug_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app = create_app({"DATA_DIR": tempfile.mkdtemp(prefix="bench-hint-"), "BOT_WORKERS": 1,
                      "BOT_WARM_UP": False})  # a warming worker answers with its quick move
    server = werkzeug_server("127.0.0.1", 0, app)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.port}"
    try:
        print("| hint | hints | mean s | median s | max s |")
        print("|---|---:|---:|---:|---:|")
        for name in args.games:
            walls, cpus = bench(url, name, args.hints)
            print(_row(f"{name}: GET /hint, wall clock", walls))
            print(_row(f"{name}: engine, CPU", cpus), flush=True)
    finally:
        server.shutdown()
        shutdown_app(app)


if __name__ == "__main__":
    main()
