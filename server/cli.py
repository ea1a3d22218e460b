"""The `cornerclaim` command. Each subcommand lives in its own module, imported on use.

A subcommand module provides `configure(parser)` (cheap: no heavy imports at module level)
and `run(args) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = {
    "gtp": ("gtp", "speak the Go Text Protocol on stdin/stdout (Pentobi-compatible)"),
    "serve": ("server.serve", "start the LAN host"),
    "discover": ("server.discover", "list Corner Claim hosts on the LAN"),
    "replay": ("replays.cli", "show or export a replay"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cornerclaim", description="Corner Claim LAN host")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module, help_text) in SUBCOMMANDS.items():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name and module.startswith(e.name):
                continue  # a subcommand not built yet
            raise
        p = sub.add_parser(name, help=help_text, description=help_text)
        mod.configure(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args._run(args) or 0


if __name__ == "__main__":
    sys.exit(main())
