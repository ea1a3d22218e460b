"""Corners' rules module: the core of the game's `engine.rules.Rules`, the fold of its log and
the commands, with its catalog line and the functions that start a game.

Seat 1 plays white (home a1, moves first), seat 2 black (home h8, or p16 on 16×16). The
state (`state.State`) is an immutable value; `to_move` is derived. Every command checks the
state and returns the one event to append; `apply` checks it again, so a log read from disk
is held to the same rules.

The clock (chess style, `reserve_s` + `increment_s` a move; reserve 0: no clock) is kept by
the host: every command gets the host's wall clock `now` (seconds) and the events record it
as `at_ms`, so the fold and every replay reproduce the clocks exactly. No clock runs before
white's first move: that move is not charged, and black's clock starts when it is made.
Every move then charges the mover the time since its clock started and adds the increment.

The capabilities are modules of their own, each a class `CornersRules` derives from: the
clock and its takeback rule (`clock`), the actions (`actions`), the computer players, hints
and reviews (`players`), `.cgn` records (`cgn`) and what the ladder sees (`ladder`). The
events are in `events`, the words of an ending in `ending`, the public view, a replay's step
and the picture in `view`. Besides the core, this class keeps the fold of a move checked
already (`ApplyMove`) and a perft on the fast move counter (`perft.count`): each is the core's
own walk, only faster.
"""

from __future__ import annotations

from dataclasses import replace

from ..capabilities import ApplyMove
from ..events import Event, GameCreated, MoveTakenBack, PlayerLeft
from ..rules import (
    BaseRules,
    ColourSpec,
    FormatSpec,
    LevelSpec,
    Outcome,
    Picture,
    PublicView,
    StatSpec,
    Step,
)
from . import errors as E
from . import practice as P
from . import view as V
from .actions import CornersActions
from .catalog import CLOCKS, OPTIONS, VARIANT_SPECS, level_specs
from .cgn import CornersRecords
from .clock import CornersClock
from .ending import ending, solo_outcome
from .events import (
    ACTION_EVENTS,
    ACTIONS,
    STEP_WORDS,
    ClockResumed,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    FlagFell,
    Moved,
    Resigned,
    check_ms,
    to_ms,
)
from .ladder import CornersLadder
from .moves import chains, has_move, judge, locks_in, stuck_end
from .perft import count
from .players import HINT_SECONDS, CornersPlayers
from .state import Played, State, later, placed, solo_moved
from .variants import COLOURS, GAME, VARIANTS

#: The names other modules take from here: the events, the state, the capabilities' constants.
__all__ = ["ACTIONS", "ACTION_EVENTS", "CLOCKS", "ClockResumed", "CornersRules", "DrawAccepted",
           "DrawDeclined", "DrawOffered", "FlagFell", "GAME", "HINT_SECONDS", "MATCH_POINTS",
           "MOVE_ENDS", "Moved", "OPTIONS", "Played", "RULES", "Resigned", "STEP_WORDS", "State",
           "VARIANT_SPECS", "move_list", "new_game", "perft", "setup_state", "start_state",
           "to_ms"]

MATCH_POINTS = {"win": 2, "draw": 1, "loss": 0}
#: Ends that come from a move (a takeback can undo them); the others close the game.
MOVE_ENDS = frozenset({"target", "deadline", "home_return", "move_limit", "repetition",
                       "no_move"})


class CornersRules(CornersClock, CornersActions, CornersPlayers, CornersRecords, CornersLadder,
                   BaseRules, ApplyMove):
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
    legal_query = "from"
    legal_query_schema = {"type": "string", "pattern": "^ *[a-pA-P](1[0-6]|[1-9]) *$"}
    formats = {"cgn": FormatSpec("cgn", "text/plain", "Corners game notation")}

    @property
    def levels(self) -> dict[int, LevelSpec]:  # type: ignore[override]
        return level_specs()

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
            return placed(state, board, to_move, number)
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
            return self._clock_resumed(state, event)
        if isinstance(event, MoveTakenBack):
            return self._taken_back(state, event)
        raise E.LogError(f"event type {event.TYPE} does not belong to a Corners game")

    def apply_move(self, state: State, event: Event, move: tuple[int, ...]) -> State:
        if not isinstance(event, Moved):
            return self.apply(state, event)
        return self._moved(state, event, move)

    def _moved(self, state: State, event: Moved, path: tuple[int, ...] | None = None) -> State:
        if path is None:  # a move read from a log: checked in full
            check_ms(event.at_ms, "corners_moved")
            self._check_turn(state, event.seat, event.at_ms)
            path = self.resolve(state, event.seat, event.move)
        seat, variant = event.seat, state.variant
        board = list(state.board)
        f, t = path[0], path[-1]
        board[f], board[t] = 0, seat
        if state.solo:
            return solo_moved(state, event, path, board)
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
            last_at_ms=later(state.last_at_ms, event.at_ms),
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
            return solo_outcome(state)
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
        """How the game ended, in words (`ending.ending`); "" while it is played."""
        return ending(state)

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
        return V.public_view(state)

    def step(self, state: State, event: Event) -> Step:
        """A move's step gives its number, colour and jumps (`view.step`)."""
        return V.step(state, event) or super().step(state, event)

    def picture(self, state: State) -> Picture:
        return V.picture(state)

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

    # -- checks ----------------------------------------------------------------------------
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
    return placed(start_state(variant, **options), board, to_move, number)


def perft(state_or_variant, depth: int, moves=()) -> int:
    """`CornersRules.perft` of the game's rules."""
    return RULES.perft(state_or_variant, depth, moves)

