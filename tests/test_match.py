"""scripts/match.py: a game between two engines saved as .blksgf, and `--plies`, which
saves only each game's opening (starting positions for lab/diagnose.py finish)."""

import sys

from engine.cornerclaim import RULES, new_game
from engine.cornerclaim.sgf import read_sgf
from tests.test_load import script


def test_a_game_is_played_to_its_end_and_saved_with_a_in_its_seat(tmp_path):
    match = script("match")
    r = match.play_game((1, "level:2", "level:1", "classic", str(tmp_path), 7, 0, None, 1.0,
                         "flat"))
    assert r["a_seat"] == 2 and r["forfeit"] is None
    record = read_sgf((tmp_path / "game001.blksgf").read_bytes())
    game = new_game("classic")
    for seat, cells in record.moves:
        if cells is not None:
            game.play(seat, cells)
    assert game.state.is_over and r["plies"] == len(game.state.placements)
    assert r["scores"] == list(RULES.outcome(game.state).scores)
    s = match.summarise([r])
    assert s["games"] == 1 and s["rank"] == match.rank_of(r["scores"], 1)


def test_plies_saves_only_the_opening(tmp_path):
    match = script("match")
    assert match.main(["--game", "classic", "--a", "level:2", "--b", "level:1", "--games",
                       "2", "--plies", "16", "--jobs", "1", "--out", str(tmp_path)]) == 0
    for index in range(2):
        record = read_sgf((tmp_path / f"game{index:03d}.blksgf").read_bytes())
        assert len([c for _, c in record.moves if c]) == 16


def test_equal_time_gives_a_the_mean_seconds_b_took(tmp_path, monkeypatch):
    """`--equal-time`: A's budget is B's mean seconds a move so far (the start value first),
    handed to our in-process level as `seconds` (a GTP engine's byo-yomi: the next test)."""
    match = script("match")
    given = []
    real = match.LevelEngine.genmove

    def record(self, game, seat, seconds=None):
        if self.level == 2:
            given.append(seconds)
        return real(self, game, seat, seconds)

    monkeypatch.setattr(match.LevelEngine, "genmove", record)
    monkeypatch.setattr(match, "B_SPENT", [0.0, 0])
    match.play_game((0, "level:2", "level:1", "duo", str(tmp_path), 7, 1, 0.25, 1.0, "flat"))
    assert given == [0.25]  # B has not moved yet: the start value
    given.clear()
    monkeypatch.setattr(match, "B_SPENT", [3.0, 2])  # B took 1.5 s a move so far
    r = match.play_game((0, "level:2", "level:1", "duo", str(tmp_path), 7, 4, 0.25, 1.0, "flat"))
    assert r["plies"] == 4 and match.B_SPENT[1] == 4
    # then (3.0 + B's first move here) / 3
    assert given[0] == 1.5 and given[1] >= 1.0 and len(given) == 2
    # `--time-factor 2`: twice B's mean so far
    given.clear()
    monkeypatch.setattr(match, "B_SPENT", [3.0, 2])
    match.play_game((0, "level:2", "level:1", "duo", str(tmp_path), 7, 1, 0.25, 2.0, "flat"))
    assert given == [3.0]


def test_by_move_gives_a_what_b_took_at_the_same_move_number(monkeypatch):
    """`--time-profile by-move`: A's nth move gets B's mean at its nth move so far; a move
    number B has not reached yet gets B's overall mean, and nothing yet the start value."""
    match = script("match")
    monkeypatch.setattr(match, "B_SPENT", [0.0, 0])
    monkeypatch.setattr(match, "B_BY_MOVE", {})
    assert match.a_seconds(0.5, 1.0, "by-move", 1) == 0.5
    monkeypatch.setattr(match, "B_SPENT", [12.0, 4])
    monkeypatch.setattr(match, "B_BY_MOVE", {1: [10.0, 2], 2: [2.0, 2]})
    assert match.a_seconds(0.5, 1.0, "by-move", 1) == 5.0
    assert match.a_seconds(0.5, 2.0, "by-move", 2) == 2.0
    assert match.a_seconds(0.5, 1.0, "by-move", 3) == 3.0  # B's overall mean
    assert match.a_seconds(0.5, 1.0, "flat", 1) == 3.0


def test_the_summary_splits_a_by_seat_and_times_by_move_number():
    match = script("match")
    results = [{"a_seat": 1, "scores": [-5, -9], "spent": {"a": [3.0, 2, 2.0], "b": [1.0, 2, 0.6]},
                "each": {"a": [2.0, 1.0], "b": [0.6, 0.4]}},
               {"a_seat": 2, "scores": [-5, -9], "spent": {"a": [1.0, 1, 1.0], "b": [1.0, 1, 1.0]},
                "each": {"a": [1.0], "b": [1.0]}},
               {"a_seat": 2, "scores": [-5, -5], "spent": {"a": [1.0, 1, 1.0], "b": [1.0, 1, 1.0]},
                "each": {"a": [3.0], "b": [0.2]}}]
    s = match.summarise(results)
    assert s["by_seat"] == {1: (1.0, 1), 2: (0.5, 2)}
    assert s["by_move"]["a"] == [2.0, 1.0] and s["by_move"]["b"] == [0.6, 0.4]
    assert abs(s["rate"] - 0.5) < 1e-9


def test_a_seat_plays_only_the_games_where_a_sits_there(tmp_path):
    """`--a-seat 2`: only the games where A is the second player (the odd games in duo, every
    fourth from the second in classic), with `--time-factor` in each job."""
    import argparse

    match = script("match")
    args = argparse.Namespace(a="level:1", b="level:1", game="duo", games=6, out=str(tmp_path),
                              seed=1, plies=0, equal_time=True, start_seconds=1.0,
                              time_factor=2.0, a_seat=2, time_profile="flat")
    jobs = match.match_jobs(args)
    assert [j[0] for j in jobs] == [1, 3, 5] and {j[-2] for j in jobs} == {2.0}
    args.game, args.games = "classic", 8
    assert [j[0] for j in match.match_jobs(args)] == [1, 5]
    args.a_seat = 0
    assert len(match.match_jobs(args)) == 8

def test_a_gtp_command_takes_the_engines_seed_where_it_says_seed():
    match = script("match")
    spec = f"{sys.executable} -m server.cli gtp --game classic --level 1 --seed {{seed}}"
    game = new_game("classic")
    moves = []
    for seed in (41, 41, 42):
        engine = match.make_engine(spec, "classic", seed)
        try:
            assert engine.proc.args[-1] == str(seed)
            # the last with `--equal-time`'s budget, sent as GTP's time_settings
            moves.append(engine.genmove(game, 1, 0.5 if seed == 42 else None))
        finally:
            engine.close()
    # level 1 samples its move: the same seed repeats it (and the seed reached the engine)
    assert moves[0] == moves[1] and moves[2] != "pass"


def test_every_level_option_names_a_search_move_keyword():
    """`level:N/name=value`: each option match.py takes reaches `search_move` under its
    own name, typed."""
    import inspect

    from engine.cornerclaim.ai import search_move

    match = script("match")
    keywords = inspect.signature(search_move).parameters
    for name in match.OPTION_TYPES:
        engine = match.make_engine(f"level:6/{name}=1", "classic", 1)
        [(key, value)] = engine.options.items()
        assert key == name and key in keywords
        assert value == match.OPTION_TYPES[name]("1")
    assert match.make_engine("level:6/book=0", "classic", 1).options == {"book": False}


def test_match_plays_the_other_games_levels_through_their_runners(capfd):
    """`--game corners` and `--game marbles` run those games' level matches; a Corner Claim
    variant stays with match.py itself."""
    match = script("match")
    assert match.dispatch(["--game", "duo", "--a", "level:1"]) is None
    assert match.dispatch(["--game", "corners", "--pairs", "2:1", "--games", "2",
                           "--jobs", "1"]) == 0
    assert match.dispatch(["--game", "marbles", "--pairs", "2:1", "--games", "2",
                           "--jobs", "1"]) == 0
    out = capfd.readouterr().out
    assert "variant classic-3x3" in out and "2:1 | 2 |" in out and "variant 2p" in out
