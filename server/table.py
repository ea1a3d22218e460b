"""One live game on the host: its engine `Game` (the fold of the stored log), its seats and
credentials, and the transient things around it (a pending undo request).

Credentials are random `secrets.token_urlsafe` strings handed to the client once; the host
keeps only their SHA-256 (a slow KDF buys nothing for 256-bit random tokens) and compares
with `hmac.compare_digest`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine.core import Game
from engine.cornerclaim import State

from .errors import ApiError
from .store import GameRecord, SeatRecord

HUMAN_KINDS = ("open", "local")


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

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "seq": self.seq, "waiting": list(self.waiting),
                "accepted": list(self.accepted), "expires_in": self.expires_in}


class Summary(NamedTuple):
    """What a parked (finished, unloaded) game still answers without its `Game`."""

    seq: int
    is_over: bool
    left: frozenset[int]
    variant: str


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
    #: Views derived from the current seq only (legal lists, the board part of the state),
    #: built once and shared by every GET and broadcast until the game moves on.
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False)
    _memo_key: tuple[int, bool] = (0, False)
    loader: Callable[[], Game] | None = field(default=None, repr=False)
    _summary: Summary | None = field(default=None, repr=False)

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
        state = self._game.state
        self._summary = Summary(self._game.seq, state.is_over, frozenset(state.left),
                                state.variant.name)
        self._game = None
        self.forget()
        return True

    @property
    def seq(self) -> int:
        return self._summary.seq if self._game is None else self._game.seq

    @property
    def variant(self) -> str:
        return self._summary.variant if self._game is None else self._game.state.variant.name

    def _left(self) -> frozenset[int] | set[int]:
        return self._summary.left if self._game is None else self._game.state.left

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def state(self) -> State:
        return self.game.state

    def memo(self, key: Any, build: Callable[[], Any]) -> Any:
        """`build()` once per (seq, closed) and `key`; the caller holds `lock`.

        Only the current seq's entries are kept, so a table holds at most one turn's worth."""
        now = (self.game.seq, self.record.closed)
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
    def finished(self) -> bool:
        if self.record.closed:
            return True
        return self._summary.is_over if self._game is None else self._game.state.is_over

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
