"""`cornerclaim warm-up`: ready every game's computer players now, in this process.

Each game's `Rules.warm_up` runs once. Corner Claim's compiles its search into numba's
on-disk cache (20–60 s of one core on a fresh install, about 2 s once cached: docs/
performance.md, "First move"), so the host's bot workers and `cornerclaim gtp` load the
kernels instead of compiling them during someone's game. `scripts/serve` runs it after
installing. The cache is `__pycache__` beside the engine's modules, or numba's per-user
cache folder when the installed package is read-only (or `NUMBA_CACHE_DIR` when set).
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    """No options."""


def run(args: argparse.Namespace) -> int:
    from engine import registry
    from engine.capabilities import Computer, capability

    print("Readying the computer players (the first time, numba compiles them: about a "
          "minute)…", flush=True)
    for rules in registry.games():
        computer = capability(rules, Computer)
        if computer is not None:
            print(f"{rules.title}: computer players ready in {computer.warm_up():.1f} s",
                  flush=True)
    return 0
