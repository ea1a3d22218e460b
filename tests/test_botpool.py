"""The bot pool: spawn-context worker processes that survive a worker being killed."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine import registry
from engine.core import Game
from server.bots import worker as worker_module
from server.bots.pool import BotPool, default_workers
from server.bots.worker import Behind, Feed, choose_in_worker, hint_in_worker, start_worker
from server.host import host_of
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import DEADLINE, alive, bearer, wait_for


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


def kernels_after_warm_up() -> set:
    """Runs in a worker: wait for its warm-ups to end, then list its compiled kernels."""
    from engine.cornerclaim.ai import compiled_kernels

    for done in worker_module._warm_ups.values():
        done.wait()
    return compiled_kernels()


def test_warm_starts_every_worker_and_each_compiles_the_search_in_the_background():
    p = BotPool(2)
    try:
        p.warm()
        deadline = time.monotonic() + DEADLINE
        while len(p.worker_pids()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(p.worker_pids()) == 2  # started by warm(), before any real job
        answers: queue.Queue = queue.Queue()
        for _ in range(2):
            p.submit(kernels_after_warm_up, done=lambda r, e: answers.put((r, e)))
        for _ in range(2):
            kernels, error = answers.get(timeout=DEADLINE)
            assert error is None and kernels  # the initializer started the warm-up
    finally:
        p.shutdown()


@pytest.fixture
def warming(monkeypatch):
    """This process as a worker whose warm-ups have not ended (set an event to end one)."""
    events = {rules.game: threading.Event() for rules in registry.games()}
    monkeypatch.setattr(worker_module, "_warm_ups", events)
    return events


@pytest.fixture
def nothing_compiled(monkeypatch):
    """Corner Claim's compiled search raises if anything builds one."""
    from engine.cornerclaim import ai

    def refuse(*args, **kwargs):
        raise AssertionError("the compiled search was called")

    monkeypatch.setattr(ai, "FlatSearch", refuse)


def duo_after(plies: int) -> Game:
    game = Game.new("cornerclaim", "duo")
    for _ in range(plies):
        state = game.state
        game.play(state.to_move, game.rules.legal(state, state.to_move)[0]["move"])
    return game


@pytest.mark.parametrize("level", [3, 4, 5, 6])
def test_a_move_asked_while_the_warm_up_compiles_is_the_quick_players(level, warming,
                                                                      nothing_compiled):
    game = duo_after(1)
    move = choose_in_worker(game.to_json(), 2, level, 7)
    game.play(2, move)  # a legal placement, and no compiled search was built
    assert game.state.to_move == 1


def test_a_hint_asked_while_the_warm_up_compiles_is_the_quick_players(warming,
                                                                      nothing_compiled):
    game = duo_after(2)
    move = hint_in_worker(game.to_json(), 1)
    game.play(1, move)


def test_once_the_warm_up_has_ended_moves_come_from_the_search(warming, monkeypatch):
    from engine.cornerclaim import ai

    searched = []
    real = ai.FlatSearch
    monkeypatch.setattr(ai, "FlatSearch", lambda *a, **k: searched.append(1) or real(*a, **k))
    game = duo_after(1)
    warming["cornerclaim"].set()
    assert choose_in_worker(game.to_json(), 2, 3, 7) == game.rules.choose_move(
        game.state, 2, level=3, seed=7)
    assert searched


def test_a_game_without_a_quick_player_waits_for_its_warm_up(warming, monkeypatch):
    rules = registry.get("corners")
    done = warming["corners"]
    asked = []
    real = rules.choose_move
    monkeypatch.setattr(rules, "choose_move",
                        lambda *a, **k: asked.append(done.is_set()) or real(*a, **k))
    threading.Timer(0.2, done.set).start()
    game = Game.new("corners", "classic-3x3")
    choose_in_worker(game.to_json(), rules.to_move(game.state), 1, 7)
    assert asked == [True]


def answer_while_warming(log_json: str, seat: int, level: int) -> tuple[bool, str | None]:
    """Runs in a worker: its move for `seat`, and whether its warm-up was still running
    after the move came (so it was while the move was chosen)."""
    move = choose_in_worker(log_json, seat, level, 7)
    return not worker_module._warm_ups["cornerclaim"].is_set(), move


def test_a_fresh_install_worker_answers_while_it_compiles(monkeypatch, tmp_path):
    """On an empty numba cache (a fresh install) the worker's warm-up compiles for tens of
    seconds; a level-3 move asked meanwhile is answered by the quick player (a legal move),
    not after the warm-up."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))  # the spawned worker's
    p = BotPool(1)
    try:
        p.warm()
        game = duo_after(1)
        answers: queue.Queue = queue.Queue()
        p.submit(answer_while_warming, game.to_json(), 2, 3,
                 done=lambda r, e: answers.put((r, e)))
        (still_warming, move), error = answers.get(timeout=DEADLINE)
        assert error is None and still_warming
        game.play(2, move)
    finally:
        p.shutdown()


def test_a_failing_warm_up_is_logged_and_the_worker_still_serves(monkeypatch, caplog):
    def broken() -> float:
        raise RuntimeError("no compiler")

    monkeypatch.setattr(registry.get("cornerclaim"), "warm_up", broken)
    monkeypatch.setattr(worker_module, "_warm_ups", {})
    start_worker(True, ["no.such.module"])  # must not raise: that would break the pool
    for done in worker_module._warm_ups.values():  # the warm-ups run in threads
        assert done.wait(DEADLINE)
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



def test_the_runner_logs_each_job_it_takes_and_finishes_with_the_game_and_seq(make_app,
                                                                              caplog):
    caplog.set_level("INFO", logger="server.bots.pool")
    client = make_app().test_client()
    r = client.post("/api/games", json={
        "variant": "duo",
        "seats": [{"kind": "computer", "level": 1}, {"kind": "local", "name": "Wanda"}]})
    assert r.status_code == 201, r.json
    gid = r.json["id"]
    wait_for(lambda: client.get(f"/api/games/{gid}").json["seq"] == 2, "the computer's move")
    wait_for(lambda: f"game {gid} seq 1: finished the computer's job" in caplog.text,
             "the runner's log line")
    lines = [m for m in caplog.messages if m.startswith(f"game {gid} seq 1:")]
    assert lines[0] == f"game {gid} seq 1: took the computer's job (seat 1)"
    moved = client.get(f"/api/games/{gid}/events?since=1").json["events"][0]["move"]
    assert lines[-1] == f"game {gid} seq 1: finished the computer's job (seat 1: {moved})"


def test_the_runner_logs_a_job_it_drops(make_app, caplog):
    caplog.set_level("INFO", logger="server.bots.pool")
    app = make_app(BOT_DELAY=0.2)
    client = app.test_client()
    r = client.post("/api/games", json={
        "variant": "duo",
        "seats": [{"kind": "computer", "level": 1}, {"kind": "local", "name": "Wanda"}]})
    gid = r.json["id"]
    # the game ends before the computer's delayed job starts: the job is dropped, not played
    closed = client.post(f"/api/games/{gid}/close", headers=bearer(r.json["host_token"]))
    assert closed.status_code == 200, closed.json
    wait_for(lambda: f"game {gid} seq 1: dropped the computer's job" in caplog.text,
             "the runner's log line")


def test_a_worker_fed_the_events_since_its_last_job_plays_as_one_given_the_whole_log(
        monkeypatch):
    """A job sends the events after the worker's last job for the game: the worker folds
    them onto the game it kept and plays the move it would play from the whole log."""
    monkeypatch.setattr(worker_module, "_games", type(worker_module._games)())
    game = Game.new("corners", "classic-3x3")
    rules = game.rules
    first = Feed("g1", 0, tuple(game.events))
    assert choose_in_worker(first, 1, 2, 7) == choose_in_worker(game.to_json(), 1, 2, 7)
    for _ in range(6):
        state = game.state
        game.play(rules.to_move(state), rules.legal(state, rules.to_move(state))[0]["move"])
    seat = rules.to_move(game.state)
    fed = Feed("g1", 1, tuple(game.events_since(1)))
    assert choose_in_worker(fed, seat, 2, 7) == choose_in_worker(game.to_json(), seat, 2, 7)
    assert worker_module._games["g1"].state == game.state
    with pytest.raises(Behind):  # it holds the game at seq 7, not 3
        choose_in_worker(Feed("g1", 3, tuple(game.events_since(3))), seat, 2, 7)
    with pytest.raises(Behind):  # a game it never saw
        hint_in_worker(Feed("g2", 1, tuple(game.events_since(1))), seat)


def test_a_job_carries_the_new_events_never_the_log_and_a_worker_that_kept_none_gets_it(
        make_app, monkeypatch):
    """The computer's jobs send a `Feed` (no log as text): after the first, only the events
    since the last job. A worker that kept no game (a new one) is sent the whole log."""
    app = make_app(BOT_DELAY=0)
    pool = host_of(app).bots.pool
    sent: list = []
    real = pool.submit

    def recording(fn, *args, done):
        sent.append((fn, args))
        real(fn, *args, done=done)

    monkeypatch.setattr(pool, "submit", recording)
    client = app.test_client()
    r = client.post("/api/games", json={
        "variant": "duo",
        "seats": [{"kind": "computer", "level": 1}, {"kind": "local", "name": "Wanda"}]})
    gid, token = r.json["id"], r.json["tokens"]["2"]
    for seq in (2, 4):
        wait_for(lambda s=seq: client.get(f"/api/games/{gid}").json["seq"] == s,
                 "the computer's move")
        move = client.get(f"/api/games/{gid}/legal?seat=2").json["moves"][0]["move"]
        r = client.post(f"/api/games/{gid}/moves", json={"seat": 2, "move": move, "seq": seq},
                        headers=bearer(token))
        assert r.status_code == 201, r.json
    wait_for(lambda: client.get(f"/api/games/{gid}").json["seq"] == 6, "the computer's move")
    jobs = [args for fn, args in sent if fn is choose_in_worker]
    assert len(jobs) == 3
    for args in jobs:
        assert isinstance(args[0], Feed) and not any(isinstance(a, str) for a in args)
    assert [(f.since, [e.seq for e in f.events]) for f, *_ in jobs] == [
        (0, [1]), (1, [2, 3]), (3, [4, 5])]
    # the pool's workers are replaced (none keeps the game): the next job is the whole log
    for pid in pool.worker_pids():
        os.kill(pid, signal.SIGKILL)
    game = host_of(app).service.table(gid).game
    assert pool.call_game(choose_in_worker, gid, game, 6, 2, 1, 7)
    assert [(f.since, [e.seq for e in f.events]) for fn, (f, *_) in sent[-2:]] == [
        (5, [6]), (0, [1, 2, 3, 4, 5, 6])]
