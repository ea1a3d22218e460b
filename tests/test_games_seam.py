"""The host holds every game through its rules: a test-only tic-tac-toe, registered by its
own module, is created, listed, played, taken back, restarted, exported and played by the
bot pool over the same REST and socket API as Corner Claim, with the same state envelope."""

from __future__ import annotations

import pytest
import requests

import tests.games.tictactoe as ttt
from engine import registry
from engine.core import Game
from server.bots.worker import choose_in_worker
from server.cli import main as cli_main
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, create, wait_for
from tests.test_api import assert_error
from tests.test_realtime import Phone

TWO_LOCAL = [{"kind": "local", "name": "Xena"}, {"kind": "local", "name": "Otto"}]


def new_ttt(client, seats=None, **extra) -> dict:
    r = client.post("/api/games", json={"game": "tictactoe", "variant": "3x3",
                                        "seats": seats or TWO_LOCAL, **extra})
    assert r.status_code == 201, r.json
    return r.json


def state(client, gid) -> dict:
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.json
    return r.json


def legal(client, gid, seat) -> list[str]:
    r = client.get(f"/api/games/{gid}/legal?seat={seat}")
    assert r.status_code == 200, r.json
    return [m["move"] for m in r.json["moves"]]


def play(client, gid, seat, cell, seq, token):
    return client.post(f"/api/games/{gid}/moves", json={"seat": seat, "move": cell, "seq": seq},
                       headers=bearer(token))


def test_the_catalog_lists_both_games_and_serves_their_board_modules(client):
    games = {g["game"]: g for g in client.get("/api/catalog").json["games"]}
    assert {"cornerclaim", "tictactoe"} <= set(games)
    cc, t = games["cornerclaim"], games["tictactoe"]
    assert {v["name"]: v["seats"] for v in cc["variants"]} == {
        "duo": [2], "trio": [3], "classic": [4]}
    assert cc["legal_query"] == "piece" and cc["hint"] is True
    assert [f["ext"] for f in cc["formats"]] == ["blksgf"] and cc["levels"]
    assert t["variants"][0]["name"] == "3x3" and t["variants"][0]["colours"] == ["cross",
                                                                                 "nought"]
    assert [lv["number"] for lv in t["levels"]] == [1]
    assert t["formats"] == [] and t["legal_query"] is None and t["hint"] is False
    assert t["board_url"] == "/boards/tictactoe.js"
    board = client.get(t["board_url"])
    assert board.status_code == 200 and board.mimetype == "text/javascript"
    assert board.data == registry.registration("tictactoe").board.read_bytes()
    assert_error(client.get("/boards/chess.js"), 404, "no_such_game")


def test_the_built_in_board_module_comes_from_the_client_folder(make_app, tmp_path):
    web = tmp_path / "web"
    (web / "js" / "boards").mkdir(parents=True)
    (web / "js" / "boards" / "cornerclaim.js").write_text("export const board = 1;")
    c = make_app(CLIENT_DIR=str(web)).test_client()
    r = c.get("/boards/cornerclaim.js")
    assert r.status_code == 200 and r.data == b"export const board = 1;"
    assert r.mimetype == "text/javascript"


def test_a_tictactoe_game_is_played_to_a_win_with_a_takeback(client):
    g = new_ttt(client)
    gid, t1, t2 = g["id"], g["tokens"]["1"], g["tokens"]["2"]
    line = client.get("/api/games").json["games"][0]
    assert (line["id"], line["game"], line["variant"], line["options"]) == (
        gid, "tictactoe", "3x3", {})
    s = state(client, gid)
    assert (s["game"], s["to_move"], s["board"]) == ("tictactoe", 1, {"rows": [[0] * 3] * 3})
    assert [seat["colour"] for seat in s["seats"]] == ["cross", "nought"]
    assert s["seats"][0]["name"] == "Xena" and s["seats"][0]["score"] is None
    assert len(legal(client, gid, 1)) == 9 and legal(client, gid, 2) == []
    assert_error(play(client, gid, 1, "d4", 1, t1), 422, "bad_notation")
    assert_error(play(client, gid, 2, "a1", 1, t2), 409, "not_your_turn")
    assert_error(client.get(f"/api/games/{gid}/legal?seat=1&piece=X"), 422, "invalid_request")

    seq = 1
    for seat, cell in ((1, "a1"), (2, "b2"), (1, "a2")):
        assert cell in legal(client, gid, seat)
        r = play(client, gid, seat, cell, seq, (t1, t2)[seat - 1])
        assert r.status_code == 201, r.json
        assert r.json["event"] == {"type": "tictactoe_marked", "seq": seq + 1, "seat": seat,
                                   "move": cell}
        seq += 1
    # hot seat: the takeback is at once
    r = client.post(f"/api/games/{gid}/undo", json={"seat": 1, "seq": seq}, headers=bearer(t1))
    assert r.status_code == 200 and r.json["event"]["type"] == "move_taken_back", r.json
    seq += 1
    s = state(client, gid)
    assert s["to_move"] == 1 and s["last_move"] == {"seat": 2, "move": "b2", "seq": 3}
    assert "a2" in legal(client, gid, 1)
    for seat, cell in ((1, "a2"), (2, "c1"), (1, "a3")):
        assert play(client, gid, seat, cell, seq, (t1, t2)[seat - 1]).status_code == 201
        seq += 1
    s = state(client, gid)
    assert s["status"] == "finished" and s["to_move"] is None
    assert s["result"]["winners"] == [1] and s["result"]["results"] == ["win", "loss"]
    assert s["result"]["reason"] == "finished"
    assert s["board"]["rows"] == [[1, 0, 0], [1, 2, 0], [1, 0, 2]]
    assert legal(client, gid, 2) == []
    assert_error(play(client, gid, 2, "c3", seq, t2), 409, "game_over")

    replay = client.get(f"/api/games/{gid}/replay.json")
    assert replay.status_code == 200
    assert f'filename="tictactoe-{gid}.json"' in replay.headers["Content-Disposition"]
    assert Game.from_json(replay.data).seq == seq
    assert_error(client.get(f"/api/games/{gid}/replay.blksgf"), 404, "no_such_format")
    r = client.post(f"/api/games/{gid}/rematch", headers=bearer(g["host_token"]))
    again = state(client, r.json["id"])
    assert (again["game"], again["variant"], again["seq"]) == ("tictactoe", "3x3", 1)


def test_the_state_envelope_is_the_same_for_every_game(client):
    ttt_state = state(client, new_ttt(client)["id"])
    cc_state = state(client, create(client, "duo")["id"])
    assert list(ttt_state) == list(cc_state)
    assert list(ttt_state["seats"][0]) == list(cc_state["seats"][0])
    assert set(cc_state["seats"][0]["view"]) == {"pieces_left", "open_corners"}
    assert ttt_state["seats"][0]["view"] == {"marks": 0}
    lines = client.get("/api/games").json["games"]
    assert list(lines[0]) == list(lines[1])
    assert {line["game"] for line in lines} == {"tictactoe", "cornerclaim"}


def test_a_game_of_the_wrong_shape_is_refused(client):
    seats = TWO_LOCAL
    for body, code in (
            ({"game": "tictactoe", "variant": "duo", "seats": seats}, "no_such_variant"),
            ({"game": "tictactoe", "variant": "3x3", "seats": seats * 2}, "invalid_request"),
            ({"game": "tictactoe", "variant": "3x3", "seats": seats, "options": {"x": 1}},
             "bad_option"),
            ({"game": "tictactoe", "variant": "3x3",
              "seats": [{"kind": "computer", "level": 2}, seats[0]]}, "invalid_request")):
        assert_error(client.post("/api/games", json=body), 422, code)
    assert client.get("/api/games").json["games"] == []


def test_no_hints_in_a_game_without_them(client):
    g = new_ttt(client)
    r = client.get(f"/api/games/{g['id']}/hint?seat=1", headers=bearer(g["tokens"]["1"]))
    assert_error(r, 404, "no_hints")


def test_a_restarted_host_folds_the_stored_tictactoe_game_back(make_app):
    first = make_app().test_client()
    g = new_ttt(first)
    gid, t1 = g["id"], g["tokens"]["1"]
    assert play(first, gid, 1, "b2", 1, t1).status_code == 201
    before = state(first, gid)
    second = make_app().test_client()  # a new host on the same data dir
    assert state(second, gid) == before
    assert play(second, gid, 2, "a1", 2, g["tokens"]["2"]).status_code == 201
    assert state(second, gid)["board"]["rows"][2] == [2, 0, 0]


def test_a_worker_knows_the_test_game_from_the_module_list():
    game = Game.new("tictactoe", "3x3", ("X", "O"))
    assert "tests.games.tictactoe" in registry.modules()
    assert choose_in_worker(game.to_json(), 1, 1, 7, registry.modules()) in {
        m["move"] for m in ttt.RULES.legal(game.state, 1)}


def test_a_computer_seat_moves_through_the_real_bot_pool(make_app):
    client = make_app(BOT_WORKERS=1).test_client()
    g = new_ttt(client, [{"kind": "local", "name": "Xena"}, {"kind": "computer", "level": 1}])
    gid, t1 = g["id"], g["tokens"]["1"]
    assert play(client, gid, 1, "a1", 1, t1).status_code == 201
    s = wait_for(lambda: at_seq(client, gid, 3), "the computer's mark")
    assert s["to_move"] == 1 and s["last_move"]["seat"] == 2
    rows = s["board"]["rows"]

    def free(cell: str) -> bool:
        return rows[3 - int(cell[1])]["abc".index(cell[0])] == 0

    mine, threat = next((a, b) for a, b in (("a2", "a3"), ("b1", "c1"), ("b2", "c3"))
                        if free(a) and free(b))
    assert play(client, gid, 1, mine, 3, t1).status_code == 201
    s = wait_for(lambda: at_seq(client, gid, 5), "the computer's block")
    assert s["last_move"] == {"seat": 2, "move": threat, "seq": 5}  # it blocks the line


def at_seq(client, gid, seq: int) -> dict | None:
    s = state(client, gid)
    return s if s["seq"] == seq else None


def test_a_tictactoe_move_is_broadcast_on_the_socket(live):
    host = live()
    g = requests.post(f"{host.url}/api/games", json={"game": "tictactoe", "variant": "3x3",
                                                     "seats": TWO_LOCAL}).json()
    gid, tokens = g["id"], g["tokens"]
    x, o = Phone(host.url), Phone(host.url)
    try:
        joined = x.call("join", {"game_id": gid, "last_seq": 0, "tokens": [tokens["1"]]})
        assert joined["ok"] and joined["state"]["game"] == "tictactoe"
        assert o.call("join", {"game_id": gid, "last_seq": 1, "tokens": [tokens["2"]]})["ok"]
        r = x.call("move", {"game_id": gid, "seat": 1, "move": "c3", "seq": 1,
                            "token": tokens["1"]})
        assert r == {"ok": True, "event": {"type": "tictactoe_marked", "seq": 2, "seat": 1,
                                           "move": "c3"}}
        pushed = o.next("event")
        assert pushed["event"]["move"] == "c3" and pushed["state"]["to_move"] == 2
        assert pushed["state"]["board"]["rows"][0] == [0, 0, 1]
        r = o.call("move", {"game_id": gid, "seat": 2, "move": "c3", "seq": 2,
                            "token": tokens["2"]})
        assert r["error"]["code"] == "illegal_move"
    finally:
        x.close()
        o.close()


@pytest.mark.parametrize("seat, status, code", [(2, 409, "not_your_turn"), (1, None, None)])
def test_a_corner_claim_hint_comes_from_the_bot_pool(make_app, seat, status, code):
    client = make_app().test_client()
    g = create(client, "duo")
    gid, token = g["id"], g["tokens"][str(seat)]
    r = client.get(f"/api/games/{gid}/hint?seat={seat}", headers=bearer(token))
    if status is not None:
        assert_error(r, status, code)
        return
    assert r.status_code == 200, r.json
    assert r.json["seat"] == 1 and r.json["seq"] == 1
    assert r.json["move"] in legal(client, gid, 1)
    assert client.get(f"/api/games/{gid}/hint?seat=1", headers=bearer(token)).json == r.json
    assert_error(client.get(f"/api/games/{gid}/hint?seat=1"), 401, "unauthorized")



def test_a_game_without_actions_or_a_clock_refuses_them_cleanly(client):
    g = new_ttt(client)
    gid, t1 = g["id"], g["tokens"]["1"]
    assert [seat["actions"] for seat in state(client, gid)["seats"]] == [[], []]
    r = client.post(f"/api/games/{gid}/actions", json={"seat": 1, "action": "resign", "seq": 1},
                    headers=bearer(t1))
    assert assert_error(r, 422, "no_such_action")["details"] == {"actions": []}
    assert_error(client.post("/api/games", json={"game": "tictactoe", "variant": "3x3",
                                                 "seats": TWO_LOCAL, "clock": None}),
                 422, "bad_option")
    assert state(client, gid)["seq"] == 1


def test_perft_walks_any_game_through_the_seam(capsys):
    # tic-tac-toe's sequences: 9·8·7·6·5, and the 1,440 games won at the fifth mark stop there
    assert [ttt.RULES.perft("3x3", d) for d in range(7)] == [
        1, 9, 72, 504, 3024, 15120, 54720]
    assert ttt.RULES.perft("3x3", 2, ("b2",)) == 8 * 7
    assert cli_main(["perft", "--game", "tictactoe", "--variant", "3x3", "--depth", "3",
                 "--moves", "a1 b2"]) == 0
    assert capsys.readouterr().out == "210\n"
