"""Move generation and the end of a game, on a bare board (size² numbers: 0, 1 white, 2 black).

Shared by the rules (`rules.State`), the computer players and `perft`. Nothing here keeps a
history: threefold repetition is the rules' business.

A piece's moves: a step to an empty neighbour, or a chain of jumps, each over a neighbouring
piece of either colour to the empty square right behind it. While a chain runs the piece has
left its starting square, so that square is empty: it can be neither jumped over nor landed
on. A chain never lands twice on one square. A move is known by its from and to squares;
its path is the shortest chain, and among several shortest ones the path that comes first
alphabetically as written (c3-c5-e5 before c3-e3-e5): squares compared one by one from the
start in the order a1, a2, …, a8, b1, …, h8 (by column, then by row number: on 16×16 a9
before a10).
"""

from __future__ import annotations

from .variants import Variant


def chains(board, origin: int, variant: Variant) -> dict[int, tuple[int, ...]]:
    """Every square the piece on `origin` can move to, with its canonical path (steps first,
    then jump landings in breadth-first order)."""
    out: dict[int, tuple[int, ...]] = {}
    for n in variant.neighbours[origin]:
        if not board[n]:
            out[n] = (origin, n)
    jumps = variant.jumps
    alpha_key = variant.board.alpha_key
    seen = {origin}
    level: list[tuple[int, ...]] = [(origin,)]
    # Breadth first, a level's paths in alphabetical order: each parent (in that order)
    # claims its unclaimed landings in alphabetical order, so every landing gets the
    # alphabetically first of its shortest paths and the next level stays in order.
    while level:
        following = []
        for path in level:
            found = [land for over, land in jumps[path[-1]]
                     if board[over] and over != origin and not board[land] and land not in seen]
            found.sort(key=alpha_key)
            for land in found:
                seen.add(land)
                longer = path + (land,)
                out[land] = longer
                following.append(longer)
        level = following
    return out


def destinations(board, origin: int, neighbours, jumps) -> list[int]:
    """The squares the piece on `origin` can reach (steps, then jump landings), no paths."""
    out = [n for n in neighbours[origin] if not board[n]]
    seen = {origin}
    frontier = [origin]
    while frontier:
        following = []
        for p in frontier:
            for over, land in jumps[p]:
                if board[over] and not board[land] and land not in seen and over != origin:
                    seen.add(land)
                    following.append(land)
        out.extend(following)
        frontier = following
    return out


def is_locked(board, p: int, neighbours, jumps) -> bool:
    """Whether the piece on `p` has neither a step nor a jump."""
    for n in neighbours[p]:
        if not board[n]:
            return False
    # every neighbour is taken: a jump needs only an empty landing
    for _over, land in jumps[p]:
        if not board[land]:
            return False
    return True


def takes_part(board, p: int, seat: int, neighbours, jumps) -> bool:
    """Whether a piece of `seat` helps wall in the piece on `p`: it stands on a neighbour, or
    right behind an occupied neighbour (blocking the jump over it)."""
    return (any(board[n] == seat for n in neighbours[p])
            or any(board[land] == seat and board[over] for over, land in jumps[p]))


def locks_in(board, to: int, seat: int, neighbours, jumps) -> bool:
    """Whether the move of `seat` that just landed on `to` (`board` is after it) locks in a
    piece of the other side that was not locked in before.

    Only a piece next to `to`, or one whose jump over an occupied neighbour lands on `to`,
    can have lost its last move: emptying the starting square only frees squares. Such a
    piece had a move before (onto `to`), and the piece on `to` takes part in its lock.
    """
    other = 3 - seat
    for n in neighbours[to]:
        if board[n] == other and is_locked(board, n, neighbours, jumps):
            return True
    for over, land in jumps[to]:
        if board[land] == other and board[over] and is_locked(board, land, neighbours, jumps):
            return True
    return False


def legal_pairs(board, seat: int, variant: Variant) -> list[tuple[int, int]]:
    """`seat`'s legal moves as (from, to), from squares ascending. `board` must be a list
    (it is changed and restored while the lock-in rule is checked)."""
    neighbours, jumps = variant.neighbours, variant.jumps
    check = not variant.locking_allowed
    out = []
    for f in range(len(board)):
        if board[f] != seat:
            continue
        for t in destinations(board, f, neighbours, jumps):
            if check:
                board[f] = 0
                board[t] = seat
                bad = locks_in(board, t, seat, neighbours, jumps)
                board[t] = 0
                board[f] = seat
                if bad:
                    continue
            out.append((f, t))
    return out


def has_move(board, seat: int, variant: Variant) -> bool:
    """Whether `seat` has a legal move (`board` a list, restored)."""
    neighbours, jumps = variant.neighbours, variant.jumps
    check = not variant.locking_allowed
    for f in range(len(board)):
        if board[f] != seat:
            continue
        for t in destinations(board, f, neighbours, jumps):
            if not check:
                return True
            board[f] = 0
            board[t] = seat
            bad = locks_in(board, t, seat, neighbours, jumps)
            board[t] = 0
            board[f] = seat
            if not bad:
                return True
    return False


def fills(board, seat: int, variant: Variant) -> bool:
    """Whether `seat`'s pieces fill every square of its target."""
    return all(board[s] == seat for s in variant.target(seat))


def in_target(board, seat: int, variant: Variant) -> int:
    return sum(1 for s in variant.target(seat) if board[s] == seat)


def at_home(board, seat: int, variant: Variant) -> int:
    """`seat`'s pieces in its own home that count at the home deadline: in the variants that
    allow locking in, not those locked in with a piece of the other side taking part."""
    home = variant.home(seat)
    if not variant.locking_allowed:
        return sum(1 for s in home if board[s] == seat)
    neighbours, jumps = variant.neighbours, variant.jumps
    return sum(1 for s in home if board[s] == seat and not (
        is_locked(board, s, neighbours, jumps)
        and takes_part(board, s, 3 - seat, neighbours, jumps)))


def loses_by_return(variant: Variant, number: int, seat: int, to: int) -> bool:
    """Whether `seat`'s move number `number` landing on `to` comes home after the deadline."""
    return number > variant.deadline and to in variant.homes[seat - 1]


def judge(variant: Variant, board, seat: int, number: int, to: int,
          pending: bool) -> tuple[str | None, int, bool]:
    """The end after `seat`'s move number `number` landed on `to` (`board` after it), by the
    rules checked in order: a return home after the deadline, the targets, the home deadline,
    the move limit. `pending`: white filled its target on its move of this number, and this is
    black's reply. Returns (reason or None, winner (0: a draw), pending after the move)."""
    if number > variant.deadline and to in variant.homes[seat - 1]:
        return "home_return", 3 - seat, False
    if seat == 1:
        return None, 0, fills(board, 1, variant)
    black_filled = fills(board, 2, variant)
    if pending:
        return "target", 0 if black_filled else 1, False
    if black_filled:
        return "target", 2, False
    if number == variant.deadline:
        white_home = at_home(board, 1, variant)
        black_home = at_home(board, 2, variant)
        if white_home or black_home:
            winner = 0 if white_home and black_home else (2 if white_home else 1)
            return "deadline", winner, False
    if number >= variant.limit:
        white, black = in_target(board, 1, variant), in_target(board, 2, variant)
        return "move_limit", 0 if white == black else (1 if white > black else 2), False
    return None, 0, False


def stuck_end(pending: bool) -> tuple[str, int]:
    """The end when the side to move has no legal move: a draw, except that black, unable to
    reply after white filled its target, loses (white has got home first)."""
    return ("target", 1) if pending else ("no_move", 0)
