"""PostgreSQL's own store tests, on a real throwaway server (tests/pg_fixtures.py): two writers
racing for one seq, the schema made and migrated on open, and the database going away and
coming back — under the store, and under a host's REST API."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import threading
import time

import pytest

from engine.core import Game
from server.app import create_app, shutdown_app
from server.store import GameRecord, SeatRecord, SeqConflict, StoreUnavailable
from tests.server_fixtures import bearer, create

psycopg = pytest.importorskip("psycopg")
from server.host import host_of  # noqa: E402
from server.store.pg_schema import SCHEMA_VERSION  # noqa: E402
from server.store.postgres import PostgresStore  # noqa: E402


def placed(seq: int, seat: int, move: str) -> dict:
    return {"type": "piece_placed", "seq": seq, "seat": seat, "move": move}


def new_game(store, game_id: str = "g1") -> None:
    store.create_game(GameRecord(game_id, 1.0, "duo", "host-hash"),
                      [SeatRecord(1, "local", "Ann"), SeatRecord(2, "local", "Bo")],
                      Game.new("cornerclaim", "duo").events[0].to_dict())


# -- two writers, one seq -------------------------------------------------------------------
def test_a_writer_waiting_on_the_games_row_loses_to_the_one_holding_it(pg_url):
    """Another process holds the game's row lock and appends seq 2; our append of seq 2 waits
    for the lock, then finds seq 2 taken: stale_seq, and the log has one seq 2."""
    store = PostgresStore(pg_url)
    new_game(store)
    other = psycopg.connect(pg_url)
    other.execute("SELECT last_seq FROM games WHERE id = 'g1' FOR UPDATE")
    outcome: list[BaseException | None] = []

    def ours() -> None:
        try:
            store.append("g1", placed(2, 1, "e9,d10,e10,f10,e11"))
            outcome.append(None)
        except BaseException as e:  # noqa: BLE001 - the test looks at it
            outcome.append(e)

    writer = threading.Thread(target=ours)
    writer.start()
    time.sleep(0.3)
    assert writer.is_alive() and not outcome, "our append must wait for the row lock"
    other.execute("INSERT INTO events VALUES ('g1', 2, 'piece_placed', %s, 0)",
                  ('{"type": "piece_placed", "seq": 2, "seat": 1, "move": "j10"}',))
    other.execute("UPDATE games SET last_seq = 2 WHERE id = 'g1'")
    other.commit()
    writer.join(10)
    assert isinstance(outcome[0], SeqConflict) and outcome[0].code == "stale_seq"
    assert outcome[0].latest == 2
    assert [e.get("move") for e in store.events_since("g1", 0)] == [None, "j10"]
    other.close()
    store.close()


def test_a_repeated_seq_is_refused_by_the_key_even_without_the_lock(pg_url):
    store = PostgresStore(pg_url)
    new_game(store)
    store.append("g1", placed(2, 1, "a1"))
    with psycopg.connect(pg_url) as conn, pytest.raises(psycopg.errors.UniqueViolation):
        conn.execute("INSERT INTO events VALUES ('g1', 2, 'x', '{}', 0)")
    store.close()


@pytest.mark.parametrize("applied", [True, False], ids=["applied", "not-applied"])
def test_an_append_whose_answer_is_lost_is_stored_once(pg_url, monkeypatch, applied):
    """The connection breaks around the append's one statement: whether the database applied
    it or not, the append reads what is at the seq and ends with the event stored once; a
    different event found there is a conflict."""
    store = PostgresStore(pg_url)
    new_game(store)
    real_run, lost = store._run, []

    def run(body, **kw):
        if kw.get("writes") and not lost:
            lost.append(True)
            if applied:
                real_run(body, **kw)
            raise StoreUnavailable("the game database cannot be reached (its outcome is "
                                   "unknown: it was not acknowledged): connection lost")
        return real_run(body, **kw)

    monkeypatch.setattr(store, "_run", run)
    store.append("g1", placed(2, 1, "a1"))
    assert lost and [e.get("move") for e in store.events_since("g1", 0)] == [None, "a1"]
    lost.clear()
    if applied:  # someone else's event went in at seq 3 while ours was in the air
        real_run(lambda conn: conn.execute(
            "INSERT INTO events VALUES ('g1', 3, 'piece_placed', %s, 0)",
            ('{"type": "piece_placed", "seq": 3, "seat": 2, "move": "b2"}',)), writes=True,
            transaction=False)
        monkeypatch.setattr(store, "_run", lambda body, **kw: (_ for _ in ()).throw(
            StoreUnavailable("lost")) if kw.get("writes") else real_run(body, **kw))
        with pytest.raises(SeqConflict):
            store.append("g1", placed(3, 2, "c3"))
    store.close()


def _race(url: str, start, seat: int, rounds: int, wins) -> None:
    """One host process: `rounds` times, read the last seq while the other does, then both
    append the next one at once."""
    store = PostgresStore(url)
    won = 0
    for _ in range(rounds):
        start.wait()  # both are done with the previous round
        seq = len(store.events_since("g1", 0)) + 1
        start.wait()  # both have read the same last seq
        try:
            store.append("g1", placed(seq, seat, f"p{seat}"))
            won += 1
        except SeqConflict:
            pass
    wins.put(won)
    store.close()


def test_two_processes_racing_for_each_seq_never_both_append_it(pg_url):
    """Two host processes read the same last seq and append the next one at the same moment,
    30 times: each seq is won by exactly one, the loser of each round gets stale_seq, and the
    log has no gap and no repeat."""
    store = PostgresStore(pg_url)
    new_game(store)
    ctx = multiprocessing.get_context("spawn")
    start, wins = ctx.Barrier(2, timeout=60), ctx.Queue()
    rounds = 30
    racers = [ctx.Process(target=_race, args=(pg_url, start, seat, rounds, wins))
              for seat in (1, 2)]
    for p in racers:
        p.start()
    won = [wins.get(timeout=120) for _ in racers]
    for p in racers:
        p.join(30)
        assert p.exitcode == 0
    events = store.events_since("g1", 0)
    assert [e["seq"] for e in events] == list(range(1, rounds + 2))
    assert sum(won) == rounds, won  # one winner per round, and the other lost it
    store.close()


# -- schema -------------------------------------------------------------------------------
def test_the_schema_is_created_on_open_and_opening_again_changes_nothing(pg_url):
    first = PostgresStore(pg_url)
    new_game(first)
    first.close()
    again = PostgresStore(pg_url)
    assert [g.id for g in again.games()] == ["g1"]
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)]
        assert conn.execute("SHOW synchronous_commit").fetchone()[0] == "on"
    again.close()


def test_host_processes_starting_together_make_the_schema_once(pg_url):
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            PostgresStore(pg_url).close()
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=open_one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []


def test_a_database_of_a_newer_schema_is_refused_not_guessed_at(pg_url):
    from server.store import StoreError

    PostgresStore(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer host"):
        PostgresStore(pg_url)


def test_acknowledged_sessions_commit_synchronously(pg_url):
    store = PostgresStore(pg_url)
    with psycopg.connect(pg_url, options="-c synchronous_commit=off") as conn:
        conn.execute("ALTER DATABASE " + pg_url.rsplit("/", 1)[1]
                     + " SET synchronous_commit = off")
    store.close()
    store = PostgresStore(pg_url)  # its connections set it on again
    assert store._query("SHOW synchronous_commit") == [("on",)]
    store.close()


# -- the database goes away and comes back --------------------------------------------------
def test_an_outage_is_store_unavailable_changes_nothing_and_passes(pg_url, postgres):
    store = PostgresStore(pg_url, connect_timeout=2)
    new_game(store)
    store.append("g1", placed(2, 1, "a1"))
    # idle connections, as commands on several games at once leave them
    for conn in [store.connections.take()[0] for _ in range(3)]:
        store.connections.give(conn)
    assert len(store.connections.idle) == 3
    postgres.stop()
    try:
        for attempt in (
                lambda: store.append("g1", placed(3, 2, "b2")),
                lambda: store.events_since("g1", 0),
                lambda: store.games(),
                lambda: new_game(store, "g2"),
                lambda: store.set_closed("g1")):
            t = time.monotonic()
            with pytest.raises(StoreUnavailable, match="cannot be reached"):
                attempt()
            assert time.monotonic() - t < 5, "an outage answers at once, not after a wait"
    finally:
        postgres.start()
    assert [e["seq"] for e in store.events_since("g1", 0)] == [1, 2]  # nothing changed
    assert [(g.id, g.closed) for g in store.games()] == [("g1", False)]
    # connections from before a restart, which the server dropped
    for conn in [store.connections.take()[0] for _ in range(3)]:
        store.connections.give(conn)
    postgres.stop()
    postgres.start()
    store.append("g1", placed(3, 2, "b2"))  # works again at once, on a fresh connection
    assert store.events_since("g1", 1) == [placed(2, 1, "a1"), placed(3, 2, "b2")]
    store.close()


def test_every_acknowledged_append_is_there_after_the_server_crashes(pg_url, postgres):
    store = PostgresStore(pg_url)
    new_game(store)
    for seq in range(2, 42):
        store.append("g1", placed(seq, 1 + seq % 2, f"m{seq}"))
    postgres.crash()
    try:
        with pytest.raises(StoreUnavailable):
            store.append("g1", placed(42, 1, "lost"))
    finally:
        postgres.start()  # crash recovery from the WAL
    assert store.events_since("g1", 0)[1:] == [placed(seq, 1 + seq % 2, f"m{seq}")
                                               for seq in range(2, 42)]
    store.close()


def test_during_an_outage_the_host_answers_503_and_play_resumes_after(pg_url, postgres,
                                                                       tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "STORE": pg_url, "START_BOTS": False})
    try:
        client = app.test_client()
        game = create(client, "duo")
        gid, token = game["id"], bearer(game["tokens"]["1"])
        move = {"seat": 1, "move": "e9,d10,e10,f10,e11", "seq": 1}
        postgres.stop()
        try:
            r = client.post(f"/api/games/{gid}/moves", headers=token, json=move)
            assert r.status_code == 503, r.json
            assert r.json["error"]["code"] == "store_unavailable"
            assert "nothing changed" in r.json["error"]["message"]
            assert client.get(f"/api/games/{gid}").json["seq"] == 1  # memory did not run ahead
        finally:
            postgres.start()
        r = client.post(f"/api/games/{gid}/moves", headers=token, json=move)
        assert r.status_code == 201, r.json
        assert client.get(f"/api/games/{gid}/events").json["seq"] == 2
    finally:
        shutdown_app(app)


def test_two_hosts_on_one_database_the_second_to_save_a_seq_gets_stale_seq(pg_url, tmp_path):
    """Two host processes' apps share one database; a game is played on the first. The second,
    which has not heard of that move, tries the same seq: 409 stale_seq, the stored log holds
    the first host's move only, and the second host has caught up to it."""
    one = create_app({"DATA_DIR": str(tmp_path / "one"), "STORE": pg_url, "START_BOTS": False})
    try:
        game = create(one.test_client(), "duo")
        two = create_app({"DATA_DIR": str(tmp_path / "two"), "STORE": pg_url,
                          "START_BOTS": False})
        try:
            gid = game["id"]
            r = one.test_client().post(
                f"/api/games/{gid}/moves", headers=bearer(game["tokens"]["1"]),
                json={"seat": 1, "move": "e9,d10,e10,f10,e11", "seq": 1})
            assert r.status_code == 201, r.json
            r = two.test_client().post(
                f"/api/games/{gid}/moves", headers=bearer(game["tokens"]["1"]),
                json={"seat": 1, "move": "e10", "seq": 1})
            assert r.status_code == 409, r.json
            assert r.json["error"]["code"] == "stale_seq"
            stored = host_of(one).service.store.events_since(gid, 0)
            assert [e.get("move") for e in stored] == [None, "e9,d10,e10,f10,e11"]
            # the second host caught up from the database: its phone reloads and plays on
            state = two.test_client().get(f"/api/games/{gid}").json
            assert state["seq"] == 2 and state["to_move"] == 2
            r = two.test_client().post(
                f"/api/games/{gid}/moves", headers=bearer(game["tokens"]["2"]),
                json={"seat": 2, "move": "j5", "seq": 2})
            assert r.status_code == 201, r.json
        finally:
            shutdown_app(two)
    finally:
        shutdown_app(one)


def test_serve_with_an_unreachable_database_stops_with_a_clear_message(tmp_path):
    from tests.throwaway import free_port

    url = f"postgresql://nobody@127.0.0.1:{free_port()}/club"
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "serve", "--store", url, "--data-dir",
         str(tmp_path), "--no-mdns", "--no-qr", "--host", "127.0.0.1", "--port",
         str(free_port())], capture_output=True, text=True, timeout=60)
    assert done.returncode == 5, done.stderr
    assert "cannot start: the game database (club on 127.0.0.1:" in done.stderr
    assert "cannot be reached" in done.stderr


def test_serve_takes_only_a_postgresql_url_as_its_store(tmp_path):
    from server.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--store", str(tmp_path / "games.sqlite3")])
    args = build_parser().parse_args(["serve", "--store", "postgresql://u@db/club"])
    assert args.store == "postgresql://u@db/club"


def test_a_move_acknowledged_by_a_killed_host_is_served_by_the_next_one(pg_url, tmp_path):
    """The real command on gevent's loop with `--store`: a move it acknowledged survives its
    SIGKILL, and another host process on the same database (its own data folder) serves it."""
    from tests.test_serve import acknowledged_then_killed, serves_the_move_then_stops, start_host
    from tests.throwaway import free_port

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    game_id = acknowledged_then_killed(start_host(tmp_path / "one", port, "--store", pg_url), url)
    second = start_host(tmp_path / "two", port, "--store", pg_url)
    output = serves_the_move_then_stops(second, url, game_id)
    assert "Games are saved in t" in output  # the database, not a folder


def test_a_process_opens_at_most_max_open_connections_and_keeps_them(pg_url):
    """Commands that find every connection busy wait for one instead of opening more; the
    connections made stay open for the next commands."""
    store = PostgresStore(pg_url, max_open=2, busy_wait=1)
    new_game(store)
    first, _ = store.connections.take()
    second, _ = store.connections.take()
    t = time.monotonic()
    with pytest.raises(StoreUnavailable, match="busy"):
        store.games()  # both in use: it waits out connect_timeout
    assert time.monotonic() - t >= 0.9
    store.connections.give(first)
    assert [g.id for g in store.games()] == ["g1"]  # the one given back serves it
    store.connections.give(second)
    before = store._query("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                          "current_database()")
    for seq in range(2, 12):
        store.append("g1", placed(seq, 1 + seq % 2, f"a{seq}"))
    after = store._query("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                         "current_database()")
    assert before == after == [(2,)], "the two connections were reused, none opened"
    store.close()


def test_many_commands_share_a_few_connections_without_waiting_out_the_limit(pg_url):
    """Forty writers on two connections: each gets one that another gave back (none waits
    until it is told the database is busy), and no more than two are ever open."""
    store = PostgresStore(pg_url, max_open=2, busy_wait=20)
    errors: list[Exception] = []
    most = []

    def writer(i: int) -> None:
        try:
            new_game(store, f"w{i}")
            for seq in range(2, 6):
                store.append(f"w{i}", placed(seq, 1 + seq % 2, f"a{seq}"))
                most.append(store.connections.count)
        except Exception as e:  # noqa: BLE001 - collected and asserted below
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and max(most) <= 2
    assert len(store.games()) == 40
    assert all(len(store.events_since(f"w{i}", 0)) == 5 for i in range(40))
    store.close()
