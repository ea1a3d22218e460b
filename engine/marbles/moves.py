"""Corner's move generator on bare values: a board (36 codes), the arrows (one line or None
per seat, in seat order) and the seat to move.

Seats alternate sides: odd seats are red (their arrows point at columns), even seats yellow
(rows). A round opens with the starter placing its arrow on any line and taking nothing; every
other move puts the mover's arrow on a line (a different one from where it stood, if it had
been placed) and takes the marble where that line crosses an arrow of the other side. Neither
an empty cell nor a black marble can be taken.
"""

from __future__ import annotations

from .board import BLACK, SIZE


def side_of(seat: int) -> int:
    """0 (red) for odd seats, 1 (yellow) for even ones."""
    return (seat - 1) % 2


def is_opening(arrows) -> bool:
    """Whether no arrow stands yet: the round's first move is a placement without a take."""
    return all(a is None for a in arrows)


def crossing(side: int, line: int, other: int) -> int:
    """The cell where the mover's `line` crosses the other side's line `other`."""
    return other * SIZE + line if side == 0 else line * SIZE + other


def opposing_lines(arrows, seat: int) -> list[int]:
    """The distinct lines the other side's arrows point at, in line order."""
    side = side_of(seat)
    return sorted({a for s, a in enumerate(arrows, 1) if side_of(s) != side and a is not None})


def takes(board, arrows, seat: int) -> list[tuple[int, int]]:
    """`seat`'s moves that take a marble, as (its new line, the cell taken), ordered by
    cell (a1, a2, …, f6). Empty at a round's opening (see `is_opening`)."""
    side = side_of(seat)
    own = arrows[seat - 1]
    others = opposing_lines(arrows, seat)
    out = []
    for line in range(SIZE):
        if line == own:
            continue
        for other in others:
            cell = crossing(side, line, other)
            if board[cell] < BLACK:
                out.append((line, cell))
    out.sort(key=lambda m: (m[1] % SIZE, m[1] // SIZE))
    return out


def has_take(board, arrows, seat: int) -> bool:
    side = side_of(seat)
    own = arrows[seat - 1]
    others = opposing_lines(arrows, seat)
    return any(board[crossing(side, line, other)] < BLACK
               for line in range(SIZE) if line != own for other in others)
