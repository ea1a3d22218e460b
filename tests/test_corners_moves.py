"""Corners' move generator: perft from every variant's start against golden numbers and a
slow, obvious generator written here (every chain by depth-first search, the lock-in rule
checked literally on every piece), the same generator against the legal list on random
positions, the shortest-chain choice, from–to input and the lock-in rule's edge cases."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.corners import RULES, perft, setup_state
from engine.corners import errors as E
from engine.corners.variants import VARIANTS
from engine.rules import legal_json

COLS = "abcdefghijklmnop"
ORTHO = [(0, 1), (1, 0), (0, -1), (-1, 0)]
DIAG = [(1, 1), (1, -1), (-1, -1), (-1, 1)]

#: perft from the start, depths 1–4 (depth 4 cross-checked with `slow_perft` once: set
#: CORNERS_SLOW_PERFT=1 to run that check again, about 30 s).
GOLDEN = {
    "classic-3x3": [12, 144, 2784, 53824],
    "classic-3x4": [14, 196, 4412, 99569],
    "diagonal-3x3": [26, 677, 23547, 828210],
    "diagonal-3x4": [33, 1107, 49318, 2248422],
    "triangle": [14, 196, 3584, 65536],
    "4x4": [16, 260, 6524, 164590],
}
#: Halma 16×16 from the start, depths 1–3 (the slow generator checks all three).
HALMA = [40, 1600, 85440]


# -- the slow, obvious generator ---------------------------------------------------------------


def sq_name(c: int, r: int) -> str:
    return f"{COLS[c]}{r + 1}"


def parse_name(text: str) -> tuple[int, int]:
    """`p16` -> (column, row), both from 0."""
    return COLS.index(text[0]), int(text[1:]) - 1


def board_from(rows: list[str]) -> list[int]:
    """Rows top (8) first, "." empty, "W" white, "B" black -> 64 numbers (a1 first)."""
    assert len(rows) == 8 and all(len(r) == 8 for r in rows)
    out = [0] * 64
    for i, row in enumerate(rows):
        r = 7 - i
        for c, ch in enumerate(row):
            out[r * 8 + c] = ".WB".index(ch)
    return out


def classic(*rows: str, **fields):
    """A classic 3×3 position of `rows` (as `board_from` reads them), white to move unless
    `fields` say otherwise."""
    return setup_state("classic-3x3", board_from(list(rows)), **fields)


def slow_moves(variant_name: str, board: list[int], seat: int, number: int) -> dict:
    """{path text: loses} of `seat`'s legal moves, one per destination, the shortest path and
    the first of those by its squares' names, column letter then row number."""
    v = VARIANTS[variant_name]
    dirs = ORTHO + (DIAG if v.diagonal else [])
    n = v.size

    def get(b, c, r):
        return b[r * n + c] if 0 <= c < n and 0 <= r < n else None

    def locked(b, c, r):
        for dc, dr in dirs:
            n = get(b, c + dc, r + dr)
            if n == 0:
                return False
            if n and get(b, c + 2 * dc, r + 2 * dr) == 0:
                return False
        return True

    def part(b, c, r, who):
        for dc, dr in dirs:
            n = get(b, c + dc, r + dr)
            if n == who or (n and get(b, c + 2 * dc, r + 2 * dr) == who):
                return True
        return False

    home = {(s % n, s // n) for s in v.home(seat)}
    out = {}
    for r0 in range(n):
        for c0 in range(n):
            if get(board, c0, r0) != seat:
                continue
            paths = [[(c0, r0), (c0 + dc, r0 + dr)] for dc, dr in dirs
                     if get(board, c0 + dc, r0 + dr) == 0]
            lifted = list(board)
            lifted[r0 * n + c0] = 0

            def dfs(path, lifted=lifted, paths=paths):
                c, r = path[-1]
                for dc, dr in dirs:
                    land = (c + 2 * dc, r + 2 * dr)
                    if (get(lifted, c + dc, r + dr) and get(lifted, *land) == 0
                            and land not in path):
                        paths.append(path + [land])
                        dfs(path + [land])

            dfs([(c0, r0)])
            best: dict = {}
            for p in paths:
                key = (len(p), p)  # squares as (column, row): by letter, then row number
                if p[-1] not in best or key < best[p[-1]]:
                    best[p[-1]] = key
            for dest, (_, p) in best.items():
                text = "-".join(sq_name(*x) for x in p)
                after = list(board)
                after[r0 * n + c0] = 0
                after[dest[1] * n + dest[0]] = seat
                if not v.diagonal and any(
                        get(after, c, r) == 3 - seat and locked(after, c, r)
                        and not locked(board, c, r) and part(after, c, r, seat)
                        for r in range(n) for c in range(n)):
                    continue
                out[text] = number > v.deadline and dest in home
    return out


def slow_perft(variant_name: str, board: list[int], plies: int, depth: int) -> int:
    """perft with the slow generator (no game ends: none can happen within four moves from
    the start)."""
    seat = 1 + plies % 2
    moves = slow_moves(variant_name, board, seat, plies // 2 + 1)
    if depth == 1:
        return len(moves)
    n = VARIANTS[variant_name].size
    total = 0
    for text in moves:
        squares = [parse_name(x) for x in text.split("-")]
        after = list(board)
        (c0, r0), (c1, r1) = squares[0], squares[-1]
        after[r0 * n + c0] = 0
        after[r1 * n + c1] = seat
        total += slow_perft(variant_name, after, plies + 1, depth - 1)
    return total


def fast_moves(state, seat) -> dict:
    return {m["move"]: m.get("loses", False) for m in RULES.legal(state, seat)}


# -- perft -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(GOLDEN))
def test_perft_from_the_start_matches_the_golden_numbers(variant):
    assert [perft(variant, d) for d in (1, 2, 3, 4)] == GOLDEN[variant]


@pytest.mark.parametrize("variant", sorted(GOLDEN))
def test_the_slow_generator_agrees_with_the_golden_numbers(variant):
    board = list(VARIANTS[variant].start_board())
    depth = 4 if os.environ.get("CORNERS_SLOW_PERFT") else 3
    assert [slow_perft(variant, board, 0, d) for d in range(1, depth + 1)] == \
        GOLDEN[variant][:depth]


def test_halma_perft_from_the_start_agrees_with_the_slow_generator():
    board = list(VARIANTS["halma-16x16"].start_board())
    assert [perft("halma-16x16", d) for d in (1, 2, 3)] == HALMA
    assert [slow_perft("halma-16x16", board, 0, d) for d in (1, 2, 3)] == HALMA


def test_perft_after_given_moves_and_at_depth_zero():
    assert perft("classic-3x3", 0) == 1
    after = perft("classic-3x3", 2, moves=["c3-d3", "f6-e6"])
    state = classic(".....BBB", ".....BBB", "....B.BB", "........",
                    "........", "WW.W....", "WWW.....", "WWW.....", number=2)
    assert after == perft(state, 2)
    assert perft("classic-3x3", 1, moves=["c3-d3"]) == 12  # black mirrors white's start


# -- the legal list against the slow generator on random positions ----------------------------


@st.composite
def positions(draw):
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    area = VARIANTS[variant].size ** 2
    squares = draw(st.lists(st.integers(0, area - 1), min_size=2,
                            max_size=26 if area == 64 else 80, unique=True))
    split = draw(st.integers(1, len(squares) - 1))
    board = [0] * area
    for i, s in enumerate(squares):
        board[s] = 1 if i < split else 2
    seat = draw(st.sampled_from([1, 2]))
    number = draw(st.sampled_from([1, 29, 31, 40, 41, 60, 61]))
    return variant, board, seat, number


@settings(max_examples=300, deadline=None)
@given(positions())
def test_the_legal_list_equals_the_slow_generator(pos):
    variant, board, seat, number = pos
    state = setup_state(variant, board, to_move=seat, number=number)
    assert fast_moves(state, seat) == slow_moves(variant, board, seat, number)
    assert fast_moves(state, 3 - seat) == {}  # not its turn


# -- chains, the shortest one, from–to input ----------------------------------------------------

TWO_WAYS = board_from([
    "......BB", ".......B", "........", "...W....",
    "..W.W...", "..WW....", "........", "W......."])


def test_the_table_takes_the_shortest_chain_alphabetically_first():
    state = setup_state("classic-3x3", TWO_WAYS)
    moves = fast_moves(state, 1)
    # c3 to e5: over d3 and e4 (c3-e3-e5) or over c4 and d5 (c3-c5-e5): both two jumps
    assert "c3-c5-e5" in moves and "c3-e3-e5" not in moves
    for text in ("c3-e5", "c3-e3-e5", "C3-c5-E5"):
        assert RULES.play(state, 1, text).move == "c3-c5-e5"
    # one entry per destination
    ends = [m["to"] for m in RULES.legal(state, 1) if m["from"] == "c3"]
    assert len(ends) == len(set(ends))


def test_a_longer_real_chain_is_stored_as_the_shortest():
    state = setup_state("classic-3x3", TWO_WAYS)
    # c3-e3-e5-c5: a real chain of three jumps to c5, which one jump reaches
    assert RULES.play(state, 1, "c3-e3-e5-c5").move == "c3-c5"


@pytest.mark.parametrize("move, error", [
    ("c3-d3-e5", E.NotAChainError),  # not a jump
    ("c3-e3-e5-e3", E.NotAChainError),  # lands twice on e3
    ("c3-h3", E.UnreachableError),
    ("h8-h6", E.NotYourPieceError),
    ("c3", E.NotationError),
    ("c3-z9", E.NotationError),
])
def test_a_full_path_must_be_a_real_chain(move, error):
    with pytest.raises(error):
        RULES.play(setup_state("classic-3x3", TWO_WAYS), 1, move)


def test_a_chain_never_lands_on_its_start():
    # a1-a3-c3-c1 could jump on over b1 back to a1: a chain may not land on its start
    state = classic("......BB", "........", "........", "........",
                    "........", ".W......", "W.W.....", "WW......")
    moves = fast_moves(state, 1)
    assert {"a1-a3", "a1-a3-c3", "a1-c1"} <= set(moves)
    assert not any(m.startswith("a1") and m.endswith("-a1") for m in moves)
    assert RULES.play(state, 1, "a1-a3-c3-c1").move == "a1-c1"
    with pytest.raises(E.NotAChainError):
        RULES.play(state, 1, "a1-a3-c3-c1-a1")


def test_steps_and_jumps_in_eight_directions_on_the_diagonal_variants():
    board = board_from([
        "......BB", "........", "........", "........",
        "........", "........", ".W......", "W......."])
    diag = fast_moves(setup_state("diagonal-3x3", board), 1)
    orth = fast_moves(setup_state("classic-3x3", board), 1)
    assert "a1-c3" in diag and "a1-c3" not in orth
    assert "b2-c3" in diag and "b2-c3" not in orth
    assert "a1-b2" not in diag  # occupied


def test_the_legal_list_of_one_piece():
    state = setup_state("classic-3x3", TWO_WAYS)
    some = RULES.legal(state, 1, "c3")
    assert some and all(m["from"] == "c3" for m in some)
    assert RULES.legal(state, 1, "h8") == []
    with pytest.raises(E.NotationError):
        RULES.legal(state, 1, "k9")
    assert legal_json(RULES, state, 1).startswith(b'[{"move":')


# -- locking in ---------------------------------------------------------------------------------


def test_a_move_that_locks_in_by_blocking_a_jump_is_illegal():
    # black h8 has g8, h7 and f8 of its own around it; white h5-h6 would block its last jump
    board = board_from([
        ".....BBB", ".......B", "........", ".......W",
        "........", "........", "........", "W......."])
    state = setup_state("classic-3x3", board)
    assert "h5-h6" not in fast_moves(state, 1)
    with pytest.raises(E.LockInError):
        RULES.play(state, 1, "h5-h6")
    # the diagonal variants allow it
    diag = setup_state("diagonal-3x3", board)
    assert "h5-h6" in fast_moves(diag, 1)
    assert RULES.play(diag, 1, "h5-h6").move == "h5-h6"


def test_a_move_that_locks_in_as_a_neighbour_is_illegal():
    # black h8: white already on h7, f8 and h6; white g7-g8 would take its last step
    state = classic(".....W.B", "......WW", ".......W", "........",
                    "........", "........", "........", "W.......")
    moves = fast_moves(state, 1)
    assert "g7-g8" not in moves and "g7-f7" in moves
    with pytest.raises(E.LockInError):
        RULES.play(state, 1, "g7-g8")


def test_a_piece_walled_in_by_its_own_side_does_not_count():
    # black h8 is walled in by black alone (g8, h7 and the squares behind them, f8 and h6)
    board = board_from([
        ".....BBB", ".......B", ".......B", "........",
        "........", "........", ".......W", "W......."])
    state = setup_state("classic-3x3", board)
    assert len(fast_moves(state, 1)) == len(slow_moves("classic-3x3", board, 1, 1)) > 0
    assert RULES.play(state, 1, "h2-h3").move == "h2-h3"
    # white g6-g7 stands next to the wall: nothing is newly locked in
    assert "g6-g7" in fast_moves(classic(".....BBB", ".......B", "......WB", "........",
                                         "........", "........", "........", "W......."), 1)


def test_a_piece_locked_in_before_the_move_does_not_count():
    # black h8 got locked in by black's own h5-h6 with white's h7 taking part: white may
    # still move (the lock was there before its move)
    state = classic(".....BBB", ".......W", ".......B", "........",
                    "........", "........", "........", "W.......")
    assert RULES.play(state, 1, "a1-a2").move == "a1-a2"
    assert "a1-a2" in fast_moves(state, 1)


def test_a_side_may_lock_in_its_own_piece():
    black = classic("....B.BB", ".......B", ".......W", "........",
                    "........", "........", "........", "W.......", to_move=2)
    assert "e8-f8" in fast_moves(black, 2)
