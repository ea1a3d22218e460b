"""Every level plays exactly the moves it played when these were recorded.

A cleanup or a speed-up of the computer players must not change what they play: for each
variant, a few fixed positions (a game some placements in, level 2 playing, seed = ply),
and each level 1–6 asked for a move there with a fixed seed. The search levels run their
own playout budgets without a time cap that could cut them short; level 6, time-bound as
shipped, runs a fixed number of simulations instead (`LEVEL_6_SIMULATIONS`), so its
search is reproducible too. One more case plays a stretch of a game with tree reuse on
(levels 3 and 4 reusing their trees move after move, as the host calls them).

To record the table again after a change that is meant to change play:
`.venv/bin/python tests/test_ai_levels_unchanged.py` prints it.
"""

from __future__ import annotations

import pytest

from engine.cornerclaim import new_game
from engine.cornerclaim.ai import choose_move, hint

LEVEL_6_SIMULATIONS = 300
#: Placements before each position, by variant (openings in and out of the book, the big
#: boards' race to the middle and the pieces where level 6 weighs new corners, the middle
#: game and the endgame).
PLIES = {"duo": (0, 3, 9, 18, 25), "trio": (0, 5, 10, 24, 50), "classic": (0, 6, 14, 32, 56)}
SEEDS = (7, 2024)

#: (variant, plies, level, seed) -> the move played, in our notation ("-": no move).
EXPECTED: dict[tuple[str, int, int, int], str] = {
    ('duo', 0, 1, 7): 'e10,e11,f11,g11,h11',
    ('duo', 0, 1, 2024): 'f9,e10,f10,e11,e12',
    ('duo', 0, 2, 7): 'e8,d9,e9,f9,e10',
    ('duo', 0, 2, 2024): 'f9,e10,f10,g10,f11',
    ('duo', 0, 3, 7): 'e10,d11,e11,f11,e12',
    ('duo', 0, 3, 2024): 'e8,d9,e9,f9,e10',
    ('duo', 0, 4, 7): 'e10,d11,e11,f11,e12',
    ('duo', 0, 4, 2024): 'e8,d9,e9,f9,e10',
    ('duo', 0, 5, 7): 'e10,d11,e11,f11,e12',
    ('duo', 0, 5, 2024): 'e8,d9,e9,f9,e10',
    ('duo', 0, 6, 7): 'e8,d9,e9,f9,e10',
    ('duo', 0, 6, 2024): 'e8,d9,e9,f9,e10',
    ('duo', 3, 1, 7): 'f4,g4,g5,h5,g6',
    ('duo', 3, 1, 2024): 'f5,g5,h5,f6,f7',
    ('duo', 3, 2, 7): 'h4,g5,h5,f6,g6',
    ('duo', 3, 2, 2024): 'h4,f5,g5,h5,g6',
    ('duo', 3, 3, 7): 'f4,g4,g5,h5,g6',
    ('duo', 3, 3, 2024): 'h4,g5,h5,f6,g6',
    ('duo', 3, 4, 7): 'l7,k8,l8,m8,k9',
    ('duo', 3, 4, 2024): 'f4,f5,g5,h5,g6',
    ('duo', 3, 5, 7): 'h4,f5,g5,h5,f6',
    ('duo', 3, 5, 2024): 'g4,g5,h5,g6,g7',
    ('duo', 3, 6, 7): 'h4,f5,g5,h5,f6',
    ('duo', 3, 6, 2024): 'h4,f5,g5,h5,f6',
    ('duo', 9, 1, 7): 'h10,i10,g11,h11,h12',
    ('duo', 9, 1, 2024): 'i10,h11,i11,h12,i12',
    ('duo', 9, 2, 7): 'h10,i10,h11,g12,h12',
    ('duo', 9, 2, 2024): 'h10,i10,h11,g12,h12',
    ('duo', 9, 3, 7): 'h10,i10,h11,g12,h12',
    ('duo', 9, 3, 2024): 'i10,g11,h11,i11,h12',
    ('duo', 9, 4, 7): 'i10,h11,i11,i12,i13',
    ('duo', 9, 4, 2024): 'i10,g11,h11,i11,h12',
    ('duo', 9, 5, 7): 'h10,i10,h11,g12,h12',
    ('duo', 9, 5, 2024): 'i10,g11,h11,i11,h12',
    ('duo', 9, 6, 7): 'i10,g11,h11,i11,j11',
    ('duo', 9, 6, 2024): 'h10,i10,h11,g12,h12',
    ('duo', 18, 1, 7): 'j10,k10,j11,k11',
    ('duo', 18, 1, 2024): 'j10,k10,i11,j11',
    ('duo', 18, 2, 7): 'j10,k10,j11,j12,k12',
    ('duo', 18, 2, 2024): 'j10,k10,j11,j12,k12',
    ('duo', 18, 3, 7): 'j10,k10,j11,k11,k12',
    ('duo', 18, 3, 2024): 'j10,k10,j11,j12',
    ('duo', 18, 4, 7): 'j10,k10,j11,k11,k12',
    ('duo', 18, 4, 2024): 'j10,k10,j11,j12',
    ('duo', 18, 5, 7): 'j10,k10,j11,k11,k12',
    ('duo', 18, 5, 2024): 'j10,k10,j11,j12,k12',
    ('duo', 18, 6, 7): 'j10,k10,j11,k11,k12',
    ('duo', 18, 6, 2024): 'j10,k10,j11,k11,j12',
    ('duo', 25, 1, 7): 'f8,g8,g9',
    ('duo', 25, 1, 2024): 'f8,g8,g9',
    ('duo', 25, 2, 7): 'f8,g8,g9',
    ('duo', 25, 2, 2024): 'f8,g8,g9',
    ('duo', 25, 3, 7): 'j3',
    ('duo', 25, 3, 2024): 'j3',
    ('duo', 25, 4, 7): 'j3',
    ('duo', 25, 4, 2024): 'g14,h14',
    ('duo', 25, 5, 7): 'g14,h14',
    ('duo', 25, 5, 2024): 'g14,h14',
    ('duo', 25, 6, 7): 'j3',
    ('duo', 25, 6, 2024): 'g14,h14',
    ('trio', 0, 1, 7): 'b19,c19,d19,a20,b20',
    ('trio', 0, 1, 2024): 'b19,c19,a20,b20,c20',
    ('trio', 0, 2, 7): 'c18,b19,c19,a20,b20',
    ('trio', 0, 2, 2024): 'c18,b19,c19,a20,b20',
    ('trio', 0, 3, 7): 'c18,a19,b19,c19,a20',
    ('trio', 0, 3, 2024): 'b17,b18,a19,b19,a20',
    ('trio', 0, 4, 7): 'c19,d19,a20,b20,c20',
    ('trio', 0, 4, 2024): 'b17,a18,b18,a19,a20',
    ('trio', 0, 5, 7): 'c19,d19,a20,b20,c20',
    ('trio', 0, 5, 2024): 'd19,a20,b20,c20,d20',
    ('trio', 0, 6, 7): 'c18,c19,a20,b20,c20',
    ('trio', 0, 6, 2024): 'c19,d19,a20,b20,c20',
    ('trio', 5, 1, 7): 'm4,n4,o4,p4,q4',
    ('trio', 5, 1, 2024): 'p4,q4,q5,r5,s5',
    ('trio', 5, 2, 7): 'q4,p5,q5,q6,r6',
    ('trio', 5, 2, 2024): 'p4,q4,o5,p5,p6',
    ('trio', 5, 3, 7): 'n4,o4,p4,q4,n5',
    ('trio', 5, 3, 2024): 'p4,q4,p5,p6,p7',
    ('trio', 5, 4, 7): 'p4,q4,n5,o5,p5',
    ('trio', 5, 4, 2024): 'q4,p5,q5,p6,p7',
    ('trio', 5, 5, 7): 'n4,o4,p4,q4,n5',
    ('trio', 5, 5, 2024): 'p4,q4,p5,p6,p7',
    ('trio', 5, 6, 7): 'q4,q5,p6,q6,p7',
    ('trio', 5, 6, 2024): 'q4,q5,p6,q6,p7',
    ('trio', 10, 1, 7): 'm11,n11,o11,p11,p12',
    ('trio', 10, 1, 2024): 'l10,l11,l12,l13,m13',
    ('trio', 10, 2, 7): 'l10,l11,l12,m12,m13',
    ('trio', 10, 2, 2024): 'l10,l11,l12,m12,m13',
    ('trio', 10, 3, 7): 'l11,l12,m12,n12,l13',
    ('trio', 10, 3, 2024): 'm10,m11,l12,m12,n12',
    ('trio', 10, 4, 7): 'l11,m11,l12,m12,n12',
    ('trio', 10, 4, 2024): 'l11,m11,l12,m12,m13',
    ('trio', 10, 5, 7): 'l11,m11,l12,m12,n12',
    ('trio', 10, 5, 2024): 'l10,l11,m11,n11,n12',
    ('trio', 10, 6, 7): 'l10,l11,l12,m12,m13',
    ('trio', 10, 6, 2024): 'j12,k12,k13,l13,m13',
    ('trio', 24, 1, 7): 'f4,g4,h4,i4,i5',
    ('trio', 24, 1, 2024): 'f3,g3,f4,g4,h4',
    ('trio', 24, 2, 7): 'f3,f4,g4,h4,i4',
    ('trio', 24, 2, 2024): 'f3,f4,g4,h4,i4',
    ('trio', 24, 3, 7): 'i3,f4,g4,h4,i4',
    ('trio', 24, 3, 2024): 'i3,f4,g4,h4,i4',
    ('trio', 24, 4, 7): 'i3,f4,g4,h4,i4',
    ('trio', 24, 4, 2024): 'i3,f4,g4,h4,i4',
    ('trio', 24, 5, 7): 'e18,f18,g18,h18,i18',
    ('trio', 24, 5, 2024): 'e18,f18,g18,h18,i18',
    ('trio', 24, 6, 7): 'i3,f4,g4,h4,i4',
    ('trio', 24, 6, 2024): 'g3,f4,g4,h4',
    ('trio', 50, 1, 7): 'f2,g2,h2,i2',
    ('trio', 50, 1, 2024): 'f2,g2,h2,i2',
    ('trio', 50, 2, 7): 'f2,g2,h2,i2',
    ('trio', 50, 2, 2024): 'f2,g2,h2,i2',
    ('trio', 50, 3, 7): 'h1,i1,h2,i2',
    ('trio', 50, 3, 2024): 'f2,g2,h2,i2',
    ('trio', 50, 4, 7): 'h1,i1,h2,i2',
    ('trio', 50, 4, 2024): 'f2,g2,h2,i2',
    ('trio', 50, 5, 7): 'h1,i1,h2,i2',
    ('trio', 50, 5, 2024): 'h1,i1,h2,i2',
    ('trio', 50, 6, 7): 'h1,i1,h2,i2',
    ('trio', 50, 6, 2024): 'h1,i1,h2,i2',
    ('classic', 0, 1, 7): 'b19,c19,d19,a20,b20',
    ('classic', 0, 1, 2024): 'b19,c19,a20,b20,c20',
    ('classic', 0, 2, 7): 'c18,b19,c19,a20,b20',
    ('classic', 0, 2, 2024): 'c18,b19,c19,a20,b20',
    ('classic', 0, 3, 7): 'c18,b19,c19,a20,b20',
    ('classic', 0, 3, 2024): 'b18,c18,a19,b19,a20',
    ('classic', 0, 4, 7): 'b17,b18,b19,a20,b20',
    ('classic', 0, 4, 2024): 'b18,c18,a19,b19,a20',
    ('classic', 0, 5, 7): 'c18,c19,a20,b20,c20',
    ('classic', 0, 5, 2024): 'b18,c18,a19,b19,a20',
    ('classic', 0, 6, 7): 'b17,a18,b18,a19,a20',
    ('classic', 0, 6, 2024): 'c18,c19,a20,b20,c20',
    ('classic', 6, 1, 7): 'm4,n4,o4,p4,q4',
    ('classic', 6, 1, 2024): 'p4,q4,q5,r5,s5',
    ('classic', 6, 2, 7): 'q4,p5,q5,q6,r6',
    ('classic', 6, 2, 2024): 'p4,q4,o5,p5,p6',
    ('classic', 6, 3, 7): 'p4,q4,p5,o6,p6',
    ('classic', 6, 3, 2024): 'p4,q4,p5,o6,p6',
    ('classic', 6, 4, 7): 'p4,q4,p5,o6,p6',
    ('classic', 6, 4, 2024): 'q4,q5,q6,p7,q7',
    ('classic', 6, 5, 7): 'p4,q4,p5,o6,p6',
    ('classic', 6, 5, 2024): 'q4,q5,q6,p7,q7',
    ('classic', 6, 6, 7): 'q4,o5,p5,q5,o6',
    ('classic', 6, 6, 2024): 'p4,q4,p5,o6,p6',
    ('classic', 14, 1, 7): 'l8,l9,l10,k11,l11',
    ('classic', 14, 1, 2024): 'j8,k8,l8,l9,l10',
    ('classic', 14, 2, 7): 'l9,m9,l10,k11,l11',
    ('classic', 14, 2, 2024): 'l9,m9,l10,k11,l11',
    ('classic', 14, 3, 7): 'l8,l9,k10,l10,k11',
    ('classic', 14, 3, 2024): 'l8,l9,k10,l10,l11',
    ('classic', 14, 4, 7): 'l8,l9,k10,l10,k11',
    ('classic', 14, 4, 2024): 'l8,l9,k10,l10,l11',
    ('classic', 14, 5, 7): 'l9,m9,m10,l11,m11',
    ('classic', 14, 5, 2024): 'l8,l9,k10,l10,l11',
    ('classic', 14, 6, 7): 'i7,j7,j8,k8,l8',
    ('classic', 14, 6, 2024): 'l8,l9,l10,l11,l12',
    ('classic', 32, 1, 7): 'd12,d13,c14,d14,d15',
    ('classic', 32, 1, 2024): 'h16,h17,g18,h18,h19',
    ('classic', 32, 2, 7): 'p12,q12,r12,s12,p13',
    ('classic', 32, 2, 2024): 'p12,q12,r12,s12,p13',
    ('classic', 32, 3, 7): 'p12,q12,r12,s12,p13',
    ('classic', 32, 3, 2024): 'd12,e12,e13,d14,e14',
    ('classic', 32, 4, 7): 'd12,e12,e13,d14,e14',
    ('classic', 32, 4, 2024): 'd12,e12,e13,d14,e14',
    ('classic', 32, 5, 7): 'd12,e12,e13,d14,e14',
    ('classic', 32, 5, 2024): 'd12,e12,e13,d14,e14',
    ('classic', 32, 6, 7): 'd12,e12,e13,e14',
    ('classic', 32, 6, 2024): 'o19,o20,p20,q20,r20',
    ('classic', 56, 1, 7): 'd12,e12,d13',
    ('classic', 56, 1, 2024): 'd12,e12,d13',
    ('classic', 56, 2, 7): 'd20,e20',
    ('classic', 56, 2, 2024): 'd20,e20',
    ('classic', 56, 3, 7): 'd12,e12,d13',
    ('classic', 56, 3, 2024): 'k18',
    ('classic', 56, 4, 7): 'k18',
    ('classic', 56, 4, 2024): 'k18',
    ('classic', 56, 5, 7): 'k18',
    ('classic', 56, 5, 2024): 'k18',
    ('classic', 56, 6, 7): 'k18',
    ('classic', 56, 6, 2024): 'k18',
}
#: The reuse case: its moves in order.
EXPECTED_REUSE: list[str] = [
    'h10,i10,h11,g12,h12',
    'n7,n8,n9,m10,n10',
    'd11,d12,d13,e13,f13',
    'c8,b9,c9,b10,c10',
    'l10,j11,k11,l11,k12',
    'e2,f2,d3,e3,d4',
    'b11,b12,b13,b14,c14',
    'j1,k1,l1,j2',
    'a8,b8,a9,a10',
    'a5,c5,a6,b6,c6',
]


def position(variant: str, plies: int):
    """The game after `plies` placements by level 2 (seed = ply)."""
    game = new_game(variant)
    for ply in range(plies):
        state = game.state
        if state.is_over:
            break
        move = choose_move(state, state.to_move, level=2, seed=ply)
        game.play(state.to_move, state.move_str(move))
    return game


def reference_move(state, level: int, seed: int) -> str:
    """The level's move for the seat to move, searched without a time cap (level 6: a
    fixed number of simulations) and without tree reuse."""
    playouts = LEVEL_6_SIMULATIONS if level == 6 else None
    move = _search(state, state.to_move, level=level, seed=seed, playouts=playouts,
                       seconds=1e6, reuse=False)
    return "-" if move is None else state.move_str(move)


def reuse_moves() -> list[str]:
    """Levels 3 (first seat) and 4 (second seat) play ten plies of a duo game from ply 9,
    reusing their trees as the host's calls do."""
    import engine.cornerclaim.ai as ai

    ai._reuse.clear()
    game = position("duo", 9)
    out = []
    for _ in range(10):
        state = game.state
        if state.is_over:
            break
        seat = state.to_move
        move = _search(state, seat, level=3 if seat == 1 else 4, seed=11,
                              seconds=1e6)
        text = state.move_str(move)
        out.append(text)
        game.play(seat, text)
    ai._reuse.clear()
    return out


def _search(state, seat, **kw):
    import engine.cornerclaim.ai as ai

    if hasattr(ai, "search_move"):
        return ai.search_move(state, seat, **kw)
    return ai.choose_move(state, seat, **kw)


@pytest.mark.parametrize("variant", sorted(PLIES))
def test_every_level_plays_its_recorded_moves(variant):
    got, want = {}, {}
    for plies in PLIES[variant]:
        state = position(variant, plies).state
        for level in range(1, 7):
            for seed in SEEDS:
                key = (variant, plies, level, seed)
                got[key] = reference_move(state, level, seed)
                want[key] = EXPECTED[key]
    assert got == want


def test_the_hint_is_the_strongest_level_s_search_cut_to_its_seconds(monkeypatch):
    """The hint is level 6's search with a fixed seed and no reuse, stopped after
    `HINT_SECONDS` (the review rates its moves: tests/test_review_labels.py). A time-bound
    search has no recorded moves: the budget is what is checked, with a fixed count here."""
    import engine.cornerclaim.ai as ai

    state = position("duo", 9).state
    asked = []
    real = ai.search_move

    def search(state, seat, **kw):
        asked.append(kw)
        return real(state, seat, **{**kw, "seconds": None, "playouts": 200})

    monkeypatch.setattr(ai, "search_move", search)
    move = hint(state, state.to_move)
    assert asked == [{"level": ai.HINT_LEVEL, "seed": 0, "reuse": False,
                      "seconds": ai.HINT_SECONDS}]
    assert ai.HINT_LEVEL == max(ai.LEVELS) and ai.HINT_SECONDS < 1.0
    assert move in state.position.legal_moves(state.to_move - 1)


def test_reused_trees_play_the_recorded_moves():
    assert reuse_moves() == EXPECTED_REUSE


def main() -> None:
    print("EXPECTED = {")
    for variant in PLIES:
        for plies in PLIES[variant]:
            state = position(variant, plies).state
            for level in range(1, 7):
                for seed in SEEDS:
                    move = reference_move(state, level, seed)
                    print(f"    ({variant!r}, {plies}, {level}, {seed}): {move!r},", flush=True)
    print("}")
    print(f"EXPECTED_REUSE = {reuse_moves()!r}")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    main()
