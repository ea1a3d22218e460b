"""Play a match between two engines and print the result with a 95 % interval.

An engine is either a GTP command line (any program speaking Pentobi's GTP dialect, e.g.
our `python -m server.cli gtp --game duo --level 5` or Pentobi's `pentobi-gtp`), or
`quick:N` for what level N plays while the search is still compiling (`ai.quick_move`), or
`level:N` for one of our levels played in-process (no GTP, same code path as the host),
optionally with its budget overridden: `level:6/seconds=2`, `level:5/playouts=400`,
`level:6/book=0` (`ai.search_move`'s keywords; lab/README.md says where the experiment
options of earlier matches went).
A GTP command line may contain `{seed}`, replaced by the game's seed for that engine (e.g.
Pentobi's `--seed {seed}`, so its fixed-simulation searches repeat).
Our engine (Corner Claim's rules) referees every move; an illegal move loses the game.

Duo: engine A takes the first seat in even games and the second in odd ones. Classic/trio:
A sits in one seat (rotating through them) and B plays every other seat (one GTP process).
Games run in parallel (`--jobs N`; the default `auto` is 2 when the load average is below
1.5, else 1, so a shared machine is not overloaded). Every game is saved as .blksgf.

  python scripts/match.py --a 'level:6' --b 'level:5' --games 20 --out /tmp/m1
  python scripts/match.py --a '.venv/bin/python -m server.cli gtp --game duo --level 6' \
      --b '/path/pentobi-gtp -g duo -l 5 --book book_duo.blksgf --quiet' --games 40

`--equal-time` gives A, each move, the mean seconds per move B has taken so far in the
match (what this worker process has seen of it; `--start-seconds` before B's first move):
an in-process `level:N` gets it as its budget (`ai.choose_move`'s `seconds`, what
`cornerclaim gtp --seconds` and GTP's time controls set), a GTP engine A as a byo-yomi of
that many seconds a move (`time_settings 0 T 1`), so both sides think about as long;
`--time-profile by-move` gives A B's mean at the same move number (B's own spread over
the game) in place of its overall mean; `--time-factor F` gives A F times that (what time
buys), and `--a-seat S` plays only the games where A sits in seat S (S = 2: A as the second
player).

`--plies N` plays only each game's first N plies and saves them (no result): starting
positions for `lab/diagnose.py finish`, which needs only a record's opening (to finish
from ply P, save P + seats plies, so A's first placement from P on is among them).

Prints one line per game, then: A's win rate (draws count half) with a Wilson 95 %
interval, the mean score difference (A minus the mean of the other seats), A's mean rank
(1 = best, ties averaged) and each engine's mean and longest seconds per move.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cornerclaim import RULES, new_game  # noqa: E402
from engine.cornerclaim.ai import warm_up  # noqa: E402
from engine.errors import EngineError  # noqa: E402
from scripts.match_tally import wilson  # noqa: E402

COLOUR_WORDS = {2: ("b", "w"), 3: ("1", "2", "3"), 4: ("1", "2", "3", "4")}
GM_NAMES = {"duo": "Blokus Duo", "classic": "Blokus", "trio": "Blokus Three-Player"}


class GtpEngine:
    """A GTP engine in a subprocess; `genmove` returns cells, 'pass' or 'resign'."""

    def __init__(self, command: str, variant: str) -> None:
        self.proc = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
        )
        self.send(f"set_game {GM_NAMES[variant]}")
        self.send("clear_board")

    def send(self, command: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"engine died on {command!r}")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        text = "\n".join(lines)
        if text.startswith("?"):
            raise RuntimeError(f"engine refused {command!r}: {text}")
        return text[1:].strip()

    def genmove(self, game, seat: int, seconds: float | None = None) -> str:
        if seconds is not None:  # a byo-yomi period of `seconds` for each move
            self.send(f"time_settings 0 {seconds:.3f} 1")
        return self.send(f"genmove {COLOUR_WORDS[game.state.nu_seats][seat - 1]}")

    def set_position(self, game, moves) -> None:
        """Start again from the empty board and play `moves` ((seat, cells or None) pairs,
        a record's), as `game` has them."""
        self.send("clear_board")
        for seat, cells in moves:
            if cells is not None:
                self.played(game, seat, cells)

    def played(self, game, seat: int, cells: str) -> None:
        self.send(f"play {COLOUR_WORDS[game.state.nu_seats][seat - 1]} {cells}")

    def close(self) -> None:
        try:
            self.send("quit")
        except (RuntimeError, BrokenPipeError, OSError):
            pass
        self.proc.kill()
        self.proc.wait()


class LevelEngine:
    """One of our levels, called in-process exactly as the host calls it."""

    def __init__(self, level: int, seed: int, options: dict | None = None) -> None:
        self.level = level
        self.seed = seed
        self.options = options or {}

    def genmove(self, game, seat: int, seconds: float | None = None) -> str:
        from engine.cornerclaim.ai import search_move

        state = game.state
        options = self.options if seconds is None else {**self.options, "seconds": seconds}
        move = search_move(state, seat, level=self.level, seed=self.seed + state.seq,
                           **options)
        return "pass" if move is None else state.move_str(move)

    def played(self, game, seat: int, cells: str) -> None:
        pass

    def set_position(self, game, moves) -> None:
        pass  # it reads the position from `game` at each genmove

    def close(self) -> None:
        pass


class QuickEngine(LevelEngine):
    """`quick:N`: what level N answers while a process's warm-up still compiles the search
    (`ai.quick_move`; for levels 3–5 the pure-Python quick player)."""

    def genmove(self, game, seat: int, seconds: float | None = None) -> str:
        from engine.cornerclaim.ai import quick_move

        state = game.state
        move = quick_move(state, seat, level=self.level, seed=self.seed + state.seq)
        return "pass" if move is None else state.move_str(move)


def flag(value: str) -> bool:
    """A 0/1 option (`level:6/book=0`)."""
    return bool(int(value))


OPTION_TYPES = {"playouts": int, "seconds": float, "book": flag}


def make_engine(spec: str, variant: str, seed: int):
    if spec.startswith("quick:"):
        return QuickEngine(int(spec.split(":", 1)[1]), seed)
    if spec.startswith("level:"):
        level, *pairs = spec.split(":", 1)[1].split("/")
        options = {}
        for pair in pairs:
            name, value = pair.split("=", 1)
            options[name] = OPTION_TYPES[name](value)
        return LevelEngine(int(level), seed, options)
    # a GTP command may take the seed where it says {seed} (e.g. Pentobi's `--seed {seed}`),
    # so an engine that searches a fixed number of simulations repeats its game
    return GtpEngine(spec.replace("{seed}", str(seed)), variant)


def seat_of_a(index: int, seats: int) -> int:
    """The seat engine A takes in game `index` of a match with `seats` seats."""
    return index % seats + 1


#: B's seconds and moves so far in this worker process (`--equal-time`).
B_SPENT = [0.0, 0]
#: B's seconds and moves so far at each of its move numbers (1 = its first move) in this
#: worker process (`--time-profile by-move`).
B_BY_MOVE: dict[int, list] = {}


def a_seconds(equal: float, factor: float, profile: str, number: int) -> float:
    """A's budget for its move `number` (1 = its first) under `--equal-time`: B's mean
    seconds a move so far (`flat`), or B's mean at its own move `number` over the games so
    far (`by-move`, B's overall mean before B has made that move), times `factor`;
    `equal` (`--start-seconds`) before B has moved at all."""
    at = B_BY_MOVE.get(number)
    if profile == "by-move" and at and at[1]:
        return factor * at[0] / at[1]
    return factor * (B_SPENT[0] / B_SPENT[1] if B_SPENT[1] else equal)


def play_game(job: tuple) -> dict:
    """Play game `index` (its first `plies` plies, when not 0); returns scores, A's seat,
    seconds per move, the plies played and the .blksgf path. `equal`: None, or the seconds
    A thinks before B has moved (then A gets B's mean seconds per move so far)."""
    index, a_spec, b_spec, variant, out_dir, seed, plies, equal, factor, profile = job
    game = new_game(variant)
    n = game.state.nu_seats
    a_seat = seat_of_a(index, n)
    a = make_engine(a_spec, variant, seed * 1000 + index)
    b = make_engine(b_spec, variant, seed * 1000 + index + 500)
    engines = {s: (a if s == a_seat else b) for s in range(1, n + 1)}
    spent = {"a": [0.0, 0, 0.0], "b": [0.0, 0, 0.0]}  # seconds, moves, longest move
    each: dict[str, list[float]] = {"a": [], "b": []}  # seconds of each move, in order
    forfeit = None
    played = 0
    try:
        while not game.state.is_over and (not plies or played < plies):
            seat = game.state.to_move
            eng = engines[seat]
            who = "a" if eng is a else "b"
            seconds = None
            if equal is not None and who == "a":
                seconds = a_seconds(equal, factor, profile, len(each["a"]) + 1)
            t = time.perf_counter()
            cells = eng.genmove(game, seat, seconds)
            took = time.perf_counter() - t
            if who == "b":
                B_SPENT[0] += took
                B_SPENT[1] += 1
                at = B_BY_MOVE.setdefault(len(each["b"]) + 1, [0.0, 0])
                at[0] += took
                at[1] += 1
            each[who].append(took)
            spent[who][0] += took
            spent[who][1] += 1
            spent[who][2] = max(spent[who][2], took)
            if cells.lower() in ("pass", "resign", ""):
                forfeit = seat
                break
            try:
                game.play(seat, cells)
            except EngineError:
                forfeit = seat
                break
            played += 1
            for other in {id(e): e for e in engines.values()}.values():
                if other is not eng:
                    other.played(game, seat, cells)
    finally:
        a.close()
        b.close()
    from engine.cornerclaim.sgf import game_to_sgf

    path = Path(out_dir) / f"game{index:03d}.blksgf"
    path.write_text(game_to_sgf(game))
    scores = list(RULES.outcome(game.state).scores)
    if forfeit is not None:
        scores[forfeit - 1] = -999
    return {"index": index, "a_seat": a_seat, "scores": scores, "spent": spent,
            "path": str(path), "forfeit": forfeit, "plies": played, "each": each}


def rank_of(scores: list[int], index: int) -> float:
    """The rank of `scores[index]` among the scores: 1 = best, ties counting half."""
    mine = scores[index]
    others = [x for i, x in enumerate(scores) if i != index]
    return 1 + sum(1 for x in others if x > mine) + 0.5 * sum(1 for x in others if x == mine)


def summarise(results: list[dict]) -> dict:
    points = diffs = ranks = 0.0
    spent = {"a": [0.0, 0, 0.0], "b": [0.0, 0, 0.0]}
    by_seat: dict[int, list] = {}  # A's seat -> [points, games]
    by_move: dict[str, dict[int, list]] = {"a": {}, "b": {}}  # move number -> [s, moves]
    for r in results:
        s = r["scores"]
        mine = s[r["a_seat"] - 1]
        others = [x for i, x in enumerate(s) if i != r["a_seat"] - 1]
        best_other = max(others)
        won = 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
        points += won
        seat = by_seat.setdefault(r["a_seat"], [0.0, 0])
        seat[0] += won
        seat[1] += 1
        for k, times in r.get("each", {}).items():
            for number, took in enumerate(times, 1):
                at = by_move[k].setdefault(number, [0.0, 0])
                at[0] += took
                at[1] += 1
        diffs += mine - sum(others) / len(others)
        ranks += rank_of(s, r["a_seat"] - 1)
        for k in spent:
            spent[k][0] += r["spent"][k][0]
            spent[k][1] += r["spent"][k][1]
            spent[k][2] = max(spent[k][2], r["spent"][k][2])
    n = len(results)
    rate = points / n
    lo, hi = wilson(rate, n)
    return {"games": n, "rate": rate, "lo": lo, "hi": hi, "diff": diffs / n, "rank": ranks / n,
            "sec_a": spent["a"][0] / max(spent["a"][1], 1),
            "sec_b": spent["b"][0] / max(spent["b"][1], 1),
            "max_a": spent["a"][2], "max_b": spent["b"][2],
            "by_seat": {seat: tuple(v) for seat, v in sorted(by_seat.items())},
            "by_move": {k: [v[n][0] / v[n][1] for n in sorted(v)] for k, v in by_move.items()}}


def match_jobs(args: argparse.Namespace) -> list[tuple]:
    """`play_game`'s jobs for the parsed command line: game indices 0 to `--games` − 1, only
    those where A sits in `--a-seat` when it is given."""
    equal = args.start_seconds if args.equal_time else None
    seats = new_game(args.game).state.nu_seats
    return [(i, args.a, args.b, args.game, args.out, args.seed, args.plies, equal,
             args.time_factor, args.time_profile)
            for i in range(args.games) if not args.a_seat or seat_of_a(i, seats) == args.a_seat]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="engine A: GTP command or level:N")
    ap.add_argument("--b", required=True, help="engine B: GTP command or level:N")
    ap.add_argument("--game", default="duo", choices=sorted(GM_NAMES))
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--jobs", default="auto", help="games at a time (auto: by load average)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/cornerclaim-match")
    ap.add_argument("--equal-time", action="store_true",
                    help="A thinks each move as long as B's mean seconds per move so far")
    ap.add_argument("--start-seconds", type=float, default=1.0,
                    help="with --equal-time: A's seconds a move before B has moved")
    ap.add_argument("--time-factor", type=float, default=1.0,
                    help="with --equal-time: A thinks this many times B's mean (what time buys)")
    ap.add_argument("--time-profile", choices=("flat", "by-move"), default="flat",
                    help="with --equal-time: B's mean over all its moves (flat), or at the "
                         "same move number as A's (by-move: B's own spread over the game)")
    ap.add_argument("--a-seat", type=int, default=0,
                    help="play only the games where A sits in this seat (1 = first player)")
    ap.add_argument("--plies", type=int, default=0,
                    help="play only each game's first N plies (openings for lab/diagnose.py)")
    args = ap.parse_args(argv)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    jobs = match_jobs(args)
    results = []
    load = os.getloadavg()[0]
    workers = (2 if load < 1.5 else 1) if args.jobs == "auto" else int(args.jobs)
    print(f"load average {load:.2f}: {workers} game(s) at a time", flush=True)
    t0 = time.perf_counter()
    # our levels warm up in each worker first, as the host's bot workers do (ai.warm_up)
    warm = any(e.startswith("level:") for e in (args.a, args.b))
    with ProcessPoolExecutor(max_workers=workers, initializer=warm_up if warm else None) as pool:
        for r in pool.map(play_game, jobs):
            results.append(r)
            mark = f" forfeit by seat {r['forfeit']}" if r["forfeit"] else ""
            print(f"game {r['index']:3d}: A seat {r['a_seat']} scores {r['scores']}{mark}",
                  flush=True)
    if args.plies:
        print(f"{len(results)} openings of up to {args.plies} plies saved in {args.out} "
              f"({time.perf_counter() - t0:.0f} s)")
        return 0
    s = summarise(results)
    print(f"A: {args.a}\nB: {args.b}\n{args.game}, {s['games']} games: A scores "
          f"{100 * s['rate']:.1f}% (95% CI {100 * s['lo']:.1f}–{100 * s['hi']:.1f}%), "
          f"mean score diff {s['diff']:+.1f}, A mean rank {s['rank']:.2f}; "
          f"s/move A {s['sec_a']:.2f} (longest {s['max_a']:.1f}), "
          f"B {s['sec_b']:.2f} (longest {s['max_b']:.1f}); {time.perf_counter() - t0:.0f} s, "
          f"load average now {os.getloadavg()[0]:.2f}")
    print("A by seat: " + ", ".join(f"seat {seat} {won:g} of {games}"
                                    for seat, (won, games) in s["by_seat"].items()))
    for k in ("a", "b"):
        print(f"s/move {k.upper()} by its move number: "
              + " ".join(f"{sec:.2f}" for sec in s["by_move"][k]))
    return 0


#: The other games' match runners: `match.py --game corners …` is `match_corners.py …`
#: (their levels against each other and a greedy player, in-process).
OTHER_GAMES = {"corners": "match_corners.py", "marbles": "match_marbles.py"}


def dispatch(argv: list[str]) -> int | None:
    """Run another game's match runner when `--game` names it (None: a Corner Claim match)."""
    game = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--game"), None)
    if game not in OTHER_GAMES:
        return None
    rest = [a for i, a in enumerate(argv) if a != "--game" and (i == 0 or argv[i - 1] != "--game")]
    runner = str(Path(__file__).with_name(OTHER_GAMES[game]))
    return subprocess.call([sys.executable, runner, *rest])


if __name__ == "__main__":
    routed = dispatch(sys.argv[1:])
    raise SystemExit(main() if routed is None else routed)
