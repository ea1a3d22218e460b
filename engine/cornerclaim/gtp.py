"""The Go Text Protocol as Pentobi's GTP engine speaks it, for Corner Claim.

The same scripts drive both: colours as Pentobi takes them (duo `b`/`w`, `black`/`white`,
`blue`/`green`; trio and classic `1`–`4` or `blue`/`yellow`/`red`/`green`), moves in Pentobi
notation, responses `=[id] text` / `?[id] message` each ending in a blank line, and
`final_score` in Pentobi's exact text. See docs/formats.md for every command.

`GtpSession` is pure: `handle(line)` returns the response text; `loadsgf`/`savesgf` reach
files only through the `read_file`/`write_file` callables the adapter hands in. The adapter
that reads stdin and writes stdout is the `gtp` package (`cornerclaim gtp`). While its
`quick` callable says so (the adapter's warm-up is still compiling the search), `genmove`
answers with `ai.quick_move`, which compiles nothing.

Time: GTP's `time_settings` and `time_left` (Canadian byo-yomi, as GTP version 2 defines
them) and the adapter's `--seconds` (`seconds`: the most a move may think) give each
`genmove` a budget in seconds (`move_budget`), which the search takes in place of its
level's own; with none of them the level's budget stands. The session reads no clock: the
adapter hands in a `clock` callable, with which the session takes its own moves' time off
its clock between the controller's `time_left` commands.

Plays are accepted in any order, as Pentobi accepts them (controllers set up positions that
way). The session keeps its own list of placements on a `Position` and asks the engine's own
placement check (`RULES.check_placement`) as if it were that colour's turn — no rule lives here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .gtp_board import render_board
from .gtp_clock import MIN_BUDGET, SAFETY, Clock, TimeSettings, move_budget, spend

if TYPE_CHECKING:
    from .rules import State

#: the names others import from here (the time and the board live in gtp_clock, gtp_board)
__all__ = ["MIN_BUDGET", "NAME", "PROTOCOL_VERSION", "SAFETY", "VARIANT_CHOICES", "Clock",
           "GtpFailure", "GtpSession", "TimeSettings", "format_response", "move_budget",
           "render_board", "spend", "split_command"]

PROTOCOL_VERSION = "2"
NAME = "Corner Claim"
VARIANT_CHOICES = ("duo", "trio", "classic")
_TWO_COLOURS = {"b": 1, "black": 1, "blue": 1, "w": 2, "white": 2, "green": 2}
_FOUR_COLOURS = {"1": 1, "blue": 1, "2": 2, "yellow": 2, "3": 3, "red": 3, "4": 4, "green": 4}
_WORD = re.compile(r'"([^"]*)"|(\S+)')
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: Numbers as GTP writes them: ASCII digits only (`str.isdigit` and `float` take any
#: script's digits, `١٠` among them), and no longer than any sane value.
_WHOLE = re.compile(r"[0-9]{1,9}")
_DECIMAL = re.compile(r"[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9}")


class GtpFailure(Exception):
    """A command failed; the message becomes the `?` response."""


def _no_files(*_args) -> None:
    raise GtpFailure("this session has no file access")


# -- numbers in time commands ---------------------------------------------------------------
def _seconds(word: str, what: str) -> float:
    if not _DECIMAL.fullmatch(word):
        raise GtpFailure(f"invalid {what} '{word}' (seconds, 0 or more)")
    return float(word)


def _stones(word: str, what: str) -> int:
    if not _WHOLE.fullmatch(word):
        raise GtpFailure(f"invalid {what} '{word}' (a whole number, 0 or more)")
    return int(word)


# -- the session -----------------------------------------------------------------------------


def format_response(ok: bool, cmd_id: str, text: str) -> str:
    """`=id text` or `?id text`, ending in exactly one blank line. A blank line inside the
    text gets a space, as in Pentobi, so it cannot end the response early."""
    text = text.replace("\n\n", "\n \n").replace("\n\n", "\n \n")
    if not text.endswith("\n"):
        text += "\n"
    return f"{'=' if ok else '?'}{cmd_id} {text}\n"


def split_command(line: str) -> list[str]:
    """Words of a command line: control characters and `#` comments dropped, tabs as spaces,
    double quotes grouping a word with spaces (file names)."""
    line = _CONTROL.sub("", line.replace("\t", " ")).split("#", 1)[0]
    return [quoted or bare for quoted, bare in _WORD.findall(line)]


class GtpSession:
    """One engine's board and command table. `handle(line)` answers one command line;
    `quit` turns True after the `quit` command."""

    def __init__(
        self,
        variant: str = "classic",
        *,
        level: int = 1,
        seed: int | None = None,
        read_file: Callable[[str], str | bytes] | None = None,
        write_file: Callable[[str, str], None] | None = None,
        today: Callable[[], str] | None = None,
        quick: Callable[[], bool] | None = None,
        seconds: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.level = level
        self._quick = quick
        self.seconds = seconds  # the most a move may think (`--seconds`)
        self._clock = clock
        self.time_settings: TimeSettings | None = None
        self.quit = False
        self._seeds = random.Random(seed) if seed is not None else None
        self._read_file = read_file or _no_files
        self._write_file = write_file or _no_files
        self._today = today
        self.commands: dict[str, Callable[[list[str]], str]] = {
            name[4:]: getattr(self, name) for name in dir(self) if name.startswith("cmd_")
        }
        self.reset(variant)

    def reset(self, variant: str) -> None:
        """An empty board of `variant`."""
        from .position import Position
        from .variants import VARIANTS

        self.variant = VARIANTS[variant]
        self.moves: list[tuple[int, int]] = []  # (seat, move id), in the order played
        self.position = Position(self.variant)
        self.clocks: dict[int, Clock] = {}  # seat -> its clock, once told or run down

    def clock_of(self, seat: int) -> Clock | None:
        """`seat`'s clock: as `time_left` last stated it (less the moves since), else the
        time settings' start; None without either."""
        if seat in self.clocks:
            return self.clocks[seat]
        return self.time_settings.start() if self.time_settings else None

    def budget(self, seat: int) -> float | None:
        """The seconds `seat`'s next `genmove` may think (`move_budget`); None: the level's."""
        return move_budget(len(self.position.pieces_left(seat - 1)), cap=self.seconds,
                           settings=self.time_settings, clock=self.clock_of(seat))

    def handle(self, line: str) -> str:
        """The response to one command line ("" for an empty or comment line). A control
        character in the line (other than a tab, and the line's own end) is refused: a
        command with a NUL or an escape in it is not one a controller meant."""
        body = line.rstrip("\r\n")
        control = _CONTROL.search(body)
        if control is not None:
            return format_response(False, "", f"control character "
                                   f"U+{ord(control.group()):04X} at column "
                                   f"{control.start() + 1}: a command line is printable "
                                   "text")
        words = split_command(body)
        if not words:
            return ""
        cmd_id = words.pop(0) if len(words) > 1 and _WHOLE.fullmatch(words[0]) else ""
        name, args = words[0], words[1:]
        handler = self.commands.get(name)
        try:
            if handler is None:
                raise GtpFailure(f"unknown command ({name})")
            return format_response(True, cmd_id, handler(args))
        except GtpFailure as e:
            return format_response(False, cmd_id, str(e))
        except Exception as e:  # a bug must not end the session: say so and go on
            return format_response(False, cmd_id, f"internal error: {type(e).__name__}: {e}")

    # -- helpers ---------------------------------------------------------------------------
    def _seat(self, args: list[str]) -> int:
        """The single colour argument as a seat (1-based)."""
        if len(args) < 1:
            raise GtpFailure("missing color argument")
        if len(args) > 1:
            raise GtpFailure("too many arguments")
        word = args[0].lower()
        n = self.variant.nu_seats
        seat = (_TWO_COLOURS if n == 2 else _FOUR_COLOURS).get(word)
        if seat is None or seat > n:
            raise GtpFailure(f"invalid color argument '{word}'")
        return seat

    def _state(self, to_move: int | None) -> State:
        """The engine's view of this board with `to_move` to place (None: game over).

        Lets the engine's checks and computer players judge a position set up in any order.
        """
        from .rules import setup_state

        return setup_state(self.variant, self.position, self.moves, to_move=to_move)

    def _is_over(self) -> bool:
        from .rules import no_seat_can_place

        return no_seat_can_place(self.position)

    def _play(self, seat: int, text: str) -> None:
        """Play `text` (cells or `pass`) for `seat` if the engine allows it; else raise."""
        from ..errors import EngineError
        from .rules import RULES

        state = self._state(seat)
        try:
            if text.strip().lower() == "pass":
                RULES.check_pass(state, seat)  # a pass changes nothing and is not kept
                return
            move = RULES.check_placement(state, seat, text)
        except EngineError as e:
            raise GtpFailure(f"illegal move: {e.message}") from None
        self._place(seat, move)

    def _place(self, seat: int, move: int) -> None:
        position = self.position.copy()
        position.play(seat - 1, move)
        self.position = position
        self.moves.append((seat, move))

    def _no_args(self, args: list[str]) -> None:
        if args:
            raise GtpFailure("no arguments expected")

    def _computer_move(self, seat: int, *, timed: bool = False) -> int | None:
        """The computer player's move for `seat` at the session's level, checked legal.
        `timed`: the time it took comes off `seat`'s clock (`genmove`)."""
        clock = self.clock_of(seat)
        started = self._clock() if timed and clock is not None and self._clock else None
        try:
            return self._search(seat)
        finally:
            if started is not None:
                assert self._clock is not None and clock is not None
                self.clocks[seat] = spend(clock, self._clock() - started, self.time_settings)

    def _search(self, seat: int) -> int | None:
        from ..errors import EngineError
        from .ai import LEVELS, choose_move, quick_move
        from .rules import RULES

        state = self._state(seat)
        if not state.can_move(seat):
            return None
        level = max((n for n in LEVELS if n <= self.level), default=min(LEVELS))
        seed = self._seeds.randrange(2**32) if self._seeds else None
        if self._quick is not None and self._quick():
            move = quick_move(state, seat, level=level, seed=seed)
        else:
            move = choose_move(state, seat, level=level, seed=seed, seconds=self.budget(seat))
        if move is not None:
            try:
                RULES.check_placement(state, seat, state.move_str(move))
            except EngineError:
                raise GtpFailure(f"player generated illegal move: {state.move_str(move)}") from None
        return move

    # -- commands --------------------------------------------------------------------------
    def cmd_protocol_version(self, args: list[str]) -> str:
        self._no_args(args)
        return PROTOCOL_VERSION

    def cmd_name(self, args: list[str]) -> str:
        self._no_args(args)
        return NAME

    def cmd_version(self, args: list[str]) -> str:
        from importlib.metadata import PackageNotFoundError, version

        self._no_args(args)
        try:
            return version("cornerclaim")
        except PackageNotFoundError:
            return "unknown"

    def cmd_known_command(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpFailure("known_command takes one argument")
        return "true" if args[0] in self.commands else "false"

    def cmd_list_commands(self, args: list[str]) -> str:
        self._no_args(args)
        return "\n".join(sorted(self.commands))

    def cmd_quit(self, args: list[str]) -> str:
        self.quit = True
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self._no_args(args)
        self.reset(self.variant.name)
        return ""

    def cmd_set_game(self, args: list[str]) -> str:
        """`set_game Blokus Duo`: change variant by its GM name, as Pentobi does."""
        from .sgf import VARIANT_BY_GM

        variant = VARIANT_BY_GM.get(" ".join(args).lower())
        if variant is None:
            raise GtpFailure("invalid argument")
        self.reset(variant)
        return ""

    def cmd_play(self, args: list[str]) -> str:
        seat = self._seat(args[:1])
        if len(args) < 2:
            raise GtpFailure("missing move argument")
        self._play(seat, " ".join(args[1:]))
        return ""

    def cmd_genmove(self, args: list[str]) -> str:
        seat = self._seat(args)
        move = self._computer_move(seat, timed=True)
        if move is None:
            return "pass"
        self._place(seat, move)
        return self.position.bc.move_to_str(move)

    def cmd_reg_genmove(self, args: list[str]) -> str:
        """Like genmove, without playing the move."""
        move = self._computer_move(self._seat(args))
        if move is None:
            raise GtpFailure("player failed to generate a move")
        return self.position.bc.move_to_str(move)

    def cmd_time_settings(self, args: list[str]) -> str:
        """`time_settings main_time byo_yomi_time byo_yomi_stones`: every colour's clock
        starts again from these."""
        if len(args) != 3:
            raise GtpFailure("time_settings takes main_time byo_yomi_time byo_yomi_stones")
        settings = TimeSettings(_seconds(args[0], "main time"),
                                _seconds(args[1], "byo-yomi time"),
                                _stones(args[2], "byo-yomi stones"))
        self.time_settings = settings
        self.clocks = {}
        return ""

    def cmd_time_left(self, args: list[str]) -> str:
        """`time_left color time stones`: that colour's clock now (`stones` 0: main time)."""
        if len(args) != 3:
            raise GtpFailure("time_left takes color time stones")
        seat = self._seat(args[:1])
        self.clocks[seat] = Clock(_seconds(args[1], "time"), _stones(args[2], "stones"))
        return ""

    def cmd_undo(self, args: list[str]) -> str:
        """Take back the last placement, whichever colour made it."""
        self._no_args(args)
        if not self.moves:
            raise GtpFailure("cannot undo")
        kept = self.moves[:-1]
        self.reset(self.variant.name)
        for seat, move in kept:
            self._place(seat, move)
        return ""

    def cmd_all_legal(self, args: list[str]) -> str:
        seat = self._seat(args)
        bc = self.position.bc
        return "".join(bc.move_to_str(m) + "\n" for m in self.position.legal_moves(seat - 1))

    def cmd_final_score(self, args: list[str]) -> str:
        """Duo: `B+9`, `W+2` or `0`; otherwise each colour's points followed by a space,
        byte for byte as Pentobi answers."""
        from .sgf import duo_score

        self._no_args(args)
        pos = self.position
        if self.variant.nu_seats == 2:
            return duo_score(pos.points(0) - pos.points(1))
        return "".join(f"{pos.points(c)} " for c in range(self.variant.nu_seats))

    def cmd_showboard(self, args: list[str]) -> str:
        self._no_args(args)
        return "\n" + render_board(self._state(None))

    def cmd_loadsgf(self, args: list[str]) -> str:
        """`loadsgf file [n]`: the file's variant and position (before move n if given)."""
        from ..errors import EngineError
        from .sgf import read_sgf

        if not 1 <= len(args) <= 2:
            raise GtpFailure("loadsgf takes a file name and an optional move number")
        upto = _move_number(args[1]) - 1 if len(args) == 2 else None
        try:
            record = read_sgf(self._read_file(args[0]))
        except OSError as e:
            raise GtpFailure(f"cannot read {args[0]}: {e.strerror or e}") from None
        except EngineError as e:
            raise GtpFailure(e.message) from None
        self._replay(record.variant, record.moves[:upto])
        return ""

    def _replay(self, variant: str, moves) -> None:
        """Replace the board by `moves` played on an empty `variant` board; all or nothing."""
        saved = (self.variant, self.moves, self.position)
        self.reset(variant)
        try:
            for number, (seat, cells) in enumerate(moves, 1):
                try:
                    self._play(seat, cells or "pass")
                except GtpFailure as e:
                    raise GtpFailure(f"move {number}: {e}") from None
        except GtpFailure:
            self.variant, self.moves, self.position = saved
            raise

    def cmd_savesgf(self, args: list[str]) -> str:
        from .sgf import result_string, write_sgf

        if len(args) != 1:
            raise GtpFailure("savesgf takes a file name")
        bc = self.position.bc
        text = write_sgf(
            self.variant.name, [(s, bc.move_to_str(m)) for s, m in self.moves],
            date=self._today() if self._today else None,
            result=result_string(self._state(None)) if self._is_over() else None,
        )
        try:
            self._write_file(args[0], text)
        except OSError as e:
            raise GtpFailure(f"cannot write {args[0]}: {e.strerror or e}") from None
        return ""


def _move_number(word: str) -> int:
    if not _WHOLE.fullmatch(word) or int(word) < 1:
        raise GtpFailure(f"invalid move number '{word}' (1 or more)")
    return int(word)
