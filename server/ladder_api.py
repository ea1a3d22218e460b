"""The ladder and replay API under /api: players, replays of the host's games, imports.

    GET  /api/players                    the ladder (sort, order, variant)
    GET  /api/players/{name}             one player's stats, rating history, recent games
    GET  /api/games/{id}/replay          the replay viewer's data (frames, series, result)
    GET  /api/games/{id}/board.svg       the board (final, or after move N) as SVG
    POST /api/replays                    import a .blksgf (or our JSON log) to view here
    GET  /api/replays/{id}               an imported replay's viewer data
    GET  /api/replays/{id}/board.svg     its board; replay.blksgf / replay.json: the record

Thin views: the numbers come from the `Ladder` projection (server.ladder) and the replay
cursor (replays.cursor), which take every fact from the engine. `init_ladder` builds the
projection from the games the service folded at start-up and listens for games finishing.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

import marshmallow as ma
from flask import Flask, Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import fields, validate

from engine.core import Game, log_to_json
from engine.cornerclaim.sgf import game_to_sgf, load_game
from engine.cornerclaim.variants import VARIANTS
from engine.errors import LogError
from replays.board_svg import board_svg
from replays.cursor import Replay

from . import ladder as L
from .errors import ApiError
from .schemas import ErrorSchema

blp = Blueprint("ladder", __name__, url_prefix="/api",
                description="The ladder (match points, ratings, stats) and replays")

MAX_IMPORT = 256 * 1024  # bytes: a Pentobi record is a few KB, with comments a few dozen
MAX_IMPORTS = 200  # imported replays kept on disk (oldest dropped)
IMPORT_ID = re.compile(r"i[0-9a-f]{15}")  # "i" + 15 hex digits of the record's SHA-256
SGF_TYPE = "application/x-blokus-sgf"


# -- schemas ------------------------------------------------------------------------------
class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE


class PlayersQuery(Strict):
    sort = fields.String(load_default="rating", validate=validate.OneOf(L.SORT_KEYS))
    order = fields.String(load_default=None, validate=validate.OneOf(["asc", "desc"]))
    variant = fields.String(load_default=L.ALL,
                            validate=validate.OneOf([L.ALL, *sorted(VARIANTS)]))


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
    all_placed = fields.Integer(required=True, metadata={"description": "games with all 21 "
                                                         "pieces placed (+15 or +20)"})
    single_last = fields.Integer(required=True, metadata={"description": "games ending on "
                                                          "the single square (+20)"})
    average_squares_left = fields.Float(allow_none=True, required=True)


class PlayerRow(StatsSchema):
    rank = fields.Integer(required=True)
    name = fields.String(required=True)
    rating = fields.Integer(required=True)
    peak_rating = fields.Integer(required=True)
    rated_games = fields.Integer(required=True)


class LadderSchema(ma.Schema):
    players = fields.List(fields.Nested(PlayerRow), required=True)
    sort = fields.String(required=True)
    order = fields.String(required=True)
    variant = fields.String(required=True)
    k_factor = fields.Float(required=True)
    start_rating = fields.Float(required=True)
    level_ratings = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)


class HistoryPoint(ma.Schema):
    game_id = fields.String(required=True)
    at = fields.Float(required=True)
    before = fields.Float(required=True)
    after = fields.Float(required=True)
    opponent = fields.String(required=True)
    result = fields.String(required=True)


class GameLine(ma.Schema):
    game_id = fields.String(required=True)
    at = fields.Float(required=True)
    variant = fields.String(required=True)
    seat = fields.Integer(required=True)
    colour = fields.String(required=True)
    score = fields.Integer(required=True)
    result = fields.String(required=True)
    points = fields.Integer(required=True)
    left = fields.Boolean(required=True)
    rating_change = fields.Float(allow_none=True, required=True)
    opponents = fields.List(fields.String(), required=True)


class PlayerSchema(StatsSchema):
    name = fields.String(required=True)
    rating = fields.Integer(required=True)
    rating_exact = fields.Float(required=True)
    peak_rating = fields.Integer(required=True)
    rated_games = fields.Integer(required=True)
    by_variant = fields.Dict(keys=fields.String(), values=fields.Nested(StatsSchema),
                             required=True)
    rating_history = fields.List(fields.Nested(HistoryPoint), required=True)
    recent_games = fields.List(fields.Nested(GameLine), required=True)


class ReplaySchema(ma.Schema):
    id = fields.String(required=True)
    source = fields.String(required=True, metadata={"description": "game or import"})
    variant = fields.String(required=True)
    size = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    colours = fields.List(fields.String(), required=True)
    seq = fields.Integer(required=True)
    over = fields.Boolean(required=True)
    show_takebacks = fields.Boolean(required=True)
    takebacks = fields.Integer(required=True)
    frames = fields.List(fields.Dict(), required=True, metadata={
        "description": "index, seq, kind (start/placed/left/takeback), seat, move, piece, "
                       "squares, taken_back, to_move, scores, squares_placed, pieces_left, "
                       "left, board (rows top to bottom, one digit per cell: 0 or the seat), "
                       "result"})
    series = fields.Dict(required=True)
    result = fields.Dict(allow_none=True, required=True)
    links = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class Imported(ma.Schema):
    id = fields.String(required=True)
    variant = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    moves = fields.Integer(required=True)
    url = fields.String(required=True)


def documented(*statuses: int):
    def wrap(fn):
        for status in statuses:
            fn = blp.alt_response(status, schema=ErrorSchema, description="error")(fn)
        return fn
    return wrap


# -- state kept by the app ------------------------------------------------------------------
class ReplayCache:
    """Viewer data of the latest few (game, seq, view) asked for: a running game's viewers
    poll, and one fold serves them all until the next move."""

    def __init__(self, size: int = 32) -> None:
        self._items: OrderedDict[tuple, dict] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: tuple, make) -> dict:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = make()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


class ImportShelf:
    """Imported records, one file each in `folder`, named by a hash of their content (the
    same file imported twice is one replay). A file is written only once it has loaded."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()

    def add(self, data: bytes) -> tuple[str, Game]:
        game = load_record(data)  # raises LogError: nothing is written
        rid = "i" + hashlib.sha256(data).hexdigest()[:15]
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.folder / f"{rid}.record"
            if not path.exists():
                tmp = path.with_suffix(".tmp")
                tmp.write_bytes(data)
                tmp.replace(path)
            self._trim()
        return rid, game

    def _trim(self) -> None:
        files = sorted(self.folder.glob("*.record"), key=lambda p: p.stat().st_mtime)
        for old in files[:-MAX_IMPORTS]:
            old.unlink(missing_ok=True)

    def game(self, rid: str) -> Game:
        if not IMPORT_ID.fullmatch(rid):  # only names add() makes: no path ever built
            raise ApiError("not_found", f"there is no imported replay {rid!r}", status=404)
        path = self.folder / f"{rid}.record"
        if not path.is_file():
            raise ApiError("not_found", f"there is no imported replay {rid!r}", status=404)
        return load_record(path.read_bytes())


def load_record(data: bytes) -> Game:
    """A .blksgf record, or our JSON log (it starts with '{'); LogError says what is wrong."""
    if not data.strip():
        raise LogError("the file is empty: send a .blksgf record as the request body")
    if data.lstrip()[:1] == b"{":
        return Game.from_json(data)
    return load_game(data)


def init_ladder(app: Flask, api, service) -> L.Ladder:
    """Register the blueprint, build the ladder from the folded games, follow games ending."""
    api.register_blueprint(blp)
    db_path = getattr(service.store, "path", None)
    ladder = L.Ladder(L.games_from_tables(service.tables(), db_path))

    def on_event(kind: str, table, payload: dict) -> None:
        if kind != "event" or not table.state.is_over or table.id in ladder:
            return
        at = L.finish_time(db_path, table.id, time.time())
        summary = L.summarise(table.id, at, table.game, list(table.seats))
        if summary is not None:
            ladder.add(summary)

    service.listeners.append(on_event)
    app.extensions["cornerclaim_ladder"] = ladder
    app.extensions["cornerclaim_imports"] = ImportShelf(Path(app.config["DATA_DIR"]) / "imports")
    app.extensions["cornerclaim_replays"] = ReplayCache()
    return ladder


def ladder() -> L.Ladder:
    return current_app.extensions["cornerclaim_ladder"]


def shelf() -> ImportShelf:
    return current_app.extensions["cornerclaim_imports"]


# -- players --------------------------------------------------------------------------------
@blp.route("/players")
class Players(MethodView):
    @blp.arguments(PlayersQuery(), location="query")
    @blp.response(200, LadderSchema)
    @documented(400, 422)
    def get(self, query):
        """The ladder: every named player, ranked by `sort` (rating by default)."""
        order = query["order"] or ("asc" if query["sort"] == "name" else "desc")
        rows = ladder().standings(sort=query["sort"], variant=query["variant"],
                                  descending=order == "desc")
        return {"players": rows, "sort": query["sort"], "order": order,
                "variant": query["variant"], "k_factor": L.K_FACTOR,
                "start_rating": L.START_RATING,
                "level_ratings": {str(k): v for k, v in L.LEVEL_RATINGS.items()}}


@blp.route("/players/<path:name>")
class PlayerView(MethodView):
    @blp.response(200, PlayerSchema)
    @documented(404)
    def get(self, name):
        """One player: stats overall and by variant, rating history, recent games."""
        player = ladder().player(name)
        if player is None:
            raise ApiError("not_found", f"there is no player {name!r} on this host",
                           status=404, name=name)
        return player


# -- replays of the host's games ------------------------------------------------------------
def _seat_names(table) -> list[str]:
    names = []
    for record, logged in zip(table.seats, table.state.players, strict=False):
        if record.kind == "computer" and not record.name:
            names.append(f"Computer L{record.level}")
        else:
            names.append(record.name or logged)
    return names


def _game_replay(game_id: str, takebacks: bool) -> tuple[Replay, dict]:
    table = current_app.extensions["cornerclaim"].table(game_id)
    with table.lock:
        key = (game_id, table.game.seq, takebacks)
        names = _seat_names(table)

        def make():
            replay = Replay(table.game, show_takebacks=takebacks)
            return {"replay": replay, "body": replay.to_dict()}

        cached = current_app.extensions["cornerclaim_replays"].get(key, make)
    body = {**cached["body"], "players": names}
    return cached["replay"], body


def _links(base: str) -> dict[str, str]:
    return {"blksgf": f"{base}/replay.blksgf", "json": f"{base}/replay.json",
            "board_svg": f"{base}/board.svg"}


@blp.route("/games/<game_id>/replay")
class GameReplay(MethodView):
    @blp.arguments(ReplayQuery(), location="query")
    @blp.response(200, ReplaySchema)
    @documented(404, 422)
    def get(self, query, game_id):
        """A game (running or finished) as a replay: frames with the board, whose turn and
        the scores at each point; takebacks hidden unless `takebacks=true`."""
        _, body = _game_replay(game_id, query["takebacks"])
        return {**body, "id": game_id, "source": "game",
                "links": _links(f"/api/games/{game_id}")}


def _svg_response(replay: Replay, move: int | None, name: str,
                  names: list[str] | None = None) -> Response:
    if move is not None and move >= len(replay):
        raise ApiError("bad_request", f"there is no move {move} (0 to {len(replay) - 1})",
                       status=400)
    frame = replay.final if move is None else replay.frames[move]
    names = names or list(replay.players)
    text = board_svg(frame.state, names=names, title=f"Corner Claim {replay.variant}: "
                     + ", ".join(names) + f" — move {frame.index}")
    return Response(text, mimetype="image/svg+xml", headers={
        "Content-Disposition": f'inline; filename="{name}.svg"'})


@blp.route("/games/<game_id>/board.svg")
class GameBoardSvg(MethodView):
    @blp.arguments(BoardQuery(), location="query")
    @blp.response(200, content_type="image/svg+xml", description="the board as SVG")
    @documented(400, 404, 422)
    def get(self, query, game_id):
        """The board as an SVG image: the final (latest) board, or after move `move`."""
        replay, body = _game_replay(game_id, False)
        return _svg_response(replay, query["move"], f"cornerclaim-{game_id}", body["players"])


# -- imported replays -----------------------------------------------------------------------
SGF_BODY = {"required": True, "content": {
    SGF_TYPE: {"schema": {"type": "string"}},
    "text/plain": {"schema": {"type": "string"}},
    "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}


@blp.route("/replays")
class Replays(MethodView):
    @blp.doc(requestBody=SGF_BODY)
    @blp.response(201, Imported)
    @documented(400, 413, 429)
    def post(self):
        """Import a game record to view on this host: the file itself as the body (Pentobi
        .blksgf, or our JSON log). A malformed file is refused (400, with where and why)
        and nothing is stored."""
        request.max_content_length = MAX_IMPORT
        data = request.get_data(cache=False)
        try:
            rid, game = shelf().add(data)
        except LogError as e:
            raise ApiError(e.code, e.message, status=400) from None
        state = game.state
        return {"id": rid, "variant": state.variant.name, "players": list(state.players),
                "moves": len(state.placements), "url": f"/replay.html?import={rid}"}


@blp.route("/replays/<replay_id>")
class ImportedReplay(MethodView):
    @blp.arguments(ReplayQuery(), location="query")
    @blp.response(200, ReplaySchema)
    @documented(404, 422)
    def get(self, query, replay_id):
        """An imported record as a replay (the same data as a game's replay)."""
        replay = Replay(shelf().game(replay_id), show_takebacks=query["takebacks"])
        return {**replay.to_dict(), "id": replay_id, "source": "import",
                "links": _links(f"/api/replays/{replay_id}")}


@blp.route("/replays/<replay_id>/board.svg")
class ImportedBoardSvg(MethodView):
    @blp.arguments(BoardQuery(), location="query")
    @blp.response(200, content_type="image/svg+xml", description="the board as SVG")
    @documented(400, 404, 422)
    def get(self, query, replay_id):
        """An imported record's board as SVG (final, or after move `move`)."""
        return _svg_response(Replay(shelf().game(replay_id)), query["move"], replay_id)


@blp.route("/replays/<replay_id>/replay.blksgf")
class ImportedSgf(MethodView):
    @blp.response(200, content_type=SGF_TYPE, description="Pentobi's SGF game record")
    @documented(404)
    def get(self, replay_id):
        """The imported game as a .blksgf record (as we write them)."""
        text = game_to_sgf(shelf().game(replay_id))
        return Response(text, mimetype=SGF_TYPE, headers=_attachment(replay_id, "blksgf"))


@blp.route("/replays/<replay_id>/replay.json")
class ImportedJson(MethodView):
    @blp.response(200, content_type="application/json", description="our JSON game log")
    @documented(404)
    def get(self, replay_id):
        """The imported game as our JSON event log."""
        text = log_to_json(shelf().game(replay_id).events)
        return Response(text, mimetype="application/json",
                        headers=_attachment(replay_id, "json"))


def _attachment(name: str, ext: str) -> dict[str, Any]:
    return {"Content-Disposition": f'attachment; filename="cornerclaim-{name}.{ext}"'}
