"""The machinery of scripts/loadtest.py, which scripts/crashtest.py and tests/test_load.py
use too: the host as a process (`hosts`), a club's PostgreSQL and Redis (`club`), the phones
at their tables (`tables`) and the figures (`report`)."""
