"""Corners' state: the immutable value folded from a game's log (the board, the moves, the
clock, how it ended), the clock's small helpers the fold and the capabilities share, a
set-up position placed on a state, and the solo race's move."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from .events import Moved
from .moves import at_home, chains, fills, has_move, in_target, locks_in, loses_by_return
from .variants import Variant


class Played(NamedTuple):
    seq: int
    seat: int
    path: tuple[int, ...]
    at_ms: int | None


@dataclass(frozen=True)
class State:
    """The fold of a game's log. `board[sq]` is 0, 1 (white) or 2 (black), sq = row * size +
    col with a1 = 0 (size the variant's: 8, or 16); `positions` the position keys (board and
    side to move) since the start, for threefold repetition; `end` is (reason, winner or 0 for
    a draw) once the game is over; `pending` says white filled its target and black is to
    make its reply of the same number. Clock: `clock` is each seat's remaining ms as of
    `clock_started_ms`, the host time the running side's clock started (None: no clock runs);
    `last_at_ms` the latest host time an event recorded. `before` is the state before the
    latest move (for takebacks)."""

    variant: Variant
    seq: int
    players: tuple[str, ...]
    reserve_ms: int
    increment_ms: int
    board: tuple[int, ...]
    moves: tuple[Played, ...] = ()
    positions: tuple[bytes, ...] = ()
    pending: bool = False
    end: tuple[str, int] | None = None
    left: frozenset[int] = frozenset()
    clock: tuple[int, int] = (0, 0)
    clock_started_ms: int | None = None
    last_at_ms: int | None = None
    draw_offer: int | None = None
    offered_at: tuple[int, int] = (-1, -1)  # the seat's own moves when it last offered a draw
    solo: bool = False  # the solo race: white alone, every move white's (`practice`)
    practice: bool = False  # unrated, off the ladder, no clock (a set-up or solo game too)
    before: State | None = field(default=None, compare=False, repr=False)

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def to_move(self) -> int | None:
        if self.end is not None:
            return None
        return 1 if self.solo else 1 + len(self.moves) % 2

    @property
    def number(self) -> int:
        """The number of the move to be made next (a number is a pair: white, then black;
        in the solo race every move has its own)."""
        return len(self.moves) + 1 if self.solo else len(self.moves) // 2 + 1

    @property
    def seats(self) -> tuple[int, ...]:
        return (1,) if self.solo else (1, 2)

    @property
    def has_clock(self) -> bool:
        return self.reserve_ms > 0

    @property
    def running(self) -> int | None:
        """The seat whose clock runs, or None."""
        if not self.has_clock or self.end is not None or self.clock_started_ms is None:
            return None
        return self.to_move

    def own_moves(self, seat: int) -> int:
        return (len(self.moves) + (seat == 1)) // 2

    def remaining_ms(self, seat: int, at_ms: int | None = None) -> int:
        """`seat`'s time left at host time `at_ms` (its clock as of the last event if None)."""
        left = self.clock[seat - 1]
        if (at_ms is not None and self.running == seat
                and self.clock_started_ms is not None):
            left -= max(0, at_ms - self.clock_started_ms)
        return left

    def flag_down(self, at_ms: int | None) -> bool:
        """Whether the running side's time is gone at host time `at_ms`."""
        seat = self.running
        return seat is not None and at_ms is not None and self.remaining_ms(seat, at_ms) <= 0

    def key(self) -> bytes:
        return bytes(self.board) + bytes((self.to_move or 0,))

    def in_target(self, seat: int) -> int:
        return in_target(self.board, seat, self.variant)

    def at_home(self, seat: int) -> int:
        """`seat`'s pieces in its own home (as the home deadline counts them)."""
        return at_home(self.board, seat, self.variant)

    def pieces(self, seat: int) -> list[int]:
        return [s for s in range(len(self.board)) if self.board[s] == seat]

    def rows(self) -> list[list[int]]:
        """The board as rows of 0/1/2, the top row (8, or 16) first."""
        n = self.variant.size
        return [list(self.board[r * n:r * n + n]) for r in range(n - 1, -1, -1)]

    def legal_paths(self, seat: int, origin: int | None = None) -> list[tuple[tuple[int, ...],
                                                                              bool]]:
        """`seat`'s legal moves now as (canonical path, loses), ordered by from square, then
        by to square (alphabetically); only the piece on `origin` if given."""
        if self.to_move != seat:
            return []
        variant = self.variant
        neighbours, jumps = variant.neighbours, variant.jumps
        check = not variant.locking_allowed
        board = list(self.board)
        number = self.number
        out = []
        alpha_key = variant.board.alpha_key
        squares = [origin] if origin is not None else variant.board.alphabetical
        for f in squares:
            if board[f] != seat:
                continue
            reach = chains(board, f, variant)
            for t in sorted(reach, key=alpha_key):
                if check:
                    board[f], board[t] = 0, seat
                    bad = locks_in(board, t, seat, neighbours, jumps)
                    board[f], board[t] = seat, 0
                    if bad:
                        continue
                out.append((reach[t], not self.solo
                            and loses_by_return(variant, number, seat, t)))
        return out


def later(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)


def stopped(state: State, at_ms: int | None) -> dict:
    """The clock fields once the game ends at `at_ms`: the running side charged, stopped."""
    seat = state.running
    if seat is None:
        return {"clock_started_ms": None}
    clock = list(state.clock)
    clock[seat - 1] = state.remaining_ms(seat, at_ms)
    return {"clock": (clock[0], clock[1]), "clock_started_ms": None}


def placed(state: State, board, to_move: int, number: int) -> State:
    """`state` with `board` on the board and `to_move` to make move `number`: the moves before
    it are placeholders (seq 0, no path)."""
    plies = (number - 1) if state.solo else 2 * (number - 1) + (to_move - 1)
    moves = tuple(Played(0, 1 if state.solo else 1 + i % 2, (), None) for i in range(plies))
    state = replace(state, board=tuple(board), moves=moves)
    return replace(state, positions=(state.key(),))


def solo_moved(state: State, event: Moved, path: tuple[int, ...], board: list[int]) -> State:
    """The solo race's move: no deadline or repetition; over once the target is filled, at
    the race's limit (`Variant.solo_limit`) or, from a set-up position, when no move is
    left."""
    variant = state.variant
    end = None
    if fills(board, 1, variant):
        end = ("target", 1)
    elif len(state.moves) + 1 >= variant.solo_limit:
        end = ("move_limit", 0)
    elif not has_move(board, 1, variant):
        end = ("no_move", 0)
    new = replace(state, seq=event.seq, board=tuple(board),
                  moves=state.moves + (Played(event.seq, 1, path, event.at_ms),),
                  last_at_ms=later(state.last_at_ms, event.at_ms), end=end, before=state)
    return replace(new, positions=state.positions + (new.key(),))
