"""The REST API under /api: thin views over `GameService`, schemas from `server.web.schemas`.

A view parses (flask-smorest + marshmallow), reads the Bearer token, calls one service
method and returns its dict. Rules and checks live in the games' rules and the service only;
which games there are comes from `engine.registry` (`GET /api/catalog`).
"""

from __future__ import annotations

from pathlib import Path

import marshmallow as ma
from flask import Response, current_app, request
from flask.views import MethodView

import server.tables.views as views
import server.web.schemas as S
from engine import registry
from server import version
from server.errors import ApiError
from server.host import current_host
from server.realtime.sockets import pushed_state
from server.tables.service import DEFAULT_GAME, GIVEN_OPTIONS, UNSET, GameService
from server.web import attachment
from server.web.bounded import Blueprint

blp = Blueprint("games", __name__, url_prefix="/api",
                description="Games: the catalog, lobby, seats, moves, takebacks, replays")

AUTH = [{"bearer": []}]
ERRORS = (400, 401, 403, 404, 409, 413, 422, 429)


def service() -> GameService:
    return current_host().service


def bearer() -> str | None:
    """The token from `Authorization: Bearer <token>` (None without one)."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def fast_json(body: dict) -> Response:
    """`body` as JSON without the response schema's dump: for the hot reads (state, legal)
    whose service dicts are exactly what the schema would write (tests/test_api_fast.py
    checks that), marshmallow's per-field walk costs more than the rest of the request."""
    return current_app.json.response(body)


def with_state(game_id: str, answer: dict, status: int = 200) -> tuple[Response, int]:
    """A command's answer with the game's state now (`state`): the one its room was pushed
    with the command's event (built once for both), or, without an event, built now. Sent
    without the schema's dump, as `fast_json`."""
    svc = service()
    table = svc.table(game_id)
    with table.lock:
        answer["state"] = pushed_state(table, svc.presence) if answer.get("event") \
            else views.game_body(table, svc.presence)
    return fast_json(answer), status


def host_version() -> str:
    return version()


def documented_errors(fn):
    """Declare the shared error shape for the statuses a view can answer with."""
    for status in ERRORS:
        fn = blp.alt_response(status, schema=S.ErrorSchema, description="error")(fn)
    return fn


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, S.Health)
    def get(self):
        """Is the host up? Also the version, how many games it holds and the computer levels
        of its default game (Corner Claim; every game's are in /api/catalog)."""
        levels = registry.get(DEFAULT_GAME).levels
        return {"ok": True, "version": host_version(), "games": len(service().tables()),
                "levels": [lv.to_dict() for lv in levels.values()]}


def board_url(game: str) -> str:
    return f"/boards/{game}.js"


def client_part(path: str) -> str | None:
    """The URL of a module of the phone UI under js/ (a game's picture, its guide), or None
    when the phone UI has no such file (a game registered with a board module only)."""
    found = (Path(current_app.config["CLIENT_DIR"]) / "js" / path).is_file()
    return f"/js/{path}" if found else None


@blp.route("/catalog")
class CatalogView(MethodView):
    @blp.response(200, S.Catalog)
    def get(self):
        """Every game this host offers: its variants (seat counts, colours, options, rated),
        computer levels, record formats, ladder statistics, legal query, whether it gives
        hints, and the URLs of its client board module, its picture and its guide."""
        return {"games": [{**rules.catalog(), "board_url": board_url(rules.game),
                           "thumb_url": client_part(f"boards/{rules.game}/thumb.js"),
                           "howto_url": client_part(f"howto/{rules.game}.js")}
                          for rules in registry.games()]}


@blp.route("/invite")
class Invite(MethodView):
    @blp.arguments(S.InviteQuery(), location="query")
    @blp.response(200, S.Invite)
    @documented_errors
    def get(self, query):
        """The address phones should open (the LAN IP URL) and its QR code as SVG."""
        base = current_app.config.get("PUBLIC_URL") or request.host_url
        url = base.rstrip("/") + "/"
        if query.get("game"):
            url += f"#/game/{service().table(query['game']).id}"
        return {"url": url, "svg": qr_svg(url)}


def qr_svg(text: str) -> str:
    """A QR code of `text` as a standalone SVG document (segno; no XML declaration)."""
    import io

    import segno

    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="svg", xmldecl=False, scale=6, border=2,
                                     title="Corner Claim")
    return buffer.getvalue().decode("utf-8")


@blp.route("/games")
class Games(MethodView):
    @blp.response(200, S.Lobby)
    def get(self):
        """The lobby: every open, running and finished game."""
        return {"games": service().lobby()}

    @blp.arguments(S.CreateGame())
    @blp.response(201, S.Created)
    @documented_errors
    def post(self, body):
        """Create a game of `game` (default cornerclaim): its variant, one entry per seat and
        the variant's options (`clock` sets its clock options; null: no clock; `rounds` and
        `setups` set the options of those names); returns the
        host token and the tokens of its local seats."""
        given = {name: body[name] for name in GIVEN_OPTIONS if name in body}
        return service().create(body["variant"], body["seats"], game=body["game"],
                                options=body["options"], clock=body.get("clock", UNSET),
                                given=given)


@blp.route("/games/<game_id>")
class GameView(MethodView):
    @blp.response(200, S.GameState)
    @documented_errors
    def get(self, game_id):
        """The game's state: the same envelope for every game (board and each seat's view
        are the game's own)."""
        return fast_json(service().state(game_id))


@blp.route("/games/<game_id>/seats/<int:seat>")
class SeatView(MethodView):
    @blp.arguments(S.Claim())
    @blp.response(200, S.ClaimResult)
    @documented_errors
    def post(self, body, game_id, seat):
        """Claim an open seat with a display name; returns the seat's secret token."""
        return service().claim(game_id, seat, body["name"])

    @blp.response(200, S.GameState)
    @blp.doc(security=AUTH)
    @documented_errors
    def delete(self, game_id, seat):
        """Host only: turn a computer seat into an open seat for a person to claim."""
        return service().remove_computer(game_id, seat, bearer())


@blp.route("/games/<game_id>/seats/<int:seat>/computer")
class SeatComputer(MethodView):
    @blp.arguments(S.ComputerSeat())
    @blp.response(200, S.GameState)
    @blp.doc(security=AUTH)
    @documented_errors
    def post(self, body, game_id, seat):
        """Host only: a computer at `level` takes an open seat nobody has claimed (the
        opponent who never arrived); the game starts once no seat waits."""
        return service().seat_computer(game_id, seat, body["level"], bearer())


@blp.route("/games/<game_id>/seats/<int:seat>/left")
class DeclareLeft(MethodView):
    @blp.response(200, S.EventResult)
    @blp.doc(security=AUTH)
    @documented_errors
    def post(self, game_id, seat):
        """Host or another seated player: declare a seat left after its grace period away,
        or leave an open seat nobody claimed empty in a game of three or more (409
        never_claimed in a two-seat game: seat a computer there or close the game)."""
        return {"event": service().declare_left(game_id, seat, bearer())}


@blp.route("/games/<game_id>/legal")
class LegalView(MethodView):
    @blp.arguments(S.LegalQuery(), location="query", unknown=ma.INCLUDE)  # the game's query
    @blp.response(200, S.Legal)
    @documented_errors
    def get(self, query, game_id):
        """Every legal move of the seat now (none when it is not its turn), narrowed by the
        game's legal query if given (Corner Claim: `piece`)."""
        body = service().legal_json(game_id, query["seat"], legal_query(game_id, query),
                                    query.get("seq"))
        return Response(body, mimetype="application/json")


def legal_query(game_id: str, query: dict) -> str | None:
    """The value of the game's legal query parameter (None without one); 422 for any
    other parameter."""
    rules = service().table(game_id).rules
    name = rules.legal_query
    extra = {k: v for k, v in query.items() if k not in ("seat", "seq")}
    unknown = sorted(set(extra) - {name})
    if unknown:
        raise ApiError("invalid_request", f"the legal list of {rules.title} takes no "
                       f"parameter {unknown[0]!r}", legal_query=name)
    value = extra.get(name) if name else None
    if value is not None and (not isinstance(value, str) or not 1 <= len(value) <= 40):
        raise ApiError("invalid_request", f"{name} must be 1 to 40 characters")
    return value


@blp.route("/games/<game_id>/hint")
class HintView(MethodView):
    @blp.arguments(S.HintQuery(), location="query")
    @blp.response(200, S.Hint)
    @blp.doc(security=AUTH)
    @documented_errors
    def get(self, query, game_id):
        """The seat's token only, on its turn: the move the game suggests (computed by a bot
        worker; null if it has none)."""
        return service().hint(game_id, query["seat"], bearer())


@blp.route("/games/<game_id>/moves")
class Moves(MethodView):
    @blp.arguments(S.MoveRequest())
    @blp.response(201, S.EventResult)
    @blp.doc(security=AUTH)
    @documented_errors
    def post(self, body, game_id):
        """Place a piece: `move` is its cells, `seq` the last seq the client saw."""
        event = service().move(game_id, body["seat"], body["move"], body["seq"], bearer())
        return with_state(game_id, {"event": event}, 201)


@blp.route("/games/<game_id>/actions")
class Actions(MethodView):
    @blp.arguments(S.ActionRequest())
    @blp.response(201, S.EventResult)
    @blp.doc(security=AUTH)
    @documented_errors
    def post(self, body, game_id):
        """One of the game's own actions (its catalog's `actions`; Corners: resign,
        offer_draw, accept_draw, decline_draw); `seq` the last seq the client saw."""
        event = service().act(game_id, body["seat"], body["action"], body["seq"], bearer())
        return with_state(game_id, {"event": event}, 201)


@blp.route("/games/<game_id>/undo")
class Undo(MethodView):
    @blp.arguments(S.UndoRequest())
    @blp.response(200, S.UndoResult)
    @blp.doc(security=AUTH)
    @documented_errors
    def post(self, body, game_id):
        """Take back the seat's latest placement, or ask the other players to allow it."""
        return with_state(game_id, service().undo(game_id, body["seat"], body["seq"], bearer(),
                                                  device_tokens=body["device_tokens"]))


@blp.route("/games/<game_id>/undo/answer")
class UndoAnswer(MethodView):
    @blp.arguments(S.UndoAnswer())
    @blp.response(200, S.UndoResult)
    @blp.doc(security=AUTH)
    @documented_errors
    def post(self, body, game_id):
        """Accept or decline the pending takeback request."""
        return with_state(game_id, service().undo_answer(game_id, body["seat"],
                                                         body["accept"], bearer()))


@blp.route("/games/<game_id>/leave")
class Leave(MethodView):
    @blp.arguments(S.SeatOnly())
    @blp.response(200, S.EventResult)
    @blp.doc(security=AUTH)
    @documented_errors
    def post(self, body, game_id):
        """Leave the table (in a two-seat game: resign)."""
        return with_state(game_id, {"event": service().leave(game_id, body["seat"], bearer())})


@blp.route("/games/<game_id>/close")
class Close(MethodView):
    @blp.response(200, S.GameState)
    @blp.doc(security=AUTH)
    @documented_errors
    def post(self, game_id):
        """Host only: close the game. A game not over is abandoned: nobody wins, nothing
        counts, the scores as they stood (result reason `closed`; `cancelled` while it still
        waited for players). A finished game is left as it is."""
        return service().close(game_id, bearer())


@blp.route("/games/<game_id>/rematch")
class RematchView(MethodView):
    @blp.response(200, S.Rematch)
    @blp.doc(security=AUTH)
    @documented_errors
    def post(self, game_id):
        """A finished game's rematch at the same seats: one id however many ask."""
        return service().rematch(game_id, bearer())


@blp.route("/games/<game_id>/events")
class EventsView(MethodView):
    @blp.arguments(S.SinceQuery(), location="query")
    @blp.response(200, S.Events)
    @documented_errors
    def get(self, query, game_id):
        """The log after seq `since` (0: everything)."""
        events = service().events_since(game_id, query["since"])
        return {"game_id": game_id, "seq": service().state(game_id)["seq"], "events": events}


@blp.route("/games/<game_id>/analysis")
class AnalysisView(MethodView):
    @blp.response(200, S.Analysis)
    @documented_errors
    def get(self, game_id):
        """The computer's review of a finished game as it stands: its status, progress and
        one entry per move reviewed, in log order (404 no_analysis if nobody asked for
        one). A socket in the game's room hears `analysis` with the same body as it goes."""
        return current_host().analyses.get(game_id)

    @blp.response(202, S.Analysis)
    @documented_errors
    def post(self, game_id):
        """Have the computer review a finished game, each move next to its best move there
        (409 game_in_play while the game is played). A done analysis is given as it is,
        never computed again."""
        return current_host().analyses.request(game_id)


@blp.route("/games/<game_id>/replay.json")
class ReplayJson(MethodView):
    @blp.response(200, content_type="application/json",
                  description="the engine's JSON game log (format cornerclaim-log)")
    @documented_errors
    def get(self, game_id):
        """The whole event log, loadable by `engine.core.Game.from_json`: every game has
        one."""
        text, game = service().log_json(game_id), service().table(game_id).record.game
        return Response(text, mimetype="application/json",
                        headers=attachment(f"{game}-{game_id}", "json"))


@blp.route("/games/<game_id>/replay.<fmt>")
class ReplayFormat(MethodView):
    @blp.response(200, content_type="text/plain",
                  description="the record in one of the game's own formats (its catalog's "
                              "`formats`: Corner Claim's `blksgf`, Pentobi's SGF; "
                              "Corners' `cgn`, its text record)")
    @documented_errors
    def get(self, game_id, fmt):
        """The game written in a format of its own; 404 no_such_format for a format the game
        does not have."""
        game, text, mimetype = service().export(game_id, fmt)
        return Response(text, mimetype=mimetype, headers=attachment(f"{game}-{game_id}", fmt))


