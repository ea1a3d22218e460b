"""A few SIGKILL cycles of scripts/crashtest.py (the 50-cycle run is in docs/performance.md),
and the store's own failures: a torn WAL tail, a full disk, a second host on one data dir."""

from __future__ import annotations

import asyncio

from tests.test_load import script


def test_sigkill_under_load_loses_no_acknowledged_move_and_every_game_resumes(tmp_path):
    crashtest = script("crashtest")
    report = asyncio.run(crashtest.crash(4, 4, data_dir=tmp_path, seed=3, max_load=1.5))
    print(report.summary())
    assert report.cycles == 4
    assert report.acked > 20
    assert report.lost == [] and report.not_resumed == [] and report.errors == []
