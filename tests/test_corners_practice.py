"""Corners' practice room in the engine: practice games (no clock, takebacks, the strongest
level's hint, off the ladder), set-up positions (`setup_state`, the `setup` option, what is
refused), the solo race (one seat, no black pieces, its end) and its solver (IDA* and beam
search against breadth-first search; the best known lines replayed through the rules)."""

from __future__ import annotations

import pytest

from engine.corners import solo
from engine.corners.practice import parse_setup, setup_text
from engine.corners.rules import HINT_SECONDS, RULES, move_list, new_game, setup_state, start_state
from engine.corners.variants import VARIANTS, Variant
from engine.errors import BadOptionError, EngineError


def play(state, *moves):
    for text in moves:
        state = RULES.apply(state, RULES.play(state, state.to_move, text))
    return state


# -- practice games ----------------------------------------------------------------------------


def test_a_practice_game_has_no_clock_takes_takebacks_and_is_practice():
    state = start_state("classic-3x3", practice=True, reserve_s=300, increment_s=3)
    assert state.practice and not state.has_clock
    assert RULES.practice(state) and not RULES.practice(start_state("classic-3x3"))
    assert RULES.public_view(state).board["practice"] is True
    state = play(state, "c3-d3", "f6-e6")
    assert RULES.takeback_refusal(state) is None  # a rated variant, but no clock
    back = RULES.apply(state, RULES.undo(state, 1))
    assert back.board == start_state("classic-3x3").board


def test_a_practice_hint_is_the_strongest_levels_move(monkeypatch):
    from engine.corners import ai

    asked = []
    real = ai.choose_move

    def spy(state, seat, *, level, seed, seconds=None):
        asked.append((level, seconds))
        return real(state, seat, level=1, seed=seed)  # the level asked for is what counts

    monkeypatch.setattr(ai, "choose_move", spy)
    hint = RULES.hint(start_state("classic-3x3", practice=True), 1)
    assert asked == [(max(ai.LEVELS), HINT_SECONDS)]  # its search cut to the hint's budget
    assert hint in {m["move"] for m in RULES.legal(start_state("classic-3x3"), 1)}
    RULES.hint(start_state("classic-3x3"), 1)
    assert asked[-1] == (RULES.hint_level, None)  # a game that is not practice: the usual level


def test_the_practice_hints_budget_cuts_the_strongest_levels_search_and_no_other(monkeypatch):
    """The strongest level searches for its own budget in a game; asked with `seconds` (the
    practice hint), for that many seconds of CPU time: never more than its own."""
    from engine.corners import ai

    budgets = []

    class Timed(ai.DeepSearch):
        def __init__(self, variant, board, plies, pending, stop_at, lv):
            budgets.append(round(stop_at - ai.time.thread_time(), 2))
            super().__init__(variant, board, plies, pending, ai.time.thread_time(), lv)

    monkeypatch.setattr(ai, "DeepSearch", Timed)
    state = start_state("classic-3x3", practice=True)
    strongest = max(ai.LEVELS)
    ai.choose_pair(state, 1, level=strongest, seed=0)
    ai.choose_pair(state, 1, level=strongest, seed=0, seconds=HINT_SECONDS)
    ai.choose_pair(state, 1, level=strongest, seed=0, seconds=60)
    RULES.hint(state, 1)
    own = ai.LEVELS[strongest].seconds
    assert budgets == [own, HINT_SECONDS, own, HINT_SECONDS]
    assert HINT_SECONDS < 1 <= own


# -- set-up positions --------------------------------------------------------------------------

NEAR = "W:a1,b1,c1,a2,b2,c2,a3,b3,d3 B:f6,g6,h6,f7,g7,h7,f8,g8,e8 b 12"


def test_a_setup_starts_the_game_from_the_position_and_replays_exactly():
    game = new_game("classic-3x3", options={"setup": NEAR})
    state = game.state
    assert state.practice and state.to_move == 2 and state.number == 12
    assert parse_setup(state.variant, NEAR) == (state.board, 2, 12)
    assert setup_text(state.variant, state.board, 2, 12) == NEAR.replace(
        "W:a1,b1,c1,a2,b2,c2,a3,b3,d3", "W:a1,a2,a3,b1,b2,b3,c1,c2,d3").replace(
        "B:f6,g6,h6,f7,g7,h7,f8,g8,e8", "B:e8,f6,f7,f8,g6,g7,g8,h6,h7")
    game.play(2, "e8-e7")
    game.play(1, "d3-d4")
    assert move_list(game) == ["12. … e8-e7", "13. d3-d4"]
    view = RULES.public_view(game.state).board
    assert view["moves"] == ["e8-e7", "d3-d4"] and view["first_ply"] == 23
    # the log alone gives the same game: the setup is in its game_created
    assert game.events[0].options["setup"] == NEAR
    assert RULES.initial_state(game.events[0]).board == state.board
    # a takeback never reaches the set-up position's placeholders
    game.undo(2)
    assert game.state.board == state.board and game.state.to_move == 2
    with pytest.raises(EngineError):
        game.undo(2)


def test_setup_state_is_the_one_entry_and_checks_a_playable_position():
    board, to_move, number = parse_setup(VARIANTS["classic-3x3"], NEAR)
    state = setup_state("classic-3x3", board, to_move=to_move, number=number, playable=True)
    assert state == start_state("classic-3x3", setup=setup_text(state.variant, board, 2, 12))
    assert state.practice
    loose = setup_state("classic-3x3", [0] * 62 + [1, 2])  # analysis: any position
    assert not loose.practice


@pytest.mark.parametrize("text, problem, words", [
    ("W:a1,b1 B:h8,g8", "count", "White has 2 pieces; Classic 3×3 is played with 9"),
    ("W:a1,b1,c1,a2,b2,c2,a3,b3,c3 B:f6,g6,h6", "count", "Black has 3 pieces"),
    ("W:a1,b1,c1,a2,b2,c2,a3,b3,c3 B:f6,g6,h6,f7,g7,h7,f8,g8,c3", "twice", "two pieces on c3"),
    ("W:a1,a1,c1,a2,b2,c2,a3,b3,c3 B:f6,g6,h6,f7,g7,h7,f8,g8,h8", "twice", "two pieces on a1"),
    ("W:a1,b1,c1,a2,b2,c2,a3,b3,z9 B:f6,g6,h6,f7,g7,h7,f8,g8,h8", "square", "'z9' is not a square"),
    ("a1 b1", "format", "a setup lists the pieces"),
    ("W:a1,b1,c1,a2,b2,c2,a3,b3,c3 B:f6,g6,h6,f7,g7,h7,f8,g8,h8 x", "side", "w or b"),
    ("W:a1,b1,c1,a2,b2,c2,a3,b3,c3 B:f6,g6,h6,f7,g7,h7,f8,g8,h8 w 81", "number", "past the"),
    ("W:a1,b1,c1,a2,b2,c2,a3,b3,c3 B:f6,g6,h6,f7,g7,h7,f8,g8,h8 w ²", "number", "whole number"),
    ("W:f6,g6,h6,f7,g7,h7,f8,g8,h8 B:a1,b1,c1,a2,b2,c2,a3,b3,d4", "decided",
     "White has filled its target already"),
])
def test_an_impossible_setup_is_refused_with_a_clear_message(text, problem, words):
    with pytest.raises(BadOptionError) as refused:
        start_state("classic-3x3", setup=text)
    assert refused.value.details["option"] == "setup"
    assert refused.value.details["problem"] == problem
    assert words in refused.value.message


# -- the solo race -----------------------------------------------------------------------------


def test_the_solo_race_is_one_seat_without_black_pieces_until_the_target_is_full():
    state = start_state("diagonal-3x3", players=("Ann",))
    assert state.solo and state.practice and not state.has_clock
    assert state.board.count(2) == 0 and state.board.count(1) == 9
    view = RULES.public_view(state)
    assert len(view.seats) == 1 and view.board["solo"]["moves"] == 0
    assert view.board["home_deadline"] is None and view.board["move_limit"] == 160
    variant = state.variant
    line = solo.beam(variant, width=20)
    names = variant.board.name
    for i, (f, t) in enumerate(line):
        assert state.to_move == 1 and not state.over
        state = play(state, f"{names(f)}-{names(t)}")
        assert RULES.public_view(state).board["solo"]["moves"] == i + 1
    outcome = RULES.outcome(state)
    assert (outcome.reason, outcome.results, outcome.points) == ("target", ("win",), (2,))
    assert outcome.ending.startswith(f"White filled the target in {len(line)} moves")
    assert RULES.to_move(state) is None
    with pytest.raises(EngineError):  # nobody to offer a draw to
        RULES.act(start_state("diagonal-3x3", players=("Ann",)), 1, "offer_draw")


def test_the_solo_race_has_no_deadline_and_gives_a_hint():
    state = start_state("classic-3x3", players=("Ann",))
    for _ in range(41):  # back and forth well past the home deadline's number
        state = play(state, "c3-d3" if state.board[18] else "d3-c3")
    assert not state.over and state.number == 42
    assert all(not m.get("loses") for m in RULES.legal(state, 1))
    hint = RULES.hint(state, 1)
    assert hint in {m["move"] for m in RULES.legal(state, 1)}


def test_a_left_solo_race_is_a_loss_and_leaving_is_its_one_way_out():
    state = start_state("classic-3x3", players=("Ann",))
    assert RULES.available_actions(state, 1) == []  # no resign beside the leave
    state = RULES.apply(play(state, "c3-d3"), RULES.leave(play(state, "c3-d3"), 1))
    outcome = RULES.outcome(state)
    assert outcome.results == ("loss",) and "gave up" in outcome.ending


# -- the solver --------------------------------------------------------------------------------

TINY = [Variant("tiny", "Tiny", (0, 1), False, 40, False, "two pieces, four directions"),
        Variant("tiny-diagonal", "Tiny", (0, 1), True, 30, False, "two pieces, eight")]


@pytest.mark.parametrize("variant", TINY, ids=lambda v: v.name)
def test_ida_star_finds_the_optimum_breadth_first_search_proves(variant):
    shortest = solo.bfs(variant)
    found = solo.ida_star(variant, max_nodes=500_000)
    assert found is not None and len(found) == len(shortest)
    assert solo.lower_bound(variant, solo.start(variant), solo.goal(variant)) <= len(shortest)
    beam = solo.beam(variant, width=50)
    assert beam is not None and len(beam) >= len(shortest)
    for line in (found, beam):  # each line is a real race to the target
        pos = solo.start(variant)
        for move in line:
            assert move in set(solo.moves(variant, pos))
            pos = solo.after(pos, move)
        assert pos == solo.goal(variant)


@pytest.mark.parametrize("name", sorted(solo.BEST_KNOWN))
def test_the_best_known_lines_are_achievable_through_the_rules(name):
    moves, how = solo.BEST_KNOWN[name]
    line = solo.BEST_LINES[name]
    assert len(line) == moves and ("beam width" in how or "IDA*" in how)
    state = start_state(name, players=("Solo",))
    state = play(state, *line)
    assert RULES.outcome(state).reason == "target" and len(state.moves) == moves
