#!/usr/bin/env python3
"""The computer's review of finished games: what a whole game's analysis costs, and what a
running analysis does to a table's computer moves. Prints two Markdown tables for
docs/performance.md.

    .venv/bin/python scripts/bench_analysis.py                 # both tables
    .venv/bin/python scripts/bench_analysis.py --budgets       # only the whole games
    .venv/bin/python scripts/bench_analysis.py --delay --moves 12

**Budgets** (`--budgets`): one game of each kind is played by the computer levels in this
process (a Corner Claim Duo game, level 3 against level 4; a classic 3×3 Corners game, level
3 against level 4; a 2-round marble game, level 3 against level 4; fixed seeds), then reviewed
whole at the games' own analysis (`engine.analysis.review`, no level: the strongest search),
one process on one core. Each row: the moves, the CPU seconds of the whole review (the
process's), its wall seconds, and the slowest move's.

**Delay** (`--delay`): a real host (`create_app`, one bot worker as on a 2-core PC, no bot
delay) with a person (a local seat, the first legal move each turn) against a Corners
computer at level 4 (`--level`). Each row is `--moves` computer replies: the seconds from the
person's move being stored to the computer's move being stored. First with nothing else to
do; then while the host analyses finished Corner Claim Duo games at their own analysis (the
analysis lane: one worker at nice 19, a move sent only while no computer move waits, the
worker stopped while one is computed); then,
for comparison, with the same analysis sent to the computer seats' own worker with no
waiting (what a naive analysis would do).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.analysis import review  # noqa: E402
from engine.capabilities import Analysis, Computer, capability  # noqa: E402
from engine.core import Game  # noqa: E402
from scripts.match_tally import play_out  # noqa: E402

BUDGET_GAMES = (
    ("Corner Claim Duo", "cornerclaim", "duo", {}),
    ("Corners classic 3×3", "corners", "classic-3x3", {"reserve_s": 0}),
    ("Corner, 2 rounds", "marbles", "2p", {"rounds": 2}),
)


def played(game_id: str, variant: str, options: dict, levels=(3, 4), seed: int = 7) -> Game:
    """A whole game of `variant` by the computer levels `levels` (seat 1, seat 2, …)."""
    game = Game.new(game_id, variant, (), options)
    computer = capability(game.rules, Computer)

    def move(state, seat: int, ply: int) -> str:
        level = levels[(seat - 1) % len(levels)]
        return computer.choose_move(state, seat, level=level, seed=seed + ply)

    return play_out(game, move, random.Random(seed))


def budgets() -> list[str]:
    rows = ["| game | moves | CPU s | wall s | slowest move, s |", "|---|---:|---:|---:|---:|"]
    for title, game_id, variant, options in BUDGET_GAMES:
        game = played(game_id, variant, options)
        rules = game.rules
        if game_id == "cornerclaim":  # compile (or load) the search before the clock starts
            from engine.cornerclaim.ai import warm_up

            warm_up()
        cpu, wall = time.process_time(), time.perf_counter()
        slowest, last, n = 0.0, wall, 0
        for _ in review(game, rules, capability(rules, Analysis).analysis_thresholds):
            now = time.perf_counter()
            slowest, last, n = max(slowest, now - last), now, n + 1
        rows.append(f"| {title} | {n} | {time.process_time() - cpu:.1f} | "
                    f"{time.perf_counter() - wall:.1f} | {slowest:.2f} |")
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


class AlwaysIdle:
    """A bot runner that never has a computer move waiting (the naive analysis)."""

    on_idle: list = []
    on_busy: list = []

    @staticmethod
    def idle() -> bool:
        return True


def delays(moves: int, level: int) -> list[str]:
    from server.app import create_app, shutdown_app
    from server.bots.analysis import Analyses
    from server.host import host_of
    from server.tables.events import Appended

    data = tempfile.mkdtemp(prefix="bench-analysis-")
    app = create_app({"DATA_DIR": data, "BOT_DELAY": 0, "BOT_WORKERS": 1, "WRITE_RATE": None,
                      "ANALYSIS_AUTO": False, "LOCK_DATA_DIR": False})
    host = host_of(app)
    client = app.test_client()
    stored: dict[tuple[str, int], float] = {}
    changed = threading.Condition()

    def heard(news) -> None:
        if isinstance(news, Appended) and news.event.get("seat") is not None:
            with changed:
                stored[(news.table.id, news.event["seq"])] = time.perf_counter()
                changed.notify_all()

    host.service.listeners.append(heard)

    def to_analyse(n: int) -> list[str]:
        """`n` finished Duo games (the computer at level 2 on both seats)."""
        ids = []
        for _ in range(n):
            r = client.post("/api/games", json={"variant": "duo", "seats": [
                {"kind": "computer", "level": 2}, {"kind": "computer", "level": 2}]})
            ids.append(r.json["id"])
        for gid in ids:
            while client.get(f"/api/games/{gid}").json["status"] != "finished":
                time.sleep(0.05)
        return ids

    def replies() -> list[float]:
        r = client.post("/api/games", json={"game": "corners", "variant": "classic-3x3",
                                            "seats": [{"kind": "local"},
                                                      {"kind": "computer", "level": level}]})
        gid, token = r.json["id"], r.json["tokens"]["1"]
        out = []
        while len(out) < moves:
            state = client.get(f"/api/games/{gid}").json
            if state["status"] == "finished":
                break
            legal = client.get(f"/api/games/{gid}/legal?seat=1").json["moves"]
            r = client.post(f"/api/games/{gid}/moves", headers={
                "Authorization": f"Bearer {token}"}, json={
                "seat": 1, "move": legal[0]["move"], "seq": state["seq"]})
            seq = r.json["event"]["seq"]
            reply = (gid, seq + 1)
            with changed:
                changed.wait_for(lambda reply=reply: reply in stored, timeout=120)
                out.append(stored[reply] - stored[(gid, seq)])
        return out

    rows = [f"| computer moves (Corners, level {level}) | replies | mean s | median s | max s |",
            "|---|---:|---:|---:|---:|"]

    def row(what: str, got: list[float]) -> None:
        rows.append(f"| {what} | {len(got)} | {statistics.mean(got):.2f} | "
                    f"{statistics.median(got):.2f} | {max(got):.2f} |")
        print(rows[-1], file=sys.stderr, flush=True)

    try:
        games = to_analyse(6)
        replies()  # the workers start and warm up
        row("nothing else running", replies())
        for gid in games[:3]:
            client.post(f"/api/games/{gid}/analysis")
        while not host.analyses.busy():
            time.sleep(0.05)
        got = replies()
        assert host.analyses.busy(), "the analyses ended before the replies: ask for more"
        row("an analysis running (low priority)", got)
        naive = Analyses(host.service, host.store, AlwaysIdle(), pool=host.bots.pool,
                         auto=False)
        naive.start()
        for gid in games[3:]:
            naive.request(gid)
        got = replies()
        row("an analysis in the bot worker, not waiting", got)
        naive.stop()  # stops the host's bot pool too: the host stops next
    finally:
        shutdown_app(app)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", action="store_true", help="only the whole games' analyses")
    ap.add_argument("--delay", action="store_true", help="only the computer moves' delay")
    ap.add_argument("--moves", type=int, default=10, help="computer replies per row")
    ap.add_argument("--level", type=int, default=4, help="the Corners computer's level")
    args = ap.parse_args(argv)
    both = not args.budgets and not args.delay
    out = []
    if args.budgets or both:
        out += budgets() + [""]
    if args.delay or both:
        out += delays(args.moves, args.level)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
