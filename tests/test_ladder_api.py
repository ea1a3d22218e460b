"""The ladder and replay API through a real host: /api/players per game, a game's replay and
board image, and importing records (Pentobi's own files included) with clear refusals; the
same for a game that is not Corner Claim (the test-only tic-tac-toe)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from engine.core import Game
from engine.cornerclaim.sgf import game_to_sgf, load_game
from replays.frames import expand_frames
from server.host import host_of
from tests.conftest import COLOR_SEAT, PENTOBI, load_record
from tests.games import tictactoe  # noqa: F401 - registers the game
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer
from tests.test_sgf import random_game

SGF_FILES = sorted(PENTOBI.glob("*.blksgf"))
SGF = {"Content-Type": "application/x-blokus-sgf"}
SEATS = {"duo": 2, "trio": 3, "classic": 4}


def start(client, variant="duo", names=("Ann", "Bo", "Cy", "Di")) -> dict:
    seats = [{"kind": "local", "name": n} for n in names[:SEATS[variant]]]
    r = client.post("/api/games", json={"variant": variant, "seats": seats})
    assert r.status_code == 201, r.json
    return r.json


def play(client, game: dict, moves) -> None:
    for seat, move in moves:
        seq = client.get(f"/api/games/{game['id']}").json["seq"]
        r = client.post(f"/api/games/{game['id']}/moves",
                        json={"seat": seat, "move": move, "seq": seq},
                        headers=bearer(game["tokens"][str(seat)]))
        assert r.status_code == 201, r.json


def moves_of(game: Game):
    return [(seat, game.state.move_str(m)) for _, seat, m in game.state.placements]


def resign(client, game: dict, seat: int) -> None:
    r = client.post(f"/api/games/{game['id']}/leave", json={"seat": seat},
                    headers=bearer(game["tokens"][str(seat)]))
    assert r.status_code == 200, r.json


# -- the ladder -----------------------------------------------------------------------------


def test_the_ladder_lists_players_as_games_finish_sorted_as_asked(client):
    for winner, loser in (("Ann", "Bo"), ("Ann", "Cy"), ("Cy", "Bo")):
        game = start(client, names=(winner, loser))
        play(client, game, [(1, "e9,d10,e10,f10,e11")])
        resign(client, game, 2)
    table = client.get("/api/players").json
    assert table["k_factor"] == 32 and table["start_rating"] == 1500
    assert (table["game"], table["variant"], table["rated_variants"]) == (
        "cornerclaim", "all", ["duo"])
    assert table["level_ratings"]["3"] == 1250
    assert [s["key"] for s in table["stats"]] == ["all_placed", "single_last", "squares_left"]
    assert table["players"][0]["rating_key"] == "cornerclaim/duo"
    assert [(p["rank"], p["name"]) for p in table["players"]] == [
        (1, "Ann"), (2, "Cy"), (3, "Bo")]
    assert table["players"][0]["rating"] > 1500 > table["players"][2]["rating"]
    by_name = client.get("/api/players?sort=name").json["players"]
    assert [p["name"] for p in by_name] == ["Ann", "Bo", "Cy"]
    by_points = client.get("/api/players?sort=points&order=asc").json["players"]
    assert [p["points"] for p in by_points] == [6, 25, 44]
    assert client.get("/api/players?variant=classic").json["players"] == []
    assert client.get("/api/players?game=tictactoe").json["players"] == []


def test_a_player_page_has_stats_history_and_recent_games(client):
    game = start(client)
    play(client, game, [(1, "e9,d10,e10,f10,e11")])
    resign(client, game, 2)
    ann = client.get("/api/players/ann").json
    duo = ann["games"]["cornerclaim"]
    assert ann["name"] == "Ann" and ann["totals"]["wins"] == 1 and duo["wins"] == 1
    assert duo["title"] == "Corner Claim" and duo["by_variant"]["duo"]["points"] == 22
    assert duo["stats"]["average_squares_left"] == 84
    assert duo["ratings"]["duo"]["rating"] == 1516
    assert [h["after"] for h in duo["rating_history"]] == [1516.0]
    assert ann["recent_games"][0]["game_id"] == game["id"]
    assert ann["recent_games"][0]["opponents"] == ["Bo"]


def test_unknown_players_and_bad_sorts_are_refused_in_the_shared_shape(client):
    r = client.get("/api/players/Nobody")
    assert r.status_code == 404 and r.json["error"]["code"] == "not_found"
    r = client.get("/api/players?sort=luck")
    assert r.status_code == 422 and "sort" in r.json["error"]["message"]
    r = client.get("/api/players?game=chess")
    assert r.status_code == 422 and "no game 'chess'" in r.json["error"]["message"]
    r = client.get("/api/players?game=tictactoe&variant=nonsense")
    assert r.status_code == 422 and "has no variant 'nonsense'" in r.json["error"]["message"]
    # another game's variant: a well-formed query for a ladder that does not exist
    r = client.get("/api/players?game=tictactoe&variant=duo")
    assert r.status_code == 404 and r.json["error"]["code"] == "no_such_variant"


# -- a game's replay --------------------------------------------------------------------------


def test_a_running_game_is_watchable_as_a_replay_with_takebacks_on_demand(client):
    game = start(client)
    play(client, game, [(1, "e10"), (2, "j5"), (1, "d8,d9")])
    r = client.post(f"/api/games/{game['id']}/undo", json={"seat": 1, "seq": 4},
                    headers=bearer(game["tokens"]["1"]))
    assert r.status_code == 200 and r.json["event"], r.json
    data = client.get(f"/api/games/{game['id']}/replay").json
    assert data["players"] == ["Ann", "Bo"] and not data["over"] and data["takebacks"] == 1
    assert [f["move"] for f in data["frames"]] == [None, "e10", "j5"]
    assert data["frames"][-1]["to_move"] == 1 and data["frames"][-1]["scores"] == [-88, -88]
    shown = client.get(f"/api/games/{game['id']}/replay?takebacks=true").json
    assert [(f["kind"], f["taken_back"]) for f in shown["frames"]][3:] == [
        ("move", True), ("takeback", False)]
    assert data["links"]["blksgf"] == f"/api/games/{game['id']}/replay.blksgf"
    assert [f["ext"] for f in data["formats"]] == ["json", "blksgf"]
    assert data["frames"][1]["details"] == {"piece": "1", "squares": 1}


def test_the_board_image_is_svg_at_the_end_or_after_any_move(client):
    game = start(client)
    play(client, game, [(1, "e10"), (2, "j5")])
    r = client.get(f"/api/games/{game['id']}/board.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    root = ET.fromstring(r.data)
    assert sum(1 for e in root.iter() if e.get("fill") == "#2f6fde") == 1 + 1
    assert "Ann: -88" in r.text
    first = client.get(f"/api/games/{game['id']}/board.svg?move=0").text
    assert "Ann: -89" in first and "move 0" in first
    r = client.get(f"/api/games/{game['id']}/board.svg?move=9")
    assert r.status_code == 400 and "no move 9 (0 to 2)" in r.json["error"]["message"]
    assert client.get("/api/games/nope/replay").status_code == 404


# -- importing records ----------------------------------------------------------------------


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda p: p.stem)
def test_pentobis_self_play_files_import_and_replay_to_their_recorded_scores(client, path):
    record = load_record(path.with_suffix(".json"))
    r = client.post("/api/replays", data=path.read_bytes(), headers=SGF)
    assert r.status_code == 201, r.json
    assert r.json["moves"] == record["n_placed"] and r.json["variant"] == record["game"]
    data = client.get(f"/api/replays/{r.json['id']}").json
    scores = record["corner_claim_scores"]
    assert data["frames"][-1]["scores"] == [scores[c]["score"] for c in scores]
    assert data["over"] and data["source"] == "import"
    assert len(data["frames"]) == record["n_placed"] + 1
    assert [COLOR_SEAT[c] for c in scores] == list(range(1, len(scores) + 1))


@pytest.mark.parametrize("variant, seed", [("duo", 4), ("trio", 5), ("classic", 6)])
def test_a_host_game_exported_as_blksgf_imports_back_with_the_same_moves(client, variant, seed):
    original = random_game(variant, seed, stop_after=30)
    game = start(client, variant)
    play(client, game, moves_of(original))
    log = client.get(f"/api/games/{game['id']}/replay.json").data
    text = game_to_sgf(Game.from_json(log))
    r = client.post("/api/replays", data=text, headers=SGF)
    assert r.status_code == 201, r.json
    again = client.get(f"/api/replays/{r.json['id']}/replay.blksgf").data
    assert moves_of(load_game(again)) == moves_of(original)
    assert load_game(again).state.players == ("Ann", "Bo", "Cy", "Di")[:SEATS[variant]]
    as_json = client.get(f"/api/replays/{r.json['id']}/replay.json").data
    assert moves_of(Game.from_json(as_json)) == moves_of(original)


@pytest.mark.parametrize("variant", ["duo", "trio", "classic"])
def test_the_hosts_own_blksgf_download_imports_back(client, variant):
    original = random_game(variant, 9, stop_after=12)
    game = start(client, variant)
    play(client, game, moves_of(original))
    text = client.get(f"/api/games/{game['id']}/replay.blksgf").data
    r = client.post("/api/replays", data=text, headers=SGF)
    assert r.status_code == 201, r.json
    assert r.json["moves"] == 12


@pytest.mark.parametrize("body, words", [
    (b"", "the file is empty"),
    (b"(;GM[Blokus Duo];B[e10];W[e10])", "illegal move at move 2"),
    (b"(;GM[Go];B[aa])", "GM"),
    (b"(;GM[Blokus Duo];B[e10]", "not a valid SGF file"),
    (b"\xff\xfe(;GM[Blokus]", "UTF-8"),
    (b'{"format": "cornerclaim-log", "version": 7}', "unsupported log version"),
])
def test_a_malformed_record_is_refused_clearly_and_nothing_is_stored(make_app, body, words):
    app = make_app()
    client = app.test_client()
    r = client.post("/api/replays", data=body, headers=SGF)
    assert r.status_code == 400, r.json
    assert words in r.json["error"]["message"]
    imports = host_of(app).imports.folder
    assert not imports.exists() or not any(imports.iterdir())


def test_a_record_over_the_size_limit_is_refused_with_413(client):
    from server.web.ladder_api import MAX_IMPORT

    body = b"(;GM[Blokus Duo]C[" + b"x" * MAX_IMPORT + b"])"
    r = client.post("/api/replays", data=body, headers=SGF)
    assert r.status_code == 413 and r.json["error"]["code"] == "too_large"


def test_the_same_file_imported_twice_is_one_replay_and_unknown_ids_are_404(client):
    data = SGF_FILES[0].read_bytes()
    first = client.post("/api/replays", data=data, headers=SGF).json
    second = client.post("/api/replays", data=data, headers=SGF).json
    assert first["id"] == second["id"] and first["url"] == f"/replay.html?import={first['id']}"
    assert client.get("/api/replays/inothere").status_code == 404
    assert client.get("/api/replays/..%2Fx/board.svg").status_code == 404
    svg = client.get(f"/api/replays/{first['id']}/board.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"


# -- a game that is not Corner Claim -------------------------------------------------------------


def tictactoe_game(client) -> dict:
    seats = [{"kind": "local", "name": n} for n in ("Ann", "Bo")]
    r = client.post("/api/games", json={"game": "tictactoe", "variant": "3x3", "seats": seats})
    assert r.status_code == 201, r.json
    return r.json


def test_a_tictactoe_game_has_its_ladder_and_its_replay(client):
    game = tictactoe_game(client)
    play(client, game, [(1, "a1"), (2, "b1"), (1, "a2"), (2, "b2"), (1, "a3")])
    table = client.get("/api/players?game=tictactoe").json
    assert (table["title"], table["variants"], table["stats"]) == ("Tic-tac-toe", ["3x3"], [])
    assert table["level_ratings"] == {"1": 1000.0}
    assert [(p["name"], p["rating"], p["rating_key"]) for p in table["players"]] == [
        ("Ann", 1516, "tictactoe/3x3"), ("Bo", 1484, "tictactoe/3x3")]
    assert client.get("/api/players").json["players"] == []  # Corner Claim's ladder
    ann = client.get("/api/players/Ann").json
    assert list(ann["games"]) == ["tictactoe"] and ann["recent_games"][0]["game"] == "tictactoe"
    data = client.get(f"/api/games/{game['id']}/replay").json
    assert (data["game"], data["variant"], data["over"]) == ("tictactoe", "3x3", True)
    assert [f["move"] for f in data["frames"]] == [None, "a1", "b1", "a2", "b2", "a3"]
    assert expand_frames(data)["frames"][-1]["board"] == {
        "rows": [[1, 0, 0], [1, 2, 0], [1, 2, 0]]}
    assert [f["ext"] for f in data["formats"]] == ["json"]
    assert set(data["links"]) == {"json", "board_svg"}
    svg = client.get(f"/api/games/{game['id']}/board.svg?move=1")
    assert svg.status_code == 200 and "Tic-tac-toe 3x3: Ann, Bo — move 1" in svg.text


def test_a_tictactoe_log_imports_and_downloads_only_as_json(client):
    log = Game.new("tictactoe", "3x3", ("Ann", "Bo"))
    log.play(1, "b2")
    r = client.post("/api/replays", data=log.to_json(),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.json
    assert (r.json["game"], r.json["variant"], r.json["moves"]) == ("tictactoe", "3x3", 1)
    rid = r.json["id"]
    data = client.get(f"/api/replays/{rid}").json
    assert data["source"] == "import" and data["links"]["json"].endswith("/replay.json")
    assert Game.from_json(client.get(f"/api/replays/{rid}/replay.json").data).seq == 2
    r = client.get(f"/api/replays/{rid}/replay.blksgf")
    assert r.status_code == 404 and "download as json" in r.json["error"]["message"]
    assert client.get(f"/api/replays/{rid}/board.svg").status_code == 200
