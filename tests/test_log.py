"""The event log: seq order, JSON round trips, state_at, and clear errors for bad logs."""

import json

import pytest

from engine.core import Game, log_from_json
from engine.cornerclaim import PiecePlaced, new_game
from engine.errors import LogError


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
        "game_created", "piece_placed", "piece_placed", "piece_placed",
        "move_taken_back", "piece_placed", "player_left",
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
