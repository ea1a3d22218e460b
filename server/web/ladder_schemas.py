"""The ladder and replay API's schemas (server.web.ladder_api): its queries and answers."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

import server.ladder.standings as L
from engine import registry
from engine.errors import EngineError
from server.web.schemas import Strict


def _known_game(value: str) -> None:
    ids = [r.game for r in registry.games()]
    if value not in ids:
        raise ma.ValidationError(f"there is no game {value!r} on this host "
                                 f"({', '.join(ids)})")


class PlayersQuery(Strict):
    game = fields.String(load_default=L.DEFAULT_GAME, validate=_known_game)
    sort = fields.String(load_default="rating", validate=validate.OneOf(L.SORT_KEYS))
    order = fields.String(load_default=None, validate=validate.OneOf(["asc", "desc"]))
    variant = fields.String(load_default=L.ALL)

    @ma.validates_schema
    def _variant_of_game(self, data, **kwargs):
        game, variant = data.get("game", L.DEFAULT_GAME), data.get("variant", L.ALL)
        try:
            variants = list(registry.get(game).variants)
        except EngineError:
            return  # the game's own check says so
        if variant != L.ALL and variant not in variants and not any(
                variant in rules.variants for rules in registry.games()):
            raise ma.ValidationError(f"{game} has no variant {variant!r} "
                                     f"({', '.join([L.ALL, *variants])})", "variant")


class ReplayQuery(Strict):
    takebacks = fields.Boolean(load_default=False)


class BoardQuery(Strict):
    move = fields.Integer(load_default=None, validate=validate.Range(min=0, max=10_000))


class StatsSchema(ma.Schema):
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    points = fields.Integer(required=True)
    average_score = fields.Float(allow_none=True, required=True)
    best_score = fields.Integer(allow_none=True, required=True)
    stats = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), required=True,
                        metadata={"description": "the game's own statistics (its catalog's "
                                  "`stats`): a yes/no one as the games it held in "
                                  "(`all_placed`), a number as its sum and `average_<key>`"})


class RatedSchema(ma.Schema):
    rating_key = fields.String(allow_none=True, required=True,
                               metadata={"description": "game/variant of the rating shown"})
    rating = fields.Integer(allow_none=True, required=True)
    rating_exact = fields.Float(allow_none=True, required=True)
    peak_rating = fields.Integer(allow_none=True, required=True)
    rated_games = fields.Integer(required=True)


class PlayerRow(StatsSchema, RatedSchema):
    rank = fields.Integer(required=True)
    name = fields.String(required=True)


class StatLabel(ma.Schema):
    key = fields.String(required=True)
    label = fields.String(required=True)


class LadderSchema(ma.Schema):
    game = fields.String(required=True)
    title = fields.String(required=True)
    variant = fields.String(required=True)
    variants = fields.List(fields.String(), required=True)
    rated_variants = fields.List(fields.String(), required=True)
    stats = fields.List(fields.Nested(StatLabel), required=True)
    players = fields.List(fields.Nested(PlayerRow), required=True)
    sort = fields.String(required=True)
    order = fields.String(required=True)
    k_factor = fields.Float(required=True)
    start_rating = fields.Float(required=True)
    level_ratings = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)


class HistoryPoint(ma.Schema):
    game_id = fields.String(required=True)
    at = fields.Float(required=True)
    game = fields.String(required=True)
    variant = fields.String(required=True)
    before = fields.Float(required=True)
    after = fields.Float(required=True)
    opponent = fields.String(required=True)
    result = fields.String(required=True)


class GameLine(ma.Schema):
    game_id = fields.String(required=True)
    at = fields.Float(required=True)
    game = fields.String(required=True)
    variant = fields.String(required=True)
    seat = fields.Integer(required=True)
    colour = fields.String(required=True)
    score = fields.Integer(required=True)
    result = fields.String(required=True)
    points = fields.Integer(required=True)
    left = fields.Boolean(required=True)
    rating_change = fields.Float(allow_none=True, required=True)
    opponents = fields.List(fields.String(), required=True)


class RatingSchema(ma.Schema):
    rating = fields.Integer(required=True)
    rating_exact = fields.Float(required=True)
    peak_rating = fields.Integer(required=True)
    rated_games = fields.Integer(required=True)


class GameSection(StatsSchema, RatedSchema):
    game = fields.String(required=True)
    title = fields.String(required=True)
    name = fields.String(required=True)
    by_variant = fields.Dict(keys=fields.String(), values=fields.Nested(StatsSchema),
                             required=True)
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(RatingSchema),
                          required=True, metadata={"description": "per rated variant"})
    rating_history = fields.List(fields.Nested(HistoryPoint), required=True)


class Totals(ma.Schema):
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    points = fields.Integer(required=True)


class PlayerSchema(ma.Schema):
    name = fields.String(required=True)
    totals = fields.Nested(Totals, required=True)
    games = fields.Dict(keys=fields.String(), values=fields.Nested(GameSection), required=True,
                        metadata={"description": "a section per game played, by game id"})
    recent_games = fields.List(fields.Nested(GameLine), required=True)


class FormatSchema(ma.Schema):
    ext = fields.String(required=True)
    mimetype = fields.String(required=True)
    label = fields.String(required=True)


class ReplaySchema(ma.Schema):
    id = fields.String(required=True)
    source = fields.String(required=True, metadata={"description": "game or import"})
    game = fields.String(required=True)
    title = fields.String(required=True)
    variant = fields.String(required=True)
    options = fields.Dict(required=True)
    practice = fields.Boolean(required=True, metadata={
        "description": "a practice game: unrated, never on the ladder"})
    players = fields.List(fields.String(), required=True)
    colours = fields.List(fields.String(), required=True)
    seq = fields.Integer(required=True)
    over = fields.Boolean(required=True)
    show_takebacks = fields.Boolean(required=True)
    takebacks = fields.Integer(required=True)
    frames = fields.List(fields.Dict(), required=True, metadata={
        "description": "index, seq, kind (start/move/left/takeback or the game's own), "
                       "seat, move, text, details (the game's: Corner Claim's piece, "
                       "squares), taken_back, to_move, scores, left, result; frame 0 also "
                       "board (the game's public board, as in a game's state) and seats "
                       "(colour, left, score, can_move, view, out_of_moves); every later "
                       "frame instead changes: its board and seats as a change from the "
                       "frame before (docs/formats.md, \"Replay frames\")"})
    series = fields.Dict(required=True, metadata={
        "description": "per seat: scores, its score at each frame; squares, each of its "
                       "moves' squares (Corner Claim); distance (Corners only), at each frame "
                       "the steps its pieces outside the target still have to go"})
    result = fields.Dict(allow_none=True, required=True)
    analysis = fields.String(validate=validate.OneOf(
        ["none", "queued", "running", "done", "failed"]), metadata={
        "description": "a game's replay only: where the computer's review of the game stands "
                       "(none: nobody asked for one yet)"})
    formats = fields.List(fields.Nested(FormatSchema), required=True)
    links = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class Imported(ma.Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    variant = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    moves = fields.Integer(required=True)
    url = fields.String(required=True)


class TonightRow(ma.Schema):
    name = fields.String(required=True)
    points = fields.Integer(required=True, metadata={"description": "match points tonight"})
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    by_game = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                          metadata={"description": "match points per game id"})


class TonightSchema(ma.Schema):
    since = fields.String(required=True, metadata={
        "description": "when the evening began (ISO 8601, UTC): the host's start, or the "
                       "host PC's latest \"New evening\""})
    players = fields.List(fields.Nested(TonightRow), required=True,
                          metadata={"description": "most points first"})
