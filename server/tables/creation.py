"""Games begin and end here: creating one (checked against its variant's seat counts,
options and the game's computer levels), its rematch, and the host closing it."""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from engine import registry
from engine.core import Game
from engine.errors import EngineError
from engine.registry import DEFAULT_GAME
from engine.rules import computer_names
from server.errors import ApiError, from_engine
from server.store import EventStore, GameRecord, SeatRecord
from server.tables import views
from server.tables.coordination import Coordination
from server.tables.events import Notify, StateChanged
from server.tables.table import Table, new_token
from server.tables.tableset import TableSet
from server.tables.takebacks import Takebacks
from server.tables.writes import Action, WritePath, doing

log = logging.getLogger(__name__)

#: The options a create request's `clock` sets (a variant offers a clock if it has both).
CLOCK_OPTIONS = ("reserve_s", "increment_s")
#: The options a create request may name at its top level (as `given`) besides `options`.
GIVEN_OPTIONS = ("rounds", "setups")
#: `create(clock=UNSET)`: the request did not mention the clock.
UNSET: Any = object()


class Creation:
    def __init__(self, store: EventStore, coord: Coordination, tables: TableSet,
                 writes: WritePath, takebacks: Takebacks, presence: Any, notify: Notify, *,
                 max_games: int) -> None:
        self.store = store
        self.coord = coord
        self.tables = tables
        self.writes = writes
        self.takebacks = takebacks
        self.presence = presence
        self.notify = notify
        self.max_games = max_games

    def create(self, variant: str, seats: list[dict[str, Any]], *,
               game: str = DEFAULT_GAME, options: dict[str, Any] | None = None,
               clock: dict[str, int] | None = UNSET,
               given: dict[str, Any] | None = None,
               rematch_of: Table | None = None) -> dict[str, Any]:
        """A new game of `game` (its `variant`, with `options`). `clock` sets the variant's
        clock options (`{reserve_s, increment_s?}`, None: no clock); `given` sets options
        named at the request's top level (`rounds`, `setups`); options not given take their
        defaults, or their `computer_default` when a computer is seated. What chance decides
        at the start (a deal) is drawn and committed at once. Returns its id, the host token
        and the local seats' tokens."""
        try:
            rules = registry.get(game)
        except EngineError as e:
            raise from_engine(e) from None
        variant_spec = rules.variants.get(variant)
        if variant_spec is None:
            raise ApiError("no_such_variant", f"{rules.title} has no variant {variant!r}",
                           game=game, variants=sorted(rules.variants))
        if len(seats) not in variant_spec.seats:
            counts = " or ".join(str(n) for n in variant_spec.seats)
            raise ApiError("invalid_request", f"{variant_spec.label} takes {counts} seats, "
                           f"not {len(seats)}", seats=list(variant_spec.seats))
        options = dict(options or {})
        if clock is not UNSET:
            options = _clock_options(rules.title, variant_spec, options, clock)
        if given:
            options = _given_options(options, given)
        computer = any(seat["kind"] == "computer" for seat in seats)
        try:
            options = variant_spec.option_values(options, computer=computer)
        except EngineError as e:
            raise from_engine(e) from None
        levels = sorted(rules.levels)
        for i, seat in enumerate(seats, start=1):
            if seat["kind"] == "computer" and seat.get("level", 1) not in levels:
                raise ApiError("invalid_request",
                               f"seat {i}: {rules.title} has no computer level "
                               f"{seat.get('level', 1)}", levels=levels)
        if rematch_of is None:
            self._require_room()
        computers = computer_names([seat.get("level", 1) if seat["kind"] == "computer"
                                    else None for seat in seats])
        names = tuple(computers[i] or seat.get("name") or variant_spec.colours[i].capitalize()
                      for i, seat in enumerate(seats))
        try:
            fresh = Game.new(game, variant, names, options)
        except EngineError as e:
            raise from_engine(e) from None
        host_token, host_hash = new_token()
        tokens: dict[int, str] = {}
        records = []
        for i, spec in enumerate(seats, start=1):
            kind = spec["kind"]
            level = spec.get("level", 1) if kind == "computer" else None
            token_hash = None
            if kind == "local":
                tokens[i], token_hash = new_token()
            records.append(SeatRecord(i, kind, spec.get("name"), level, token_hash))
        record = GameRecord(uuid.uuid4().hex[:12], time.time(), variant, host_hash,
                            rematch_of=rematch_of.id if rematch_of else None, game=game)
        if rematch_of is not None:  # same people at the same seats: same credentials
            record.host_hash = rematch_of.record.host_hash
            for new, old in zip(records, rematch_of.seats, strict=True):
                new.token_hash = old.token_hash if old.kind != "computer" else None
        self.writes.create(record, records, fresh)
        return {"id": record.id, "host_token": host_token,
                "tokens": {str(k): v for k, v in tokens.items()}}

    def _require_room(self) -> None:
        """At most `max_games` unfinished games: each is memory and work for the host."""
        self.coord.refresh()
        unfinished = sum(1 for t in self.tables.all() if not t.finished)
        if unfinished >= self.max_games:
            raise ApiError("too_many_games", f"this host already has {unfinished} unfinished "
                           "games; finish or close some first", limit=self.max_games)

    def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The rematch's id: created by the first seat (or host) to ask, shared by the rest."""
        found: dict[str, Any] = {}

        def check(table: Table) -> None:
            if not table.is_host(token) and not table.seats_of(token):
                if not token:
                    raise ApiError("unauthorized", "a rematch needs a seat or host token")
                raise ApiError("forbidden", "only the players or the host may ask for a rematch")

        def decide(table: Table) -> None:
            if table.record.rematch_id:
                found.update(id=table.record.rematch_id, created=False)
                return
            if not table.finished:
                raise ApiError("not_finished", "the game is still being played")
            specs = [{"kind": s.kind, "name": None if s.kind == "computer" else s.name,
                      "level": s.level or 1} for s in table.seats]  # a computer: its own name
            variant = registry.get(table.record.game).variants[table.record.variant]
            created = self.create(table.record.variant, specs, game=table.record.game,
                                  options=variant.rematch_options(table.options),
                                  rematch_of=table)
            try:
                self.coord.write_record(table, self.store.link_rematch, game_id, created["id"])
            except ApiError:  # another process linked its rematch first: that one it is
                self._cancel(created["id"])
                if table.record.rematch_id:
                    found.update(id=table.record.rematch_id, created=False)
                    return
                raise
            table.record.rematch_id = created["id"]
            self.notify(StateChanged(table))
            found.update(id=created["id"], created=True)

        self.writes.command(game_id, decide, check=check, clock=False)
        return found

    def _cancel(self, game_id: str) -> None:
        """Close a game this process just made and nobody will play (a rematch another
        process made at the same moment)."""
        try:
            self.writes.command(game_id, doing(lambda g: g.close("cancelled")), clock=False,
                                answer=lambda table, event: self._mark_closed(table))
        except Exception:
            log.exception("game %s: could not cancel a rematch made twice", game_id)

    def close(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Host only: end the game before its rules do. It is abandoned: nobody wins and
        nothing counts (`engine.rules.outcome_of`); a game still waiting for players to
        take their seats is cancelled. Closing a finished game changes nothing."""
        def decide(table: Table) -> Action | None:
            if table.finished:
                return None
            reason = "cancelled" if table.status == "open" else "closed"
            self.takebacks.drop(table, reason="closed")
            return lambda g: g.close(reason)

        def answer(table: Table, event: dict[str, Any] | None) -> dict[str, Any]:
            if event is not None:
                self._mark_closed(table)
            return views.game_body(table, self.presence)

        return self.writes.command(game_id, decide,
                                   check=lambda table: table.require_host(token),
                                   clock=False, answer=answer)

    def _mark_closed(self, table: Table) -> None:
        """Mirror a closed log on the game's record (the store's lists of games read it)."""
        if table.record.closed:
            return
        try:
            self.coord.write_record(table, self.store.set_closed, table.id)
        except Exception:  # the log says it is closed: that is what counts
            log.exception("game %s: could not mark the game closed in the store", table.id)
            return
        table.record.closed = True


def _given_options(options: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """`options` with those a create request names at its top level (`rounds`, `setups`);
    invalid_request if `options` sets one of them too."""
    both = sorted(set(given) & set(options))
    if both:
        raise ApiError("invalid_request", f"{both[0]} is set both at the top level and in "
                       "options", option=both[0])
    return {**options, **given}


def _clock_options(title: str, variant, options: dict[str, Any],
                   clock: dict[str, int] | None) -> dict[str, Any]:
    """`options` with the clock options a create request's `clock` sets; bad_option if the
    variant has no clock, invalid_request if `options` sets them too."""
    names = {o.name for o in variant.options}
    if not set(CLOCK_OPTIONS) <= names:
        raise ApiError("bad_option", f"{title} {variant.label} is played without a clock",
                       options=sorted(names))
    given = {"reserve_s": 0} if clock is None else dict(clock)
    both = sorted(set(given) & set(options))
    if both:
        raise ApiError("invalid_request", f"{both[0]} is set by both clock and options",
                       option=both[0])
    return {**options, **given}
