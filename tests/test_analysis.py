"""The computer's review of a game, in the engine and on the command line: one entry per move
of the log, every best move legal where it is given, values and labels by the game's own
thresholds, Corner Claim's book moves labelled book, and `cornerclaim analyse` printing the
table for a JSON log and a game's own record format."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.analysis import LABELS, PlyReview, Thresholds, counts, label, moves_of, review
from engine.capabilities import Analysis, Chance, Records, capability
from engine.core import Game
from server.cli import main


def play(game_id: str, variant: str, plies: int, *, options=None, undo_at: int | None = None,
         seed: int = 0) -> Game:
    """A game of `variant` after `plies` moves by the low computer levels (a deal drawn when
    one is due; the seat that just moved takes it back once, after move `undo_at`)."""
    game = Game.new(game_id, variant, ("Pia", "Bo"), options or {})
    rules = game.rules
    rng = random.Random(seed)
    made = 0
    while made < plies and not rules.is_over(game.state):
        deal = c.chance(game.state, rng) if (c := capability(rules, Chance)) else None
        if deal is not None:
            game.append(type(deal)(**{**deal.__dict__, "seq": game.seq + 1}))
            continue
        seat = rules.to_move(game.state)
        game.play(seat, rules.choose_move(game.state, seat, level=1 + made % 2, seed=made))
        made += 1
        if made == undo_at:
            game.undo(seat)
    return game


GAMES = [
    ("cornerclaim", "duo", 6, {}, None),
    ("corners", "classic-3x3", 8, {"reserve_s": 0}, 5),
    ("marbles", "2p", 12, {"rounds": 1}, None),
]


@pytest.mark.parametrize("game_id,variant,plies,options,undo_at", GAMES,
                         ids=[g[0] for g in GAMES])
def test_every_move_is_reviewed_and_every_best_move_is_legal_where_it_is_given(
        game_id, variant, plies, options, undo_at):
    game = play(game_id, variant, plies, options=options, undo_at=undo_at)
    rules = game.rules
    analyst = capability(rules, Analysis)
    assert analyst is not None
    thresholds = analyst.analysis_thresholds
    moves = moves_of(game)
    got = list(review(game, analyst, thresholds, level=1))
    assert [(p.seq, p.seat, p.move) for p in got] == [
        (seq, step.seat, step.move) for seq, step, _ in moves]
    assert [p.ply for p in got] == list(range(1, len(moves) + 1))
    if undo_at is not None:  # a move taken back is in the log, so it is reviewed too
        (taken,) = [e for e in game.events if e.TYPE == "move_taken_back"]
        assert len(got) == plies and taken.from_seq in [p.seq for p in got]
    for p, (_, _, before) in zip(got, moves, strict=True):
        rules.check_move(before, p.seat, p.best)  # legal there: raises otherwise
        assert p.loss >= 0 and p.label in LABELS
        assert p.loss == pytest.approx(max(0.0, p.value_before - p.value_after), abs=1e-3)
        if thresholds.unit == "win":
            assert 0.0 <= p.value_before <= 1.0 and 0.0 <= p.value_after <= 1.0
        if p.move == p.best:
            assert p.label in ("best", "book") and p.loss == 0


def test_a_move_is_labelled_by_its_loss_against_the_game_s_thresholds():
    win = Thresholds("win", inaccuracy=0.05, mistake=0.10, blunder=0.20, best=0.02)
    assert [win.label(x) for x in (0.0, 0.02, 0.03, 0.05, 0.12, 0.2, 0.9)] == [
        "best", "best", "good", "inaccuracy", "mistake", "blunder", "blunder"]
    review_ = PlyReview("c4", 0.7, 0.4)
    assert review_.loss == pytest.approx(0.3)
    assert label(review_, "c5", win) == "blunder"
    assert label(review_, "C4", win) == "best"  # the engine's own move
    assert label(PlyReview("c4", 0.7, 0.4, book=True), "c5", win) == "book"
    assert label(PlyReview("c4", 0.4, 0.7), "c5", win) == "best"  # never a negative loss
    for game in ("cornerclaim", "corners", "marbles"):
        t = capability(registry.get(game), Analysis).analysis_thresholds
        assert t.unit == ("points" if game == "marbles" else "win")
        assert 0 <= t.best < t.inaccuracy < t.mistake < t.blunder


def test_corner_claim_s_opening_book_moves_are_labelled_book():
    from engine.cornerclaim.ai.book import book_move

    game = Game.new("cornerclaim", "duo")
    state = game.state
    move = book_move(state, 1)
    assert move is not None
    game.play(1, state.move_str(move))
    rules = game.rules
    (ply,) = review(game, rules, rules.analysis_thresholds, level=1)
    assert ply.label == "book" and ply.move == state.move_str(move)


def test_counts_give_each_seat_its_labels():
    game = play("marbles", "2p", 12, options={"rounds": 1})
    plies = list(review(game, game.rules, game.rules.analysis_thresholds, level=2))
    got = counts(plies, (1, 2))
    assert sum(sum(c.values()) for c in got.values()) == len(plies)
    assert got[1]["best"] == sum(1 for p in plies if p.seat == 1 and p.label == "best")


def test_the_command_line_prints_the_review_of_a_json_log(tmp_path, capsys):
    game = play("marbles", "2p", 12, options={"rounds": 1})
    path = tmp_path / "game.json"
    path.write_text(game.to_json())
    assert main(["analyse", str(path), "--level", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Corner (2p): the computer's review") and "points" in out[0]
    rows = [line for line in out[2:] if line[:3].strip().isdigit()]
    assert len(rows) == len(moves_of(game))
    assert rows[0].split()[:3] == ["1", "3", "Pia"]
    assert out[-2].startswith("Pia (Red): ") and out[-1].startswith("Bo (Yellow): ")


@pytest.mark.parametrize("game_id,variant,plies", [("cornerclaim", "duo", 4),
                                                   ("corners", "classic-3x3", 6)])
def test_the_command_line_reads_a_game_s_own_record_format(game_id, variant, plies,
                                                           tmp_path, capsys):
    game = play(game_id, variant, plies)
    records = capability(game.rules, Records)
    assert records is not None
    fmt = next(iter(game.rules.formats))
    path = tmp_path / f"game.{fmt}"
    path.write_text(records.export(game, fmt))
    assert main(["analyse", str(path), "--level", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{game.rules.title} ({variant})") and "win chance" in out[0]
    rows = [line for line in out[2:] if line[:3].strip().isdigit()]
    assert len(rows) == plies
    assert all(line.split()[-1] in LABELS for line in rows)


def test_the_command_line_says_what_is_wrong_with_a_file(tmp_path, capsys):
    path = tmp_path / "nothing.json"
    path.write_text("{}")
    assert main(["analyse", str(path)]) == 2
    assert "nothing.json" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2


def test_a_corners_review_at_the_timed_expert_searches_as_deep_as_the_review_goes(monkeypatch):
    """The Expert plays on a time budget, not a depth: reviewed at its level, a move is
    searched to the review's depth, not one ply."""
    from engine.corners import analysis
    from engine.corners.rules import start_state

    depths = []
    real = analysis.scored

    def scored(state, seat, depth):
        depths.append(depth)
        return real(state, seat, 2)

    monkeypatch.setattr(analysis, "scored", scored)
    analysis.analyse_ply(start_state("classic-3x3"), 1, "c3-d3", level=4)
    analysis.analyse_ply(start_state("classic-3x3"), 1, "c3-d3", level=3)
    assert depths == [analysis.DEPTH, analysis.ai.LEVELS[3].depth]
