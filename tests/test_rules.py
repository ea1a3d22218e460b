"""Corner Claim's rules, told as small stories of play."""

import pytest

from engine.cornerclaim import RULES, new_game
from engine.cornerclaim import errors as E


def first_moves(variant):
    g = new_game(variant)
    return g


def test_golden_first_move_counts():
    duo = new_game("duo").state
    assert len(duo.legal_moves(1)) == 414
    classic = new_game("classic").state
    for seat in classic.seats:
        pos = classic.position
        assert len(pos.legal_moves(seat - 1)) == 58
    trio = new_game("trio").state
    assert [len(trio.position.legal_moves(c)) for c in range(3)] == [58, 58, 58]


def test_start_squares_and_colours():
    duo = new_game("duo").state
    assert duo.variant.size == 14
    assert duo.open_corners(1) == ["e10"] and duo.open_corners(2) == ["j5"]
    classic = new_game("classic").state
    corners = [classic.open_corners(s) for s in classic.seats]
    assert corners == [["a20"], ["t20"], ["t1"], ["a1"]]
    assert classic.variant.colours == ("blue", "yellow", "red", "green")
    trio = new_game("trio").state
    assert [trio.open_corners(s) for s in trio.seats] == [["a20"], ["t20"], ["t1"]]


def test_a_short_duo_opening():
    g = new_game("duo")
    g.play(1, "e11,e10,e9,d10,f10")  # any order in, canonical out
    assert g.events[-1].move == "e9,d10,e10,f10,e11"
    assert g.state.to_move == 2
    g.play(2, "j5,j4,k4")
    assert g.state.to_move == 1
    assert "d8" in g.state.open_corners(1)
    assert g.state.pieces_left(1)[:3] == ["1", "2", "I3"] and "X" not in g.state.pieces_left(1)


@pytest.mark.parametrize(
    "move, error, words",
    [
        ("e9;d10", E.NotationError, "is not a cell"),
        ("", E.NotationError, "separated by commas"),
        ("e9,e9", E.NotationError, "twice"),
        ("e10,g10", E.NotAPieceError, "do not form one of the 21 pieces"),
        ("e10,e11,e12,e13,e14,e15", E.NotAPieceError, "at most five"),
        ("p10", E.OffBoardError, "p10 is off the 14×14 board"),
        ("d9,d10", E.StartCellError, "start square e10"),
    ],
)
def test_bad_first_moves_say_why(move, error, words):
    g = new_game("duo")
    with pytest.raises(error, match=words):
        g.play(1, move)
    assert g.seq == 1  # nothing changed


def test_every_placement_error_names_the_rule():
    g = new_game("duo")
    g.play(1, "e10")
    g.play(2, "j5")
    with pytest.raises(E.OverlapError, match="j5 is already covered"):
        g.play(1, "i4,j4,j5")
    with pytest.raises(E.PieceUsedError, match="already placed the 1"):
        g.play(1, "f11")
    with pytest.raises(E.EdgeContactError, match="along an edge at f10"):
        g.play(1, "f10,f11")
    with pytest.raises(E.NoCornerContactError, match="at a corner"):
        g.play(1, "a1,b1")
    with pytest.raises(E.NotYourTurnError, match="seat 1's turn"):
        g.play(2, "k6,k7")
    g.play(1, "f11,g11")
    assert g.state.to_move == 2


def test_other_colours_only_block_by_occupying():
    g = new_game("duo")
    g.play(1, "e9,d10,e10,f10,e11")
    g.play(2, "j5,i6,j6,k6,j7")
    g.play(1, "f8,g8,h8,i8,i7")  # flush against green along i7-i6 and i7-j7: fine
    assert g.state.to_move == 2
    with pytest.raises(E.OverlapError, match="i7 is already covered"):
        g.play(2, "i7,h7")


def test_turn_errors_and_leaving():
    g = new_game("classic")
    g.play(1, "a20")
    g.leave(2)
    assert g.state.to_move == 3  # a seat that left is skipped
    with pytest.raises(E.SeatLeftError):
        g.play(2, "t20")
    with pytest.raises(E.SeatLeftError):
        g.leave(2)
    with pytest.raises(E.BadSeatError):
        g.play(5, "a1")
    g2 = new_game("duo")
    g2.leave(1)
    assert g2.state.is_over
    out = RULES.outcome(g2.state)
    assert out.results == ("loss", "win") and out.points == (3, 22) and out.winners == (2,)
    with pytest.raises(E.GameOverError):
        g2.play(2, "j5")


def test_when_every_seat_of_four_has_left_nobody_wins():
    g = new_game("classic")
    g.play(1, "a20")
    for seat in (3, 1, 4):
        g.leave(seat)
        assert not g.state.is_over and RULES.outcome(g.state).reason == "playing"
    assert g.state.to_move == 2  # the last one at the table plays on alone
    g.leave(2)
    assert g.state.is_over and g.state.to_move is None
    out = RULES.outcome(g.state)
    assert out.reason == "everyone_left" and out.winners == ()
    assert out.results == ("loss",) * 4 and out.points == (3,) * 4
    assert out.scores[0] == -88  # the monomino laid stays counted


def test_cannot_pass_while_a_placement_exists():
    g = new_game("duo")
    with pytest.raises(E.CannotPassError, match="cannot pass"):
        RULES.check_pass(g.state, 1)


def test_stale_seq_is_refused_and_changes_nothing():
    g = new_game("duo")
    g.play(1, "e10", seq=1)
    with pytest.raises(E.StaleSeqError, match="moved on"):
        g.play(2, "j5", seq=1)
    assert g.seq == 2 and g.state.to_move == 2


def test_undo_takes_back_the_seats_last_placement_and_everything_after():
    g = new_game("duo")
    g.play(1, "e9,d10,e10,f10,e11")
    before = g.state
    g.play(2, "j5,j4,k4")
    g.play(1, "f8,g8,g7")
    g.play(2, "i6,i7")
    g.undo(1)  # takes back seq 4 (seat 1) and seq 5 (seat 2's reply)
    assert g.events[-1].from_seq == 4
    assert g.state.same_position_key() == g.state_at(3).same_position_key()
    assert g.state.to_move == 1
    g.undo(2)
    assert g.state.same_position_key() == before.same_position_key()
    assert len(g.events) == 7  # nothing deleted
    with pytest.raises(E.NothingToUndoError):
        g.undo(2)
