"""The app factory: `create_app(config)` builds one host (Flask app, its own SocketIO, and a
`server.host.Host`: the event store, the service, the ladder, the bot runner, the cluster),
kept on the app and reached through `host_of(app)`. Nothing is global, so tests run many
hosts side by side, each on its own data dir.

Config keys (all optional except DATA_DIR):
    DATA_DIR           folder of the SQLite event store (and of the host's other files)
    STORE              a `postgresql://` URL: the games live in that PostgreSQL database,
                       which several host processes may share (no data dir lock then);
                       default None: SQLite in DATA_DIR
    BOT_DELAY          seconds a computer waits before thinking (0.8; 0 in tests)
    BOT_WORKERS        bot processes (every core but one)
    AWAY_GRACE         seconds a seat is away before it may be declared left (120)
    UNDO_TIMEOUT       seconds a takeback request waits for answers (30)
    MAX_CONTENT_LENGTH request body limit in bytes (16 KiB)
    CLIENT_DIR         the phone UI folder served at / (the copy a built wheel carries in
                       cornerclaim/client_web/, else client_web/ of the repo); a game's
                       board module is served at /boards/<game>.js
    START_BOTS         start the bot runner (True)
    BOT_WARM_UP        bot workers compile the search before their first job, and start
                       with the bot runner (True; `server.bots.worker.start_worker`)
    PUBLIC_URL         the URL phones should open (set by `serve`; else the request's host)
    WRITE_RATE         writes per second per client, REST and socket (20; None: no limit)
    WRITE_BURST        writes a client may make at once before WRITE_RATE applies (40)
    MAX_GAMES          unfinished games one host holds at most (300)
    MESSAGE_QUEUE      a `redis://` URL: this process is one of several forming one host
                       (with a shared STORE): Flask-SocketIO's message queue carries every
                       push to every process's sockets, presence and once-only work live in
                       that Redis (server.realtime.shared); default None: one process
    HEARTBEAT          seconds between a process's heartbeats and scans for due work (3)
    PRESENCE_TTL       seconds after which a socket nobody vouched for is gone (10)
    BOT_LOCK_TTL       seconds one process holds a computer's move before another may
                       take it up (60)
    ANALYSIS_LEVEL     the computer level finished games are analysed at (None: each
                       game's own analysis, its strongest search)
    ANALYSIS_AUTO      analyse a game against the computer when it ends, if no computer
                       move is waiting (True)
    LOCK_DATA_DIR      hold the data dir's lock (True; tests that open two apps on one
                       folder in one process turn it off)
    ASYNC_MODE         Flask-SocketIO's async mode: "threading" (default; Werkzeug's server,
                       used by in-process tests) or "gevent" (what `cornerclaim serve` runs,
                       in a monkey-patched process; see docs/architecture.md)

A host holds an exclusive lock on its data dir (server.web.limits.DataDirLock) from create_app
to shutdown_app: a second host on the same folder gets DataDirLocked with a clear message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, current_app, json, request, send_file, send_from_directory
from flask_compress import Compress
from flask_smorest import Api
from flask_socketio import SocketIO
from werkzeug.exceptions import HTTPException
from werkzeug.routing import PathConverter

import server.web.schemas as S
from engine import registry
from engine.errors import EngineError
from server.bots.pool import BotPool
from server.bots.worker import hint_in_worker
from server.errors import ApiError, error_body, from_store
from server.host import KEY as HOST_KEY
from server.host import Host, host_of, wire
from server.realtime.guard import guard
from server.realtime.lobby import init_lobby
from server.realtime.sockets import JsonPacket, init_realtime, resync_rooms
from server.store import StoreError, is_database_url, open_store
from server.tables.service import GameService
from server.web.api import blp
from server.web.bounded import BoundedJSONProvider
from server.web.ladder_api import ImportShelf, ReplayCache, init_ladder
from server.web.limits import DataDirLock, RateLimiter
from server.web.openapi import published

REPO = Path(__file__).resolve().parent.parent
# The phone UI: an installed wheel's copy (setup.py puts it there), else a checkout's folder.
CLIENT_DIR = next((d for d in (REPO / "cornerclaim" / "client_web", REPO / "client_web")
                   if (d / "index.html").is_file()), REPO / "client_web")
HINT_TIMEOUT = 60.0  # seconds a hint may take in a bot worker (Corner Claim's: ~0.3 s)
SOCKET_IO_JS = "node_modules/socket.io-client/dist/socket.io.min.js"
NOSLEEP_JS = "node_modules/nosleep.js/dist/NoSleep.min.js"  # keeps a phone's screen on (js/wake.js)
#: What the host sends compressed: the phone UI's files (the static routes' endpoints) and the
#: catalog, the one large answer of a page's first load. Other API answers are not: they are
#: small or frequent, and the host's CPU is what runs out first (docs/performance.md).
COMPRESSED_ENDPOINTS = frozenset({"index", "tv", "socket_io_js", "nosleep_js", "board_module",
                                  "client_file"})
COMPRESSED_PATHS = frozenset({"/api/catalog"})

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 413: "too_large", 415: "bad_request",
              422: "invalid_request", 429: "too_many_requests"}

DEFAULTS: dict[str, Any] = {
    "BOT_DELAY": 0.8, "BOT_WORKERS": None, "AWAY_GRACE": 120.0, "UNDO_TIMEOUT": 30.0,
    "MAX_CONTENT_LENGTH": 16 * 1024, "CLIENT_DIR": str(CLIENT_DIR), "START_BOTS": True,
    "BOT_WARM_UP": True, "WRITE_RATE": 20.0, "WRITE_BURST": 40, "MAX_GAMES": 300,
    "ASYNC_MODE": "threading", "MESSAGE_QUEUE": None, "HEARTBEAT": 3.0, "PRESENCE_TTL": 10.0,
    "BOT_LOCK_TTL": 60.0, "ANALYSIS_LEVEL": None, "ANALYSIS_AUTO": True,
    # flask-compress: called for the phone UI's files only (`_compress_first_load`)
    "COMPRESS_REGISTER": False,
    "API_TITLE": "Corner Claim host", "API_VERSION": "1", "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/api", "OPENAPI_JSON_PATH": "openapi.json",
    "API_SPEC_OPTIONS": {"components": {"securitySchemes": {
        "bearer": {"type": "http", "scheme": "bearer"}}}},
}

UP_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Corner Claim host</title></head><body>
<h1>Corner Claim</h1><p>The host is up. The phone UI is not installed yet;
the API is at <a href="/api/openapi.json">/api/openapi.json</a>.</p></body></html>
"""


class HostApi(Api):
    """flask-smorest's Api with the host's error shape for every HTTP error."""

    ERROR_SCHEMA = S.ErrorSchema

    def handle_http_exception(self, error: HTTPException):
        code = error.code or 500
        name = HTTP_CODES.get(code, "internal" if code >= 500 else "bad_request")
        data = getattr(error, "data", None) or {}
        messages = data.get("messages") or data.get("errors") or {}
        details: dict[str, Any] = {}
        message = error.description or error.name
        if messages:
            details["errors"] = messages
            if code == 400 and "json" in messages:
                name, message = "bad_json", "the request body is not valid JSON"
                if data.get("limit"):  # a bound of engine.boundedjson: say which
                    message = f"{message}: {messages['json'][0]}"
                    details.update(limit=data["limit"], max=data["bound"])
            elif code == 422:
                message = "the request is not valid: " + _first(messages)
        # the exception's own headers: a 405's Allow (RFC 9110), not its HTML Content-Type
        headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
        return error_body(name, message, details), code, headers

    def _openapi_json(self):
        """The document with the limits that depend on the registered games written in
        (server.web.openapi)."""
        return current_app.response_class(
            json.dumps(published(self.spec.to_dict()), indent=2, sort_keys=False,
                       ensure_ascii=False),
            mimetype="application/json")


def _first(messages: Any) -> str:
    """The first leaf of marshmallow's nested messages, as `field: text`."""
    path = []
    while isinstance(messages, dict) and messages:
        key, messages = next(iter(messages.items()))
        path.append(str(key))
    if isinstance(messages, list) and messages:
        messages = messages[0]
    return f"{'.'.join(p for p in path if p not in ('json', 'query'))}: {messages}"


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build a host. `config["DATA_DIR"]` is required; see the module doc for the rest."""
    app = Flask(__name__, static_folder=None)
    app.json = BoundedJSONProvider(app)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    if not app.config.get("DATA_DIR"):
        raise ValueError("create_app needs DATA_DIR")
    app.json.sort_keys = False

    lock = DataDirLock(app.config["DATA_DIR"])
    shared = is_database_url(app.config.get("STORE"))
    if app.config.get("STORE") and not shared:
        raise ValueError("STORE is a postgresql:// URL (SQLite is DATA_DIR's)")
    queue = app.config.get("MESSAGE_QUEUE")
    if queue and not shared:
        raise ValueError("MESSAGE_QUEUE joins processes sharing a postgresql:// STORE")
    if app.config.get("LOCK_DATA_DIR", True) and not shared:
        lock.acquire()
    cluster = None
    # hints are searches too: a bot worker computes them, never the web server's loop
    pool = BotPool(app.config["BOT_WORKERS"], warm=bool(app.config["BOT_WARM_UP"]))
    try:
        store = open_store(app.config["STORE"] if shared else app.config["DATA_DIR"])
        if queue:
            from server.realtime.shared import Cluster

            cluster = Cluster(queue, heartbeat=float(app.config["HEARTBEAT"]),
                              presence_ttl=float(app.config["PRESENCE_TTL"]))
        service = GameService(store, undo_timeout=float(app.config["UNDO_TIMEOUT"]),
                              away_grace=float(app.config["AWAY_GRACE"]),
                              max_games=int(app.config["MAX_GAMES"]), shared=shared,
                              presence=cluster and cluster.presence,
                              once=cluster and cluster.once,
                              others_alive=cluster and cluster.others_alive,
                              hinter=lambda game_id, game, seq, seat: pool.call_game(
                                  hint_in_worker, game_id, game, seq, seat,
                                  registry.modules(), timeout=HINT_TIMEOUT))
    except BaseException:
        pool.shutdown()
        lock.release()
        raise
    limiter = _write_limiter(app)

    api = HostApi(app)
    api.register_blueprint(blp)
    init_ladder(api)  # /api/players, /api/tonight, replays

    @app.errorhandler(ApiError)
    def api_error(e: ApiError):
        headers = {}
        if e.status == 429:
            headers["Retry-After"] = str(max(1, round(e.details.get("retry_after", 1))))
        return e.body(), e.status, headers

    @app.errorhandler(StoreError)
    def store_error(e: StoreError):
        return api_error(from_store(e))

    @app.before_request
    def limit_writes():
        if limiter is not None and request.method not in ("GET", "HEAD", "OPTIONS") \
                and request.path.startswith("/api/"):
            limiter.check(f"ip:{request.remote_addr}")

    # async_handlers=False: a socket's events run on the thread that reads that socket (one
    # at a time, in order) instead of a new thread per event; every handler is short.
    queue_options = {}
    if cluster is not None:  # pushes reach every process's sockets, each game's in seq order
        from server.realtime.ordered import OrderedRedisManager

        manager = OrderedRedisManager(queue, channel="cornerclaim")
        manager.on_resubscribed.append(lambda: resync_rooms(socketio, service))
        manager.on_remote_event.append(service.learn)
        manager.on_remote_presence.append(cluster.presence.changed)
        queue_options["client_manager"] = manager
    socketio = SocketIO(app, async_mode=app.config["ASYNC_MODE"], max_http_buffer_size=64 * 1024,
                        ping_interval=10, ping_timeout=10, async_handlers=False,
                        serializer=JsonPacket, **queue_options)
    guard(socketio.server)  # what a client may send, checked before python-socketio sees it
    rooms = init_realtime(socketio, service, limiter)
    _socket_io_rule(app, socketio)
    host = Host.build(store=store, service=service, pool=pool, cluster=cluster, lock=lock,
                      limiter=limiter,
                      imports=ImportShelf(Path(app.config["DATA_DIR"]) / "imports"),
                      replays=ReplayCache(), bot_delay=float(app.config["BOT_DELAY"]),
                      bot_lock_ttl=float(app.config["BOT_LOCK_TTL"]),
                      analysis_level=app.config["ANALYSIS_LEVEL"],
                      analysis_auto=bool(app.config["ANALYSIS_AUTO"]),
                      on_thinking=rooms.thinking,
                      on_analysis=lambda game_id, body: socketio.emit(
                          "analysis", body, to=game_id))
    lobby = init_lobby(socketio, service, host.tonight)  # the lobby and the table view
    wire(host, emitters=(rooms.news, lobby.news), on_tonight=(lobby.tonight,))
    service.park_finished()  # the ladder has read them: finished games fold again on demand
    app.extensions[HOST_KEY] = host
    host.start(bots=bool(app.config["START_BOTS"]))

    _static_routes(app, Path(app.config["CLIENT_DIR"]))
    _compress_first_load(app)
    return app


def shutdown_app(app: Flask) -> None:
    """Stop the bots and close the store (the web server is stopped by its owner)."""
    host_of(app).stop()


def _write_limiter(app: Flask) -> RateLimiter | None:
    rate = app.config.get("WRITE_RATE")
    if not rate:
        return None
    return RateLimiter(float(rate), float(app.config.get("WRITE_BURST") or rate))


class ClientPath(PathConverter):
    """A path of the phone UI: anything but /api/..., so unknown API paths stay 404/405."""

    regex = r"(?!api(?:/|$))[^/].*?"


def _socket_io_rule(app: Flask, socketio: SocketIO) -> None:
    """A websocket URL rule for the Socket.IO path, which is never dispatched to.

    Flask-SocketIO runs each event handler inside a request context made from the socket's
    handshake request. With no websocket rule for that path, Werkzeug's router raised
    WebsocketMismatch on every event and the context kept it with its traceback: a reference
    cycle of ~60 objects per move, about 6,600 objects a second at 100 tables, left to the
    cyclic collector, whose pauses were then the host's longest stalls (docs/performance.md).
    Flask-SocketIO's middleware answers the path before Flask routes anything."""
    path = socketio.server_options.get("path", "socket.io").strip("/")

    def never_dispatched():
        abort(404)

    app.add_url_rule(f"/{path}/", endpoint="socket_io_websocket", view_func=never_dispatched,
                     websocket=True)


def _compress_first_load(app: Flask) -> None:
    """Send the phone UI's files and the catalog compressed (flask-compress: zstd, brotli or
    gzip, whichever the browser takes; `Vary: Accept-Encoding` on every such answer, the
    file's ETag marked with the encoding, so a phone's next load is answered 304). Socket.IO's
    traffic never reaches Flask's answers (its middleware answers /socket.io/ itself), so it
    is left as it is."""
    compress = Compress(app)

    @app.after_request
    def compressed(response: Response) -> Response:
        if request.endpoint not in COMPRESSED_ENDPOINTS and request.path not in COMPRESSED_PATHS:
            return response
        if response.status_code == 206:  # a byte range of the file as it is on disk
            return response
        if response.direct_passthrough:
            # send_file's file stream: read whole (the files are small), so the answer is
            # compressed in one piece, with a Content-Length, and can be answered 304
            response.direct_passthrough = False
            response.make_sequence()
        return compress.after_request(response)


def _static_routes(app: Flask, client: Path) -> None:
    """The phone UI at / (or a plain "host is up" page) and the npm scripts it loads: the
    Socket.IO client and NoSleep.js."""

    @app.get("/")
    def index():
        if (client / "index.html").is_file():
            return send_from_directory(client, "index.html")
        return UP_PAGE, 200, {"Content-Type": "text/html; charset=utf-8"}

    @app.get("/tv")
    def tv():
        """The table view for the host's own screen (client_web/tv.html)."""
        if not (client / "tv.html").is_file():
            abort(404)
        return send_from_directory(client, "tv.html")

    @app.get("/vendor/socket.io.min.js")
    def socket_io_js():
        if not (client / SOCKET_IO_JS).is_file():
            abort(404, "the phone UI's socket.io client is not installed (npm install)")
        return send_from_directory(client, SOCKET_IO_JS, mimetype="text/javascript")

    @app.get("/vendor/nosleep.min.js")
    def nosleep_js():
        if not (client / NOSLEEP_JS).is_file():
            abort(404, "the phone UI's NoSleep.js is not installed (npm install)")
        return send_from_directory(client, NOSLEEP_JS, mimetype="text/javascript")

    @app.get("/manifest.webmanifest")
    def web_manifest():
        """The web app manifest, typed as one whatever the OS's MIME table knows."""
        return send_from_directory(client, "manifest.webmanifest",
                                   mimetype="application/manifest+json")

    @app.get("/boards/<game>.js")
    def board_module(game: str):
        """The game's client board module: a file under the client's js/boards/, or the
        file the game registered by its path."""
        try:
            board = registry.registration(game).board
        except EngineError as e:
            raise ApiError(e.code, e.message, status=404, **e.details) from None
        path = client / "js" / "boards" / board if isinstance(board, str) else Path(board)
        if not path.is_file():
            raise ApiError("not_found", f"the board module of {game} is not installed",
                           game=game)
        return send_file(path, mimetype="text/javascript")

    app.url_map.converters["client_path"] = ClientPath

    @app.get("/<client_path:path>")
    def client_file(path: str):
        if path.startswith("node_modules/") or not client.is_dir():
            abort(404)
        return send_from_directory(client, path)
