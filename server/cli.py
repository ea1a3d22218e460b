"""The `cornerclaim` command. Each subcommand lives in its own module, imported on use.

A subcommand module provides `configure(parser)` (cheap: no heavy imports at module level)
and `run(args) -> int`; an entry "module:name" names an object in that module with the two.

    cornerclaim replay show FILE [--move N] [--takebacks]
    cornerclaim replay export GAME_ID [--data-dir DIR] [--format EXT] [-o FILE]
    cornerclaim analyse RECORD [--level N] [--seed N] [--json]
    cornerclaim perft --game GAME --variant V --depth D [--moves "c3-d3 f6-e6"]
    cornerclaim store copy SRC DST
    cornerclaim warm-up

`replay show` prints a record's board (replays.cli, pure text); `replay export` reads the
host's event store (the same folder `cornerclaim serve` uses) and writes one game in a format
its game offers (`json`, or one of `rules.formats`: Corner Claim's `blksgf`, Corners' `cgn`;
the default for a game that has one), to stdout without `-o`. `perft` prints how many legal
move sequences of length D there are from a variant's start (after the moves given): the
game's `Rules.perft`.
`analyse` prints the computer's review of a record (replays.analyse), as the host's analysis.
`store copy` copies every game between a SQLite data folder and a PostgreSQL database, either
way (server.store.copy). `warm-up` readies the computer players (server.warm_up), as set-up
does.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from server import version

SUBCOMMANDS = {
    "gtp": ("gtp", "speak the Go Text Protocol on stdin/stdout (Pentobi-compatible)"),
    "serve": ("server.serve", "start the LAN host"),
    "discover": ("server.lan.discover", "list Corner Claim hosts on the LAN"),
    "replay": ("server.cli:ReplayCommand", "show a game record, or export a stored game"),
    "analyse": ("replays.analyse", "the computer's review of a game record, move by move"),
    "perft": ("server.cli:PerftCommand",
              "count a game's legal move sequences of a given length (tests a move generator)"),
    "store": ("server.store.copy:StoreCommand",
              "copy games between a SQLite data folder and a PostgreSQL database"),
    "warm-up": ("server.warm_up",
                "compile the computer players now (set-up does), not during a first game"),
}


class PerftCommand:
    """`cornerclaim perft --game G --variant V --depth D [--moves "..."]`."""

    @staticmethod
    def configure(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--game", default="cornerclaim",
                            help="the game's id (as in GET /api/catalog; default cornerclaim)")
        parser.add_argument("--variant", required=True, help="one of the game's variants")
        parser.add_argument("--depth", type=int, required=True,
                            help="the length of the move sequences to count (0 or more)")
        parser.add_argument("--moves", default="",
                            help="moves played first, separated by spaces (\"c3-d3 f6-e6\")")

    @staticmethod
    def run(args: argparse.Namespace) -> int:
        return perft(args.game, args.variant, args.depth, args.moves.split())


def perft(game: str, variant: str, depth: int, moves: list[str]) -> int:
    """Print the game's perft count; 2 (with a message on stderr) if it cannot."""
    from engine import registry
    from engine.capabilities import Perft, capability
    from engine.errors import EngineError

    try:
        rules = registry.get(game)
    except EngineError as e:
        print(e.message, file=sys.stderr)
        return 2
    counter = capability(rules, Perft)
    if counter is None:
        print(f"{rules.title} does not count move sequences", file=sys.stderr)
        return 2
    try:
        print(counter.perft(variant, depth, tuple(moves)))
    except EngineError as e:
        print(e.message, file=sys.stderr)
        return 2
    return 0


class ReplayCommand:
    """`cornerclaim replay show|export`."""

    @staticmethod
    def configure(parser: argparse.ArgumentParser) -> None:
        from replays.cli import configure_show

        sub = parser.add_subparsers(dest="replay_command", required=True)
        configure_show(sub.add_parser(
            "show", help="print the board of a game record (JSON log or .blksgf)"))
        export = sub.add_parser("export", help="write a game from the host's store to a file")
        export.add_argument("game_id", help="the game's id (as in its URL)")
        export.add_argument("--data-dir", default=None,
                            help="the host's data folder (default: the user's data folder)")
        export.add_argument("--format", default=None,
                            help="json, or a format the game offers (Corner Claim: blksgf); "
                                 "default: the game's own format if it has one, else json")
        export.add_argument("-o", "--output", default=None,
                            help="file to write (default: stdout)")

    @staticmethod
    def run(args: argparse.Namespace) -> int:
        if args.replay_command == "show":
            from replays.cli import run_show

            return run_show(args)
        return export(args.game_id, args.data_dir, args.format, args.output)


def export(game_id: str, data_dir: str | None, fmt: str | None, output: str | None) -> int:
    """Write one stored game as `fmt`; 2 (with a message on stderr) if it cannot."""
    from engine.capabilities import Records, capability
    from engine.errors import EngineError
    from server.store import load_game
    from server.store.sqlite import SqliteStore

    if data_dir is None:
        from server.serve import default_data_dir

        data_dir = default_data_dir()
    db = Path(data_dir) / SqliteStore.FILENAME
    if not db.is_file():
        print(f"no game store in {data_dir}", file=sys.stderr)
        return 2
    store = SqliteStore(data_dir)
    try:
        if not store.events_since(game_id, 0):
            print(f"there is no game {game_id!r} in {data_dir}", file=sys.stderr)
            return 2
        game = load_game(store, game_id)
    except EngineError as e:
        print(f"game {game_id}: its stored log does not fold: {e.message}", file=sys.stderr)
        return 2
    finally:
        store.close()
    rules = game.rules
    records = capability(rules, Records)
    formats = list(rules.formats) if records is not None else []
    offered = ["json", *formats]
    fmt = fmt or next(iter(formats), "json")
    if fmt not in offered:
        print(f"{rules.title} games export as {', '.join(offered)}, not {fmt}",
              file=sys.stderr)
        return 2
    try:
        text = game.to_json() if records is None or fmt == "json" else records.export(game, fmt)
    except EngineError as e:
        print(f"game {game_id}: {e.message}", file=sys.stderr)
        return 2
    if output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        Path(output).write_text(text, encoding="utf-8")
        print(f"wrote {output}", file=sys.stderr)
    return 0


def _command(spec: str):
    module, _, name = spec.partition(":")
    mod = importlib.import_module(module)
    return getattr(mod, name) if name else mod


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cornerclaim", description="Corner Claim LAN host")
    parser.add_argument("--version", action="version", version=f"cornerclaim {version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module, help_text) in SUBCOMMANDS.items():
        try:
            command = _command(module)
        except ModuleNotFoundError as e:
            if e.name and module.startswith(e.name):
                continue  # a subcommand not built yet
            raise
        p = sub.add_parser(name, help=help_text, description=help_text)
        command.configure(p)
        p.set_defaults(_run=command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args._run(args) or 0


if __name__ == "__main__":
    sys.exit(main())
