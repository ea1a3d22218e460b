"""Corner, the marble game, on the host, through the same REST, socket, store and bot pool as
every game: the deals the host draws (given setups or its own), whole 2- and 4-player games,
a deal left due by a host that went down between rounds, a bad setup, a 4-player leaver
played on by the computer, and a computer seat."""

from __future__ import annotations

import random

import requests

from engine.core import Game
from engine.marbles import SAMPLE_SETUP
from server.host import host_of
from tests.rest_calls import events, legal, new_game, play, state
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, wait_for
from tests.test_api import assert_error
from tests.test_realtime import Phone

TWO = [{"kind": "local", "name": "Rita"}, {"kind": "local", "name": "Yann"}]
FOUR = [{"kind": "local", "name": n} for n in ("Rita", "Yuki", "Rolf", "Yara")]
#: A second valid deal: the sample's rows the other way up.
OTHER_SETUP = "".join(SAMPLE_SETUP[i:i + 6] for i in range(30, -1, -6))
DEALT = "marbles_round_dealt"


def new_marbles(client, variant: str = "2p", seats=None, **extra) -> dict:
    return new_game(client, "marbles", variant, seats or TWO, **extra)


def play_one(client, g, rng) -> dict:
    """The seat to move plays a move of its legal list; the event."""
    s = state(client, g["id"])
    seat = s["to_move"]
    assert seat is not None, s
    choice = rng.choice(legal(client, g["id"], seat))
    r = play(client, g["id"], seat, choice["move"], s["seq"], g["tokens"][str(seat)])
    assert r.status_code == 201, r.json
    return r.json["event"]


def until_round_over(client, g, rng) -> None:
    """Play the round being played to its end (the last move is in, the next deal is not
    necessarily)."""
    while True:
        s = state(client, g["id"])
        number = s["board"]["round"]
        play_one(client, g, rng)
        s = state(client, g["id"])
        if len(s["board"]["rounds"]) == number:
            return


# -- the catalog and creating ------------------------------------------------------------------


def test_the_catalog_lists_corner_with_its_board_module(client):
    games = {g["game"]: g for g in client.get("/api/catalog").json["games"]}
    m = games["marbles"]
    assert m["title"] == "Corner" and m["board_url"] == "/boards/marbles.js"
    assert [v["name"] for v in m["variants"]] == ["2p", "4p"]
    assert {o["name"] for o in m["variants"][0]["options"]} == {"rounds", "setups"}
    assert client.get(m["board_url"]).status_code == 200


def test_rounds_and_setups_are_taken_at_the_top_level_or_in_options(client):
    g = new_marbles(client, rounds=3, setups=[SAMPLE_SETUP])
    s = state(client, g["id"])
    assert s["options"] == {"rounds": 3, "setups": [SAMPLE_SETUP]}
    assert s["board"]["round_count"] == 3 and s["board"]["setup"] == SAMPLE_SETUP
    g = new_marbles(client, options={"rounds": 1, "setups": [OTHER_SETUP.lower()]})
    s = state(client, g["id"])
    assert s["options"]["rounds"] == 1 and s["board"]["setup"] == OTHER_SETUP
    r = client.post("/api/games", json={"game": "marbles", "variant": "2p", "seats": TWO,
                                        "rounds": 2, "options": {"rounds": 3}})
    assert assert_error(r, 422, "invalid_request")["details"]["option"] == "rounds"
    r = client.post("/api/games", json={"game": "corners", "variant": "triangle",
                                        "seats": TWO, "rounds": 2})
    assert_error(r, 422, "bad_option")


def test_a_bad_setup_is_refused_with_422_naming_the_problem_and_creates_nothing(client):
    wrong = "R" + SAMPLE_SETUP[1:]  # a yellow marble made red: 7 yellow, 8 red
    r = client.post("/api/games", json={"game": "marbles", "variant": "2p", "seats": TWO,
                                        "setups": [SAMPLE_SETUP, wrong]})
    error = assert_error(r, 422, "bad_setup")
    assert "setup 2 has 7 yellow marbles (Y), not 8" in error["message"]
    assert error["details"]["index"] == 2 and error["details"]["problem"] == "count"
    r = client.post("/api/games", json={"game": "marbles", "variant": "4p", "seats": FOUR,
                                        "setups": ["X" + SAMPLE_SETUP[1:]]})
    error = assert_error(r, 422, "bad_setup")
    assert "unknown letter 'X' at a1" in error["message"]
    assert_error(client.post("/api/games", json={
        "game": "marbles", "variant": "2p", "seats": TWO, "rounds": 1,
        "setups": [SAMPLE_SETUP, SAMPLE_SETUP]}), 422, "bad_option")
    assert client.get("/api/games").json["games"] == []


# -- whole games -------------------------------------------------------------------------------


def test_a_whole_two_player_game_over_rest_with_given_setups(make_app):
    client = make_app(WRITE_RATE=None).test_client()
    g = new_marbles(client, rounds=2, setups=[SAMPLE_SETUP, OTHER_SETUP])
    gid = g["id"]
    assert [(e["type"], e["seq"], e["round"], e["setup"]) for e in events(client, gid, 1)] == [
        (DEALT, 2, 1, SAMPLE_SETUP)]
    s = state(client, gid)
    assert (s["game"], s["status"], s["to_move"], s["seq"]) == ("marbles", "running", 1, 2)
    assert [seat["colour"] for seat in s["seats"]] == ["red", "yellow"]
    assert {m["move"] for m in legal(client, gid, 1)} == set("abcdef")  # the opening
    assert legal(client, gid, 2) == []

    rng = random.Random(7)
    until_round_over(client, g, rng)
    log = events(client, gid)
    deal = log[-1]
    assert (deal["type"], deal["round"], deal["setup"]) == (DEALT, 2, OTHER_SETUP)
    assert log[-2]["type"] == "marbles_moved"
    s = state(client, gid)
    assert s["to_move"] == 2 and s["board"]["round"] == 2  # yellow opens round 2
    assert len(s["board"]["rounds"]) == 1 and set(s["board"]["rounds"][0]["scores"]) == {
        "red", "yellow"}
    assert {m["move"] for m in legal(client, gid, 2)} == set("123456")

    seq = s["seq"]
    while s["status"] != "finished":
        event = play_one(client, g, rng)
        assert event["seq"] == seq + 1 and event["type"] == "marbles_moved"
        seq += 1
        s = state(client, gid)
        assert s["seq"] == seq  # no third deal
        assert seq < 100
    assert [e["round"] for e in events(client, gid) if e["type"] == DEALT] == [1, 2]
    result = s["result"]
    assert result["reason"] == "finished" and s["to_move"] is None
    assert s["board"]["result"]["team_scores"] == s["board"]["team_scores"]
    assert len(s["board"]["rounds"]) == 2
    assert legal(client, gid, 1) == legal(client, gid, 2) == []
    replay = Game.from_json(client.get(f"/api/games/{gid}/replay.json").data)
    assert replay.seq == seq and replay.rules.game == "marbles"
    players = client.get("/api/players?game=marbles").json
    assert {p["name"] for p in players["players"]} == {"Rita", "Yann"}

    # the rematch keeps the rounds but not the given setups: its deals are the host's
    r = client.post(f"/api/games/{gid}/rematch", headers=bearer(g["tokens"]["1"]))
    assert r.status_code in (200, 201), r.json
    again = state(client, r.json["id"])
    assert again["options"]["rounds"] == 2 and again["options"]["setups"] == []
    assert [e["round"] for e in events(client, r.json["id"]) if e["type"] == DEALT] == [1]


def test_a_whole_four_player_game_gives_every_team_member_its_points_and_stats(make_app):
    client = make_app(WRITE_RATE=None).test_client()
    g = new_marbles(client, "4p", FOUR, rounds=1, setups=[SAMPLE_SETUP])
    rng = random.Random(11)
    seats_moved = set()
    for _ in range(60):
        s = state(client, g["id"])
        if s["status"] == "finished":
            break
        seats_moved.add(play_one(client, g, rng)["seat"])
    assert s["status"] == "finished" and seats_moved == {1, 2, 3, 4}
    result = s["result"]
    red, yellow = s["board"]["team_scores"]["red"], s["board"]["team_scores"]["yellow"]
    assert red != yellow, "this deal and seed end in a win"
    winners = [1, 3] if red > yellow else [2, 4]
    assert sorted(result["winners"]) == winners and result["reason"] == "finished"

    rows = {p["name"]: p for p in client.get("/api/players?game=marbles&variant=4p")
            .json["players"]}
    assert set(rows) == {"Rita", "Yuki", "Rolf", "Yara"}
    # partners share the side's result, points and stats; the opposing team gets the other
    for a, b in (("Rita", "Rolf"), ("Yuki", "Yara")):
        keys = ("wins", "losses", "draws", "points", "stats")
        assert {k: rows[a][k] for k in keys} == {k: rows[b][k] for k in keys}
    winner = "Rita" if winners == [1, 3] else "Yuki"
    loser = "Yuki" if winner == "Rita" else "Rita"
    assert (rows[winner]["wins"], rows[loser]["losses"]) == (1, 1)
    assert rows[winner]["points"] > rows[loser]["points"]
    # every move but a round's opening placement (a line alone: "c", "4") takes a marble
    takes = [e for e in events(client, g["id"]) if e["type"] == "marbles_moved"
             and len(e["move"]) == 2]
    assert rows["Rita"]["stats"]["marbles"] == sum(e["seat"] in (1, 3) for e in takes) > 0
    assert rows["Yuki"]["stats"]["marbles"] == sum(e["seat"] in (2, 4) for e in takes) > 0
    assert rows["Rita"]["stats"]["rounds_won"] + rows["Yuki"]["stats"]["rounds_won"] == 1
    # a team game is not rated: nobody's 4p rating moved
    assert "4p" not in client.get("/api/players?game=marbles").json["rated_variants"]


def test_a_four_player_game_over_the_socket_pushes_the_deals_in_order(live):
    host = live(WRITE_RATE=None)
    g = requests.post(f"{host.url}/api/games", json={
        "game": "marbles", "variant": "4p", "seats": FOUR, "rounds": 2}).json()
    gid, tokens = g["id"], g["tokens"]
    phone = Phone(host.url)
    try:
        joined = phone.call("join", {"game_id": gid, "last_seq": 0,
                                     "tokens": [tokens[str(i)] for i in range(1, 5)]})
        assert joined["ok"] and joined["seats"] == [1, 2, 3, 4]
        assert [e["type"] for e in joined["events"]] == ["game_created", DEALT]
        s = joined["state"]
        assert s["to_move"] == 1 and s["board"]["round"] == 1
        rng = random.Random(11)
        pushed_events = []
        while s["status"] != "finished":
            seat = s["to_move"]
            moves = requests.get(f"{host.url}/api/games/{gid}/legal?seat={seat}").json()
            r = phone.call("move", {"game_id": gid, "seat": seat, "seq": s["seq"],
                                    "move": rng.choice(moves["moves"])["move"],
                                    "token": tokens[str(seat)]})
            assert r["ok"] and r["event"]["type"] == "marbles_moved", r
            pushed = phone.next("event")
            assert pushed["event"] == r["event"]
            pushed_events.append(pushed["event"])
            s = pushed["state"]
            if s["to_move"] is None and s["status"] != "finished":  # a round is over
                assert s["board"]["status"] == "dealing"
                deal = phone.next("event")
                assert deal["event"]["type"] == DEALT and deal["event"]["seq"] == s["seq"] + 1
                assert deal["event"]["round"] == len(s["board"]["rounds"]) + 1
                pushed_events.append(deal["event"])
                s = deal["state"]
                assert s["to_move"] == 2  # yellow (seat 2) opens round 2
            assert len(pushed_events) < 200
        assert phone.seen == list(range(3, s["seq"] + 1))  # every push, in seq order
        assert [e["round"] for e in pushed_events if e["type"] == DEALT] == [2]
        assert s["result"]["reason"] == "finished" and len(s["board"]["rounds"]) == 2
    finally:
        phone.close()


def test_a_deal_left_due_when_the_host_went_down_is_drawn_at_start_up(make_app):
    first = make_app(WRITE_RATE=None)
    c1 = first.test_client()
    g = new_marbles(c1, rounds=2, setups=[SAMPLE_SETUP])
    gid = g["id"]
    service = host_of(first).service
    service.writes.draw_chance = lambda table: None  # the host dies between the round and the deal
    until_round_over(c1, g, random.Random(3))
    s = state(c1, gid)
    assert s["to_move"] is None and s["status"] == "running"
    assert s["board"]["status"] == "dealing" and events(c1, gid, s["seq"] - 1)[0]["type"] == (
        "marbles_moved")
    seq = s["seq"]
    service.stop()

    second = make_app(WRITE_RATE=None)  # a new host on the same data dir
    c2 = second.test_client()
    drawn = events(c2, gid, seq)
    assert [(e["type"], e["seq"], e["round"]) for e in drawn] == [(DEALT, seq + 1, 2)]
    assert sorted(drawn[0]["setup"]) == sorted(SAMPLE_SETUP)  # a full set of marbles
    s = state(c2, gid)
    assert s["to_move"] == 2 and s["board"]["setup"] == drawn[0]["setup"]
    event = play_one(c2, g, random.Random(4))  # the game goes on
    assert event["seq"] == seq + 2 and event["seat"] == 2
    third = make_app(WRITE_RATE=None)  # nothing more is due: no second deal
    assert events(third.test_client(), gid, seq + 1) == [event]


# -- leaving and the computer ------------------------------------------------------------------


def test_a_four_player_leaver_is_replaced_by_a_computer_that_then_moves(make_app):
    app = make_app(WRITE_RATE=None)
    client = app.test_client()
    g = new_marbles(client, "4p", FOUR, rounds=1, setups=[SAMPLE_SETUP])
    gid, tokens = g["id"], g["tokens"]
    r = client.post(f"/api/games/{gid}/leave", json={"seat": 3}, headers=bearer(tokens["3"]))
    assert r.status_code == 200, r.json
    assert r.json["event"]["type"] == "player_left" and r.json["event"]["seat"] == 3
    s = state(client, gid)
    three = s["seats"][2]
    assert (three["kind"], three["level"], three["left"]) == ("computer", 3, True)
    assert s["status"] == "running" and s["board"]["computer_seats"] == [3]
    assert s["seats"][2]["view"]["computer"] is True
    stored = host_of(app).service.store.seats(gid)  # on disk
    assert (stored[2].kind, stored[2].level, stored[2].token_hash) == ("computer", 3, None)
    # the leaver's token holds nothing now; the host cannot open the seat to a person
    assert_error(play(client, gid, 3, "a", 3, tokens["3"]), 403, "forbidden")
    assert_error(client.delete(f"/api/games/{gid}/seats/3", headers=bearer(g["host_token"])),
                 409, "seat_left")

    rng = random.Random(5)
    play_one(client, g, rng)  # seat 1 opens
    play_one(client, g, rng)  # seat 2
    s = wait_for(lambda: (lambda s: s if s["seq"] >= 6 else None)(state(client, gid)),
                 "the computer's move for seat 3")
    third = events(client, gid, 5)[0]
    assert third["type"] == "marbles_moved" and third["seat"] == 3
    assert s["to_move"] == 4
    # a partner who leaves too forfeits the team's game
    r = client.post(f"/api/games/{gid}/leave", json={"seat": 1}, headers=bearer(tokens["1"]))
    assert r.status_code == 200, r.json
    s = state(client, gid)
    assert s["status"] == "finished" and s["result"]["reason"] == "left"
    assert s["seats"][0]["kind"] == "local"


def test_leaving_a_two_player_game_resigns_and_seats_no_computer(client):
    g = new_marbles(client)
    r = client.post(f"/api/games/{g['id']}/leave", json={"seat": 2},
                    headers=bearer(g["tokens"]["2"]))
    assert r.status_code == 200, r.json
    s = state(client, g["id"])
    assert s["status"] == "finished" and s["result"]["reason"] == "resigned"
    assert s["result"]["winners"] == [1] and s["seats"][1]["kind"] == "local"


def test_a_leaver_whose_seat_was_not_yet_handed_over_is_at_start_up(make_app):
    first = make_app()
    c1 = first.test_client()
    g = new_marbles(c1, "4p", FOUR, setups=[SAMPLE_SETUP])
    service = host_of(first).service
    service.seating.replace_leaver = lambda table, seat: None  # the host dies right after the leave
    r = c1.post(f"/api/games/{g['id']}/leave", json={"seat": 2},
                headers=bearer(g["tokens"]["2"]))
    assert r.status_code == 200 and state(c1, g["id"])["seats"][1]["kind"] == "local"
    service.stop()
    c2 = make_app().test_client()
    two = state(c2, g["id"])["seats"][1]
    assert (two["kind"], two["level"], two["left"]) == ("computer", 3, True)


def test_a_computer_seat_plays_through_the_bot_pool(make_app):
    client = make_app(WRITE_RATE=None, BOT_WORKERS=1).test_client()
    g = new_marbles(client, seats=[{"kind": "local", "name": "Rita"},
                                   {"kind": "computer", "level": 2}], rounds=1)
    gid = g["id"]
    rng = random.Random(9)
    s = state(client, gid)
    assert s["seats"][1]["kind"] == "computer"

    def answered(after: int) -> dict | None:
        now = state(client, gid)
        return now if now["seq"] > after and now["to_move"] != 2 else None

    while s["status"] != "finished":
        if s["to_move"] == 1:
            play_one(client, g, rng)
        s = wait_for(lambda after=s["seq"]: answered(after), "the computer's move")
    computer = [e for e in events(client, gid) if e.get("seat") == 2]
    assert computer and all(e["type"] == "marbles_moved" for e in computer)
    assert s["result"]["reason"] == "finished"


def test_a_leaver_gets_a_loss_and_no_points_on_the_ladder_while_the_partner_wins(make_app):
    """Yara (seat 4, yellow) leaves and the computer plays her seat; then both red players
    leave, so red forfeits and yellow wins. Yuki, who stayed, wins; Yara cannot: her result
    is a loss with no match points, in the state, the replay and the ladder."""
    client = make_app(WRITE_RATE=None).test_client()
    g = new_marbles(client, "4p", FOUR, rounds=1, setups=[SAMPLE_SETUP])
    gid, tokens = g["id"], g["tokens"]
    for seat in (4, 1, 3):
        r = client.post(f"/api/games/{gid}/leave", json={"seat": seat},
                        headers=bearer(tokens[str(seat)]))
        assert r.status_code == 200, r.json
    result = state(client, gid)["result"]
    assert result["results"] == ["loss", "win", "loss", "loss"]
    assert result["points"] == [0, 2, 0, 0] and result["winners"] == [2]
    assert result["teams"] == [{"name": "Red", "seats": [1, 3]},
                               {"name": "Yellow", "seats": [2, 4]}]
    assert result["ending"] == "Red forfeited: both red players left in round 1"
    assert client.get(f"/api/games/{gid}/replay").json["result"] == result

    rows = {p["name"]: p for p in client.get("/api/players?game=marbles&variant=4p")
            .json["players"]}
    assert (rows["Yuki"]["wins"], rows["Yuki"]["points"]) == (1, 2)
    assert (rows["Yara"]["wins"], rows["Yara"]["losses"], rows["Yara"]["points"]) == (0, 1, 0)
    assert (rows["Rita"]["losses"], rows["Rolf"]["losses"]) == (1, 1)
