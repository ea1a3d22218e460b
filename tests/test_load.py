"""A CI-sized load test: scripts/loadtest.py against a real `cornerclaim serve` subprocess.

It checks correctness only — no error ack, no missing broadcast, no disconnect, every
acknowledged move in the SQLite file — never speed: CI machines are shared. The figures at
100 tables are in docs/performance.md ("Host under load")."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def script(name: str):
    """Import scripts/<name>.py as a module (scripts/ is not a package)."""
    if name in sys.modules:
        return sys.modules[name]
    sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_twenty_tables_of_four_sockets_lose_nothing(tmp_path):
    loadtest = script("loadtest")
    report = asyncio.run(loadtest.load(20, 10.0, think=0.3, seed=7, data_dir=tmp_path,
                                       host_args=("--write-rate", "200")))
    print(report.summary())
    assert report.errors == []
    assert report.moves > 100, "the tables hardly played"
    assert report.lost == 0
    assert len(report.rss_samples_mb) > 3 and report.rss_peak_mb > 0
    assert len(report.p99_windows_ms) > 3
    assert report.seating_s > 0  # every table sat down before the clock
    assert report.disk["commits"] == 300 and 0 < report.disk["p50_ms"] <= report.disk["max_ms"]
    assert not list(tmp_path.glob("disk-probe*")), "the probe cleans up after itself"


def test_phones_play_on_while_computer_games_keep_the_bot_pool_busy(tmp_path):
    """Correctness beside a busy bot pool: the phones lose nothing and the bots move too.
    (How promptly the phones are answered then is measured in docs/performance.md.)"""
    loadtest = script("loadtest")
    report = asyncio.run(loadtest.load(5, 8.0, think=0.3, seed=8, data_dir=tmp_path,
                                       host_args=("--write-rate", "200"), bot_tables=3,
                                       bot_level=2, probe=False, bot_moves_wanted=11))
    print(report.summary())
    assert report.errors == [] and report.lost == 0
    assert report.moves > 20, "the phones hardly played"
    assert report.bot_moves > 10, "the computer games did not move"


# -- a club: several processes over PostgreSQL and Redis ------------------------------------
def test_one_games_phones_are_spread_over_the_processes():
    spread = script("loadtest").spread
    assert spread(["a"], 0) is None
    assert [spread(["a", "b", "c"], i) for i in range(3)] == [
        ["a", "b", "c", "a"], ["b", "c", "a", "b"], ["c", "a", "b", "c"]]
    assert sorted(spread(["a", "b"], 5)) == ["a", "a", "b", "b"]


def test_the_club_servers_start_and_leave_nothing_behind():
    pytest.importorskip("psycopg", reason="psycopg is in the club extra (scripts/test)")
    from tests.pg_fixtures import bindir
    from tests.redis_fixtures import binary

    if bindir() is None or binary() is None:
        pytest.skip("PostgreSQL and Redis are needed (scripts/test installs them)")
    loadtest = script("loadtest")
    with loadtest.ClubServers(redis=True) as club:
        assert club.store_url.startswith("postgresql://cornerclaim@127.0.0.1:")
        assert club.queue_url == f"redis://127.0.0.1:{club.redis.port}/0"
        assert club.redis.ping()
        rows = {r["process"].split()[0]: r for r in club.rows()}
        assert rows["postgres"]["pss_mb"] > 0 and rows["redis-server"]["rss_mb"] > 0
        pids = [club.pg.process.pid, club.redis.process.pid]
        folders = [club.pg.root, club.redis.root]
    assert not any(Path(f"/proc/{pid}").exists() for pid in pids)
    assert not any(folder.exists() for folder in folders)


def test_one_process_on_postgresql_loses_nothing(tmp_path):
    pytest.importorskip("psycopg", reason="psycopg is in the club extra (scripts/test)")
    loadtest = script("loadtest")
    report = asyncio.run(loadtest.load(3, 5.0, think=0.2, seed=9, data_dir=tmp_path,
                                       host_args=("--write-rate", "200"), probe=False,
                                       store="postgresql"))
    print(report.summary())
    assert report.errors == [] and report.lost == 0 and report.repeats == 0
    assert report.moves > 10, "the tables hardly played"
    assert report.store == "postgresql" and not report.queue
    assert [r["process"] for r in report.process_rows][0] == "host 1"
    assert report.process_rows[1]["process"].startswith("postgres (")


def test_two_processes_play_over_redis_or_are_refused_clearly(tmp_path, capsys):
    """Phones of one game on two processes; a `serve` without the Redis queue is refused
    before anything starts."""
    pytest.importorskip("psycopg", reason="psycopg is in the club extra (scripts/test)")
    loadtest = script("loadtest")
    if not loadtest.serve_supports("--message-queue"):
        assert loadtest.main(["--processes", "2", "--tables", "2", "--seconds", "5"]) == 2
        assert "no --message-queue option" in capsys.readouterr().err
        return
    report = asyncio.run(loadtest.load(2, 6.0, think=0.2, seed=10, data_dir=tmp_path,
                                       host_args=("--write-rate", "200"), probe=False,
                                       processes=2))
    print(report.summary())
    assert report.errors == [] and report.lost == 0
    assert report.moves > 10, "the tables hardly played"
    assert report.queue and report.store == "postgresql"
    assert [r["process"] for r in report.process_rows][:2] == ["host 1", "host 2"]
    assert report.process_rows[-1]["process"] == "redis-server"
    # each process's own figures, and the club's in all
    hosts, everything = report.per_process[:2], report.per_process[2]
    assert [r["process"] for r in report.per_process] == ["host 1", "host 2", "all"]
    assert sum(r["moves"] for r in hosts) == everything["moves"] == report.moves
    assert everything["cpu_s"] == pytest.approx(sum(r["cpu_s"] for r in hosts))
    assert everything["cpu_ms_per_move"] == pytest.approx(
        1000 * everything["cpu_s"] / report.moves)
    assert all(r["errors"] == 0 and r["lost"] == 0 and r["p50_ms"] <= r["p99_ms"]
               for r in report.per_process)


def test_the_load_clients_hold_off_full_collections_only_while_the_clock_runs():
    import gc

    before = gc.get_threshold()
    with script("loadtest").no_full_collections():
        assert gc.get_threshold()[:2] == before[:2] and gc.get_threshold()[2] >= 1_000_000
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_errors_are_grouped_by_kind():
    kinds = script("loadtest").error_kinds([
        "acd0a2ccf613: legal list at 2 for seq 3, 0 moves",
        "table 50 (b2b4beec059e): RuntimeError: join b2b4beec059e: store_unavailable",
        "b2b4beec059e: legal list at 11 for seq 12, 0 moves"])
    assert kinds == [("GAME: legal list at N for seq N, N moves", 2),
                     ("table N (GAME): RuntimeError: join GAME: store_unavailable", 1)]
