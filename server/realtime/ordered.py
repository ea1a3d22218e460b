"""The message queue of a host of several processes: Flask-SocketIO's Redis manager,
delivering each game's `event` pushes to this process's sockets in seq order, each once
(used with `serve --message-queue`; see server.realtime.shared for the rest of what the
processes share through Redis)."""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from collections.abc import Callable

import socketio
from engineio import packet as eio_packet
from socketio import packet

from server.realtime.shared import run_safely

log = logging.getLogger(__name__)


#: Seconds an event that arrived before an earlier one waits for it (then it goes anyway).
REORDER_WAIT = 0.5


class OrderedRedisManager(socketio.RedisManager):
    """Flask-SocketIO's Redis message queue, delivering each game's `event` pushes to this
    process's sockets in seq order, each once.

    Two processes may publish consecutive events of one game in either order (each commits,
    then publishes); so per room the last delivered seq is kept, a repeat is dropped and an
    event that arrives early waits (at most REORDER_WAIT) for the ones before it.

    A push to a room travels encoded: the process that makes it encodes the Socket.IO
    packet once and publishes that text (with the event's seq beside it), and every process
    sends the text as it is to its own sockets. python-socketio's queue would publish the
    push as a tree, scan it for binary parts, and have every process decode it and encode
    it again for its sockets: each push is a game's whole state, and every process of a club
    receives every push."""

    def __init__(self, url: str, **kwargs) -> None:
        super().__init__(url, redis_options={"socket_connect_timeout": 1.0}, **kwargs)
        #: Called when this process listens to the queue again after losing it: its sockets
        #: may have missed other processes' pushes (the socket layer resyncs them).
        self.on_resubscribed: list[Callable[[], None]] = []
        #: Called with (room, event dict) for each `event` push of another process, in seq
        #: order, before this process's sockets get it (the service folds it in).
        self.on_remote_event: list[Callable[[str, dict], None]] = []
        #: Called with the room of each `presence` push of another process.
        self.on_remote_presence: list[Callable[[str], None]] = []
        self._quiet_until = 0.0
        self._failing = False
        self._order_lock = threading.Lock()
        self._last: dict[str, int] = {}
        self._early: dict[str, dict[int, dict]] = defaultdict(dict)

    def emit(self, event, data, namespace=None, room=None, skip_sid=None, callback=None,
             to=None, **kwargs):
        room = to or room
        if kwargs.get("ignore_queue") or callback is not None or skip_sid is not None \
                or not isinstance(room, str) or isinstance(data, tuple):
            return super().emit(event, data, namespace=namespace, room=room,
                                skip_sid=skip_sid, callback=callback, **kwargs)
        namespace = namespace or "/"
        text = self.server.packet_class(packet.EVENT, namespace=namespace,
                                        data=[event, data]).encode()
        seq = _seq_of(event, data)
        message = {"method": "emit", "event": event, "namespace": namespace, "room": room,
                   "packet": text, "seq": seq, "host_id": self.host_id}
        if seq is not None:
            message["body"] = data["event"]  # small: the event alone, for `on_remote_event`
        self._handle_emit(message)
        self._publish(message)

    def _deliver(self, message: dict) -> None:
        """Send one message to this process's sockets in its room."""
        if "packet" not in message:
            super()._handle_emit(message)
            return
        namespace, text = message.get("namespace") or "/", message["packet"]
        if not isinstance(text, str):
            return
        body, room = message.get("body"), message.get("room")
        if message.get("host_id") != self.host_id and isinstance(room, str):
            if isinstance(body, dict):
                for callback in list(self.on_remote_event):
                    run_safely(lambda cb=callback: cb(room, body))
            elif message.get("event") == "presence":
                for callback in list(self.on_remote_presence):
                    run_safely(lambda cb=callback: cb(room))
        eio = eio_packet.Packet(eio_packet.MESSAGE, text)
        for _sid, eio_sid in self.get_participants(namespace, room):
            self.server._send_eio_packet(eio_sid, eio)

    def _publish(self, data) -> None:
        """Publish once; after a failure stay quiet for a second (python-socketio's own tries
        twice per message, each up to the connect timeout when Redis does not answer). What
        is not published reaches the other processes' phones with the next push or the
        resync when the queue is back."""
        if time.monotonic() < self._quiet_until:
            return
        try:
            if not self.connected:
                self._redis_connect()
            self.redis.publish(self.channel, self.json.dumps(data))
            self._failing = False
        except Exception as e:
            self.connected = False
            self._quiet_until = time.monotonic() + 1.0
            if not self._failing:
                log.warning("message queue unreachable, pushes stay on this process: %s", e)
            self._failing = True

    def _redis_listen_with_retries(self):
        """python-socketio's listening loop, retrying every second (not with a back-off
        growing to a minute: a Redis restart is seconds) and saying when it listens again."""
        subscribed = False
        lost = False
        while True:
            try:
                if not subscribed:
                    self._redis_connect()
                    self.pubsub.subscribe(self.channel)
                    subscribed = True
                    if lost:
                        log.info("listening to the message queue again")
                        for callback in list(self.on_resubscribed):
                            run_safely(callback)
                yield from self.pubsub.listen()
            except Exception as e:
                if not lost or subscribed:
                    log.warning("message queue unreachable (%s); retrying every second", e)
                subscribed = False
                lost = True
                time.sleep(1.0)

    def seen(self, room: str, seq: int) -> None:
        """A socket joined `room` with the game's events up to `seq` in its answer: if no
        push of that game has gone through this process yet, its pushes start after `seq`
        (an event up to it arriving late from another process is not sent again, and one
        after it waits for those before it)."""
        with self._order_lock:
            self._last.setdefault(room, seq)

    def _handle_emit(self, message: dict) -> None:
        seq = _event_seq(message)
        if seq is None:
            self._deliver(message)
            return
        room = message["room"]
        with self._order_lock:
            last = self._last.get(room)
            if last is not None and seq <= last:
                return  # already delivered
            if last is not None and seq > last + 1:
                early = self._early[room]
                if not early:
                    timer = threading.Timer(REORDER_WAIT, self._flush, (room,))
                    timer.daemon = True
                    timer.start()
                early[seq] = message
                return
            ready = [message]
            self._last[room] = seq
            early = self._early.get(room) or {}
            while self._last[room] + 1 in early:
                self._last[room] += 1
                ready.append(early.pop(self._last[room]))
        for m in ready:
            self._deliver(m)

    def _flush(self, room: str) -> None:
        """Deliver what waited for an event that never came (lost while Redis was away)."""
        with self._order_lock:
            early = self._early.pop(room, {})
            ready = [early[s] for s in sorted(early) if s > self._last.get(room, 0)]
            if ready:
                log.info("game %s: events from seq %d came without seq %d for %.1f s; "
                         "sent on", room, _event_seq(ready[0]), self._last.get(room, 0) + 1,
                         REORDER_WAIT)
                self._last[room] = max(_event_seq(m) for m in ready)
        for m in ready:
            self._deliver(m)


def _seq_of(event: str, data: object) -> int | None:
    """The seq of a game's `event` push (its data), or None for any other push."""
    if event != "event" or not isinstance(data, dict):
        return None
    try:
        return int(data["event"]["seq"])
    except (KeyError, TypeError, ValueError):
        return None


def _event_seq(message: dict) -> int | None:
    """The seq of a game's `event` push, or None for any other message."""
    if message.get("event") != "event" or not message.get("room"):
        return None
    if "packet" in message:
        seq = message.get("seq")
        return seq if isinstance(seq, int) else None
    data = message.get("data")
    return _seq_of("event", data[0]) if isinstance(data, list) and data else None
