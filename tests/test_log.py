"""The event log: seq order, JSON round trips, state_at, and clear errors for bad logs."""

import json

import pytest

from engine.core import Game
from engine.cornerclaim import PiecePlaced, new_game
from engine.errors import LogError
from engine.events import log_from_json


def sample_game():
    g = new_game("duo", ("Ann", "Ben"))
    g.play(1, "e9,d10,e10,f10,e11")
    g.play(2, "j5,j4,k4")
    g.play(1, "f8,g8,g7")
    g.undo(1)
    g.play(1, "c8,d8")
    g.leave(2)
    return g


def test_json_round_trip_gives_the_same_game():
    g = sample_game()
    text = g.to_json()
    data = json.loads(text)
    assert data["format"] == "cornerclaim-log" and data["version"] == 1
    assert [e["type"] for e in data["events"]] == [
        "game_created", "cornerclaim_piece_placed", "cornerclaim_piece_placed",
        "cornerclaim_piece_placed", "move_taken_back", "cornerclaim_piece_placed", "player_left",
    ]
    g2 = Game.from_json(text)
    assert g2.events == g.events and g2.state == g.state


def test_state_at_gives_every_earlier_position():
    g = sample_game()
    assert g.state_at(1).placements == ()
    assert g.state_at(3).to_move == 1 and len(g.state_at(3).placements) == 2
    assert g.state_at(5).same_position_key() == g.state_at(3).same_position_key()
    with pytest.raises(Exception, match="no event 99"):
        g.state_at(99)


def bad(mutate):
    data = json.loads(sample_game().to_json())
    mutate(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text, words",
    [
        ("{not json", "not a JSON game log"),
        ('{"format": "other"}', "not a Corner Claim game log"),
        (bad(lambda d: d.update(version=7)), "unsupported log version 7"),
        (bad(lambda d: d["events"].pop(2)), "out of order"),
        (bad(lambda d: d["events"][3].update(seq=9)), "out of order"),
        (bad(lambda d: d["events"].pop(0)), "must start with game_created"),
        (bad(lambda d: d["events"][1].update(type="piece_moved")), "unknown event type"),
        (bad(lambda d: d["events"][1].pop("move")), "missing"),
        (bad(lambda d: d["events"][1].update(seat="1")), "bad value"),
        (bad(lambda d: d["events"][2].update(move="e10,e11")), "event 3: e10 is already covered"),
        (bad(lambda d: d["events"][0].update(variant="hexes")), "unknown variant"),
        (bad(lambda d: d["events"][4].update(from_seq=3)), "not a placement of seat 1"),
    ],
)
def test_a_malformed_or_out_of_order_log_is_refused_clearly(text, words):
    with pytest.raises(LogError, match=words):
        Game.from_json(text)


def test_appending_out_of_order_changes_nothing():
    g = new_game("duo")
    with pytest.raises(LogError, match="expected 2"):
        g.append(PiecePlaced(seq=5, seat=1, move="e10"))
    assert g.seq == 1


def test_events_are_frozen():
    e = log_from_json(sample_game().to_json())[1]
    with pytest.raises(AttributeError):
        e.seq = 3


def test_a_closed_game_keeps_its_state_refuses_what_follows_and_is_abandoned():
    from engine.errors import GameOverError
    from engine.events import GameClosed
    from engine.rules import is_over, outcome_of

    g = new_game("duo", ("Ann", "Ben"))
    g.play(1, "e9,d10,e10,f10,e11")
    before = g.state
    event = g.close()
    assert event == GameClosed(seq=3, reason="closed") and g.closed == event
    assert g.state is before and g.state_at(3) == before  # closing changes no position
    assert g.closed_at(2) is None and g.closed_at(3) == event
    assert is_over(g) and not is_over(g, 2)
    outcome = outcome_of(g)
    assert (outcome.winners, outcome.results, outcome.points, outcome.reason) == (
        (), (), (), "closed")
    assert outcome.scores == g.rules.outcome(before).scores  # the scores as they stood
    assert outcome_of(g, 2).reason == "playing"
    for command in (lambda: g.play(2, "j5"), lambda: g.leave(2), lambda: g.undo(1),
                    lambda: g.close()):
        with pytest.raises(GameOverError, match="closed"):
            command()
    again = Game.from_json(g.to_json())
    assert again.closed == event and outcome_of(again) == outcome
    with pytest.raises(LogError, match="closed"):  # nothing may follow it in a log
        Game.from_events([*again.events, PiecePlaced(seq=4, seat=2, move="j5")])


def test_only_a_game_not_over_is_closed_and_only_for_a_known_reason():
    from engine.events import GameClosed

    g = new_game("duo", ("Ann", "Ben"))
    g.leave(2)
    with pytest.raises(LogError, match="over"):
        Game.from_events([*g.events, GameClosed(seq=3)])
    fresh = new_game("duo")
    with pytest.raises(LogError, match="cancelled"):
        Game.from_events([*fresh.events, GameClosed(seq=2, reason="bored")])
    assert Game.from_events([*fresh.events, GameClosed(seq=2, reason="cancelled")]).closed
