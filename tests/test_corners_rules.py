"""Corners' rules through the seam: every end reason, the clock (flag fall, resume without
charging the downtime), draw offers, resignation, takebacks, the fold of a whole log, the
public view, the ladder, replays' steps and the pair notation."""

from __future__ import annotations

import pytest

from engine import core
from engine.core import Game
from engine.corners import (
    RULES,
    ClockResumed,
    FlagFell,
    Moved,
    move_list,
    new_game,
    setup_state,
    start_state,
)
from engine.corners import errors as E
from engine.corners.rules import VARIANT_SPECS
from engine.events import GameCreated, MoveTakenBack, PlayerLeft
from engine.rules import can_undo
from tests.test_corners_moves import board_from


@pytest.fixture
def known(monkeypatch):
    """Corners known to `Game.from_json` in this test only (the host registers it later)."""
    monkeypatch.setitem(core.RULES, "corners", RULES)


def play(state, *moves, now=None):
    for text in moves:
        state = RULES.apply(state, RULES.play(state, state.to_move, text, now=now))
    return state


def end(state):
    o = RULES.outcome(state)
    return o.reason, o.results


# -- the catalog --------------------------------------------------------------------------------


def test_the_catalog():
    cat = RULES.catalog()
    assert cat["game"] == "corners" and cat["legal_query"] == "from"
    assert cat["actions"] == ["resign", "offer_draw", "accept_draw", "decline_draw"]
    rated = {v["name"]: v["rated"] for v in cat["variants"]}
    assert rated == {"classic-3x3": True, "classic-3x4": True, "diagonal-3x3": True,
                     "diagonal-3x4": False, "triangle": False, "4x4": False,
                     "halma-16x16": False}
    opts = {o["name"]: o["default"] for o in cat["variants"][0]["options"]}
    assert opts == {"reserve_s": 300, "increment_s": 3, "practice": False, "setup": ""}
    assert [lv["number"] for lv in cat["levels"]] == [1, 2, 3, 4]
    assert all(lv["seconds"] <= 2 for lv in cat["levels"])
    assert VARIANT_SPECS["classic-3x3"].colours == ("white", "black")


def test_the_homes():
    counts = {v: (sum(1 for x in start_state(v).board if x == 1),
                  sum(1 for x in start_state(v).board if x == 2))
              for v in VARIANT_SPECS}
    assert counts == {"classic-3x3": (9, 9), "classic-3x4": (12, 12), "diagonal-3x3": (9, 9),
                      "diagonal-3x4": (12, 12), "triangle": (10, 10), "4x4": (16, 16),
                      "halma-16x16": (19, 19)}
    rows = start_state("classic-3x4").rows()
    assert rows[0] == [0, 0, 0, 0, 2, 2, 2, 2] and rows[7] == [1, 1, 1, 1, 0, 0, 0, 0]
    tri = start_state("triangle").rows()
    assert tri[4] == [1, 0, 0, 0, 0, 0, 0, 0] and tri[0] == [0, 0, 0, 0, 2, 2, 2, 2]
    with pytest.raises(E.EngineError):
        RULES.initial_state(GameCreated(seq=1, game="corners", variant="halma"))
    with pytest.raises(E.BadOptionError):
        start_state("classic-3x3", reserve_s=-1)


# -- ends ---------------------------------------------------------------------------------------

#: White one step from filling f6–h8 (e6-f6), black one step from filling a1–c3 (d3-c3).
BOTH_CLOSE = board_from([
    ".....WWW", ".....WWW", "....W.WW", "........",
    "........", "BB.B....", "BBB.....", "BBB....."])


def test_white_fills_first_and_black_does_not_reply_in_kind_white_wins():
    state = play(setup_state("classic-3x3", BOTH_CLOSE, number=20), "e6-f6")
    assert not state.over and state.pending and state.to_move == 2
    state = play(state, "d3-d4")
    assert end(state) == ("target", ("win", "loss"))


def test_black_fills_on_its_reply_a_draw():
    state = play(setup_state("classic-3x3", BOTH_CLOSE, number=20), "e6-f6", "d3-c3")
    assert end(state) == ("target", ("draw", "draw"))
    assert RULES.outcome(state).scores == (9, 9) and RULES.outcome(state).points == (1, 1)


def test_black_fills_first_black_wins_at_once():
    state = play(setup_state("classic-3x3", BOTH_CLOSE, number=20), "e6-e5", "d3-c3")
    assert end(state) == ("target", ("loss", "win"))


HOMEBODY = board_from([
    "........", "....B...", "...W....", "........",
    "...B....", "........", "........", "W......B"])


def test_the_home_deadline_the_side_still_at_home_loses():
    # white's a1 is still at home after black's move 40
    state = setup_state("classic-3x3", HOMEBODY, to_move=2, number=40)
    state = play(state, "e7-e8")
    assert end(state) == ("deadline", ("loss", "win"))
    # before move 40 nothing happens
    early = play(setup_state("classic-3x3", HOMEBODY, to_move=2, number=39), "e7-e8")
    assert not early.over


def test_the_home_deadline_both_at_home_a_draw():
    board = list(HOMEBODY)
    board[63] = 2  # black h8 at home too
    state = play(setup_state("classic-3x3", board, to_move=2, number=40), "e7-e8")
    assert end(state) == ("deadline", ("draw", "draw"))


def test_the_diagonal_deadline_is_30_and_a_piece_locked_in_at_home_does_not_count():
    # white a1 walled in by black a2, b2, b1 and the squares behind them
    board = board_from([
        "........", "....B...", "........", "........",
        "........", "B.B.....", "BB......", "WBB....W"])
    state = play(setup_state("diagonal-3x3", board, to_move=2, number=30), "e7-e8")
    assert not state.over
    # free it (c3 empty: a1 can jump over b2) and white is still at home
    board[2 * 8 + 2] = 0
    board[4 * 8 + 4] = 2
    state = play(setup_state("diagonal-3x3", board, to_move=2, number=30), "e7-e8")
    assert end(state) == ("deadline", ("loss", "win"))
    # the classic variants have no such exception (and their deadline is 40)
    classic = play(setup_state("classic-3x3", board, to_move=2, number=30), "e7-e8")
    assert not classic.over


def test_a_move_home_after_the_deadline_loses_at_once_and_is_marked():
    board = board_from([
        "........", "....B...", "........", "........",
        ".B......", "...W....", "...W....", "...W..B."])
    state = setup_state("classic-3x3", board, number=41)
    legal = {m["move"]: m for m in RULES.legal(state, 1)}
    assert legal["d1-c1"].get("loses") is True and "loses" not in legal["d1-e1"]
    lost = play(state, "d1-c1")
    assert end(lost) == ("home_return", ("loss", "win"))
    # at the deadline's own number the move is allowed
    assert "loses" not in {m["move"]: m for m in RULES.legal(
        setup_state("classic-3x3", board, number=40), 1)}["d1-c1"]


def test_jumping_through_the_home_is_fine():
    board = board_from([
        "........", "....B...", "........", "........",
        ".W......", "........", ".W......", "..WW..B."])
    state = setup_state("classic-3x3", board, number=45)
    legal = {m["move"]: m for m in RULES.legal(state, 1)}
    assert "loses" not in legal["d1-b1-b3-b5"] and legal["d1-b1"].get("loses")
    assert not play(state, "d1-b5").over


def test_the_move_limit():
    board = board_from([
        ".....WW.", "......W.", "........", "........",
        "........", "........", "B.......", "BB....B."])
    state = play(setup_state("classic-3x3", board, to_move=2, number=80), "g1-g2")
    # white has 3 in its target, black 3: a draw; one more for black wins
    assert end(state) == ("move_limit", ("draw", "draw"))
    state = play(setup_state("classic-3x3", board, to_move=2, number=80), "g1-g2")
    board[16] = 2
    state = play(setup_state("classic-3x3", board, to_move=2, number=80), "g1-g2")
    assert end(state) == ("move_limit", ("loss", "win"))
    assert not play(setup_state("classic-3x3", board, to_move=2, number=79), "g1-g2").over


def test_threefold_repetition():
    state = play(start_state("classic-3x3"), "c3-d3", "f6-e6", "d3-c3", "e6-f6")
    assert not state.over
    state = play(state, "c3-d3", "f6-e6", "d3-c3")
    assert not state.over
    state = play(state, "e6-f6")
    assert end(state) == ("repetition", ("draw", "draw"))


def test_no_legal_move_is_a_draw():
    # diagonal: white locks in black's only piece on h8
    board = board_from([
        ".....WWB", "......WW", ".....W..", ".......W",
        "........", "........", "........", "W......."])
    state = play(setup_state("diagonal-3x3", board), "h5-h6")
    assert end(state) == ("no_move", ("draw", "draw"))


def test_resign_leave_and_agreed_draw():
    state = play(start_state("classic-3x3"), "c3-d3")
    resigned = RULES.apply(state, RULES.act(state, 1, "resign"))
    assert end(resigned) == ("resigned", ("loss", "win"))
    left = RULES.apply(state, RULES.leave(state, 2))
    assert end(left) == ("resigned", ("win", "loss")) and RULES.left(left) == {2}
    offered = RULES.apply(state, RULES.act(state, 1, "offer_draw"))
    assert RULES.public_view(offered).board["draw_offer"] == 1
    with pytest.raises(E.NoDrawOfferError):
        RULES.act(offered, 1, "accept_draw")  # not one's own offer
    with pytest.raises(E.DrawOfferRefusedError):
        RULES.act(offered, 1, "offer_draw")
    agreed = RULES.apply(offered, RULES.act(offered, 2, "accept_draw"))
    assert end(agreed) == ("draw_agreed", ("draw", "draw"))
    assert RULES.available_actions(offered, 2) == ["resign", "accept_draw", "decline_draw"]
    with pytest.raises(E.GameOverError):
        RULES.act(agreed, 1, "resign")
    with pytest.raises(E.EngineError):
        RULES.act(state, 1, "castle")


def test_a_draw_offer_stands_until_answered_or_the_other_side_moves():
    state = play(start_state("classic-3x3"), "c3-d3")
    offered = RULES.apply(state, RULES.act(state, 2, "offer_draw"))
    kept = play(offered, "f6-e6")  # the offerer moves: the offer stands
    assert kept.draw_offer == 2
    lapsed = play(kept, "d3-d4")  # the other side moves: it lapses
    assert lapsed.draw_offer is None
    with pytest.raises(E.NoDrawOfferError):
        RULES.act(lapsed, 1, "accept_draw")
    declined = RULES.apply(offered, RULES.act(offered, 1, "decline_draw"))
    assert declined.draw_offer is None
    with pytest.raises(E.DrawOfferRefusedError):  # again only after a move of its own
        RULES.act(declined, 2, "offer_draw")
    assert RULES.act(play(declined, "f6-e6", "d3-d4"), 2, "offer_draw").seat == 2


# -- the clock ----------------------------------------------------------------------------------


def test_the_clock_runs_from_the_first_move_and_charges_each_side():
    state = start_state("classic-3x3")  # 300 s + 3 s
    assert RULES.deadline(state) is None and RULES.resume(state, 50.0) is None
    state = play(state, "c3-d3", now=1000.0)  # not charged: black's clock starts
    assert state.clock == (303_000, 300_000) and state.running == 2
    assert RULES.deadline(state) == 1300.0
    state = play(state, "f6-e6", now=1010.5)
    assert state.clock == (303_000, 292_500) and RULES.deadline(state) == 1010.5 + 303
    view = RULES.public_view(state).board["clock"]
    assert view["remaining_ms"] == [303_000, 292_500] and view["running"] == 1
    assert view["running_since_ms"] == 1_010_500


def test_a_flag_falls_at_the_deadline():
    state = play(start_state("classic-3x3", reserve_s=60, increment_s=0), "c3-d3",
                 now=100.0)
    assert RULES.expire(state, 159.999) is None
    with pytest.raises(E.TimeUpError):
        RULES.play(state, 2, "f6-e6", now=160.0)
    flag = RULES.expire(state, RULES.deadline(state))
    assert isinstance(flag, FlagFell) and flag.seat == 2 and flag.at_ms == 160_000
    over = RULES.apply(state, flag)
    assert end(over) == ("timeout", ("win", "loss")) and over.clock == (60_000, 0)
    assert RULES.deadline(over) is None and RULES.expire(over, 1e9) is None
    assert RULES.play(state, 2, "f6-e6", now=159.9).move == "f6-e6"
    with pytest.raises(E.LogError):
        RULES.apply(state, FlagFell(seq=state.seq + 1, seat=2, at_ms=150_000))


def test_resume_does_not_charge_the_downtime(known):
    game = new_game("triangle", options={"reserve_s": 120, "increment_s": 2})
    game.play(1, "d1-e1", now=1000.0)
    game.play(2, "e8-d8", now=1030.0)  # black: 120 - 30 + 2 = 92 s
    assert game.state.clock == (122_000, 92_000)
    # the host goes down at 1040 and starts again at 5000
    event = RULES.resume(game.state, 5000.0)
    assert isinstance(event, ClockResumed) and event.at_ms == 5_000_000
    game.append(event)
    assert RULES.deadline(game.state) == 5000.0 + 122
    assert RULES.expire(game.state, 5100.0) is None
    game.play(1, "c2-c3", now=5020.0)  # white charged 20 s only
    assert game.state.clock == (104_000, 92_000)
    again = Game.from_json(game.to_json())
    assert again.state == game.state and again.state.clock == (104_000, 92_000)


def test_no_clock():
    state = play(start_state("classic-3x3", reserve_s=0), "c3-d3", now=10.0)
    assert RULES.deadline(state) is None and RULES.resume(state, 20.0) is None
    assert RULES.public_view(state).board["clock"] is None
    assert RULES.expire(state, 1e12) is None


# -- takebacks ----------------------------------------------------------------------------------


def test_takeback_of_the_latest_move_and_everything_after():
    game = new_game("triangle")
    for seat, move in ((1, "d1-e1"), (2, "e8-d8"), (1, "c2-c3"), (2, "d8-d7")):
        game.play(seat, move)
    before = game.state_at(3)
    game.undo(1)  # white's c1-c2 and black's d8-d7
    assert game.state.board == before.board and game.state.to_move == 1
    assert [e.TYPE for e in game.events][-1] == "move_taken_back"
    assert game.events[-1].from_seq == 4
    assert move_list(game) == ["1. d1-e1 e8-d8"]


def test_takeback_is_refused_in_a_rated_game_with_a_clock():
    state = play(start_state("classic-3x3"), "c3-d3")
    with pytest.raises(E.TakebackRefusedError):
        RULES.undo(state, 1)
    assert not can_undo(RULES, state, 1)
    free = play(start_state("classic-3x3", reserve_s=0), "c3-d3")
    assert isinstance(RULES.undo(free, 1), MoveTakenBack)
    with pytest.raises(E.NothingToUndoError):
        RULES.undo(free, 2)


def test_takeback_with_a_clock_restores_the_times_and_restarts_at_the_latest_event(known):
    game = new_game("4x4", options={"reserve_s": 100, "increment_s": 0})
    game.play(1, "d4-d5", now=0.0)
    game.play(2, "e5-e4", now=10.0)  # black 90
    game.play(1, "d3-e3", now=30.0)  # white 80
    game.play(2, "e4-f4", now=35.0)  # black 85
    game.undo(1, now=50.0)
    # back before white's d3-e3: white 100 with its clock running from 35 s
    assert game.state.clock == (100_000, 90_000) and game.state.clock_started_ms == 35_000
    assert RULES.deadline(game.state) == 135.0
    assert Game.from_json(game.to_json()).state == game.state


def test_takeback_after_a_move_that_ended_the_game():
    state = play(setup_state("classic-3x3", BOTH_CLOSE, number=20, reserve_s=0), "e6-f6")
    # placeholder moves before a set-up position cannot be taken back; play on from here
    done = play(state, "d3-d4")
    assert done.over
    back = RULES.apply(done, RULES.undo(done, 2))
    assert not back.over and back.to_move == 2 and back.pending


# -- the log, the view, replays ------------------------------------------------------------------


def test_a_full_game_log_folds_back_equal(known):
    from engine.corners.ai import choose_move

    game = new_game("classic-3x3", ("Ann", "Bob"), {"reserve_s": 600, "increment_s": 5})
    now = 1000.0
    while not game.state.over and game.seq < 400:
        seat = game.state.to_move
        now += 1.5
        game.play(seat, choose_move(game.state, seat, level=2, seed=game.seq), now=now)
        if game.seq == 10:
            game.append(RULES.resume(game.state, now + 100))
            now += 100
        if game.seq == 20:
            game.act(1, "offer_draw", now=now)
            game.act(2, "decline_draw", now=now)
    assert game.state.over
    again = Game.from_json(game.to_json())
    assert again.state == game.state
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in game.events]
    assert RULES.outcome(again.state) == RULES.outcome(game.state)
    lines = move_list(game)
    assert lines[0].startswith("1. ") and len(lines[0].split()) == 3
    mid = game.state_at(5)
    assert mid.plies == 4


def test_the_public_view_picture_ladder_and_steps():
    state = play(start_state("classic-3x3", reserve_s=0), "c3-d3", "f6-e6", "c1-c3-e3")
    view = RULES.public_view(state)
    b = view.board
    assert b["rows"][0] == [0, 0, 0, 0, 0, 2, 2, 2] and b["rows"][2][4] == 2
    assert b["to_move"] == 2 and b["move_number"] == 2
    assert b["home_deadline"] == 40 and b["move_limit"] == 80 and b["status"] == "playing"
    assert b["last_move"] == "c1-c3-e3" and view.last_move["move"] == "c1-c3-e3"
    assert b["moves"] == ["c3-d3", "f6-e6", "c1-c3-e3"]  # the table's move list
    assert [s.colour for s in view.seats] == ["white", "black"]
    assert view.seats[0].view == {"pieces_home": 7, "pieces_in_target": 0}
    assert view.seats[1].can_move and not view.seats[0].can_move
    pic = RULES.picture(state)
    assert pic.cells[0][7] == "black" and pic.cells[7][0] == "white"
    assert pic.columns[0] == "a" and pic.rows[0] == "8"
    step = RULES.step(state, Moved(seq=4, seat=1, move="c1-c3-e3"))
    assert step.kind == "move" and step.move == "c1-c3-e3"
    assert step.details["number"] == 2 and step.details["jumps"] == 2
    assert step.details["notation"] == "2. c1-c3-e3"
    assert RULES.step(state, PlayerLeft(seq=5, seat=2)).kind == "left"
    assert move_list(state) == ["1. c3-d3 f6-e6", "2. c1-c3-e3"]
    done = play(setup_state("classic-3x3", BOTH_CLOSE, number=20), "e6-f6", "d3-d4")
    ladder = RULES.ladder(done)
    assert [s.points for s in ladder] == [2, 0]
    assert ladder[0].stats == {"pieces_home": 9, "filled_target": True}
    assert ladder[1].stats == {"pieces_home": 8, "filled_target": False}


def test_commands_refuse_the_wrong_seat_and_turn():
    state = start_state("classic-3x3")
    with pytest.raises(E.NotYourTurnError):
        RULES.play(state, 2, "f6-e6")
    with pytest.raises(E.BadSeatError):
        RULES.play(state, 3, "c3-d3")
    with pytest.raises(E.NotYourPieceError):
        RULES.play(state, 1, "f6-e6")
    assert RULES.legal(state, 2) == []
    with pytest.raises(E.NothingToUndoError):
        RULES.undo(start_state("classic-3x3", reserve_s=0), 1)
