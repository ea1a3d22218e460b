"""mDNS (zeroconf): announce the host on the LAN and find hosts from another machine.

Two services are registered: `_http._tcp.local.` named "Corner Claim on <hostname>" (so any
mDNS browser shows a clickable host) and `_cornerclaim._tcp.local.` with TXT records
(`version`, `api`, `open_games`) for `cornerclaim discover`. Names may change on a conflict
(two hosts on one LAN), and both are unregistered on shutdown. Registration runs in a
background thread: a slow or broken multicast network never delays start-up.
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
    """Registers the host in the background; keeps `open_games` fresh; unregisters on stop."""

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

    def start(self) -> Announcer:
        self._thread.start()
        return self

    def _run(self) -> None:
        from zeroconf import InterfaceChoice, Zeroconf

        try:
            zc = Zeroconf(interfaces=self.interfaces or InterfaceChoice.All)
        except OSError as e:
            log.warning("mDNS unavailable (%s); phones can still scan the QR code", e)
            return
        count = self.open_games()
        infos = service_infos(self.name, self.address, self.port, version=self.version,
                              open_games=count)
        try:
            for info in infos:
                zc.register_service(info, allow_name_change=True)
            self.registered.set()
            while not self._stop.wait(self.refresh):
                now = self.open_games()
                if now != count:
                    count = now
                    for info, fresh in zip(infos, self._fresh(infos, count), strict=True):
                        fresh.name = info.name
                        zc.update_service(fresh)
        except Exception:
            log.exception("mDNS registration failed")
        finally:
            try:
                zc.unregister_all_services()
            finally:
                zc.close()

    def _fresh(self, infos, count: int):
        return service_infos(self.name, self.address, self.port, version=self.version,
                             open_games=count)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)


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
