"""What the processes of one host share through Redis besides Flask-SocketIO's message queue:
presence (which sockets hold which seats), locks for work that must happen once, and a
heartbeat that keeps both alive.

Used when `serve --message-queue redis://…` joins several processes into one host; a single
process keeps its presence in memory (`server.realtime.presence.Presence`) and needs no lock.

- **Presence** (`RedisPresence`, the same interface as `Presence`). Per seat a sorted set
  `cornerclaim:seat:<game>:<seat>` of `<process>:<sid>` members scored with the time the
  process last vouched for that socket. Each process re-scores its own sockets every
  `HEARTBEAT` seconds; a member older than `PRESENCE_TTL` no longer counts, and the key
  itself expires, so the sockets of a process that died disappear on their own. When a
  seat's last socket goes, `cornerclaim:away:<game>:<seat>` keeps the time (the grace
  period before the seat may be declared left counts from it, on every process).
- **Once** (`Once.take`): `SET cornerclaim:once:<job> <process> NX PX <ttl>`. The process
  that sets the key does the job (a computer's move at a seq, a clock's flag, a deal); the
  others skip it. The key expires, so if its holder dies, another process's scan
  (`GameService.scan`) takes the job up after `ttl`. The lock only saves duplicate work:
  what makes a move happen once is the store's seq check, so while Redis is unreachable
  every process may try, and one append wins.
- **Processes** (`cornerclaim:processes`, a sorted set of heartbeats): whether another
  process of the host is alive (a process that starts while others run does not restart
  the clocks of their games).

Redis being unreachable never stops play: presence falls back to what this process knows
of its own sockets, `take` says yes, and until a heartbeat reaches Redis again nothing else
asks it. Pushes then stay on the process that made them; when the message queue listens
again (`server.realtime.ordered.OrderedRedisManager.on_resubscribed`) the socket layer sends
each of this process's rooms the current state.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable

import redis
from redis.exceptions import RedisError, ResponseError

from server.realtime.presence import HeldSeats, Key

log = logging.getLogger(__name__)

PREFIX = "cornerclaim:"
#: Seconds between heartbeats, and after which a socket nobody vouched for is gone.
HEARTBEAT = 3.0
PRESENCE_TTL = 10.0
#: Seconds the time a seat went away is kept.
AWAY_TTL = 24 * 3600
#: Seconds a game's presence read for a state is reused (`RedisPresence.connected_many`).
#: The scan reads every running game's presence afresh each HEARTBEAT, and a change is
#: heard at once (a socket here, another process's `presence` push), so a state pushed after
#: a move reads Redis only for a game the scan has not seen yet or one whose presence changed.
PRESENCE_CACHE = 2 * HEARTBEAT


#: Delete a lock only if this process still holds it.
_RELEASE = """if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1]) else return 0 end"""


def connect(url: str, name: str | None = None) -> redis.Redis:
    """A Redis client for `url` that gives up quickly when the server is away; its
    connections carry `name` (CLIENT SETNAME) if given."""
    return redis.Redis.from_url(url, socket_connect_timeout=1.0, socket_timeout=2.0,
                                client_name=name)


class _Warned:
    """Whether Redis failed since the last heartbeat reached it (logged once). While it is
    down nothing but the heartbeat asks it: a Redis that does not answer at all would
    otherwise cost every request its connect timeout."""

    def __init__(self) -> None:
        self.down = False

    def failed(self, what: str, error: Exception) -> None:
        if not self.down:
            log.warning("redis unreachable (%s): %s; going on without it", what, error)
        self.down = True


class RedisPresence:
    """`Presence` kept in Redis so every process of a host sees every phone."""

    def __init__(self, client: redis.Redis, process: str, *, ttl: float = PRESENCE_TTL,
                 clock: Callable[[], float] = time.time, warned: _Warned | None = None) -> None:
        self.client = client
        self.process = process
        self.ttl = ttl
        self._clock = clock
        self._started = clock()
        self._lock = threading.Lock()
        self._held = HeldSeats()  # this process's sockets
        self._warned = warned or _Warned()
        #: game -> (monotonic time read, {seat key: connected}); `connected_many`'s reuse
        self._read: dict[str, tuple[float, dict[Key, bool]]] = {}
        self._changes: dict[str, int] = {}  # game -> presence changes heard (`changed`)

    @staticmethod
    def _seat_key(key: Key) -> str:
        return f"{PREFIX}seat:{key[0]}:{key[1]}"

    @staticmethod
    def _away_key(key: Key) -> str:
        return f"{PREFIX}away:{key[0]}:{key[1]}"

    def _member(self, sid: str) -> str:
        return f"{self.process}:{sid}"

    def changed(self, game_id: str) -> None:
        """The game's presence changed (here, or another process pushed `presence`): the
        next read goes to Redis."""
        with self._lock:
            self._read.pop(game_id, None)
            self._changes[game_id] = self._changes.get(game_id, 0) + 1

    def connect(self, sid: str, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        with self._lock:
            self._held.add(sid, key)
        if self._warned.down:
            return  # the heartbeat writes it once Redis is back
        try:
            pipe = self.client.pipeline()
            pipe.zadd(self._seat_key(key), {self._member(sid): self._clock()})
            pipe.pexpire(self._seat_key(key), int(self.ttl * 1000))
            pipe.delete(self._away_key(key))
            pipe.execute()
        except RedisError as e:
            self._warned.failed("presence", e)
        finally:
            self.changed(game_id)  # after the write: a read from now on sees it

    def disconnect(self, sid: str) -> set[str]:
        with self._lock:
            keys = self._held.drop(sid)
        try:
            return self._release(sid, keys)
        finally:
            for game_id in {k[0] for k in keys}:
                self.changed(game_id)  # after the write: a read from now on sees it

    def release(self, sid: str, game_id: str) -> bool:
        with self._lock:
            keys = self._held.drop_game(sid, game_id)
        try:
            return bool(self._release(sid, keys))
        finally:
            if keys:
                self.changed(game_id)

    def _release(self, sid: str, keys: set[Key]) -> set[str]:
        """Remove this socket from its seats; the games where a seat lost its last one."""
        if not keys:
            return set()
        now = self._clock()
        keys = sorted(keys)
        if self._warned.down:
            return {k[0] for k in keys if not self._local(k)}
        try:
            pipe = self.client.pipeline()
            for key in keys:
                pipe.zrem(self._seat_key(key), self._member(sid))
                pipe.zcount(self._seat_key(key), now - self.ttl, "+inf")
            counts = pipe.execute()[1::2]
            pipe = self.client.pipeline()
            changed = set()
            for key, count in zip(keys, counts, strict=True):
                if not count:
                    pipe.set(self._away_key(key), repr(now), px=AWAY_TTL * 1000)
                    changed.add(key[0])
            pipe.execute()
            return changed
        except RedisError as e:
            self._warned.failed("presence", e)
            return {k[0] for k in keys if not self._local(k)}

    def _local(self, key: Key) -> bool:
        with self._lock:
            return self._held.holds(key)

    def forget(self, game_id: str) -> None:
        """A finished game: its keys in Redis expire by themselves; drop what was read."""
        with self._lock:
            self._read.pop(game_id, None)
            self._changes.pop(game_id, None)

    def connected(self, game_id: str, seat: int) -> bool:
        key = (game_id, seat)
        if self._warned.down:
            return self._local(key)
        try:
            return bool(self.client.zcount(self._seat_key(key), self._clock() - self.ttl, "+inf"))
        except RedisError as e:
            self._warned.failed("presence", e)
            return self._local(key)

    def connected_many(self, keys: list[Key], *, fresh: bool = False) -> dict[Key, bool] | None:
        """`connected` for many seats in one round trip; None while Redis is unreachable.

        What a game's seats read is reused for PRESENCE_CACHE seconds (a state pushed after
        every move of a busy table asks the same), unless its presence changed meanwhile:
        a socket of this process came or went, or another process pushed the game's
        `presence` (`changed`). `fresh` always asks Redis (the scan that finds the seats
        of a process that died), and what it reads is reused in turn."""
        if not keys:
            return {}
        if self._warned.down:
            return None
        games = {k[0] for k in keys}
        started = time.monotonic()
        with self._lock:
            if not fresh:
                known: dict[Key, bool] = {}
                for game_id in games:
                    read = self._read.get(game_id)
                    if read is not None and started - read[0] <= PRESENCE_CACHE:
                        known.update(read[1])
                if all(k in known for k in keys):
                    return {k: known[k] for k in keys}
            changes = {g: self._changes.get(g, 0) for g in games}
        low = self._clock() - self.ttl
        try:
            pipe = self.client.pipeline(transaction=False)
            for key in keys:
                pipe.zcount(self._seat_key(key), low, "+inf")
            counts = pipe.execute()
        except RedisError as e:
            self._warned.failed("presence", e)
            return None
        found = {key: bool(n) for key, n in zip(keys, counts, strict=True)}
        with self._lock:
            if len(self._read) > 4096:  # games gone quiet
                self._read = {g: r for g, r in self._read.items()
                              if started - r[0] <= PRESENCE_CACHE}
            for game_id in games:
                if self._changes.get(game_id, 0) == changes[game_id]:  # none while reading
                    self._read[game_id] = (started, {k: v for k, v in found.items()
                                                     if k[0] == game_id})
        return found

    def away_for(self, game_id: str, seat: int) -> float:
        """Seconds since the seat lost its last socket on any process (0 while connected).
        A socket of a process that died counts from its last heartbeat. While Redis is
        unreachable: 0 (no seat may be declared left on what this process cannot check)."""
        key = (game_id, seat)
        now = self._clock()
        if self._warned.down:
            return 0.0
        try:
            pipe = self.client.pipeline()
            pipe.zrevrange(self._seat_key(key), 0, 0, withscores=True)
            pipe.get(self._away_key(key))
            latest, away = pipe.execute()
        except RedisError as e:
            self._warned.failed("presence", e)
            return 0.0
        last_seen = latest[0][1] if latest else None
        if last_seen is not None and last_seen > now - self.ttl:
            return 0.0
        since = max(float(away) if away else self._started, last_seen or 0.0)
        return max(0.0, now - since)

    def heartbeat(self) -> None:
        """Vouch again for this process's sockets (raises RedisError if Redis is away)."""
        now = self._clock()
        with self._lock:
            members = [(self._member(sid), key) for sid, key in self._held.items()]
        pipe = self.client.pipeline()
        for member, key in members:
            pipe.zadd(self._seat_key(key), {member: now})
            pipe.pexpire(self._seat_key(key), int(self.ttl * 1000))
        pipe.execute()


class Once:
    """Jobs that one process of the host does: whoever sets the job's key first, for `ttl`."""

    def __init__(self, client: redis.Redis, process: str, warned: _Warned | None = None) -> None:
        self.client = client
        self.process = process
        self._warned = warned or _Warned()
        self._release = client.register_script(_RELEASE)

    def take(self, job: str, ttl: float) -> bool:
        """Whether this process does `job` (True too while Redis is unreachable: the seq
        check alone then keeps a move from being made twice)."""
        if self._warned.down:
            return True
        try:
            return bool(self.client.set(PREFIX + "once:" + job, self.process, nx=True,
                                        px=max(1, int(ttl * 1000))))
        except RedisError as e:
            self._warned.failed("lock", e)
            return True

    def drop(self, job: str) -> None:
        """Give the job up before its time (it failed): another process may take it."""
        if self._warned.down:
            return
        try:
            self._release(keys=[PREFIX + "once:" + job], args=[self.process])
        except RedisError as e:
            self._warned.failed("lock", e)


class Cluster:
    """This process's link to the host's Redis: presence, locks, and the loop that beats the
    heart and runs the periodic `ticks` (the service's scan for due work)."""

    def __init__(self, url: str, *, heartbeat: float = HEARTBEAT,
                 presence_ttl: float = PRESENCE_TTL) -> None:
        self.url = url
        self.process = uuid.uuid4().hex[:12]
        self.client = connect(url, PREFIX + self.process)
        self.heartbeat_every = heartbeat
        self._warned = _Warned()
        self.presence = RedisPresence(self.client, self.process, ttl=presence_ttl,
                                      warned=self._warned)
        self.once = Once(self.client, self.process, self._warned)
        #: Called on every heartbeat, Redis or not (the service's scan).
        self.ticks: list[Callable[[], None]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def others_alive(self) -> bool:
        """Whether another process of this host is up: it has beaten its heart lately and
        its connection to Redis is open. A killed process's connections close with it, so a
        process that crashed a moment ago (this one, before a quick restart) is not taken
        for a live one while its last heartbeat is still fresh."""
        if self._warned.down:
            return True  # unknown: do not restart clocks others may be running
        try:
            now = time.time()
            beat = {p.decode() for p in self.client.zrangebyscore(
                PREFIX + "processes", now - self.presence.ttl, "+inf")} - {self.process}
            if not beat:
                return False
            connected = self._connected()
        except RedisError as e:
            self._warned.failed("processes", e)
            return True  # unknown: do not restart clocks others may be running
        return connected is None or any(PREFIX + p in connected for p in beat)

    def _connected(self) -> set[str] | None:
        """The names of the clients connected to Redis now, or None if Redis will not say
        (CLIENT LIST refused to this user): then a fresh heartbeat alone counts."""
        try:
            return {c.get("name", "") for c in self.client.client_list()}
        except ResponseError:
            return None

    def beat(self) -> None:
        """One heartbeat: this process and its sockets are alive (processes silent for
        long are dropped from the list)."""
        now = time.time()
        try:
            pipe = self.client.pipeline()
            pipe.zadd(PREFIX + "processes", {self.process: now})
            pipe.zremrangebyscore(PREFIX + "processes", 0, now - 60 * self.presence.ttl)
            pipe.execute()
            self.presence.heartbeat()
        except RedisError as e:
            self._warned.failed("heartbeat", e)
            return
        if self._warned.down:
            self._warned.down = False
            log.info("redis reachable again")

    def start(self) -> Cluster:
        self.beat()
        self._thread = threading.Thread(target=self._loop, daemon=True, name="cluster")
        self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.wait(self.heartbeat_every):
            self.beat()
            for tick in list(self.ticks):
                run_safely(tick)

    def stop(self) -> None:
        self._stop.set()
        try:
            self.client.zrem(PREFIX + "processes", self.process)
        except RedisError:
            pass


def run_safely(callback: Callable[[], None]) -> None:
    """Call `callback`; log what it raises."""
    try:
        callback()
    except Exception:
        log.exception("cluster callback failed")
