"""Corner (the marble game) through the seam: the score table and its doubling, setups and
their errors, deals through chance, opening placements and takes, the round's end (also when a
partner could still move), the 4-player choice of intersections, leaving, takebacks, the
public view and a whole game folded back from its JSON log."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import core
from engine.core import Game
from engine.events import GameCreated, MoveTakenBack, PlayerLeft
from engine.marbles import RULES, SAMPLE_SETUP, Moved, RoundDealt, new_game, start_state
from engine.marbles import errors as E
from engine.marbles.board import (
    BLACK,
    EMPTY,
    FULL_SET,
    POINTS,
    cell_of,
    colour_score,
    parse_setup,
    random_setup,
    side_scores,
)
from engine.marbles.moves import takes
from engine.marbles.rules import NO_COUNTS, Take
from engine.rules import can_undo

#: The seed's table: marbles of one colour -> points.
SEED_TABLE = {1: 1, 2: 3, 3: 6, 4: 10, 5: 13, 6: 16, 7: 20, 8: 24}


@pytest.fixture
def known(monkeypatch):
    """Corner known to `Game.from_json` in this test only (the host registers it later)."""
    monkeypatch.setitem(core.RULES, "marbles", RULES)


def play(state, *moves):
    for text in moves:
        state = RULES.apply(state, RULES.play(state, state.to_move, text))
    return state


def cells(state, *names):
    return [state.board[cell_of("abcdef".index(n[0]), int(n[1]) - 1)] for n in names]


def position(variant="2p", *, marbles: dict[str, str], arrows, moved: int, black=()):
    """A round-1 state with only `marbles` ({"c4": "R"}) and `black` cells on the board, the
    arrows at `arrows` (lines or None per seat) and `moved` moves made (placeholders), so the
    seat to move is the `moved`-th after the starter."""
    state = start_state(variant)
    board = [EMPTY] * 36
    for name, letter in marbles.items():
        board[cell_of("abcdef".index(name[0]), int(name[1]) - 1)] = "YRGBWSK".index(letter)
    for name in black:
        board[cell_of("abcdef".index(name[0]), int(name[1]) - 1)] = BLACK
    placeholders = tuple(Take(0, 1 + i % state.seats, 0, None, None) for i in range(moved))
    return replace(state, board=tuple(board), arrows=tuple(arrows), moves=placeholders,
                   counts=NO_COUNTS)


# -- the catalog --------------------------------------------------------------------------------


def test_the_catalog():
    cat = RULES.catalog()
    assert cat["game"] == "marbles" and cat["title"] == "Corner"
    variants = {v["name"]: v for v in cat["variants"]}
    assert variants["2p"]["seats"] == [2] and variants["4p"]["seats"] == [4]
    assert variants["2p"]["rated"] and not variants["4p"]["rated"]
    assert variants["4p"]["colours"] == ["red", "yellow", "red", "yellow"]
    opts = {o["name"]: o for o in variants["2p"]["options"]}
    assert opts["rounds"]["default"] == 2
    assert (opts["rounds"]["minimum"], opts["rounds"]["maximum"]) == (1, 10)
    assert opts["setups"]["kind"] == "strings" and opts["setups"]["default"] == []
    assert [lv["number"] for lv in cat["levels"]] == [1, 2, 3, 4]
    assert all(lv["seconds"] <= 1 for lv in cat["levels"])


# -- scoring ------------------------------------------------------------------------------------


@pytest.mark.parametrize("n,points", sorted(SEED_TABLE.items()))
def test_the_seed_table_and_its_doubling(n, points):
    assert POINTS[n] == points
    assert colour_score(n, 1) == points  # the other side holds some of the colour
    assert colour_score(n, 5) == points
    assert colour_score(n, 0) == 2 * points  # only this side holds it: doubled
    assert colour_score(0, n) == 0


def test_side_scores_add_the_colours_each_doubled_alone():
    # red: 2 yellow, 1 red, 3 green; yellow: 1 yellow, 4 white
    red = (2, 1, 3, 0, 0, 0)
    yellow = (1, 0, 0, 0, 4, 0)
    # red: yellow 3 (shared), red 1*2, green 6*2; yellow: yellow 1, white 10*2
    assert side_scores((red, yellow)) == (3 + 2 + 12, 1 + 20)


def test_the_scores_of_a_played_round_count_the_doubling_even_with_marbles_left():
    state = start_state("2p", SAMPLE_SETUP)
    # SAMPLE_SETUP rows 1..6: YYYSYK GWWWBR YSBYRR YGRKGB GYGRKB BWRGRS
    state = play(state, "a", "a1", "b1", "b2")  # yellow Y; red Y; yellow W
    view = RULES.public_view(state).board
    red, yellow = view["sides"]["red"], view["sides"]["yellow"]
    assert red["marbles"]["Y"] == 1 and yellow["marbles"]["Y"] == 1
    assert yellow["marbles"]["W"] == 1
    assert red["score"] == 1 and yellow["score"] == 1 + 2
    white = next(c for c in yellow["colours"] if c["letter"] == "W")
    assert white == {"colour": "white", "letter": "W", "count": 1, "points": 1,
                     "doubled": True, "score": 2}


# -- setups and options -------------------------------------------------------------------------


def created(variant="2p", **options):
    return GameCreated(seq=1, game="marbles", variant=variant, options=options)


def test_a_setup_reads_36_letters_in_any_case_with_spaces():
    rows = " ".join(SAMPLE_SETUP[i:i + 6].lower() for i in range(0, 36, 6))
    assert parse_setup(rows) == parse_setup(SAMPLE_SETUP)
    assert sorted(FULL_SET) == sorted(SAMPLE_SETUP)


@pytest.mark.parametrize("text,problem,words", [
    (SAMPLE_SETUP.replace("Y", "R", 1), "count", "7 yellow marbles (Y), not 8"),
    (SAMPLE_SETUP[:-1] + "K", "count", "4 black marbles (K), not 3"),
    ("X" + SAMPLE_SETUP[1:], "letter", "unknown letter 'X' at a1"),
    (SAMPLE_SETUP[:35], "length", "35 letters, not 36"),
    (SAMPLE_SETUP + "Y", "length", "37 letters, not 36"),
])
def test_a_bad_setup_names_what_is_wrong(text, problem, words):
    with pytest.raises(E.BadSetupError) as err:
        RULES.initial_state(created(setups=[SAMPLE_SETUP, text]))
    assert err.value.code == "bad_setup"
    assert isinstance(err.value, E.BadOptionError)
    assert err.value.details["problem"] == problem
    assert err.value.details["index"] == 2
    assert err.value.message.startswith("setup 2")
    assert words in err.value.message


def test_the_count_error_says_which_colour():
    with pytest.raises(E.BadSetupError) as err:
        parse_setup(SAMPLE_SETUP.replace("G", "S", 1))
    d = err.value.details
    assert (d["colour"], d["letter"], d["count"], d["expected"]) == ("green", "G", 5, 6)


def test_more_setups_than_rounds_and_bad_rounds_are_refused():
    with pytest.raises(E.BadOptionError, match="3 setups for a game of 2 rounds"):
        RULES.initial_state(created(setups=[SAMPLE_SETUP] * 3))
    for bad in (0, 11, "2", True):
        with pytest.raises(E.BadOptionError):
            RULES.initial_state(created(rounds=bad))
    with pytest.raises(E.BadOptionError):
        RULES.initial_state(created(setups=SAMPLE_SETUP))
    with pytest.raises(E.EngineError):
        RULES.initial_state(created(variant="3p"))
    with pytest.raises(E.EngineError, match="4 seats"):
        RULES.initial_state(GameCreated(seq=1, game="marbles", variant="4p",
                                        players=("a", "b")))


# -- deals --------------------------------------------------------------------------------------


def test_the_given_setups_are_dealt_first_then_random_ones():
    other = random_setup(random.Random(7))
    game = new_game("2p", options={"rounds": 3, "setups": [SAMPLE_SETUP, other.lower()]})
    state = game.state
    assert state.to_move is None and not state.over and state.deal_due
    deal = RULES.chance(state, random.Random(1))
    assert deal == RoundDealt(seq=2, round=1, setup=SAMPLE_SETUP)
    game.append(deal)
    assert game.state.to_move == 1 and RULES.chance(game.state, random.Random(1)) is None
    assert RULES.public_view(game.state).board["setup"] == SAMPLE_SETUP


def test_a_deal_must_be_due_and_match_the_given_setup():
    state = RULES.initial_state(created(setups=[SAMPLE_SETUP]))
    other = random_setup(random.Random(3))
    with pytest.raises(E.LogError, match="given setup"):
        RULES.apply(state, RoundDealt(seq=2, round=1, setup=other))
    with pytest.raises(E.LogError, match="round 1, not 2"):
        RULES.apply(state, RoundDealt(seq=2, round=2, setup=SAMPLE_SETUP))
    with pytest.raises(E.LogError):
        RULES.apply(state, RoundDealt(seq=2, round=1, setup=SAMPLE_SETUP.lower()))
    dealt = RULES.apply(state, RoundDealt(seq=2, round=1, setup=SAMPLE_SETUP))
    with pytest.raises(E.LogError, match="under way"):
        RULES.apply(dealt, RoundDealt(seq=3, round=2, setup=other))
    with pytest.raises(E.NotYourTurnError, match="not been dealt"):
        RULES.play(state, 1, "c")


def test_a_random_deal_is_a_full_set_drawn_from_the_hosts_generator():
    state = RULES.initial_state(created())
    a = RULES.chance(state, random.Random(42))
    b = RULES.chance(state, random.Random(42))
    assert a == b and sorted(a.setup) == sorted(FULL_SET)
    assert a.setup != RULES.chance(state, random.Random(43)).setup


# -- moves --------------------------------------------------------------------------------------


def test_red_opens_round_1_with_a_column_and_takes_nothing():
    state = start_state("2p")
    assert [m["move"] for m in RULES.legal(state, 1)] == list("abcdef")
    assert RULES.legal(state, 2) == []
    for bad in ("c4", "4"):
        with pytest.raises(E.IllegalMoveError):
            RULES.play(state, 1, bad)
    state = play(state, "C")
    assert state.board == parse_setup(SAMPLE_SETUP)  # nothing taken
    assert RULES.public_view(state).last_move == {"seat": 1, "move": "c", "seq": 3}


def test_yellows_first_placement_is_any_row_crossing_reds_column():
    state = play(start_state("2p"), "f")
    # column f: K R R B B S -> the black marble on f1 cannot be taken
    assert [m["move"] for m in RULES.legal(state, 2)] == ["f2", "f3", "f4", "f5", "f6"]
    with pytest.raises(E.IllegalMoveError, match="black"):
        RULES.play(state, 2, "f1")
    with pytest.raises(E.IllegalMoveError):
        RULES.play(state, 2, "3")  # a line is only for the round's opening


def test_a_later_move_slides_to_another_line_and_takes_at_the_crossing():
    state = play(start_state("2p"), "c", "c3")
    assert state.arrows == (2, 2)
    moves = [m["move"] for m in RULES.legal(state, 1)]
    assert moves == ["a3", "b3", "d3", "e3", "f3"]  # not c3: the same column (and empty)
    with pytest.raises(E.IllegalMoveError, match="already points at column c"):
        RULES.play(state, 1, "c3")
    with pytest.raises(E.IllegalMoveError, match="no arrow of the other side"):
        RULES.play(state, 1, "a4")
    with pytest.raises(E.NotYourTurnError):
        RULES.play(state, 2, "a3")
    state = play(state, "a3")
    assert state.arrows == (0, 2) and cells(state, "a3") == [EMPTY]


def test_a_black_marble_or_an_empty_cell_is_never_legal():
    state = position(marbles={"b4": "Y", "d4": "R"}, black=("c4", "e4"), arrows=(0, 3),
                     moved=2)  # red (column a) to move, yellow on row 4
    assert state.to_move == 1
    assert [m["move"] for m in RULES.legal(state, 1)] == ["b4", "d4"]
    with pytest.raises(E.IllegalMoveError, match="black marble on c4"):
        RULES.play(state, 1, "c4")
    with pytest.raises(E.IllegalMoveError, match="f4 is empty"):
        RULES.play(state, 1, "f4")


def test_the_legal_list_gives_line_colour_and_the_arrows_crossing():
    state = play(start_state("2p"), "c", "c3")
    first = RULES.legal(state, 1)[0]
    assert first == {"move": "a3", "line": "a", "colour": "Y", "by": [2]}


# -- four players -------------------------------------------------------------------------------


def test_four_players_take_turns_1_2_3_4_and_yellow_opens_round_2():
    state = start_state("4p")
    assert state.to_move == 1
    state = play(state, "a", "a2", "b2")
    assert state.to_move == 4 and state.arrows == (0, 1, 1, None)
    two = RULES.initial_state(created("4p"))
    two = replace(two, round=1, history=())
    assert two.starter == 1
    assert replace(two, round=2).starter == 2


def test_the_fourth_player_chooses_between_two_intersections():
    state = play(start_state("4p"), "a", "a2", "b2")
    # seat 4 (yellow) crosses column a (seat 1) or column b (seat 3) on any row
    moves = RULES.legal(state, 4)
    cols = {m["move"][0] for m in moves}
    assert cols == {"a", "b"}
    by = {m["move"]: m["by"] for m in moves}
    assert by["a1"] == [1] and by["b1"] == [3]
    assert "a2" not in by and "b2" not in by  # taken already
    # both red arrows on one column: one crossing per row
    state = position("4p", marbles={"c1": "Y", "c5": "G", "d5": "R"}, arrows=(2, 0, 2, 4),
                     moved=3)  # seat 4 to move from row 5
    assert state.to_move == 4
    assert [(m["move"], m["by"]) for m in RULES.legal(state, 4)] == [("c1", [1, 3])]


def test_a_red_player_crosses_either_yellow_row():
    state = position("4p", marbles={"b2": "Y", "b5": "R", "d2": "G"},
                     arrows=(0, 1, 3, 4), moved=4)  # seat 1 again
    assert state.to_move == 1
    assert [m["move"] for m in RULES.legal(state, 1)] == ["b2", "b5", "d2"]


# -- the end of a round -------------------------------------------------------------------------


def test_the_round_ends_when_the_player_to_move_cannot_take():
    # yellow (row 1) to move; after it takes b4, red (column b) has nothing on row 4
    state = position(marbles={"b4": "R", "e1": "Y", "e2": "G"}, black=("a4",),
                     arrows=(1, 0), moved=2)
    assert state.to_move == 1
    state = replace(state, moves=state.moves + (Take(0, 1, 1, None, None),))
    assert state.to_move == 2
    assert [m["move"] for m in RULES.legal(state, 2)] == ["b4"]
    state = RULES.apply(state, Moved(seq=state.seq + 1, seat=2, move="b4"))
    assert not state.playing and state.to_move is None and state.deal_due
    assert state.history[-1].scores == (0, 2)  # yellow's lone red marble, doubled
    assert RULES.public_view(state).board["rounds"] == [
        {"round": 1, "setup": SAMPLE_SETUP, "starter": 1, "scores": {"red": 0, "yellow": 2}}]
    assert RULES.public_view(state).board["status"] == "dealing"
    deal = RULES.chance(state, random.Random(0))
    state = RULES.apply(state, deal)
    assert state.round == 2 and state.to_move == 2 and state.opening
    assert [m["move"] for m in RULES.legal(state, 2)] == list("123456")
    assert state.counts == NO_COUNTS and state.totals() == (0, 2)


def test_the_round_ends_even_if_the_partner_could_still_move():
    # seat 2 (yellow) takes a3 along seat 1's column a; seat 3 (column c) then finds only c3
    # on the yellow rows, its own column: it cannot move, though seat 1 could take c3
    state = position("4p", marbles={"a3": "Y", "c3": "R"}, arrows=(0, 0, 2, 5), moved=5)
    assert state.to_move == 2
    after = RULES.apply(state, Moved(seq=state.seq + 1, seat=2, move="a3"))
    assert takes(after.board, after.arrows, 1) == [(2, cell_of(2, 2))]  # the partner could
    assert takes(after.board, after.arrows, 3) == []
    assert not after.playing and after.history[-1].scores == (0, 2)


def test_the_last_round_ends_the_game_and_the_higher_total_wins():
    game = new_game("2p", options={"rounds": 1, "setups": [SAMPLE_SETUP]})
    game.append(RULES.chance(game.state, random.Random(0)))
    from engine.marbles.ai import choose_move

    while game.state.to_move:
        seat = game.state.to_move
        game.play(seat, choose_move(game.state, seat, level=2, seed=3))
    state = game.state
    assert state.over and RULES.chance(state, random.Random(0)) is None
    red, yellow = state.totals()
    o = RULES.outcome(state)
    assert o.reason == "finished" and o.scores == (red, yellow)
    assert red != yellow
    winner = 1 if red > yellow else 2
    assert o.winners == (winner,) and o.results[winner - 1] == "win"
    result = RULES.public_view(state).board["result"]
    assert result == {"winners": [winner], "results": list(o.results),
                      "team_scores": {"red": red, "yellow": yellow}, "reason": "finished"}


def test_equal_totals_are_a_draw():
    state = position(marbles={"b4": "R"}, arrows=(1, 0), moved=2)
    state = replace(state, round_count=1, moves=state.moves + (Take(0, 1, 1, None, None),),
                    counts=((0, 1, 0, 0, 0, 0), NO_COUNTS[1]))
    state = RULES.apply(state, Moved(seq=state.seq + 1, seat=2, move="b4"))
    assert state.over and state.totals() == (1, 1)
    o = RULES.outcome(state)
    assert o.winners == (1, 2) and o.results == ("draw", "draw") and o.points == (1, 1)


# -- leaving and takebacks ----------------------------------------------------------------------


def test_leaving_a_two_player_game_resigns_it():
    state = play(start_state("2p"), "c")
    state = RULES.apply(state, RULES.leave(state, 1))
    o = RULES.outcome(state)
    assert state.over and o.reason == "resigned" and o.winners == (2,)
    with pytest.raises(E.GameOverError):
        RULES.play(state, 2, "c1")


def test_a_leaver_in_a_four_player_game_is_played_by_the_computer():
    from engine.marbles.ai import choose_move

    state = play(start_state("4p"), "a", "a2")
    state = RULES.apply(state, RULES.leave(state, 3))
    assert not state.over and state.left == {3} and state.to_move == 3
    view = RULES.public_view(state)
    assert view.board["computer_seats"] == [3]
    assert view.seats[2].left and view.seats[2].view["computer"]
    assert RULES.legal(state, 3)  # the seat still moves: the host's computer plays it
    assert RULES.plays_on(state, 3) and not RULES.plays_on(state, 1)
    state = play(state, choose_move(state, 3, level=2, seed=0))
    assert state.to_move == 4
    with pytest.raises(E.SeatLeftError):
        RULES.leave(state, 3)
    # the partner leaving too forfeits the team
    state = RULES.apply(state, RULES.leave(state, 1))
    o = RULES.outcome(state)
    assert state.over and o.reason == "left" and o.winners == (2, 4)
    assert o.results == ("loss", "win", "loss", "win")


def test_a_takeback_undoes_the_seats_latest_move_of_the_round():
    state = play(start_state("2p"), "c", "c3", "a3")
    event = RULES.undo(state, 2)
    assert event == MoveTakenBack(seq=state.seq + 1, seat=2, from_seq=4)
    back = RULES.apply(state, event)
    assert back.arrows == (2, None) and back.board == parse_setup(SAMPLE_SETUP)
    assert back.to_move == 2 and back.seq == state.seq + 1
    with pytest.raises(E.NothingToUndoError):
        RULES.undo(play(start_state("2p")), 2)
    assert can_undo(RULES, state, 1) and not can_undo(RULES, start_state("2p"), 1)


# -- the whole game through the log -------------------------------------------------------------


@pytest.mark.parametrize("variant", ["2p", "4p"])
def test_a_whole_game_folds_back_equal_chance_events_included(known, variant):
    from engine.marbles.ai import choose_move

    game = new_game(variant, options={"rounds": 3, "setups": [SAMPLE_SETUP]})
    rng = random.Random(5)
    while not game.state.over:
        deal = RULES.chance(game.state, rng)
        if deal is not None:
            game.append(deal)
            continue
        seat = game.state.to_move
        game.play(seat, choose_move(game.state, seat, level=2, seed=seat))
    deals = [e for e in game.events if isinstance(e, RoundDealt)]
    assert [d.round for d in deals] == [1, 2, 3] and deals[0].setup == SAMPLE_SETUP
    again = Game.from_json(game.to_json())
    assert again.events == game.events
    assert again.state == game.state
    assert RULES.outcome(again.state) == RULES.outcome(game.state)
    assert len(again.state.history) == 3
    steps = [RULES.step(again.state_at(e.seq), e) for e in again.events[1:]]
    assert [s.kind for s in steps].count("deal") == 3
    assert steps[0].details == {"round": 1, "setup": SAMPLE_SETUP}
    assert steps[1].details["opening"] and steps[2].details["colour"] in "YRGBWS"
    ladder = RULES.ladder(again.state)
    assert len(ladder) == len(again.state.players)
    taken = sum(sum(sum(c) for c in r.counts) for r in again.state.history)
    assert ladder[0].stats["marbles"] + ladder[1].stats["marbles"] == taken


def test_a_log_with_a_move_before_the_deal_is_refused(known):
    first = new_game("2p").events[0]
    with pytest.raises(E.LogError, match="not been dealt"):
        Game.from_events([first, Moved(seq=2, seat=1, move="c")])


def test_player_left_is_the_cores_event():
    state = play(start_state("4p"), "a")
    assert isinstance(RULES.leave(state, 2), PlayerLeft)


def test_the_picture_draws_colours_and_arrows():
    state = play(start_state("2p"), "c", "c3")
    pic = RULES.picture(state)
    assert pic.columns == tuple("abcdef") and pic.rows == tuple("654321")
    assert pic.cells[5][0] == "yellow" and pic.cells[3][2] == ""  # a1, c3 taken
    assert (0, 2, "▼") in pic.marks and (3, 0, "▶") in pic.marks


def test_the_public_view_is_plain_json_with_every_field_the_table_shows():
    import json
    from dataclasses import asdict

    fresh = new_game("4p").state
    assert RULES.public_view(fresh).board["status"] == "dealing"
    state = play(start_state("4p"), "a", "a2", "b2")
    view = RULES.public_view(state)
    json.dumps(asdict(view))
    board = view.board
    assert set(board) >= {"cells", "rows", "setup", "arrows", "round", "round_count",
                          "to_move", "opening", "status", "sides", "rounds", "team_scores",
                          "result", "computer_seats", "last_take"}
    assert board["arrows"] == [
        {"seat": 1, "side": "red", "axis": "column", "line": "a"},
        {"seat": 2, "side": "yellow", "axis": "row", "line": "2"},
        {"seat": 3, "side": "red", "axis": "column", "line": "b"},
        {"seat": 4, "side": "yellow", "axis": "row", "line": None}]
    assert board["rows"][5] == SAMPLE_SETUP[:6] and board["cells"][6:8] == ".."
    assert board["sides"]["red"]["seats"] == [1, 3]
    assert board["sides"]["yellow"]["marbles"]["G"] == 1  # a2
    assert board["sides"]["red"]["marbles"]["W"] == 1  # b2
    assert board["to_move"] == 4 and not board["opening"] and board["status"] == "playing"
    assert [s.colour for s in view.seats] == ["red", "yellow", "red", "yellow"]
    assert view.seats[3].can_move and view.seats[0].score == 2  # a lone white, doubled
