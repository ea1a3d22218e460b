"""mDNS (zeroconf): announce the host on the LAN and find hosts from another machine.

Two services are registered: `_http._tcp.local.` named "Corner Claim on <hostname>" (so any
mDNS browser shows a clickable host) and `_cornerclaim._tcp.local.` with TXT records
(`version`, `api`, `open_games`) for `cornerclaim discover`. Names may change on a conflict
(two hosts on one LAN), and both are unregistered on shutdown. Registration runs in a
child process, watched from a background thread: a slow or broken multicast network never
delays start-up, and zeroconf's own event loop never meets the host's.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

HTTP_TYPE = "_http._tcp.local."
HOST_TYPE = "_cornerclaim._tcp.local."


def service_infos(name: str, address: str, port: int, *, version: str, open_games: int,
                  interface_index: int | None = None):
    """The two ServiceInfo records announcing one host."""
    from zeroconf import ServiceInfo

    props = {"version": version, "api": "/api", "path": "/", "open_games": str(open_games)}
    return [ServiceInfo(type_, f"{name}.{type_}", port=port, properties=props,
                        server=f"{socket.gethostname().split('.')[0]}.local.",
                        parsed_addresses=[address], interface_index=interface_index)
            for type_ in (HTTP_TYPE, HOST_TYPE)]


class Announcer:
    """Registers the host in the background; keeps `open_games` fresh; unregisters on stop.

    zeroconf runs in a child process (spawned: a fresh interpreter). It has its own asyncio
    loop and threads, which must not share a process with the host's gevent loop (zeroconf
    would take the monkey-patched loop for its own and skip blocking calls). The child
    registers, sends "registered", then applies each open-games count it is sent; when the
    pipe closes — `stop()`, or the host killed — it unregisters and exits.
    """

    def __init__(self, address: str, port: int, *, version: str,
                 open_games: Callable[[], int], name: str | None = None,
                 interfaces: list[str] | None = None, refresh: float = 15.0) -> None:
        self.address = address
        self.port = port
        self.version = version
        self.open_games = open_games
        self.name = name or f"Corner Claim on {socket.gethostname().split('.')[0]}"
        self.interfaces = interfaces
        self.refresh = refresh
        self.registered = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mdns", daemon=True)
        self._process = None

    def start(self) -> Announcer:
        self._thread.start()
        return self

    def _run(self) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        count = self.open_games()
        self._process = ctx.Process(
            target=announce, name="cornerclaim-mdns", daemon=True,
            args=(theirs, self.name, self.address, self.port, self.version, count,
                  self.interfaces))
        try:
            self._process.start()
        except OSError as e:
            log.warning("mDNS unavailable (%s); phones can still scan the QR code", e)
            return
        theirs.close()
        try:
            if ours.poll(60) and ours.recv() == "registered":
                self.registered.set()
            while not self._stop.wait(self.refresh):
                now = self.open_games()
                if now != count:
                    count = now
                    ours.send(count)
        except (EOFError, OSError):
            log.warning("the mDNS process ended; phones can still scan the QR code")
        finally:
            ours.close()  # the child unregisters and exits

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if self._process is not None and self._process.pid is not None:
            self._process.join(timeout)
            if self._process.is_alive():
                self._process.kill()


def announce(conn, name: str, address: str, port: int, version: str, count: int,
             interfaces: list[str] | None) -> None:
    """The mDNS child: register both services, follow the counts sent, unregister at EOF."""
    from zeroconf import InterfaceChoice, Zeroconf

    try:
        zc = Zeroconf(interfaces=interfaces or InterfaceChoice.All)
    except OSError as e:
        log.warning("mDNS unavailable (%s); phones can still scan the QR code", e)
        return
    infos = service_infos(name, address, port, version=version, open_games=count)
    try:
        for info in infos:
            zc.register_service(info, allow_name_change=True)
        conn.send("registered")
        while True:
            try:
                count = conn.recv()
            except (EOFError, OSError):
                break
            fresh = service_infos(name, address, port, version=version, open_games=count)
            for info, new in zip(infos, fresh, strict=True):
                new.name = info.name  # keep a name changed by a conflict
                zc.update_service(new)
    except Exception:
        log.exception("mDNS registration failed")
    finally:
        try:
            zc.unregister_all_services()
        finally:
            zc.close()


@dataclass
class FoundHost:
    name: str
    url: str
    open_games: int
    version: str


def discover(seconds: float = 3.0, *, interfaces: list[str] | None = None) -> list[FoundHost]:
    """Browse `_cornerclaim._tcp.local.` for `seconds`; the hosts found, by name."""
    from zeroconf import InterfaceChoice, ServiceBrowser, ServiceStateChange, Zeroconf

    zc = Zeroconf(interfaces=interfaces or InterfaceChoice.All)
    names: set[str] = set()

    def seen(zeroconf, service_type, name, state_change):
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            names.add(name)

    browser = ServiceBrowser(zc, HOST_TYPE, handlers=[seen])
    try:
        time.sleep(seconds)
        hosts = {}
        for name in sorted(names):
            info = zc.get_service_info(HOST_TYPE, name, timeout=1500)
            if info is None or not info.parsed_addresses():
                continue
            props = {k.decode(): (v or b"").decode() for k, v in info.properties.items()}
            label = name.removesuffix("." + HOST_TYPE)
            url = f"http://{info.parsed_addresses()[0]}:{info.port}/"
            hosts[label] = FoundHost(label, url, int(props.get("open_games") or 0),
                                     props.get("version", ""))
        return list(hosts.values())
    finally:
        browser.cancel()
        zc.close()
