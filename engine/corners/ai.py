"""Corners' computer players: four levels, from a beginner to a timed alpha-beta search.

Level 2 reads the position through an evaluation: each side's remaining distance, over
its pieces outside the target the distance (steps: Manhattan with four directions, king moves
with eight) to the nearest target square it has not filled, plus a penalty per piece still at
home that grows as the home deadline nears. A position is worth the other side's remaining
distance minus one's own. Levels 3 and 4 search with their own (`DeepSearch`).

1. Beginner: one move ahead, picking at random with the better moves likelier; often does not
   see a chain of more than one jump, and never takes a move that loses outright.
2. Casual: one move ahead, the best by the evaluation (ties broken by the seed).
3. Club: `DeepSearch` four plies deep (its move, the reply, its next move, the reply) with level
   4's filling of the open target squares, every move.
4. Expert: `DeepSearch` for a second of its thread's CPU time, as deep as that allows, from
   the third ply on only the ten moves that bring a piece nearest its far corner, its table
   kept from move to move. Once the sides can no longer touch (`race.py`) the game is two
   solo races: the search values such a position by the solo solver instead of searching
   on, and at the root plays the first move of its own solo line at once.

Level 3 stops at `TIME_CAP` seconds of its own CPU time whatever its depth, keeping the best
move of the last depth completed; other work on the machine does not change the move it
plays. Level 4 stops at its budget (`Level.seconds`, at most `TIME_CAP`), so how deep it
gets, and at times its move, depend on the machine's speed.

The seed breaks ties (and the beginner's draws), so levels 1–3 replay the same game for the
same seed. `greedy_move` is the plain one-ply player the match runner measures against.
"""

from __future__ import annotations

import math
import random
import time

from .deep import DeepSearch
from .levels import (
    LEVELS,
    MAX_DEPTH,
    TEMPO,
    TIME_CAP,
    WIN,
    Level,
    Stop,
    home_penalty,
    tables,
)
from .moves import chains, has_move, judge, legal_pairs, stuck_end
from .variants import Variant

#: The names the players' callers (the rules, the review, the match runners) import from here.
__all__ = ["DeepSearch", "LEVELS", "Level", "MAX_DEPTH", "Search", "Stop", "TIME_CAP", "WIN",
           "choose_move", "choose_pair", "greedy_move", "home_penalty", "tables"]


class Search:
    """One position to search, as a mutable board with its home counts kept up to date."""

    def __init__(self, variant: Variant, board, plies: int, pending: bool,
                 nodes: int = 0, width: int = 0, deadline: float | None = None) -> None:
        self.variant = variant
        self.board = list(board)
        self.plies = plies
        self.pending = pending
        self.corner, self.pair_dist = tables(variant)
        self.targets = (sorted(variant.target(1)), sorted(variant.target(2)))
        self.homes = [sum(1 for q in variant.home(s) if self.board[q] == s) for s in (1, 2)]
        self.budget = nodes
        self.width = width
        self.count = 0
        self.deadline = deadline
        self.tt: dict[bytes, tuple[int, tuple[int, int]]] = {}

    def remaining(self, seat: int) -> int:
        """`seat`'s remaining distance: over its pieces outside the target, the distance to
        the nearest target square it has not filled yet."""
        b = self.board
        target = self.targets[seat - 1]
        open_squares = [q for q in target if b[q] != seat]
        if not open_squares:
            return 0
        inside = self.variant.target(seat)
        pd = self.pair_dist
        n = len(b)
        total = 0
        for p in range(n):
            if b[p] == seat and p not in inside:
                base = p * n
                total += min([pd[base + q] for q in open_squares])
        return total

    # the evaluation, from `seat`'s side
    def value(self, seat: int) -> int:
        number = self.plies // 2 + 1
        pen = home_penalty(self.variant, number)
        white = (self.remaining(2) - self.remaining(1)) + pen * (self.homes[1] - self.homes[0])
        v = white if seat == 1 else -white
        return v + TEMPO if seat == 1 + self.plies % 2 else v - TEMPO

    def make(self, seat: int, f: int, t: int) -> None:
        b = self.board
        b[f], b[t] = 0, seat
        home = self.variant.homes[seat - 1]
        self.homes[seat - 1] += (t in home) - (f in home)
        self.plies += 1

    def unmake(self, seat: int, f: int, t: int) -> None:
        b = self.board
        b[f], b[t] = seat, 0
        home = self.variant.homes[seat - 1]
        self.homes[seat - 1] -= (t in home) - (f in home)
        self.plies -= 1

    def ordered(self, seat: int, pairs):
        d = self.corner[seat - 1]
        return sorted(pairs, key=lambda m: d[m[1]] - d[m[0]])

    def terminal(self, reason: str | None, winner: int, seat: int, ply: int) -> int:
        if winner == 0:
            return 0
        return WIN - ply if winner == seat else -WIN + ply

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value for the side to move (its move is due; the game is not over)."""
        seat = 1 + self.plies % 2
        if depth == 0:
            return self.value(seat)
        self.count += 1
        if self.budget and self.count > self.budget:
            raise Stop
        if self.deadline is not None and self.count % 256 == 0 and \
                time.thread_time() > self.deadline:
            raise Stop
        pairs = legal_pairs(self.board, seat, self.variant)
        if not pairs:
            reason, winner = stuck_end(self.pending)
            return self.terminal(reason, winner, seat, ply)
        key = bytes(self.board) + bytes((seat, self.pending))
        hit = self.tt.get(key)
        pairs = self.ordered(seat, pairs)
        if self.width and ply >= 2:
            pairs = pairs[:self.width]
        if hit is not None and hit[1] in pairs:
            pairs.remove(hit[1])
            pairs.insert(0, hit[1])
        number = self.plies // 2 + 1
        best, best_move = -WIN * 2, pairs[0]
        pending = self.pending
        for f, t in pairs:
            self.make(seat, f, t)
            reason, winner, after = judge(self.variant, self.board, seat, number, t, pending)
            if reason is not None:
                v = self.terminal(reason, winner, seat, ply + 1)
            else:
                # (a Stop leaves the board half made: the search is dropped then)
                self.pending = after
                v = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
                self.pending = pending
            self.unmake(seat, f, t)
            if v > best:
                best, best_move = v, (f, t)
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        self.tt[key] = (depth, best_move)
        return best

    def root(self, seat: int, depth: int, rng: random.Random, noise: float) -> tuple[int, int]:
        """The best move, searching `depth` plies (iteratively deeper under a budget)."""
        pairs = self.ordered(seat, legal_pairs(self.board, seat, self.variant))
        jitter = {m: rng.random() * noise for m in pairs}
        best_move = pairs[0]
        number = self.plies // 2 + 1
        pending = self.pending
        for d in range(1, depth + 1):
            try:
                scored = []
                alpha = -WIN * 2
                for f, t in pairs:
                    self.make(seat, f, t)
                    try:
                        reason, winner, after = judge(self.variant, self.board, seat, number,
                                                      t, pending)
                        if reason is not None:
                            v = self.terminal(reason, winner, seat, 1)
                        elif d == 1:
                            v = self.value(seat)
                            if not has_move(self.board, 3 - seat, self.variant):
                                v = self.terminal(*stuck_end(after), seat, 1)
                        else:
                            self.pending = after
                            v = -self.negamax(d - 1, -WIN * 2, -alpha + 1, 1)
                    finally:
                        self.pending = pending
                        self.unmake(seat, f, t)
                    scored.append((v + jitter[(f, t)], (f, t)))
                    alpha = max(alpha, v)
            except Stop:
                break
            scored.sort(key=lambda x: -x[0])
            best_move = scored[0][1]
            pairs = [m for _, m in scored]
            if abs(scored[0][0]) >= WIN // 2:
                break
        return best_move


def _setup(state):
    return state.variant, list(state.board), state.plies, state.pending


def choose_pair(state, seat: int, *, level: int, seed: int,
                seconds: float | None = None) -> tuple[int, int] | None:
    """The (from, to) `level` plays for `seat` in `state`, or None if it is not its turn.
    `seconds` (a timed level only) cuts its budget of CPU time: the practice hint's, which must
    answer within a second; the level's own budget is never raised."""
    if state.to_move != seat:
        return None
    lv = LEVELS.get(level)
    if lv is None:
        from ..errors import EngineError

        raise EngineError(f"Corners has no level {level} (1 to {len(LEVELS)})",
                          levels=sorted(LEVELS))
    variant, board, plies, pending = _setup(state)
    pairs = legal_pairs(board, seat, variant)
    if not pairs:
        return None
    rng = random.Random(seed * 1_000_003 + plies)
    if lv.temperature:
        return _beginner(state, seat, pairs, lv, rng)
    if lv.deep:
        fixed = lv.depth > 1
        budget = TIME_CAP if fixed else min(lv.seconds, TIME_CAP, seconds or TIME_CAP)
        stop_at = time.thread_time() + budget
        search = DeepSearch(variant, board, plies, pending, stop_at, lv)
        return search.root(rng, lv.depth if fixed else MAX_DEPTH)
    if lv.depth <= 1:
        search = Search(variant, board, plies, pending)
        return search.root(seat, 1, rng, 0.5)
    limit = time.thread_time() + TIME_CAP
    search = Search(variant, board, plies, pending, nodes=lv.nodes, width=lv.width,
                    deadline=limit)
    return search.root(seat, lv.depth, rng, 0.5)


def _beginner(state, seat: int, pairs, lv: Level, rng: random.Random) -> tuple[int, int]:
    variant, board = state.variant, state.board
    number = state.number
    dist = tables(variant)[0][seat - 1]
    chain_len = {}
    if rng.random() < lv.miss_chains:  # overlooks chains of more than one jump
        for f in {p[0] for p in pairs}:
            for t, path in chains(board, f, variant).items():
                chain_len[(f, t)] = len(path) - 1
        pairs = [m for m in pairs if chain_len.get(m, 1) <= 1] or pairs
    safe = [m for m in pairs if not (number > variant.deadline and m[1] in variant.home(seat))]
    pairs = safe or pairs
    gains = [dist[f] - dist[t] for f, t in pairs]
    top = max(gains)
    weights = [math.exp((g - top) / lv.temperature) for g in gains]
    return rng.choices(pairs, weights)[0]


def choose_move(state, seat: int, *, level: int, seed: int,
                seconds: float | None = None) -> str | None:
    """The move text (canonical path) `level` plays for `seat`, or None (`seconds`: as in
    `choose_pair`)."""
    pair = choose_pair(state, seat, level=level, seed=seed, seconds=seconds)
    if pair is None:
        return None
    return state.variant.board.path_text(
        chains(list(state.board), pair[0], state.variant)[pair[1]])


def greedy_move(state, seat: int, *, seed: int = 0) -> str | None:
    """A plain one-ply player: the move that brings the piece nearest the far corner of its
    target (Manhattan, or king moves with diagonals) gains the most, ties at random. It does
    not take a move that loses at once if it has another."""
    if state.to_move != seat:
        return None
    variant = state.variant
    board = list(state.board)
    pairs = legal_pairs(board, seat, variant)
    if not pairs:
        return None
    corner = variant.squares - 1 if seat == 1 else 0

    def dist(sq: int) -> int:
        return variant.board.distance(sq, corner, variant.diagonal)

    safe = [m for m in pairs
            if not (state.number > variant.deadline and m[1] in variant.home(seat))]
    pairs = safe or pairs
    best = max(dist(f) - dist(t) for f, t in pairs)
    rng = random.Random(seed * 1_000_003 + state.plies)
    f, t = rng.choice([m for m in pairs if dist(m[0]) - dist(m[1]) == best])
    return variant.board.path_text(chains(board, f, variant)[t])
