"""The ladder: games played through a real host (service, SQLite store) give match points,
Elo ratings and stats per game; the live projection equals one rebuilt from the stored logs;
a game that is not Corner Claim (the test-only tic-tac-toe) has its own ratings."""

from __future__ import annotations

import pytest

from engine.core import Game
from engine.cornerclaim import RULES, new_game
from server.app import create_app, shutdown_app
from server.host import host_of
from server.ladder import standings as L
from server.store.sqlite import SqliteStore
from tests.games import tictactoe  # noqa: F401 - registers the game
from tests.test_sgf import random_game

DUO = "cornerclaim/duo"


@pytest.fixture
def host(tmp_path):
    apps = []

    def start():
        app = create_app({"DATA_DIR": str(tmp_path / "data"), "START_BOTS": False,
                          "TESTING": True})
        apps.append(app)
        return app

    yield start
    for app in apps:
        shutdown_app(app)


class Table:
    """A game on the host, driven through the service as the phones and bots would."""

    def __init__(self, app, variant: str, seats: list[dict]):
        self.service = host_of(app).service
        created = self.service.create(variant, seats)
        self.id = created["id"]
        self.tokens = {int(k): v for k, v in created["tokens"].items()}
        self.host_token = created["host_token"]

    @property
    def state(self):
        return self.service.table(self.id).state

    @property
    def seq(self):
        return self.service.table(self.id).game.seq

    def place(self, seat: int, move: str) -> None:
        if seat in self.tokens:
            self.service.move(self.id, seat, move, self.seq, self.tokens[seat])
        else:
            assert self.service.bot_move(self.id, seat, move, self.seq) is not None

    def leave(self, seat: int) -> None:
        self.service.leave(self.id, seat, self.tokens[seat])

    def replay(self, moves, *, leave: tuple[int, int] | None = None) -> None:
        """Play (seat, move) in order; `leave=(seat, n)`: that seat leaves after move n."""
        for n, (seat, move) in enumerate(moves, 1):
            self.place(seat, move)
            if leave and leave[1] == n:
                self.leave(leave[0])


def named(*names: str) -> list[dict]:
    return [{"kind": "local", "name": n} for n in names]


def moves_of(game) -> list[tuple[int, str]]:
    return [(seat, game.state.move_str(m)) for _, seat, m in game.state.placements]


def ladder_of(app) -> L.Ladder:
    return host_of(app).ladder


def section(name: str, app=None, ladder: L.Ladder | None = None, game: str = "cornerclaim"):
    """A player's section of one game in their profile."""
    return (ladder or ladder_of(app)).player(name)["games"][game]


def test_ann_beats_bo_in_a_duo_and_both_ratings_move(host):
    app = host()
    table = Table(app, "duo", named("Ann", "Bo"))
    table.place(1, "e9,d10,e10,f10,e11")
    table.leave(2)  # Bo resigns
    ann, bo = section("Ann", app), section("bo", app)
    assert (ann["wins"], ann["points"], bo["losses"], bo["points"]) == (1, 22, 1, 3)
    assert ann["rating_exact"] == pytest.approx(1516.0) and bo["rating_exact"] == 1484.0
    assert ann["rating_key"] == DUO and ann["ratings"]["duo"]["rated_games"] == 1
    assert ann["rating_history"][0] | {"at": 0} == {
        "game_id": table.id, "at": 0, "game": "cornerclaim", "variant": "duo",
        "before": 1500.0, "after": 1516.0, "opponent": "Bo", "result": "win"}
    recent = ladder_of(app).player("bo")["recent_games"][0]
    assert recent["left"] and recent["rating_change"] == -16.0 and recent["game"] == "cornerclaim"


def test_two_top_seats_draw_in_a_trio_and_no_rating_moves(host):
    app = host()
    game = random_game("trio", 8)  # ends -19, -23, -19: Ann and Cy share the top
    assert RULES.outcome(game.state).winners == (1, 3)
    table = Table(app, "trio", named("Ann", "Bo", "Cy"))
    table.replay(moves_of(game))
    ladder = ladder_of(app)
    rows = {r["name"]: r for r in ladder.standings(sort="points")}
    assert [(rows[n]["draws"], rows[n]["losses"], rows[n]["points"]) for n in ("Ann", "Bo", "Cy")
            ] == [(1, 0, 8), (0, 1, 3), (1, 0, 8)]
    assert {r["rating"] for r in rows.values()} == {1500}
    assert all(r["rated_games"] == 0 for r in rows.values())
    assert rows["Ann"]["best_score"] == -19 and rows["Bo"]["stats"]["average_squares_left"] == 23
    assert section("Ann", ladder=ladder)["by_variant"]["trio"]["draws"] == 1
    assert section("Ann", ladder=ladder)["ratings"] == {}


def test_a_leaver_who_would_have_won_loses_and_the_best_seated_player_wins(host):
    app = host()
    game = random_game("trio", 26)  # ends -9, -19, -10: Ann's game, with the last move Cy's
    moves = moves_of(game)
    assert RULES.outcome(game.state).winners == (1,) and moves[-1][0] == 3
    table = Table(app, "trio", named("Ann", "Bo", "Cy"))
    table.replay(moves, leave=(1, len(moves) - 1))  # Ann leaves before Cy's last piece
    assert table.state.is_over and [table.state.score(s) for s in (1, 2, 3)] == [-9, -19, -10]
    ann, cy = ladder_of(app).player("Ann"), section("Cy", app)
    assert ann["totals"]["losses"] == 1 and ann["totals"]["points"] == 3
    assert ann["recent_games"][0]["left"]
    assert (cy["wins"], cy["points"]) == (1, 22)


def test_a_human_against_a_computer_moves_only_the_humans_rating(host):
    app = host()
    game = random_game("duo", 5)
    table = Table(app, "duo", [{"kind": "local", "name": "Ann"},
                               {"kind": "computer", "level": 3}])
    table.replay(moves_of(game))  # the computer's moves go through the bots' own path
    result = RULES.outcome(table.state).results[0]
    ann = section("Ann", app)
    expected = 1 / (1 + 10 ** ((L.level_ratings("cornerclaim")[3] - 1500) / 400))
    won = {"win": 1.0, "draw": 0.5, "loss": 0.0}[result]
    assert ann["rating_exact"] == pytest.approx(1500 + L.K_FACTOR * (won - expected))
    assert ann["rating_history"][0]["opponent"] == "Computer L3"
    assert [r["name"] for r in ladder_of(app).standings()] == ["Ann"]  # levels are not entries
    assert ladder_of(app).player("Ann")["recent_games"][0]["opponents"] == ["Computer L3"]


def test_unnamed_seats_and_computer_duels_rate_nobody(host):
    app = host()
    table = Table(app, "duo", [{"kind": "computer", "level": 1},
                               {"kind": "computer", "level": 2}])
    table.replay(moves_of(random_game("duo", 1)))
    assert ladder_of(app).standings() == []


def test_a_game_the_host_closed_before_its_end_counts_for_nothing(host):
    app = host()
    table = Table(app, "duo", named("Ann", "Bo"))
    table.place(1, "e9,d10,e10,f10,e11")
    table.service.close(table.id, table.host_token)
    assert ladder_of(app).player("Ann") is None


def test_a_name_is_one_profile_whatever_its_case_and_blanks(host):
    app = host()
    for names in (("Ann", "Bo"), ("bo", " ANN ")):
        table = Table(app, "duo", named(*names))
        table.place(1, "e9,d10,e10,f10,e11")
        table.leave(2)
    ann = section("ann", app)
    assert (ann["name"], ann["games"], ann["wins"], ann["losses"]) == ("ANN", 2, 1, 1)
    assert ann["rated_games"] == 2 and len(ann["rating_history"]) == 2
    assert ladder_of(app).player("ann")["name"] == "ANN"


def test_the_live_ladder_equals_one_rebuilt_from_the_logs_and_after_a_restart(host, tmp_path):
    app = host()
    for seed, variant in ((2, "duo"), (8, "trio"), (5, "classic")):
        table = Table(app, variant, named(*("Ann", "Bo", "Cy", "Di")[:{"duo": 2, "trio": 3,
                                                                      "classic": 4}[variant]]))
        table.replay(moves_of(random_game(variant, seed)))
    vs_computer = Table(app, "duo", [{"kind": "local", "name": "Bo"},
                                     {"kind": "computer", "level": 5}])
    vs_computer.place(1, "e9,d10,e10,f10,e11")
    vs_computer.leave(1)
    Table(app, "duo", named("Ann", "Cy")).place(1, "e10")  # still running: not counted
    live = ladder_of(app).snapshot()
    assert live["ann"]["totals"]["games"] == 3
    assert live["bo"]["games"]["cornerclaim"]["rated_games"] == 2
    store = SqliteStore(tmp_path / "data")
    try:
        rebuilt = L.Ladder(L.games_from_store(store)).snapshot()
    finally:
        store.close()
    assert rebuilt == live
    shutdown_app(app)
    assert ladder_of(host()).snapshot() == live


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_ratings_follow_the_order_games_finished_not_the_order_they_were_made(backend, request,
                                                                            tmp_path):
    """Elo depends on the order: Ann and Bo make two duels, and the one made second finishes
    first (Bo wins it), then the first (Ann wins it). Folded in finishing order Ann ends just
    above Bo (her win came against a higher rating); folded in the order they were made, Bo
    would. A restart rebuilds the ladder from the store (SQLite, or a club's PostgreSQL), which
    keeps each event's time: the same ratings."""
    config = {"DATA_DIR": str(tmp_path / "data"), "START_BOTS": False, "TESTING": True}
    if backend == "postgresql":
        config["STORE"] = request.getfixturevalue("pg_url")
    app = create_app(config)
    try:
        made_first = Table(app, "duo", named("Ann", "Bo"))
        made_second = Table(app, "duo", named("Bo", "Ann"))
        made_second.place(1, "e9,d10,e10,f10,e11")
        made_second.leave(2)  # Ann resigns: Bo wins the game made second, first
        made_first.place(1, "e9,d10,e10,f10,e11")
        made_first.leave(2)  # Bo resigns: Ann wins the game made first, last
        live = ladder_of(app).snapshot()
    finally:
        shutdown_app(app)
    app = create_app(config)
    try:
        rebuilt = ladder_of(app).snapshot()
    finally:
        shutdown_app(app)
    ann, bo = rebuilt["ann"]["games"]["cornerclaim"], rebuilt["bo"]["games"]["cornerclaim"]
    assert [h["game_id"] for h in ann["rating_history"]] == [made_second.id, made_first.id]
    assert ann["rating_exact"] == pytest.approx(1501.47, abs=0.01)
    assert bo["rating_exact"] == pytest.approx(1498.53, abs=0.01)
    assert rebuilt == live


def test_elo_follows_the_order_games_finished_even_when_told_late():
    def duel(game_id: str, at: float, winner: str, loser: str) -> L.FinishedGame:
        def seat(n, name, result):
            return L.SeatResult(n, "blue", "local", name, None, -10, result,
                                22 if result == "win" else 3, False, {"squares_left": 10})
        return L.FinishedGame(game_id, at, "cornerclaim", "duo",
                              (seat(1, winner, "win"), seat(2, loser, "loss")), rated=True)

    games = [duel("a", 1.0, "Ann", "Bo"), duel("b", 2.0, "Bo", "Cy"), duel("c", 3.0, "Cy", "Ann")]
    ladder = L.Ladder()
    for g in (games[1], games[2], games[0]):  # "a" is announced last (a race between tables)
        ladder.add(g)
    assert ladder.snapshot() == L.Ladder(games).snapshot()
    assert not ladder.add(games[0])  # once only


def test_stats_count_bonuses_averages_and_best_score():
    stats = L.Stats()
    for score, result, full, single, left in ((-12, "win", False, False, 12),
                                              (15, "win", True, False, 0),
                                              (20, "draw", True, True, 0),
                                              (-30, "loss", False, False, 30)):
        stats.add(L.SeatResult(1, "blue", "local", "Ann", None, score, result,
                               {"win": 22, "draw": 8, "loss": 3}[result], False,
                               {"all_placed": full, "single_last": single,
                                "squares_left": left}))
    assert stats.to_dict() == {
        "games": 4, "wins": 2, "draws": 1, "losses": 1, "points": 55, "average_score": -1.75,
        "best_score": 20, "stats": {"all_placed": 2, "single_last": 1, "squares_left": 42,
                                    "average_squares_left": 10.5}}


def test_k_factor_and_expected_score_are_elos():
    assert L.expected(1500, 1500) == 0.5
    assert L.expected(1700, 1300) == pytest.approx(0.909, abs=1e-3)
    assert L.K_FACTOR == 32 and L.START_RATING == 1500
    assert sorted(L.level_ratings("cornerclaim")) == [1, 2, 3, 4, 5, 6]
    assert L.level_rating("cornerclaim", 3) == 1250 and L.level_rating("cornerclaim", 9) is None
    assert L.level_rating("tictactoe", 1) == 1000 and L.level_ratings("tictactoe") == {1: 1000}
    assert L.level_rating("tictactoe", 2) is None


def test_a_player_keeps_only_the_recent_game_lines_but_counts_every_game():
    """A long party must not grow the ladder with every game: the API shows the newest
    RECENT lines, so no more are kept, while the stats and the rating count them all."""

    def seat(n, name, result, score):
        return L.SeatResult(seat=n, colour=("blue", "orange")[n - 1], kind="open", name=name,
                            level=None, score=score, result=result,
                            points={"win": 3, "draw": 1, "loss": 0}[result], left=False)

    n = L.RECENT + 15
    games = [L.FinishedGame(f"g{i:03d}", 1000.0 + i, "cornerclaim", "duo",
                            (seat(1, "Ann", "win", 40 + i), seat(2, "Bo", "loss", 30)), True)
             for i in range(n)]
    ladder = L.Ladder(games)
    ann = ladder.snapshot()["ann"]
    duo = ann["games"]["cornerclaim"]
    assert duo["games"] == n and duo["wins"] == n and duo["rated_games"] == n
    assert len(duo["rating_history"]) == n
    assert [g["game_id"] for g in ann["recent_games"]] == \
        [f"g{i:03d}" for i in range(n - 1, n - 1 - L.RECENT, -1)]
    # One more game, added live, pushes the oldest line out.
    ladder.add(L.FinishedGame("g999", 9999.0, "cornerclaim", "duo",
                              (seat(1, "Ann", "draw", 50), seat(2, "Bo", "draw", 50)), True))
    ann = ladder.snapshot()["ann"]
    assert ann["totals"]["games"] == n + 1 and ann["totals"]["draws"] == 1
    assert len(ann["recent_games"]) == L.RECENT and ann["recent_games"][0]["game_id"] == "g999"
    assert ann["recent_games"][-1]["game_id"] == f"g{n - L.RECENT + 1:03d}"


# -- a game that is not Corner Claim ---------------------------------------------------------


class Seat:
    """A seat record as the store keeps it."""

    def __init__(self, seat: int, name: str | None = None, kind: str = "local",
                 level: int | None = None):
        self.seat, self.name, self.kind, self.level = seat, name, kind, level


def tictactoe_won_by_seat_1(*cells_of_2: str) -> Game:
    game = Game.new("tictactoe", "3x3", ("Ann", "Bo"))
    for a, b in zip(("a1", "a2", "a3"), (*cells_of_2, None), strict=True):
        game.play(1, a)
        if b and not game.rules.is_over(game.state):
            game.play(2, b)
    return game


def duo_won_by(winner: int) -> Game:
    game = new_game("duo", ("Ann", "Bo"))
    game.play(1, "e9,d10,e10,f10,e11")
    game.leave(3 - winner)
    return game


def test_a_tictactoe_game_has_its_own_rating_and_leaves_the_duo_rating_alone():
    duo = L.summarise("d1", 1.0, duo_won_by(2), [Seat(1, "Ann"), Seat(2, "Bo")])
    ttt = L.summarise("t1", 2.0, tictactoe_won_by_seat_1("b1", "b2"),
                      [Seat(1, "Ann"), Seat(2, "Bo")])
    assert (ttt.game, ttt.variant, ttt.rating_key, ttt.rated) == (
        "tictactoe", "3x3", "tictactoe/3x3", True)
    assert [(r.colour, r.result, r.points, r.score) for r in ttt.seats] == [
        ("cross", "win", 2, 3), ("nought", "loss", 0, 2)]
    ladder = L.Ladder([duo, ttt])
    ann = ladder.player("Ann")
    assert sorted(ann["games"]) == ["cornerclaim", "tictactoe"]
    assert ann["totals"] == {"games": 2, "wins": 1, "draws": 0, "losses": 1, "points": 5}
    noughts = ann["games"]["tictactoe"]
    assert (noughts["rating_key"], noughts["rating_exact"]) == ("tictactoe/3x3", 1516.0)
    assert noughts["by_variant"]["3x3"]["wins"] == 1 and noughts["stats"] == {}
    assert noughts["rating_history"][0]["game"] == "tictactoe"
    duo_section = ann["games"]["cornerclaim"]
    assert (duo_section["rating_key"], duo_section["rating_exact"]) == (DUO, 1484.0)
    assert len(duo_section["rating_history"]) == 1
    assert [r["name"] for r in ladder.standings(game="tictactoe")] == ["Ann", "Bo"]
    assert ladder.standings(game="tictactoe")[0]["rating"] == 1516
    assert ladder.standings(game="cornerclaim")[0]["name"] == "Bo"
    assert ladder.standings(game="cornerclaim", variant="trio") == []


def test_a_tictactoe_game_against_its_computer_moves_against_the_default_level_rating():
    ttt = L.summarise("t1", 1.0, tictactoe_won_by_seat_1("b1", "b2"),
                      [Seat(1, "Ann"), Seat(2, kind="computer", level=1)])
    ann = section("Ann", ladder=L.Ladder([ttt]), game="tictactoe")
    assert ann["rating_exact"] == pytest.approx(1500 + L.K_FACTOR * (1 - L.expected(1500, 1000)))
    assert ann["rating_history"][0]["opponent"] == "Computer L1"


def test_an_unfinished_tictactoe_game_counts_for_nothing():
    game = Game.new("tictactoe", "3x3", ("Ann", "Bo"))
    game.play(1, "b2")
    assert L.summarise("t1", 1.0, game, [Seat(1, "Ann"), Seat(2, "Bo")]) is None


def test_a_tictactoe_game_on_the_host_folds_in_beside_corner_claims(host, tmp_path):
    app = host()
    service = host_of(app).service
    created = service.create("3x3", named("Ann", "Bo"), game="tictactoe")
    tokens = created["tokens"]
    for n, (seat, cell) in enumerate(((1, "a1"), (2, "b1"), (1, "a2"), (2, "b2"), (1, "a3")), 1):
        service.move(created["id"], seat, cell, n, tokens[str(seat)])
    duo = Table(app, "duo", named("Ann", "Bo"))
    duo.place(1, "e9,d10,e10,f10,e11")
    duo.leave(1)
    live = ladder_of(app).snapshot()
    assert live["ann"]["games"]["tictactoe"]["rating_exact"] == 1516.0
    assert live["ann"]["games"]["cornerclaim"]["rating_exact"] == 1484.0
    store = SqliteStore(tmp_path / "data")
    try:
        assert L.Ladder(L.games_from_store(store)).snapshot() == live
    finally:
        store.close()
