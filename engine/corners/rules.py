"""Corners' rules module: the events, the state folded from them, the clock, the ends.

Seat 1 plays white (home a1, moves first), seat 2 black (home h8, or p16 on 16×16). The
state is an immutable value; `to_move` is derived. Every command checks the state and
returns the one event to append; `apply` checks it again, so a log read from disk is held to
the same rules.

The clock (chess style, `reserve_s` + `increment_s` a move; reserve 0: no clock) is kept by
the host: every command gets the host's wall clock `now` (seconds) and the events record it
as `at_ms`, so the fold and every replay reproduce the clocks exactly. No clock runs before
white's first move: that move is not charged, and black's clock starts when it is made.
Every move then charges the mover the time since its clock started and adds the increment.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar, NamedTuple

from ..capabilities import (
    Actions,
    Analysis,
    ApplyMove,
    Clocked,
    Computer,
    Hints,
    Ladder,
    Practice,
    Records,
    Takebacks,
)
from ..core import Event, GameCreated, MoveTakenBack, PlayerLeft, event_type
from ..rules import (
    BaseRules,
    ColourSpec,
    FormatSpec,
    LadderSeat,
    LevelSpec,
    OptionSpec,
    Outcome,
    Picture,
    PresetSpec,
    PublicView,
    SeatView,
    StatSpec,
    Step,
    VariantSpec,
)
from . import errors as E
from . import practice as P
from .moves import (
    at_home,
    chains,
    fills,
    has_move,
    in_target,
    judge,
    locks_in,
    loses_by_return,
    stuck_end,
)
from .perft import count
from .variants import COLOURS, GAME, VARIANTS, Variant

MATCH_POINTS = {"win": 2, "draw": 1, "loss": 0}
ACTIONS = ("resign", "offer_draw", "accept_draw", "decline_draw")
#: The practice hint's budget of CPU time (the strongest level's search, cut short).
HINT_SECONDS = 0.4
#: Ends that come from a move (a takeback can undo them); the others close the game.
MOVE_ENDS = frozenset({"target", "deadline", "home_return", "move_limit", "repetition",
                       "no_move"})


# -- events ------------------------------------------------------------------------------------


@event_type
@dataclass(frozen=True, kw_only=True)
class Moved(Event):
    """A seat moved a piece: `move` is its canonical path (c3-e3-e5); `at_ms` the host's
    clock in milliseconds when it was made (None: no time passes, as in analysis)."""

    TYPE: ClassVar[str] = "corners_moved"
    seat: int
    move: str
    at_ms: int | None = None


@event_type
@dataclass(frozen=True, kw_only=True)
class ClockResumed(Event):
    """The host started again: the running clock restarts at `at_ms`, the time since it last
    started (the host was down) not charged."""

    TYPE: ClassVar[str] = "corners_clock_resumed"
    at_ms: int


@event_type
@dataclass(frozen=True, kw_only=True)
class FlagFell(Event):
    """`seat`'s time ran out (noticed by the host at `at_ms`): it loses."""

    TYPE: ClassVar[str] = "corners_flag_fell"
    seat: int
    at_ms: int


@event_type
@dataclass(frozen=True, kw_only=True)
class Resigned(Event):
    TYPE: ClassVar[str] = "corners_resigned"
    seat: int
    at_ms: int | None = None


@event_type
@dataclass(frozen=True, kw_only=True)
class DrawOffered(Event):
    TYPE: ClassVar[str] = "corners_draw_offered"
    seat: int
    at_ms: int | None = None


@event_type
@dataclass(frozen=True, kw_only=True)
class DrawAccepted(Event):
    TYPE: ClassVar[str] = "corners_draw_accepted"
    seat: int
    at_ms: int | None = None


@event_type
@dataclass(frozen=True, kw_only=True)
class DrawDeclined(Event):
    TYPE: ClassVar[str] = "corners_draw_declined"
    seat: int
    at_ms: int | None = None


#: A replay's words for the events besides moves: (kind, text with the seat left out).
STEP_WORDS = {FlagFell: ("timeout", "ran out of time"), Resigned: ("resigned", "resigned"),
              DrawOffered: ("draw_offered", "offered a draw"),
              DrawAccepted: ("draw_agreed", "accepted the draw offer"),
              DrawDeclined: ("draw_declined", "declined the draw offer"),
              ClockResumed: ("clock_resumed", "The host restarted the clock")}
ACTION_EVENTS = {"resign": Resigned, "offer_draw": DrawOffered, "accept_draw": DrawAccepted,
                 "decline_draw": DrawDeclined}


def to_ms(now: float | None) -> int | None:
    """The host's clock (seconds) as whole milliseconds."""
    return None if now is None else int(round(now * 1000))


# -- the state ---------------------------------------------------------------------------------


class Played(NamedTuple):
    seq: int
    seat: int
    path: tuple[int, ...]
    at_ms: int | None


@dataclass(frozen=True)
class State:
    """The fold of a game's log. `board[sq]` is 0, 1 (white) or 2 (black), sq = row * size +
    col with a1 = 0 (size the variant's: 8, or 16); `positions` the position keys (board and
    side to move) since the start, for threefold repetition; `end` is (reason, winner or 0 for
    a draw) once the game is over; `pending` says white filled its target and black is to
    make its reply of the same number. Clock: `clock` is each seat's remaining ms as of
    `clock_started_ms`, the host time the running side's clock started (None: no clock runs);
    `last_at_ms` the latest host time an event recorded. `before` is the state before the
    latest move (for takebacks)."""

    variant: Variant
    seq: int
    players: tuple[str, ...]
    reserve_ms: int
    increment_ms: int
    board: tuple[int, ...]
    moves: tuple[Played, ...] = ()
    positions: tuple[bytes, ...] = ()
    pending: bool = False
    end: tuple[str, int] | None = None
    left: frozenset[int] = frozenset()
    clock: tuple[int, int] = (0, 0)
    clock_started_ms: int | None = None
    last_at_ms: int | None = None
    draw_offer: int | None = None
    offered_at: tuple[int, int] = (-1, -1)  # the seat's own moves when it last offered a draw
    solo: bool = False  # the solo race: white alone, every move white's (`practice`)
    practice: bool = False  # unrated, off the ladder, no clock (a set-up or solo game too)
    before: State | None = field(default=None, compare=False, repr=False)

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def to_move(self) -> int | None:
        if self.end is not None:
            return None
        return 1 if self.solo else 1 + len(self.moves) % 2

    @property
    def number(self) -> int:
        """The number of the move to be made next (a number is a pair: white, then black;
        in the solo race every move has its own)."""
        return len(self.moves) + 1 if self.solo else len(self.moves) // 2 + 1

    @property
    def seats(self) -> tuple[int, ...]:
        return (1,) if self.solo else (1, 2)

    @property
    def has_clock(self) -> bool:
        return self.reserve_ms > 0

    @property
    def running(self) -> int | None:
        """The seat whose clock runs, or None."""
        if not self.has_clock or self.end is not None or self.clock_started_ms is None:
            return None
        return self.to_move

    def own_moves(self, seat: int) -> int:
        return (len(self.moves) + (seat == 1)) // 2

    def remaining_ms(self, seat: int, at_ms: int | None = None) -> int:
        """`seat`'s time left at host time `at_ms` (its clock as of the last event if None)."""
        left = self.clock[seat - 1]
        if (at_ms is not None and self.running == seat
                and self.clock_started_ms is not None):
            left -= max(0, at_ms - self.clock_started_ms)
        return left

    def flag_down(self, at_ms: int | None) -> bool:
        """Whether the running side's time is gone at host time `at_ms`."""
        seat = self.running
        return seat is not None and at_ms is not None and self.remaining_ms(seat, at_ms) <= 0

    def key(self) -> bytes:
        return bytes(self.board) + bytes((self.to_move or 0,))

    def in_target(self, seat: int) -> int:
        return in_target(self.board, seat, self.variant)

    def at_home(self, seat: int) -> int:
        """`seat`'s pieces in its own home (as the home deadline counts them)."""
        return at_home(self.board, seat, self.variant)

    def pieces(self, seat: int) -> list[int]:
        return [s for s in range(len(self.board)) if self.board[s] == seat]

    def rows(self) -> list[list[int]]:
        """The board as rows of 0/1/2, the top row (8, or 16) first."""
        n = self.variant.size
        return [list(self.board[r * n:r * n + n]) for r in range(n - 1, -1, -1)]

    def legal_paths(self, seat: int, origin: int | None = None) -> list[tuple[tuple[int, ...],
                                                                              bool]]:
        """`seat`'s legal moves now as (canonical path, loses), ordered by from square, then
        by to square (alphabetically); only the piece on `origin` if given."""
        if self.to_move != seat:
            return []
        variant = self.variant
        neighbours, jumps = variant.neighbours, variant.jumps
        check = not variant.locking_allowed
        board = list(self.board)
        number = self.number
        out = []
        alpha_key = variant.board.alpha_key
        squares = [origin] if origin is not None else variant.board.alphabetical
        for f in squares:
            if board[f] != seat:
                continue
            reach = chains(board, f, variant)
            for t in sorted(reach, key=alpha_key):
                if check:
                    board[f], board[t] = 0, seat
                    bad = locks_in(board, t, seat, neighbours, jumps)
                    board[f], board[t] = seat, 0
                    if bad:
                        continue
                out.append((reach[t], not self.solo
                            and loses_by_return(variant, number, seat, t)))
        return out


# -- the catalog -------------------------------------------------------------------------------

OPTIONS = (
    OptionSpec("reserve_s", "Time reserve (seconds)", 300, "int", 0, 3 * 3600,
               description="each side's time for the game; 0 plays without a clock",
               computer_default=0),
    OptionSpec("increment_s", "Increment (seconds a move)", 3, "int", 0, 600,
               description="added to the mover's time after each of its moves"),
)

def _clock(minutes: int, increment: int) -> PresetSpec:
    return PresetSpec(f"{minutes}+{increment}", (("reserve_s", minutes * 60),
                                                 ("increment_s", increment)),
                      f"{minutes} minute{'s' * (minutes != 1)} each, {increment} s a move")


#: The clocks the lobby offers with one tap: minutes each + seconds a move, or none.
CLOCKS = (_clock(1, 0), _clock(3, 2), _clock(5, 3), _clock(10, 5),
          PresetSpec("No clock", (("reserve_s", 0),), "no time limit"))
#: Two seats, or one: the solo race.
VARIANT_SPECS = {v.name: VariantSpec(v.name, v.label, (2, 1), COLOURS, rated=v.rated,
                                     options=OPTIONS + P.options(v),
                                     description=v.description + "; 1 player: the solo race",
                                     presets=CLOCKS, presets_label="Clock")
                 for v in VARIANTS.values()}


def _level_specs() -> dict[int, LevelSpec]:
    from .ai import LEVELS

    return {n: LevelSpec(n, lv.name, lv.description, lv.seconds) for n, lv in LEVELS.items()}


def _check_ms(value, what: str) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                              or value < 0):
        raise E.LogError(f"{what}: at_ms must be a whole number of milliseconds, not {value!r}")


class CornersRules(BaseRules, Clocked, Actions, Computer, Hints, Takebacks, Records,
                   Analysis, Practice, Ladder, ApplyMove):
    """Corners (Ugolki) for the `Game` log. Every method is pure."""

    game = GAME
    title = "Corners"
    tagline = "Ugolki, a race across 8×8 or 16×16, 2 players"
    summary = ("Step and jump your pieces across the board to fill the "
               "opposite corner first.")
    palette = {"white": ColourSpec("#f4f1e8", "#111", "○"),
               "black": ColourSpec("#141414", "#fff", "●")}
    variants = VARIANT_SPECS
    stats = (StatSpec("pieces_home", "pieces in the target at the end"),
             StatSpec("filled_target", "target filled"))
    hint_level = 3
    legal_query = "from"
    legal_query_schema = {"type": "string", "pattern": "^ *[a-pA-P](1[0-6]|[1-9]) *$"}
    actions = ACTIONS
    formats = {"cgn": FormatSpec("cgn", "text/plain", "Corners game notation")}

    @property
    def levels(self) -> dict[int, LevelSpec]:  # type: ignore[override]
        return _level_specs()

    # -- fold ------------------------------------------------------------------------------
    def initial_state(self, created: GameCreated) -> State:
        variant = VARIANTS.get(created.variant)
        if variant is None:
            raise E.NoSuchGameError(
                f"Corners has no variant {created.variant!r} ({', '.join(VARIANTS)})",
                variant=created.variant)
        options = VARIANT_SPECS[variant.name].option_values(created.options)
        players = created.players or ("White", "Black")
        if len(players) not in (1, 2):
            raise E.EngineError(f"Corners has 2 seats (1 for the solo race), not {len(players)}")
        solo = len(players) == 1
        practice = solo or options["practice"] or bool(options["setup"])
        reserve = 0 if practice else options["reserve_s"] * 1000  # practice: no clock
        state = State(variant, created.seq, tuple(players), reserve,
                      options["increment_s"] * 1000,
                      P.solo_board(variant) if solo else variant.start_board(),
                      clock=(reserve, reserve), solo=solo, practice=practice)
        if options["setup"]:
            board, to_move, number = P.parse_setup(variant, options["setup"])
            P.check_setup(variant, board, to_move, number, solo=solo)
            return _placed(state, board, to_move, number)
        return replace(state, positions=(state.key(),))

    def apply(self, state: State, event: Event) -> State:
        if isinstance(event, Moved):
            return self._moved(state, event)
        if isinstance(event, (Resigned, DrawOffered, DrawAccepted, DrawDeclined)):
            return self._acted(state, event)
        if isinstance(event, PlayerLeft):
            self._check_open(state, event.seat)
            return replace(state, seq=event.seq, left=state.left | {event.seat},
                           end=("resigned", 3 - event.seat), draw_offer=None)
        if isinstance(event, FlagFell):
            return self._flag_fell(state, event)
        if isinstance(event, ClockResumed):
            _check_ms(event.at_ms, "clock_resumed")
            if event.at_ms is None or state.running is None:
                raise E.LogError("no clock is running to resume")
            return replace(state, seq=event.seq, clock_started_ms=event.at_ms,
                           last_at_ms=_later(state.last_at_ms, event.at_ms))
        if isinstance(event, MoveTakenBack):
            return self._taken_back(state, event)
        raise E.LogError(f"event type {event.TYPE} does not belong to a Corners game")

    def apply_move(self, state: State, event: Event, move: tuple[int, ...]) -> State:
        if not isinstance(event, Moved):
            return self.apply(state, event)
        return self._moved(state, event, move)

    def _moved(self, state: State, event: Moved, path: tuple[int, ...] | None = None) -> State:
        if path is None:  # a move read from a log: checked in full
            _check_ms(event.at_ms, "corners_moved")
            self._check_turn(state, event.seat, event.at_ms)
            path = self.resolve(state, event.seat, event.move)
        seat, variant = event.seat, state.variant
        board = list(state.board)
        f, t = path[0], path[-1]
        board[f], board[t] = 0, seat
        if state.solo:
            return _solo_moved(state, event, path, board)
        number = state.number
        reason, winner, pending = judge(variant, board, seat, number, t, state.pending)
        # the clock: charge the mover, add the increment, start the other side's clock
        clock = state.clock
        started = state.clock_started_ms
        if state.has_clock:
            spent = 0
            if started is not None and event.at_ms is not None:
                spent = max(0, event.at_ms - started)
            clock = list(clock)
            clock[seat - 1] += state.increment_ms - spent
            clock = (clock[0], clock[1])
        started = event.at_ms if reason is None else None
        new = replace(
            state, seq=event.seq, board=tuple(board),
            moves=state.moves + (Played(event.seq, seat, path, event.at_ms),),
            pending=pending, clock=clock, clock_started_ms=started,
            last_at_ms=_later(state.last_at_ms, event.at_ms),
            draw_offer=None if state.draw_offer == 3 - seat else state.draw_offer,
            before=state)
        key = new.key()
        positions = state.positions + (key,)
        end = (reason, winner) if reason is not None else None
        if end is None and positions.count(key) >= 3:
            end = ("repetition", 0)
        if end is None and not has_move(board, 3 - seat, variant):
            end = stuck_end(pending)
        if end is not None:
            return replace(new, positions=positions, end=end, clock_started_ms=None,
                           pending=False, draw_offer=None)
        return replace(new, positions=positions)

    def _acted(self, state: State, event) -> State:
        _check_ms(event.at_ms, event.TYPE)
        seat = event.seat
        self._check_open(state, seat)
        if state.flag_down(event.at_ms):
            raise E.TimeUpError(f"seat {state.running}'s time is up", seat=state.running)
        last = _later(state.last_at_ms, event.at_ms)
        if isinstance(event, Resigned):
            return replace(state, seq=event.seq, end=("resigned", 3 - seat), draw_offer=None,
                           last_at_ms=last, **_stopped(state, event.at_ms))
        if isinstance(event, DrawOffered):
            if state.solo:
                raise E.DrawOfferRefusedError("the solo race has nobody to offer a draw to")
            if state.draw_offer == seat:
                raise E.DrawOfferRefusedError("your draw offer is waiting for an answer")
            if state.draw_offer == 3 - seat:
                raise E.DrawOfferRefusedError(
                    "the other side has offered a draw: accept or decline it")
            if state.offered_at[seat - 1] >= state.own_moves(seat):
                raise E.DrawOfferRefusedError("make a move before you offer a draw again")
            offered = list(state.offered_at)
            offered[seat - 1] = state.own_moves(seat)
            return replace(state, seq=event.seq, draw_offer=seat, last_at_ms=last,
                           offered_at=(offered[0], offered[1]))
        if state.draw_offer != 3 - seat:
            raise E.NoDrawOfferError("the other side has not offered a draw")
        if isinstance(event, DrawAccepted):
            return replace(state, seq=event.seq, end=("draw_agreed", 0), draw_offer=None,
                           last_at_ms=last, **_stopped(state, event.at_ms))
        return replace(state, seq=event.seq, draw_offer=None, last_at_ms=last)

    def _flag_fell(self, state: State, event: FlagFell) -> State:
        _check_ms(event.at_ms, "corners_flag_fell")
        self._check_open(state, event.seat)
        if state.running != event.seat or not state.flag_down(event.at_ms):
            raise E.LogError(f"seat {event.seat}'s time is not up at {event.at_ms}")
        clock = list(state.clock)
        clock[event.seat - 1] = 0
        return replace(state, seq=event.seq, end=("timeout", 3 - event.seat), draw_offer=None,
                       clock=(clock[0], clock[1]), clock_started_ms=None,
                       last_at_ms=_later(state.last_at_ms, event.at_ms))

    def _taken_back(self, state: State, event: MoveTakenBack) -> State:
        self._check_undo(state, event.seat, event.from_seq)
        back = state
        while back.moves and back.moves[-1].seq >= event.from_seq:
            assert back.before is not None
            back = back.before
        started = back.clock_started_ms
        if started is not None:
            # the time spent on the moves taken back is not given back, and the time from
            # the latest event to the takeback is not charged (the log does not know it)
            started = state.last_at_ms
        return replace(back, seq=event.seq, clock_started_ms=started,
                       last_at_ms=state.last_at_ms, draw_offer=None)

    # -- commands --------------------------------------------------------------------------
    def check_move(self, state: State, seat: int, text: str, *,
                   now: float | None = None) -> tuple[int, ...]:
        """The canonical path of `text` (a full path or from–to) if `seat` may move it at
        `now` (a seat whose time is up hears so before anything about its move)."""
        self._check_turn(state, seat, to_ms(now))
        return self.resolve(state, seat, text)

    def play_move(self, state: State, seat: int, move: tuple[int, ...], *,
                  now: float | None = None) -> Moved:
        """The event of the path `move`, made at `now`."""
        return Moved(seq=state.seq + 1, seat=seat, move=state.variant.board.path_text(move),
                     at_ms=to_ms(now))

    def undo(self, state: State, seat: int, *, now: float | None = None) -> MoveTakenBack:
        """Take back `seat`'s latest move and every move after it."""
        self._check_seat(state, seat)
        own = [m.seq for m in state.moves if m.seat == seat and m.seq]  # not a setup's
        if not own:
            raise E.NothingToUndoError(f"seat {seat} has no move to take back")
        event = MoveTakenBack(seq=state.seq + 1, seat=seat, from_seq=own[-1])
        self._check_undo(state, seat, event.from_seq)
        return event

    def leave(self, state: State, seat: int, *, now: float | None = None) -> PlayerLeft:
        """Leaving is resigning."""
        self._check_open(state, seat)
        return PlayerLeft(seq=state.seq + 1, seat=seat)

    def act(self, state: State, seat: int, action: str, *, now: float | None = None) -> Event:
        """`resign`, `offer_draw`, `accept_draw` or `decline_draw`, each an event."""
        cls = ACTION_EVENTS.get(action)
        if cls is None:
            raise E.EngineError(f"Corners has no action {action!r}", actions=list(ACTIONS))
        event = cls(seq=state.seq + 1, seat=seat, at_ms=to_ms(now))
        self._acted(state, event)  # the same checks as the fold
        return event

    def computer_action(self, state: State, seat: int) -> str | None:
        """A computer declines a draw offered to it (it plays on: its moves show why)."""
        if state.end is None and state.draw_offer == 3 - seat and seat not in state.left:
            return "decline_draw"
        return None

    def available_actions(self, state: State, seat: int) -> list[str]:
        """The actions `seat` may take now. The solo race offers none: leaving is its one way
        out, and ends it as resigning would ("gave up the race")."""
        out = []
        for action in () if state.solo else ACTIONS:
            try:
                self.act(state, seat, action)
            except E.EngineError:
                continue
            out.append(action)
        return out

    # -- time ------------------------------------------------------------------------------
    def deadline(self, state: State) -> float | None:
        seat = state.running
        if seat is None or state.clock_started_ms is None:
            return None
        return (state.clock_started_ms + state.clock[seat - 1]) / 1000

    def expire(self, state: State, now: float) -> FlagFell | None:
        at = to_ms(now)
        if not state.flag_down(at):
            return None
        assert state.running is not None and at is not None
        return FlagFell(seq=state.seq + 1, seat=state.running, at_ms=at)

    def resume(self, state: State, now: float) -> ClockResumed | None:
        if state.running is None:
            return None
        return ClockResumed(seq=state.seq + 1, at_ms=to_ms(now))

    # -- queries ---------------------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        return state.to_move

    def is_over(self, state: State) -> bool:
        return state.over

    def left(self, state: State) -> frozenset[int]:
        return state.left

    def outcome(self, state: State) -> Outcome:
        """Scores are the pieces each side has in its target; points 2 a win, 1 a draw."""
        if state.solo:
            return _solo_outcome(state)
        scores = (state.in_target(1), state.in_target(2))
        if state.end is None:
            return Outcome((), ("draw", "draw"), scores, "playing", (1, 1))
        reason, winner = state.end
        if winner:
            results = tuple("win" if s == winner else "loss" for s in (1, 2))
            winners: tuple[int, ...] = (winner,)
        else:
            results, winners = ("draw", "draw"), (1, 2)
        return Outcome(winners, results, scores, reason,
                       tuple(MATCH_POINTS[r] for r in results), self.ending(state))

    def ending(self, state: State) -> str:
        """How the game ended, in words, with colours and move numbers: "Black filled
        White's home on move 41", "White's time ran out", "Draw: the same position three
        times"; "" while it is played."""
        if state.end is None:
            return ""
        reason, winner = state.end
        number = (len(state.moves) + 1) // 2  # the number of the last move made
        deadline, limit = state.variant.deadline, state.variant.limit
        loser = COLOURS[2 - winner].capitalize() if winner else ""
        if reason == "target":
            if not winner:
                return f"Draw: both sides filled the other's home on move {number}"
            return (f"{COLOURS[winner - 1].capitalize()} filled {loser}'s home "
                    f"on move {number}")
        if reason == "deadline":
            if not winner:
                return f"Draw: both sides still had pieces at home after move {deadline}"
            count = state.at_home(3 - winner)
            pieces = "a piece" if count == 1 else f"{count} pieces"
            return f"{loser} still had {pieces} at home after move {deadline}"
        if reason == "home_return":
            return (f"{loser} moved back into its home on move {number}, after the "
                    f"deadline (move {deadline})")
        if reason == "move_limit":
            white, black = state.in_target(1), state.in_target(2)
            if not winner:
                return (f"Draw at the move limit (move {limit}): {white} pieces each in "
                        "the other's home")
            won, lost = (white, black) if winner == 1 else (black, white)
            return (f"{COLOURS[winner - 1].capitalize()} had more pieces in the other's home "
                    f"at the move limit (move {limit}): {won} to {lost}")
        if reason == "repetition":
            return "Draw: the same position three times"
        if reason == "no_move":
            stuck = COLOURS[len(state.moves) % 2].capitalize()
            return f"Draw: {stuck} had no legal move after move {number}"
        if reason == "timeout":
            return f"{loser}'s time ran out"
        if reason == "resigned":
            return f"{loser} left the game" if 3 - winner in state.left else f"{loser} resigned"
        if reason == "draw_agreed":
            return "Draw agreed"
        return ""

    def legal(self, state: State, seat: int, query: str | None = None) -> list[dict]:
        """`seat`'s legal moves now, one per from–to pair with its shortest path, as
        {"move", "from", "to"} (and "loses": true for a move home after the deadline);
        only the piece on square `query` if given. Empty unless it is `seat`'s turn."""
        g = state.variant.board
        name, path_text = g.name, g.path_text
        origin = None if query is None else g.parse_square(query)
        out = []
        for path, loses in state.legal_paths(seat, origin):
            entry = {"move": path_text(path), "from": name(path[0]), "to": name(path[-1])}
            if loses:
                entry["loses"] = True
            out.append(entry)
        return out

    def public_view(self, state: State) -> PublicView:
        variant = state.variant
        name, path_text = variant.board.name, variant.board.path_text
        clock = None
        if state.has_clock:
            clock = {"reserve_ms": state.reserve_ms, "increment_ms": state.increment_ms,
                     "remaining_ms": list(state.clock), "running": state.running,
                     "running_since_ms": state.clock_started_ms if state.running else None}
        last = state.moves[-1] if state.moves else None
        board = {
            "variant": variant.name, "size": variant.size, "rows": state.rows(),
            "diagonal": variant.diagonal,
            "homes": {"1": sorted((name(s) for s in variant.homes[0]), key=_name_key),
                      "2": sorted((name(s) for s in variant.homes[1]), key=_name_key)},
            "to_move": state.to_move, "move_number": state.number,
            # the solo race has no home deadline, and a limit of its own
            "home_deadline": None if state.solo else variant.deadline,
            "move_limit": variant.solo_limit if state.solo else variant.limit,
            "after_deadline": not state.solo and state.number > variant.deadline,
            "pending_reply": state.pending,
            "clock": clock, "draw_offer": state.draw_offer,
            "last_move": path_text(last.path) if last else None,
            "status": state.end[0] if state.end else "playing",
            # The table's move list: every move's path, white's first.
            # (a set-up position's moves before it are not listed: `first_ply` counts them)
            "moves": [path_text(m.path) for m in state.moves if m.seq],
            "first_ply": sum(1 for m in state.moves if not m.seq),
            "practice": state.practice,
            # the solo race: the moves made and the fewest known (None: not a solo race)
            "solo": {"moves": sum(1 for m in state.moves if m.seq),
                     "best": P.best_known(variant.name)} if state.solo else None,
        }
        seats = tuple(SeatView(
            colour=COLOURS[s - 1], left=s in state.left, score=state.in_target(s),
            can_move=state.to_move == s,
            view={"pieces_home": sum(1 for q in variant.home(s) if state.board[q] == s),
                  "pieces_in_target": state.in_target(s)},
        ) for s in state.seats)
        last_move = ({"seat": last.seat, "move": path_text(last.path), "seq": last.seq}
                     if last else None)
        return PublicView(board, seats, last_move)

    def step(self, state: State, event: Event) -> Step:
        """A move's step gives its number, colour and jumps (`state` is right after it)."""
        if isinstance(event, Moved):
            index = next((i for i, m in enumerate(state.moves) if m.seq == event.seq), None)
            details: dict = {"colour": COLOURS[event.seat - 1]}
            if index is not None:
                path = state.moves[index].path
                details.update(number=index + 1 if state.solo else index // 2 + 1,
                               jumps=_jumps(path, state.variant.size),
                               notation=(f"{index + 1}. " if state.solo
                                         else _pair_prefix(index))
                               + state.variant.board.path_text(path))
            return Step("move", event.seat, event.move, details)
        for cls, (kind, text) in STEP_WORDS.items():
            if isinstance(event, cls):
                return Step(kind, getattr(event, "seat", None), text=text)
        return super().step(state, event)

    def picture(self, state: State) -> Picture:
        colours = ("",) + COLOURS
        cells = tuple(tuple(colours[c] for c in row) for row in state.rows())
        n = state.variant.size
        return Picture(cells, tuple(state.variant.board.columns),
                       tuple(str(r) for r in range(n, 0, -1)))

    def ladder(self, state: State) -> tuple[LadderSeat, ...]:
        outcome = self.outcome(state)
        return tuple(LadderSeat(outcome.points[s - 1], {
            "pieces_home": state.in_target(s),
            "filled_target": state.in_target(s) == state.variant.pieces,
        }) for s in state.seats)

    def perft(self, variant, depth: int, moves=()) -> int:
        """Legal move sequences of length `depth` from `variant`'s start (a variant's name,
        or a `State`) after `moves` (move texts) are played (`perft.count`: threefold
        repetition, which needs the game's history, is not looked at)."""
        if not isinstance(depth, int) or depth < 0:
            raise E.EngineError("the depth must be a whole number, 0 or more", depth=depth)
        state = start_state(variant) if isinstance(variant, str) else variant
        for text in moves:
            seat = state.to_move
            if seat is None:
                raise E.GameOverError(f"the game is over before {text}")
            state = self.apply(state, self.play(state, seat, text))
        return count(state, depth)

    # -- records ---------------------------------------------------------------------------
    def export(self, game, fmt: str) -> str:
        """The game as a `.cgn` record (`record.write_record`)."""
        if fmt != "cgn":
            raise E.EngineError(f"Corners has no {fmt} format", formats=sorted(self.formats))
        from .record import write_record

        return write_record(game)

    def read(self, text: str):
        """A `.cgn` record (it starts with a tag pair) as a `Game`, else None."""
        from .record import looks_like_record, read_record

        return read_record(text) if looks_like_record(text) else None

    # -- computer players ------------------------------------------------------------------
    def choose_move(self, state: State, seat: int, *, level: int, seed: int) -> str | None:
        from .ai import choose_move

        return choose_move(state, seat, level=level, seed=seed)

    def warm_up(self) -> float:
        """Nothing to ready: the levels search from the first move."""
        return 0.0

    def hint(self, state: State, seat: int) -> str | None:
        """The move of level `hint_level` (a practice game: the strongest level, its search cut
        to `HINT_SECONDS` of CPU time so the answer comes within a second); the solo race's:
        the first move of a beam search's line (`solo.best_move`)."""
        if state.solo:
            return P.solo_hint(state)
        if state.practice:
            from .ai import LEVELS, choose_move

            return choose_move(state, seat, level=max(LEVELS), seed=0, seconds=HINT_SECONDS)
        return self.choose_move(state, seat, level=self.hint_level, seed=0)

    def practice(self, state: State) -> bool:
        """A practice game (the option, a set-up position, the solo race): off the ladder."""
        return state.practice

    # -- reviewing a finished game (engine.corners.analysis) -------------------------------
    @property
    def analysis_thresholds(self):
        from .analysis import THRESHOLDS

        return THRESHOLDS

    def analyse_ply(self, state: State, seat: int, move: str, *, level: int | None = None,
                    seed: int = 0):
        from .analysis import analyse_ply

        return analyse_ply(state, seat, move, level=level, seed=seed)

    # -- checks ----------------------------------------------------------------------------
    def takeback_refusal(self, state: State) -> str | None:
        """A rated variant played with a clock takes no takebacks."""
        if state.variant.rated and state.has_clock:
            return "No takebacks in a rated game played with a clock"
        return None

    def resolve(self, state: State, seat: int, text: str) -> tuple[int, ...]:
        """The canonical path of `seat`'s move `text` (a full path or from–to), or the
        precise reason it is not legal now."""
        g = state.variant.board
        name = g.name
        given = g.parse_path(text)
        f, t = given[0], given[-1]
        if state.board[f] != seat:
            raise E.NotYourPieceError(f"there is no {COLOURS[seat - 1]} piece on {name(f)}",
                                      square=name(f))
        board = list(state.board)
        reach = chains(board, f, state.variant)
        if len(given) > 2:
            self._check_chain(state, given)
        if t not in reach:
            raise E.UnreachableError(f"the piece on {name(f)} cannot get to {name(t)}",
                                     square=name(f), to=name(t))
        variant = state.variant
        if not variant.locking_allowed:
            board[f], board[t] = 0, seat
            if locks_in(board, t, seat, variant.neighbours, variant.jumps):
                raise E.LockInError(f"{name(f)}-{name(t)} would lock in a piece of the other "
                                    "side", move=f"{name(f)}-{name(t)}")
        return reach[t]

    @staticmethod
    def _check_chain(state: State, path: list[int]) -> None:
        """A full path must be a real chain of jumps: each over an occupied neighbour to the
        empty square behind it, never landing twice on one square nor on its start."""
        jumps = state.variant.jumps
        name, path_text = state.variant.board.name, state.variant.board.path_text
        origin = path[0]
        seen = {origin}
        for a, b in zip(path, path[1:], strict=False):
            over = next((o for o, land in jumps[a] if land == b), None)
            if (over is None or over == origin or not state.board[over] or state.board[b]
                    or b in seen):
                raise E.NotAChainError(f"{path_text(path)} is not a chain of jumps "
                                       f"({name(a)}-{name(b)} is not a jump)",
                                       move=path_text(path))
            seen.add(b)

    def _check_seat(self, state: State, seat: int) -> None:
        self.check_seat(seat, len(state.seats))

    def _check_open(self, state: State, seat: int) -> None:
        self.check_open(state, seat, len(state.seats))

    def _check_turn(self, state: State, seat: int, at_ms: int | None) -> None:
        self.check_turn(state, seat, len(state.seats))
        if state.flag_down(at_ms):
            raise E.TimeUpError(f"seat {seat}'s time is up", seat=seat)

    def _check_undo(self, state: State, seat: int, from_seq: int) -> None:
        self.check_undo_seat(state, seat, len(state.seats))
        if state.end is not None and state.end[0] not in MOVE_ENDS:
            raise E.GameOverError(f"the game is over ({state.end[0]})")
        refusal = self.takeback_refusal(state)
        if refusal:
            raise E.TakebackRefusedError(refusal)
        if not any(m.seq == from_seq and m.seat == seat for m in state.moves):
            raise E.NothingToUndoError(f"event {from_seq} is not a move of seat {seat}")


def _later(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)


def _stopped(state: State, at_ms: int | None) -> dict:
    """The clock fields once the game ends at `at_ms`: the running side charged, stopped."""
    seat = state.running
    if seat is None:
        return {"clock_started_ms": None}
    clock = list(state.clock)
    clock[seat - 1] = state.remaining_ms(seat, at_ms)
    return {"clock": (clock[0], clock[1]), "clock_started_ms": None}


def _jumps(path: tuple[int, ...], size: int) -> int:
    a, b = path[0], path[1]
    step = max(abs(a % size - b % size), abs(a // size - b // size)) == 1
    return 0 if step else len(path) - 1


def _pair_prefix(index: int) -> str:
    return f"{index // 2 + 1}. " if index % 2 == 0 else f"{index // 2 + 1}... "


def _name_key(text: str) -> tuple[int, str]:
    return (int(text[1:]), text[0])


RULES = CornersRules()


def move_list(game_or_state) -> list[str]:
    """The moves in pairs as the table lists them: `12. c3-e3-e5 f6-e6` (a `Game` or a
    `State`); from a set-up position black's first move reads `12. … f6-e6`; in the solo race
    every move has its own number."""
    state = getattr(game_or_state, "state", game_or_state)
    texts = [state.variant.board.path_text(m.path) if m.seq else "…" for m in state.moves]
    if state.solo:
        return [f"{i + 1}. {text}" for i, text in enumerate(texts) if text != "…"]
    rows = [texts[i:i + 2] for i in range(0, len(texts), 2)]  # a set-up's rows before: none
    return [f"{i + 1}. " + " ".join(row) for i, row in enumerate(rows) if row != ["…"] * len(row)]


def new_game(variant: str = "classic-3x3", players: tuple[str, ...] = (),
             options: dict | None = None):
    """A fresh Corners `Game` without the registry (the log names game "corners")."""
    from ..core import Game

    created = GameCreated(seq=1, game=GAME, variant=variant, players=tuple(players),
                          options=dict(options or {}))
    return Game(RULES, created, RULES.initial_state(created))


def start_state(variant: str = "classic-3x3", *, players: tuple[str, ...] = (),
                **options) -> State:
    """The start position of `variant` (options: reserve_s, increment_s, practice, setup;
    one player: the solo race)."""
    return RULES.initial_state(GameCreated(seq=1, game=GAME, variant=variant,
                                           players=tuple(players), options=options))


def setup_state(variant: str, board, *, to_move: int = 1, number: int = 1,
                playable: bool = False, **options) -> State:
    """A state for a position set up by hand (analysis, tests): `board` is size² numbers (64,
    or 256 on 16×16; 0 empty, 1 white, 2 black; a1 first, then b1 … h1, a2 …), `to_move` the
    side to move and `number` its move number. The moves before it are placeholders (seq 0,
    no path) that cannot be taken back.

    `playable=True` holds the position to what a game may start from (`practice.check_setup`:
    each side's number of pieces, not decided yet, a move for the side to move) and gives
    the state of a game created with the `setup` option of the same text: the one way a game
    starts from a set-up position (`practice.setup_text` writes the option)."""
    variant_ = VARIANTS.get(variant)
    if variant_ is None:
        raise E.NoSuchGameError(f"Corners has no variant {variant!r} ({', '.join(VARIANTS)})",
                                variant=variant)
    board = tuple(board)
    if len(board) != variant_.squares:
        raise E.EngineError(f"a {variant_.label} board has {variant_.squares} "
                            f"squares, not {len(board)}", squares=len(board))
    if any(x not in (0, 1, 2) for x in board) or to_move not in (1, 2) or number < 1:
        raise E.EngineError("a board holds 0, 1 or 2 per square; the side to move is 1 or 2; "
                            "move numbers start at 1")
    if playable:
        text = P.setup_text(variant_, board, to_move, number)
        return start_state(variant, setup=text, **options)
    return _placed(start_state(variant, **options), board, to_move, number)


def _placed(state: State, board, to_move: int, number: int) -> State:
    """`state` with `board` on the board and `to_move` to make move `number`: the moves before
    it are placeholders (seq 0, no path)."""
    plies = (number - 1) if state.solo else 2 * (number - 1) + (to_move - 1)
    moves = tuple(Played(0, 1 if state.solo else 1 + i % 2, (), None) for i in range(plies))
    state = replace(state, board=tuple(board), moves=moves)
    return replace(state, positions=(state.key(),))


def _solo_moved(state: State, event: Moved, path: tuple[int, ...], board: list[int]) -> State:
    """The solo race's move: no deadline or repetition; over once the target is filled, at
    the race's limit (`Variant.solo_limit`) or, from a set-up position, when no move is
    left."""
    variant = state.variant
    end = None
    if fills(board, 1, variant):
        end = ("target", 1)
    elif len(state.moves) + 1 >= variant.solo_limit:
        end = ("move_limit", 0)
    elif not has_move(board, 1, variant):
        end = ("no_move", 0)
    new = replace(state, seq=event.seq, board=tuple(board),
                  moves=state.moves + (Played(event.seq, 1, path, event.at_ms),),
                  last_at_ms=_later(state.last_at_ms, event.at_ms), end=end, before=state)
    return replace(new, positions=state.positions + (new.key(),))


def _solo_outcome(state: State) -> Outcome:
    """The solo race's one seat: a win once the target is filled, a loss if it gave up."""
    scores = (state.in_target(1),)
    if state.end is None:
        return Outcome((), ("draw",), scores, "playing", (1,))
    reason = state.end[0]
    made = sum(1 for m in state.moves if m.seq)
    best = P.best_known(state.variant.name)
    if reason == "target":
        known = f" (the best known: {best[0]})" if best else ""
        ending = f"White filled the target in {made} move{'s' * (made != 1)}{known}"
        return Outcome((1,), ("win",), scores, reason, (2,), ending)
    if reason == "resigned":
        ending = f"White gave up the race after {made} move{'s' * (made != 1)}"
    elif reason == "move_limit":
        ending = (f"White did not fill the target by the race's limit "
                  f"(move {state.variant.solo_limit})")
    else:
        ending = f"White has no move left after {made} move{'s' * (made != 1)}"
    return Outcome((), ("loss",), scores, reason, (0,), ending)


def perft(state_or_variant, depth: int, moves=()) -> int:
    """`CornersRules.perft` of the game's rules."""
    return RULES.perft(state_or_variant, depth, moves)
