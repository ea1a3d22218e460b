"""The tests' Socket.IO client: python-socketio's, closing its websocket at once.

python-socketio's own `disconnect()` takes 3 s over a websocket: websocket-client's `close()`
waits that long for the server's closing frame, which the client's reader thread has already
taken. Here the Socket.IO and Engine.IO goodbyes are written first, as before, and the
websocket is then closed without that wait. The host sees the same goodbye a browser sends."""

from __future__ import annotations

import engineio
import socketio


class _EngineIO(engineio.Client):
    def disconnect(self, abort: bool = False, reason=None) -> None:
        if self.state == "connected" and self.current_transport == "websocket":
            ws, close = self.ws, self.ws.close

            def close_at_once(*args, **kwargs) -> None:
                self.write_loop_task.join(10)  # every queued packet, the goodbye last, is sent
                close(timeout=0)

            ws.close = close_at_once
        super().disconnect(abort=abort, reason=reason)


class Client(socketio.Client):
    """socketio.Client(reconnection=False) unless told otherwise, with the quick close."""

    def __init__(self, *args, reconnection: bool = False, **kwargs) -> None:
        super().__init__(*args, reconnection=reconnection, **kwargs)

    def _engineio_client_class(self):
        return _EngineIO
