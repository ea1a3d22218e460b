"""A throwaway PostgreSQL server for the tests: `postgres` (one per test session) and `pg_url`
(a fresh, empty database per test).

The server is Debian's (`/usr/lib/postgresql/<version>/bin`, or `pg_config --bindir`),
initialised in a temporary folder and listening on a free loopback port, with its Unix socket
in the same folder. PostgreSQL refuses to run as root, so under root it runs as `nobody`
(the folder is handed to that user). The postmaster is our child and gets SIGQUIT should
this process die (PR_SET_PDEATHSIG), and at the end of the session it is stopped and the
folder deleted: nothing is left running or on disk. Without the binaries or psycopg the tests
that need them are skipped (`scripts/test` installs both).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.throwaway import die_with_parent, free_port

#: The user the server runs as when the tests run as root.
SERVER_USER = "nobody"
SUPERUSER = "cornerclaim"


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
    #: scripts/loadtest.py turns it back on to measure what a club's database would do.
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


@pytest.fixture(scope="session")
def postgres():
    """The session's PostgreSQL server (skips the test if PostgreSQL or psycopg is missing)."""
    pytest.importorskip("psycopg", reason="psycopg is in the club extra (scripts/test)")
    found = bindir()
    if found is None:
        pytest.skip("PostgreSQL is not installed (scripts/test installs Debian's postgresql)")
    server = PgServer(found).init()
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def pg_url(postgres):
    """The URL of a fresh, empty database on the session's server; dropped afterwards. A test
    that stopped the server has it started again first."""
    url = postgres.create_database()
    yield url
    if postgres.process is None:
        postgres.start()
    postgres.drop_database(url)
