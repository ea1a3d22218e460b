"""`cornerclaim replay show`: look at a game record in the terminal, for any game.

    cornerclaim replay show FILE [--move N] [--takebacks]

Reads a record the registry knows (`engine.registry.read_record`: the JSON log of any game,
or a game's own format such as Corner Claim's `.blksgf`) and prints the board after move N
(the last by default; move 0 is the start) from the game's picture, whose turn it is and the
scores. Pure text rendering: the host's store is the server's business (`replay export` lives
in `server.cli`). Nothing heavy is imported until the command runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: One letter per colour name on the text board; another name shows its first letter.
LETTERS = {"blue": "B", "yellow": "Y", "red": "R", "green": "G", "white": "W", "black": "K",
           "cross": "X", "nought": "O"}


def configure_show(show: argparse.ArgumentParser) -> None:
    show.add_argument("file", help="a game record: a JSON game log or a game's own format "
                                   "(.blksgf)")
    show.add_argument("--move", type=int, default=None,
                      help="show the position after this many moves (default: the last)")
    show.add_argument("--takebacks", action="store_true",
                      help="count taken-back moves and takebacks as moves too")


def run_show(args: argparse.Namespace) -> int:
    return show(Path(args.file), args.move, takebacks=args.takebacks)


def show(path: Path, move: int | None, *, takebacks: bool = False) -> int:
    from engine.errors import LogError

    from . import read_record
    from .cursor import Cursor, Replay

    try:
        game = read_record(path.read_bytes())
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


def letters_for(colours) -> list[str]:
    """A letter per seat's colour, each different (a clash falls back to the seat number)."""
    out: list[str] = []
    for i, colour in enumerate(colours):
        letter = LETTERS.get(colour) or (colour[:1].upper() or "?")
        out.append(letter if letter not in out else str(i + 1))
    return out


def render(cursor) -> str:
    """The frame as text: heading, board (from the game's picture), scores, result."""
    frame = cursor.frame
    replay = cursor.replay
    rules = replay.rules
    players = replay.players
    total = len(replay) - 1
    lines = [f"{replay.variant} · move {frame.index} of {total}" + _what(frame, players)]
    view = rules.public_view(frame.state)
    colours = [s.colour for s in view.seats]
    letters = letters_for(colours)
    lines += board_lines(rules.picture(frame.state), colours, letters)
    outcome = frame.outcome
    to_move = frame.to_move
    for i, seat in enumerate(view.seats):
        mark = "  <- to move" if to_move == i + 1 else ""
        gone = " (left)" if seat.left else ""
        lines.append(f"  {letters[i]} {players[i]}{gone}: {outcome.scores[i]}{mark}")
    if frame.closed:
        lines.append(CLOSED_TEXT.get(frame.closed, "The host closed this game") + ": nobody won")
    elif frame.over:
        lines.append(f"Game over: {_who(outcome, players)}")
        if outcome.ending:  # the game's own words for how it ended
            lines.append(outcome.ending)
    return "\n".join(lines)


def _who(outcome, players) -> str:
    """Who won, from each seat's result and the teams (never the count of winners): "won by
    Blue", "won by Yellow (Pia and Rolf)", "draw between Ann and Bo", "nobody"."""
    def names(seats) -> str:
        return " and ".join(players[s - 1] for s in seats)

    res = outcome.results
    for team in outcome.teams:
        won = [s for s in team.seats if res[s - 1] == "win"]
        if won:
            return f"won by {team.name} ({names(won)})"
    wins = [s for s in range(1, len(res) + 1) if res[s - 1] == "win"]
    draws = [s for s in range(1, len(res) + 1) if res[s - 1] == "draw"]
    if wins:
        return f"won by {names(wins)}"
    return f"draw between {names(draws)}" if draws else "nobody won"


#: What a closed game's last frame says, by the reason it was closed.
CLOSED_TEXT = {"closed": "The host closed this game",
               "cancelled": "The host cancelled this game before it started"}


def _what(frame, players) -> str:
    if frame.kind == "start":
        return ""
    if frame.kind == "closed":
        return ": " + CLOSED_TEXT.get(frame.details.get("reason"), "closed").lower()
    name = players[frame.seat - 1] if frame.seat else "?"
    if frame.kind == "move":
        note = " (taken back)" if frame.taken_back else ""
        piece = frame.details.get("piece")
        played = f"placed {piece} at {frame.move}" if piece else f"played {frame.move}"
        return f": {name} {played}{note}"
    if frame.kind == "left":
        return f": {name} left"
    if frame.kind == "takeback":
        return f": {name} took back"
    if frame.text:  # the game's words for its other steps ("offered a draw")
        return f": {name} {frame.text}" if frame.seat else f": {frame.text}"
    return f": {name} {frame.kind}" + (f" {frame.move}" if frame.move else "")


def board_lines(picture, colours, letters) -> list[str]:
    """The picture as text rows: the row label, then one letter per cell ('.' empty)."""
    letter_of = dict(zip(colours, letters, strict=False))
    width = max((len(r) for r in picture.rows), default=1)
    rows = []
    for label, line in zip(picture.rows, picture.cells, strict=False):
        cells = " ".join(letter_of.get(c) or LETTERS.get(c) or c[:1].upper() if c else "."
                         for c in line)
        rows.append(f"{label:>{width}} {cells}")
    rows.append(" " * (width + 1) + " ".join(picture.columns))
    return rows
