"""The host's limits on what one client may ask of it, and the lock on its data dir.

- `RateLimiter`: writes per second per client (a token bucket per key: the remote address
  for REST, the socket id for Socket.IO). A phone makes a write every few seconds; a script
  that hammers the host gets `429 too_many_requests` with `retry_after` instead of starving
  the other tables.
- `check_name`: display names are shown on every phone, so no control characters, no
  bidirectional overrides (they reorder the text around them) and not blank.
- `from_host_machine`: whether a request comes from the PC the host runs on (the host's
  own page, e.g. the table view on its screen): what a host-wide action (a new evening)
  asks of its caller.
- `DataDirLock`: one host per data dir. Two hosts on one SQLite file would each fold the
  games at start-up and then append behind each other's back; the second is refused with a
  message naming the first one's pid.
"""

from __future__ import annotations

import os
import threading
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

from marshmallow import ValidationError

from server.errors import ApiError

# -- the host's own machine ---------------------------------------------------------------


def from_host_machine(address: str | None) -> bool:
    """Whether `address` (a request's remote address) is this machine: a loopback address or
    one of its own interfaces' (a page opened on the host PC at its LAN URL). O(interfaces)."""
    import ipaddress

    import ifaddr

    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if ip.is_loopback:
        return True
    own = {str(a.ip if isinstance(a.ip, str) else a.ip[0]).split("%", 1)[0]
           for adapter in ifaddr.get_adapters() for a in adapter.ips}
    return str(ip) in own


# -- writes per second -------------------------------------------------------------------


class RateLimiter:
    """A token bucket per key: `burst` writes at once, then `rate` per second.

    Cost: O(1) per call; idle keys are forgotten every `burst / rate` seconds or so, so the
    table never grows past the clients active in that window.
    """

    def __init__(self, rate: float, burst: float, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)
        self._swept = clock()

    def take(self, key: str) -> float:
        """Spend one write for `key`: 0.0 if allowed, else seconds until one is allowed."""
        now = self._clock()
        with self._lock:
            tokens, at = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - at) * self.rate)
            if tokens < 1:
                self._buckets[key] = (tokens, now)
                return (1 - tokens) / self.rate
            self._buckets[key] = (tokens - 1, now)
            self._sweep(now)
            return 0.0

    def check(self, key: str) -> None:
        """Spend one write for `key` or raise 429 `too_many_requests`."""
        wait = self.take(key)
        if wait:
            raise ApiError("too_many_requests",
                           f"too many writes: at most {self.rate:g} per second; "
                           f"try again in {wait:.2f} s", retry_after=round(wait, 3))

    def forget(self, key: str) -> None:
        with self._lock:
            self._buckets.pop(key, None)

    def _sweep(self, now: float) -> None:
        full = self.burst / self.rate
        if now - self._swept < full:
            return
        self._swept = now
        for key, (_, at) in list(self._buckets.items()):
            if now - at >= full:
                del self._buckets[key]


# -- names -------------------------------------------------------------------------------
#: Bidirectional embedding/override/isolate controls: they reorder what follows on screen.
BIDI_CONTROLS = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E,
                                  0x200F, 0x061C)}
#: Control characters, surrogates, private use, line and paragraph separators. Code points
#: unassigned in this Python's Unicode are allowed, so the rule is the same in every Unicode
#: version and /api/openapi.json states it as a short pattern (server.web.openapi).
BAD_CATEGORIES = {"Cc", "Cs", "Co", "Zl", "Zp"}


def check_name(name: str) -> None:
    """A marshmallow validator: a display name with no control characters, not blank.

    Emoji sequences stay allowed (the zero-width joiner and variation selectors are not
    control characters here); HTML needs no check, since every page shows names as text.
    """
    if not name.strip():
        raise ValidationError("a name cannot be blank")
    for ch in name:
        if ch in BIDI_CONTROLS or unicodedata.category(ch) in BAD_CATEGORIES:
            raise ValidationError(f"a name cannot contain the control character U+{ord(ch):04X}")


# -- one host per data dir -----------------------------------------------------------------
class DataDirLocked(RuntimeError):
    """Another process (a host) holds this data dir."""


class DataDirLock:
    """An exclusive OS lock on `<data dir>/host.lock`, held while the host runs.

    The OS releases it when the process dies (even by SIGKILL), so a crashed host never
    blocks its own restart. flock on POSIX, msvcrt.locking on Windows.
    """

    FILENAME = "host.lock"

    def __init__(self, data_dir: str | Path) -> None:
        self.path = Path(data_dir) / self.FILENAME
        self._file = None

    def acquire(self) -> DataDirLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        f = open(self.path, "a+")  # noqa: SIM115 - held open for the host's lifetime
        try:
            _lock(f)
        except OSError:
            f.seek(0)
            holder = f.read().strip() or "unknown"
            f.close()
            raise DataDirLocked(
                f"another Corner Claim host (pid {holder}) is already using {self.path.parent}; "
                "stop it first, or start this one with another --data-dir") from None
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        self._file = f
        return self

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the descriptor drops the lock
            self._file = None


if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(f) -> None:
        f.seek(0)
        msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
else:
    import fcntl

    def _lock(f) -> None:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
