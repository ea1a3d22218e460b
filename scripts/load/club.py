"""A club's servers for the load test: a throwaway PostgreSQL and Redis (scripts/throwaway.py)
beside several host processes, and what they cost while they run."""

from __future__ import annotations

from ..throwaway import PgServer, RedisServer, binary, bindir
from .hosts import cpu_seconds, descendants, proc_status, pss_mb


class ClubServers:
    """A throwaway PostgreSQL server with one database and, with `redis`, a throwaway Redis,
    both on 127.0.0.1, started by scripts/throwaway.py and gone (processes and folders) when
    the `with` block ends. PostgreSQL runs durable (`fsync`, `full_page_writes` on), as a
    club's database would (`fsync=False`: as the tests' server, to see what the disk costs)."""

    def __init__(self, *, redis: bool, max_connections: int = 100, fsync: bool = True) -> None:
        found = bindir()
        if found is None:
            raise SystemExit("PostgreSQL is not installed (scripts/test installs Debian's "
                             "postgresql)")
        self.pg = PgServer(found)
        durable = "on" if fsync else "off"
        self.pg.settings = {**self.pg.settings, "fsync": durable, "full_page_writes": durable,
                            "max_connections": str(max_connections)}
        self.redis = None
        if redis:
            executable = binary()
            if executable is None:
                raise SystemExit("Redis is not installed (scripts/test installs Debian's "
                                 "redis-server)")
            self.redis = RedisServer(executable)
        self.store_url = ""

    def __enter__(self) -> ClubServers:
        try:
            self.pg.init().start()
            self.store_url = self.pg.create_database()
            if self.redis is not None:
                self.redis.start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self.redis is not None:
                self.redis.close()
        finally:
            self.pg.close()

    @property
    def queue_url(self) -> str | None:
        return self.redis.url if self.redis is not None else None

    def sessions(self) -> int:
        """Connections the database has accepted since it started (this probe's included)."""
        import psycopg

        try:
            with psycopg.connect(self.store_url, connect_timeout=2) as conn:
                return conn.execute("SELECT sessions FROM pg_stat_database"
                                    " WHERE datname = current_database()").fetchone()[0]
        except psycopg.Error:
            return 0

    def connections(self) -> int:
        """The host processes' connections to the database now (this probe's not counted)."""
        import psycopg

        try:
            with psycopg.connect(self.store_url, connect_timeout=2) as conn:
                return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname ="
                                    " current_database() AND pid <> pg_backend_pid()"
                                    ).fetchone()[0]
        except psycopg.Error:
            return 0

    def rows(self) -> list[dict]:
        """A row of the process table each for PostgreSQL and Redis (while they run)."""
        rows = []
        if self.pg.process is not None:
            tree = descendants(self.pg.process.pid)
            cpu = cpu_seconds(self.pg.process.pid, children=True) + sum(
                cpu_seconds(p) for p in tree[1:])
            rows.append({"process": f"postgres ({len(tree)} processes)", "port": self.pg.port,
                         "peak_rss_mb": None, "rss_mb": None, "pss_mb": pss_mb(tree),
                         "cpu_s": cpu})
        if self.redis is not None and self.redis.process is not None:
            pid = self.redis.process.pid
            rows.append({"process": "redis-server", "port": self.redis.port,
                         "peak_rss_mb": proc_status(pid, "VmHWM") / 1024,
                         "rss_mb": proc_status(pid, "VmRSS") / 1024,
                         "pss_mb": pss_mb([pid]), "cpu_s": cpu_seconds(pid)})
        return rows
