"""One live game on the host: its engine `Game` (the fold of the stored log), its seats and
credentials, and the transient things around it (a pending undo request). Every fact about
the game's state comes from its game's `Rules` (`engine.registry`): the table holds a game of
any kind the same way.

Credentials are random `secrets.token_urlsafe` strings handed to the client once; the host
keeps only their SHA-256 (a slow KDF buys nothing for 256-bit random tokens) and compares
with `hmac.compare_digest`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine import registry
from engine.capabilities import Clocked, capability
from engine.core import Game
from engine.events import GameCreated
from engine.rules import Rules, is_practice
from server.errors import ApiError
from server.store import HUMAN_KINDS, GameRecord, SeatRecord


def new_token() -> tuple[str, str]:
    """A fresh token and its hash."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, token_hash: str | None) -> bool:
    if not token or not token_hash:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


@dataclass
class UndoRequest:
    """A takeback waiting for the other seated humans; dropped on any new event."""

    seat: int
    seq: int  # the game's seq when asked: the undo happens at exactly this seq or not at all
    waiting: list[int]
    accepted: list[int] = field(default_factory=list)
    expires_in: float = 30.0
    expires_at: float = 0.0  # wall-clock time it lapses (kept on a shared store's record)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "seq": self.seq, "waiting": list(self.waiting),
                "accepted": list(self.accepted), "expires_in": self.expires_in}

    def key(self) -> tuple[int, int, float]:
        """Which request this is (the same one as read again from the store)."""
        return self.seat, self.seq, self.expires_at

    def to_json(self) -> str:
        return json.dumps({**self.to_dict(), "expires_at": self.expires_at})

    @classmethod
    def from_json(cls, text: str) -> UndoRequest:
        body = json.loads(text)
        return cls(body["seat"], body["seq"], list(body["waiting"]), list(body["accepted"]),
                   body["expires_in"], body["expires_at"])


class Summary(NamedTuple):
    """What a parked (finished, unloaded) game still answers without its `Game`."""

    seq: int
    is_over: bool
    left: frozenset[int]
    closed: bool = False
    practice: bool = False


@dataclass
class Table:
    """A game and its seats. Hold `lock` while reading a consistent view or changing it.

    A finished game may be *parked* (`park`): its `Game` is dropped and a `Summary` kept for
    the lobby and the status checks; reading `game` (or `state`) folds it again from the
    store with `loader`."""

    record: GameRecord
    _game: Game | None
    seats: list[SeatRecord]
    lock: threading.RLock = field(default_factory=threading.RLock)
    undo_request: UndoRequest | None = None
    undo_timer: threading.Timer | None = None
    #: The timer armed at the game's next deadline (`Rules.deadline`: a clock's flag).
    clock_timer: threading.Timer | None = None
    #: Views derived from the current seq only (legal lists, the board part of the state),
    #: built once and shared by every GET and broadcast until the game moves on.
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False)
    _memo_key: tuple[int, bool] = (0, False)
    loader: Callable[[], Game] | None = field(default=None, repr=False)
    _summary: Summary | None = field(default=None, repr=False)
    _created: GameCreated | None = field(default=None, repr=False)
    #: The version of the record and seats this table holds (a shared store's `Head`).
    version: int = 0
    #: Which human seats the last scan found connected (several processes: `scan`).
    presence_seen: tuple[bool, ...] | None = None
    #: When the game last changed (host time): its latest event or seat change this process
    #: heard of; at start-up its latest stored event's time (0: the record's creation).
    changed_at: float = 0.0

    def __post_init__(self) -> None:
        if self._game is not None:
            self._created = self._game.events_since(0)[0]

    def __enter__(self) -> Table:
        """`with table:` holds its lock (`GameService.locked` on one process)."""
        self.lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.lock.release()

    @property
    def rules(self) -> Rules:
        """The rules of this table's game."""
        return registry.get(self.record.game)

    @property
    def created(self) -> GameCreated:
        """The log's first event: the game, variant, players' names and options."""
        if self._created is None:
            self._created = self.game.events_since(0)[0]
        return self._created

    @property
    def options(self) -> dict[str, Any]:
        return self.created.options

    @property
    def players(self) -> tuple[str, ...]:
        """The display names the log was created with, in seat order."""
        return self.created.players

    @property
    def game(self) -> Game:
        game = self._game
        if game is None:
            game = self._game = self.loader()
            self._summary = None
        return game

    @game.setter
    def game(self, game: Game) -> None:
        self._game = game
        self._summary = None

    @property
    def parked(self) -> bool:
        return self._game is None

    def park(self) -> bool:
        """Drop the finished game's `Game` (kept: a summary); the caller holds `lock`."""
        if self._game is None or self.loader is None or not self.finished \
                or self.undo_request is not None:
            return False
        rules, state = self._game.rules, self._game.state
        self._summary = Summary(self._game.seq, rules.is_over(state),
                                frozenset(rules.left(state)), self._game.closed is not None,
                                is_practice(rules, state))
        self._game = None
        self.forget()
        return True

    @property
    def seq(self) -> int:
        return self._summary.seq if self._game is None else self._game.seq

    @property
    def practice(self) -> bool:
        """Whether the game is played for practice (`is_practice`), parked or not."""
        if self._game is None:
            return self._summary.practice
        return is_practice(self._game.rules, self._game.state)

    @property
    def variant(self) -> str:
        return self.record.variant

    def _left(self) -> frozenset[int]:
        if self._game is None:
            return self._summary.left
        return self._game.rules.left(self._game.state)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def state(self) -> Any:
        """The game's current state (its rules' own value: read it through `rules`)."""
        return self.game.state

    @property
    def clock(self) -> Clocked | None:
        """The game's clock (`Clocked`), None if its game has none."""
        return capability(self.rules, Clocked)

    def deadline(self) -> float | None:
        """When the game's clock next makes something due (a flag falls); None if never."""
        clock = self.clock
        return None if clock is None else clock.deadline(self.state)

    @property
    def left(self) -> frozenset[int]:
        """Seats that left the table."""
        return self._left()

    @property
    def to_move(self) -> int | None:
        """The seat to move now; None once the game is over or closed."""
        if self.finished:
            return None
        return self.game.rules.to_move(self.game.state)

    def memo(self, key: Any, build: Callable[[], Any]) -> Any:
        """`build()` once per (seq, closed) and `key`; the caller holds `lock`.

        Only the current seq's entries are kept, so a table holds at most one turn's worth."""
        now = (self.game.seq, self.closed)
        if now != self._memo_key:
            self._memo.clear()
            self._memo_key = now
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = build()
            return value

    def forget(self) -> None:
        """Drop the memoised views (the live game was rebuilt at an earlier seq)."""
        self._memo.clear()
        self._memo_key = (0, False)

    def forget_undo(self) -> None:
        """Forget the pending takeback request without a word, its timer cancelled."""
        if self.undo_timer is not None:
            self.undo_timer.cancel()
        self.undo_request = self.undo_timer = None

    def seat(self, seat: int) -> SeatRecord:
        """The seat record; bad_seat (400) for a seat number the game does not have."""
        if isinstance(seat, int) and not isinstance(seat, bool) and 1 <= seat <= len(self.seats):
            return self.seats[seat - 1]
        raise ApiError("bad_seat", f"seat must be 1 to {len(self.seats)}", seat=seat)

    def unclaimed(self) -> list[int]:
        """Open seats nobody has claimed yet (seats that left do not count)."""
        left = self._left()
        return [s.seat for s in self.seats
                if s.kind == "open" and not s.token_hash and s.seat not in left]

    @property
    def over(self) -> bool:
        """Whether the game is over by its rules (a closed game may not be)."""
        if self._game is None:
            return self._summary.is_over
        return self._game.rules.is_over(self._game.state)

    @property
    def closed(self) -> bool:
        """Whether the host closed the game before its end (its log's `game_closed`; a store
        from before that event existed marks it on the game's record only)."""
        if self._game is None:
            return self.record.closed or self._summary.closed
        return self.record.closed or self._game.closed is not None

    @property
    def finished(self) -> bool:
        """Over, or closed by the host."""
        return self.closed or self.over

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        return "open" if self.unclaimed() else "running"

    def humans(self) -> list[int]:
        """Seats held by a person (claimed open or local) who has not left."""
        left = self._left()
        return [s.seat for s in self.seats if s.kind in HUMAN_KINDS and s.token_hash
                and s.seat not in left]

    def same_device(self, seat: int, other: int) -> bool:
        """Whether two seats are held by one device. The host hands every local seat's token
        to the device that created the game, and each claimed seat's token to the device
        that claimed it: local seats share the creator's device, a claimed seat is its own."""
        if seat == other:
            return True
        return self.seats[seat - 1].kind == "local" and self.seats[other - 1].kind == "local"

    def require_seat_token(self, seat: int, token: str | None) -> SeatRecord:
        """The seat if `token` is its token; 401 without a token, 403 with a wrong one."""
        record = self.seat(seat)
        if not token:
            raise ApiError("unauthorized", f"seat {seat} needs its token (Authorization: Bearer)")
        if not token_matches(token, record.token_hash):
            raise ApiError("forbidden", f"that token does not hold seat {seat}", seat=seat)
        return record

    def require_host(self, token: str | None) -> None:
        if not token:
            raise ApiError("unauthorized", "this needs the host token (Authorization: Bearer)")
        if not token_matches(token, self.record.host_hash):
            raise ApiError("forbidden", "that is not this game's host token")

    def seats_of(self, token: str | None) -> list[int]:
        """Every seat this token holds (a token holds one seat, local tokens likewise)."""
        return [s.seat for s in self.seats if token_matches(token, s.token_hash)]

    def is_host(self, token: str | None) -> bool:
        return token_matches(token, self.record.host_hash)
