"""Every Pentobi self-play game replays legally, move by move, to its recorded scores."""

import pytest

from engine.cornerclaim import RULES, new_game
from tests.conftest import COLOR_SEAT, load_record, pentobi_records


@pytest.mark.parametrize("path", pentobi_records(), ids=lambda p: p.stem)
def test_pentobi_game_replays_to_its_recorded_scores(path):
    record = load_record(path)
    game = new_game(record["game"])
    for entry in record["moves"]:
        seat = COLOR_SEAT[entry["color"]]
        if entry["move"] == "pass":
            RULES.check_pass(game.state, seat)  # Pentobi only passes when it must
            continue
        assert game.state.to_move == seat
        game.play(seat, entry["move"])
    state = game.state
    assert state.is_over
    expected = record["corner_claim_scores"]
    for seat in state.seats:
        key = str(seat) if str(seat) in expected else "bw"[seat - 1]
        assert state.score(seat) == expected[key]["score"]
        assert len(state.pieces_left(seat)) == 21 - expected[key]["pieces"]
    points = [state.position.points(c) for c in range(state.nu_seats)]
    if record["game"] == "duo":
        diff = points[0] - points[1]
        text = "0" if diff == 0 else (f"B+{diff}" if diff > 0 else f"W+{-diff}")
        assert text == record["final_score"]
    else:
        assert points == [int(x) for x in record["final_score"].split()]
