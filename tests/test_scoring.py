"""Scoring and results: the +15/+20 bonuses, draws, leavers and match points."""

from engine.cornerclaim import RULES, new_game

# Blue places all 21 pieces alone after the other three leave; the single square is last.
ALL_21_SINGLE_LAST = [
    "a19,b19,c19,a20,c20", "d15,d16,d17,e17,d18", "e13,e14,f14,g14,f15", "h15,i15,j15,j16,k16",
    "f11,g11,h11,h12,h13", "h17,i17,h18,i18,i19", "l17,m17,n17,m18,m19", "i9,j9,k9,l9,i10",
    "m10,l11,m11,n11,m12", "c13,a14,b14,c14,a15", "d8,d9,d10,d11,d12", "d5,e5,c6,d6,c7",
    "a3,b3,c3,c4", "g19,f20,g20,h20", "f6,g6,e7,f7", "o16,p16,q16,r16", "h4,i4,h5,i5",
    "k19,j20,k20", "n9,o9,p9", "n13,o13", "b12",
]
# The same pieces with the single square laid tenth, so the last piece is the pair.
ALL_21_PAIR_LAST = ALL_21_SINGLE_LAST[:10] + ["b12"] + ALL_21_SINGLE_LAST[10:20]


def play_alone(moves):
    g = new_game("classic", ("Ann", "Ben", "Cat", "Dan"))
    g.play(1, moves[0])
    for seat in (2, 3, 4):
        g.leave(seat)
    for m in moves[1:]:
        g.play(1, m)
    return g


def test_all_21_with_the_single_square_last_scores_20():
    g = play_alone(ALL_21_SINGLE_LAST)
    assert g.state.is_over and g.state.pieces_left(1) == []
    out = RULES.outcome(g.state)
    assert out.scores == (20, -89, -89, -89)
    assert out.results == ("win", "loss", "loss", "loss") and out.points == (22, 3, 3, 3)


def test_all_21_with_another_piece_last_scores_15():
    g = play_alone(ALL_21_PAIR_LAST)
    assert g.state.is_over and RULES.outcome(g.state).scores[0] == 15


def test_squares_in_hand_cost_a_point_each():
    g = new_game("duo")
    g.play(1, "e9,d10,e10,f10,e11")
    assert g.state.score(1) == -84 and g.state.score(2) == -89


def test_a_tie_on_the_top_score_is_a_draw_between_those_seats():
    g = new_game("classic")
    for seat, move in ((1, "a20"), (2, "t20"), (3, "t1,s1"), (4, "a1")):
        g.play(seat, move)
    g.leave(3)  # red is best on squares but left, so it cannot win
    out = RULES.outcome(g.state)
    assert out.scores[:2] == (-88, -88)
    assert out.winners == (1, 2, 4) and out.results == ("draw", "draw", "loss", "draw")
    assert out.points == (8, 8, 3, 8)


def test_a_leaver_cannot_win_even_on_the_best_score():
    g = new_game("classic")
    for seat, move in ((1, "a20,a19,a18,a17,a16"), (2, "t20"), (3, "t1"), (4, "a1")):
        g.play(seat, move)
    g.leave(1)
    out = RULES.outcome(g.state)
    assert out.scores[0] == -84 and out.results[0] == "loss"
    assert out.winners == (2, 3, 4) and out.results[1:] == ("draw", "draw", "draw")


def test_two_seat_leaving_is_resignation_whatever_the_scores():
    g = new_game("duo")
    g.play(1, "e9,d10,e10,f10,e11")
    g.play(2, "j5")
    g.leave(1)  # blue was ahead on squares but resigned
    out = RULES.outcome(g.state)
    assert g.state.is_over and out.winners == (2,) and out.results == ("loss", "win")
