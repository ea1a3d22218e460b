"""`cornerclaim gtp`: a Go Text Protocol adapter over a game's engine, on stdin and stdout.

A game that speaks GTP gives a protocol handler (`Rules.gtp_session`; Corner Claim's is
`engine.cornerclaim.gtp.GtpSession`: pure, a command line in and the response text out). This
adapter only finds that game by its variant in the registry, hands the handler file access
for `loadsgf`/`savesgf`, and pumps lines. The options are `pentobi-gtp`'s, so a controller's
command line works unchanged; Pentobi's search options (`--quiet`, `--nobook`, `--noresign`,
`--threads`) are accepted and ignored. `--seconds S` is the most a move may think; the
adapter hands the session the process's monotonic clock to time its own moves with.
"""

from __future__ import annotations

import argparse
import sys
import threading


def gtp_variants() -> list[str]:
    """The variants of every registered game that speaks GTP."""
    return [v for rules in gtp_games() for v in rules.variants]


def gtp_games() -> list:
    """Every registered game that speaks GTP (declares the `Gtp` capability)."""
    from engine import registry
    from engine.capabilities import Gtp, capability

    return [rules for rules in registry.games() if capability(rules, Gtp) is not None]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", "-g", choices=gtp_variants(), default="classic",
                        help="game variant at start-up (default: classic, as Pentobi)")
    parser.add_argument("--level", "-l", type=int, default=1,
                        help="computer level for genmove (highest available at or below)")
    parser.add_argument("--seed", "-r", type=int, default=None,
                        help="seed for genmove, making its moves repeatable")
    parser.add_argument("--seconds", type=_positive, default=None, metavar="S",
                        help="the most a move may think, in seconds (default: the level's "
                             "own budget; GTP's time_settings/time_left may give less)")
    for flag in ("--quiet", "--nobook", "--noresign"):
        parser.add_argument(flag, action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--threads", type=int, default=1, help=argparse.SUPPRESS)


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def run(args: argparse.Namespace) -> int:
    """Read commands from stdin, answer on stdout, until `quit` or end of input.

    The game's computer players warm up (`Rules.warm_up`: Corner Claim compiles its search,
    or loads it from numba's cache) in a background thread, and until that has ended
    `genmove` answers with the game's quick player (`ai.quick_move`, which compiles
    nothing), so the first `genmove` of a fresh install is as quick as the later ones. With
    `--seed` the moves must repeat, so the warm-up comes first and every `genmove` searches.
    """
    import time
    from datetime import date

    from engine.capabilities import Computer, capability

    rules = next(r for r in gtp_games() if args.game in r.variants)
    computer = capability(rules, Computer)
    warmed = threading.Event()
    if computer is None:
        warmed.set()
    elif args.seed is not None:
        computer.warm_up()
        warmed.set()
    else:
        threading.Thread(target=_warm_up, args=(computer, warmed), daemon=True,
                         name="warm-up").start()
    session = rules.gtp_session(args.game, level=args.level, seed=args.seed,
                                read_file=read_file, write_file=write_file,
                                today=lambda: date.today().isoformat(),
                                quick=lambda: not warmed.is_set(),
                                seconds=args.seconds, clock=time.monotonic)
    try:
        for line in sys.stdin:
            response = session.handle(line)
            if response:
                sys.stdout.write(response)
                sys.stdout.flush()
            if session.quit:
                break
    except BrokenPipeError:  # the controller went away: nothing left to answer
        pass
    return 0


def _warm_up(computer, warmed: threading.Event) -> None:
    try:
        computer.warm_up()
    finally:
        warmed.set()


def read_file(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read(2_000_000)


def write_file(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
