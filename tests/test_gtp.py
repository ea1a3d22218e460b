"""`cornerclaim gtp`: a controller talks to us as it would talk to pentobi-gtp."""

import subprocess
import sys
from pathlib import Path

import pytest

from engine.cornerclaim.gtp import (
    MIN_BUDGET,
    SAFETY,
    Clock,
    GtpSession,
    TimeSettings,
    format_response,
    move_budget,
    spend,
    split_command,
)
from engine.cornerclaim.sgf import load_game, read_sgf
from tests.conftest import PENTOBI, load_record, pentobi_records

ROOT = Path(__file__).resolve().parent.parent


def ok(session: GtpSession, line: str) -> str:
    """Send a command that must succeed; return the response body."""
    response = session.handle(line)
    assert response.startswith("= ") and response.endswith("\n\n"), response
    return response[2:-2]


def fails(session: GtpSession, line: str) -> str:
    response = session.handle(line)
    assert response.startswith("? ") and response.endswith("\n\n"), response
    return response[2:-2]


class Files:
    """A dict standing in for the file system, handed to the session like the adapter does."""

    def __init__(self, **files: str) -> None:
        self.files = dict(files)

    def read(self, path: str) -> str:
        if path not in self.files:
            raise FileNotFoundError(2, "No such file or directory")
        return self.files[path]

    def write(self, path: str, text: str) -> None:
        self.files[path] = text

    def session(self, variant: str = "duo", **kw) -> GtpSession:
        return GtpSession(variant, read_file=self.read, write_file=self.write, **kw)


# -- the protocol ------------------------------------------------------------------------------


def test_a_controller_learns_who_we_are():
    gtp = GtpSession("duo")
    assert gtp.handle("protocol_version") == "= 2\n\n"
    assert gtp.handle("name") == "= Corner Claim\n\n"
    assert ok(gtp, "version")
    assert gtp.handle("known_command genmove") == "= true\n\n"
    assert gtp.handle("known_command resign") == "= false\n\n"
    listed = ok(gtp, "list_commands").split("\n")
    required = ("protocol_version name version known_command list_commands quit clear_board "
                "play genmove undo all_legal final_score showboard loadsgf savesgf").split()
    assert set(required) <= set(listed) and listed == sorted(listed)


def test_ids_are_echoed_on_success_and_failure():
    gtp = GtpSession("duo")
    assert gtp.handle("12 name") == "=12 Corner Claim\n\n"
    assert gtp.handle("13 frobnicate") == "?13 unknown command (frobnicate)\n\n"


def test_blank_and_comment_lines_get_no_answer():
    gtp = GtpSession("duo")
    assert gtp.handle("\n") == ""
    assert gtp.handle("   # a comment\n") == ""
    assert gtp.handle("name # trailing comment\r\n") == "= Corner Claim\n\n"


def test_quit_answers_then_ends_the_session():
    gtp = GtpSession("duo")
    assert gtp.handle("quit") == "= \n\n"
    assert gtp.quit


def test_a_blank_line_inside_a_response_cannot_end_it_early():
    assert format_response(True, "", "a\n\nb") == "= a\n \nb\n\n"
    assert format_response(False, "3", "bad") == "?3 bad\n\n"


def test_quoted_words_keep_their_spaces():
    assert split_command('loadsgf "my game.blksgf" 3') == ["loadsgf", "my game.blksgf", "3"]


# -- colours and plays -------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["b", "B", "black", "blue"])
def test_duo_first_colour_names(word):
    gtp = GtpSession("duo")
    ok(gtp, f"play {word} e9,d10,e10,f10,e11")
    assert gtp.moves[0][0] == 1


@pytest.mark.parametrize("word", ["w", "white", "Green"])
def test_duo_second_colour_names(word):
    gtp = GtpSession("duo")
    ok(gtp, f"play {word} j5")
    assert gtp.moves[0][0] == 2


def test_classic_takes_numbers_and_colour_names():
    gtp = GtpSession("classic")
    for word, cell in (("1", "a20"), ("yellow", "t20"), ("3", "t1"), ("green", "a1")):
        ok(gtp, f"play {word} {cell}")
    assert [s for s, _ in gtp.moves] == [1, 2, 3, 4]


def test_trio_has_no_fourth_colour_and_duo_no_numbers_beyond_two():
    assert fails(GtpSession("trio"), "play 4 a1") == "invalid color argument '4'"
    assert fails(GtpSession("trio"), "all_legal green") == "invalid color argument 'green'"
    assert fails(GtpSession("duo"), "play red e10") == "invalid color argument 'red'"


def test_a_controller_may_set_up_a_position_out_of_turn_order():
    gtp = GtpSession("duo")
    ok(gtp, "play w j5")
    ok(gtp, "play w k4,k3")  # green twice in a row, as Pentobi allows
    ok(gtp, "play b e10")
    assert [s for s, _ in gtp.moves] == [2, 2, 1]


def test_an_illegal_play_is_refused_with_the_engines_reason_and_changes_nothing():
    gtp = GtpSession("duo")
    assert "start square e10" in fails(gtp, "play b d9,d10")
    ok(gtp, "play b e10")
    assert "edge at e11" in fails(gtp, "play b e11,e12")
    assert "already placed the 1" in fails(gtp, "play b d9")
    assert "not a cell" in fails(gtp, "play b zz")
    assert fails(gtp, "play b") == "missing move argument"
    assert len(gtp.moves) == 1


def test_pass_is_refused_while_a_placement_exists():
    gtp = GtpSession("duo")
    assert "cannot pass" in fails(gtp, "play b pass")


def test_undo_takes_back_the_last_placement_of_any_colour():
    gtp = GtpSession("duo")
    assert fails(gtp, "undo") == "cannot undo"
    ok(gtp, "play b e10")
    ok(gtp, "play w j5")
    ok(gtp, "undo")
    assert [s for s, _ in gtp.moves] == [1]
    ok(gtp, "play w j5,j4")  # j5 is free again
    ok(gtp, "clear_board")
    assert gtp.moves == [] and ok(gtp, "final_score") == "0"


def test_all_legal_lists_one_move_per_line():
    duo = ok(GtpSession("duo"), "all_legal b").split("\n")
    assert len(duo) == 414 and len(set(duo)) == 414
    assert "e9,d10,e10,f10,e11" in duo
    classic = ok(GtpSession("classic"), "all_legal 4").split("\n")
    assert len(classic) == 58 and "a1" in classic
    assert len(ok(GtpSession("trio"), "all_legal red").split("\n")) == 58


def test_set_game_switches_variant_by_its_sgf_name():
    gtp = GtpSession("classic")
    ok(gtp, "set_game Blokus Duo")
    assert gtp.variant.name == "duo"
    ok(gtp, "set_game Blokus Three-Player")
    assert gtp.variant.name == "trio"
    assert fails(gtp, "set_game Blokus Trigon") == "invalid argument"


# -- the computer player -----------------------------------------------------------------------


def play_out(gtp: GtpSession, colours: list[str]) -> list[str]:
    """Everybody genmoves in turn until nobody can; returns every answer."""
    answers: list[str] = []
    while not answers[-len(colours):] == ["pass"] * len(colours):
        for colour in colours:
            answers.append(ok(gtp, f"genmove {colour}"))
    return answers


@pytest.mark.parametrize("variant, colours", [
    ("duo", ["b", "w"]), ("trio", ["1", "2", "3"]), ("classic", ["1", "2", "3", "4"]),
])
def test_genmove_plays_legal_moves_until_everyone_passes(variant, colours):
    gtp = GtpSession(variant, seed=5)
    answers = play_out(gtp, colours)
    placed = [a for a in answers if a != "pass"]
    assert len(placed) == len(gtp.moves) > 10
    score = ok(gtp, "final_score")
    if variant == "duo":
        assert score == "0" or score[:2] in ("B+", "W+")
    else:
        assert score.endswith(" ") and len(score.split()) == len(colours)
    # Replaying the answers through a fresh session's `play` accepts every one.
    again = GtpSession(variant)
    for colour, answer in zip(colours * len(answers), answers, strict=False):
        ok(again, f"play {colour} {answer}")
    assert ok(again, "final_score") == score


def test_the_same_seed_gives_the_same_game():
    first = play_out(GtpSession("duo", seed=11), ["b", "w"])
    second = play_out(GtpSession("duo", seed=11), ["b", "w"])
    assert first == second


def test_genmove_for_a_colour_out_of_turn_and_reg_genmove_leaves_the_board():
    gtp = GtpSession("classic", seed=1)
    move = ok(gtp, "reg_genmove 3")
    assert "t1" in move.split(",") and gtp.moves == []
    assert "t1" in ok(gtp, "genmove red").split(",")
    assert fails(gtp, "genmove") == "missing color argument"
    assert fails(gtp, "genmove 1 2") == "too many arguments"


# -- Pentobi's own games -----------------------------------------------------------------------


@pytest.mark.parametrize("path", pentobi_records(), ids=lambda p: p.stem)
def test_pentobi_games_replayed_through_play_end_with_pentobis_final_score(path):
    record = load_record(path)
    gtp = GtpSession(record["game"])
    for m in record["moves"]:
        ok(gtp, f"play {m['color']} {m['move']}")
    assert ok(gtp, "final_score") == record["final_score"].rstrip("\n")
    assert gtp.handle("final_score") == f"= {record['final_score']}\n\n"


def test_showboard_draws_the_position():
    gtp = GtpSession("duo")
    ok(gtp, "play b e9,d10,e10,f10,e11")
    board = ok(gtp, "showboard")
    lines = board.split("\n")
    assert lines[0] == "" and lines[1] == "   A B C D E F G H I J K L M N"
    assert lines[6].startswith("10 . . . B B B . . .")
    assert "Blue(B): 5 points" in board and "Green(G): 0 points" in board
    assert lines[11].startswith(" 5 . . . . . . . . . + ")  # green's free start square j5
    assert "\n\n" not in board


# -- files -------------------------------------------------------------------------------------


def test_savesgf_then_loadsgf_gives_the_same_position():
    files = Files()
    gtp = files.session("trio", seed=2, today=lambda: "2026-11-29")
    play_out(gtp, ["1", "2", "3"])
    ok(gtp, "savesgf game.blksgf")
    text = files.files["game.blksgf"]
    assert text.startswith("(\n;GM[Blokus Three-Player]") and "DT[2026-11-29]" in text
    assert f"RE[{ok(gtp, 'final_score').strip()}]" in text
    other = files.session("duo")
    ok(other, "loadsgf game.blksgf")
    assert other.variant.name == "trio" and other.moves == gtp.moves
    assert load_game(text).state.position.key() == gtp.position.key()


def test_loadsgf_can_stop_before_a_given_move():
    files = Files(g=(PENTOBI / "classic_L3_g1.blksgf").read_text())
    gtp = files.session("duo")
    ok(gtp, "loadsgf g 5")
    assert gtp.variant.name == "classic" and len(gtp.moves) == 4
    ok(gtp, "loadsgf g")
    assert ok(gtp, "final_score") == "78 77 78 78 "


def test_loadsgf_failures_leave_the_board_as_it_was():
    files = Files(bad="(;GM[Blokus Duo];B[e10];W[e10])", junk="(;GM[Go])")
    gtp = files.session("duo")
    ok(gtp, "play b e10")
    assert fails(gtp, "loadsgf bad").startswith("move 2: illegal move: e10 is already covered")
    assert "unknown game GM[Go]" in fails(gtp, "loadsgf junk")
    assert "cannot read missing" in fails(gtp, "loadsgf missing")
    assert "invalid move number" in fails(gtp, "loadsgf bad 0")
    assert len(gtp.moves) == 1 and gtp.variant.name == "duo"


def test_a_session_without_file_access_says_so():
    assert fails(GtpSession("duo"), "savesgf x.blksgf") == "this session has no file access"


# -- the real command over stdin/stdout --------------------------------------------------------


def test_cornerclaim_gtp_over_stdin_and_stdout(tmp_path):
    saved = tmp_path / "out game.blksgf"
    script = "\n".join([
        "1 protocol_version",
        "2 play b e9,d10,e10,f10,e11",
        "3 genmove w",
        f"4 loadsgf {PENTOBI / 'duo_L5_g3.blksgf'}",
        "5 final_score",
        f'6 savesgf "{saved}"',
        "7 play red e10",
        "8 quit",
        "9 name",  # after quit: never answered
    ]) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "gtp", "--game", "duo", "--seed", "4", "--level", "3",
         "--quiet", "--threads", "1", "--nobook", "--noresign"],
        input=script, capture_output=True, text=True, cwd=ROOT, timeout=120, check=True,
    )
    answers = done.stdout.split("\n\n")
    assert answers[0] == "=1 2" and answers[1] == "=2 "
    assert answers[2].startswith("=3 ") and "j5" in answers[2]
    assert answers[3:6] == ["=4 ", "=5 W+2", "=6 "]
    assert answers[6] == "?7 invalid color argument 'red'"
    assert answers[7:] == ["=8 ", ""]
    assert read_sgf(saved.read_text()).moves == read_sgf(
        (PENTOBI / "duo_L5_g3.blksgf").read_text()).moves


# -- the first genmove of a fresh install --------------------------------------------------


@pytest.fixture
def nothing_compiled(monkeypatch):
    """Corner Claim's compiled search raises if anything builds one."""
    from engine.cornerclaim import ai

    def refuse(*args, **kwargs):
        raise AssertionError("the compiled search was called")

    monkeypatch.setattr(ai, "FlatSearch", refuse)


@pytest.mark.parametrize("level", [3, 5])
def test_while_quick_says_so_genmove_plays_the_quick_players_legal_move(level,
                                                                       nothing_compiled):
    session = GtpSession("duo", level=level, quick=lambda: True)
    ok(session, "play b e9,d10,e10,f10,e11")
    move = ok(session, "genmove w")
    assert move and move != "pass"
    assert len(ok(session, "showboard"))  # the move is on the session's board
    assert fails(session, f"play w {move}")  # and taken: the same placement again is refused


def test_cornerclaim_gtp_answers_genmove_while_its_warm_up_still_runs(monkeypatch, capsys,
                                                                     nothing_compiled):
    """Without a seed the warm-up runs in a thread; genmove does not wait for it."""
    import argparse
    import io
    import threading

    import gtp
    from engine import registry

    release = threading.Event()
    monkeypatch.setattr(registry.get("cornerclaim"), "warm_up", lambda: release.wait() or 0.0)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1 genmove b\n2 quit\n"))
    try:
        assert gtp.run(argparse.Namespace(game="duo", level=3, seed=None, seconds=None)) == 0
    finally:
        release.set()
    answers = capsys.readouterr().out.split("\n\n")
    assert answers[0].startswith("=1 ") and len(answers[0]) > 4
    assert answers[1] == "=2 "


def test_with_a_seed_cornerclaim_gtp_warms_up_before_it_answers(monkeypatch, capsys):
    """`--seed` asks for repeatable moves, which only the compiled search gives."""
    import argparse
    import io
    import threading

    import gtp
    from engine import registry

    where = []
    monkeypatch.setattr(registry.get("cornerclaim"), "warm_up",
                        lambda: where.append(threading.current_thread()) or 0.0)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1 genmove b\n"))
    assert gtp.run(argparse.Namespace(game="duo", level=1, seed=3, seconds=None)) == 0
    assert where == [threading.main_thread()]
    assert capsys.readouterr().out.startswith("=1 ")


# -- time controls ---------------------------------------------------------------------------


def test_time_commands_are_known():
    listed = ok(GtpSession("duo"), "list_commands").split("\n")
    assert {"time_settings", "time_left"} <= set(listed)


def test_without_clock_or_cap_the_level_keeps_its_own_budget():
    assert move_budget(21) is None
    assert GtpSession("duo", level=6).budget(1) is None


@pytest.mark.parametrize("cap", [0.2, 5.0])
def test_seconds_alone_is_each_moves_budget_below_or_above_the_levels(cap):
    assert move_budget(21, cap=cap) == cap


def test_absolute_time_is_shared_over_the_pieces_left_with_a_margin():
    settings = TimeSettings(60, 0, 0)
    assert move_budget(20, settings=settings, clock=settings.start()) == pytest.approx(
        SAFETY * 3.0)
    assert move_budget(20, settings=settings, clock=Clock(0.0)) == MIN_BUDGET


def test_byo_yomi_gives_its_period_over_its_stones():
    settings = TimeSettings(0, 30, 10)
    assert settings.start() == Clock(30, 10)
    assert move_budget(21, settings=settings, clock=Clock(10, 5)) == pytest.approx(SAFETY * 2)
    # in main time a byo-yomi still to come is worth its share when that is more
    assert move_budget(20, settings=TimeSettings(2, 30, 10), clock=Clock(2, 0)) == \
        pytest.approx(SAFETY * 3)


def test_seconds_caps_a_clocks_budget():
    settings = TimeSettings(600, 0, 0)
    assert move_budget(21, cap=0.5, settings=settings, clock=settings.start()) == 0.5
    assert move_budget(21, cap=5.0, settings=settings, clock=Clock(21)) == pytest.approx(SAFETY)


def test_no_time_limit_keeps_the_levels_budget():
    settings = TimeSettings(0, 1, 0)  # GTP: byo-yomi time above 0 with 0 stones
    assert move_budget(21, settings=settings, clock=settings.start()) is None
    assert move_budget(21, cap=1.5, settings=settings, clock=settings.start()) == 1.5


def test_a_move_runs_main_time_down_then_opens_byo_yomi():
    settings = TimeSettings(10, 30, 3)
    assert spend(Clock(10), 4, settings) == Clock(6)
    assert spend(Clock(6), 8, settings) == Clock(28, 2)  # 2 s over: the first stone's
    assert spend(Clock(28, 2), 5, settings) == Clock(23, 1)
    assert spend(Clock(23, 1), 20, settings) == Clock(30, 3)  # the last stone: a new period
    assert spend(Clock(3), 5, TimeSettings(3, 0, 0)) == Clock(0)


def test_time_settings_and_time_left_set_the_budget_genmove_passes():
    gtp = GtpSession("duo", level=6)
    assert ok(gtp, "time_settings 42 0 0") == ""
    assert gtp.time_settings == TimeSettings(42, 0, 0)
    assert gtp.budget(1) == pytest.approx(SAFETY * 2)  # 42 s over 21 pieces
    assert ok(gtp, "time_left w 10 5") == ""
    assert gtp.clock_of(2) == Clock(10, 5) and gtp.budget(2) == pytest.approx(SAFETY * 2)
    assert gtp.budget(1) == pytest.approx(SAFETY * 2)  # the other colour's clock is its own
    ok(gtp, "play b e9,d10,e10,f10,e11")
    ok(gtp, "time_left b 40 0")
    assert gtp.budget(1) == pytest.approx(SAFETY * 2)  # 40 s over the 20 pieces left
    ok(gtp, "clear_board")  # a new game: the clocks start again, the settings stay
    assert gtp.clock_of(2) == Clock(42) and gtp.time_settings == TimeSettings(42, 0, 0)


@pytest.mark.parametrize("line, message", [
    ("time_settings 60 0", "time_settings takes main_time byo_yomi_time byo_yomi_stones"),
    ("time_settings x 0 0", "invalid main time 'x' (seconds, 0 or more)"),
    ("time_settings 60 -5 0", "invalid byo-yomi time '-5' (seconds, 0 or more)"),
    ("time_settings 60 30 2.5", "invalid byo-yomi stones '2.5' (a whole number, 0 or more)"),
    ("time_settings 60 nan 1", "invalid byo-yomi time 'nan' (seconds, 0 or more)"),
    ("time_left b 60", "time_left takes color time stones"),
    ("time_left red 60 0", "invalid color argument 'red'"),
    ("time_left b -1 0", "invalid time '-1' (seconds, 0 or more)"),
    ("time_left b 60 x", "invalid stones 'x' (a whole number, 0 or more)"),
])
def test_bad_time_arguments_are_refused_and_change_nothing(line, message):
    gtp = GtpSession("duo", level=6)
    ok(gtp, "time_settings 30 0 0")
    assert fails(gtp, line) == message
    assert gtp.time_settings == TimeSettings(30, 0, 0) and gtp.clocks == {}


def test_genmove_takes_its_own_time_off_its_clock():
    ticks = iter([100.0, 104.0])
    gtp = GtpSession("duo", level=1, seed=1, clock=lambda: next(ticks))
    ok(gtp, "time_settings 60 0 0")
    ok(gtp, "genmove b")
    assert gtp.clock_of(1) == Clock(56.0) and gtp.clock_of(2) == Clock(60)


def test_a_move_under_seconds_gets_that_budget_not_its_levels():
    from engine.cornerclaim.ai import LEVELS

    gtp = GtpSession("duo", level=6, seed=2, seconds=0.2)
    assert gtp.budget(1) == 0.2 < LEVELS[6].seconds / 10
    low = GtpSession("duo", level=3, seed=2, seconds=0.2)
    ok(low, "play b e9,d10,e10,f10,e11")
    assert low.budget(2) == 0.2
    move = ok(low, "genmove w")
    assert move != "pass" and fails(low, f"play w {move}")


def test_the_seconds_option_takes_a_positive_number():
    import argparse

    import gtp

    parser = argparse.ArgumentParser()
    gtp.configure(parser)
    assert parser.parse_args(["--seconds", "1.5"]).seconds == 1.5
    assert parser.parse_args([]).seconds is None
    for bad in ("0", "-1", "x"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--seconds", bad])


# -- what a hostile controller may send ------------------------------------------------------


@pytest.mark.parametrize("line", [
    "time_settings ١٠ 0 0", "time_settings 10 ٣ 0", "time_settings 10 0 ²",
    "time_settings 1e3 0 0", "time_settings nan 0 0", "time_settings 1_0 0 0",
    "time_settings " + "9" * 5000 + " 0 0", "time_left b ١ 0", "time_left b 1 " + "9" * 50,
])
def test_numbers_are_ascii_digits_of_a_sane_length(line):
    session = GtpSession("duo")
    assert fails(session, line).startswith("invalid ")
    assert session.time_settings is None and session.clocks == {}
    ok(session, "time_settings 10 0 0")
    assert session.time_settings == TimeSettings(10, 0, 0)


@pytest.mark.parametrize("line", ["genmove b\x00", "play b\x1b[2J e9", "name\x7f",
                                  "1\x00 protocol_version", "showboard\x85"])
def test_a_control_character_in_a_command_line_gets_a_question_mark_and_a_message(line):
    session = GtpSession("duo")
    message = fails(session, line)
    assert message.startswith("control character U+") and "column" in message
    assert session.moves == []


def test_a_line_ending_in_cr_lf_and_tabs_between_words_are_still_commands():
    session = GtpSession("duo")
    assert session.handle("7\tprotocol_version\r\n") == "=7 2\n\n"
    assert ok(session, "name\r\n") == ok(session, "name")
