"""What the tests' throwaway servers share: a free port on the loopback address, and a child
process that dies with the process that started it. Needs neither pytest nor the servers'
client libraries, so `scripts/loadtest.py` uses it too (through the fixture modules)."""

from __future__ import annotations

import ctypes
import signal
import socket
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listened on a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def die_with_parent(sig: signal.Signals) -> Callable[[], None]:
    """A `preexec_fn` for subprocess.Popen: the child gets `sig` when the process that started
    it dies, however it dies (PR_SET_PDEATHSIG)."""
    def arm() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, sig)
    return arm
