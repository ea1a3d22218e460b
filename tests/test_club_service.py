"""Two host processes' services on one PostgreSQL database and one Redis, in this process:
what must happen once happens once (a move offered twice at one seq, a deal, a clock's flag,
a takeback request's timeout), what one process knows the other knows (a takeback request,
a claimed seat, the phones at the table), and a process that stops beating its heart loses
its sockets."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from engine import registry
from engine.core import Game
from server.errors import ApiError
from server.store import GameRecord, RecordConflict, SeatRecord, SeqConflict
from server.tables.service import GameService
from tests.server_fixtures import wait_for

pytest.importorskip("psycopg")
pytest.importorskip("redis")
from server.realtime.shared import Cluster  # noqa: E402
from server.store.postgres import PostgresStore  # noqa: E402


@pytest.fixture
def processes(pg_url, redis_url):
    """processes(n, **service options) -> n services, each with its own store connection and
    Redis link (heartbeat and scan every 0.2 s), as n host processes would have."""
    made: list[tuple[GameService, Cluster]] = []

    def make(n: int = 2, **options) -> list[GameService]:
        services = []
        for _ in range(n):
            cluster = Cluster(redis_url, heartbeat=0.2, presence_ttl=1.0)
            service = GameService(PostgresStore(pg_url), shared=True,
                                  presence=cluster.presence, once=cluster.once,
                                  others_alive=cluster.others_alive, **options)
            cluster.ticks.append(service.scan)
            cluster.start()
            made.append((service, cluster))
            services.append(service)
        return services

    yield make
    for service, cluster in made:
        cluster.stop()
        service.stop()
        service.store.close()


def heard(service: GameService) -> list[tuple[str, dict]]:
    """What the service announces from now on (its socket layer would push it)."""
    said: list[tuple[str, dict]] = []
    service.listeners.append(lambda news: said.append((news.kind, news.payload)))
    return said


def duo(service: GameService, kinds=("local", "computer")) -> tuple[str, dict[str, str]]:
    seats = [{"kind": k, **({"level": 1} if k == "computer" else {})} for k in kinds]
    made = service.create("duo", seats)
    return made["id"], made["tokens"]


def stored(service: GameService, game_id: str) -> list[dict]:
    return service.store.events_since(game_id, 0)


def test_a_computers_move_offered_by_two_processes_at_one_seq_is_played_once(processes):
    one, two = processes()
    gid, tokens = duo(one)
    first = one.legal(gid, 1)["moves"][0]["move"]
    one.move(gid, 1, first, 1, tokens["1"])
    moves = [m["move"] for m in two.legal(gid, 2)["moves"][:2]]  # two loads it from the store
    start = threading.Barrier(2)
    results: dict[int, dict | None] = {}

    def offer(i: int, service: GameService) -> None:
        start.wait()
        try:
            results[i] = service.bot_move(gid, 2, moves[i], 2)
        except Exception as e:  # a seq conflict answered as such
            results[i] = {"error": repr(e)}

    threads = [threading.Thread(target=offer, args=(i, s)) for i, s in enumerate((one, two))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    played = [r for r in results.values() if r and "seq" in r]
    assert len(played) == 1 and played[0]["seq"] == 3
    log = stored(one, gid)
    assert [e["seq"] for e in log] == [1, 2, 3] and log[2]["move"] == played[0]["move"]
    assert one.state(gid)["seq"] == two.state(gid)["seq"] == 3


def test_a_takeback_asked_on_one_process_is_answered_on_the_other(processes):
    one, two = processes()
    gid, _ = duo(one, ("open", "open"))
    ann = one.claim(gid, 1, "Ann")["token"]
    bob = two.claim(gid, 2, "Bob")["token"]
    one.move(gid, 1, one.legal(gid, 1)["moves"][0]["move"], 1, ann)
    asked = one.undo(gid, 1, 2, ann)
    assert asked["event"] is None and asked["undo_request"]["waiting"] == [2]
    assert two.state(gid)["undo_request"]["waiting"] == [2]
    with pytest.raises(ApiError) as again:
        two.undo(gid, 1, 2, ann)
    assert again.value.code == "undo_pending"
    answered = two.undo_answer(gid, 2, True, bob)
    assert answered["event"]["type"] == "move_taken_back"
    assert one.state(gid)["seq"] == 3 and one.state(gid)["undo_request"] is None


def test_a_takeback_request_times_out_once_for_the_host(processes):
    one, two = processes(undo_timeout=0.5)
    gid, _ = duo(one, ("open", "open"))
    ann = one.claim(gid, 1, "Ann")["token"]
    two.claim(gid, 2, "Bob")
    one.move(gid, 1, one.legal(gid, 1)["moves"][0]["move"], 1, ann)
    said, said_two = heard(one), heard(two)
    one.undo(gid, 1, 2, ann)
    wait_for(lambda: two.state(gid)["undo_request"] is None
             and one.state(gid)["undo_request"] is None, "the request to lapse")
    time.sleep(0.6)  # a second timeout would have been announced by now
    timeouts = [p for kind, p in said + said_two
                if kind == "undo_request" and p.get("reason") == "timeout"]
    assert len(timeouts) == 1


def test_a_seat_claimed_on_one_process_is_taken_on_the_other(processes):
    one, two = processes()
    gid, _ = duo(one, ("open", "open"))
    assert two.state(gid)["seats"][0]["claimed"] is False
    one.claim(gid, 1, "Ann")
    with pytest.raises(ApiError) as taken:
        two.claim(gid, 1, "Zoe")
    assert taken.value.code == "seat_taken"
    head = one.store.head(gid)
    with pytest.raises(RecordConflict):  # a write against a version read before the claim
        one.store.update_seat(gid, SeatRecord(1, "open", "Zoe", None, "x"),
                              version=head.version - 1)


def test_a_flag_falls_once_with_two_processes_watching_the_clock(processes):
    one, two = processes()
    made = one.create("classic-3x3", [{"kind": "local"}, {"kind": "local"}], game="corners",
                      clock={"reserve_s": 1, "increment_s": 0})
    gid, tokens = made["id"], made["tokens"]
    two.state(gid)  # both hold the game, both armed its clock
    one.move(gid, 1, "c3-d3", 1, tokens["1"])
    wait_for(lambda: one.state(gid)["status"] == two.state(gid)["status"] == "finished",
             "black's flag to fall")
    time.sleep(0.5)
    assert [e["type"] for e in stored(one, gid)[2:]] == ["corners_flag_fell"]


def test_a_deal_due_when_two_processes_start_is_drawn_once(processes, pg_url):
    rules = registry.get("marbles")
    options = rules.variants["2p"].option_values({}, computer=False)
    fresh = Game.new("marbles", "2p", ("Ann", "Bob"), options)
    store = PostgresStore(pg_url)
    gid = uuid.uuid4().hex[:12]
    store.create_game(GameRecord(gid, time.time(), "2p", "h", game="marbles"),
                      [SeatRecord(1, "local"), SeatRecord(2, "local")],
                      fresh.events[0].to_dict())
    store.close()
    started: list[GameService] = []
    threads = [threading.Thread(target=lambda: started.extend(processes(1))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wait_for(lambda: all(s.state(gid)["seq"] == 2 for s in started), "the deal")
    log = stored(started[0], gid)
    assert [e["type"] for e in log] == ["game_created", "marbles_round_dealt"]


def test_a_phone_on_one_process_is_seen_on_the_other_until_its_process_stops(redis_url):
    one = Cluster(redis_url, heartbeat=0.2, presence_ttl=1.0).start()
    two = Cluster(redis_url, heartbeat=0.2, presence_ttl=1.0).start()
    try:
        one.presence.connect("sid-a", "g1", 1)
        assert two.presence.connected("g1", 1) and two.presence.away_for("g1", 1) == 0.0
        time.sleep(1.5)  # beyond the ttl: the heartbeat keeps it
        assert two.presence.connected("g1", 1)
        assert two.others_alive() and one.others_alive()
        one.stop()  # the process dies: nobody vouches for its socket any more
        wait_for(lambda: not two.presence.connected("g1", 1), "the socket to expire")
        assert two.presence.away_for("g1", 1) > 0.0
        assert not two.others_alive()
        two.presence.connect("sid-b", "g1", 2)
        assert two.presence.disconnect("sid-b") == {"g1"}
        assert 0.0 < two.presence.away_for("g1", 2) < 1.0
    finally:
        one.stop()
        two.stop()


def test_a_game_finished_on_one_process_counts_on_the_others_ladder(pg_url, redis_url,
                                                                     tmp_path):
    from server.app import create_app, shutdown_app

    config = {"STORE": pg_url, "MESSAGE_QUEUE": redis_url, "START_BOTS": False,
              "HEARTBEAT": 0.2, "WRITE_RATE": None}
    one = create_app({**config, "DATA_DIR": str(tmp_path / "one")})
    two = create_app({**config, "DATA_DIR": str(tmp_path / "two")})
    try:
        a, b = one.test_client(), two.test_client()
        seats = [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}]
        game = a.post("/api/games", json={"variant": "duo", "seats": seats}).json
        auth = {"Authorization": f"Bearer {game['tokens']['1']}"}
        assert a.post(f"/api/games/{game['id']}/moves", headers=auth, json={
            "seat": 1, "move": "e9,d10,e10,f10,e11", "seq": 1}).status_code == 201
        assert a.post(f"/api/games/{game['id']}/leave", json={"seat": 2}, headers={
            "Authorization": f"Bearer {game['tokens']['2']}"}).status_code == 200
        # two hears of the game at its next scan, and reads it as the store has it
        wait_for(lambda: [p["name"] for p in b.get("/api/players").json["players"]]
                 == ["Ann", "Bo"], "the other process's ladder")
        assert b.get(f"/api/games/{game['id']}").json["status"] == "finished"
    finally:
        shutdown_app(one)
        shutdown_app(two)


def test_the_phones_of_a_process_that_died_are_announced_gone_by_another(processes):
    one, two = processes()
    gid, tokens = duo(one, ("local", "local"))
    one.join("sid-1", gid, [tokens["1"], tokens["2"]])
    assert [s["connected"] for s in two.state(gid)["seats"]] == [True, True]
    said = heard(one), heard(two)
    wait_for(lambda: two.table_set.held()[gid].presence_seen == (True, True), "a scan of the seats")
    one.presence.heartbeat = lambda: None  # the process hangs: nobody vouches for its socket

    def pushes() -> list[dict]:
        return [p for each in said for kind, p in each if kind == "presence"]

    wait_for(pushes, "the presence push")
    time.sleep(0.5)  # the other process's scan has seen it too by now
    assert len(pushes()) == 1  # announced once for the host
    assert [(s["connected"], s["away"]) for s in pushes()[0]["seats"]] == [(False, True)] * 2


def test_a_rematch_asked_on_two_processes_at_once_is_one_game(processes):
    one, two = processes()
    gid, tokens = duo(one, ("local", "local"))
    one.leave(gid, 2, tokens["2"])  # a two-seat game: the other seat wins
    stale = two.store.head(gid)
    two.state(gid)  # two holds the finished game as it is now
    first = one.rematch(gid, tokens["1"])
    assert first["created"]
    real_head = two.store.head
    asked = []

    def head_before_the_rematch(game_id):  # two has not seen one's rematch yet
        asked.append(game_id)
        return stale if len(asked) == 1 else real_head(game_id)

    two.store.head = head_before_the_rematch
    second = two.rematch(gid, tokens["2"])
    assert second == {"id": first["id"], "created": False}
    open_games = [g for g in two.lobby() if g["status"] != "finished"]
    assert [g["id"] for g in open_games] == [first["id"]]  # the one made twice is cancelled


def test_two_phones_claiming_one_seat_on_two_processes_at_once_one_gets_it(processes):
    one, two = processes()
    gid, _ = duo(one, ("open", "open"))
    stale = two.store.head(gid)
    two.state(gid)
    one.claim(gid, 1, "Ann")
    two.store.head = lambda game_id, real=two.store.head, calls=[]: (
        calls.append(1) or (stale if len(calls) == 1 else real(game_id)))
    with pytest.raises(ApiError) as taken:  # two acted on the seat as it saw it: open
        two.claim(gid, 1, "Zoe")
    assert taken.value.code == "seat_taken"
    assert [s.name for s in one.store.seats(gid)] == ["Ann", None]


def test_a_process_started_later_knows_the_takeback_request_waiting(processes):
    one, = processes(1)
    gid, _ = duo(one, ("open", "open"))
    ann = one.claim(gid, 1, "Ann")["token"]
    bob = one.claim(gid, 2, "Bob")["token"]
    one.move(gid, 1, one.legal(gid, 1)["moves"][0]["move"], 1, ann)
    one.undo(gid, 1, 2, ann)
    late, = processes(1)  # starts with the game's request on the record
    assert late.table_set.held()[gid].undo_request.waiting == [2]
    assert late.undo_answer(gid, 2, True, bob)["event"]["type"] == "move_taken_back"


def test_a_move_at_the_seq_a_process_holds_skips_the_catch_up_and_the_store_still_decides(
        pg_url):
    """A move acting on the seq the table holds goes straight to the append: a seat claimed
    on another process meanwhile is found by a catch-up after the check refused, and a move
    another process made first is refused by the append's seq check, changing nothing."""
    one, two = (GameService(PostgresStore(pg_url), shared=True) for _ in range(2))
    try:
        gid, _ = duo(one, ("open", "open"))
        assert two.state(gid)["seq"] == 1  # two holds the game from before the claims
        ann = one.claim(gid, 1, "Ann")["token"]
        one.claim(gid, 2, "Bo")
        first, other = (m["move"] for m in one.legal(gid, 1)["moves"][:2])
        # two's table is at seq 1, with both seats still open: the token is known after a
        # catch-up
        assert two.move(gid, 1, first, 1, ann)["seq"] == 2
        # one's table is still at seq 1: its check passes, the store refuses (the host
        # answers it as stale_seq, server.errors.from_store)
        with pytest.raises(SeqConflict):
            one.move(gid, 1, other, 1, ann)
        assert [e["move"] for e in stored(one, gid) if e["type"].endswith("placed")] == [first]
        assert one.state(gid)["seq"] == 2
    finally:
        for service in (one, two):
            service.stop()
            service.store.close()


def test_a_legal_list_at_the_seq_the_phone_shows_skips_the_catch_up_and_one_behind_it_catches_up(
        pg_url):
    """A phone asks for the legal moves at the seq it was pushed: a process whose table is
    there answers without reading the store's head; one whose table is behind that seq (the
    phone got the event from another process first) catches up and answers for it."""
    one, two = (GameService(PostgresStore(pg_url), shared=True) for _ in range(2))
    try:
        gid, tokens = duo(one, ("local", "local"))
        assert two.state(gid)["seq"] == 1
        heads: list[str] = []
        real_head = two.store.head
        two.store.head = lambda game_id: heads.append(game_id) or real_head(game_id)
        assert two.legal(gid, 1, seq=1)["seq"] == 1
        assert heads == []
        first = one.legal(gid, 1)["moves"][0]["move"]
        one.move(gid, 1, first, 1, tokens["1"])
        answer = two.legal(gid, 2, seq=2)  # two's table is still at seq 1
        assert heads == [gid] and answer["seq"] == 2 and answer["moves"]
        assert two.legal(gid, 2)["seq"] == 2 and len(heads) == 2  # no seq: caught up as ever
    finally:
        for service in (one, two):
            service.stop()
            service.store.close()


def test_an_event_pushed_by_another_process_is_folded_in_without_reading_the_store(pg_url):
    """The queue hands a process the events other processes appended: the table's next one
    is folded in (the next command or legal list on that seq reads nothing); a gap, a table
    a command holds, or an event that does not fold is left to the catch-up."""
    one, two = (GameService(PostgresStore(pg_url), shared=True) for _ in range(2))
    try:
        gid, tokens = duo(one, ("local", "local"))
        assert two.state(gid)["seq"] == 1
        reads: list[str] = []
        for name in ("head", "events_since", "game"):
            real = getattr(two.store, name)
            setattr(two.store, name, lambda *a, real=real, name=name: reads.append(name)
                    or real(*a))
        moves = []
        for seat, seq in ((1, 1), (2, 2), (1, 3)):
            move = one.legal(gid, seat)["moves"][0]["move"]
            moves.append(one.move(gid, seat, move, seq, tokens[str(seat)]))
        said = heard(two)
        assert not two.learn(gid, moves[1])  # a gap: seq 3 on a table at seq 1
        assert two.learn(gid, moves[0]) and two.learn(gid, moves[1])
        assert [kind for kind, _ in said] == ["learned", "learned"]  # never "appended"
        assert not two.learn(gid, moves[1])  # already there
        assert two.legal(gid, 1, seq=3)["seq"] == 3 and reads == []
        bad = {**moves[2], "move": "not a move"}
        assert not two.learn(gid, bad) and two.legal(gid, 1, seq=3)["seq"] == 3
        table = two.table(gid)
        with table.lock:
            held = threading.Thread(target=lambda: reads.append(two.learn(gid, moves[2])))
            held.start()
            held.join()
        assert reads == [False]  # the command's lock is not waited for
        assert two.learn(gid, moves[2]) and two.state(gid)["seq"] == 4
        assert not two.learn("no-such-game", moves[2])
        assert one.state(gid) == {**two.state(gid)}
    finally:
        for service in (one, two):
            service.stop()
            service.store.close()


def test_a_games_presence_read_is_reused_until_a_socket_comes_or_goes(redis_url, monkeypatch):
    """A state after every move reuses its seats' presence read (by the scan every heartbeat,
    or by a state before); a socket of this process, or another process's `presence` push
    (`changed`), makes the next read go to Redis; the scan for dead processes always asks
    Redis, and the states after it reuse what it read."""
    import server.realtime.shared as shared

    monkeypatch.setattr(shared, "PRESENCE_CACHE", 600.0)  # no read lapses during the test
    one = Cluster(redis_url, heartbeat=60, presence_ttl=5.0)
    two = Cluster(redis_url, heartbeat=60, presence_ttl=5.0)
    asked: list[int] = []
    real = two.client.pipeline
    two.client.pipeline = lambda *a, **kw: asked.append(1) or real(*a, **kw)
    keys = [("g1", 1), ("g1", 2)]
    try:
        assert two.presence.connected_many(keys) == {("g1", 1): False, ("g1", 2): False}
        one.presence.connect("sid-a", "g1", 1)  # another process: nothing heard yet
        assert two.presence.connected_many(keys)[("g1", 1)] is False and len(asked) == 1
        two.presence.changed("g1")  # its presence push came through the queue
        assert two.presence.connected_many(keys)[("g1", 1)] is True and len(asked) == 2
        assert two.presence.connected_many(keys[:1]) == {("g1", 1): True} and len(asked) == 2
        two.presence.connect("sid-b", "g1", 2)  # a socket of this process
        assert two.presence.connected_many(keys) == {("g1", 1): True, ("g1", 2): True}
        one.presence.disconnect("sid-a")
        assert two.presence.connected_many(keys, fresh=True)[("g1", 1)] is False
        n = len(asked)
        assert two.presence.connected_many(keys)[("g1", 1)] is False and len(asked) == n
        two.presence.disconnect("sid-b")
        assert two.presence.connected_many(keys) == {("g1", 1): False, ("g1", 2): False}
        n = len(asked)
        assert two.presence.connected_many([("g2", 1)]) == {("g2", 1): False}
        assert len(asked) == n + 1  # another game: not read yet
        two.presence.forget("g1")
        assert two.presence.connected_many(keys) and len(asked) == n + 2
    finally:
        one.stop()
        two.stop()
