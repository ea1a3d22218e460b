"""The bot pool: spawn-context worker processes that survive a worker being killed."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import registry
from engine.core import Game
from server.bots.pool import BotPool, choose_in_worker, default_workers, start_worker
from tests.server_fixtures import DEADLINE, alive


@pytest.fixture
def pool():
    p = BotPool(1)
    yield p
    p.shutdown()


def ask(pool: BotPool, log_json: str, seat: int = 1):
    answers: queue.Queue = queue.Queue()
    pool.submit(choose_in_worker, log_json, seat, 1, 7, done=lambda r, e: answers.put((r, e)))
    return answers.get(timeout=DEADLINE)


def test_a_worker_folds_the_log_and_names_a_legal_placement(pool):
    game = Game.new("cornerclaim", "duo")
    move, error = ask(pool, game.to_json())
    assert error is None
    game.play(1, move)  # the engine accepts it
    assert game.seq == 2


def test_the_pool_survives_a_killed_worker(pool):
    game = Game.new("cornerclaim", "duo")
    assert ask(pool, game.to_json())[1] is None
    for pid in pool.worker_pids():
        os.kill(pid, signal.SIGKILL)
    move, error = ask(pool, game.to_json())
    assert error is None and move
    assert pool.worker_pids()  # a fresh worker took over


def test_a_worker_error_is_reported_not_retried(pool):
    result, error = ask(pool, "not a log")
    assert result is None and error is not None


def test_the_pool_leaves_a_core_for_the_web_server():
    assert default_workers() == max(1, (os.cpu_count() or 2) - 1)
    assert BotPool().workers == default_workers()


def test_warm_starts_every_worker_and_each_has_compiled_the_search_before_its_first_job():
    from engine.cornerclaim.ai import compiled_kernels

    p = BotPool(2)
    try:
        p.warm()
        deadline = time.monotonic() + DEADLINE
        while len(p.worker_pids()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(p.worker_pids()) == 2  # started by warm(), before any real job
        answers: queue.Queue = queue.Queue()
        for _ in range(2):
            p.submit(compiled_kernels, done=lambda r, e: answers.put((r, e)))
        for _ in range(2):
            kernels, error = answers.get(timeout=DEADLINE)
            assert error is None and kernels  # the initializer ran before this job
    finally:
        p.shutdown()


def test_a_failing_warm_up_is_logged_and_the_worker_still_serves(monkeypatch, caplog):
    def broken() -> float:
        raise RuntimeError("no compiler")

    monkeypatch.setattr(registry.get("cornerclaim"), "warm_up", broken)
    start_worker(True, ["no.such.module"])  # must not raise: that would break the pool
    assert "could not import" in caplog.text
    assert "warm-up failed for cornerclaim" in caplog.text


def test_the_workers_end_with_a_killed_host(tmp_path):
    """A host killed outright (no shutdown) leaves no bot worker waiting for jobs."""
    script = (
        "import sys, time\n"
        "from server.bots.pool import BotPool\n"
        "pool = BotPool(2, warm=False)\n"
        "pool.warm()\n"
        "while len(pool.worker_pids()) < 2:\n"
        "    time.sleep(0.05)\n"
        "print(' '.join(map(str, pool.worker_pids())), flush=True)\n"
        "time.sleep(600)\n"
    )
    host = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[1])
    try:
        workers = [int(pid) for pid in host.stdout.readline().split()]
        assert len(workers) == 2
        host.send_signal(signal.SIGKILL)
        host.wait()
        end = time.monotonic() + DEADLINE
        while any(alive(pid) for pid in workers):
            assert time.monotonic() < end, "a bot worker outlived its host"
            time.sleep(0.05)
    finally:
        host.kill()
        host.wait()

