"""Replay frames as changes (`replays.frames`, docs/formats.md "Replay frames"): the answer's
frames made whole again are the frames of every game and variant, takebacks shown or hidden;
a later frame costs what its move changed, so a long log's answer grows linearly; and the
moves a takeback withdrew are found in one sweep however many takebacks the log has."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core import Game
from engine.errors import EngineError
from engine.events import MoveTakenBack
from replays import cursor
from replays.cursor import Replay
from replays.frames import SAME, delta, expand_frames, patch
from replays.progress import corners_distance
from tests.games import tictactoe  # noqa: F401 - registers the game

#: Every later frame of the games below, in JSON, is at most this long: the frame's own facts
#: (kind, move, scores…) and what the move changed on the board and the seats.
FRAME_BOUND = 1_500


def _json(value):
    """`value` as the host sends it and a client reads it."""
    return json.loads(json.dumps(value))


def _canon(value) -> str:
    """JSON text that tells true from 1 and ignores the order of an object's keys."""
    return json.dumps(value, sort_keys=True)


def played(game_id: str, variant: str, seats: int, seed: int, *, moves: int = 60,
           undo: float = 0.15, options: dict | None = None) -> Game:
    """A game of random legal moves with takebacks now and then (and the deals of a game of
    chance), until it is over or `moves` commands have been made."""
    game = Game.new(game_id, variant, tuple(f"P{s}" for s in range(1, seats + 1)), options)
    rules, rng = game.rules, random.Random(seed)
    for _ in range(moves):
        if rules.is_over(game.state):
            break
        chance = getattr(rules, "chance", None)
        dealt = chance(game.state, rng) if chance else None
        if dealt is not None:
            game.append(dealt)
            continue
        if rng.random() < undo:
            for seat in range(1, seats + 1):
                try:
                    game.undo(seat)
                    break
                except EngineError:
                    continue
            continue
        seat = rules.to_move(game.state)
        game.play(seat, rng.choice(rules.legal(game.state, seat))["move"])
    return game


def variants() -> list[tuple[str, str, int, dict | None]]:
    """Every game and variant on this host, each with each of its seat counts."""
    out = []
    for rules in registry.games():
        for name, spec in rules.variants.items():
            for seats in spec.seats:
                options = {"reserve_s": 0} if rules.game == "corners" and seats == 2 else None
                out.append((rules.game, name, seats, options))
    return out


VARIANTS = variants()


@pytest.mark.parametrize("show", [False, True], ids=["hidden", "shown"])
@pytest.mark.parametrize(("game_id", "variant", "seats", "options"), VARIANTS,
                         ids=[f"{g}-{v}-{s}" for g, v, s, _ in VARIANTS])
def test_the_frames_made_whole_are_the_frames_of_every_game(game_id, variant, seats, options,
                                                            show):
    game = played(game_id, variant, seats, seed=len(variant) + seats, options=options)
    assert any(isinstance(e, MoveTakenBack) for e in game.events)
    replay = Replay(game, show_takebacks=show)
    sent = _json(replay.to_dict())
    frames = sent["frames"]
    assert {"board", "seats"} <= set(frames[0]) and "changes" not in frames[0]
    assert all("changes" in f and "board" not in f and "seats" not in f for f in frames[1:])
    whole = _json([f.to_dict() for f in replay.frames])
    assert _canon(expand_frames(sent)["frames"]) == _canon(whole)
    assert max(len(json.dumps(f)) for f in frames[1:]) <= FRAME_BOUND


def test_a_closed_game_and_a_seat_that_left_are_frames_like_the_others():
    game = played("cornerclaim", "classic", 4, seed=3, moves=12, undo=0.2)
    game.leave(game.rules.to_move(game.state))
    game.close()
    for show in (False, True):
        replay = Replay(game, show_takebacks=show)
        sent = _json(replay.to_dict())
        assert sent["frames"][-1]["kind"] == "closed" and sent["frames"][-2]["kind"] == "left"
        assert _canon(expand_frames(sent)["frames"]) == _canon(
            _json([f.to_dict() for f in replay.frames]))


def test_a_frame_is_its_moves_cells_not_the_board():
    """A duo placement of five squares: five cells of the board's rows, not its 196."""
    game = Game.new("cornerclaim", "duo")
    game.play(1, "e9,d10,e10,f10,e11")
    changes = Replay(game).to_dict()["frames"][1]["changes"]
    rows = changes["board"]["rows"]
    assert sum(len(row) for row in rows.values()) == 5 and set(changes["board"]) == {"rows"}
    assert len(json.dumps(changes)) < 300


def _play_and_take_back(game_id: str, variant: str, seats: int, cycles: int,
                        options: dict | None = None) -> Game:
    """A log of `cycles` moves each taken back at once: nothing on the board grows, every
    event is a frame when the takebacks are shown."""
    game = Game.new(game_id, variant, tuple(f"P{s}" for s in range(1, seats + 1)), options)
    rules, rng = game.rules, random.Random(cycles)
    for _ in range(cycles):
        seat = rules.to_move(game.state)
        game.play(seat, rng.choice(rules.legal(game.state, seat))["move"])
        game.undo(seat)
    return game


@pytest.mark.parametrize(("game_id", "variant", "seats", "options"), [
    ("cornerclaim", "classic", 4, None), ("corners", "halma-16x16", 2, {"reserve_s": 0})])
def test_a_long_logs_answer_grows_linearly_and_stays_under_its_bound(game_id, variant, seats,
                                                                      options):
    sizes = {}
    for cycles in (300, 600):
        game = _play_and_take_back(game_id, variant, seats, cycles, options)
        sent = Replay(game, show_takebacks=True).to_dict()
        assert len(sent["frames"]) == 2 * cycles + 1
        first = len(json.dumps(sent["frames"][0]))
        sizes[cycles] = len(json.dumps(sent))
        # frame 0, the answer's own fields and series, then at most FRAME_BOUND a frame
        assert sizes[cycles] <= 2 * first + 2 * cycles * FRAME_BOUND
    assert sizes[600] <= 2.05 * sizes[300]


def test_a_corners_games_move_list_costs_one_move_a_frame():
    """Corners' board lists every move so far: a frame adds the one move, not the list."""
    game = played("corners", "halma-16x16", 2, seed=5, moves=200, undo=0,
                  options={"reserve_s": 0})
    frames = Replay(game).to_dict()["frames"]
    assert len(frames) > 100
    for f in frames[1:]:
        moves = f["changes"]["board"]["moves"]
        assert len(json.dumps(moves, separators=(",", ":"))) <= len(f["move"]) + 24
    assert frames[-1]["changes"]["board"]["moves"] == {"s": [[len(frames) - 2, 0, [
        frames[-1]["move"]]]]}


# -- the delta itself ---------------------------------------------------------------------------

JSON = st.recursive(st.none() | st.integers(-3, 3) | st.text("ab", max_size=12),
                    lambda inner: st.lists(inner, max_size=6)
                    | st.dictionaries(st.text("xyz", max_size=2), inner, max_size=4),
                    max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(JSON, JSON)
def test_a_change_makes_the_new_value_of_the_old(old, new):
    change = delta(old, new)
    if change is SAME:
        assert old == new
    else:
        assert patch(_json(old), _json(change)) == new


def test_changes_of_lists_strings_and_keys():
    assert delta({"a": 1, "b": [1, 2]}, {"a": 1}) == {"b": []}  # a key gone
    assert delta({"a": None}, {"a": {"x": 1}}) == {"a": [{"x": 1}]}  # a whole new value
    names = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]
    change = delta(names, ["a1", "c3", "d4", "e5", "f6", "g7", "h8", "i9"])
    assert change == {"s": [[8, 0, ["i9"]], [1, 1, []]]}
    row = "0" * 30 + "12" + "0" * 30
    assert delta(row, row.replace("12", "21")) == {"s": [[30, 2, "21"]]}
    assert patch(row, delta(row, row.replace("12", "21"))) == row.replace("12", "21")
    assert delta([[0] * 9, [0] * 9], [[0] * 9, [0] * 8 + [1]]) == {"1": {"8": 1}}
    assert delta(True, 1) == 1 and delta((1, 2), [1, 2]) is SAME


# -- the moves a takeback withdrew ----------------------------------------------------------


def _withdrawn_by_every_span(game: Game) -> set[int]:
    """The same, the plain way: every event against every takeback's span."""
    spans = [(e.from_seq, e.seq) for e in game.events if isinstance(e, MoveTakenBack)]
    return {e.seq for e in game.events[1:]
            if not isinstance(e, MoveTakenBack) and any(a <= e.seq < b for a, b in spans)
            and game.rules.step(game.state_at(e.seq), e).kind == "move"}


@pytest.mark.parametrize(("game_id", "variant", "seats", "options"), [
    ("cornerclaim", "trio", 3, None), ("corners", "classic-3x3", 2, {"reserve_s": 0}),
    ("marbles", "4p", 4, None), ("tictactoe", "3x3", 2, None)])
def test_the_withdrawn_moves_are_those_of_every_span(game_id, variant, seats, options):
    for seed in range(4):
        game = played(game_id, variant, seats, seed, moves=80, undo=0.35, options=options)
        assert cursor._withdrawn(game) == _withdrawn_by_every_span(game)


def test_a_log_of_thousands_of_takebacks_is_swept_once():
    game = _play_and_take_back("cornerclaim", "duo", 2, 3_000)
    takebacks = [e for e in game.events if isinstance(e, MoveTakenBack)]
    assert len(takebacks) == 3_000
    assert cursor._withdrawn(game) == {e.from_seq for e in takebacks}
    assert len(Replay(game)) == 1 and len(Replay(game, show_takebacks=True)) == 6_001


def test_a_corners_replay_carries_each_sides_distance_left_which_falls_as_it_plays():
    """Corners' scores (pieces in the target) stand at 0 for most of a game: its replay also
    carries each side's remaining distance per frame, falling with every move forward and 0
    once a side has filled its target; other games carry no such series."""
    game = Game.new("corners", "classic-3x3", ("Ann", "Bo"), {"reserve_s": 0})
    for seat, move in ((1, "c3-d3"), (2, "f6-e6"), (1, "c1-e3")):
        game.play(seat, move)
    series = Replay(game).to_dict()["series"]
    assert series["scores"] == [[0] * 4, [0] * 4]
    white, black = series["distance"]
    assert len(white) == len(black) == 4 and white[0] == black[0] > 0  # mirrored homes
    # each move brings its side nearer and leaves the other's distance as it was
    assert white[1] < white[0] and white[3] < white[2] and black[2] < black[1]
    assert white[1:3] == [white[1]] * 2 and black[:2] == [black[0]] * 2
    assert white[3] == white[1] - 4  # c1 over c3 to e3: four steps nearer h8's corner
    assert "distance" not in Replay(played("cornerclaim", "duo", 2, seed=1, moves=4)
                                    ).to_dict()["series"]


def test_a_side_that_filled_its_target_has_no_distance_left():
    game = Game.new("corners", "classic-3x3", ("Ann", "Bo"), {"reserve_s": 0})
    state = game.state
    variant = state.variant
    board = [0] * len(state.board)
    for q in variant.target(1):
        board[q] = 1
    for q in variant.home(1):
        board[q] = 2  # black's pieces in white's home: its own target
    filled = dataclasses.replace(state, board=tuple(board))
    assert corners_distance(filled) == [0, 0]
