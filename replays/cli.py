"""`cornerclaim replay`: look at a game record in the terminal, or export a game from the host.

    cornerclaim replay show FILE [--move N] [--takebacks]
    cornerclaim replay export GAME_ID [--data-dir DIR] [--format blksgf|json] [-o FILE]

`show` reads a Pentobi `.blksgf` or our JSON log and prints the board after move N (the last
by default; move 0 is the empty board), whose turn it is and the scores. `export` reads the
host's event store (the same folder `cornerclaim serve` uses) and writes one game as a file,
or to stdout without `-o`. Nothing heavy is imported until a subcommand runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

LETTERS = {"blue": "B", "yellow": "Y", "red": "R", "green": "G"}


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="replay_command", required=True)
    show = sub.add_parser("show", help="print the board of a .blksgf or JSON game log")
    show.add_argument("file", help="a .blksgf record or a cornerclaim-log .json file")
    show.add_argument("--move", type=int, default=None,
                      help="show the position after this many moves (default: the last)")
    show.add_argument("--takebacks", action="store_true",
                      help="count taken-back moves and takebacks as moves too")
    export = sub.add_parser("export", help="write a game from the host's store to a file")
    export.add_argument("game_id", help="the game's id (as in its URL)")
    export.add_argument("--data-dir", default=None,
                        help="the host's data folder (default: the user's data folder)")
    export.add_argument("--format", choices=("blksgf", "json"), default="blksgf",
                        help="Pentobi .blksgf (default) or our JSON event log")
    export.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")


def run(args: argparse.Namespace) -> int:
    if args.replay_command == "show":
        return show(Path(args.file), args.move, takebacks=args.takebacks)
    return export(args.game_id, args.data_dir, args.format, args.output)


# -- show -----------------------------------------------------------------------------------


def load_file(path: Path):
    """A `Game` from a .blksgf or JSON log file (by content: SGF starts with '(')."""
    from engine.core import Game
    from engine.cornerclaim.sgf import load_game

    data = path.read_bytes()
    if data.lstrip()[:1] == b"(":
        return load_game(data)
    return Game.from_json(data)


def show(path: Path, move: int | None, *, takebacks: bool = False) -> int:
    from engine.errors import LogError

    from .cursor import Cursor, Replay

    try:
        game = load_file(path)
    except OSError as e:
        print(f"cannot read {path}: {e.strerror}", file=sys.stderr)
        return 2
    except LogError as e:
        print(f"{path}: {e.message}", file=sys.stderr)
        return 2
    replay = Replay(game, show_takebacks=takebacks)
    last = len(replay) - 1
    if move is not None and not 0 <= move <= last:
        print(f"{path}: there is no move {move} (0 to {last})", file=sys.stderr)
        return 2
    cursor = Cursor(replay, last if move is None else move)
    print(render(cursor))
    return 0


def render(cursor) -> str:
    """The frame as text: heading, board (a1 bottom left, one letter per colour), scores."""
    frame = cursor.frame
    state = frame.state
    replay = cursor.replay
    total = len(replay) - 1
    lines = [f"{state.variant.name} · move {frame.index} of {total}" + _what(frame, state)]
    lines += board_lines(state)
    for seat in state.seats:
        colour = state.variant.colours[seat - 1]
        mark = "  <- to move" if state.to_move == seat else ""
        gone = " (left)" if seat in state.left else ""
        lines.append(f"  {LETTERS[colour]} {state.players[seat - 1]}{gone}: "
                     f"{state.score(seat)}{mark}")
    if state.is_over:
        from engine.cornerclaim import RULES

        outcome = RULES.outcome(state)
        winners = ", ".join(state.players[s - 1] for s in outcome.winners) or "nobody"
        kind = "draw between" if len(outcome.winners) > 1 else "won by"
        lines.append(f"Game over: {kind} {winners}")
    return "\n".join(lines)


def _what(frame, state) -> str:
    if frame.kind == "start":
        return ""
    name = state.players[frame.seat - 1]
    if frame.kind == "placed":
        note = " (taken back)" if frame.taken_back else ""
        return f": {name} placed {frame.piece} at {frame.move}{note}"
    return f": {name} left" if frame.kind == "left" else f": {name} took back"


def board_lines(state) -> list[str]:
    from engine.cornerclaim.notation import COLUMNS

    n = state.variant.size
    letters = [LETTERS[c] for c in state.variant.colours]
    rows = []
    for i, row in enumerate(state.board()):
        cells = " ".join(letters[c - 1] if c else "." for c in row)
        rows.append(f"{n - i:>2} {cells}")
    rows.append("   " + " ".join(COLUMNS[:n]))
    return rows


# -- export ---------------------------------------------------------------------------------


def export(game_id: str, data_dir: str | None, fmt: str, output: str | None) -> int:
    from engine.core import Event, Game, log_to_json
    from engine.cornerclaim.sgf import game_to_sgf
    from engine.errors import EngineError
    from server.store import SqliteStore

    if data_dir is None:
        from server.serve import default_data_dir

        data_dir = default_data_dir()
    db = Path(data_dir) / SqliteStore.FILENAME
    if not db.is_file():
        print(f"no game store in {data_dir}", file=sys.stderr)
        return 2
    store = SqliteStore(data_dir)
    try:
        events = store.events_since(game_id, 0)
    finally:
        store.close()
    if not events:
        print(f"there is no game {game_id!r} in {data_dir}", file=sys.stderr)
        return 2
    try:
        parsed = [Event.from_dict(e) for e in events]
        text = log_to_json(parsed) if fmt == "json" else game_to_sgf(Game.from_events(parsed))
    except EngineError as e:
        print(f"game {game_id}: its stored log does not fold: {e.message}", file=sys.stderr)
        return 2
    if output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        Path(output).write_text(text, encoding="utf-8")
        print(f"wrote {output}", file=sys.stderr)
    return 0
