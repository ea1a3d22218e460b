"""Throwaway servers on the loopback address, for the tests and the load test: PostgreSQL
(`PgServer`) and Redis (`RedisServer`), each in a temporary folder on a free port, a child
that dies with the process that started it, and gone (process and folder) once closed.

Needs neither pytest nor the servers' client libraries (psycopg is imported only to talk to
a running PostgreSQL): tests/pg_fixtures.py and tests/redis_fixtures.py make pytest fixtures
of these, and scripts/loadtest.py starts them for a run of several host processes.

PostgreSQL is Debian's (`/usr/lib/postgresql/<version>/bin`, or `pg_config --bindir`),
initialised in the temporary folder, with its Unix socket there too. It refuses to run as
root, so under root it runs as `nobody` (the folder is handed to that user). It gets SIGQUIT
should its starter die (PR_SET_PDEATHSIG). Redis is Debian's `redis-server` with no
persistence at all (no RDB snapshots, no append-only file); it gets SIGKILL should its
starter die. Both `stop()` and `start()` again on the same port (an outage).
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

_PR_SET_PDEATHSIG = 1

#: The user PostgreSQL runs as when its starter runs as root.
SERVER_USER = "nobody"
SUPERUSER = "cornerclaim"


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


# -- PostgreSQL -----------------------------------------------------------------------------
def bindir() -> Path | None:
    """The folder of `initdb` and `postgres`, or None if PostgreSQL is not installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True)
    except OSError:
        return None
    path = Path(out.stdout.strip())
    return path if (path / "initdb").is_file() else None


class PgServer:
    """One PostgreSQL server in a temporary folder; `stop()` and `start()` again on the same
    port and data (an outage), `close()` to end it and delete everything."""

    #: Server settings (`-c name=value`): a throwaway server needs no durability;
    #: the load test turns it back on to measure what a club's database would do.
    settings = {"fsync": "off", "full_page_writes": "off", "max_connections": "100",
                "shared_buffers": "16MB"}

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        root = os.geteuid() == 0 and Path("/tmp").is_dir()  # a folder `nobody` can reach
        self.root = Path(tempfile.mkdtemp(prefix="cornerclaim-pg-", dir="/tmp" if root else None))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self._user: dict = {}
        if os.geteuid() == 0:
            entry = pwd.getpwnam(SERVER_USER)
            self._user = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.root.chmod(0o700)
        self._names = itertools.count(1)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{dbname}"

    def _run(self, *argv: str, **kw) -> subprocess.Popen:
        env = {"PATH": f"{self.bin}:/usr/bin:/bin", "LC_ALL": "C", "LANG": "C"}
        return subprocess.Popen([str(self.bin / argv[0]), *argv[1:]], cwd=self.root, env=env,
                                **self._user, **kw)

    def init(self) -> PgServer:
        done = self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust",
                         "-E", "UTF8", "--locale=C", "--no-sync",
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out, _ = done.communicate(timeout=120)
        if done.returncode:
            raise RuntimeError(f"initdb failed:\n{out}")
        return self

    def start(self, timeout: float = 60.0) -> None:
        """Start the postmaster and wait until it accepts connections."""
        assert self.process is None, "already running"
        log = open(self.log, "ab")  # noqa: SIM115 - the child holds it
        self.process = self._run(
            "postgres", "-D", str(self.data), "-p", str(self.port), "-h", "127.0.0.1",
            "-k", str(self.root),
            *(arg for name, value in self.settings.items() for arg in ("-c", f"{name}={value}")),
            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            preexec_fn=die_with_parent(signal.SIGQUIT))  # SIGQUIT: an immediate shutdown
        log.close()
        deadline = time.monotonic() + timeout
        while not self._ready():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self._kill()
                raise RuntimeError(f"postgres did not start:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.05)

    def _ready(self) -> bool:
        import psycopg

        try:
            psycopg.connect(self.url(), connect_timeout=1).close()
            return True
        except psycopg.OperationalError:
            return False

    def stop(self) -> None:
        """A fast shutdown (as `pg_ctl stop -m fast`): sessions are cut, the data is kept."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self._kill()
        self.process = None

    def crash(self) -> None:
        """An immediate shutdown (SIGQUIT): no checkpoint, as after a crash of the server;
        the next start recovers from its WAL."""
        if self.process is not None:
            self.process.send_signal(signal.SIGQUIT)
            self.process.wait(60)
            self.process = None

    def _kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def close(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def create_database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.rsplit("/", 1)[1]
        with contextlib.suppress(psycopg.OperationalError), \
                psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- Redis ----------------------------------------------------------------------------------
def binary() -> str | None:
    """The `redis-server` executable, or None if Redis is not installed."""
    return shutil.which("redis-server") or next(
        (p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if Path(p).is_file()),
        None)


class RedisServer:
    """One `redis-server` on 127.0.0.1 in a temporary folder, persisting nothing; `stop()` and
    `start()` again on the same port, `close()` to end it and delete the folder."""

    def __init__(self, executable: str, *, port: int | None = None) -> None:
        self.executable = executable
        self.root = Path(tempfile.mkdtemp(prefix="cornerclaim-redis-"))
        self.log = self.root / "server.log"
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def argv(self) -> list[str]:
        return [self.executable, "--bind", "127.0.0.1", "--port", str(self.port),
                "--dir", str(self.root), "--logfile", str(self.log),
                "--save", "", "--appendonly", "no", "--daemonize", "no",
                "--protected-mode", "yes", "--maxmemory", "256mb",
                "--maxmemory-policy", "noeviction"]

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and wait until it answers PING."""
        assert self.process is None, "already running"
        self.process = subprocess.Popen(self.argv(), cwd=self.root, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        preexec_fn=die_with_parent(signal.SIGKILL))
        deadline = time.monotonic() + timeout
        while not self.ping():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                log = self.log.read_text()[-3000:] if self.log.exists() else ""
                raise RuntimeError(f"redis-server did not start on port {self.port}:\n{log}")
            time.sleep(0.02)

    def ping(self) -> bool:
        """Whether the server answers PING (a plain RESP exchange, no client library)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """SIGTERM: the server closes its clients and exits (it saves nothing)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def kill(self) -> None:
        """SIGKILL, as a crash."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    @contextlib.contextmanager
    def down(self, *, crash: bool = True):
        """An outage for the length of the `with` block: killed (SIGKILL, or SIGTERM with
        `crash=False`) on entry, started again on the same port on exit, empty."""
        self.kill() if crash else self.stop()
        try:
            yield self
        finally:
            self.start()

    def close(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()
