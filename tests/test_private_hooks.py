"""The libraries' private parts the host overrides or calls, each checked by name: an upgrade
of python-socketio, python-engineio, simple-websocket or webargs that renames or removes one
fails here, naming it, instead of somewhere in the socket layer at run time.

The host's uses: `server/realtime/ordered.py` (a Redis manager that keeps each room's events
in order), `server/realtime/guard.py` (every socket frame and packet checked before
python-socketio dispatches it), `server/web/bounded.py` (request bodies parsed with depth and
number limits)."""

from __future__ import annotations

import inspect

import engineio
import pytest
import simple_websocket
import socketio
from webargs.flaskparser import FlaskParser

#: (class, attribute, the parameters its signature must start with, or None for any)
HOOKS = [
    (socketio.RedisManager, "_publish", ("self", "data")),
    (socketio.RedisManager, "_handle_emit", ("self", "message")),
    (socketio.RedisManager, "_redis_listen_with_retries", ("self",)),
    (socketio.Server, "_handle_connect", ("self", "eio_sid", "namespace", "data")),
    (socketio.Server, "_handle_disconnect", ("self", "eio_sid", "namespace")),
    (socketio.Server, "_handle_ack", ("self", "eio_sid", "namespace", "id", "data")),
    (socketio.Server, "_handle_event", ("self", "eio_sid", "namespace", "id", "data")),
    (socketio.Server, "_send_packet", ("self", "eio_sid", "pkt")),
    (engineio.Server, "handle_request", ("self", "environ", "start_response")),
    (simple_websocket.Server, "receive", ("self", "timeout")),
    (FlaskParser, "_raw_load_json", ("self", "req")),
]


@pytest.mark.parametrize("owner,name,params", HOOKS,
                         ids=[f"{o.__module__}.{o.__name__}.{n}" for o, n, _ in HOOKS])
def test_a_private_hook_the_host_uses_is_there_with_its_parameters(owner, name, params):
    assert hasattr(owner, name), f"{owner.__module__}.{owner.__name__} has no {name}"
    got = tuple(inspect.signature(getattr(owner, name)).parameters)
    assert got[:len(params)] == params, f"{owner.__name__}.{name}{got}"


def test_the_engine_io_server_s_driver_table_and_limits_are_where_the_guard_reads_them():
    server = engineio.Server(async_mode="threading")
    assert isinstance(server._async, dict) and "websocket" in server._async
    assert isinstance(server.sockets, dict) and isinstance(server.max_http_buffer_size, int)
    assert "max_message_size" in inspect.signature(simple_websocket.Server.__init__).parameters
    sio = socketio.Server()
    assert hasattr(sio, "reason") and hasattr(sio, "packet_class")
