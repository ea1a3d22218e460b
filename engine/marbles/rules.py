"""Corner's rules module: the events, the state folded from them, rounds, scores and ends.

Two players (seat 1 red, seat 2 yellow) or two teams (seats 1 and 3 red, 2 and 4 yellow;
turns 1, 2, 3, 4). Red arrows point at columns, yellow ones at rows. A game is `rounds`
rounds (1 to 10, 2 by default); each starts with a deal, `RoundDealt`, the event the host
draws through `chance` (the given `setups` for the first rounds, else a shuffle of its
random generator), so every round's deal is in the log and a replay is exact. Red starts the
odd rounds, yellow the even ones. A round ends when the seat to move cannot take a marble;
its scores are added to the sides' totals. The state is an immutable value; every command
checks it and returns the one event to append, and `apply` checks the event again.

Leaving: in the 2-player game leaving is resigning. In the 4-player game a seat that leaves
stays in the game, played from then on by the host's computer (the seat is in `left`, its
moves still legal), so its partner is not stranded; once both seats of a team have left, that
team has forfeited and the game ends (reason "left").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import ClassVar, NamedTuple

from ..capabilities import Analysis, ApplyMove, Chance, Computer, Hints, Ladder, Replacement
from ..core import Event, Game, GameCreated, MoveTakenBack, PlayerLeft, event_type
from ..rules import (
    BaseRules,
    ColourSpec,
    LadderSeat,
    LevelSpec,
    OptionSpec,
    Outcome,
    Picture,
    PublicView,
    SeatView,
    StatSpec,
    Step,
    Team,
    VariantSpec,
)
from . import errors as E
from .board import (
    BLACK,
    CELLS,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    COLUMNS,
    EMPTY,
    ROWS,
    SIDES,
    SIZE,
    TAKEABLE,
    cell_name,
    cell_of,
    colour_score,
    line_name,
    parse_move,
    parse_setup,
    random_setup,
    setup_text,
    side_scores,
)
from .moves import crossing, has_take, is_opening, opposing_lines, side_of, takes

GAME = "marbles"
MATCH_POINTS = {"win": 2, "draw": 1, "loss": 0}
#: How a game ends, as `Outcome.reason` and the view's `result` give it.
REASONS = ("finished", "resigned", "left")


# -- events ------------------------------------------------------------------------------------


@event_type
@dataclass(frozen=True, kw_only=True)
class RoundDealt(Event):
    """Round `round` starts with `setup`: 36 letters (a1…f1, a2…f2, up to f6) of `YRGBWSK`."""

    TYPE: ClassVar[str] = "marbles_round_dealt"
    round: int
    setup: str


@event_type
@dataclass(frozen=True, kw_only=True)
class Moved(Event):
    """`seat` moved its arrow: `move` is a line (`c`, `4`) for a round's opening placement,
    else the cell it took (`c4`)."""

    TYPE: ClassVar[str] = "marbles_moved"
    seat: int
    move: str


# -- the state ---------------------------------------------------------------------------------


class Take(NamedTuple):
    """One move of the round: the arrow's new line, and the cell and colour taken (None for
    the opening placement)."""

    seq: int
    seat: int
    line: int
    cell: int | None
    colour: int | None


class RoundScore(NamedTuple):
    """A finished round: its deal, its starter, each side's marbles per colour and score."""

    round: int
    setup: str
    starter: int
    counts: tuple[tuple[int, ...], tuple[int, ...]]
    scores: tuple[int, int]


NO_COUNTS = ((0,) * 6, (0,) * 6)


@dataclass(frozen=True)
class State:
    """The fold of a game's log. `board[cell]` is a colour code or EMPTY; `arrows` one line
    (or None, not placed yet this round) per seat; `counts[side][colour]` the marbles each
    side took this round; `moves` the round's moves; `playing` says a round is under way
    (False before the first deal, between rounds and at the end); `history` the finished
    rounds; `end` the reason once the game is over; `forfeit` the side that forfeited by
    leaving. `before` is the state before the latest move (for takebacks)."""

    variant: str
    seats: int
    seq: int
    players: tuple[str, ...]
    round_count: int
    given: tuple[str, ...]
    round: int = 0
    setup: str = ""
    board: tuple[int, ...] = (EMPTY,) * CELLS
    arrows: tuple[int | None, ...] = ()
    counts: tuple[tuple[int, ...], tuple[int, ...]] = NO_COUNTS
    moves: tuple[Take, ...] = ()
    playing: bool = False
    history: tuple[RoundScore, ...] = ()
    left: frozenset[int] = frozenset()
    end: str | None = None
    forfeit: int | None = None
    before: State | None = field(default=None, compare=False, repr=False)

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def starter(self) -> int:
        """The seat that opens the current round: red (1) in odd rounds, yellow (2) in even."""
        return 1 if self.round % 2 == 1 else 2

    @property
    def to_move(self) -> int | None:
        if self.end is not None or not self.playing:
            return None
        return (self.starter - 1 + len(self.moves)) % self.seats + 1

    @property
    def deal_due(self) -> bool:
        """Whether the next event must be a deal (before the first round, between rounds)."""
        return self.end is None and not self.playing and self.round < self.round_count

    @property
    def opening(self) -> bool:
        """Whether the move due is the round's opening placement."""
        return self.playing and is_opening(self.arrows)

    def round_scores(self) -> tuple[int, int]:
        """Each side's score in the current round so far (the doubling as it stands)."""
        return side_scores(self.counts)

    def totals(self, live: bool = False) -> tuple[int, int]:
        """Each side's total over the finished rounds (and the round under way if `live`)."""
        red = sum(r.scores[0] for r in self.history)
        yellow = sum(r.scores[1] for r in self.history)
        if live and self.playing:
            now = self.round_scores()
            red, yellow = red + now[0], yellow + now[1]
        return red, yellow

    def legal_moves(self, seat: int) -> list[tuple[int, int | None]]:
        """`seat`'s moves now as (line, cell taken or None for an opening placement)."""
        if self.to_move != seat:
            return []
        if is_opening(self.arrows):
            return [(line, None) for line in range(SIZE)]
        return list(takes(self.board, self.arrows, seat))

    def move_text(self, seat: int, line: int, cell: int | None) -> str:
        return line_name(side_of(seat), line) if cell is None else cell_name(cell)


# -- the catalog -------------------------------------------------------------------------------

OPTIONS = (
    OptionSpec("rounds", "Rounds", 2, "int", 1, 10,
               description="rounds in the game; with 2 each colour starts once"),
    OptionSpec("setups", "Setups of the first rounds", [], "strings", 0, 10,
               description="36 letters each (a1…f1, a2…, f6) of Y R G B W S K: 8 yellow, "
               "7 red, 6 green, 5 blue, 4 white, 3 grey (S), 3 black (K); later rounds are "
               "dealt at random; a rematch is dealt at random", rematch=False,
               placeholder="36 letters of YRGBWSK; a comma between setups"),
)
VARIANT_SPECS = {
    "2p": VariantSpec("2p", "2 players", (2,), ("red", "yellow"), rated=True, options=OPTIONS,
                      description="red against yellow"),
    "4p": VariantSpec("4p", "4 players in two teams", (4,),
                      ("red", "yellow", "red", "yellow"), rated=False, options=OPTIONS,
                      description="seats 1 and 3 (red) against seats 2 and 4 (yellow)",
                      leaving="The computer plays your seat for the rest of the game, so your "
                      "partner plays on and your team can still win. If your partner has "
                      "left too, your team loses."),
}


def _level_specs() -> dict[int, LevelSpec]:
    from .ai import LEVELS

    return {n: LevelSpec(n, lv.name, lv.description, lv.seconds) for n, lv in LEVELS.items()}


class MarblesRules(BaseRules, Chance, Computer, Hints, Replacement, Analysis, Ladder,
                   ApplyMove):
    """Corner, the marble game, for the `Game` log. Every method is pure."""

    game = GAME
    title = "Corner"
    tagline = "marbles, 2 or 4 players"
    summary = ("Slide your arrow to a new line and take the marble where it "
               "crosses your opponent's.")
    palette = {"red": ColourSpec("#c62828", "#fff", "▲"),
               "yellow": ColourSpec("#f2c81b", "#111", "▶")}
    variants = VARIANT_SPECS
    stats = (StatSpec("marbles", "marbles taken by the side"),
             StatSpec("rounds_won", "rounds won by the side"),
             StatSpec("doubled", "colours held alone at a round's end"))
    hint_level = 3
    #: The computer level the host seats for a player who leaves a 4-player game.
    left_seat_level = 3

    @property
    def levels(self) -> dict[int, LevelSpec]:  # type: ignore[override]
        return _level_specs()

    def plays_on(self, state: State, seat: int) -> bool:
        """Whether `seat` has left but the game goes on with the seat played by the computer
        (the 4-player game, until both seats of a team have left)."""
        return seat in state.left and not state.over

    def replacement_level(self, state: State, seat: int) -> int | None:
        """`left_seat_level` for a seat that left and plays on, else None."""
        return self.left_seat_level if self.plays_on(state, seat) else None

    # -- fold ------------------------------------------------------------------------------
    def initial_state(self, created: GameCreated) -> State:
        spec = VARIANT_SPECS.get(created.variant)
        if spec is None:
            raise E.NoSuchGameError(
                f"Corner has no variant {created.variant!r} (2p or 4p)",
                variant=created.variant)
        options = spec.option_values(created.options)
        seats = spec.seats[0]
        players = created.players or tuple(
            f"{c.capitalize()} {i}" if seats == 4 else c.capitalize()
            for i, c in enumerate(spec.colours, 1))
        if len(players) != seats:
            raise E.EngineError(f"Corner {spec.name} has {seats} seats, not {len(players)}",
                                seats=seats)
        setups = options["setups"]
        if len(setups) > options["rounds"]:
            raise E.BadOptionError(
                f"option setups gives {len(setups)} setups for a game of "
                f"{options['rounds']} round{'s' * (options['rounds'] != 1)}",
                option="setups", rounds=options["rounds"])
        given = tuple(setup_text(parse_setup(text, i)) for i, text in enumerate(setups, 1))
        return State(spec.name, seats, created.seq, tuple(players), options["rounds"], given,
                     arrows=(None,) * seats)

    def apply(self, state: State, event: Event) -> State:
        if isinstance(event, Moved):
            return self._moved(state, event)
        if isinstance(event, RoundDealt):
            return self._dealt(state, event)
        if isinstance(event, PlayerLeft):
            return self._left(state, event)
        if isinstance(event, MoveTakenBack):
            return self._taken_back(state, event)
        raise E.LogError(f"event type {event.TYPE} does not belong to a Corner game")

    def _dealt(self, state: State, event: RoundDealt) -> State:
        if not state.deal_due:
            raise E.LogError("no deal is due now" + (" (the game is over)" if state.over
                                                     else " (a round is under way)"))
        if event.round != state.round + 1:
            raise E.LogError(f"the deal is for round {state.round + 1}, not {event.round}")
        try:
            board = parse_setup(event.setup, event.round)
        except E.BadSetupError as e:
            raise E.LogError(e.message) from None
        if setup_text(board) != event.setup:
            raise E.LogError(f"round {event.round}'s setup must be 36 capital letters")
        if event.round <= len(state.given) and state.given[event.round - 1] != event.setup:
            raise E.LogError(f"round {event.round} must be dealt the given setup")
        return replace(state, seq=event.seq, round=event.round, setup=event.setup,
                       board=board, arrows=(None,) * state.seats, counts=NO_COUNTS,
                       moves=(), playing=True, before=None)

    def apply_move(self, state: State, event: Event, move: tuple[int, int | None]) -> State:
        if not isinstance(event, Moved):
            return self.apply(state, event)
        return self._moved(state, event, move)

    def _moved(self, state: State, event: Moved,
               move: tuple[int, int | None] | None = None) -> State:
        seat = event.seat
        line, cell = move if move is not None else self.resolve(state, seat, event.move)
        side = side_of(seat)
        arrows = list(state.arrows)
        arrows[seat - 1] = line
        board = state.board
        colour = None
        counts = state.counts
        if cell is not None:
            colour = board[cell]
            board = board[:cell] + (EMPTY,) + board[cell + 1:]
            mine = list(counts[side])
            mine[colour] += 1
            counts = (tuple(mine), counts[1]) if side == 0 else (counts[0], tuple(mine))
        new = replace(state, seq=event.seq, board=board, arrows=tuple(arrows), counts=counts,
                      moves=state.moves + (Take(event.seq, seat, line, cell, colour),),
                      before=state)
        after = new.to_move
        assert after is not None
        if has_take(new.board, new.arrows, after):
            return new
        # the seat to move cannot take a marble: the round ends (even if a partner could)
        done = RoundScore(state.round, state.setup, state.starter, counts, side_scores(counts))
        new = replace(new, playing=False, history=state.history + (done,))
        if new.round >= new.round_count:
            new = replace(new, end="finished")
        return new

    def _left(self, state: State, event: PlayerLeft) -> State:
        seat = event.seat
        self._check_open(state, seat)
        left = state.left | {seat}
        if state.seats == 2:
            return replace(state, seq=event.seq, left=left, end="resigned",
                           forfeit=side_of(seat), playing=False, before=None)
        side = side_of(seat)
        if all(s in left for s in range(1, state.seats + 1) if side_of(s) == side):
            return replace(state, seq=event.seq, left=left, end="left", forfeit=side,
                           playing=False, before=None)
        return replace(state, seq=event.seq, left=left)

    def _taken_back(self, state: State, event: MoveTakenBack) -> State:
        self._check_undo(state, event.seat, event.from_seq)
        back = state
        while back.moves and back.moves[-1].seq >= event.from_seq:
            assert back.before is not None
            back = back.before
        # a seat that left since keeps having left
        return replace(back, seq=event.seq, left=state.left)

    # -- commands --------------------------------------------------------------------------
    def check_move(self, state: State, seat: int, text: str, *,
                   now: float | None = None) -> tuple[int, int | None]:
        """(`seat`'s new line, the cell it takes or None) if `seat` may play `text` now."""
        return self.resolve(state, seat, text)

    def play_move(self, state: State, seat: int, move: tuple[int, int | None], *,
                  now: float | None = None) -> Moved:
        """The event carries the move as written canonically (`c`, `4` or `c4`)."""
        line, cell = move
        return Moved(seq=state.seq + 1, seat=seat, move=state.move_text(seat, line, cell))

    def undo(self, state: State, seat: int, *, now: float | None = None) -> MoveTakenBack:
        """Take back `seat`'s latest move of the round under way and every move after it."""
        self._check_seat(state, seat)
        own = [m.seq for m in state.moves if m.seat == seat]
        if not own:
            raise E.NothingToUndoError(f"seat {seat} has no move in this round to take back")
        event = MoveTakenBack(seq=state.seq + 1, seat=seat, from_seq=own[-1])
        self._check_undo(state, seat, event.from_seq)
        return event

    def leave(self, state: State, seat: int, *, now: float | None = None) -> PlayerLeft:
        """2 players: resigning. 4 players: the seat goes on, played by the computer."""
        self._check_open(state, seat)
        return PlayerLeft(seq=state.seq + 1, seat=seat)

    def chance(self, state: State, rng: random.Random) -> RoundDealt | None:
        """The next round's deal when one is due: the given setup for the round if there is
        one, else the 36 marbles shuffled with `rng`."""
        if not state.deal_due:
            return None
        number = state.round + 1
        setup = (state.given[number - 1] if number <= len(state.given)
                 else random_setup(rng))
        return RoundDealt(seq=state.seq + 1, round=number, setup=setup)

    # -- queries ---------------------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        return state.to_move

    def is_over(self, state: State) -> bool:
        return state.over

    def left(self, state: State) -> frozenset[int]:
        return state.left

    def winning_side(self, state: State) -> int | None:
        """0 (red) or 1 (yellow) once one has won, None on a draw or while playing."""
        if state.end is None:
            return None
        if state.forfeit is not None:
            return 1 - state.forfeit
        red, yellow = state.totals()
        return None if red == yellow else (0 if red > yellow else 1)

    def outcome(self, state: State) -> Outcome:
        """Scores are each seat's side's total (the round under way included while it is
        played); points 2 a win, 1 a draw. A seat that left a 4-player game cannot win: its
        result is a loss with no points, while its partner keeps the side's result. The
        4-player game names its `teams`; `ending` says how the game ended."""
        totals = state.totals(live=True)
        seats = range(1, state.seats + 1)
        scores = tuple(totals[side_of(s)] for s in seats)
        teams = (tuple(Team(SIDES[side].capitalize(),
                            tuple(s for s in seats if side_of(s) == side)) for side in (0, 1))
                 if state.seats == 4 else ())
        if state.end is None:
            return Outcome((), ("draw",) * state.seats, scores, "playing",
                           (1,) * state.seats, teams=teams)
        winner = self.winning_side(state)
        side_result = ["draw", "draw"] if winner is None else [
            "win" if side == winner else "loss" for side in (0, 1)]
        results = tuple("loss" if s in state.left else side_result[side_of(s)] for s in seats)
        winners = tuple(s for s in seats if results[s - 1] != "loss")
        return Outcome(winners, results, scores, state.end,
                       tuple(MATCH_POINTS[r] for r in results), self.ending(state), teams)

    def ending(self, state: State) -> str:
        """How the game ended, in words: "Yellow wins 84–54 after 2 rounds", "Draw: 60–60
        after 2 rounds", "Yellow resigned in round 1", "Red forfeited: both red players
        left in round 2"; "" while it is played."""
        if state.end is None:
            return ""
        if state.end == "resigned":
            return f"{SIDES[state.forfeit].capitalize()} resigned in round {state.round}"
        if state.end == "left":
            side = SIDES[state.forfeit]
            return f"{side.capitalize()} forfeited: both {side} players left in round {state.round}"
        totals = state.totals()
        played = len(state.history)
        rounds = f"after {played} round{'s' * (played != 1)}"
        winner = self.winning_side(state)
        if winner is None:
            return f"Draw: {totals[0]}–{totals[1]} {rounds}"
        return (f"{SIDES[winner].capitalize()} wins {totals[winner]}–{totals[1 - winner]} "
                f"{rounds}")

    def legal(self, state: State, seat: int, query: str | None = None) -> list[dict]:
        """`seat`'s moves now: for a round's opening placement the lines, `{"move": "c",
        "line": "c"}`; else the cells it may take, `{"move": "c4", "line": "c", "colour":
        "R", "by": [seats whose arrows cross there]}`. Empty unless it is `seat`'s turn."""
        out = []
        side = side_of(seat)
        for line, cell in state.legal_moves(seat):
            name = line_name(side, line)
            if cell is None:
                out.append({"move": name, "line": name})
                continue
            other = cell % SIZE if side == 1 else cell // SIZE
            by = [s for s, a in enumerate(state.arrows, 1) if side_of(s) != side and a == other]
            out.append({"move": cell_name(cell), "line": name,
                        "colour": COLOUR_LETTERS[state.board[cell]], "by": by})
        return out

    def public_view(self, state: State) -> PublicView:
        red, yellow = state.round_scores()
        totals = state.totals()
        cells = setup_text(state.board)
        board = {
            "variant": state.variant, "size": SIZE,
            "cells": cells,
            "rows": [cells[r * SIZE:(r + 1) * SIZE] for r in range(SIZE - 1, -1, -1)],
            "setup": state.setup,
            "arrows": [{"seat": s, "side": SIDES[side_of(s)],
                        "axis": "column" if side_of(s) == 0 else "row",
                        "line": None if a is None else line_name(side_of(s), a)}
                       for s, a in enumerate(state.arrows, 1)],
            "round": state.round, "round_count": state.round_count,
            "starter": state.starter if state.round else None,
            "to_move": state.to_move, "opening": state.opening,
            "status": ("dealing" if state.deal_due else "playing" if state.playing
                       else state.end or "waiting"),
            "sides": {SIDES[side]: self._side_view(state, side, (red, yellow)[side])
                      for side in (0, 1)},
            "rounds": [{"round": r.round, "setup": r.setup, "starter": r.starter,
                        "scores": {"red": r.scores[0], "yellow": r.scores[1]}}
                       for r in state.history],
            "team_scores": {"red": totals[0], "yellow": totals[1]},
            "computer_seats": sorted(state.left) if state.seats == 4 and not state.over
            else [],
            "last_take": self._last(state),
            "result": None,
        }
        if state.over:
            o = self.outcome(state)
            board["result"] = {"winners": list(o.winners), "results": list(o.results),
                               "team_scores": {"red": totals[0], "yellow": totals[1]},
                               "reason": o.reason}
        live = state.totals(live=True)
        seats = tuple(SeatView(
            colour=SIDES[side_of(s)], left=s in state.left, score=live[side_of(s)],
            can_move=state.to_move == s,
            view={"side": SIDES[side_of(s)],
                  "line": board["arrows"][s - 1]["line"],
                  "computer": state.seats == 4 and s in state.left and not state.over},
        ) for s in range(1, state.seats + 1))
        last = state.moves[-1] if state.moves else None
        last_move = ({"seat": last.seat, "move": state.move_text(last.seat, last.line,
                                                                 last.cell),
                      "seq": last.seq} if last else None)
        return PublicView(board, seats, last_move)

    @staticmethod
    def _side_view(state: State, side: int, score: int) -> dict:
        mine, theirs = state.counts[side], state.counts[1 - side]
        colours = []
        for c in TAKEABLE:
            n = mine[c]
            if n:
                doubled = not theirs[c]
                colours.append({"colour": COLOUR_NAMES[c], "letter": COLOUR_LETTERS[c],
                                "count": n, "points": colour_score(n, 1), "doubled": doubled,
                                "score": colour_score(n, theirs[c])})
        return {"seats": [s for s in range(1, state.seats + 1) if side_of(s) == side],
                "marbles": {COLOUR_LETTERS[c]: mine[c] for c in TAKEABLE},
                "colours": colours, "score": score,
                "total": state.totals()[side] + (score if state.playing else 0)}

    @staticmethod
    def _last(state: State) -> dict | None:
        for m in reversed(state.moves):
            if m.cell is not None:
                return {"seat": m.seat, "cell": cell_name(m.cell),
                        "colour": COLOUR_LETTERS[m.colour], "seq": m.seq}
        return None

    def step(self, state: State, event: Event) -> Step:
        """A move's step gives its round, line and the colour taken; a deal's its setup
        (`state` is right after the event)."""
        if isinstance(event, Moved):
            take = next((m for m in reversed(state.moves) if m.seq == event.seq), None)
            details: dict = {"round": state.round, "side": SIDES[side_of(event.seat)]}
            col, row = parse_move(event.move)
            if col is not None and row is not None:
                details["cell"] = event.move
                details["line"] = event.move[0] if side_of(event.seat) == 0 else event.move[1]
            else:
                details["line"] = event.move
                details["opening"] = True
            if take is not None and take.colour is not None:
                details["colour"] = COLOUR_LETTERS[take.colour]
            if not state.playing and state.history and state.history[-1].round == state.round:
                details["round_over"] = True
            return Step("move", event.seat, event.move, details)
        if isinstance(event, RoundDealt):
            return Step("deal", None, None, {"round": event.round, "setup": event.setup},
                        text=f"Round {event.round} dealt")
        if isinstance(event, PlayerLeft) and state.seats == 4 and not state.over:
            return Step("left", event.seat, None, {"computer": True},
                        text="left; the computer plays on")
        return super().step(state, event)

    def picture(self, state: State) -> Picture:
        names = COLOUR_NAMES + ("",)
        cells = tuple(tuple(names[state.board[cell_of(c, r)]] for c in range(SIZE))
                      for r in range(SIZE - 1, -1, -1))
        marks = []
        for s, a in enumerate(state.arrows, 1):
            if a is None:
                continue
            if side_of(s) == 0:
                marks.append((0 if s == 1 else SIZE - 1, a, "▼" if s == 1 else "▲"))
            else:
                marks.append((SIZE - 1 - a, 0 if s == 2 else SIZE - 1, "▶" if s == 2 else "◀"))
        return Picture(cells, tuple(COLUMNS), tuple(reversed(ROWS)), tuple(marks))

    def ladder(self, state: State) -> tuple[LadderSeat, ...]:
        outcome = self.outcome(state)
        out = []
        for s in range(1, state.seats + 1):
            side = side_of(s)
            marbles = sum(sum(r.counts[side]) for r in state.history)
            won = sum(1 for r in state.history if r.scores[side] > r.scores[1 - side])
            doubled = sum(1 for r in state.history for c in TAKEABLE
                          if r.counts[side][c] and not r.counts[1 - side][c])
            out.append(LadderSeat(outcome.points[s - 1],
                                  {"marbles": marbles, "rounds_won": won, "doubled": doubled}))
        return tuple(out)

    # -- computer players ------------------------------------------------------------------
    def choose_move(self, state: State, seat: int, *, level: int, seed: int) -> str | None:
        from .ai import choose_move

        return choose_move(state, seat, level=level, seed=seed)

    def warm_up(self) -> float:
        return 0.0

    def hint(self, state: State, seat: int) -> str | None:
        """The move of level `hint_level`."""
        return self.choose_move(state, seat, level=self.hint_level, seed=0)

    # -- reviewing a finished game (engine.marbles.analysis) -------------------------------
    @property
    def analysis_thresholds(self):
        from .analysis import THRESHOLDS

        return THRESHOLDS

    def analyse_ply(self, state: State, seat: int, move: str, *, level: int | None = None,
                    seed: int = 0):
        from .analysis import analyse_ply

        return analyse_ply(state, seat, move, level=level, seed=seed)

    # -- testing the move generator --------------------------------------------------------
    def perft(self, variant: str, depth: int, moves=(), setup: str | None = None) -> int:
        """Legal move sequences of `depth` moves in round 1 of `variant` dealt `setup` (by
        default `SAMPLE_SETUP`) after `moves`; a sequence stops where the round ends."""
        if variant not in VARIANT_SPECS:
            raise E.EngineError(f"Corner has no variant {variant!r}",
                                variants=sorted(VARIANT_SPECS))
        if not isinstance(depth, int) or depth < 0:
            raise E.EngineError("the depth must be a whole number, 0 or more", depth=depth)
        state = start_state(variant, setup or SAMPLE_SETUP, rounds=1)
        for text in moves:
            seat = state.to_move
            if seat is None:
                raise E.EngineError(f"the round is over before {text}", move=text)
            state = self.apply(state, self.play(state, seat, text))
        return _perft(state, depth)

    # -- checks ----------------------------------------------------------------------------
    def resolve(self, state: State, seat: int, text: str) -> tuple[int, int | None]:
        """(`seat`'s new line, the cell it takes or None) for move `text`, or the precise
        reason it is not legal now."""
        self._check_turn(state, seat)
        col, row = parse_move(text)
        side = side_of(seat)
        axis = "column" if side == 0 else "row"
        if is_opening(state.arrows):
            line = col if side == 0 else row
            if line is None or (col is not None and row is not None):
                raise E.IllegalMoveError(
                    f"the round opens with a placement: name a {axis} "
                    f"({'a to f' if side == 0 else '1 to 6'}), which takes nothing",
                    rule="opening")
            return line, None
        if col is None or row is None:
            raise E.IllegalMoveError("name the cell you take (like c4), not a line",
                                     rule="cell")
        line, other = (col, row) if side == 0 else (row, col)
        cell = cell_of(col, row)
        name = cell_name(cell)
        if line == state.arrows[seat - 1]:
            raise E.IllegalMoveError(
                f"your arrow already points at {axis} {line_name(side, line)}: slide it to "
                "another line", rule="same_line", cell=name)
        if other not in opposing_lines(state.arrows, seat):
            what = "row" if side == 0 else "column"
            raise E.IllegalMoveError(
                f"no arrow of the other side points at {what} {line_name(1 - side, other)}",
                rule="no_arrow", cell=name)
        assert crossing(side, line, other) == cell
        if state.board[cell] == EMPTY:
            raise E.IllegalMoveError(f"{name} is empty", rule="empty", cell=name)
        if state.board[cell] == BLACK:
            raise E.IllegalMoveError(f"the black marble on {name} cannot be taken",
                                     rule="black", cell=name)
        return line, cell

    def _check_seat(self, state: State, seat: int) -> None:
        self.check_seat(seat, state.seats)

    def _check_open(self, state: State, seat: int) -> None:
        self.check_open(state, seat, state.seats)

    def _check_turn(self, state: State, seat: int) -> None:
        self._check_seat(state, seat)
        if state.over:
            raise E.GameOverError("the game is over")
        if seat in state.left and state.seats == 2:
            raise E.SeatLeftError(f"seat {seat} has left this game")
        if state.to_move is None:
            raise E.NotYourTurnError("the next round has not been dealt yet", to_move=None)
        if seat != state.to_move:
            raise E.NotYourTurnError(
                f"it is seat {state.to_move}'s turn, not seat {seat}'s", to_move=state.to_move)

    def _check_undo(self, state: State, seat: int, from_seq: int) -> None:
        self._check_open(state, seat)
        if not state.playing:
            raise E.NothingToUndoError("a finished round's moves cannot be taken back")
        if not any(m.seq == from_seq and m.seat == seat for m in state.moves):
            raise E.NothingToUndoError(
                f"event {from_seq} is not a move of seat {seat} in this round")


def _perft(state: State, depth: int) -> int:
    seat = state.to_move
    if seat is None:
        return 1 if depth == 0 else 0
    if depth == 0:
        return 1
    moves = state.legal_moves(seat)
    if depth == 1:
        return len(moves)
    total = 0
    for line, cell in moves:
        text = state.move_text(seat, line, cell)
        total += _perft(RULES.apply(state, Moved(seq=state.seq + 1, seat=seat, move=text)),
                        depth - 1)
    return total


RULES = MarblesRules()

#: A fixed setup for examples and perft (rows 1 to 6).
SAMPLE_SETUP = ("YYYSYK" "GWWWBR" "YSBYRR"
                "YGRKGB" "GYGRKB" "BWRGRS")


def new_game(variant: str = "2p", players: tuple[str, ...] = (),
             options: dict | None = None) -> Game:
    """A fresh Corner `Game` without the registry (the log names game "marbles"); the
    first round is not dealt yet (`RULES.chance`)."""
    created = GameCreated(seq=1, game=GAME, variant=variant, players=tuple(players),
                          options=dict(options or {}))
    return Game(RULES, created, RULES.initial_state(created))


def start_state(variant: str = "2p", setup: str | None = None, **options) -> State:
    """Round 1 of a fresh game of `variant` with `options`, dealt `setup` (the first given
    setup if there is one, else `SAMPLE_SETUP`)."""
    state = RULES.initial_state(GameCreated(seq=1, game=GAME, variant=variant,
                                            options=options))
    if setup is None:
        setup = state.given[0] if state.given else SAMPLE_SETUP
    return RULES.apply(state, RoundDealt(seq=2, round=1, setup=setup_text(parse_setup(setup))))
