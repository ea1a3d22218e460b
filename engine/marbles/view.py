"""What the host and the replays see of a Corner state: its public view, a replay's step and a
picture of the board."""

from __future__ import annotations

from ..events import Event, PlayerLeft
from ..rules import Outcome, Picture, PublicView, SeatView, Step
from .board import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    COLUMNS,
    ROWS,
    SIDES,
    SIZE,
    TAKEABLE,
    cell_name,
    cell_of,
    colour_score,
    line_name,
    parse_move,
    setup_text,
)
from .events import Moved, RoundDealt
from .moves import side_of
from .state import State


def public_view(state: State, outcome: Outcome | None = None) -> PublicView:
    """The board, the sides and the seats; `outcome`, the game's once it is over, gives the
    result."""
    red, yellow = state.round_scores()
    totals = state.totals()
    cells = setup_text(state.board)
    board = {
        "variant": state.variant, "size": SIZE,
        "cells": cells,
        "rows": [cells[r * SIZE:(r + 1) * SIZE] for r in range(SIZE - 1, -1, -1)],
        "setup": state.setup,
        "arrows": [{"seat": s, "side": SIDES[side_of(s)],
                    "axis": "column" if side_of(s) == 0 else "row",
                    "line": None if a is None else line_name(side_of(s), a)}
                   for s, a in enumerate(state.arrows, 1)],
        "round": state.round, "round_count": state.round_count,
        "starter": state.starter if state.round else None,
        "to_move": state.to_move, "opening": state.opening,
        "status": ("dealing" if state.deal_due else "playing" if state.playing
                   else state.end or "waiting"),
        "sides": {SIDES[side]: side_view(state, side, (red, yellow)[side])
                  for side in (0, 1)},
        "rounds": [{"round": r.round, "setup": r.setup, "starter": r.starter,
                    "scores": {"red": r.scores[0], "yellow": r.scores[1]}}
                   for r in state.history],
        "team_scores": {"red": totals[0], "yellow": totals[1]},
        "computer_seats": sorted(state.left) if state.seats == 4 and not state.over
        else [],
        "last_take": last_take(state),
        "result": None,
    }
    if state.over and outcome is not None:
        o = outcome
        board["result"] = {"winners": list(o.winners), "results": list(o.results),
                           "team_scores": {"red": totals[0], "yellow": totals[1]},
                           "reason": o.reason}
    live = state.totals(live=True)
    seats = tuple(SeatView(
        colour=SIDES[side_of(s)], left=s in state.left, score=live[side_of(s)],
        can_move=state.to_move == s,
        view={"side": SIDES[side_of(s)],
              "line": board["arrows"][s - 1]["line"],
              "computer": state.seats == 4 and s in state.left and not state.over},
    ) for s in range(1, state.seats + 1))
    last = state.moves[-1] if state.moves else None
    last_move = ({"seat": last.seat, "move": state.move_text(last.seat, last.line,
                                                             last.cell),
                  "seq": last.seq} if last else None)
    return PublicView(board, seats, last_move)


def side_view(state: State, side: int, score: int) -> dict:
    mine, theirs = state.counts[side], state.counts[1 - side]
    colours = []
    for c in TAKEABLE:
        n = mine[c]
        if n:
            doubled = not theirs[c]
            colours.append({"colour": COLOUR_NAMES[c], "letter": COLOUR_LETTERS[c],
                            "count": n, "points": colour_score(n, 1), "doubled": doubled,
                            "score": colour_score(n, theirs[c])})
    return {"seats": [s for s in range(1, state.seats + 1) if side_of(s) == side],
            "marbles": {COLOUR_LETTERS[c]: mine[c] for c in TAKEABLE},
            "colours": colours, "score": score,
            "total": state.totals()[side] + (score if state.playing else 0)}


def last_take(state: State) -> dict | None:
    for m in reversed(state.moves):
        if m.cell is not None:
            return {"seat": m.seat, "cell": cell_name(m.cell),
                    "colour": COLOUR_LETTERS[m.colour], "seq": m.seq}
    return None


def step(state: State, event: Event) -> Step | None:
    """A move's step gives its round, line and the colour taken; a deal's its setup
    (`state` is right after the event); None for an event `BaseRules.step` words."""
    if isinstance(event, Moved):
        take = next((m for m in reversed(state.moves) if m.seq == event.seq), None)
        details: dict = {"round": state.round, "side": SIDES[side_of(event.seat)]}
        col, row = parse_move(event.move)
        if col is not None and row is not None:
            details["cell"] = event.move
            details["line"] = event.move[0] if side_of(event.seat) == 0 else event.move[1]
        else:
            details["line"] = event.move
            details["opening"] = True
        if take is not None and take.colour is not None:
            details["colour"] = COLOUR_LETTERS[take.colour]
        if not state.playing and state.history and state.history[-1].round == state.round:
            details["round_over"] = True
        return Step("move", event.seat, event.move, details)
    if isinstance(event, RoundDealt):
        return Step("deal", None, None, {"round": event.round, "setup": event.setup},
                    text=f"Round {event.round} dealt")
    if isinstance(event, PlayerLeft) and state.seats == 4 and not state.over:
        return Step("left", event.seat, None, {"computer": True},
                    text="left; the computer plays on")
    return None


def picture(state: State) -> Picture:
    names = COLOUR_NAMES + ("",)
    cells = tuple(tuple(names[state.board[cell_of(c, r)]] for c in range(SIZE))
                  for r in range(SIZE - 1, -1, -1))
    marks = []
    for s, a in enumerate(state.arrows, 1):
        if a is None:
            continue
        if side_of(s) == 0:
            marks.append((0 if s == 1 else SIZE - 1, a, "▼" if s == 1 else "▲"))
        else:
            marks.append((SIZE - 1 - a, 0 if s == 2 else SIZE - 1, "▶" if s == 2 else "◀"))
    return Picture(cells, tuple(COLUMNS), tuple(reversed(ROWS)), tuple(marks))
