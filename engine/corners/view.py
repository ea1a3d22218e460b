"""What the host and the replays see of a Corners state: its public view, a replay's step and
a picture of the board."""

from __future__ import annotations

from ..events import Event
from ..rules import Picture, PublicView, SeatView, Step
from . import practice as P
from .events import STEP_WORDS, Moved
from .state import State
from .variants import COLOURS


def public_view(state: State) -> PublicView:
    variant = state.variant
    name, path_text = variant.board.name, variant.board.path_text
    clock = None
    if state.has_clock:
        clock = {"reserve_ms": state.reserve_ms, "increment_ms": state.increment_ms,
                 "remaining_ms": list(state.clock), "running": state.running,
                 "running_since_ms": state.clock_started_ms if state.running else None}
    last = state.moves[-1] if state.moves else None
    board = {
        "variant": variant.name, "size": variant.size, "rows": state.rows(),
        "diagonal": variant.diagonal,
        "homes": {"1": sorted((name(s) for s in variant.homes[0]), key=_name_key),
                  "2": sorted((name(s) for s in variant.homes[1]), key=_name_key)},
        "to_move": state.to_move, "move_number": state.number,
        # the solo race has no home deadline, and a limit of its own
        "home_deadline": None if state.solo else variant.deadline,
        "move_limit": variant.solo_limit if state.solo else variant.limit,
        "after_deadline": not state.solo and state.number > variant.deadline,
        "pending_reply": state.pending,
        "clock": clock, "draw_offer": state.draw_offer,
        "last_move": path_text(last.path) if last else None,
        "status": state.end[0] if state.end else "playing",
        # The table's move list: every move's path, white's first.
        # (a set-up position's moves before it are not listed: `first_ply` counts them)
        "moves": [path_text(m.path) for m in state.moves if m.seq],
        "first_ply": sum(1 for m in state.moves if not m.seq),
        "practice": state.practice,
        # the solo race: the moves made and the fewest known (None: not a solo race)
        "solo": {"moves": sum(1 for m in state.moves if m.seq),
                 "best": P.best_known(variant.name)} if state.solo else None,
    }
    seats = tuple(SeatView(
        colour=COLOURS[s - 1], left=s in state.left, score=state.in_target(s),
        can_move=state.to_move == s,
        view={"pieces_home": sum(1 for q in variant.home(s) if state.board[q] == s),
              "pieces_in_target": state.in_target(s)},
    ) for s in state.seats)
    last_move = ({"seat": last.seat, "move": path_text(last.path), "seq": last.seq}
                 if last else None)
    return PublicView(board, seats, last_move)


def step(state: State, event: Event) -> Step | None:
    """A move's step with its number, colour and jumps (`state` is right after it), or
    the words for the clock's and the actions' events; None for the shared events."""
    if isinstance(event, Moved):
        index = next((i for i, m in enumerate(state.moves) if m.seq == event.seq), None)
        details: dict = {"colour": COLOURS[event.seat - 1]}
        if index is not None:
            path = state.moves[index].path
            details.update(number=index + 1 if state.solo else index // 2 + 1,
                           jumps=_jumps(path, state.variant.size),
                           notation=(f"{index + 1}. " if state.solo
                                     else _pair_prefix(index))
                           + state.variant.board.path_text(path))
        return Step("move", event.seat, event.move, details)
    for cls, (kind, text) in STEP_WORDS.items():
        if isinstance(event, cls):
            return Step(kind, getattr(event, "seat", None), text=text)
    return None


def picture(state: State) -> Picture:
    colours = ("",) + COLOURS
    cells = tuple(tuple(colours[c] for c in row) for row in state.rows())
    n = state.variant.size
    return Picture(cells, tuple(state.variant.board.columns),
                   tuple(str(r) for r in range(n, 0, -1)))


def _jumps(path: tuple[int, ...], size: int) -> int:
    a, b = path[0], path[1]
    step = max(abs(a % size - b % size), abs(a // size - b // size)) == 1
    return 0 if step else len(path) - 1


def _pair_prefix(index: int) -> str:
    return f"{index // 2 + 1}. " if index % 2 == 0 else f"{index // 2 + 1}... "


def _name_key(text: str) -> tuple[int, str]:
    return (int(text[1:]), text[0])

