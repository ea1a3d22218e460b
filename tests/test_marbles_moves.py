"""Corner's move generator against a slow, obvious one written from the rules' words, on random
setups and random play (Hypothesis), and against what `play` accepts; the search's own fast
generator must agree too. Also perft counts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import errors as E
from engine.marbles import RULES, start_state
from engine.marbles.ai import Search
from engine.marbles.board import BLACK, EMPTY, FULL_SET

COLUMNS, ROWS = "abcdef", "123456"
#: Every text a move could be: the 36 cells and the 12 lines.
TEXTS = [c + r for c in COLUMNS for r in ROWS] + list(COLUMNS) + list(ROWS)


def slow_legal(state, seat: int) -> set[str]:
    """The rules read literally. Before any arrow stands, the starter names any line of its
    own kind (columns for red, odd seats; rows for yellow, even seats). Otherwise a move is a
    cell: the mover's new line runs through it and differs from the line its arrow is on, an
    arrow of the other side points at the cell's other line, and a marble that is not black
    lies there."""
    if state.over or not state.playing or state.to_move != seat:
        return set()
    red = seat % 2 == 1
    if all(a is None for a in state.arrows):
        return set(COLUMNS if red else ROWS)
    out = set()
    for col in range(6):
        for row in range(6):
            mine, theirs = (col, row) if red else (row, col)
            if mine == state.arrows[seat - 1]:
                continue
            if not any(a == theirs for s, a in enumerate(state.arrows, 1)
                       if (s % 2 == 1) != red):
                continue
            content = state.board[row * 6 + col]
            if content in (EMPTY, BLACK):
                continue
            out.add(COLUMNS[col] + ROWS[row])
    return out


def accepted(state, seat: int) -> set[str]:
    """The texts `play` accepts for `seat` (canonical forms)."""
    out = set()
    for text in TEXTS:
        try:
            out.add(RULES.play(state, seat, text).move)
        except E.EngineError:
            continue
    return out


@settings(max_examples=60, deadline=None)
@given(deal=st.permutations(FULL_SET), variant=st.sampled_from(["2p", "4p"]),
       picks=st.lists(st.integers(0, 1_000), min_size=0, max_size=40))
def test_the_legal_list_is_the_slow_generators_on_random_play(deal, variant, picks):
    state = start_state(variant, "".join(deal))
    for pick in picks + [0] * 40:
        if not state.playing:
            break
        seat = state.to_move
        listed = [m["move"] for m in RULES.legal(state, seat)]
        assert len(listed) == len(set(listed))
        assert set(listed) == slow_legal(state, seat)
        assert set(listed) == accepted(state, seat)
        for other in range(1, state.seats + 1):
            if other != seat:
                assert RULES.legal(state, other) == []
        fast = {state.move_text(seat, line, None if cell < 0 else cell)
                for line, cell in Search(state).moves(seat)}
        assert fast == set(listed)
        assert listed, "the round would have ended"
        state = RULES.apply(state, RULES.play(state, seat, listed[pick % len(listed)]))
    if not state.playing:  # the round ended: its mover could not take
        seat = (state.starter - 1 + len(state.moves)) % state.seats + 1
        assert slow_legal(_as_playing(state), seat) == set()


def _as_playing(state):
    from dataclasses import replace

    return replace(state, playing=True, end=None)


def test_perft():
    # red opens on any of 6 columns; yellow then has 5 or 6 rows on that column
    assert RULES.perft("2p", 1) == 6
    assert RULES.perft("2p", 2) == sum(
        len(RULES.legal(s, 2)) for s in (RULES.apply(start_state("2p"), RULES.play(
            start_state("2p"), 1, c)) for c in COLUMNS))
    assert RULES.perft("2p", 4) == 681
    assert RULES.perft("4p", 4) == 1362
    after_c = RULES.apply(start_state("2p"), RULES.play(start_state("2p"), 1, "c"))
    assert RULES.perft("2p", 1, ("c",)) == len(RULES.legal(after_c, 2)) == 6
