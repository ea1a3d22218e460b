"""One host of two `cornerclaim serve` processes over a throwaway PostgreSQL and Redis, on
loopback: phones on either process play one game and each sees every event in order; a
computer seat moves exactly once; a process killed outright, Redis down for 5 s and a
PostgreSQL restart lose nothing acknowledged.

The two processes are started once for the module (each test has its own games); the
faults come last, the killed process last of all."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.server_fixtures import DEADLINE, host_answers, wait_for
from tests.socket_client import Client
from tests.throwaway import free_port

pytest.importorskip("psycopg")
pytest.importorskip("redis")

ROOT = Path(__file__).resolve().parent.parent
#: Short heartbeats and lock times, so a dead process's work is taken up within seconds. The
#: bot workers warm up as a served host's do, so on a cold numba cache a computer seat answers
#: with its quick search at once instead of compiling for longer than the lock time.
CONFIG = {"BOT_WARM_UP": True, "BOT_WORKERS": 1, "HEARTBEAT": 0.5, "PRESENCE_TTL": 3.0,
          "BOT_LOCK_TTL": 4.0, "WRITE_RATE": None}


class Host:
    """One `cornerclaim serve` process of the club's host."""

    def __init__(self, store: str | None, queue: str | None, data_dir: Path,
                 port: int | None = None, **config) -> None:
        """A club process on `store` and `queue`, or with both None a host of its own on
        `data_dir`'s SQLite; on `port` (a restart's) or a free one."""
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        shared = ["--store", store, "--message-queue", queue] if store else []
        cmd = [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--data-dir", str(data_dir), *shared,
               "--no-qr", "--no-mdns", "--bot-delay", "0"]
        self.log = data_dir / f"host-{self.port}.log"
        self.proc = subprocess.Popen(cmd, stdout=self.log.open("a"), stderr=subprocess.STDOUT,
                                     cwd=ROOT, env={**os.environ,
                                                    "CORNERCLAIM_CONFIG": json.dumps(
                                                        {**CONFIG, **config})})
        wait_for(self._up, f"the host on port {self.port}")

    def _up(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(self.log.read_text())
        return host_answers(self.url)

    def get(self, path: str) -> requests.Response:
        return requests.get(self.url + path, timeout=DEADLINE)

    def post(self, path: str, body: dict, token: str | None = None) -> requests.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return requests.post(self.url + path, json=body, headers=headers, timeout=DEADLINE)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(DEADLINE)
            except subprocess.TimeoutExpired:
                self.kill()


class Phone:
    """A phone at the table: a Socket.IO client on one process; `seqs` are the seqs of the
    events it was pushed, in the order they came."""

    def __init__(self, host: Host, game_id: str, tokens: list[str], last_seq: int = 0) -> None:
        self.game_id = game_id
        self.tokens = tokens
        self.seqs: list[int] = []
        self.states: list[int] = []
        self._lock = threading.Lock()
        self.sio = Client()
        self.sio.on("event", self._event)
        self.sio.on("state", self._state)
        self.connect(host, last_seq)

    def connect(self, host: Host, last_seq: int) -> dict:
        """Connect to `host` and join the game from `last_seq` (a reload, or a phone whose
        process died reaching the other); the events it missed come in the answer."""
        self.sio.connect(host.url, transports=["websocket"], wait_timeout=10)
        joined = self.call("join", {"game_id": self.game_id, "last_seq": last_seq,
                                    "tokens": self.tokens})
        assert joined["ok"], joined
        with self._lock:
            self.seqs.extend(e["seq"] for e in joined["events"] if e["seq"] > self.last)
        return joined

    @property
    def last(self) -> int:
        return self.seqs[-1] if self.seqs else 0

    def _event(self, msg: dict) -> None:
        with self._lock:
            seq = msg["event"]["seq"]
            if seq > self.last:  # an event both in a join's answer and pushed: seq tells
                self.seqs.append(seq)

    def _state(self, msg: dict) -> None:
        with self._lock:
            self.states.append(msg["state"]["seq"])

    def call(self, event: str, data: dict) -> dict:
        return self.sio.call(event, data, timeout=DEADLINE)

    def close(self) -> None:
        self.sio.disconnect()


@pytest.fixture(scope="module")
def club(postgres, redis_server, tmp_path_factory):
    """Two processes, A and B, on one fresh database and the session's Redis. A's computer
    seats wait 2 s before they think (holding the job), B's not at all."""
    store = postgres.create_database()
    data = tmp_path_factory.mktemp("club")
    hosts = []
    try:
        hosts.append(Host(store, redis_server.url, data, BOT_DELAY=2.0))
        hosts.append(Host(store, redis_server.url, data))
        yield hosts
    finally:
        for host in hosts:
            host.stop()
        postgres.drop_database(store)


def new_duo(host: Host, kinds=("open", "open")) -> tuple[str, dict[str, str]]:
    seats = [{"kind": k, **({"level": 1} if k == "computer" else {})} for k in kinds]
    r = host.post("/api/games", {"variant": "duo", "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()["id"], dict(r.json()["tokens"])


def first_legal(host: Host, game_id: str, seat: int) -> tuple[str, int]:
    body = host.get(f"/api/games/{game_id}/legal?seat={seat}").json()
    return body["moves"][0]["move"], body["seq"]


def play_rest(host: Host, game_id: str, seat: int, token: str) -> requests.Response:
    move, seq = first_legal(host, game_id, seat)
    return host.post(f"/api/games/{game_id}/moves", {"seat": seat, "move": move, "seq": seq},
                     token)


def log_of(host: Host, game_id: str) -> list[dict]:
    return host.get(f"/api/games/{game_id}/events?since=0").json()["events"]


def test_phones_on_two_processes_play_one_game_and_each_sees_every_event_in_order(club):
    a, b = club
    gid, _ = new_duo(a)
    # a game made on A is claimed on both: B loads it from the store on first use
    t1 = a.post(f"/api/games/{gid}/seats/1", {"name": "Ann"}).json()["token"]
    t2 = b.post(f"/api/games/{gid}/seats/2", {"name": "Bob"}).json()["token"]
    assert {g["id"] for g in b.get("/api/games").json()["games"]} >= {gid}
    ann, bob, watcher = Phone(a, gid, [t1]), Phone(b, gid, [t2]), Phone(b, gid, [])
    try:
        state = b.get(f"/api/games/{gid}").json()
        assert [s["connected"] for s in state["seats"]] == [True, True]  # presence is shared
        for turn in range(12):
            phone, seat, token, host = ((ann, 1, t1, a), (bob, 2, t2, b))[turn % 2]
            move, seq = first_legal(host, gid, seat)
            ack = phone.call("move", {"game_id": gid, "seat": seat, "move": move, "seq": seq,
                                      "token": token})
            assert ack["ok"], ack
        final = 13
        for phone in (ann, bob, watcher):
            wait_for(lambda p=phone: p.last == final, "every push")
            assert phone.seqs == list(range(1, final + 1))
        assert log_of(a, gid) == log_of(b, gid)
    finally:
        for phone in (ann, bob, watcher):
            phone.close()


def test_a_computer_seat_moves_exactly_once(club):
    a, b = club
    gid, tokens = new_duo(a, ("local", "computer"))
    watcher = Phone(b, gid, [])
    try:
        for _ in range(4):  # the person plays on B, the computer answers from A or B
            played = play_rest(b, gid, 1, tokens["1"])
            assert played.status_code == 201
            # the person's move's own seq: B's computer may have answered before a GET here
            seq = played.json()["event"]["seq"]
            try:
                wait_for(lambda s=seq: a.get(f"/api/games/{gid}").json()["seq"] == s + 1,
                         "the computer's move")
            except AssertionError:  # what each process's bot runner did with the game
                jobs = {h.port: [line for line in h.log.read_text().splitlines()
                                 if gid in line] for h in club}
                raise AssertionError(f"no computer move after seq {seq}: {jobs}") from None
        # a second computation of a move is refused by the store's seq check: never stored
        events = log_of(a, gid)
        assert [e.get("seat") for e in events[1:]] == [1, 2] * 4
        wait_for(lambda: watcher.last == 9, "every push")
        assert watcher.seqs == list(range(1, 10))
    finally:
        watcher.close()


def test_play_over_rest_goes_on_without_redis_and_sockets_resync_after(club, redis_server):
    a, b = club
    gid, tokens = new_duo(a, ("local", "local"))
    ann = Phone(a, gid, [tokens["1"], tokens["2"]])
    try:
        assert play_rest(a, gid, 1, tokens["1"]).status_code == 201
        wait_for(lambda: ann.last == 2, "the first push")
        with redis_server.down():
            started = time.monotonic()
            for seat, host in ((2, b), (1, a), (2, b)):
                r = play_rest(host, gid, seat, tokens[str(seat)])
                assert r.status_code == 201, r.text
            assert b.get(f"/api/games/{gid}").json()["seq"] == 5
            time.sleep(max(0.0, 5.0 - (time.monotonic() - started)))
        # the socket on A missed B's moves: it is sent the state once A listens again
        wait_for(lambda: ann.states and ann.states[-1] == 5, "the resync")
        assert play_rest(b, gid, 1, tokens["1"]).status_code == 201
        wait_for(lambda: ann.last == 6, "pushes again after the outage")
    finally:
        ann.close()


def test_commands_during_a_postgresql_restart_get_503_and_change_nothing(club, postgres):
    a, b = club
    gid, tokens = new_duo(a, ("local", "local"))
    assert play_rest(a, gid, 1, tokens["1"]).status_code == 201
    move, seq = first_legal(b, gid, 2)
    postgres.stop()
    try:
        for host in (a, b):
            r = host.post(f"/api/games/{gid}/moves", {"seat": 2, "move": move, "seq": seq},
                          tokens["2"])
            assert r.status_code == 503
            assert r.json()["error"]["code"] == "store_unavailable"
    finally:
        postgres.start()
    assert [e["seq"] for e in log_of(b, gid)] == [1, 2]
    r = b.post(f"/api/games/{gid}/moves", {"seat": 2, "move": move, "seq": seq}, tokens["2"])
    assert r.status_code == 201, r.text
    assert a.get(f"/api/games/{gid}").json()["seq"] == 3


def test_a_process_killed_mid_game_loses_nothing_acknowledged(club, redis_server):
    a, b = club
    gid, tokens = new_duo(a, ("open", "computer"))
    t1 = a.post(f"/api/games/{gid}/seats/1", {"name": "Ann"}).json()["token"]
    ann = Phone(a, gid, [t1])
    acked = []
    try:
        for turn in range(2):
            wait_for(lambda t=turn: a.get(f"/api/games/{gid}").json()["seq"] == 1 + 2 * t,
                     "Ann's turn")
            move, seq = first_legal(a, gid, 1)
            ack = ann.call("move", {"game_id": gid, "seat": 1, "move": move, "seq": seq,
                                    "token": t1})
            assert ack["ok"], ack
            acked.append(ack["event"])
        # A took the computer's reply to Ann's second move and waits before thinking
        job = f"cornerclaim:once:bot:{gid}:4"
        assert redis(redis_server, "EXISTS", job) == b":1"
        killed = time.monotonic()
        a.kill()
        wait_for(lambda: not ann.sio.connected, "the socket to drop")
        ann.sio = Client()
        ann.sio.on("event", ann._event)
        ann.sio.on("state", ann._state)
        joined = ann.connect(b, ann.last)  # the phone reaches the other process
        # at 4 unless reaching B took longer than A's lock (4 s): then B has already played
        assert joined["seats"] == [1] and joined["state"]["seq"] in (4, 5)
        # B takes the job up once A's lock has expired (4 s), and plays it once
        wait_for(lambda: b.get(f"/api/games/{gid}").json()["seq"] == 5, "B plays on")
        assert time.monotonic() - killed > 2.0
        events = log_of(b, gid)
        for event in acked:
            assert events[event["seq"] - 1] == event
        assert [e.get("seat") for e in events[1:]] == [1, 2, 1, 2]
        move, seq = first_legal(b, gid, 1)
        assert ann.call("move", {"game_id": gid, "seat": 1, "move": move, "seq": seq,
                                 "token": t1})["ok"]
        wait_for(lambda: ann.last >= seq + 1, "pushes from B")
        assert ann.seqs == list(range(1, ann.last + 1))
    finally:
        ann.close()


def redis(server, *command: str) -> bytes:
    """One Redis command's raw answer (RESP), without a client library."""
    import socket

    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall((f"*{len(command)}\r\n" + "".join(
            f"${len(c)}\r\n{c}\r\n" for c in command)).encode())
        return s.recv(1024).strip()
