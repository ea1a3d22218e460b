"""The load test's phones: one `Seat` a Socket.IO client, four around a game in a `TableRun`,
and what they all saw in `Stats`."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import socketio

ACK_TIMEOUT = 30.0  # seconds an ack or a broadcast may take before it counts as an error


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, one per seat per move
    arrived_at: list[float] = field(default_factory=list)  # time.monotonic() of each
    acked: dict[tuple[str, int], str] = field(default_factory=dict)  # (game, seq) -> move
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0
    repeats: int = 0  # broadcasts a seat received twice
    host_down: bool = False  # set by the crash test: failures after this are expected
    #: per host process (its URL): the moves it acknowledged (game, seq), the latencies of
    #: the broadcasts it delivered to its sockets, and the errors its phones met
    by_process: dict[str, dict] = field(default_factory=dict)

    def process(self, url: str) -> dict:
        return self.by_process.setdefault(url, {"acked": [], "latencies": [], "errors": 0})

    def error(self, text: str, url: str | None = None) -> None:
        if not self.host_down:
            self.errors.append(text)
            if url is not None:
                self.process(url)["errors"] += 1


# -- one seat and one table -----------------------------------------------------------------
class Seat:
    """One phone: a Socket.IO client holding one seat's token."""

    def __init__(self, table: TableRun, number: int) -> None:
        self.table = table
        self.number = number
        self.token: str | None = None
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("event", self._on_event)
        self.sio.on("disconnect", self._on_disconnect)
        self.closing = False

    async def _on_event(self, data: dict) -> None:
        self.table.seen(self.number, data)

    async def _on_disconnect(self, *args: Any) -> None:
        if not self.closing:
            self.table.stats.error(f"{self.table.game_id} seat {self.number}: disconnected",
                                   self.table.url_of(self.number))

    async def connect(self, url: str) -> None:
        await self.sio.connect(url, transports=["websocket"], wait_timeout=ACK_TIMEOUT)

    async def call(self, event: str, payload: dict) -> dict:
        return await self.sio.call(event, payload, timeout=ACK_TIMEOUT)

    async def close(self) -> None:
        self.closing = True
        try:
            await self.sio.disconnect()
        except Exception:  # noqa: BLE001 - a dead host has already closed it
            pass


class TableRun:
    """Four seats around one game; a finished game is followed by a new one."""

    def __init__(self, index: int, stats: Stats, http: aiohttp.ClientSession, url: str,
                 think: float, rng: random.Random, *, urls: list[str] | None = None) -> None:
        self.index = index
        self.stats = stats
        self.http = http
        self.url = url
        self.urls = urls  # seat n's process (several processes), else every seat on `url`
        self.think = think
        self.rng = rng
        self.seats = [Seat(self, n) for n in (1, 2, 3, 4)]
        self.game_id: str | None = None
        self.state: dict | None = None
        self.sent: dict[int, float] = {}  # seq -> when the move was emitted
        self.arrived: dict[int, set[int]] = {}  # seq -> seats that have its broadcast
        self.all_arrived: dict[int, asyncio.Event] = {}
        self.expect: dict[int, int] = {}  # seat -> the seq its socket should get next
        self.seated = False  # connected, seats taken and joined by `sit_down`
        self.gave_up = False  # `seat_tables` could not seat it: it plays no part

    def url_of(self, seat: int) -> str:
        """The host process seat `seat`'s phone talks to."""
        return self.urls[seat - 1] if self.urls else self.url

    # -- the host's broadcasts ---------------------------------------------------------------
    def seen(self, seat: int, data: dict) -> None:
        if data.get("game_id") != self.game_id:
            return
        seq = data["event"]["seq"]
        now = time.monotonic()
        want = self.expect.get(seat)
        if want is not None:
            if seq > want:
                self.stats.error(f"{self.game_id} seat {seat}: event {seq} came before {want}",
                                 self.url_of(seat))
            elif seq < want:
                self.stats.repeats += 1
            self.expect[seat] = max(want, seq + 1)
        if seq in self.sent:
            self.stats.latencies.append(now - self.sent[seq])
            self.stats.arrived_at.append(now)
            self.stats.process(self.url_of(seat))["latencies"].append(now - self.sent[seq])
        got = self.arrived.setdefault(seq, set())
        got.add(seat)
        if self.state is None or data["state"]["seq"] >= self.state["seq"]:
            self.state = data["state"]
        if len(got) == 4 and seq in self.all_arrived:
            self.all_arrived[seq].set()

    # -- REST --------------------------------------------------------------------------------
    async def rest(self, method: str, path: str, *, seat: int = 1, **kw: Any) -> dict:
        """A REST call from seat `seat`'s phone (to its process)."""
        for _ in range(20):
            async with self.http.request(method, self.url_of(seat) + path, **kw) as r:
                body = await r.json(content_type=None)
                if r.status == 429:  # 400 phones behind one address: wait our turn
                    await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                    continue
                if r.status >= 400:
                    raise RuntimeError(f"{method} {path}: {r.status} {body}")
                return body
        raise RuntimeError(f"{method} {path}: still 429")

    async def new_game(self) -> None:
        for seat in self.seats:
            seat.token = None  # a crash between create and the claims leaves none half-set
        created = await self.rest("POST", "/api/games", json={
            "variant": "classic", "seats": [{"kind": "open"}] * 4})
        self.game_id = created["id"]
        for seat in self.seats:
            claimed = await self.rest("POST", f"/api/games/{self.game_id}/seats/{seat.number}",
                                      seat=seat.number,
                                      json={"name": f"T{self.index}S{seat.number}"})
            seat.token = claimed["token"]
        self.sent.clear()
        self.arrived.clear()
        self.all_arrived.clear()
        self.expect.clear()

    async def join(self) -> None:
        """Every seat joins the game's room with its token; the state comes with the ack."""
        for seat in self.seats:
            ack = await seat.call("join", {"game_id": self.game_id, "last_seq": 0,
                                           "tokens": [seat.token]})
            if "error" in ack:
                raise RuntimeError(f"join {self.game_id}: {ack['error']}")
            self.state = ack["state"]
            self.expect[seat.number] = ack["state"]["seq"] + 1

    async def unjoin(self) -> None:
        """Every seat leaves the finished game's room, as the phone client does when it goes
        back to the lobby or on to the next game."""
        for seat in self.seats:
            ack = await seat.call("unjoin", {"game_id": self.game_id})
            if "error" in ack:
                raise RuntimeError(f"unjoin {self.game_id}: {ack['error']}")

    # -- playing -----------------------------------------------------------------------------
    async def play_one(self) -> bool:
        """The seat to move plays a random legal placement; False once the game is over."""
        state = self.state
        if state["status"] == "finished" or state["to_move"] is None:
            return False
        number, seq = state["to_move"], state["seq"]
        if self.think:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        legal = await self.rest("GET", f"/api/games/{self.game_id}/legal", seat=number,
                                params={"seat": str(number), "seq": str(seq)})
        if legal["seq"] != seq or not legal["moves"]:
            self.stats.error(f"{self.game_id}: legal list at {legal['seq']} for seq {seq}, "
                             f"{len(legal['moves'])} moves", self.url_of(number))
            return False
        move = self.rng.choice(legal["moves"])["move"]
        done = self.all_arrived.setdefault(seq + 1, asyncio.Event())
        if len(self.arrived.get(seq + 1, ())) == 4:
            done.set()
        self.sent[seq + 1] = time.monotonic()
        seat = self.seats[number - 1]
        ack = await seat.call("move", {"game_id": self.game_id, "seat": number,
                                       "move": move, "seq": seq, "token": seat.token})
        if "error" in ack:
            self.stats.error(f"{self.game_id} seq {seq}: {ack['error']['code']}",
                             self.url_of(number))
            return False
        self.stats.acked[(self.game_id, ack["event"]["seq"])] = move
        self.stats.process(self.url_of(number))["acked"].append((self.game_id,
                                                                 ack["event"]["seq"]))
        try:
            await asyncio.wait_for(done.wait(), ACK_TIMEOUT)
        except TimeoutError:
            got = sorted(self.arrived.get(seq + 1, ()))
            self.stats.error(f"{self.game_id} seq {seq + 1}: broadcast reached only {got}",
                             self.url_of(number))
            return False
        self.sent.pop(seq + 1, None)
        self.arrived.pop(seq + 1, None)
        self.all_arrived.pop(seq + 1, None)
        return True

    async def sit_down(self, *, connect: bool = True) -> None:
        """Connect (unless told not to), take the four seats of a game and join it."""
        if connect:
            for seat in self.seats:
                await seat.connect(self.url_of(seat.number))
        if self.game_id is None or not all(s.token for s in self.seats):
            await self.new_game()
        await self.join()
        self.seated = True

    async def run(self, until: float, *, connect: bool = True, min_moves: int = 0) -> int:
        """Connect and sit down (unless `sit_down` has), then play games until the monotonic
        time `until` and at least `min_moves` acknowledged moves; the number of moves
        played."""
        played = 0
        if self.gave_up:
            return played
        try:
            if not self.seated:
                await self.sit_down(connect=connect)
            self.seated = False  # a later run sits down again
            while time.monotonic() < until or played < min_moves:
                if await self.play_one():
                    played += 1
                elif self.state and self.state["status"] == "finished":
                    self.stats.games_finished += 1
                    await self.unjoin()
                    await self.new_game()
                    await self.join()
                else:
                    break
        except (OSError, RuntimeError, TimeoutError, aiohttp.ClientError,
                socketio.exceptions.SocketIOError) as e:
            self.stats.error(f"table {self.index} ({self.game_id}): {type(e).__name__}: {e}")
        return played

    async def close(self) -> None:
        for seat in self.seats:
            await seat.close()
            seat.sio = socketio.AsyncClient(reconnection=False)  # fresh for a later run
            seat.sio.on("event", seat._on_event)
            seat.sio.on("disconnect", seat._on_disconnect)
            seat.closing = False


async def seat_tables(tables: list[TableRun], *, ramp: float = 0.0) -> None:
    """Every table connected, seated and joined (each starting up to `ramp` seconds late);
    a table that fails is reported and plays no part."""

    async def one(t: TableRun) -> None:
        if ramp:
            await asyncio.sleep(ramp * t.index / max(1, len(tables)))
        try:
            await t.sit_down()
        except (OSError, RuntimeError, TimeoutError, aiohttp.ClientError,
                socketio.exceptions.SocketIOError) as e:
            t.stats.error(f"table {t.index} ({t.game_id}): {type(e).__name__}: {e}")
            t.gave_up = True

    await asyncio.gather(*(one(t) for t in tables))


async def run_tables(tables: list[TableRun], seconds: float, *, ramp: float = 0.0) -> None:
    """Run every table for `seconds` (each starting up to `ramp` seconds late)."""
    until = time.monotonic() + seconds

    async def one(t: TableRun) -> None:
        if ramp:
            await asyncio.sleep(ramp * t.index / max(1, len(tables)))
        await t.run(until)

    await asyncio.gather(*(one(t) for t in tables))
    await asyncio.gather(*(t.close() for t in tables))
