"""The ladder: games played through a real host (service, SQLite store) give match points,
Elo ratings and stats; the live projection equals one rebuilt from the stored logs."""

from __future__ import annotations

import pytest

from engine.cornerclaim import RULES
from server import ladder as L
from server.app import create_app, shutdown_app
from server.store import SqliteStore
from tests.test_sgf import random_game


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
        self.service = app.extensions["cornerclaim"]
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
    return app.extensions["cornerclaim_ladder"]


def test_ann_beats_bo_in_a_duo_and_both_ratings_move(host):
    app = host()
    table = Table(app, "duo", named("Ann", "Bo"))
    table.place(1, "e9,d10,e10,f10,e11")
    table.leave(2)  # Bo resigns
    ann, bo = ladder_of(app).player("Ann"), ladder_of(app).player("bo")
    assert (ann["wins"], ann["points"], bo["losses"], bo["points"]) == (1, 22, 1, 3)
    assert ann["rating_exact"] == pytest.approx(1516.0) and bo["rating_exact"] == 1484.0
    assert ann["rating_history"][0] | {"at": 0} == {
        "game_id": table.id, "at": 0, "before": 1500.0, "after": 1516.0, "opponent": "Bo",
        "result": "win"}
    assert bo["recent_games"][0]["left"] and bo["recent_games"][0]["rating_change"] == -16.0


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
    assert rows["Ann"]["best_score"] == -19 and rows["Bo"]["average_squares_left"] == 23
    assert ladder.player("Ann")["by_variant"]["trio"]["draws"] == 1


def test_a_leaver_who_would_have_won_loses_and_the_best_seated_player_wins(host):
    app = host()
    game = random_game("trio", 26)  # ends -9, -19, -10: Ann's game, with the last move Cy's
    moves = moves_of(game)
    assert RULES.outcome(game.state).winners == (1,) and moves[-1][0] == 3
    table = Table(app, "trio", named("Ann", "Bo", "Cy"))
    table.replay(moves, leave=(1, len(moves) - 1))  # Ann leaves before Cy's last piece
    assert table.state.is_over and [table.state.score(s) for s in (1, 2, 3)] == [-9, -19, -10]
    ann, cy = ladder_of(app).player("Ann"), ladder_of(app).player("Cy")
    assert (ann["losses"], ann["points"], ann["recent_games"][0]["left"]) == (1, 3, True)
    assert (cy["wins"], cy["points"]) == (1, 22)


def test_a_human_against_a_computer_moves_only_the_humans_rating(host):
    app = host()
    game = random_game("duo", 5)
    table = Table(app, "duo", [{"kind": "local", "name": "Ann"},
                               {"kind": "computer", "level": 3}])
    table.replay(moves_of(game))  # the computer's moves go through the bots' own path
    result = RULES.outcome(table.state).results[0]
    ann = ladder_of(app).player("Ann")
    expected = 1 / (1 + 10 ** ((L.LEVEL_RATINGS[3] - 1500) / 400))
    won = {"win": 1.0, "draw": 0.5, "loss": 0.0}[result]
    assert ann["rating_exact"] == pytest.approx(1500 + L.K_FACTOR * (won - expected))
    assert ann["rating_history"][0]["opponent"] == "Computer L3"
    assert [r["name"] for r in ladder_of(app).standings()] == ["Ann"]  # levels are not entries
    assert ann["recent_games"][0]["opponents"] == ["Computer L3"]


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
    ann = ladder_of(app).player("ann")
    assert (ann["name"], ann["games"], ann["wins"], ann["losses"]) == ("ANN", 2, 1, 1)
    assert ann["rated_games"] == 2 and len(ann["rating_history"]) == 2


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
    assert live["ann"]["games"] == 3 and live["bo"]["rated_games"] == 2
    store = SqliteStore(tmp_path / "data")
    try:
        rebuilt = L.Ladder(L.games_from_store(store)).snapshot()
    finally:
        store.close()
    assert rebuilt == live
    shutdown_app(app)
    assert ladder_of(host()).snapshot() == live


def test_elo_follows_the_order_games_finished_even_when_told_late():
    def duel(game_id: str, at: float, winner: str, loser: str) -> L.FinishedGame:
        def seat(n, name, result):
            return L.SeatResult(n, "blue", "local", name, None, -10, result,
                                22 if result == "win" else 3, False, False, False, 10)
        return L.FinishedGame(game_id, at, "duo", (seat(1, winner, "win"),
                                                   seat(2, loser, "loss")))

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
                               {"win": 22, "draw": 8, "loss": 3}[result], False, full, single,
                               left))
    assert stats.to_dict() == {
        "games": 4, "wins": 2, "draws": 1, "losses": 1, "points": 55, "average_score": -1.75,
        "best_score": 20, "all_placed": 2, "single_last": 1, "average_squares_left": 10.5}


def test_k_factor_and_expected_score_are_elos():
    assert L.expected(1500, 1500) == 0.5
    assert L.expected(1700, 1300) == pytest.approx(0.909, abs=1e-3)
    assert L.K_FACTOR == 32 and L.START_RATING == 1500
    assert sorted(L.LEVEL_RATINGS) == [1, 2, 3, 4, 5, 6]


def test_a_player_keeps_only_the_recent_game_lines_but_counts_every_game():
    """A long party must not grow the ladder with every game: the API shows the newest
    RECENT lines, so no more are kept, while the stats and the rating count them all."""

    def seat(n, name, result, score):
        return L.SeatResult(seat=n, colour=("blue", "orange")[n - 1], kind="open", name=name,
                            level=None, score=score, result=result,
                            points={"win": 3, "draw": 1, "loss": 0}[result], left=False,
                            all_placed=False, single_last=False, squares_left=10)

    n = L.RECENT + 15
    games = [L.FinishedGame(f"g{i:03d}", 1000.0 + i, "duo",
                            (seat(1, "Ann", "win", 40 + i), seat(2, "Bo", "loss", 30)))
             for i in range(n)]
    ladder = L.Ladder(games)
    ann = ladder.snapshot()["ann"]
    assert ann["games"] == n and ann["wins"] == n and ann["rated_games"] == n
    assert len(ann["rating_history"]) == n
    assert [g["game_id"] for g in ann["recent_games"]] == \
        [f"g{i:03d}" for i in range(n - 1, n - 1 - L.RECENT, -1)]
    # One more game, added live, pushes the oldest line out.
    ladder.add(L.FinishedGame("g999", 9999.0, "duo", (seat(1, "Ann", "draw", 50),
                                                       seat(2, "Bo", "draw", 50))))
    ann = ladder.snapshot()["ann"]
    assert ann["games"] == n + 1 and ann["draws"] == 1
    assert len(ann["recent_games"]) == L.RECENT and ann["recent_games"][0]["game_id"] == "g999"
    assert ann["recent_games"][-1]["game_id"] == f"g{n - L.RECENT + 1:03d}"
