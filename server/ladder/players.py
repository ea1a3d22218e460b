"""Players folded from finished games: each profile's stats per game, variant and overall,
its Elo ratings per game and variant, and its recent games."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine import registry
from engine.errors import EngineError
from engine.rules import computer_name
from server.ladder.results import (
    FinishedGame,
    SeatResult,
    level_rating,
    rated_variants,
    rating_key,
)

START_RATING = 1500.0
#: Elo's K: how far one game moves a rating. 32 is the common club value: a new player finds
#: their level within about 15–20 games on a LAN-party host where few games are played.
K_FACTOR = 32.0
ALL = "all"
RECENT = 20


@dataclass
class Stats:
    """A player's record in one game (or one variant of it, or every game together).

    The game's own statistics are summed per key: a yes/no statistic counts the games it
    held in (`all_placed`); a number is summed and averaged per game (`squares_left`,
    `average_squares_left`)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    score_total: int = 0
    best_score: int | None = None
    totals: dict[str, float] = field(default_factory=dict)
    counted: set[str] = field(default_factory=set)  # keys whose values are yes/no

    def add(self, r: SeatResult) -> None:
        self.games += 1
        self.wins += r.result == "win"
        self.draws += r.result == "draw"
        self.losses += r.result == "loss"
        self.points += r.points
        self.score_total += r.score
        self.best_score = r.score if self.best_score is None else max(self.best_score, r.score)
        for key, value in r.stats.items():
            if isinstance(value, bool):
                self.counted.add(key)
            self.totals[key] = self.totals.get(key, 0) + value

    def game_stats(self) -> dict[str, int | float | None]:
        n = self.games
        out: dict[str, int | float | None] = {}
        for key in sorted(self.totals):
            total = self.totals[key]
            out[key] = int(total) if key in self.counted or float(total).is_integer() else total
            if key not in self.counted:
                out[f"average_{key}"] = round(total / n, 2) if n else None
        return out

    def results(self) -> dict[str, int]:
        return {"games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "points": self.points}

    def to_dict(self) -> dict[str, Any]:
        n = self.games
        return {
            **self.results(),
            "average_score": round(self.score_total / n, 2) if n else None,
            "best_score": self.best_score, "stats": self.game_stats(),
        }


@dataclass
class Rating:
    """A profile's rating in one rated variant of one game."""

    rating: float = START_RATING
    peak: float = START_RATING
    rated_games: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"rating": round(self.rating), "rating_exact": self.rating,
                "peak_rating": round(self.peak), "rated_games": self.rated_games}


@dataclass
class Player:
    """A profile's standing: ratings by game/variant, stats by game and variant, rating
    history, games."""

    key: str
    name: str
    totals: Stats = field(default_factory=Stats)  # every game together
    #: "cornerclaim" (the game, every variant) and "cornerclaim/duo" (one variant) -> Stats
    stats: dict[str, Stats] = field(default_factory=dict)
    ratings: dict[str, Rating] = field(default_factory=dict)  # rating key -> Rating
    history: list[dict[str, Any]] = field(default_factory=list)  # one per rated game
    #: The newest RECENT game lines, newest last (all the API shows; the stats above count
    #: every game, so a long party's ladder does not grow with each game played).
    games: deque[GameLine] = field(default_factory=lambda: deque(maxlen=RECENT))

    def stats_for(self, key: str) -> Stats:
        return self.stats.setdefault(key, Stats())

    def rating_for(self, key: str) -> Rating:
        return self.ratings.setdefault(key, Rating())

    def main_rating(self, game: str, variant: str = ALL) -> tuple[str | None, Rating | None]:
        """The rating a ladder row of `game` (one variant, or all) shows: that variant's if
        it is rated, else the game's first rated variant's. (None, None): the game has none."""
        variants = rated_variants(game)
        if variant != ALL and variant in variants:
            key = rating_key(game, variant)
        elif variants:
            key = rating_key(game, variants[0])
        else:
            return None, None
        return key, self.ratings.get(key) or Rating()

    def summary(self, game: str, variant: str = ALL) -> dict[str, Any]:
        """A ladder row: name, the rating, and the stats of `game` (one variant, or all)."""
        key = game if variant == ALL else rating_key(game, variant)
        stats = self.stats.get(key) or Stats()
        rkey, rating = self.main_rating(game, variant)
        return {"name": self.name, "rating_key": rkey,
                "rating": round(rating.rating) if rating else None,
                "rating_exact": rating.rating if rating else None,
                "peak_rating": round(rating.peak) if rating else None,
                "rated_games": rating.rated_games if rating else 0, **stats.to_dict()}

    def section(self, game: str) -> dict[str, Any]:
        """Everything the player did in one game: its stats overall and by variant, the
        ratings of its rated variants, their history."""
        prefix = f"{game}/"
        try:
            title = registry.get(game).title
        except EngineError:
            title = game
        return {
            "game": game, "title": title, **self.summary(game),
            "by_variant": {k[len(prefix):]: s.to_dict() for k, s in sorted(self.stats.items())
                           if k.startswith(prefix)},
            "ratings": {k[len(prefix):]: r.to_dict() for k, r in sorted(self.ratings.items())
                        if k.startswith(prefix)},
            "rating_history": [h for h in self.history if h["game"] == game],
        }

    def played(self) -> list[str]:
        return sorted(k for k in self.stats if "/" not in k)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "totals": self.totals.results(),
            "games": {g: self.section(g) for g in self.played()},
            "recent_games": [line.to_dict() for line in reversed(self.games)],
        }


def expected(rating: float, other: float) -> float:
    """Elo's expected score of `rating` against `other` (0 to 1)."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


RESULT_VALUE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def fold_game(players: dict[str, Player], game: FinishedGame) -> None:
    """Fold one finished game into `players` (in place): points, stats, then ratings."""
    for r in game.seats:
        key = r.profile
        if key is None:
            continue
        p = players.get(key)
        if p is None:
            p = players[key] = Player(key, r.name or key)
        p.name = r.name or p.name
        p.totals.add(r)
        p.stats_for(game.game).add(r)
        p.stats_for(game.rating_key).add(r)
    changes = _rating_changes(players, game)
    for r in game.seats:
        if r.profile is None:
            continue
        p = players[r.profile]
        change = changes.get(r.seat)
        if change is not None:
            before, after, opponent = change
            rating = p.rating_for(game.rating_key)
            rating.rating = after
            rating.peak = max(rating.peak, after)
            rating.rated_games += 1
            p.history.append({"game_id": game.id, "at": game.finished_at, "game": game.game,
                              "variant": game.variant, "before": round(before, 1),
                              "after": round(after, 1), "opponent": opponent,
                              "result": r.result})
        p.games.append(_game_line(game, r, change))


def _rating_changes(players: dict[str, Player], game: FinishedGame
                    ) -> dict[int, tuple[float, float, str]]:
    """seat -> (rating before, after, opponent) for the seats this game rates."""
    if not game.rated or len(game.seats) != 2:
        return {}
    key = game.rating_key
    a, b = game.seats
    if a.profile is not None and b.profile is not None:
        if a.profile == b.profile:
            return {}
        ra = players[a.profile].rating_for(key).rating
        rb = players[b.profile].rating_for(key).rating
        return {a.seat: (ra, _elo(ra, rb, a.result), b.name or ""),
                b.seat: (rb, _elo(rb, ra, b.result), a.name or "")}
    out = {}
    for me, other in ((a, b), (b, a)):
        if me.profile is None or other.kind != "computer":
            continue
        fixed = level_rating(game.game, other.level)
        if fixed is not None:
            r = players[me.profile].rating_for(key).rating
            out[me.seat] = (r, _elo(r, fixed, me.result), computer_name(other.level))
    return out


def _elo(rating: float, other: float, result: str) -> float:
    return rating + K_FACTOR * (RESULT_VALUE[result] - expected(rating, other))


class GameLine(NamedTuple):
    """One game in a player's recent games (a tuple: a party's ladder holds thousands)."""

    game_id: str
    at: float
    game: str
    variant: str
    seat: int
    colour: str
    score: int
    result: str
    points: int
    left: bool
    rating_change: float | None
    opponents: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        out = self._asdict()
        out["opponents"] = list(self.opponents)
        return out


def _game_line(game: FinishedGame, r: SeatResult, change) -> GameLine:
    return GameLine(game.id, game.finished_at, game.game, game.variant, r.seat, r.colour,
                    r.score, r.result, r.points, r.left,
                    round(change[1] - change[0], 1) if change else None,
                    tuple(seat_label(o) for o in game.seats if o.seat != r.seat))


def seat_label(r: SeatResult) -> str:
    if not r.human:
        return computer_name(r.level)
    return r.name or r.colour.capitalize()  # a guest: its colour


def fold(games: Iterable[FinishedGame]) -> dict[str, Player]:
    """The whole ladder from finished games, in the order they finished."""
    players: dict[str, Player] = {}
    for game in sorted(games, key=lambda g: g.sort_key):
        fold_game(players, game)
    return players
