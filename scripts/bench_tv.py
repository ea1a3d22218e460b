#!/usr/bin/env python3
"""How soon a move reaches /tv: from the mover's acknowledgement to the table on the host's
screen drawing the new state, over loopback, printed as the Markdown table in
docs/performance.md.

    .venv/bin/python scripts/bench_tv.py               # 50 moves
    .venv/bin/python scripts/bench_tv.py --moves 200 --pace-ms 100

Starts `cornerclaim serve` on 127.0.0.1 (a fresh data folder, scripts/loadtest.py's
HostProcess), makes a game of each game in the catalog (every seat local: three more tables
on the screen, as on a busy evening), opens /tv in Debian's Chromium at 1920×1080 and makes a
game of Corners with both seats held by a python-socketio client, the mover. The mover plays
one move at a time over its socket (`move`, with the seat's token), at most one every
`--pace-ms` (the host takes 20 writes a second from a socket), and notes the time it sent it
and the time its acknowledgement came. In the page a MutationObserver notes when the table's
`data-seq` (set once the board module has drawn that state) changes, and a
requestAnimationFrame after it when the next frame is due. The page's times are
`performance.timeOrigin + performance.now()`, the mover's `time.time()`: the same machine's
wall clock, so the two compare directly (to well under a millisecond). The next move goes once
the page has drawn the last. A time below zero means the page drew the move before the mover
had its acknowledgement (the host pushes to the room before it answers the mover). Exits 1
when the p95 from the acknowledgement to the drawing is over `--budget-ms`.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
VARIANT = "classic-3x3"
DRAWN = """([g, s]) => { const d = window.__drawn.find((x) => x.game === g && x.seq === s);
  return d && d.frame ? d : null; }"""
WATCH_DRAWS = """
window.__drawn = [];
new MutationObserver((records) => {
  const at = performance.timeOrigin + performance.now();
  for (const r of records) {
    const t = r.target;
    if (t.dataset.testid !== "tv-table" || !t.dataset.seq) continue;
    const seen = { game: t.dataset.game, seq: Number(t.dataset.seq), drawn: at, frame: null };
    window.__drawn.push(seen);
    requestAnimationFrame(() => { seen.frame = performance.timeOrigin + performance.now(); });
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-seq"] });
"""


def rest(base: str, method: str, path: str, body: dict | None = None,
         token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"} | (
        {"Authorization": f"Bearer {token}"} if token else {})
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + "/api" + path, data=data, method=method,
                                     headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def other_tables(base: str) -> None:
    """A running game of each game in the catalog, every seat local: the tables beside the
    timed one."""
    for entry in rest(base, "GET", "/catalog")["games"]:
        variant = entry["variants"][0]
        seats = [{"kind": "local"} for _ in range(variant["seats"][0])]
        rest(base, "POST", "/games", {"game": entry["game"], "variant": variant["name"],
                                      "seats": seats})


def new_game(base: str) -> tuple[str, dict[int, str]]:
    made = rest(base, "POST", "/games", {"game": "corners", "variant": VARIANT,
                                         "seats": [{"kind": "local", "name": "White"},
                                                   {"kind": "local", "name": "Black"}]})
    return made["id"], {int(k): v for k, v in made["tokens"].items()}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def run(base: str, page, moves: int, rng: random.Random, pace_ms: float) -> list[dict]:
    """Play `moves` moves through the mover's socket, one every `pace_ms` at most; each
    one's times, in ms."""
    from tests.socket_client import Client

    mover = Client()
    mover.connect(base, transports=["websocket"], wait_timeout=10)
    samples: list[dict] = []
    try:
        gid, tokens = None, {}
        while len(samples) < moves:
            state = rest(base, "GET", f"/games/{gid}") if gid else None
            if state is None or state["result"] or not state["to_move"]:
                gid, tokens = new_game(base)
                state = rest(base, "GET", f"/games/{gid}")
                page.wait_for_function(
                    "([g, s]) => window.__drawn.some((d) => d.game === g && d.seq >= s)",
                    arg=[gid, state["seq"]], timeout=30_000)
            seat = state["to_move"]
            legal = rest(base, "GET", f"/games/{gid}/legal?seat={seat}", token=tokens[seat])
            choices = [m for m in legal["moves"] if not m.get("loses")] or legal["moves"]
            move = rng.choice(choices)["move"]
            if samples:  # a human pace: the host's write limit is not what is measured
                time.sleep(max(0.0, (samples[-1]["sent"] + pace_ms) / 1000 - time.time()))
            sent = time.time() * 1000
            ack = mover.call("move", {"game_id": gid, "seat": seat, "move": move,
                                      "seq": state["seq"], "token": tokens[seat]}, timeout=10)
            acked = time.time() * 1000
            if not ack.get("ok"):
                raise RuntimeError(f"the host refused {move}: {ack}")
            seq = ack["event"]["seq"]
            seen = page.wait_for_function(DRAWN, arg=[gid, seq], timeout=10_000).json_value()
            samples.append({"sent": sent, "acked": acked, "drawn": seen["drawn"],
                            "frame": seen["frame"]})
    finally:
        mover.disconnect()
    return samples


def table(samples: list[dict]) -> str:
    rows = ["| from → to | median | p95 | max |", "|---|---:|---:|---:|"]
    spans = [("move sent → mover's acknowledgement", "sent", "acked"),
             ("mover's acknowledgement → /tv drew it (`data-seq`)", "acked", "drawn"),
             ("mover's acknowledgement → /tv's next frame", "acked", "frame"),
             ("move sent → /tv drew it", "sent", "drawn")]
    for label, start, end in spans:
        values = [s[end] - s[start] for s in samples]
        rows.append(f"| {label} | {statistics.median(values):.1f} ms | "
                    f"{percentile(values, 95):.1f} ms | {max(values):.1f} ms |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=50, help="moves timed (50)")
    parser.add_argument("--seed", type=int, default=1, help="the random choice of moves (1)")
    parser.add_argument("--pace-ms", type=float, default=60.0,
                        help="the least time from one move to the next (60)")
    parser.add_argument("--budget-ms", type=float, default=300.0,
                        help="p95 of acknowledgement → drawn must be under this (300)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(HERE.parent))
    from loadtest import HostProcess

    with tempfile.TemporaryDirectory() as data_dir:
        host = HostProcess(Path(data_dir)).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                context = browser.new_context(base_url=host.url,
                                              viewport={"width": 1920, "height": 1080})
                context.add_init_script(WATCH_DRAWS)
                page = context.new_page()
                other_tables(host.url)
                page.goto("/tv")
                page.get_by_test_id("tv-join").locator("svg").wait_for()
                samples = run(host.url, page, args.moves, random.Random(args.seed),
                              args.pace_ms)
                shown = page.get_by_test_id("tv-table").count()
                browser.close()
        finally:
            host.stop()
    print(f"{len(samples)} moves, Corners {VARIANT}, one /tv page showing {shown} tables, "
          "loopback\n")
    print(table(samples))
    late = percentile([s["drawn"] - s["acked"] for s in samples], 95)
    return 0 if late <= args.budget_ms else 1


if __name__ == "__main__":
    sys.exit(main())
