#!/usr/bin/env python3
"""The first game against the computer on a fresh install: seconds from a person's first
move to the computer's reply, on a real host, printed as the Markdown table in
docs/performance.md.

    .venv/bin/python scripts/bench_first_reply.py                  # duo, level 3, 4 replies
    .venv/bin/python scripts/bench_first_reply.py --level 5 --replies 6
    .venv/bin/python scripts/bench_first_reply.py --cache-dir DIR  # keep the numba cache

Starts `cornerclaim serve` on 127.0.0.1 (a fresh data folder, the default bot delay of
0.8 s, `NUMBA_CACHE_DIR` a new empty folder unless `--cache-dir` names one), waits until it
answers, creates a game of a person (a local seat) against one computer seat, and plays the
person's moves over the REST API (each the first move of the legal list) when it is their
turn. Each row is one computer reply: seconds from the person's move being accepted to the
computer's move in the game's state (polled every 20 ms), and when the person moved,
counted from the host answering. `--wait S` lets the host run S seconds before the first
move (a person opening the page and making a game), `--think S` the person S seconds
before each later one. `--keep` keeps the host's log.

`--gtp` times `cornerclaim gtp --game VARIANT --level LEVEL` instead: started on the empty
cache, it is sent `genmove` (then `play`s of the first legal move for the other colour, and
`genmove` again) as soon as it runs; each row is one `genmove`, from the command sent to its
answer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loadtest import REPO as ROOT  # noqa: E402
from loadtest import HostProcess  # noqa: E402


def rest(url: str, method: str, path: str, body: dict | None = None,
         token: str | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def play(url: str, variant: str, level: int, replies: int, wait: float, think: float,
         up: float) -> list[tuple[float, float]]:
    """(seconds to the reply, seconds since the host came up at the move) per reply."""
    time.sleep(wait)
    created = rest(url, "POST", "/api/games", {
        "variant": variant, "seats": [{"kind": "local"}, {"kind": "computer", "level": level}]})
    game_id = created["id"]
    token = created["tokens"]["1"]
    out = []
    for reply in range(replies):
        if reply:
            time.sleep(think)
        state = rest(url, "GET", f"/api/games/{game_id}")
        if state["status"] != "running" or state["to_move"] != 1:
            break
        legal = rest(url, "GET", f"/api/games/{game_id}/legal?seat=1")["moves"]
        seq = state["seq"]
        moved_at = time.monotonic()
        rest(url, "POST", f"/api/games/{game_id}/moves",
             {"seat": 1, "move": legal[0]["move"], "seq": seq}, token)
        sent = time.monotonic()
        while True:
            state = rest(url, "GET", f"/api/games/{game_id}")
            if state["seq"] >= seq + 2 or state["status"] != "running":
                break
            if time.monotonic() - sent > 300:
                raise RuntimeError("no reply in 300 s")
            time.sleep(0.02)
        out.append((time.monotonic() - sent, moved_at - up))
    return out


def gtp(variant: str, level: int, replies: int) -> list[tuple[float, float]]:
    """(seconds to the answer, seconds since the process started at the command) per
    `genmove` of a fresh `cornerclaim gtp` process."""
    import subprocess

    from engine.cornerclaim.rules import new_game

    colours = ("b", "w") if variant == "duo" else ("1", "2", "3", "4")
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "gtp", "--game", variant, "--level", str(level)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)

    def ask(command: str) -> str:
        proc.stdin.write(command + "\n")
        proc.stdin.flush()
        lines = []
        while (line := proc.stdout.readline().rstrip("\n")) or not lines:
            lines.append(line)
        if not lines[0].startswith("="):
            raise RuntimeError(f"{command}: {lines}")
        return lines[0][1:].strip()

    game = new_game(variant)
    out = []
    try:
        for _ in range(replies):
            seat = game.state.to_move
            if seat is None:
                break
            sent = time.monotonic()
            move = ask(f"genmove {colours[seat - 1]}")
            out.append((time.monotonic() - sent, sent - started))
            game.play(seat, move)
            while game.state.to_move not in (None, seat):  # the others: their first legal
                other = game.state.to_move
                reply = game.rules.legal(game.state, other)[0]["move"]
                ask(f"play {colours[other - 1]} {reply}")
                game.play(other, reply)
        ask("quit")
    finally:
        proc.kill()
        proc.wait()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="duo")
    ap.add_argument("--level", type=int, default=3)
    ap.add_argument("--replies", type=int, default=4, help="computer replies to time")
    ap.add_argument("--wait", type=float, default=0.0,
                    help="seconds between the host answering and the first move")
    ap.add_argument("--think", type=float, default=0.0,
                    help="seconds the person takes before each later move")
    ap.add_argument("--cache-dir", default=None,
                    help="numba's cache folder (default: a new, empty one)")
    ap.add_argument("--keep", action="store_true", help="keep the data folder (host.log)")
    ap.add_argument("--gtp", action="store_true", help="time `cornerclaim gtp`'s genmove")
    args = ap.parse_args(argv)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="first-reply-") as tmp:
        cache = args.cache_dir or str(Path(tmp) / "numba-cache")
        os.environ["NUMBA_CACHE_DIR"] = cache
        if args.gtp:
            rows = gtp(args.variant, args.level, args.replies)
            print(f"`cornerclaim gtp --game {args.variant} --level {args.level}`, numba cache "
                  f"{'given' if args.cache_dir else 'empty'} at the start "
                  f"(wall seconds, load {load:.1f})\n")
            print("| genmove | sent (s after the start) | answered after (s) |")
            print("|---:|---:|---:|")
            for i, (reply, at) in enumerate(rows, 1):
                print(f"| {i} | {at:.1f} | {reply:.1f} |")
            return 0
        data = Path(tmp) / "data"
        t0 = time.monotonic()
        host = HostProcess(data, extra=("--bot-delay", "0.8")).start()
        up = time.monotonic()
        try:
            rows = play(host.url, args.variant, args.level, args.replies, args.wait,
                        args.think, up)
        finally:
            host.stop()
            if args.keep:
                kept = Path(tempfile.mkdtemp(prefix="first-reply-log-"))
                (kept / "host.log").write_text(host.log())
                print(f"host log: {kept / 'host.log'}", file=sys.stderr)
    print(f"{args.variant}, a person against level {args.level}, numba cache "
          f"{'given' if args.cache_dir else 'empty'} at the start, host up in "
          f"{up - t0:.1f} s (wall seconds, load {load:.1f})\n")
    print("| reply | person moved (s after the host was up) | computer replied after (s) |")
    print("|---:|---:|---:|")
    for i, (reply, at) in enumerate(rows, 1):
        print(f"| {i} | {at:.1f} | {reply:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
