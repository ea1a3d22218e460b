"""The bot pool: spawn-context worker processes that survive a worker being killed."""

from __future__ import annotations

import os
import queue
import signal

import pytest

from engine.cornerclaim import new_game
from server.bots import BotPool, choose_in_worker, default_workers
from tests.server_fixtures import DEADLINE


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
    game = new_game("duo")
    move, error = ask(pool, game.to_json())
    assert error is None
    game.play(1, move)  # the engine accepts it
    assert game.seq == 2


def test_the_pool_survives_a_killed_worker(pool):
    game = new_game("duo")
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
