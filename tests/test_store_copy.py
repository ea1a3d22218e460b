"""`cornerclaim store copy`: a home host's games go to a club's PostgreSQL and come back the
same — records, seats, token hashes, events, their times and the games' computer reviews —
and a copy run twice, or onto a store that holds another game or review of the same id,
neither duplicates nor overwrites."""

from __future__ import annotations

import random

import pytest

from server.app import create_app, shutdown_app
from server.cli import main
from server.host import host_of
from server.store import AnalysisRecord, SeatRecord, open_store
from server.store.sqlite import SqliteStore
from tests.server_fixtures import bearer, create
from tests.test_analysis_api import Http, finished_game
from tests.test_crash_store import play_random

pytest.importorskip("psycopg")


def home_host(folder) -> list[str]:
    """A home host's data folder after an evening: a duo played some moves, a classic
    game with a computer seat, a takeback; then one game closed and rematched. The ids."""
    app = create_app({"DATA_DIR": str(folder), "START_BOTS": False})
    try:
        client = app.test_client()
        duo = create(client, "duo")
        play_random(client, duo, 6, random.Random(3))
        r = client.post(f"/api/games/{duo['id']}/undo", headers=bearer(duo["tokens"]["1"]),
                        json={"seat": 1, "seq": 7})
        assert r.status_code in (200, 201), r.json
        classic = create(client, "classic")
        play_random(client, classic, 4, random.Random(4))
        ids = [duo["id"], classic["id"]]
    finally:
        shutdown_app(app)
    store = SqliteStore(folder)
    store.set_closed(ids[0])
    store.link_rematch(ids[0], ids[1])
    store.update_seat(ids[1], SeatRecord(4, "computer", None, 2, None))
    store.close()
    return ids


def contents(where) -> list:
    """Everything a store holds, game by game."""
    store = open_store(where)
    try:
        return [(g, store.seats(g.id), store.events_at(g.id)) for g in store.games()]
    finally:
        store.close()


def test_sqlite_to_postgresql_and_back_gives_the_same_games(tmp_path, pg_url, capsys):
    ids = home_host(tmp_path / "home")
    assert main(["store", "copy", str(tmp_path / "home"), pg_url]) == 0
    assert "copied 2 game(s); 0 already there; 0 review(s) copied" in capsys.readouterr().out
    assert main(["store", "copy", pg_url, str(tmp_path / "back")]) == 0

    home = contents(tmp_path / "home")
    assert [g.id for g, _, _ in home] == ids
    assert contents(pg_url) == home
    assert contents(tmp_path / "back" / SqliteStore.FILENAME) == home
    assert home[0][0].closed and home[0][0].rematch_id == ids[1]
    assert any(s.token_hash for s in home[0][1])


def test_a_club_host_on_the_copied_database_serves_the_same_game(tmp_path, pg_url):
    ids = home_host(tmp_path / "home")
    assert main(["store", "copy", str(tmp_path / "home"), pg_url]) == 0
    states = []
    for config in ({"DATA_DIR": str(tmp_path / "home")},
                   {"DATA_DIR": str(tmp_path / "club"), "STORE": pg_url}):
        app = create_app({**config, "START_BOTS": False})
        try:
            client = app.test_client()
            states.append([client.get(f"/api/games/{gid}").json for gid in ids])
        finally:
            shutdown_app(app)
    assert states[0] == states[1]
    assert states[1][1]["seq"] == 5


def test_copying_again_changes_nothing(tmp_path, pg_url, capsys):
    home_host(tmp_path / "home")
    assert main(["store", "copy", str(tmp_path / "home"), pg_url]) == 0
    before = contents(pg_url)
    capsys.readouterr()
    assert main(["store", "copy", str(tmp_path / "home"), pg_url]) == 0
    assert "copied 0 game(s); 2 already there; 0 review(s) copied" in capsys.readouterr().out
    assert contents(pg_url) == before


def test_a_different_game_under_the_same_id_is_refused_and_left_alone(tmp_path, pg_url,
                                                                       capsys):
    ids = home_host(tmp_path / "home")
    assert main(["store", "copy", str(tmp_path / "home"), pg_url]) == 0
    club = open_store(pg_url)
    events = club.events_since(ids[1], 0)
    club.append(ids[1], {**events[-1], "seq": len(events) + 1})  # played on at the club
    club.close()
    before = contents(pg_url)
    capsys.readouterr()
    assert main(["store", "copy", str(tmp_path / "home"), pg_url]) == 1
    out = capsys.readouterr().out
    assert "1 already there; 0 review(s) copied; refused 1:" in out
    assert f"{ids[1]}: the target holds another log for this id (6 events, the source 5)" in out
    assert contents(pg_url) == before


def test_a_copy_into_a_running_hosts_folder_or_from_nowhere_is_refused(tmp_path, pg_url,
                                                                       capsys):
    app = create_app({"DATA_DIR": str(tmp_path / "busy"), "START_BOTS": False})
    try:
        assert main(["store", "copy", pg_url, str(tmp_path / "busy")]) == 2
        assert "another Corner Claim host" in capsys.readouterr().err
    finally:
        shutdown_app(app)
    assert main(["store", "copy", str(tmp_path / "nothing"), pg_url]) == 2
    assert f"no game store in {tmp_path / 'nothing'}" in capsys.readouterr().err
    assert not (tmp_path / "nothing").exists()
    assert main(["store", "copy", pg_url, pg_url]) == 2


def reviewed_game(folder) -> tuple[str, dict]:
    """A home host's finished marble game and its computer review as the host serves it: a
    done review of every move, put in the store as the analysis worker leaves it."""
    app = create_app({"DATA_DIR": str(folder), "START_BOTS": False, "ANALYSIS_AUTO": False,
                      "WRITE_RATE": None})
    try:
        http = Http(client=app.test_client())
        gid, seqs = finished_game(http)
        frames = http.call("get", f"/api/games/{gid}/replay")[1]["frames"]
        moves = [(f["seat"], f["move"]) for f in frames if f.get("kind") == "move"]
        plies = [{"ply": n, "seq": seq, "seat": seat, "move": move, "best": move,
                  "value_before": 0.5, "value_after": 0.5, "loss": 0.0, "label": "best"}
                 for n, (seq, (seat, move)) in enumerate(zip(seqs, moves, strict=True), 1)]
        host_of(app).store.put_analysis(AnalysisRecord(gid, "done", len(plies), plies, 1,
                                                       seqs[-1] + 1, None, 1234.5))
        status, review = http.call("get", f"/api/games/{gid}/analysis")
        assert status == 200 and review["status"] == "done", review
        return gid, review
    finally:
        shutdown_app(app)


def test_a_games_review_goes_with_it_and_one_already_there_is_kept(tmp_path, pg_url, capsys):
    gid, review = reviewed_game(tmp_path / "home")
    assert main(["store", "copy", str(tmp_path / "home"), pg_url]) == 0
    assert "copied 1 game(s); 0 already there; 1 review(s) copied" in capsys.readouterr().out
    app = create_app({"DATA_DIR": str(tmp_path / "club"), "STORE": pg_url,
                      "START_BOTS": False, "ANALYSIS_AUTO": False})
    try:
        assert Http(client=app.test_client()).call(
            "get", f"/api/games/{gid}/analysis") == (200, review)
    finally:
        shutdown_app(app)

    # The club's review of the game is its own: copying again leaves it as it is.
    club = open_store(pg_url)
    theirs = club.analysis(gid)
    theirs.plies[0]["label"] = "good"
    club.put_analysis(theirs)
    club.close()
    assert main(["store", "copy", str(tmp_path / "home"), pg_url]) == 0
    assert "copied 0 game(s); 1 already there; 0 review(s) copied" in capsys.readouterr().out
    club = open_store(pg_url)
    try:
        assert club.analysis(gid).plies[0]["label"] == "good"
    finally:
        club.close()
