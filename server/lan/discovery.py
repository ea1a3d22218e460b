"""mDNS (zeroconf): announce the host on the LAN and find hosts from another machine.

Two services are registered: `_http._tcp.local.` named "Corner Claim on <hostname>" (so any
mDNS browser shows a clickable host; `_https._tcp.local.` for a host serving https) and
`_cornerclaim._tcp.local.` with TXT records (`version`, `api`, `open_games`, `scheme`: http or
https, and `host`, `host_name`: which host the process belongs to) for `cornerclaim
discover`. Names may change on a conflict (two hosts on one LAN), and both are unregistered
on shutdown. Registration runs in a child process, watched from a background thread: a slow
or broken multicast network never delays start-up, and zeroconf's own event loop never meets
the host's.

A club's host is several processes sharing one store (`serve --store postgresql://…`), on
one machine or several. Each process announces itself, under a name of its own
("Corner Claim on <hostname>:<port>", so processes started together never probe for the same
name), with the host's id (`EventStore.host_id`: made once and kept in the store, so the
same for every process on that database and across restarts) and the host's name. `discover`
groups what it finds by that id: one host, with every process's address.
"""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

HTTP_TYPE = "_http._tcp.local."
HTTPS_TYPE = "_https._tcp.local."
HOST_TYPE = "_cornerclaim._tcp.local."


def service_infos(name: str, address: str, port: int, *, version: str, open_games: int,
                  host_id: str | None = None, host_name: str | None = None,
                  interface_index: int | None = None, scheme: str = "http"):
    """The two ServiceInfo records announcing one host process (serving `scheme`)."""
    from zeroconf import ServiceInfo

    props = {"version": version, "api": "/api", "path": "/", "open_games": str(open_games),
             "scheme": scheme}
    if host_id:
        props |= {"host": host_id, "host_name": host_name or name}
    web_type = HTTPS_TYPE if scheme == "https" else HTTP_TYPE
    return [ServiceInfo(type_, f"{name}.{type_}", port=port, properties=props,
                        server=f"{socket.gethostname().split('.')[0]}.local.",
                        parsed_addresses=[address], interface_index=interface_index)
            for type_ in (web_type, HOST_TYPE)]


def _machine() -> str:
    return socket.gethostname().split(".")[0]


def identity(store, port: int, *, shared: bool) -> dict:
    """The Announcer's `name`, `host_id` and `host_name` for a process on `store`.

    A process that shares its store with others (`shared`: a club's database) is named
    "Corner Claim on <hostname>:<port>", the host "Corner Claim on <hostname>"; a home host
    keeps the one name. The host id is the store's (None if the store cannot say: the
    process is then announced as a host of its own)."""
    from server.store import StoreError

    host_name = f"Corner Claim on {_machine()}"
    try:
        host_id = store.host_id()
    except StoreError as e:
        log.warning("mDNS: the host's id could not be read (%s)", e)
        host_id = None
    name = f"{host_name}:{port}" if shared else host_name
    return {"name": name, "host_id": host_id, "host_name": host_name}


class Announcer:
    """Registers the host in the background; keeps `open_games` fresh; unregisters on stop.

    zeroconf runs in a child process (`python -m server.lan.discovery`, started with
    `subprocess`). It has its own asyncio loop and threads, which must not share a process
    with the host's gevent loop (zeroconf would take the monkey-patched loop for its own and
    skip blocking calls). The child registers, prints "registered", then applies each
    open-games count written to its stdin; when stdin closes — `stop()`, or the host killed —
    it unregisters and exits.
    """

    def __init__(self, address: str, port: int, *, version: str,
                 open_games: Callable[[], int], name: str | None = None,
                 interfaces: list[str] | None = None, refresh: float = 15.0,
                 host_id: str | None = None, host_name: str | None = None,
                 scheme: str = "http") -> None:
        self.address = address
        self.port = port
        self.scheme = scheme
        self.version = version
        self.open_games = open_games
        self.name = name or f"Corner Claim on {_machine()}"
        self.host_id = host_id
        self.host_name = host_name
        self.interfaces = interfaces
        self.refresh = refresh
        self.registered = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mdns", daemon=True)
        self._process: subprocess.Popen | None = None

    def start(self) -> Announcer:
        self._thread.start()
        return self

    def _run(self) -> None:
        count = self.open_games()
        spec = {"name": self.name, "address": self.address, "port": self.port,
                "version": self.version, "open_games": count, "interfaces": self.interfaces,
                "host_id": self.host_id, "host_name": self.host_name, "scheme": self.scheme}
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "server.lan.discovery", json.dumps(spec)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                cwd=Path(__file__).resolve().parents[2])
        except OSError as e:
            log.warning("mDNS unavailable (%s); phones can still scan the QR code", e)
            return
        child = self._process
        try:
            if child.stdout.readline().strip() == "registered":
                self.registered.set()
            while not self._stop.wait(self.refresh):
                now = self.open_games()
                if now != count:
                    count = now
                    child.stdin.write(f"{count}\n")
                    child.stdin.flush()
        except OSError:
            log.warning("the mDNS process ended; phones can still scan the QR code")
        finally:
            try:
                child.stdin.close()  # the child unregisters and exits
            except OSError:
                pass

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if self._process is not None:
            try:
                self._process.wait(timeout)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()


def announce(spec: dict, lines, out) -> None:
    """The mDNS child: register both services, follow the counts read from `lines`,
    unregister when they end."""
    from zeroconf import InterfaceChoice, Zeroconf

    try:
        zc = Zeroconf(interfaces=spec["interfaces"] or InterfaceChoice.All)
    except OSError as e:
        log.warning("mDNS unavailable (%s); phones can still scan the QR code", e)
        return
    args = (spec["name"], spec["address"], spec["port"])
    fixed = {"version": spec["version"], "host_id": spec.get("host_id"),
             "host_name": spec.get("host_name"), "scheme": spec.get("scheme", "http")}
    infos = service_infos(*args, open_games=spec["open_games"], **fixed)
    try:
        for info in infos:
            zc.register_service(info, allow_name_change=True)
        print("registered", file=out, flush=True)
        for line in lines:
            fresh = service_infos(*args, open_games=int(line), **fixed)
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
    """A host found on the LAN: its name, the address of each of its processes (`url` is the
    first of `urls`; a home host has one), its open games and version."""

    name: str
    url: str
    open_games: int
    version: str
    urls: list[str] = field(default_factory=list)
    host_id: str | None = None


@dataclass
class _Process:
    label: str
    url: str
    props: dict[str, str]


def discover(seconds: float = 3.0, *, interfaces: list[str] | None = None) -> list[FoundHost]:
    """Browse `_cornerclaim._tcp.local.` for `seconds`; the hosts found, by name, each
    process of one host (the same `host` id) grouped under it."""
    from zeroconf import InterfaceChoice, ServiceBrowser, ServiceStateChange, Zeroconf

    zc = Zeroconf(interfaces=interfaces or InterfaceChoice.All)
    names: set[str] = set()

    def seen(zeroconf, service_type, name, state_change):
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            names.add(name)

    browser = ServiceBrowser(zc, HOST_TYPE, handlers=[seen])
    try:
        time.sleep(seconds)
        found = []
        for name in sorted(names):
            info = zc.get_service_info(HOST_TYPE, name, timeout=1500)
            if info is None or not info.parsed_addresses():
                continue
            props = {k.decode(): (v or b"").decode() for k, v in info.properties.items()}
            found.append(_Process(name.removesuffix("." + HOST_TYPE),
                                  url_of(info.parsed_addresses()[0], info.port, props), props))
        return group(found)
    finally:
        browser.cancel()
        zc.close()


def url_of(address: str, port: int, props: dict[str, str]) -> str:
    """The URL a process announced: https if its `scheme` says so, else http (a host from
    before the record had one)."""
    scheme = "https" if props.get("scheme") == "https" else "http"
    host = f"[{address}]" if ":" in address else address
    return f"{scheme}://{host}:{port}/"


def group(processes: list[_Process]) -> list[FoundHost]:
    """One FoundHost per host id (a process announcing none is a host of its own), by name:
    named by its `host_name`, its addresses sorted, the most open games any process counts
    (they share their games; a count can lag by a refresh)."""
    by_host: dict[str, list[_Process]] = {}
    for p in processes:
        by_host.setdefault(p.props.get("host") or f"name:{p.label}", []).append(p)
    hosts = []
    for key, members in by_host.items():
        members.sort(key=lambda p: p.url)
        first = min(members, key=lambda p: p.label)
        name = min(p.props.get("host_name") or p.label for p in members)
        urls = list(dict.fromkeys(p.url for p in members))
        hosts.append(FoundHost(name, urls[0], max(int(p.props.get("open_games") or 0)
                                                  for p in members),
                               first.props.get("version", ""), urls,
                               None if key.startswith("name:") else key))
    return sorted(hosts, key=lambda h: (h.name, h.url))


if __name__ == "__main__":  # the Announcer's child: python -m server.lan.discovery SPEC_JSON
    announce(json.loads(sys.argv[1]), sys.stdin, sys.stdout)
