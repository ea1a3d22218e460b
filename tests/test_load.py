"""A CI-sized load test: scripts/loadtest.py against a real `cornerclaim serve` subprocess.

It checks correctness only — no error ack, no missing broadcast, no disconnect, every
acknowledged move in the SQLite file — never speed: CI machines are shared. The figures at
100 tables are in docs/performance.md ("Host under load")."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

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
    report = asyncio.run(loadtest.load(20, 20.0, think=0.3, seed=7, data_dir=tmp_path,
                                       host_args=("--write-rate", "200")))
    print(report.summary())
    assert report.errors == []
    assert report.moves > 100, "the tables hardly played"
    assert report.lost == 0
    assert len(report.rss_samples_mb) > 3 and report.rss_peak_mb > 0
    assert len(report.p99_windows_ms) > 3
    assert report.disk["commits"] == 300 and 0 < report.disk["p50_ms"] <= report.disk["max_ms"]
    assert not list(tmp_path.glob("disk-probe*")), "the probe cleans up after itself"


def test_phones_play_on_while_computer_games_keep_the_bot_pool_busy(tmp_path):
    """Correctness beside a busy bot pool: the phones lose nothing and the bots move too.
    (How promptly the phones are answered then is measured in docs/performance.md.)"""
    loadtest = script("loadtest")
    report = asyncio.run(loadtest.load(5, 15.0, think=0.3, seed=8, data_dir=tmp_path,
                                       host_args=("--write-rate", "200"), bot_tables=3,
                                       bot_level=2, probe=False))
    print(report.summary())
    assert report.errors == [] and report.lost == 0
    assert report.moves > 20, "the phones hardly played"
    assert report.bot_moves > 10, "the computer games did not move"
