"""The search's parameters, and what a node of the search tree holds: the moves of the
colour to play there, best first, with their prior scores (`expand_lists`).

- Early in the game only big pieces are considered (`playing.min_piece_size`; Pentobi
  prunes the same way).
- The race to the middle (20×20 boards): while the colours have placed at most
  `RACE_PLACEMENTS` pieces each on average, a node keeps only the moves that come within
  `RACE_SLACK` of the closest approach to the centre any of its moves makes (Pentobi prunes
  its classic openings the same way); with `race_corners` (level 6), a colour that has
  placed a piece then keeps only the moves that gain it the most attach points
  (`corner_gains`).
- Moves are ordered and scored by the learned prior (`features.py`, level 6) or by the
  one-ply heuristic (`heuristic.py`, levels 3–5); the search turns the scores into prior
  values (`PRIOR_N` virtual simulations per child, `flat.Tree.add`).
- Duo: when the first colour faces a point-symmetric board, a move the mirror can copy is
  worth at most a draw (`mirror_capped`).

The search itself is `flat.FlatSearch`.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .features import prior_logit_array
from .heuristic import score_moves
from .playing import legal_array, min_piece_size
from .tables import move_facts

UCT_C = 0.25  # the UCT exploration constant (level 6 on the 20×20 boards: its own)
RAVE_K = 300.0  # RAVE's weight √(k / (3n + k)) for a child of n visits
WIDEN_BASE = 4  # children eligible: WIDEN_BASE + WIDEN_RATE·√visits, best prior first
WIDEN_RATE = 1.5
EXPAND_AT = 2  # a child's node is expanded at its second visit (prior's visits not counted)
EXPAND_INC = 0.0  # a node d moves below the root's children expands after EXPAND_AT + d·this
PRIOR_N = 10  # virtual simulations per child
PRIOR_TOP = 0.6  # prior value of the best-scored child
PRIOR_SLOPE = 0.05  # prior value lost per heuristic point behind the best child
PRIOR_FLOOR = 0.2
LEARNED_SLOPE = 0.11  # prior value lost per logit behind the best child (learned priors)
RACE_PLACEMENTS = 3  # pieces per colour on the big board while the race to the middle lasts
RACE_SLACK = 0.3  # how much farther from the centre than the closest move a kept move may end
DEAD_SCORE = -1000  # the score of a colour whose seat left the game (ranks last)
SCORE_BONUS = 0.1  # the reward's margin bonus: SCORE_BONUS · tanh(margin / SCORE_SCALE)
SCORE_SCALE = 10.0
TIME_CHECK_EVERY = 16  # simulations between two looks at the clock


def considered_moves(pos, color: int, learned: tuple[float, ...] | None = None,
                     race: int = 0, recent: tuple = (),
                     race_corners: bool = False) -> tuple[list[int], list[float]]:
    """Legal moves of `color` (big pieces only in the opening; on the big board, while the
    colours have placed at most `race` pieces each, only those heading for the centre),
    best first, and their scores in the same order: the learned prior logits with weights
    `learned` (`features.py`; `recent`: the last placements, for its local-point feature),
    else the one-ply heuristic; `race_corners`: see `considered_arrays`."""
    moves, scores = considered_arrays(pos, color, learned, race, recent, race_corners)
    return moves.tolist(), scores.tolist()


def considered_arrays(pos, color: int, learned: tuple[float, ...] | None = None,
                      race: int = 0, recent: tuple = (),
                      race_corners: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """`considered_moves` as arrays (int64 moves, float64 scores): what the flat tree
    copies in without a round trip through lists; `race_corners`: while the race lasts, a
    colour that has placed a piece keeps only the moves that leave it the most attach
    points (`corner_gains`)."""
    min_size = min_piece_size(pos.bc.size, pos.nu_played[color])
    moves = legal_array(pos, color, min_size)
    if not len(moves) and min_size > 1:
        moves = legal_array(pos, color)
    if not len(moves):
        return moves, np.zeros(0, np.float64)
    if racing(pos, color, race):
        dist = _dist_array(pos.bc.size)[moves]
        moves = moves[dist <= dist.min() + RACE_SLACK]
        if race_corners and pos.nu_played[color]:
            gain = corner_gains(pos, color, moves)
            moves = moves[gain == gain.max()]
    if learned is not None:
        s = prior_logit_array(pos, color, moves, learned, recent)
    else:
        s = np.asarray(score_moves(pos, color, moves.tolist()), np.float64)
    order = np.argsort(-s, kind="stable")  # best first, ties in list order
    return moves[order], s[order]


def racing(pos, color: int, race: int) -> bool:
    """Whether `color`'s moves at `pos` are pruned to those heading for the centre (the
    race to the middle, 20×20 boards only): while the colours have placed at most `race`
    pieces on average (so the first seat races one move longer than the others)."""
    if not race or pos.bc.size <= 14:
        return False
    return sum(pos.nu_played) <= race * pos.nu_colors


def corner_gains(pos, color: int, moves: np.ndarray) -> np.ndarray:
    """How many attach points `color` gains with each of `moves` (a colour that has placed
    a piece): the corners a move opens that are not attach points yet, less the attach
    points it covers or borders. In the race to the middle Pentobi's book plays its
    second piece for the most of them (its colours' second moves in level 6's classic
    games gain 4.8 where the best of the race's moves gains 4.9, level 6's own 3.7, the
    mean of the race's moves: lab/README.md), so `race_corners`
    keeps only the moves that gain the most."""
    facts = move_facts(pos.bc.size)
    cells = pos.bc.move_cells_mask
    forb = pos.forbidden[color]
    own = pos.attach_points(color)
    return np.array([(facts.attach[m] & ~forb & ~own).bit_count()
                     - (own & (cells[m] | facts.adj[m])).bit_count() for m in moves.tolist()],
                    np.int64)


@cache
def _dist_array(size: int) -> np.ndarray:
    """`MoveFacts.dist` as an array (the race to the middle, `considered_arrays`)."""
    return np.array(move_facts(size).dist, np.float64)


def expand_lists(pos, color: int, *, dead: frozenset = frozenset(),
                 learned: tuple[float, ...] | None = None, race: int = 0,
                 recent: tuple = (), race_corners: bool = False
                 ) -> tuple[int, np.ndarray, np.ndarray]:
    """What a node of the tree holds: the colour to move at `pos` from `color` on in turn
    order (−1 when no colour can move) and its considered moves and scores, best first
    (`considered_arrays`)."""
    n = pos.nu_colors
    for i in range(n):
        c = (color + i) % n
        if c in dead:
            continue
        moves, scores = considered_arrays(pos, c, learned, race, recent, race_corners)
        if len(moves):
            return c, moves, scores
    return -1, np.zeros(0, np.int64), np.zeros(0, np.float64)


def mirror_capped(pos, color: int, moves: list[int]) -> list[bool] | None:
    """Duo: when the first colour (`color` 0) faces a point-symmetric board, which of
    `moves` the mirror can copy (worth at most a draw); None when the board is not so."""
    if pos.nu_colors != 2 or color != 0 or not pos.nu_played[1]:
        return None
    if pos.nu_played[0] != pos.nu_played[1]:
        return None
    facts = move_facts(pos.bc.size)
    if facts.mirror_mask(pos.occupied[0]) != pos.occupied[1]:
        return None
    cm = pos.bc.move_cells_mask
    mirror = facts.mirror
    return [not cm[m] & cm[mirror[m]] for m in moves]
