"""A seat that can no longer place is told so: the state says `out_of_moves` for it while the
others play on (the host skips its turns), and for nobody once the game is over."""

from __future__ import annotations

import random

from engine.cornerclaim import RULES, new_game
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import create
from tests.test_api import move, state


def blue_runs_out_first(seed: int = 0) -> list[tuple[int, str]]:
    """A Duo in which Blue (seat 1) has no placement left while Green still has some: Blue
    lays small pieces, Green big ones, each picked at random from the engine's legal list."""
    rng = random.Random(seed)
    game = new_game("duo", ("Ann", "Bo"))
    moves: list[tuple[int, str]] = []
    while not RULES.is_over(game.state):
        seat = RULES.to_move(game.state)
        legal = sorted(RULES.legal(game.state, seat), key=lambda m: len(m["move"].split(",")))
        pick = rng.randrange(min(len(legal), 30))
        m = legal[pick] if seat == 1 else legal[-1 - pick]
        game.play(seat, m["move"])
        moves.append((seat, m["move"]))
        if RULES.public_view(game.state).seats[0].out_of_moves:
            return moves
    raise AssertionError(f"seed {seed}: Green ran out first")


def test_a_seat_with_no_placement_left_is_out_of_moves_while_the_others_play_on():
    game = new_game("duo", ("Ann", "Bo"))
    for seat, m in blue_runs_out_first():
        view = RULES.public_view(game.state)
        assert not view.seats[0].out_of_moves and not view.seats[1].out_of_moves
        game.play(seat, m)
    blue, green = RULES.public_view(game.state).seats
    assert blue.out_of_moves and not blue.can_move and blue.view["pieces_left"]
    assert not green.out_of_moves and RULES.to_move(game.state) == 2


def test_the_state_says_which_seat_is_out_of_moves(client):
    g = create(client, "duo")
    gid, tokens = g["id"], g["tokens"]
    for seat, m in blue_runs_out_first():
        r = move(client, gid, seat, m, state(client, gid)["seq"], tokens[str(seat)])
        assert r.status_code == 201, r.json
    s = state(client, gid)
    assert [x["out_of_moves"] for x in s["seats"]] == [True, False] and s["to_move"] == 2
    # Green plays on alone; at the end nobody is "out of moves": the game is over.
    while s["to_move"]:
        m = client.get(f"/api/games/{gid}/legal?seat=2").json["moves"][0]["move"]
        assert move(client, gid, 2, m, s["seq"], tokens["2"]).status_code == 201
        s = state(client, gid)
    assert s["status"] == "finished"
    assert [x["out_of_moves"] for x in s["seats"]] == [False, False]
