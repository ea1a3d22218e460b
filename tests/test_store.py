"""The event store, on SQLite and on PostgreSQL alike: durable, gap-free, and holding only
token hashes. The tests after those of both backends are SQLite's own (its file, its pragmas,
its old schema); PostgreSQL's own are in test_store_postgres.py."""

from __future__ import annotations

import ast
import json
import sqlite3
import time
from pathlib import Path

import pytest

from engine.core import Game
from server.store import (
    AnalysisRecord,
    EventStore,
    GameRecord,
    SeatRecord,
    SeqConflict,
    SharedStore,
    StoreError,
    open_store,
)
from server.store.sqlite import SCHEMA_VERSION, SqliteStore
from server.tables.table import hash_token


@pytest.fixture(params=["sqlite", "postgresql"])
def place(request, tmp_path):
    """Where a store lives: a SQLite data folder, or a fresh PostgreSQL database."""
    return tmp_path if request.param == "sqlite" else request.getfixturevalue("pg_url")


@pytest.fixture
def store(place):
    opened = open_store(place)
    yield opened
    opened.close()


def _new(store: EventStore, game_id: str = "g1") -> None:
    game = Game.new("cornerclaim", "duo")
    store.create_game(
        GameRecord(game_id, 1.0, "duo", hash_token("host-secret")),
        [SeatRecord(1, "open", "Ann", None, hash_token("ann-secret")),
         SeatRecord(2, "computer", None, 3, None)],
        game.events[0].to_dict())


def placed(seq: int, seat: int, move: str) -> dict:
    return {"type": "piece_placed", "seq": seq, "seat": seat, "move": move}


def test_a_game_is_created_with_its_seats_and_first_event(store):
    _new(store)
    assert [g.id for g in store.games()] == ["g1"]
    seats = store.seats("g1")
    assert [(s.seat, s.kind, s.name, s.level) for s in seats] == [
        (1, "open", "Ann", None), (2, "computer", None, 3)]
    assert seats[0].token_hash == hash_token("ann-secret")
    assert seats[1].token_hash is None
    assert store.events_since("g1", 0)[0]["type"] == "game_created"


def test_appends_must_follow_on_without_gaps_or_repeats(store):
    _new(store)
    store.append("g1", placed(2, 1, "e9,d10,e10,f10,e11"))
    with pytest.raises(SeqConflict):
        store.append("g1", placed(2, 2, "j5"))  # seq 2 is taken
    with pytest.raises(SeqConflict):
        store.append("g1", placed(4, 2, "j5"))  # seq 3 would be missing
    with pytest.raises(SeqConflict):
        store.append("nope", placed(1, 1, "a1"))  # no such game
    assert [e["seq"] for e in store.events_since("g1", 0)] == [1, 2]
    assert [e["seq"] for e in store.events_since("g1", 1)] == [2]
    assert store.events_since("nope", 0) == []


def test_a_conflict_is_the_stale_seq_a_phone_gets(store):
    from server.errors import from_store

    _new(store)
    store.append("g1", placed(2, 1, "e9,d10,e10,f10,e11"))
    with pytest.raises(SeqConflict) as caught:
        store.append("g1", placed(2, 2, "j5"))
    answer = from_store(caught.value)
    assert (answer.code, answer.status, answer.details) == ("stale_seq", 409, {"latest": 2})


def test_what_is_committed_is_there_after_reopening(store, place):
    _new(store)
    store.append("g1", placed(2, 1, "e9,d10,e10,f10,e11"))
    store.update_seat("g1", SeatRecord(2, "open", None, None, None))
    store.update_seat("g1", SeatRecord(1, "open", "Ann", None, hash_token("ann-2")))
    store.set_closed("g1")
    store.link_rematch("g1", "g2")
    store.close()

    again = open_store(place)
    try:
        assert again.events_since("g1", 0)[-1] == placed(2, 1, "e9,d10,e10,f10,e11")
        record = again.games()[0]
        assert record.closed and record.rematch_id == "g2" and record.game == "cornerclaim"
        assert [(s.kind, s.token_hash) for s in again.seats("g1")] == [
            ("open", hash_token("ann-2")), ("open", None)]
    finally:
        again.close()


def test_games_are_listed_oldest_first(store):
    for gid, created in (("b", 3.0), ("a", 2.0), ("c", 2.0)):
        store.create_game(GameRecord(gid, created, "duo", "h"), [],
                          Game.new("cornerclaim", "duo").events[0].to_dict())
    assert [g.id for g in store.games()] == ["a", "c", "b"]


def test_finish_times_are_when_each_games_last_event_was_stored(store):
    """What the ladder orders finished games by, on either store (read through the interface)."""
    before = time.time()
    _new(store, "g1")
    _new(store, "g2")
    store.append("g1", placed(2, 1, "e10"))  # g1 moved on after g2 was made
    after = time.time()
    times = store.finish_times()
    assert sorted(times) == ["g1", "g2"]
    assert before <= times["g2"] <= times["g1"] <= after
    assert store.finish_times("g1") == {"g1": times["g1"]}
    assert store.finish_times("nobody") == {}


def members(interface: type) -> set[str]:
    """The methods and attributes a store interface declares (with those it extends)."""
    return {name for cls in interface.__mro__ if cls.__module__ == "server.store.base"
            for name in (*vars(cls), *vars(cls).get("__annotations__", {}))
            if not name.startswith("_")}


def test_each_store_has_every_member_of_its_interface(store):
    interface = EventStore if isinstance(store, SqliteStore) else SharedStore
    assert members(EventStore) < members(SharedStore)
    assert sorted(m for m in members(interface) if not hasattr(store, m)) == []


def test_the_interface_lists_everything_the_host_asks_of_a_store():
    """Every `store.<name>` (`self.store.<name>`, `service.store.<name>`) in the host outside
    the store's own package is declared by the interface."""
    asked: dict[str, set[str]] = {}
    server = Path(__file__).resolve().parent.parent / "server"
    for path in server.rglob("*.py"):
        if path.parent.name == "store":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and (
                    isinstance(node.value, ast.Name) and node.value.id == "store"
                    or isinstance(node.value, ast.Attribute) and node.value.attr == "store"):
                asked.setdefault(node.attr, set()).add(path.name)
    assert {"append", "finish_times", "head", "heads", "set_undo_request"} <= set(asked)
    assert {name: files for name, files in asked.items()
            if name not in members(SharedStore)} == {}


def test_the_store_holds_no_plain_token(store, place):
    _new(store)
    dump = _dump(place)
    assert "ann-secret" not in dump and "host-secret" not in dump
    assert hash_token("ann-secret") in dump


def _dump(place) -> str:
    """Every row of every table, as text."""
    if not isinstance(place, str):
        db = sqlite3.connect(place / SqliteStore.FILENAME)
        try:
            return "\n".join(db.iterdump())
        finally:
            db.close()
    import psycopg

    with psycopg.connect(place) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return "\n".join(str(row) for table in tables
                         for row in conn.execute(f"SELECT * FROM {table}"))


def test_the_file_is_in_wal_mode_with_full_sync(tmp_path):
    store = SqliteStore(tmp_path)
    _new(store)
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()


def test_commits_the_disk_holds_up_are_counted_and_logged(tmp_path, monkeypatch, caplog):
    """A slow disk is the host operator's to know: slow commits are counted, logged at most
    once per SLOW_LOG_EVERY, and summed up when the store closes (loadtest reads that line)."""
    import server.store.sqlite as store_module
    from tests.test_load import script

    slow_commits = script("loadtest").slow_commits

    monkeypatch.setattr(store_module, "SLOW_COMMIT_S", -1.0)  # every commit counts as slow
    store = SqliteStore(tmp_path)
    with caplog.at_level("WARNING", logger="server.store.sqlite"):
        _new(store)
        for seq in range(2, 6):
            store.append("g1", placed(seq, 1 + seq % 2, "a1"))
        assert store.slow_commits == 5 and store.slowest_commit_s > 0
        store.close()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2, lines  # the first slow commit, then the summary at close
    assert lines[0].startswith("slow disk: a commit took")
    longest = float(f"{store.slowest_commit_s * 1000:.0f}")
    assert slow_commits("\n".join(lines)) == (5, longest)
    assert slow_commits("no such line") == (0, 0.0)


#: The games table as hosts wrote it before a store knew more than one game.
OLD_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, created_at REAL NOT NULL, variant TEXT NOT NULL,
    host_hash TEXT NOT NULL, closed INTEGER NOT NULL DEFAULT 0, rematch_of TEXT,
    rematch_id TEXT);
CREATE TABLE events (game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
    type TEXT NOT NULL, body TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, seq))
    WITHOUT ROWID;
CREATE TABLE seats (game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    kind TEXT NOT NULL, name TEXT, level INTEGER, PRIMARY KEY (game_id, seat)) WITHOUT ROWID;
CREATE TABLE seat_tokens (game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL, PRIMARY KEY (game_id, seat)) WITHOUT ROWID;
"""


def test_an_analysis_is_kept_beside_the_log_and_replaced_as_it_goes(store):
    _new(store)
    assert store.analysis("g1") is None and store.analyses() == []
    ply = {"ply": 1, "seq": 2, "seat": 1, "move": "e9,d10,e10,f10,e11", "best": "j5",
           "value_before": 0.5, "value_after": 0.25, "loss": 0.25, "label": "blunder"}
    store.put_analysis(AnalysisRecord("g1", "running", 2, [ply], None, 3, updated=5.0))
    store.put_analysis(AnalysisRecord("g1", "done", 2, [ply, {**ply, "ply": 2}], 1, 3,
                                      updated=6.0))
    got = store.analysis("g1")
    assert got == AnalysisRecord("g1", "done", 2, [ply, {**ply, "ply": 2}], 1, 3, None, 6.0)
    assert store.analyses(("queued", "running")) == [] and store.analyses() == [got]
    assert len(store.events_since("g1", 0)) == 1  # the log has none of it


def old_store(folder) -> None:
    """A store file in the old schema holding one Corner Claim game with one placement."""
    folder.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(folder / SqliteStore.FILENAME)
    db.executescript(OLD_SCHEMA)
    created = Game.new("cornerclaim", "duo", ("Ann", "Bo")).events[0].to_dict()
    db.execute("INSERT INTO games VALUES ('old1', 1.0, 'duo', 'h', 0, NULL, NULL)")
    for seq, body in ((1, created), (2, placed(2, 1, "e9,d10,e10,f10,e11"))):
        db.execute("INSERT INTO events VALUES ('old1', ?, ?, ?, 1.0)",
                   (seq, body["type"], json.dumps(body)))
    db.execute("INSERT INTO seats VALUES ('old1', 1, 'local', 'Ann', NULL)")
    db.execute("INSERT INTO seats VALUES ('old1', 2, 'local', 'Bo', NULL)")
    db.commit()
    db.close()


def test_a_store_of_the_old_schema_gains_the_game_column_on_open(tmp_path):
    old_store(tmp_path)
    store = SqliteStore(tmp_path)
    columns = {r[1] for r in store._db.execute("PRAGMA table_info(games)")}
    assert "game" in columns
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert [(g.id, g.game, g.variant) for g in store.games()] == [("old1", "cornerclaim", "duo")]
    _new(store, "g2")  # new games are written with their game
    store.close()
    again = SqliteStore(tmp_path)  # opening a migrated store again changes nothing
    assert sorted((g.id, g.game) for g in again.games()) == [("g2", "cornerclaim"),
                                                           ("old1", "cornerclaim")]
    assert len(again.events_since("old1", 0)) == 2
    again.close()


def test_a_store_written_by_a_newer_host_is_refused_and_left_as_it_is(tmp_path):
    SqliteStore(tmp_path).close()
    db = sqlite3.connect(tmp_path / SqliteStore.FILENAME)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="written by a newer host"):
        SqliteStore(tmp_path)
    db = sqlite3.connect(tmp_path / SqliteStore.FILENAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    db.close()
