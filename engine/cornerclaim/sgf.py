"""Pentobi's `.blksgf` game records, read and written. Pure: text in, text out, no I/O.

The dialect (see docs/formats.md): one SGF game tree whose root holds `GM` (`Blokus Duo`,
`Blokus`, or `Blokus Three-Player` for trio), then one move per node in play order —
`B`/`W` in duo, `1`…`4` otherwise — each value the piece's cells in Pentobi notation.
Reading follows the main line (the first variation at every branch), accepts Pentobi's older
colour ids and pass nodes (`1[]`), and rejects anything it cannot replay faithfully with an
`SgfError` that says where and why. `load_game` replays a record through the engine, so an
illegal move is refused exactly as it would be at the table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..core import Game
from ..errors import EngineError, LogError
from .notation import format_cells, parse_cells
from .pieces import NU_PIECES
from .rules import GAME, RULES, State
from .variants import VARIANTS

MAX_CHARS = 1_000_000
APPLICATION = "Corner Claim"

GM_BY_VARIANT = {"duo": "Blokus Duo", "trio": "Blokus Three-Player", "classic": "Blokus"}
VARIANT_BY_GM = {gm.lower(): v for v, gm in GM_BY_VARIANT.items()}
MOVE_IDS = {"duo": ("B", "W"), "trio": ("1", "2", "3"), "classic": ("1", "2", "3", "4")}
NAME_IDS = {"duo": ("PB", "PW"), "trio": ("P1", "P2", "P3"), "classic": ("P1", "P2", "P3", "P4")}
# Ids Pentobi also reads (older versions wrote colour names; 1/2 in two-colour games).
_COLOUR_ALIASES = {"BLUE": 1, "YELLOW": 2, "RED": 3, "GREEN": 4}
_SETUP_IDS = ("AB", "AW", "AE", "A1", "A2", "A3", "A4")

_PLAIN = re.compile(r"[^\]\\]*")  # a value's text up to the next ']' or backslash
_SPACE = re.compile(r"\s*")
_PROP_ID = re.compile(r"\s*([A-Za-z0-9]+)")  # ASCII: Pentobi's colour ids are digits
Node = dict[str, list[str]]
Move = tuple[int, str | None]  # (seat, cells in canonical notation); None is a pass


class SgfError(LogError):
    """A game record that cannot be read or replayed; the message says where and why."""

    code = "bad_sgf"


@dataclass(frozen=True)
class SgfRecord:
    """What a `.blksgf` file says: the variant, the moves in order, names, date, result."""

    variant: str
    moves: tuple[Move, ...]
    players: tuple[str, ...] = ()  # one per seat, "" where the file names nobody
    date: str | None = None
    result: str | None = None


# -- the SGF syntax -------------------------------------------------------------------------


class _Scanner:
    """Walks SGF text once, keeping the main line's nodes (first variation at each branch)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.nodes: list[Node] = []

    def fail(self, what: str, at: int | None = None) -> SgfError:
        line = self.text.count("\n", 0, self.i if at is None else at) + 1
        return SgfError(f"not a valid SGF file: {what} (line {line})")

    def skip_space(self) -> None:
        self.i = _SPACE.match(self.text, self.i).end()

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.i] if self.i < len(self.text) else ""

    def run(self) -> list[Node]:
        """Parse the first game tree; later trees of a collection are checked, not kept."""
        if self.peek() != "(":
            raise self.fail("it must start with '('")
        # One entry per open tree: [on the main line, number of subtrees seen so far].
        self.stack: list[list] = []
        self.trees = 0
        while c := self.peek():
            self.i += 1
            if c == "(":
                self.open_tree()
            elif c == ")":
                self.close_tree()
            elif c == ";" and self.stack:
                self.add_node()
            else:
                raise self.fail(f"unexpected {c!r}", self.i - 1)
        if self.stack:
            raise self.fail(f"unbalanced parentheses: {len(self.stack)} '(' never closed")
        return self.nodes

    def open_tree(self) -> None:
        """'(' : a tree is on the main line if it is the first tree, or its parent is on the
        main line and this is the parent's first variation."""
        stack = self.stack
        if stack:
            main = stack[-1][0] and not stack[-1][1]
            stack[-1][1] += 1
        else:
            main = self.trees == 0
        stack.append([main, 0])
        if self.peek() != ";":
            raise self.fail("a game tree must start with a node ';'")

    def close_tree(self) -> None:
        if not self.stack:
            raise self.fail("unbalanced parentheses: ')' without '('", self.i - 1)
        self.stack.pop()
        self.trees += not self.stack

    def add_node(self) -> None:
        if self.stack[-1][1]:
            raise self.fail("a node after a variation")
        node = self.node()
        if self.stack[-1][0]:
            self.nodes.append(node)

    def node(self) -> Node:
        """The properties of one node: `ID[value][value]…` until the next ';', '(' or ')'."""
        props: Node = {}
        while match := _PROP_ID.match(self.text, self.i):
            pid = match.group(1)
            self.i = match.end()
            if pid in props:
                raise self.fail(f"property {pid} twice in one node", match.start(1))
            if self.peek() != "[":
                raise self.fail(f"property {pid} has no value", match.start(1))
            values = []
            while self.peek() == "[":
                values.append(self.value())
            props[pid] = values
        return props

    def value(self) -> str:
        """One `[...]` value with SGF escapes undone (`\\]`, `\\\\`, soft line breaks)."""
        start = self.i
        text = self.text
        i = start + 1
        out = []
        while True:
            plain = _PLAIN.match(text, i)
            out.append(plain.group())
            i = plain.end()
            if i >= len(text) - (text[i:i + 1] == "\\"):
                raise self.fail("a value '[' is never closed with ']'", start)
            if text[i] == "]":
                self.i = i + 1
                return "".join(out)
            escaped = text[i + 1]
            out.append("" if escaped == "\n" else escaped)
            i += 2


def parse_main_line(text: str) -> list[Node]:
    """The nodes of the first game tree's main line, each a dict of property id -> values."""
    return _Scanner(text).run()


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


# -- reading --------------------------------------------------------------------------------


def read_sgf(text: str | bytes) -> SgfRecord:
    """Read a `.blksgf` record. Checks syntax, variant and notation; not the rules (see
    `load_game`). Raises SgfError. Cost: linear in the size, which is capped at 1 MB."""
    text = _decode(text)
    nodes = parse_main_line(text)
    root = nodes[0]
    variant = _variant(root)
    most = max_moves(variant)
    moves = []
    for node in nodes:
        _refuse_setup(node)
        move = _node_move(node, variant, len(moves) + 1)
        if move is not None:
            if len(moves) == most:
                raise SgfError(f"the record has more moves than any {variant} game: every "
                               f"seat places its {NU_PIECES} pieces, {most} moves with passes")
            moves.append(move)
    return SgfRecord(
        variant, tuple(moves), _players(root, variant),
        _single(root, "DT"), _single(root, "RE"),
    )


def max_moves(variant: str) -> int:
    """The most move nodes a record of `variant` can hold: each of its n seats places its 21
    pieces, and between two placements each other seat may pass (a seat with no placement):
    at most n × 21 placements and (n − 1) passes after each, n² × 21 in all."""
    seats = VARIANTS[variant].nu_seats
    return seats * seats * NU_PIECES


def _decode(text: str | bytes) -> str:
    if len(text) > MAX_CHARS:
        raise SgfError(f"the file is too large ({len(text):,} bytes; at most {MAX_CHARS:,})")
    if isinstance(text, bytes):
        try:
            return text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise SgfError(f"the file is not UTF-8 text ({e.reason} at byte {e.start})") from None
    return text


def _single(node: Node, pid: str) -> str | None:
    values = node.get(pid)
    return values[0] if values else None


def _variant(root: Node) -> str:
    gm = _single(root, "GM")
    if gm is None:
        raise SgfError("the root node has no GM property, so the game variant is unknown")
    variant = VARIANT_BY_GM.get(" ".join(gm.split()).lower())
    if variant is None:
        known = ", ".join(f"GM[{g}]" for g in GM_BY_VARIANT.values())
        raise SgfError(f"unknown game GM[{gm}]: Corner Claim reads {known}")
    return variant


def _players(root: Node, variant: str) -> tuple[str, ...]:
    return tuple(_single(root, pid) or "" for pid in NAME_IDS[variant])


def _refuse_setup(node: Node) -> None:
    found = [pid for pid in _SETUP_IDS if pid in node]
    if found:
        raise SgfError(
            f"setup properties ({', '.join(found)}) are not supported: a Corner Claim record "
            "starts from the empty board"
        )


def _node_move(node: Node, variant: str, number: int) -> Move | None:
    """The node's move (seat, canonical cells or None for a pass), or None if it has none."""
    found = [(pid, seat) for pid in node if (seat := _seat_of(pid, variant)) is not None]
    if not found:
        return None
    if len(found) > 1:
        ids = ", ".join(p for p, _ in found)
        raise SgfError(f"move {number}: one node holds several moves ({ids})")
    pid, seat = found[0]
    n = VARIANTS[variant].nu_seats
    if seat > n:
        why = " (Pentobi's shared fourth colour has no seat in trio)" if variant == "trio" else ""
        raise SgfError(f"move {number}: colour {pid} does not play in {variant}{why}")
    values = node[pid]
    if len(values) != 1:
        raise SgfError(f"move {number}: {pid} must have exactly one value")
    return seat, _cells(values[0], pid, number)


def _seat_of(pid: str, variant: str) -> int | None:
    if pid in _COLOUR_ALIASES:
        seat = _COLOUR_ALIASES[pid]
        return 2 if variant == "duo" and seat == 4 else seat
    if variant == "duo" and pid in ("B", "W"):
        return 1 if pid == "B" else 2
    if pid in ("1", "2", "3", "4"):
        return int(pid)
    return None


def _cells(value: str, pid: str, number: int) -> str | None:
    """Canonical notation of a move value; '' or 'pass' is a pass."""
    value = value.strip()
    if value.lower() in ("", "pass"):
        return None
    try:
        return format_cells(parse_cells(value))
    except EngineError as e:
        raise SgfError(f"move {number}: {pid}[{value}] is not a move: {e.message}") from None


# -- replaying ------------------------------------------------------------------------------


def load_game(text: str | bytes) -> Game:
    """Read a record and replay it through the engine: every move must be legal, in turn
    (a seat with no placement is skipped, so no pass needs writing). Raises SgfError naming
    the first move that breaks a rule."""
    return record_to_game(read_sgf(text))


def record_to_game(record: SgfRecord) -> Game:
    """Replay a record into a fresh `Game` (see `load_game`)."""
    variant = VARIANTS[record.variant]
    names = tuple(
        name or colour.capitalize()
        for name, colour in zip(record.players, variant.colours, strict=True)
    )
    game = Game.new(GAME, record.variant, names)
    for number, (seat, cells) in enumerate(record.moves, 1):
        try:
            if cells is None:
                RULES.check_pass(game.state, seat)
            else:
                game.play(seat, cells)
        except EngineError as e:
            what = "pass" if cells is None else cells
            pid = MOVE_IDS[record.variant][seat - 1]
            raise SgfError(f"illegal move at move {number} ({pid}[{what}]): {e.message}") from e
    return game


# -- writing --------------------------------------------------------------------------------


def write_sgf(
    variant: str,
    moves: Iterable[tuple[int, str | None]],
    *,
    players: Iterable[str] = (),
    date: str | None = None,
    result: str | None = None,
) -> str:
    """A `.blksgf` record of `moves` ((seat, cells) in play order; passes are left out, as
    Pentobi cannot read them). Names go to PB/PW (duo) or P1…P4; empty names are left out."""
    if variant not in GM_BY_VARIANT:
        raise SgfError(f"unknown variant {variant!r} (duo, trio or classic)")
    root = [("GM", GM_BY_VARIANT[variant]), ("CA", "UTF-8"), ("AP", APPLICATION)]
    root += [(pid, name) for pid, name in zip(NAME_IDS[variant], players, strict=False) if name]
    root += [(pid, v) for pid, v in (("DT", date), ("RE", result)) if v]
    lines = ["(", ";" + "".join(f"{pid}[{_escape(v)}]" for pid, v in root)]
    ids = MOVE_IDS[variant]
    for seat, cells in moves:
        if not 1 <= seat <= len(ids):
            raise SgfError(f"seat {seat} does not play in {variant}")
        if cells and cells != "pass":
            lines.append(f";{ids[seat - 1]}[{format_cells(parse_cells(cells))}]")
    lines.append(")")
    return "\n".join(lines) + "\n"


def effective_moves(state: State) -> list[tuple[int, str]]:
    """The placements that count now (taken-back moves left out), as (seat, cells)."""
    return [(seat, state.move_str(move)) for _, seat, move in state.placements]


def result_string(state: State) -> str | None:
    """SGF `RE` of a finished game, None while it goes on. Duo: Pentobi's `final_score`
    (`B+9`, `W+2`, `0`) or `B+R`/`W+R` after a resignation; otherwise each colour's points."""
    if not state.is_over:
        return None
    pos = state.position
    if state.nu_seats > 2:
        return " ".join(str(pos.points(c)) for c in range(state.nu_seats))
    if state.left:
        return "W+R" if 1 in state.left else "B+R"
    return duo_score(pos.points(0) - pos.points(1))


def duo_score(diff: int) -> str:
    """Pentobi's two-player score text for first colour's points minus the second's."""
    return f"B+{diff}" if diff > 0 else f"W+{-diff}" if diff < 0 else "0"


def game_to_sgf(game: Game, *, date: str | None = None) -> str:
    """A `.blksgf` record of a `Game`'s effective moves, names and (when over) result."""
    state = game.state
    return write_sgf(
        state.variant.name, effective_moves(state),
        players=state.players, date=date, result=result_string(state),
    )
