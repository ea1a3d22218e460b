"""lab/diagnose.py: agreement by seat and round, and games finished from a ply by each
engine in A's seat, over Pentobi's classic games saved as a match's files."""

import shutil
from pathlib import Path

from engine.cornerclaim import RULES, new_game
from engine.cornerclaim.ai import choose_move
from engine.cornerclaim.sgf import read_sgf
from lab.tests import tool
from tests.test_load import script

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "pentobi"


def _as_match(tmp_path: Path, name: str, index: int) -> Path:
    """A Pentobi game saved as the `index`th game of a match (A in seat index mod 4 + 1)."""
    path = tmp_path / f"game{index:03d}.blksgf"
    shutil.copy(DATA / f"{name}.blksgf", path)
    return path


def test_agreement_is_the_engines_choice_against_the_record_by_seat_and_round(tmp_path):
    diag = tool("diagnose")
    path = _as_match(tmp_path, "classic_L6_g1", 1)  # A sat in seat 2
    rows = diag._agree_game((str(path), "level:2"))
    record = read_sgf(path.read_bytes())
    assert [r["ply"] for r in rows] == [p for p, (_, c) in enumerate(record.moves) if c]
    assert {r["seat"] for r in rows if r["a"]} == {2}
    assert all(not r["a"] for r in rows if r["seat"] != 2)
    # Each row's agreement is level 2's own choice (deterministic) against the record's.
    game = new_game("classic")
    for ply, (seat, cells) in enumerate(record.moves):
        if cells is None:
            continue
        row = next(r for r in rows if r["ply"] == ply)
        want = choose_move(game.state, seat, level=2, seed=1 + game.state.seq)
        assert row["agree"] == (want == RULES.parse_move(game.state, seat, cells))
        assert row["size"] == len(cells.split(","))
        assert row["prior_agree"] == (diag.prior_first(game.state, seat) == want)
        assert row["engine_move"] == game.state.move_str(want)
        game.play(seat, cells)
    assert 0 < sum(r["agree"] for r in rows) < len(rows)
    table = diag.agreement_table(rows, 4).splitlines()
    assert table[0].startswith("engine A's placements")
    a_all = next(ln for ln in table if ln.startswith("all"))
    n_a = sum(r["a"] for r in rows)
    agreed = sum(r["agree"] for r in rows if r["a"])
    assert f"{100 * agreed / n_a:8.1f} ({n_a:4})" in a_all
    prior = table[table.index(next(ln for ln in table if ln.startswith("the prior's"))):]
    prior_all = next(ln for ln in prior if ln.startswith("all"))
    assert f"{100 * sum(r['prior_agree'] for r in rows) / len(rows):8.1f}" in prior_all
    assert 0 < sum(r["prior_agree"] for r in rows) < len(rows)
    assert diag.group_of(0, 4) == "1-3" and diag.group_of(47, 4) == "10-12"
    assert diag.group_of(95, 4) == "16-21"


def test_finishing_from_a_ply_replays_the_record_then_lets_each_engine_play_as(tmp_path):
    diag = tool("diagnose")
    path = _as_match(tmp_path, "classic_L7_g1", 2)  # A sat in seat 3
    record = read_sgf(path.read_bytes())
    result = diag._finish_game((str(path), 60, ["level:2", "level:1"], "level:2", 5, None, 3))
    start = result["ply"]
    assert start >= 60 and record.moves[start][0] == 3 and record.moves[start][1]
    assert all(s != 3 or c is None for s, c in record.moves[60:start])
    assert len(result["runs"]) == 2
    # With level 2 everywhere the finish is deterministic: replay it here.
    game = new_game("classic")
    for seat, cells in record.moves[:start]:
        if cells is not None:
            game.play(seat, cells)
    while not game.state.is_over:
        seat = game.state.to_move
        game.play(seat, game.state.move_str(
            choose_move(game.state, seat, level=2, seed=(5 if seat == 3 else 505)
                        + game.state.seq)))
    scores = list(RULES.outcome(game.state).scores)
    assert result["runs"][0]["scores"] == scores
    assert result["runs"][0]["rank"] == 1 + sum(s > scores[2] for s in scores) \
        + 0.5 * (sum(s == scores[2] for s in scores) - 1)
    summary = diag.finish_summary([result], ["level:2", "level:1"])
    assert "[1] − [0]: rank" in summary and "1 positions" in summary
    # A ply after A's last placement gives no position.
    assert diag._finish_game((str(path), len(record.moves), ["level:2"], "level:2", 5, None,
                             3)) is None


def test_a_stretch_alone_each_engine_plays_as_next_turns_then_one_engine_the_rest(tmp_path):
    diag = tool("diagnose")
    path = _as_match(tmp_path, "classic_L7_g1", 1)  # A sat in seat 2
    record = read_sgf(path.read_bytes())
    result = diag._finish_game((str(path), 20, ["level:1", "level:2"], "level:2", 5,
                                "level:2", 2))
    start = result["ply"]
    assert start >= 20 and record.moves[start][0] == 2
    # Replay it: A's next two turns by the engine under test (seed 5 + seq), A's later ones
    # by `then` (seed 1005 + seq), the other seats by `others` (seed 505 + seq).
    for run, spec in zip(result["runs"], (1, 2), strict=True):
        game = new_game("classic")
        for seat, cells in record.moves[:start]:
            if cells is not None:
                game.play(seat, cells)
        turns, mine = 0, []
        while not game.state.is_over:
            seat = game.state.to_move
            tested = seat == 2 and turns < 2
            if seat == 2:
                level, base = (spec, 5) if tested else (2, 1005)
                turns += 1
            else:
                level, base = 2, 505
            cells = game.state.move_str(
                choose_move(game.state, seat, level=level, seed=base + game.state.seq))
            if tested:
                mine.append(cells)
            game.play(seat, cells)
        assert run["scores"] == list(RULES.outcome(game.state).scores)
        assert run["moves"] == mine and len(mine) == 2  # the stretch's moves, in order
    # the two runs differ only in A's two turns: level 1 samples, level 2 plays its best
    assert result["runs"][0]["scores"] != result["runs"][1]["scores"]


def test_both_commands_run_over_a_matchs_files_and_print_their_tables(tmp_path, capsys):
    diag = tool("diagnose")
    first = _as_match(tmp_path, "classic_L6_g1", 0)
    second = _as_match(tmp_path, "classic_L3_g1", 1)
    out = tmp_path / "agree.jsonl"
    assert diag.main(["agree", str(first), str(second), "--engine", "level:2", "--jobs", "1",
                      "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "engine A's placements" in text and "the other seats' placements" in text
    assert len(out.read_text().splitlines()) == int(text.split()[0])
    assert diag.main(["finish", str(first), str(second), "--from-ply", "56",
                      "--engine", "level:2", "--engine", "level:1", "--others", "level:2",
                      "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "2 positions" in text and "[1] − [0]: rank" in text


def test_plies_saves_only_the_opening_which_diagnose_finishes(tmp_path):
    match, diag = script("match"), tool("diagnose")
    assert match.main(["--game", "classic", "--a", "level:2", "--b", "level:1", "--games",
                       "2", "--plies", "16", "--jobs", "1", "--out", str(tmp_path)]) == 0
    for index in range(2):
        path = tmp_path / f"game{index:03d}.blksgf"
        record = read_sgf(path.read_bytes())
        assert len([c for _, c in record.moves if c]) == 16
        # A's first placement at ply 12 or later (within the first 12 + 4 plies) is where a
        # finish from ply 12 starts
        result = diag._finish_game((str(path), 12, ["level:2"], "level:1", 3, None, 3))
        assert result["ply"] >= 12 and len(result["runs"]) == 1
        assert 1 <= result["runs"][0]["rank"] <= 4
