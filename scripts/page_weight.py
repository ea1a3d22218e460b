#!/usr/bin/env python3
"""What a phone downloads to open the lobby and each game's page, and the host's screen to open
/tv: bytes transferred on a cold cache, in Chromium with Playwright's Pixel 7 profile (/tv at
1920×1080), printed as the Markdown table in docs/performance.md.

    .venv/bin/python scripts/page_weight.py               # budget 100 KB a page, /tv 120 KB
    .venv/bin/python scripts/page_weight.py --budget-kb 80 --requests
    .venv/bin/python scripts/page_weight.py --as-offered  # Chromium's own Accept-Encoding

Starts `cornerclaim serve` on 127.0.0.1 (a fresh data folder), creates one game of each game
in the host's catalog through the API (its first variant, every seat played on the phone, so
the page is a player's), and opens the lobby and each game's page in a new browser context
(an empty cache), then /tv, which draws every one of those games at once. A page counts as
loaded on its own signals: the lobby once its create form and its game lists are drawn, a game
page once its board shows the game's state, /tv once its QR code and every table are drawn;
every request that set out by then is waited for. Bytes are what came over the wire: each
response's headers and its body as sent (compressed where the host compressed it), and the
Socket.IO frames received by then. Exits 1 when a page is over the budget.

A phone opens the host at its LAN address over plain HTTP, where Chromium offers only
`gzip, deflate` (brotli and zstd only over HTTPS or on localhost), so the pages are asked for
with that Accept-Encoding; `--as-offered` leaves Chromium's own (on 127.0.0.1: zstd too).

`measure` and `create_games` are what tests/test_browser_page_weight.py checks the budget with.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DEVICE = "Pixel 7"
BUDGET_KB = 100
TV_BUDGET_KB = 120  # /tv on the host's screen: every game's board module at once
TV_VIEWPORT = {"viewport": {"width": 1920, "height": 1080}}
LAN_ENCODINGS = "gzip, deflate"  # what Chromium offers a plain-HTTP LAN address
LOBBY_READY = "() => document.querySelector('[data-testid=create]')" \
    " && document.querySelector('[data-testid=games-open]')"
GAME_READY = "() => window.ccGame && window.ccGame.state" \
    " && document.querySelector('[data-testid=board]')"
TV_READY = "() => { const t = [...document.querySelectorAll('[data-testid=tv-table]')];" \
    " return !!document.querySelector('[data-testid=tv-join] svg') && t.length > 0" \
    " && t.every((e) => e.dataset.seq); }"


@dataclass
class Weight:
    """One page's load: its requests ((url, bytes) each), the socket frames' bytes and the
    page's budget in KB."""

    page: str
    requests: list[tuple[str, int]] = field(default_factory=list)
    socket_bytes: int = 0
    budget_kb: float = BUDGET_KB

    @property
    def total(self) -> int:
        return sum(n for _, n in self.requests) + self.socket_bytes


def measure(browser, base_url: str, path: str, ready: str, *, page_name: str,
            storage: dict | None = None, encodings: str | None = LAN_ENCODINGS,
            screen: dict | None = None, budget_kb: float = BUDGET_KB) -> Weight:
    """Open `path` on a cold cache (a new Pixel 7 context, or `screen`'s options), wait for
    the page's `ready` function to hold and for every request that set out by then, and count
    the bytes. `encodings`: the Accept-Encoding asked with (None: Chromium's own)."""
    headers = {"extra_http_headers": {"Accept-Encoding": encodings}} if encodings else {}
    device = screen if screen is not None else browser.devices[DEVICE]
    context = browser.new_context(base_url=base_url, **device, **headers)
    if storage:
        context.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(storage)}))"
                                " localStorage.setItem(k, v);")
    page = context.new_page()
    pending, done, frames = set(), [], []
    page.on("request", lambda r: pending.add(r))
    page.on("requestfinished", lambda r: (pending.discard(r), done.append(r)))
    page.on("requestfailed", lambda r: pending.discard(r))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(
        len(f.encode() if isinstance(f, str) else f))))
    try:
        page.goto(path)
        page.wait_for_function(ready, timeout=30_000)
        while pending:
            page.wait_for_event("requestfinished", timeout=30_000)
        weight = Weight(page_name, socket_bytes=sum(frames), budget_kb=budget_kb)
        for request in done:
            sizes = request.sizes()
            weight.requests.append((request.url.removeprefix(base_url),
                                    sizes["responseHeadersSize"] + sizes["responseBodySize"]))
        return weight
    finally:
        context.close()


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def create_games(base_url: str) -> list[tuple[str, str, dict]]:
    """One game of each game in the catalog, every seat on this phone: (title, page path,
    the localStorage that holds its seat tokens) each."""
    with urllib.request.urlopen(f"{base_url}/api/catalog", timeout=30) as answer:
        games = json.load(answer)["games"]
    pages = []
    for entry in games:
        variant = entry["variants"][0]
        seats = [{"kind": "local"} for _ in range(variant["seats"][0])]
        made = _post(f"{base_url}/api/games",
                     {"game": entry["game"], "variant": variant["name"], "seats": seats})
        memory = {"games": {made["id"]: {"seats": made["tokens"], "host": made["host_token"]}}}
        pages.append((entry["title"], f"/#/game/{made['id']}",
                      {"cornerclaim.v1": json.dumps(memory)}))
    return pages


def weigh_all(browser, base_url: str, encodings: str | None = LAN_ENCODINGS,
              budget_kb: float = BUDGET_KB, tv_budget_kb: float = TV_BUDGET_KB) -> list[Weight]:
    """The lobby's, each game page's and /tv's weight (/tv with a table of every game)."""
    weights = [measure(browser, base_url, "/", LOBBY_READY, page_name="Lobby",
                       encodings=encodings, budget_kb=budget_kb)]
    for title, path, storage in create_games(base_url):
        weights.append(measure(browser, base_url, path, GAME_READY, page_name=title,
                               storage=storage, encodings=encodings, budget_kb=budget_kb))
    weights.append(measure(browser, base_url, "/tv", TV_READY, page_name="/tv",
                           encodings=encodings, screen=TV_VIEWPORT, budget_kb=tv_budget_kb))
    return weights


def table(weights: list[Weight]) -> str:
    rows = ["| page | requests | transferred (KB) | within the budget |", "|---|---:|---:|---|"]
    for w in weights:
        kb = w.total / 1000
        rows.append(f"| {w.page} | {len(w.requests)} | {kb:.1f} | "
                    f"{'yes' if kb <= w.budget_kb else 'no'} (≤ {w.budget_kb:g} KB) |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget-kb", type=float, default=BUDGET_KB,
                        help=f"the most a page may transfer, in KB of 1000 bytes ({BUDGET_KB})")
    parser.add_argument("--tv-budget-kb", type=float, default=TV_BUDGET_KB,
                        help=f"the most /tv may transfer ({TV_BUDGET_KB})")
    parser.add_argument("--requests", action="store_true", help="list every request too")
    parser.add_argument("--as-offered", action="store_true",
                        help="Chromium's own Accept-Encoding, not a LAN address's gzip, deflate")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from loadtest import HostProcess

    with tempfile.TemporaryDirectory() as data_dir:
        host = HostProcess(Path(data_dir)).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                browser.devices = pw.devices
                weights = weigh_all(browser, host.url,
                                    None if args.as_offered else LAN_ENCODINGS,
                                    args.budget_kb, args.tv_budget_kb)
                browser.close()
        finally:
            host.stop()
    print(table(weights))
    if args.requests:
        for w in weights:
            print(f"\n{w.page}: socket frames {w.socket_bytes} B")
            for url, n in w.requests:
                print(f"  {n:7d}  {url}")
    return 0 if all(w.total / 1000 <= w.budget_kb for w in weights) else 1


if __name__ == "__main__":
    sys.exit(main())
