"""Marshmallow schemas for every REST request and response, published by flask-smorest in
/api/openapi.json. They check shape and types only; whether a move is legal, and which games,
variants and options exist, is the game's question (its `Rules`, in the service). Unknown
fields are refused (422) so a typo never silently does nothing.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from server.web.catalog_schemas import (  # noqa: F401 - the catalog's, health's, invite's
    Catalog,
    CatalogGame,
    ColourSpec,
    FormatSpec,
    Health,
    Invite,
    Level,
    OptionSpec,
    PresetSpec,
    StatSpec,
    VariantSpec,
)
from server.web.limits import check_name

SEAT = validate.Range(min=1, max=4)
SEQ = validate.Range(min=0, max=2**31)


class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE


# -- errors -------------------------------------------------------------------------------
class ErrorBody(ma.Schema):
    code = fields.String(required=True, metadata={"example": "edge_contact"})
    message = fields.String(required=True)
    details = fields.Dict(required=True)


class ErrorSchema(ma.Schema):
    """The one error shape of every 4xx (and the socket's error acknowledgements)."""

    error = fields.Nested(ErrorBody, required=True)


# -- requests -----------------------------------------------------------------------------
class SeatSpec(Strict):
    kind = fields.String(required=True, validate=validate.OneOf(["open", "local", "computer"]))
    name = fields.String(validate=[validate.Length(min=1, max=40), check_name], allow_none=True)
    level = fields.Integer(strict=True, validate=validate.Range(min=1, max=99),
                           metadata={"description": "a computer seat's level (default 1)"})

    @ma.validates_schema
    def _level_of_computer(self, data, **kwargs):
        if "level" in data and data["kind"] != "computer":
            raise ma.ValidationError("only a computer seat has a level", "level")


class ClockSpec(Strict):
    reserve_s = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                               metadata={"description": "each side's time in seconds; 0: no "
                                         "clock"})
    increment_s = fields.Integer(strict=True, validate=validate.Range(min=0),
                                 metadata={"description": "seconds added after each move "
                                           "(default: the variant's)"})


class CreateGame(Strict):
    game = fields.String(load_default="cornerclaim", validate=validate.Length(min=1, max=40),
                         metadata={"description": "a game of GET /api/catalog"})
    variant = fields.String(required=True, validate=validate.Length(min=1, max=40),
                            metadata={"description": "one of the game's variants",
                                      "example": "duo"})
    seats = fields.List(fields.Nested(SeatSpec), required=True,
                        validate=validate.Length(min=1, max=4),
                        metadata={"description": "one per seat, in seat order; how many the "
                                  "variant allows is in its catalog line"})
    options = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=40)),
                          load_default=dict,
                          metadata={"description": "the variant's options by name; "
                                    "defaults fill the rest"})
    clock = fields.Nested(ClockSpec, allow_none=True, metadata={
        "description": "sets the variant's reserve_s and increment_s options; null: no "
                       "clock (reserve_s 0); only for a variant with those options"})
    rounds = fields.Integer(strict=True, metadata={
        "description": "sets the variant's rounds option (Corner: 1 to 10); only for a "
                       "variant with that option"})
    setups = fields.List(fields.String(validate=validate.Length(max=200)),
                         validate=validate.Length(max=20), metadata={
        "description": "sets the variant's setups option (Corner: the first rounds' deals, "
                       "36 letters each); only for a variant with that option"})


class Claim(Strict):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=40), check_name])


class MoveRequest(Strict):
    seat = fields.Integer(required=True, strict=True, validate=SEAT)
    # 256: the longest jump chain on Corners' 16×16 board, written out in full
    move = fields.String(required=True, validate=validate.Length(min=1, max=256),
                         metadata={"example": "e9,d10,e10,f10,e11"})
    seq = fields.Integer(required=True, strict=True, validate=SEQ)


class ActionRequest(Strict):
    seat = fields.Integer(required=True, strict=True, validate=SEAT)
    action = fields.String(required=True, validate=validate.Length(min=1, max=40),
                           metadata={"description": "one of the game's catalog `actions`",
                                     "example": "offer_draw"})
    seq = fields.Integer(required=True, strict=True, validate=SEQ)


class UndoRequest(Strict):
    seat = fields.Integer(required=True, strict=True, validate=SEAT)
    seq = fields.Integer(required=True, strict=True, validate=SEQ)
    device_tokens = fields.List(fields.String(validate=validate.Length(max=128)),
                                validate=validate.Length(max=8), load_default=list,
                                metadata={"description": (
        "the other seat tokens this device holds for the game (a phone that created the "
        "game and claimed an open seat too): those seats are not asked to allow the "
        "takeback; a token that holds no seat is ignored")})


class UndoAnswer(Strict):
    seat = fields.Integer(required=True, strict=True, validate=SEAT)
    accept = fields.Boolean(required=True)


class SeatOnly(Strict):
    seat = fields.Integer(required=True, strict=True, validate=SEAT)


class ComputerSeat(Strict):
    level = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=99),
                           metadata={"description": "one of the game's computer levels"})


class LegalQuery(ma.Schema):
    """`seat`, and optionally the game's legal query (its catalog's `legal_query`, Corner
    Claim's `piece`); any other parameter is refused by the service."""

    class Meta:
        unknown = ma.INCLUDE

    seat = fields.Integer(required=True, validate=SEAT)
    seq = fields.Integer(validate=SEQ, metadata={
        "description": "the seq the phone shows: a host of several processes whose copy of "
                       "the game is at that seq answers without reading the database first"})
    piece = fields.String(validate=validate.Length(min=1, max=40),
                          metadata={"description": "Corner Claim's legal query: a piece name"})


class HintQuery(Strict):
    seat = fields.Integer(required=True, validate=SEAT)


class InviteQuery(Strict):
    game = fields.String(validate=validate.Length(min=1, max=64))


class SinceQuery(Strict):
    since = fields.Integer(load_default=0, validate=SEQ)


# -- responses ----------------------------------------------------------------------------
class Created(ma.Schema):
    id = fields.String(required=True)
    host_token = fields.String(required=True)
    tokens = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                         metadata={"description": "seat number -> token of each local seat"})


class ClaimResult(ma.Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True)


def EventBody(**kwargs) -> fields.Dict:  # noqa: N802 - reads like the other schemas
    """An engine event as a dict: `type`, `seq` and the type's own fields (seat, move,
    from_seq...). A Dict, not a Schema, so dumping keeps every field of every event type."""
    return fields.Dict(metadata={"description": "an engine event: {type, seq, ...}",
                                 "example": {"type": "cornerclaim_piece_placed", "seq": 2,
                                             "seat": 1, "move": "e9,d10,e10,f10,e11"}},
                       **kwargs)


class SeatState(ma.Schema):
    seat = fields.Integer()
    colour = fields.String()
    kind = fields.String()
    name = fields.String(allow_none=True)
    level = fields.Integer(allow_none=True)
    claimed = fields.Boolean()
    connected = fields.Boolean()
    away = fields.Boolean()
    left = fields.Boolean()
    score = fields.Integer(allow_none=True)
    can_move = fields.Boolean()
    out_of_moves = fields.Boolean(metadata={
        "description": "still at the table but no move left: the host skips its turns"})
    actions = fields.List(fields.String(), metadata={
        "description": "the game's actions this seat may take now (Corners: resign, "
                       "offer_draw, accept_draw, decline_draw)"})
    view = fields.Dict(metadata={"description": "the game's own facts of the seat (Corner "
                                 "Claim: pieces_left, open_corners)"})


class ResultTeam(ma.Schema):
    name = fields.String(metadata={"description": "the side's name (\"Yellow\")"})
    seats = fields.List(fields.Integer())


class Result(ma.Schema):
    winners = fields.List(fields.Integer())
    scores = fields.List(fields.Integer())
    results = fields.List(fields.String())
    points = fields.List(fields.Integer())
    reason = fields.String(metadata={"description": "why it ended: finished, resigned, "
                                     "everyone_left, …; closed or cancelled (the host "
                                     "ended it: nobody wins, results and points are empty)"})
    ending = fields.String(metadata={"description": "how it ended, in the game's words "
                                     "(\"Black filled White's home on move 41\")"})
    teams = fields.List(fields.Nested(ResultTeam), metadata={
        "description": "the sides of a team game, each sharing its result; empty otherwise"})


class LastMove(ma.Schema):
    seat = fields.Integer()
    move = fields.String()
    seq = fields.Integer()


class LastStep(ma.Schema):
    seq = fields.Integer()
    kind = fields.String(metadata={"description": "the step's kind, as a replay frame's"})
    seat = fields.Integer(allow_none=True)
    text = fields.String(metadata={"description": "the step in the game's words, its seat "
                                   "left out (\"declined the draw offer\"); empty for a move"})


class UndoState(ma.Schema):
    allowed = fields.Boolean(metadata={"description": "false: the game refuses every "
                                       "takeback now"})
    reason = fields.String(allow_none=True, metadata={
        "description": "why not, in the game's words (Corners: \"No takebacks in a rated "
                       "game played with a clock\")"})


class UndoRequestState(ma.Schema):
    seat = fields.Integer()
    seq = fields.Integer()
    waiting = fields.List(fields.Integer())
    accepted = fields.List(fields.Integer())
    expires_in = fields.Float()


class GameState(ma.Schema):
    id = fields.String()
    game = fields.String()
    variant = fields.String()
    options = fields.Dict()
    practice = fields.Boolean(metadata={"description": "a practice game: unrated, never on "
                                        "the ladder (the game's rules say)"})
    status = fields.String(metadata={"enum": ["open", "running", "finished"]})
    closed = fields.Boolean()
    seq = fields.Integer()
    to_move = fields.Integer(allow_none=True)
    board = fields.Dict(metadata={"description": "the game's own picture of the table (Corner "
                                  "Claim: size, and rows top row first of 0 or a seat "
                                  "number)"})
    seats = fields.List(fields.Nested(SeatState))
    result = fields.Nested(Result, allow_none=True)
    last_move = fields.Nested(LastMove, allow_none=True)
    last_step = fields.Nested(LastStep, allow_none=True)
    undo = fields.Nested(UndoState)
    undo_request = fields.Nested(UndoRequestState, allow_none=True)
    rematch_id = fields.String(allow_none=True)


class LobbySeat(ma.Schema):
    seat = fields.Integer()
    kind = fields.String()
    name = fields.String(allow_none=True)
    claimed = fields.Boolean()


class LobbyEntry(ma.Schema):
    id = fields.String()
    game = fields.String()
    variant = fields.String()
    options = fields.Dict()
    practice = fields.Boolean()
    status = fields.String()
    seq = fields.Integer()
    created_at = fields.Float()
    updated_at = fields.Float(metadata={"description": "when the game last changed (epoch "
                                        "seconds): its latest event or seat change"})
    rematch_of = fields.String(allow_none=True, metadata={
        "description": "the game this one is the rematch of"})
    seats = fields.List(fields.Nested(LobbySeat))
    open_seats = fields.List(fields.Integer())


class Lobby(ma.Schema):
    games = fields.List(fields.Nested(LobbyEntry))


class Legal(ma.Schema):
    seat = fields.Integer()
    seq = fields.Integer()
    moves = fields.List(fields.Dict(), metadata={
        "description": "each a move as the game lists it: at least `move` (its text); "
                       "Corner Claim adds `piece`",
        "example": [{"piece": "X", "move": "e9,d10,e10,f10,e11"}]})


class Hint(ma.Schema):
    seat = fields.Integer()
    seq = fields.Integer()
    move = fields.String(allow_none=True, metadata={"description": "the move text, or null"})


class AnalysedMove(ma.Schema):
    ply = fields.Integer(required=True, metadata={"description": "the move's number in the "
                                                  "log's moves, from 1"})
    seq = fields.Integer(required=True, metadata={"description": "the move's event"})
    seat = fields.Integer(required=True)
    move = fields.String(required=True, metadata={"description": "the move played"})
    best = fields.String(required=True, allow_none=True, metadata={
        "description": "the engine's move in that position, in the game's notation"})
    value_before = fields.Float(required=True, metadata={
        "description": "the position's value for the mover with the best move (the "
                       "analysis's unit)"})
    value_after = fields.Float(required=True, metadata={
        "description": "its value for the mover after the move played"})
    loss = fields.Float(required=True, metadata={"description": "what the move gave away, "
                                                 "0 or more"})
    label = fields.String(required=True, validate=validate.OneOf(
        ["book", "best", "good", "inaccuracy", "mistake", "blunder"]))


class Analysis(ma.Schema):
    game_id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(
        ["queued", "running", "done", "failed"]))
    progress = fields.Float(required=True, metadata={"description": "0 to 1"})
    unit = fields.String(required=True, allow_none=True, validate=validate.OneOf(
        ["win", "points"]), metadata={"description": "win: a win chance from 0 to 1 "
                                      "(Corner Claim, Corners); points: the expected score "
                                      "difference (Corner)"})
    level = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the level asked for (null: the game's own analysis)"})
    end_value = fields.Float(required=True, allow_none=True, metadata={
        "description": "how the game ended, from the first seat's side in the unit: 1, 0.5 "
                       "or 0 (win), the final score difference (points); whatever ended it"})
    plies = fields.List(fields.Nested(AnalysedMove), required=True, metadata={
        "description": "one entry per move of the log reviewed so far, in log order"})
    error = fields.String(metadata={"description": "why a failed analysis failed"})


STATE_AFTER = {"description": "the game's state after the command: the one its room is "
               "pushed with the command's event"}


class EventResult(ma.Schema):
    event = EventBody(required=True)
    state = fields.Nested(GameState, metadata=STATE_AFTER)


class UndoResult(ma.Schema):
    event = EventBody(allow_none=True)
    undo_request = fields.Nested(UndoRequestState, allow_none=True)
    state = fields.Nested(GameState, metadata=STATE_AFTER)


class Events(ma.Schema):
    game_id = fields.String()
    seq = fields.Integer()
    events = fields.List(EventBody())


class Rematch(ma.Schema):
    id = fields.String()
    created = fields.Boolean()
