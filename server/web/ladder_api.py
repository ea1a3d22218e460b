"""The ladder and replay API under /api: players, replays of the host's games, imports,
for every game the host offers.

    GET  /api/players                    one game's ladder (game, variant, sort, order)
    GET  /api/players/{name}             one player: a section per game, recent games
    GET  /api/games/{id}/replay          the replay viewer's data (frames, series, result)
    GET  /api/games/{id}/board.svg       the board (final, or after move N) as SVG
    POST /api/replays                    import a record (any game's JSON log, or a game's
                                         own format: .blksgf, .cgn) to view here
    GET  /api/replays/{id}               an imported replay's viewer data
    GET  /api/replays/{id}/board.svg     its board; replay.json / replay.<ext>: the record

Thin views: the numbers come from the `Ladder` projection (server.ladder.standings) and the replay
cursor (replays.cursor), which take every fact from the game's rules (`engine.registry`).
The projection is built from the games the service folded at start-up and follows games
finishing (`server.host.Host.build` and `wire`).
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from pathlib import Path

from flask import Response, request
from flask.views import MethodView

import server.ladder.standings as L
from engine import registry
from engine.capabilities import Records, capability
from engine.core import Game
from engine.errors import LogError
from engine.events import log_to_json
from replays import read_record
from replays.board_svg import board_svg
from replays.cursor import Replay
from server.errors import ApiError
from server.host import current_host
from server.tables.views import seat_names
from server.web import attachment
from server.web.bounded import Blueprint
from server.web.ladder_schemas import (
    BoardQuery,
    Imported,
    LadderSchema,
    PlayerSchema,
    PlayersQuery,
    ReplayQuery,
    ReplaySchema,
    TonightSchema,
)
from server.web.limits import from_host_machine
from server.web.schemas import ErrorSchema

blp = Blueprint("ladder", __name__, url_prefix="/api",
                description="The ladder (match points, ratings, stats) and replays")

MAX_IMPORT = 256 * 1024  # bytes: a Pentobi record is a few KB, with comments a few dozen
MAX_IMPORTS = 200  # imported replays kept on disk (oldest dropped)
IMPORT_ID = re.compile(r"i[0-9a-f]{15}")  # "i" + 15 hex digits of the record's SHA-256
JSON_FORMAT = {"ext": "json", "mimetype": "application/json", "label": "JSON event log"}


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
        game = read_record(data)  # raises LogError: nothing is written
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
        # A file kept from before a rule or a limit changed may no longer load: a clear 422,
        # read in bounded time (never more than an import may send).
        if path.stat().st_size > MAX_IMPORT:
            raise ApiError("bad_record", f"the imported replay {rid} is over the import "
                           f"limit ({MAX_IMPORT // 1024} KiB) and is not read", status=422)
        try:
            return read_record(path.read_bytes())
        except LogError as e:
            raise ApiError("bad_record", f"the imported replay {rid} no longer loads: "
                           f"{e.message}", status=422) from None


def init_ladder(api) -> None:
    """Register the blueprint (the ladder itself is made and subscribed by the host's
    wiring, `server.host`)."""
    api.register_blueprint(blp)


def ladder() -> L.Ladder:
    return current_host().ladder


def shelf() -> ImportShelf:
    return current_host().imports


# -- players --------------------------------------------------------------------------------
@blp.route("/players")
class Players(MethodView):
    @blp.arguments(PlayersQuery(), location="query")
    @blp.response(200, LadderSchema)
    @documented(400, 404, 422)
    def get(self, query):
        """One game's ladder (`game`, default cornerclaim; `variant`, default all): every
        named player who played it, ranked by `sort` (rating by default); 404
        no_such_variant for another game's variant."""
        game, variant = query["game"], query["variant"]
        rules = registry.get(game)
        if variant != L.ALL and variant not in rules.variants:  # another game's variant
            raise ApiError("no_such_variant", f"{rules.title} has no variant {variant!r}, so "
                           "no ladder of it", status=404, game=game,
                           variants=[L.ALL, *rules.variants])
        order = query["order"] or ("asc" if query["sort"] == "name" else "desc")
        rows = ladder().standings(game=game, variant=variant, sort=query["sort"],
                                  descending=order == "desc")
        return {"game": game, "title": rules.title, "variant": variant,
                "variants": list(rules.variants), "rated_variants": L.rated_variants(game),
                "stats": [s.to_dict() for s in rules.stats],
                "players": rows, "sort": query["sort"], "order": order,
                "k_factor": L.K_FACTOR, "start_rating": L.START_RATING,
                "level_ratings": {str(k): v for k, v in L.level_ratings(game).items()}}


@blp.route("/players/<path:name>")
class PlayerView(MethodView):
    @blp.response(200, PlayerSchema)
    @documented(404)
    def get(self, name):
        """One player: totals over every game, a section per game played (stats overall and
        by variant, ratings, rating history), recent games."""
        player = ladder().player(name)
        if player is None:
            raise ApiError("not_found", f"there is no player {name!r} on this host",
                           status=404, name=name)
        return player


# -- tonight's standings --------------------------------------------------------------------
@blp.route("/tonight")
class TonightView(MethodView):
    @blp.response(200, TonightSchema)
    def get(self):
        """Tonight's standings: match points of the games finished since the evening began
        (the host's start, or its latest new evening), per player, per game and in total,
        most points first. Practice games and solo races do not count."""
        return current_host().tonight.body()

    @blp.response(200, TonightSchema)
    @documented(403, 429)
    def post(self):
        """Begin a new evening: the standings start again from now. Only the host PC may
        (a page opened on the machine the host runs on, such as its table view); 403
        otherwise. Answers the new evening's (empty) standings."""
        if not from_host_machine(request.remote_addr):
            raise ApiError("forbidden", "only the host PC can begin a new evening: open the "
                           "table view (/tv) on the machine the host runs on", status=403)
        return current_host().tonight.begin()


# -- replays of the host's games ------------------------------------------------------------


def _game_replay(game_id: str, takebacks: bool) -> tuple[Replay, dict]:
    table = current_host().service.table(game_id)
    with table.lock:
        key = (game_id, table.game.seq, takebacks)

        def make():
            replay = Replay(table.game, show_takebacks=takebacks)
            return {"replay": replay, "body": replay.to_dict()}

        cached = current_host().replays.get(key, make)
        names = list(seat_names(table))
    body = {**cached["body"], "players": names}
    return cached["replay"], body


def formats_of(rules) -> list[dict[str, str]]:
    """The record formats a game's replays download as: our JSON log, then its own."""
    return [dict(JSON_FORMAT), *(f.to_dict() for f in rules.formats.values())]


def _links(base: str, rules) -> dict[str, str]:
    links = {f["ext"]: f"{base}/replay.{f['ext']}" for f in formats_of(rules)}
    links["board_svg"] = f"{base}/board.svg"
    return links


def _viewer(body: dict, replay: Replay, rid: str, source: str, base: str) -> dict:
    return {**body, "id": rid, "source": source, "formats": formats_of(replay.rules),
            "links": _links(base, replay.rules)}


@blp.route("/games/<game_id>/replay")
class GameReplay(MethodView):
    @blp.arguments(ReplayQuery(), location="query")
    @blp.response(200, ReplaySchema)
    @documented(404, 422)
    def get(self, query, game_id):
        """A game (running or finished) as a replay: frames with the board, whose turn and
        the scores at each point; takebacks hidden unless `takebacks=true`; `analysis`,
        where the computer's review of it stands (none: GET .../analysis would be 404)."""
        replay, body = _game_replay(game_id, query["takebacks"])
        return {**_viewer(body, replay, game_id, "game", f"/api/games/{game_id}"),
                "analysis": _analysis_status(game_id) if body["over"] else "none"}


def _analysis_status(game_id: str) -> str:
    """Where the game's computer review stands: none (nobody asked for one), queued,
    running, done or failed. The viewer asks for the review only when there is one."""
    analyses = current_host().analyses
    if analyses is None:
        return "none"
    try:
        return analyses.get(game_id)["status"]
    except ApiError as e:
        if e.code != "no_analysis":
            raise
        return "none"


def _svg_response(replay: Replay, move: int | None, name: str,
                  names: list[str] | None = None) -> Response:
    if move is not None and move >= len(replay):
        raise ApiError("bad_request", f"there is no move {move} (0 to {len(replay) - 1})",
                       status=400)
    frame = replay.final if move is None else replay.frames[move]
    names = names or list(replay.players)
    text = board_svg(replay.rules, frame.state, names=names,
                     title=f"{replay.rules.title} {replay.variant}: " + ", ".join(names)
                     + f" — move {frame.index}")
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
        return _svg_response(replay, query["move"], f"{replay.game_id}-{game_id}",
                             body["players"])


# -- imported replays -----------------------------------------------------------------------
RECORD_BODY = {"required": True, "content": {
    "application/x-blokus-sgf": {"schema": {"type": "string"}},
    "application/json": {"schema": {"type": "string"}},
    "text/plain": {"schema": {"type": "string"}},
    "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}


@blp.route("/replays")
class Replays(MethodView):
    @blp.doc(requestBody=RECORD_BODY)
    @blp.response(201, Imported)
    @documented(400, 413, 429)
    def post(self):
        """Import a game record to view on this host: the file itself as the body (any
        game's JSON log, or a game's own format such as Pentobi's .blksgf or Corners' .cgn).
        A malformed file is refused (400, with where and why) and nothing is stored."""
        request.max_content_length = MAX_IMPORT
        data = request.get_data(cache=False)
        try:
            rid, game = shelf().add(data)
        except LogError as e:
            raise ApiError(e.code, e.message, status=400) from None
        replay = Replay(game)
        return {"id": rid, "game": replay.game_id, "variant": replay.variant,
                "players": list(replay.players), "moves": replay.moves(),
                "url": f"/replay.html?import={rid}"}


@blp.route("/replays/<replay_id>")
class ImportedReplay(MethodView):
    @blp.arguments(ReplayQuery(), location="query")
    @blp.response(200, ReplaySchema)
    @documented(404, 422)
    def get(self, query, replay_id):
        """An imported record as a replay (the same data as a game's replay)."""
        replay = Replay(shelf().game(replay_id), show_takebacks=query["takebacks"])
        return _viewer(replay.to_dict(), replay, replay_id, "import",
                       f"/api/replays/{replay_id}")


@blp.route("/replays/<replay_id>/board.svg")
class ImportedBoardSvg(MethodView):
    @blp.arguments(BoardQuery(), location="query")
    @blp.response(200, content_type="image/svg+xml", description="the board as SVG")
    @documented(400, 404, 422)
    def get(self, query, replay_id):
        """An imported record's board as SVG (final, or after move `move`)."""
        return _svg_response(Replay(shelf().game(replay_id)), query["move"], replay_id)


@blp.route("/replays/<replay_id>/replay.<ext>")
class ImportedRecord(MethodView):
    @blp.response(200, content_type="application/octet-stream",
                  description="the record: our JSON log (replay.json) or a format of the "
                              "game's own (Corner Claim: replay.blksgf; Corners: "
                              "replay.cgn)")
    @documented(404, 422)
    def get(self, replay_id, ext):
        """The imported game as a record: `json` (our event log) or one of its game's
        formats (the replay's `formats`)."""
        game = shelf().game(replay_id)
        rules = game.rules
        records = capability(rules, Records)
        if ext == "json":
            text, mimetype = log_to_json(game.events), JSON_FORMAT["mimetype"]
        elif ext in rules.formats and records is not None:
            text, mimetype = records.export(game, ext), rules.formats[ext].mimetype
        else:
            offered = ", ".join(f["ext"] for f in formats_of(rules))
            raise ApiError("not_found", f"{rules.title} records download as {offered}, "
                           f"not {ext}", status=404)
        return Response(text, mimetype=mimetype,
                        headers=attachment(f"{rules.game}-{replay_id}", ext, download=True))


