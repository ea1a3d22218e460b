"""Seats and who sits at them: claiming an open seat, the host seating or removing a
computer, leaving (and the computer that plays on for a leaver when `Rules.replacement_level`
names a level), declaring an away seat left, and which seats have a phone connected."""

from __future__ import annotations

import logging
import time
from typing import Any

from engine.capabilities import Replacement, capability
from server.errors import ApiError
from server.store import EventStore, SeatRecord
from server.tables import views
from server.tables.coordination import JOB_TTL, Coordination
from server.tables.events import Notify, PresenceChanged, StateChanged
from server.tables.table import Table, new_token
from server.tables.tableset import TableSet
from server.tables.writes import WritePath, doing

log = logging.getLogger(__name__)


class Seating:
    def __init__(self, store: EventStore, coord: Coordination, tables: TableSet,
                 writes: WritePath, presence: Any, notify: Notify, *,
                 away_grace: float) -> None:
        self.store = store
        self.coord = coord
        self.tables = tables
        self.writes = writes
        self.presence = presence
        self.notify = notify
        self.away_grace = away_grace

    def _seat(self, table: Table, updated: SeatRecord) -> None:
        """Store a seat's change (at the version read, on a shared store), then announce it."""
        self.coord.write_record(table, self.store.update_seat, table.id, updated)
        table.seats[updated.seat - 1] = updated
        self.notify(StateChanged(table))

    def claim(self, game_id: str, seat: int, name: str) -> dict[str, Any]:
        """Claim an open seat with a display name; returns the seat's token. (On a shared
        store, a claim another process saved first makes this one seat_taken, or, if that
        was another change of the game, is tried once more on the game as it is now.)"""
        try:
            return self._claim(game_id, seat, name)
        except ApiError as e:
            if e.code != "stale_seq":
                raise
            return self._claim(game_id, seat, name)

    def _claim(self, game_id: str, seat: int, name: str) -> dict[str, Any]:
        token, token_hash = new_token()

        def decide(table: Table) -> None:
            record = table.seat(seat)
            if record.kind != "open":
                raise ApiError("not_open", f"seat {seat} is a {record.kind} seat, not open")
            if record.token_hash or seat in table.left:
                raise ApiError("seat_taken", f"seat {seat} is already taken")
            if table.finished:
                raise ApiError("closed", "this game has finished")
            self._seat(table, SeatRecord(seat, "open", name, None, token_hash))

        return self.writes.command(game_id, decide, clock=False, answer=lambda table, _: {
            "seat": seat, "token": token, "game_id": game_id})

    def seat_computer(self, game_id: str, seat: int, level: int,
                      token: str | None) -> dict[str, Any]:
        def decide(table: Table) -> None:
            table.require_host(token)
            record = table.seat(seat)
            if table.finished:
                raise ApiError("closed", "this game has finished")
            if seat not in table.unclaimed():
                raise ApiError("not_open", f"seat {seat} is not an open seat waiting for a "
                               "player", seat=seat)
            levels = sorted(table.rules.levels)
            if level not in levels:
                raise ApiError("invalid_request", f"{table.rules.title} has no computer "
                               f"level {level}", levels=levels)
            self._seat(table, SeatRecord(seat, "computer", record.name, level, None))

        return self.writes.command(game_id, decide, clock=False, answer=self._game_body)

    def remove_computer(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        def decide(table: Table) -> None:
            table.require_host(token)
            record = table.seat(seat)
            if record.kind != "computer":
                raise ApiError("not_computer", f"seat {seat} is not a computer")
            if table.finished:
                raise ApiError("closed", "this game has finished")
            if seat in table.left:
                raise ApiError("seat_left", f"seat {seat} has left: the computer plays it "
                               "for the rest of the game")
            self._seat(table, SeatRecord(seat, "open", None, None, None))

        return self.writes.command(game_id, decide, clock=False, answer=self._game_body)

    def _game_body(self, table: Table, event: dict[str, Any] | None) -> dict[str, Any]:
        return views.game_body(table, self.presence)

    # -- leaving ---------------------------------------------------------------------------
    def leave(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        def check(table: Table) -> None:
            table.require_seat_token(seat, token)
            if table.closed:
                raise ApiError("closed", "the host closed this game")

        return self._leave(game_id, seat, check)

    def declare_left(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        """The host or another seated player declares an away seat left after the grace."""
        presence = self.presence

        def check(table: Table) -> None:
            record = table.seat(seat)
            if not table.is_host(token):
                others = [s for s in table.seats_of(token) if s != seat]
                if not token:
                    raise ApiError("unauthorized", "this needs a seat or host token")
                if not any(s in table.humans() for s in others):
                    raise ApiError("forbidden", "only the host or another seated player may")
            if record.kind == "computer":
                raise ApiError("not_away", f"seat {seat} is a computer; remove it instead")
            unclaimed = seat in table.unclaimed()
            if not unclaimed and presence.connected(game_id, seat):
                raise ApiError("not_away", f"seat {seat} is connected")
            away = presence.away_for(game_id, seat)
            if not unclaimed and away < self.away_grace:
                wait = round(self.away_grace - away, 1)
                raise ApiError("grace_period", f"seat {seat} has been away {away:.0f} s; "
                               f"wait {wait:.0f} s more", seconds_left=wait)
            if table.closed:
                raise ApiError("closed", "the host closed this game")
            if unclaimed and len(table.seats) == 2:
                raise ApiError("never_claimed", f"seat {seat} was never claimed: in a "
                               "two-seat game declaring it left would hand the other seat "
                               "the win. Seat a computer there, or close the game (it is "
                               "then cancelled)", status=409, seat=seat)

        return self._leave(game_id, seat, check)

    def _leave(self, game_id: str, seat: int, check: Any) -> dict[str, Any] | None:
        """`seat` leaves (`check` allowing), then a computer plays on for it if its game
        says so."""
        def answer(table: Table, event: dict[str, Any] | None) -> dict[str, Any] | None:
            self.replace_leaver(table, seat)
            return event

        return self.writes.command(game_id, doing(lambda g: g.leave(seat, now=time.time())),
                                   check=check, answer=answer)

    def replace_leavers(self, table: Table) -> None:
        """Every seat that left and plays on is a computer seat (after a restart)."""
        for seat in sorted(table.left):
            self.replace_leaver(table, seat)

    def replace_leaver(self, table: Table, seat: int) -> None:
        """Seat a computer for `seat`, which left, if its game goes on with it played
        (`Rules.replacement_level`): stored, then announced. The caller holds the lock."""
        if table.finished:
            return
        replacement = capability(table.rules, Replacement)
        level = None if replacement is None else replacement.replacement_level(table.state, seat)
        record = table.seat(seat)
        if level is None or (record.kind == "computer" and record.level == level):
            return
        try:
            self._seat(table, SeatRecord(seat, "computer", record.name, level, None))
        except Exception:  # the leave stands; the next start-up seats the computer
            log.exception("game %s: could not seat a computer for seat %s", table.id, seat)

    # -- presence --------------------------------------------------------------------------
    def join(self, sid: str, game_id: str, tokens: list[str]) -> list[int]:
        """A socket joins a game; returns the seats its tokens hold (none for a spectator)."""
        with self.coord.locked(game_id) as table:
            seats = sorted({s for t in tokens for s in table.seats_of(t)})
            for seat in seats:
                self.presence.connect(sid, game_id, seat)
            if seats:
                self._announce(table)
            return seats

    def unjoin(self, sid: str, game_id: str) -> None:
        if self.presence.release(sid, game_id):
            self._presence_changed(game_id)

    def disconnect(self, sid: str) -> None:
        for game_id in self.presence.disconnect(sid):
            self._presence_changed(game_id)

    def _presence_changed(self, game_id: str) -> None:
        try:
            table = self.tables.table(game_id)
        except ApiError:
            return
        with table.lock:
            self._announce(table)

    def _announce(self, table: Table) -> None:
        self.notify(PresenceChanged(table, self.body(table)))

    def body(self, table: Table) -> dict[str, Any]:
        return views.presence_body(table, self.presence)

    def scan_presence(self, tables: list[Table]) -> None:
        """Announce the seats whose phones another process lost without saying so (it died:
        its sockets expired), once for the host; one round trip for every seat."""
        many = getattr(self.presence, "connected_many", None)
        if many is None:
            return
        seats = {t.id: t.humans() for t in tables}
        # every seat a state shows, so the states pushed until the next scan reuse this read
        found = many([key for t in tables for key in views.presence_keys(t)], fresh=True)
        if found is None:
            return
        for table in tables:
            seen = tuple(found[(table.id, s)] for s in seats[table.id])
            if table.presence_seen not in (None, seen) and self.coord.once.take(
                    f"presence:{table.id}:{''.join('1' if c else '0' for c in seen)}",
                    JOB_TTL):
                with table.lock:
                    self._announce(table)
            table.presence_seen = seen
