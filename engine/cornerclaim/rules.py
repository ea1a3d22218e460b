"""Corner Claim's own rules module: the core of its `engine.rules.Rules`, the placement
check, turns, scoring, results.

Seats are numbered 1..n in play order. The state (`state.State`) is an immutable value folded
from events; `to_move` is derived (a seat without a legal placement is skipped, never asked
to pass).

The capabilities the rules bring are modules of their own, each a class `CornerClaimRules`
derives from: what a host prepares once (`preparation`), the ladder's stats (`ladder`) and
the legal list's own JSON (`legal_json`); `game` adds the computer players, hints, records,
GTP and reviews. Besides the core, this class keeps the fold of a placement checked already
(`ApplyMove`): the core's own fold, only faster.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..capabilities import ApplyMove
from ..events import Event, GameCreated, MoveTakenBack, PlayerLeft, event_type
from ..rules import (
    BaseRules,
    ColourSpec,
    FormatSpec,
    Outcome,
    Picture,
    PublicView,
    SeatView,
    StatSpec,
    Step,
    VariantSpec,
)
from . import errors as E
from .ladder import CornerClaimLadder
from .legal_json import CornerClaimLegalJson
from .notation import COLUMNS, cell_name, parse_cells
from .pieces import PIECE_NAMES, PIECES, SHAPE_INDEX, normalise
from .position import Position
from .preparation import CornerClaimPreparation
from .state import State, next_to_move
from .variants import VARIANTS, Variant

#: The names other modules take from here: the event, the state, the functions that start a
#: game or read a position.
__all__ = ["GAME", "MATCH_POINTS", "RULES", "VARIANT_SPECS", "CornerClaimRules", "PiecePlaced",
           "State", "new_game", "no_seat_can_place", "setup_state"]

GAME = "cornerclaim"
MATCH_POINTS = {"win": 22, "draw": 8, "loss": 3}


@event_type(aliases=("piece_placed",))
@dataclass(frozen=True, kw_only=True)
class PiecePlaced(Event):
    """A seat laid a piece; `move` is its cells in canonical Pentobi notation. Logs written
    before the naming rule call it `piece_placed`."""

    TYPE: ClassVar[str] = "cornerclaim_piece_placed"
    seat: int
    move: str


#: The variants as the catalog lists them (`variants.VARIANTS` holds their boards).
VARIANT_SPECS = {
    "duo": VariantSpec("duo", "Duo", (2,), VARIANTS["duo"].colours, rated=True,
                       description="2 players on a 14×14 board"),
    "trio": VariantSpec("trio", "Trio", (3,), VARIANTS["trio"].colours, rated=False,
                        description="3 players on a 20×20 board"),
    "classic": VariantSpec("classic", "Classic", (4,), VARIANTS["classic"].colours,
                           rated=False, description="4 players on a 20×20 board"),
}


class CornerClaimRules(CornerClaimPreparation, CornerClaimLadder, CornerClaimLegalJson,
                       BaseRules, ApplyMove):
    """Corner Claim for the `Game` log. Every method is pure."""

    game = GAME
    title = "Corner Claim"
    tagline = "polyomino territory, 2–4 players"
    summary = ("Lay your shapes so your colour meets itself at corners "
               "only, never along a side.")
    palette = {"blue": ColourSpec("#2f6fde", "#fff", "B"),
               "yellow": ColourSpec("#e0b400", "#111", "Y"),
               "red": ColourSpec("#d63c3c", "#fff", "R"),
               "green": ColourSpec("#2e9e4f", "#fff", "G")}
    variants = VARIANT_SPECS
    formats = {"blksgf": FormatSpec("blksgf", "application/x-blokus-sgf", "Pentobi SGF")}
    stats = (StatSpec("all_placed", "all 21 pieces placed"),
             StatSpec("single_last", "monomino placed last"),
             StatSpec("squares_left", "squares left in hand"))
    legal_query = "piece"
    legal_query_schema = {"type": "string", "enum": list(PIECE_NAMES)}
    passing = True  # a seat with no placement left passes (the host skips its turns)

    # -- fold ------------------------------------------------------------------------------
    def initial_state(self, created: GameCreated) -> State:
        variant = VARIANTS.get(created.variant)
        if variant is None:
            raise E.EngineError(
                f"unknown variant {created.variant!r} (duo, trio or classic)",
                variant=created.variant,
            )
        VARIANT_SPECS[variant.name].option_values(created.options)
        players = created.players or tuple(c.capitalize() for c in variant.colours)
        if len(players) != variant.nu_seats:
            raise E.EngineError(f"{variant.name} has {variant.nu_seats} seats, not {len(players)}")
        pos = Position(variant)
        return State(variant, created.seq, tuple(players), (), frozenset(), pos,
                     next_to_move(variant, pos, (), frozenset()))

    def apply(self, state: State, event: Event) -> State:
        if isinstance(event, PiecePlaced):
            return self.apply_move(state, event,
                                   self.check_placement(state, event.seat, event.move))
        if isinstance(event, PlayerLeft):
            self._check_leave(state, event.seat)
            return self._with(state, event.seq, state.placements, state.left | {event.seat},
                              state.position)
        if isinstance(event, MoveTakenBack):
            self._check_undo(state, event.seat, event.from_seq)
            kept = tuple(p for p in state.placements if p[0] < event.from_seq)
            pos = Position(state.variant)
            for _, seat, move in kept:
                pos.play(seat - 1, move)
            return self._with(state, event.seq, kept, state.left, pos)
        raise E.LogError(f"event type {event.TYPE} does not belong to a Corner Claim game")

    def apply_move(self, state: State, event: Event, move: int) -> State:
        if not isinstance(event, PiecePlaced):
            return self.apply(state, event)
        pos = state.position.copy()
        pos.play(event.seat - 1, move)
        placements = state.placements + ((event.seq, event.seat, move),)
        return self._with(state, event.seq, placements, state.left, pos)

    @staticmethod
    def _with(state: State, seq: int, placements, left, pos: Position) -> State:
        return State(state.variant, seq, state.players, placements, left, pos,
                     next_to_move(state.variant, pos, placements, left))

    # -- commands --------------------------------------------------------------------------
    def check_move(self, state: State, seat: int, text: str, *,
                   now: float | None = None) -> int:
        """The move id of `text` (cells in Pentobi notation) if `seat` may place it now."""
        return self.check_placement(state, seat, text)

    def play_move(self, state: State, seat: int, move: int, *,
                  now: float | None = None) -> PiecePlaced:
        return PiecePlaced(seq=state.seq + 1, seat=seat, move=state.move_str(move))

    def undo(self, state: State, seat: int, *, count: int = 1,
             now: float | None = None) -> MoveTakenBack:
        """Take back the seat's latest `count` placements and every placement after them."""
        self._check_seat(state, seat)
        own = [q for q, s, _ in state.placements if s == seat]
        if len(own) < count or count < 1:
            raise E.NothingToUndoError(f"seat {seat} has no placement to take back")
        event = MoveTakenBack(seq=state.seq + 1, seat=seat, from_seq=own[-count])
        self._check_undo(state, seat, event.from_seq)
        return event

    def leave(self, state: State, seat: int, *, now: float | None = None) -> PlayerLeft:
        self._check_leave(state, seat)
        return PlayerLeft(seq=state.seq + 1, seat=seat)

    def check_pass(self, state: State, seat: int) -> None:
        """A pass is never an event: allowed (a no-op) only when the seat has no placement.

        Such a seat is already skipped by `to_move`, so its pass needs no turn check.
        """
        self._check_seat(state, seat)
        if state.can_move(seat):
            raise E.CannotPassError("you cannot pass while a placement exists")

    # -- queries ---------------------------------------------------------------------------
    def legal_moves(self, state: State, seat: int) -> list[int]:
        return state.legal_moves(seat)

    def is_over(self, state: State) -> bool:
        return state.is_over

    def outcome(self, state: State) -> Outcome:
        """Scores and results. Seats that left lose; the best score among the rest wins
        (ties draw). In a two-seat game the seat that stayed wins whatever the score.
        When every seat of a 3- or 4-seat game has left, nobody wins: each seat left, so
        each lost. The reason: "resigned" (a two-seat game someone left), "everyone_left",
        "finished" (nobody can place), "playing" while it runs."""
        n = state.nu_seats
        scores = tuple(state.score(s) for s in state.seats)
        seated = [s for s in state.seats if s not in state.left]
        if seated:
            best = max(scores[s - 1] for s in seated)
            top = tuple(s for s in seated if scores[s - 1] == best)
        else:
            top = ()
        if n == 2 and len(seated) == 1:
            top = tuple(seated)
        results = tuple(
            ("win" if len(top) == 1 else "draw") if s in top else "loss" for s in state.seats
        )
        points = tuple(MATCH_POINTS[r] for r in results)
        if not state.is_over:
            reason = "playing"
        elif n == 2 and state.left:
            reason = "resigned"
        elif not seated:
            reason = "everyone_left"
        else:
            reason = "finished"
        return Outcome(top, results, scores, reason, points,
                       self.ending(state, reason, top, scores))

    @staticmethod
    def ending(state: State, reason: str, top: tuple[int, ...],
               scores: tuple[int, ...]) -> str:
        """How the game ended, in words, with colours and scores: "Nobody can place another
        piece: Blue wins by 7 points", "Orange left the game", "Everyone left"."""
        colour = [c.capitalize() for c in state.variant.colours]
        if reason == "resigned":
            return " and ".join(colour[s - 1] for s in sorted(state.left)) + " left the game"
        if reason == "everyone_left":
            return "Everyone left"
        if reason != "finished":
            return ""
        if len(top) > 1:
            return (f"Nobody can place another piece: {' and '.join(colour[s - 1] for s in top)}"
                    f" tie on {scores[top[0] - 1]}")
        others = [scores[s - 1] for s in state.seats if s not in top and s not in state.left]
        if not others:
            return f"Nobody can place another piece: {colour[top[0] - 1]} played on alone"
        margin = scores[top[0] - 1] - max(others)
        return (f"Nobody can place another piece: {colour[top[0] - 1]} wins by {margin} "
                f"point{'s' * (margin != 1)}")

    # -- the seam: what the host, replays and ladder read -----------------------------------
    def to_move(self, state: State) -> int | None:
        return state.to_move

    def left(self, state: State) -> frozenset[int]:
        return state.left

    def legal(self, state: State, seat: int, query: str | None = None) -> list[dict]:
        """`seat`'s legal placements now as {"piece", "move"} (of the piece named `query`
        only, if given); empty unless it is that seat's turn."""
        bc = state.position.bc
        return [{"piece": PIECES[bc.move_piece[m]].name, "move": state.move_str(m)}
                for m in self._legal_ids(state, seat, query)]

    @staticmethod
    def _legal_ids(state: State, seat: int, piece: str | None) -> list[int]:
        if piece is not None and piece not in PIECE_NAMES:
            raise E.NoSuchPieceError(f"there is no piece {piece!r}", pieces=list(PIECE_NAMES))
        if state.to_move != seat:
            return []
        moves = state.legal_moves(seat)
        if piece is None:
            return moves
        index = PIECE_NAMES.index(piece)
        of_piece = state.position.bc.move_piece
        return [m for m in moves if of_piece[m] == index]

    def public_view(self, state: State) -> PublicView:
        """The board as rows of seat numbers (top row first) and, per seat, its pieces left
        and open corners."""
        movable = {s: state.can_move(s) for s in state.seats}
        seats = tuple(SeatView(
            colour=state.variant.colours[s - 1], left=s in state.left, score=state.score(s),
            can_move=movable[s],
            view={"pieces_left": state.pieces_left(s), "open_corners": state.open_corners(s)},
            out_of_moves=not movable[s] and s not in state.left and not state.is_over,
        ) for s in state.seats)
        last = None
        if state.placements:
            seq, seat, move = state.placements[-1]
            last = {"seat": seat, "move": state.move_str(move), "seq": seq}
        return PublicView({"size": state.variant.size, "rows": state.board()}, seats, last)

    def step(self, state: State, event: Event) -> Step:
        """A placement's step names its piece and squares (`state` is right after it)."""
        if isinstance(event, PiecePlaced):
            piece = PIECES[state.position.bc.move_piece[state.placements[-1][2]]]
            return Step("move", event.seat, event.move,
                        {"piece": piece.name, "squares": piece.size})
        return super().step(state, event)

    def picture(self, state: State) -> Picture:
        colours = ("",) + state.variant.colours
        n = state.variant.size
        cells = tuple(tuple(colours[c] for c in row) for row in state.board())
        return Picture(cells, tuple(COLUMNS[:n]), tuple(str(r) for r in range(n, 0, -1)))

    # -- checks ----------------------------------------------------------------------------
    def parse_move(self, state: State, seat: int, text: str) -> int:
        """Text -> move id, checking notation, board and piece shape (not the position)."""
        cells = parse_cells(text)
        if len(cells) > 5:
            raise E.NotAPieceError("a piece has at most five squares")
        bc = state.position.bc
        off = [c for c in cells if not bc.on(*c)]
        if off:
            n = bc.size
            raise E.OffBoardError(
                f"{cell_name(*off[0])} is off the {n}×{n} board", cell=cell_name(*off[0])
            )
        if normalise(cells) not in SHAPE_INDEX:
            raise E.NotAPieceError(f"those {len(cells)} squares do not form one of the 21 pieces")
        return bc.move_by_cells_mask[bc.mask_of(cells)]

    def check_placement(self, state: State, seat: int, text: str) -> int:
        """The move id if `seat` may place `text` now; otherwise the precise reason."""
        self._check_turn(state, seat)
        move = self.parse_move(state, seat, text)
        pos = state.position
        c = seat - 1
        bc = pos.bc
        piece = PIECES[bc.move_piece[move]]
        if pos.forbidden[c] & bc.piece_bit[piece.index]:
            raise E.PieceUsedError(f"you have already placed the {piece.name}", piece=piece.name)
        cells = bc.move_cells_mask[move]
        taken = cells & sum(pos.occupied)
        if taken:
            name = bc.cell_names(taken)[0]
            raise E.OverlapError(f"{name} is already covered", cell=name)
        if not pos.nu_played[c]:
            if not cells & pos.start_bit[c]:
                start = state.variant.start_name(c)
                raise E.StartCellError(
                    f"your first piece must cover your start square {start}", cell=start
                )
            return move
        edge = cells & pos.forbidden[c]
        if edge:
            name = bc.cell_names(edge)[0]
            raise E.EdgeContactError(
                f"touches your own piece along an edge at {name}", cell=name
            )
        if not cells & pos.corners[c]:
            raise E.NoCornerContactError("must touch one of your own pieces at a corner")
        return move

    def _check_seat(self, state: State, seat: int) -> None:
        self.check_seat(seat, state.nu_seats)

    def _check_turn(self, state: State, seat: int) -> None:
        self.check_turn(state, seat, state.nu_seats)

    def _check_leave(self, state: State, seat: int) -> None:
        self.check_leave(state, seat, state.nu_seats)

    def _check_undo(self, state: State, seat: int, from_seq: int) -> None:
        self.check_undo_seat(state, seat, state.nu_seats)
        if state.nu_seats == 2 and state.left:
            raise E.GameOverError("the game is over")
        if not any(q == from_seq and s == seat for q, s, _ in state.placements):
            raise E.NothingToUndoError(f"event {from_seq} is not a placement of seat {seat}")


RULES = CornerClaimRules()


def setup_state(variant: Variant, position: Position, moves, *, to_move: int | None) -> State:
    """A state for a position set up in any order (GTP controllers, analysis).

    `moves` are (seat, move id) in the order played on `position`; `to_move` is the seat the
    checks and computer players should treat as the one to place (None: nobody).
    """
    placements = tuple((i + 2, seat, m) for i, (seat, m) in enumerate(moves))
    names = tuple(c.capitalize() for c in variant.colours)
    return State(variant, len(placements) + 1, names, placements, frozenset(), position, to_move)


def no_seat_can_place(position: Position) -> bool:
    """Whether no colour has a legal placement left (the end of a game nobody left)."""
    return not any(position.has_moves(c) for c in range(position.nu_colors))


def new_game(variant: str, players: tuple[str, ...] = ()):
    """A fresh Corner Claim `Game` (seq 1: game_created)."""
    from ..core import Game

    return Game.new(GAME, variant, players)
