"""`cornerclaim serve`: start the LAN host, print its URL and a QR code of it.

The URL uses the PC's LAN IP address, not a `.local` name (Android does not resolve mDNS
names in the browser). The HTTP server is gevent's WSGI server with Flask-SocketIO in
`gevent` mode and simple-websocket: one event loop serves every phone, with HTTP/1.1
keep-alive and real WebSockets. The process is monkey-patched before anything else is
imported, so the host's locks, timers and the bot pool's waits become cooperative. Werkzeug's
threaded server (`--server threading`) remains as a fallback; the reasons and the
measurements are in docs/architecture.md and docs/performance.md.

With `--certfile` and `--keyfile` the gevent server speaks https (and Socket.IO wss) instead:
a secure context on the phones, which installing the page as an app and the Wake Lock API
need (docs/deploy.md). The URL, the QR code and the mDNS announcement then say https.
"""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sqlite3
import sys

CLIENT_LIBRARIES = ("aiohttp", "requests", "websocket")


#: A log line: when, how grave, which logger (the module that wrote it), what.
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_LEVELS = ("debug", "info", "warning", "error")


def configure(parser: argparse.ArgumentParser) -> None:
    """Options only: importing the web stack waits until `run`."""
    parser.add_argument("--log-level", default="info", choices=LOG_LEVELS,
                        help="the least grave log lines printed (info)")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (0.0.0.0)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (8000)")
    parser.add_argument("--data-dir", default=None,
                        help="folder of the game store (default: the user's data folder)")
    parser.add_argument("--store", default=None, type=_database_url, metavar="URL",
                        help="keep the games in this PostgreSQL database (postgresql://…), "
                             "which several host processes may share (default: SQLite in "
                             "the data folder)")
    parser.add_argument("--message-queue", default=None, type=_redis_url, metavar="URL",
                        help="join the other host processes of the --store database through "
                             "this Redis (redis://host:port/db): every phone sees every "
                             "event, whichever process it reaches (docs/deploy.md)")
    parser.add_argument("--no-mdns", action="store_true", help="do not announce on the LAN")
    parser.add_argument("--mdns-interfaces", default=None, metavar="ADDRESSES",
                        help="announce only on these local addresses, comma-separated "
                             "(default: every interface)")
    parser.add_argument("--bot-delay", type=float, default=0.8,
                        help="seconds a computer seat waits before it moves (0.8)")
    parser.add_argument("--away-grace", type=float, default=120.0,
                        help="seconds before an away seat may be declared left (120)")
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    parser.add_argument("--behind-proxy", action="store_true",
                        help="phones reach this process through one reverse proxy (nginx): "
                             "take their address and the URL they opened from its "
                             "X-Forwarded-For, -Proto and -Host headers (docs/deploy.md)")
    parser.add_argument("--write-rate", type=float, default=20.0,
                        help="writes per second per phone before 429 (20; 0: no limit)")
    parser.add_argument("--server", choices=("gevent", "threading"), default="gevent",
                        help="HTTP server: gevent's event loop (default) or Werkzeug's "
                             "threaded server")
    parser.add_argument("--certfile", default=None, metavar="FILE",
                        help="serve https with this PEM certificate (chain), with --keyfile: "
                             "the phones must trust it (docs/deploy.md)")
    parser.add_argument("--keyfile", default=None, metavar="FILE",
                        help="the certificate's private key (PEM, not encrypted)")


def _database_url(text: str) -> str:
    if not text.startswith(("postgresql://", "postgres://")):
        raise argparse.ArgumentTypeError("a postgresql://user@host:port/dbname URL")
    return text


def _redis_url(text: str) -> str:
    if not text.startswith(("redis://", "rediss://", "unix://")):
        raise argparse.ArgumentTypeError("a redis://host:port/db URL")
    return text


#: An environment variable holding a JSON object of further `create_app` settings (the
#: tests' shorter heartbeats and lock times; see server/app.py for the keys).
CONFIG_ENV = "CORNERCLAIM_CONFIG"


def _env_config() -> dict:
    import json
    import os

    text = os.environ.get(CONFIG_ENV)
    return json.loads(text) if text else {}


def default_data_dir() -> str:
    import platformdirs

    return platformdirs.user_data_dir("cornerclaim", appauthor=False)


def lan_address() -> str:
    """This machine's address on the LAN: the source address of a route outwards.

    Connecting a UDP socket sends nothing; it only asks the OS which interface it would use.
    """
    for probe in ("192.168.0.1", "10.255.255.255", "8.8.8.8"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                address = s.getsockname()[0]
                if not address.startswith("0."):
                    return address
        except OSError:
            continue
    return "127.0.0.1"


def public_url(host: str, port: int, *, scheme: str = "http") -> str:
    address = lan_address() if host in ("0.0.0.0", "", "::") else host
    return f"{scheme}://{address}:{port}/"


class TlsError(Exception):
    """The certificate or key given for https cannot be used; the message says why."""


def _readable(what: str, path: str) -> None:
    try:
        with open(path, "rb"):
            pass
    except OSError as e:
        raise TlsError(f"the {what} file {path} cannot be read ({e.strerror})") from None


def tls_context(certfile: str | None, keyfile: str | None, *, server: str = "gevent"):
    """The `ssl.SSLContext` of a server (`--server`) for a PEM certificate (chain) and its
    key, or None for plain http (neither given). Raises TlsError for one without the other,
    for Werkzeug's threaded server, for a file that cannot be read and for a pair that does not
    load. Call it after gevent's monkey-patching: it imports `ssl`.

    Werkzeug's threaded server is refused because it does each TLS handshake on its one
    accepting thread: a phone that connects and stalls there stops every other phone."""
    if (certfile is None) != (keyfile is None):
        raise TlsError("--certfile and --keyfile go together: both for https, neither for http")
    if certfile is None:
        return None
    if server != "gevent":
        raise TlsError("https needs the gevent server: Werkzeug's threaded server does each "
                       "TLS handshake on its one accepting thread, where one stalled phone "
                       "stops all the others (leave out --server threading)")
    import ssl

    _readable("certificate", certfile)
    _readable("key", keyfile)

    def encrypted() -> str:
        raise TlsError(f"the key {keyfile} is encrypted: give the key without a passphrase")

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(certfile, keyfile, password=encrypted)
    except ssl.SSLError as e:
        if e.reason == "KEY_VALUES_MISMATCH":
            raise TlsError(f"the key {keyfile} is not the key of the certificate "
                           f"{certfile}") from None
        raise TlsError(f"{certfile} and {keyfile} do not load as a PEM certificate and its "
                       f"private key ({e.reason or e})") from None
    return context


def print_banner(url: str, data_dir: str, *, qr: bool) -> None:
    print(f"Corner Claim host is up: {url}", flush=True)
    print(f"Games are saved in {data_dir}", flush=True)
    if qr:
        import segno

        print("Scan to join:")
        segno.make(url, error="m").terminal(compact=True)
    print("Press Ctrl+C to stop.", flush=True)


def _interrupt(signum, frame) -> None:
    """SIGTERM stops the host like Ctrl+C: unregister mDNS, stop the bots, close the store."""
    raise KeyboardInterrupt


FULL_COLLECTION_EVERY = 100  # middle-generation collections (Python's default: 10)


def settle() -> None:
    """Before serving: let every game ready the host process, then freeze what start-up made.

    A game's `Rules.prepare_host` builds what its first game would otherwise build with the
    loop stopped and bounds the caches that would grow for as long as the host runs (the
    computer players warm up in the bot workers, not here). `gc.freeze()` moves the start-up
    objects (Flask, the schemas, the games' tables, the games folded from the store:
    ~80,000) out of the collector's reach, so a full collection scans only what play
    creates: 1–2 ms instead of ~45 ms with every phone waiting (docs/performance.md).
    """
    import gc

    from engine import registry
    from engine.capabilities import HostPreparation, capability

    for rules in registry.games():
        host = capability(rules, HostPreparation)
        if host is not None:
            host.prepare_host()
    gc.collect()
    gc.freeze()
    # A full collection walks every socket's greenlets and their suspended stacks: 40–60 ms
    # with the loop stopped at 400 sockets. By default one runs after every 10 collections
    # of the middle generation (every ~15 s at 100 tables); after every 100 it is ~10×
    # rarer. The cyclic garbage a host makes is small and dies young (docs/performance.md).
    threshold0, threshold1, _ = gc.get_threshold()
    gc.set_threshold(threshold0, threshold1, FULL_COLLECTION_EVERY)


def behind_proxy(app) -> None:
    """Trust one reverse proxy's X-Forwarded-For, -Proto and -Host (werkzeug's ProxyFix):
    the write limit counts each phone by its own address, not the proxy's, and the Invite
    screen shows the address the phones opened (the proxy's) instead of this process's.
    Only for a process the phones cannot reach but through the proxy (`--host 127.0.0.1`,
    or a firewall): anyone else could claim any address."""
    from werkzeug.middleware.proxy_fix import ProxyFix

    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    app.config["PUBLIC_URL"] = None  # the Invite's URL comes from the request


def _interfaces(args: argparse.Namespace) -> list[str] | None:
    text = getattr(args, "mdns_interfaces", None)
    return [a.strip() for a in text.split(",") if a.strip()] if text else None


def werkzeug_server(host: str, port: int, app):
    """Werkzeug's threaded server, its connections closed once their websocket ends: without
    that, Werkzeug read what the client still sent on it (its answer to a close, the rest of
    a frame refused as too long) as the connection's next HTTP request and logged an error."""
    from werkzeug.serving import WSGIRequestHandler, make_server

    class Handler(WSGIRequestHandler):
        def connection_dropped(self, error, environ=None) -> None:
            # simple-websocket ends a websocket by raising ConnectionError in Werkzeug
            self.close_connection = True
            super().connection_dropped(error, environ)

    return make_server(host, port, app, threaded=True, request_handler=Handler)


class _WerkzeugServer:
    """Werkzeug's threaded server: a thread per connection."""

    def __init__(self, host: str, port: int, app) -> None:
        self._server = werkzeug_server(host, port, app)
        self.port = self._server.port

    def serve_forever(self) -> None:
        self._server.serve_forever()  # returns on KeyboardInterrupt

    def close(self) -> None:
        self._server.server_close()


class _GeventServer:
    """gevent's WSGI server: every connection a greenlet on one event loop."""

    def __init__(self, host: str, port: int, app, *, tls=None) -> None:
        from gevent.pywsgi import WSGIServer

        # The handshake waits for the connection's first read, in its own greenlet, where a
        # failed one (a phone that does not trust the certificate, plain http to this port)
        # ends that connection quietly instead of printing a traceback.
        ssl_args = {"ssl_context": tls, "do_handshake_on_connect": False} if tls is not None else {}
        self._server = WSGIServer((host, port), app, log=None,
                                  error_log=logging.getLogger("gevent"), **ssl_args)
        self._server.init_socket()  # binds now, so a busy port is reported before the banner
        self.port = self._server.server_port

    def serve_forever(self) -> None:
        import gevent

        # SIGTERM is handled on the loop: the server stops and serve_forever returns.
        gevent.signal_handler(signal.SIGTERM, self._server.stop, 5)
        self._server.serve_forever()

    def close(self) -> None:
        self._server.stop(timeout=5)


def run(args: argparse.Namespace) -> int:
    mode = getattr(args, "server", "threading")
    if mode == "gevent":
        import gevent
        from gevent import monkey

        # gevent records each greenlet's spawning stack and parent by default (for
        # debugging): ~30 tracked objects per greenlet that the cyclic collector then walks
        # on every full collection. The host does not use the tree.
        gevent.config.track_greenlet_tree = False
        monkey.patch_all()  # before the web stack, the store or the bot pool are imported
    try:  # before the web stack is imported: a mistyped file name is told at once
        tls = tls_context(getattr(args, "certfile", None), getattr(args, "keyfile", None),
                          server=mode)
    except TlsError as e:
        print(f"cannot start: {e}", file=sys.stderr)
        return 2
    # The host is never a Socket.IO or HTTP client, but python-socketio imports its client
    # libraries whenever they are installed (a venv with the test extras): ~14 MB of RSS.
    for client_library in CLIENT_LIBRARIES:
        sys.modules.setdefault(client_library, None)  # an import of it raises ImportError

    from server.app import create_app, shutdown_app
    from server.host import Announcement, host_of
    from server.web.api import host_version

    logging.basicConfig(level=getattr(logging, args.log_level.upper(), logging.INFO),
                        format=LOG_FORMAT)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    from server.store import StoreError
    from server.web.limits import DataDirLocked

    data_dir = args.data_dir or default_data_dir()
    rate = getattr(args, "write_rate", 20.0)
    store = getattr(args, "store", None)
    queue = getattr(args, "message_queue", None)
    if queue and not store:
        print("cannot start: --message-queue joins processes that share a --store database",
              file=sys.stderr)
        return 2
    try:
        app = create_app({"DATA_DIR": data_dir, "BOT_DELAY": args.bot_delay,
                          "AWAY_GRACE": args.away_grace, "WRITE_RATE": rate or None,
                          "WRITE_BURST": max(40, 2 * rate), "ASYNC_MODE": mode,
                          "STORE": store, "MESSAGE_QUEUE": queue, **_env_config()})
    except DataDirLocked as e:
        print(f"cannot start: {e}", file=sys.stderr)
        return 3
    except StoreError as e:
        print(f"cannot start: {e}", file=sys.stderr)
        return 5
    except sqlite3.DatabaseError as e:
        print(f"cannot start: the game store in {data_dir} cannot be read ({e}); "
              "move it aside to start with an empty one", file=sys.stderr)
        return 4
    try:
        server = (_GeventServer(args.host, args.port, app, tls=tls) if mode == "gevent"
                  else _WerkzeugServer(args.host, args.port, app))
    except OSError as e:
        print(f"cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        shutdown_app(app)
        return 2
    settle()
    scheme = "https" if tls is not None else "http"
    url = public_url(args.host, server.port, scheme=scheme)
    app.config["PUBLIC_URL"] = url
    if getattr(args, "behind_proxy", False):
        behind_proxy(app)
    if not args.no_mdns:  # announced until the host stops (`Host.stop`)
        host_of(app).announce(Announcement(url.split("//")[1].split(":")[0], server.port,
                                           version=host_version(),
                                           interfaces=_interfaces(args), scheme=scheme,
                                           shared=bool(store)))
    if store:
        data_dir = host_of(app).store.where
    print_banner(url, data_dir, qr=not args.no_qr)
    if mode != "gevent":
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        # A second Ctrl+C or SIGTERM must not cut the orderly stop short.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("Stopping.", flush=True)
        server.close()
        shutdown_app(app)  # the LAN announcement, the bots, the store
    return 0
