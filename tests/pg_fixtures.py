"""A throwaway PostgreSQL server for the tests: `postgres` (one per test session) and `pg_url`
(a fresh, empty database per test).

The server is scripts/throwaway.py's `PgServer`: Debian's PostgreSQL in a temporary folder on
a free loopback port, our child (SIGQUIT should this process die), stopped and its folder
deleted at the end of the session, so nothing is left running or on disk. Without the
binaries or psycopg the tests that need them are skipped (`scripts/test` installs both).
"""

from __future__ import annotations

import pytest

from scripts.throwaway import SERVER_USER, SUPERUSER, PgServer, bindir

__all__ = ["SERVER_USER", "SUPERUSER", "PgServer", "bindir", "pg_url", "postgres"]


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
