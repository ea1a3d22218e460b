"""The host's Socket.IO door: what a client sends is checked before python-socketio sees it,
and every message it may not send is answered, with one WARNING line and no traceback.

Why: python-socketio (5.18) dispatches an EVENT by its name alone, so a phone could send
`disconnect` (or `connect`) and run the host's own handler for it while its socket stayed: its
write bucket forgotten, its seat shown away while it still got every push. An unknown or
non-string name, `[]`, an event to a namespace it never joined, got no answer at all; a packet
python-socketio could not decode (not JSON, JSON 2,000 deep, a 5,000-digit ack id) was a
traceback per message and again no answer. A frame that is not Engine.IO v4 (`x`, `4[[[…`,
a binary frame) broke out of python-engineio's websocket loop: a traceback, and a socket
left half open until its ping timed out; in a long-polling POST, a traceback and a 200.

`guard(server)` puts its checks in front (Flask-SocketIO builds the `socketio.Server` itself
and takes no subclass, so they are put on the server it built):

* `Door.message` takes python-socketio's place as the Engine.IO message handler. It decodes
  the packet with the server's packet class (the host's `JsonPacket`, whose JSON is read by
  engine.boundedjson: 32 deep, numbers of 32 characters) and hands on only what a client may
  send: a CONNECT; a DISCONNECT of a namespace the socket holds; an EVENT to such a namespace
  whose data is an array headed by the name of one of the host's handlers (never a name
  Socket.IO keeps for itself, RESERVED); an ACK the host asked for (it never asks).
* `Door.websocket` wraps python-engineio's websocket driver so each socket's frames are read
  through `_Frames`, and `Door.http` its HTTP entry point so a long-polling POST's packets are
  checked alike: only what an Engine.IO v4 client sends passes (`1` close, `3` pong, `2probe`
  and `5` of an upgrade, and `4` followed by a Socket.IO packet type), so python-engineio
  never parses anything else (it would, with the standard `json`).

What is refused is answered as the protocol allows. An EVENT with an ack id gets an error
ack in the API's shape: `reserved_event`, `unknown_event` (naming the event and the host's
events), `bad_request` (the data is not an array headed by a string) or `bad_json` (naming
the limit, as REST does). Anything else closes the connection: an ack id past python-socketio's
100 digits, data that is not JSON, a namespace the socket does not hold, a packet type a
client does not send, a bad event without an ack id (there is nothing else to answer it
with), a bad frame (a bad long-polling POST is also answered 400). A CONNECT the host
refuses is answered by python-socketio's CONNECT_ERROR. A closed socket's disconnect runs as
for any other close. Log lines name the socket, its address, the packet type and at most 40
characters of an event name or 8 of a bad frame; never a packet's data (tokens travel in it).
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

import engineio
import simple_websocket
import socketio
from engineio.payload import Payload
from socketio import packet as sio_packet
from socketio.base_client import BaseClient
from socketio.base_server import BaseServer

from engine.boundedjson import JsonLimitError
from server.errors import error_body

log = logging.getLogger(__name__)

#: Seconds a websocket's reader sleeps at most before it looks whether the socket closed.
WAKE = 5.0

#: Event names a client may not send: python-socketio's server dispatches a client's EVENT of
#: such a name to the host's own connect/disconnect handler; the others are what its client,
#: the socket.io JS client and server keep for themselves (`connect_error`,
#: `__disconnect_final`, `disconnecting`, the emitter's `newListener`/`removeListener`), and
#: `*`, python-socketio's catch-all handler.
RESERVED = frozenset({*BaseServer.reserved_events, *BaseClient.reserved_events, "connect_error",
                      "__disconnect_final", "disconnecting", "newListener", "removeListener",
                      "*"})
#: Characters of an event name an answer or a log line repeats.
SHOWN = 40
#: The frames an Engine.IO v4 client sends over a websocket (`4`: a Socket.IO packet follows).
_FRAME = re.compile(r"4[0-9]|[135]\Z|2probe\Z")


class Refused(Exception):
    """A message the host does not take. `code` (with `message` and `details`) is the error
    ack's, when the packet can have one; without it, or without an ack id, the connection is
    closed. `what` says what was refused, for the log."""

    def __init__(self, what: str, code: str | None = None, message: str = "",
                 pkt: sio_packet.Packet | None = None, **details: Any) -> None:
        super().__init__(what)
        self.what = what
        self.code = code
        self.message = message
        self.pkt = pkt
        self.details = details


class Door:
    """The checks in front of one `socketio.Server` (see the module doc)."""

    def __init__(self, server: socketio.Server) -> None:
        self.server = server

    # -- Socket.IO packets --------------------------------------------------------------------
    def message(self, eio_sid: str, data: Any) -> None:
        """An Engine.IO message from a client: handed to python-socketio, or answered here."""
        socket = self.server.eio.sockets.get(eio_sid)
        if socket is None or socket.closed:
            return  # sent before its socket was closed: the close was the answer
        try:
            self._dispatch(eio_sid, data)
        except Refused as refusal:
            self._answer(eio_sid, refusal)

    def _dispatch(self, eio_sid: str, data: Any) -> None:
        server = self.server
        if not isinstance(data, str):
            raise Refused("a binary message (the host reads JSON text only)")
        pkt = server.packet_class()
        try:
            pkt.decode(data)
        except JsonLimitError as e:
            if e.limit is None:
                raise Refused(f"{_kind(pkt)} packet whose data is not JSON") from None
            raise Refused(f"{_kind(pkt)} packet: {e.message}", "bad_json",
                          f"the message's JSON is past a limit: {e.message}", pkt,
                          limit=e.limit, max=e.bound) from None
        except Exception as e:  # python-socketio's ValueErrors: an ack id too long, ...
            raise Refused(f"a frame that is not a Socket.IO packet ({str(e)[:80]})") from None
        namespace = pkt.namespace or "/"
        if pkt.packet_type == sio_packet.CONNECT:
            if not self._serves(namespace) or self._sid(eio_sid, namespace) is not None:
                self._log(eio_sid, f"a CONNECT to {namespace[:SHOWN]!r}, which it does not "
                          "serve or the socket already holds", "answered CONNECT_ERROR")
            server._handle_connect(eio_sid, pkt.namespace, pkt.data)  # answers either way
            return
        sid = self._sid(eio_sid, namespace)
        if sid is None:
            raise Refused(f"{_kind(pkt)} packet to {namespace[:SHOWN]!r}, a namespace the "
                          "socket does not hold")
        if pkt.packet_type == sio_packet.DISCONNECT:
            server._handle_disconnect(eio_sid, pkt.namespace, server.reason.CLIENT_DISCONNECT)
        elif pkt.packet_type == sio_packet.ACK:
            # The host asks nothing of its clients (and id 0 of a socket's callbacks is the
            # counter of their ids, not a callback).
            asked = getattr(server.manager, "callbacks", {}).get(sid, {})
            if pkt.id == 0 or pkt.id not in asked or not isinstance(pkt.data, list):
                raise Refused("an ACK the host did not ask for")
            server._handle_ack(eio_sid, pkt.namespace, pkt.id, pkt.data)
        elif pkt.packet_type == sio_packet.EVENT:
            self._check_event(pkt, namespace)
            server._handle_event(eio_sid, pkt.namespace, pkt.id, pkt.data)
        else:
            raise Refused(f"{_kind(pkt)} packet, which a client does not send")

    def _check_event(self, pkt: sio_packet.Packet, namespace: str) -> None:
        data = pkt.data
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            raise Refused("an EVENT whose data is not an array headed by its name",
                          "bad_request", "an event is a JSON array: its name (a string), "
                          "then its arguments", pkt)
        name = data[0]
        shown = name if len(name) <= SHOWN else name[:SHOWN] + "…"
        if name in RESERVED:
            raise Refused(f"an EVENT named {shown!r}, a name Socket.IO keeps for itself",
                          "reserved_event", f"{shown!r} is a name Socket.IO keeps for "
                          "itself; a client cannot send it", pkt, event=shown)
        handlers = self.server.handlers.get(namespace, {})
        if name not in handlers:
            raise Refused(f"an EVENT named {shown!r}, which the host does not have",
                          "unknown_event", f"the host has no event {shown!r}", pkt,
                          event=shown, events=sorted(set(handlers) - RESERVED))

    def _answer(self, eio_sid: str, refusal: Refused) -> None:
        pkt = refusal.pkt
        if (refusal.code is not None and pkt is not None and pkt.id is not None
                and pkt.packet_type == sio_packet.EVENT
                and self._sid(eio_sid, pkt.namespace or "/") is not None):
            self._log(eio_sid, refusal.what, f"answered {refusal.code}")
            body = error_body(refusal.code, refusal.message, refusal.details)
            self.server._send_packet(eio_sid, self.server.packet_class(
                sio_packet.ACK, namespace=pkt.namespace, id=pkt.id, data=[body]))
        else:
            self._log(eio_sid, refusal.what, "connection closed")
            self.close(eio_sid)

    def _serves(self, namespace: str) -> bool:
        """python-socketio's own test of a namespace it accepts connections to."""
        server = self.server
        return (namespace in server.handlers or namespace in server.namespace_handlers
                or server.namespaces == "*" or namespace in server.namespaces)

    def _sid(self, eio_sid: str, namespace: str) -> str | None:
        """The socket's sid in `namespace`, if it is connected there."""
        manager = self.server.manager
        sid = manager.sid_from_eio_sid(eio_sid, namespace)
        return sid if sid is not None and manager.is_connected(sid, namespace) else None

    # -- Engine.IO frames ---------------------------------------------------------------------
    def websocket(self, driver: Callable[..., Any]) -> Callable[..., Any]:
        """python-engineio's websocket driver (`driver(handler, server)`), the frames of each
        socket read through `_Frames`. `handler` is the Engine.IO socket's own loop; a frame
        refused during an upgrade's handshake ends it here, the socket closed."""

        def checked_driver(handler: Callable[[Any], Any], eio_server: Any) -> Any:
            socket = getattr(handler, "__self__", None)  # engineio's Socket

            def checked(ws: Any) -> Any:
                try:
                    return handler(_Frames(ws, self, socket))
                except _FrameRefused:
                    return []
                finally:
                    _settle(ws)

            websocket = driver(checked, eio_server)
            # simple-websocket buffers a frame whole before python-engineio sees it: held to
            # the host's message limit there, a longer frame is refused as it arrives (close
            # 1009) instead of being held in memory first
            args = getattr(websocket, "server_args", None)
            if isinstance(args, dict):
                args.setdefault("max_message_size", eio_server.max_http_buffer_size)
            return websocket

        return checked_driver

    def http(self, handle_request: Callable[..., Any]) -> Callable[..., Any]:
        """python-engineio's HTTP entry point, a long-polling POST's packets checked first as
        `_Frames` checks a websocket's (python-engineio answered a payload it could not read,
        such as `x`, with a traceback and a 200). A refused payload closes the socket and is
        answered 400, as python-engineio answers a request it does not take."""
        eio = self.server.eio

        def checked(environ: dict, start_response: Callable[..., Any]) -> Any:
            if environ.get("REQUEST_METHOD") == "POST":
                sid = (parse_qs(environ.get("QUERY_STRING", "")).get("sid") or [""])[0]
                socket = eio.sockets.get(sid)
                if socket is not None and socket.connected and not socket.upgraded:
                    what = self._read_payload(environ)
                    if what is not None:
                        self._log(sid, what, "connection closed")
                        self.close(sid)
                        start_response("400 BAD REQUEST", [("Content-Type", "text/plain")])
                        return [b"Bad Request"]
            return handle_request(environ, start_response)

        return checked

    def _read_payload(self, environ: dict) -> str | None:
        """What is wrong with a long-polling POST's body, or None. The body is read here and
        put back for python-engineio."""
        length = environ.get("CONTENT_LENGTH", "0")  # as python-engineio reads it
        if not (length.isascii() and length.isdigit()) or (
                "CONTENT_LENGTH" not in environ and environ.get("HTTP_TRANSFER_ENCODING")):
            return "a long-polling POST without its length (python-engineio reads none)"
        if int(length) > self.server.eio.max_http_buffer_size:
            return _too_long(int(length), self.server.eio.max_http_buffer_size)  # left unread
        body = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(body)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return "a long-polling payload that is not UTF-8"
        frames = text.split("\x1e") if text else []
        if len(frames) > Payload.max_decode_packets:
            return (f"a long-polling payload of {len(frames)} packets (python-engineio reads "
                    f"{Payload.max_decode_packets} at most)")
        for frame in frames:
            if not _FRAME.match(frame):
                return _not_a_frame(frame)
        return None

    # -- both ---------------------------------------------------------------------------------
    def close(self, eio_sid: str) -> None:
        """Close an Engine.IO socket at once, as python-engineio's `disconnect` does but without
        waiting for its queue to drain (a polling client may never come back for it)."""
        eio = self.server.eio
        socket = eio.sockets.get(eio_sid)
        if socket is not None:
            socket.close(wait=False, reason=eio.reason.SERVER_DISCONNECT)
            eio.sockets.pop(eio_sid, None)

    def _log(self, eio_sid: str, what: str, outcome: str) -> None:
        environ = self.server.environ.get(eio_sid) or {}
        log.warning("socket %s from %s sent %s; %s", eio_sid,
                    environ.get("REMOTE_ADDR", "?"), what, outcome)


def _settle(ws: Any) -> None:
    """After a websocket's Engine.IO loop ended: wait (at most `WAKE` seconds) for
    simple-websocket's reader to finish, so the client's answer to the close is read by it,
    not by the HTTP server (`serve.werkzeug_server` ends the connection after a websocket)."""
    reader = getattr(getattr(ws, "ws", None), "thread", None)
    if reader is not None and hasattr(reader, "join"):
        reader.join(WAKE)


class _FrameRefused(Exception):
    """A websocket frame that is not Engine.IO v4: its socket is closed already."""


class _Frames:
    """One Engine.IO socket's websocket, its frames checked (`Door.websocket`)."""

    def __init__(self, ws: Any, door: Door, socket: Any) -> None:
        self._ws = ws
        self._door = door
        self._socket = socket

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ws, name)  # send, close, the socket for its timeout

    def _receive(self) -> Any:
        """The next frame, None once the websocket is closed. simple-websocket's own wait
        can miss its close after a frame over `max_message_size` (its reader sets the event
        before it marks itself closed, and a thread woken in between waits again for good),
        so the wait is in slices of `WAKE` seconds, each ending on a closed websocket."""
        inner = getattr(self._ws, "ws", None)
        if inner is None or not hasattr(inner, "receive"):
            return self._ws.wait()
        while True:
            try:
                frame = inner.receive(timeout=WAKE)
            except simple_websocket.ConnectionClosed:
                return None
            if frame is not None or not inner.connected:
                return frame

    def wait(self) -> Any:
        frame = self._receive()
        most = self._door.server.eio.max_http_buffer_size
        if frame is None:
            inner = getattr(self._ws, "ws", None)  # simple-websocket's, past its limit?
            length = getattr(inner, "incoming_message_len", 0)
            if getattr(inner, "max_message_size", None) and length > most:
                self._door._log(getattr(self._socket, "sid", "?"),
                                _too_long(length, most) + ", refused as it arrived",
                                "connection closed")
            return frame
        if len(frame) > most:  # python-engineio's own test of it closed the socket abruptly
            what = _too_long(len(frame), most)
        elif isinstance(frame, str) and _FRAME.match(frame):
            return frame
        else:
            what = _not_a_frame(frame)
        socket = self._socket
        self._door._log(getattr(socket, "sid", "?"), what, "connection closed")
        if socket is None or not socket.upgraded:
            if socket is not None:
                self._door.close(socket.sid)
            raise _FrameRefused()  # an upgrade's handshake: ended as a failed one is
        # Its writer sends Engine.IO's close, then the websocket's; the loop reading it ends
        # once the client has answered that (or the socket timed out), as after any close, so
        # the HTTP server does not read the client's answer as its next request.
        self._door.close(socket.sid)
        while self._receive() is not None:
            pass  # what the client sent after the refused frame
        return None


def _not_a_frame(frame: str | bytes) -> str:
    """A refused frame, for a log line: its type, length and first characters only."""
    if isinstance(frame, str):
        return f"a frame that is not Engine.IO v4 ({frame[:8]!r}, {len(frame)} characters)"
    return f"a binary frame of {len(frame)} bytes (the host reads JSON text only)"


def _too_long(length: int, most: int) -> str:
    return f"a message of {length:,} bytes or characters (the most is {most:,})"


def _kind(pkt: sio_packet.Packet) -> str:
    """`an EVENT`, `a CONNECT`, ...: the packet's type, for a log line."""
    kind, names = pkt.packet_type, sio_packet.packet_names
    name = names[kind] if isinstance(kind, int) and 0 <= kind < len(names) else "unknown"
    return f"{'an' if name[0] in 'AEIOUu' else 'a'} {name}"


def guard(server: socketio.Server) -> Door:
    """Put the checks of this module in front of `server` (made by Flask-SocketIO)."""
    door = Door(server)
    eio: engineio.Server = server.eio
    eio.on("message", door.message)
    eio.handle_request = door.http(eio.handle_request)  # socketio.Server calls it on its eio
    if eio._async.get("websocket") is not None:  # a copy: the driver's table is shared
        eio._async = {**eio._async, "websocket": door.websocket(eio._async["websocket"])}
    return door
