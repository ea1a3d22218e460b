"""Corner's rules module: the core of the game's `engine.rules.Rules`, the fold of its log
(rounds, scores and ends) and the commands, with the functions that start a game.

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

The capabilities are modules of their own, each a class `MarblesRules` derives from: the
deals (`chance`), the computer players, hints, reviews and the computer that plays on for a
leaver (`players`) and the ladder's stats (`ladder`). The events are in `events`, the state in
`state`, the public view, a replay's step and the picture in `view`, the catalog's options
in `catalog`. Besides the core, this class keeps the fold of a move checked already
(`ApplyMove`) and a perft of round 1 from a given deal: each is the core's own walk.
"""

from __future__ import annotations

from dataclasses import replace

from ..capabilities import ApplyMove
from ..core import Game
from ..events import Event, GameCreated, MoveTakenBack, PlayerLeft
from ..rules import (
    BaseRules,
    ColourSpec,
    LevelSpec,
    Outcome,
    Picture,
    PublicView,
    StatSpec,
    Step,
    Team,
)
from . import errors as E
from . import view as V
from .board import (
    BLACK,
    COLOUR_LETTERS,
    EMPTY,
    SIDES,
    SIZE,
    cell_name,
    cell_of,
    line_name,
    parse_move,
    parse_setup,
    setup_text,
    side_scores,
)
from .catalog import OPTIONS, VARIANT_SPECS, level_specs
from .chance import MarblesChance
from .events import Moved, RoundDealt
from .ladder import MarblesLadder
from .moves import crossing, has_take, is_opening, opposing_lines, side_of
from .players import MarblesPlayers
from .state import NO_COUNTS, RoundScore, State, Take

#: The names other modules take from here: the events, the state, the catalog.
__all__ = ["GAME", "MATCH_POINTS", "NO_COUNTS", "OPTIONS", "REASONS", "RULES", "SAMPLE_SETUP",
           "MarblesRules", "Moved", "RoundDealt", "RoundScore", "State", "Take",
           "VARIANT_SPECS", "new_game", "start_state"]

GAME = "marbles"
MATCH_POINTS = {"win": 2, "draw": 1, "loss": 0}
#: How a game ends, as `Outcome.reason` and the view's `result` give it.
REASONS = ("finished", "resigned", "left")


class MarblesRules(MarblesChance, MarblesPlayers, MarblesLadder, BaseRules, ApplyMove):
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

    @property
    def levels(self) -> dict[int, LevelSpec]:  # type: ignore[override]
        return level_specs()

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
        return V.public_view(state, self.outcome(state) if state.over else None)

    def step(self, state: State, event: Event) -> Step:
        """A move's step gives its round, line and the colour taken; a deal's its setup
        (`view.step`)."""
        return V.step(state, event) or super().step(state, event)

    def picture(self, state: State) -> Picture:
        return V.picture(state)

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
