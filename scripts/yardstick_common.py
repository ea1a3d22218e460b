"""What the two Corners yardsticks (scripts/corners_yardstick.py, scripts/corners_yardstick2.py)
share besides the rules: the distance between two squares, the text of a (from, to) move, the
clock running out, and the command line that prints a first move. Their evaluations and
searches are their own."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from engine.corners.moves import chains


class OutOfTime(Exception):
    """The move's budget ran out mid-search."""


def square_distance(size: int, diagonal: bool) -> Callable[[int, int], int]:
    """The distance between two squares of a size × size board: Manhattan with four
    directions, king moves with eight (`diagonal`)."""

    def dist(p: int, q: int) -> int:
        dc, dr = abs(p % size - q % size), abs(p // size - q // size)
        return max(dc, dr) if diagonal else dc + dr

    return dist


def move_text(state, pair: tuple[int, int] | None) -> str | None:
    """The move text (canonical path) of a (from, to) pair in `state`, or None."""
    if pair is None:
        return None
    return state.variant.board.path_text(chains(list(state.board), pair[0],
                                                state.variant)[pair[1]])


def first_move_main(description: str, pair: Callable, argv=None) -> int:
    """`--variant V --seconds S`: print what each depth reached and the first move that
    `pair(state, seat, seconds=S, verbose=True)` plays."""
    from engine.corners.rules import start_state

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--variant", default="classic-3x3")
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args(argv)
    state = start_state(args.variant, reserve_s=0)
    print(move_text(state, pair(state, 1, seconds=args.seconds, verbose=True)))
    return 0
