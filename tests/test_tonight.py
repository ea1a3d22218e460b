"""Tonight's standings: the match points of the games finished since the evening began, per
player, per game and in total; practice does not count; only the host PC begins a new
evening."""

from __future__ import annotations

from datetime import datetime

from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer

PLUS = "e9,d10,e10,f10,e11"


def start(client, names, *, game="cornerclaim", variant="duo", **extra) -> dict:
    seats = [{"kind": "local", "name": n} for n in names]
    r = client.post("/api/games", json={"game": game, "variant": variant, "seats": seats,
                                        **extra})
    assert r.status_code == 201, r.json
    return r.json


def move(client, game: dict, seat: int, text: str) -> None:
    seq = client.get(f"/api/games/{game['id']}").json["seq"]
    r = client.post(f"/api/games/{game['id']}/moves", json={"seat": seat, "move": text,
                                                             "seq": seq},
                    headers=bearer(game["tokens"][str(seat)]))
    assert r.status_code == 201, r.json


def resign(client, game: dict, seat: int) -> None:
    r = client.post(f"/api/games/{game['id']}/leave", json={"seat": seat},
                    headers=bearer(game["tokens"][str(seat)]))
    assert r.status_code == 200, r.json


def corner_claim_won_by_first(client, first: str, second: str) -> None:
    game = start(client, (first, second))
    move(client, game, 1, PLUS)
    resign(client, game, 2)


def corners_won_by_first(client, first: str, second: str) -> None:
    game = start(client, (first, second), game="corners", variant="classic-3x3")
    move(client, game, 1, "c3-d3")
    resign(client, game, 2)


def test_an_evening_of_two_games_sums_each_players_match_points(client):
    empty = client.get("/api/tonight").json
    assert empty["players"] == [] and datetime.fromisoformat(empty["since"]).tzinfo
    corner_claim_won_by_first(client, "Ann", "Bo")
    corner_claim_won_by_first(client, "Bo", " ann ")  # the same player, spelt otherwise
    corners_won_by_first(client, "Ann", "Cy")
    corners = {p["name"]: p["points"] for p in
               client.get("/api/players?game=corners").json["players"]}
    tonight = client.get("/api/tonight").json
    rows = {p["name"]: p for p in tonight["players"]}
    assert list(rows) == ["Ann", "Bo", "Cy"]  # " ann " is Ann, spelt as she last was
    ann = rows["Ann"]
    assert (ann["games"], ann["wins"], ann["draws"], ann["losses"]) == (3, 2, 0, 1)
    assert ann["by_game"] == {"cornerclaim": 22 + 3, "corners": corners["Ann"]}
    assert ann["points"] == sum(ann["by_game"].values())
    assert rows["Bo"]["by_game"] == {"cornerclaim": 3 + 22}
    assert rows["Cy"]["by_game"] == {"corners": corners["Cy"]}
    points = [p["points"] for p in tonight["players"]]
    assert points == sorted(points, reverse=True)


def test_practice_games_and_solo_races_do_not_count(client):
    game = start(client, ("Ann", "Bo"), game="corners", variant="classic-3x3",
                 options={"practice": True})
    move(client, game, 1, "c3-d3")
    resign(client, game, 2)
    race = start(client, ("Ann",), game="corners", variant="classic-3x3")
    resign(client, race, 1)
    assert client.get("/api/tonight").json["players"] == []


def test_only_the_host_pc_begins_a_new_evening_and_earlier_games_then_drop_out(client):
    corner_claim_won_by_first(client, "Ann", "Bo")
    before = client.get("/api/tonight").json
    assert [p["name"] for p in before["players"]] == ["Ann", "Bo"]
    phone = client.post("/api/tonight", environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert phone.status_code == 403 and "host PC" in phone.json["error"]["message"]
    assert client.get("/api/tonight").json == before
    fresh = client.post("/api/tonight")  # the test client is 127.0.0.1: the host PC
    assert fresh.status_code == 200, fresh.json
    assert fresh.json["players"] == [] and fresh.json["since"] >= before["since"]
    corner_claim_won_by_first(client, "Cy", "Di")
    assert [p["name"] for p in client.get("/api/tonight").json["players"]] == ["Cy", "Di"]
    assert client.get("/api/players").json["players"][0]["name"] in ("Ann", "Cy")


def test_tonight_is_in_the_openapi_document(client):
    paths = client.get("/api/openapi.json").json["paths"]
    assert {"get", "post"} <= set(paths["/api/tonight"])
