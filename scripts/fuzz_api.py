#!/usr/bin/env python3
"""schemathesis over /api/openapi.json at scale: `--cases` generated requests in all (5,000
by default), spread over every operation, sent in-process to a real host on a real SQLite
file. Any 5xx, undocumented status, wrong content type or answer that does not match its
schema stops the run with the failing request. The CI-sized run (25 per operation) is
tests/test_api_schemathesis.py, whose driver this script reuses.

`--cli` instead runs `schemathesis run --checks all` at its full size (every phase, 100
cases per operation) against a host served on a free loopback port: every check, including
schema-valid requests the host refuses and schema-invalid ones it accepts. It passes when
schemathesis reports no failure (about 5 minutes).

    .venv/bin/python scripts/fuzz_api.py --cases 5000
    .venv/bin/python scripts/fuzz_api.py --cli
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from server.app import shutdown_app  # noqa: E402
from tests.test_api_schemathesis import fuzz, fuzz_host, schemathesis_cli  # noqa: E402


def cli() -> int:
    """schemathesis' own run, every check, against a live host; its exit status."""
    import threading

    from werkzeug.serving import make_server

    from server.app import create_app

    with tempfile.TemporaryDirectory(prefix="cc-fuzz-") as tmp:
        app = create_app({"DATA_DIR": tmp, "START_BOTS": False, "WRITE_RATE": None})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            return schemathesis_cli(f"http://127.0.0.1:{server.port}").returncode
        finally:
            server.shutdown()
            shutdown_app(app)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--cli", action="store_true",
                        help="run schemathesis' own command, every check, at full size")
    args = parser.parse_args(argv)
    if args.cli:
        return cli()
    with tempfile.TemporaryDirectory(prefix="cc-fuzz-") as tmp:
        app = fuzz_host(tmp)
        try:
            import schemathesis

            n_ops = len(list(schemathesis.openapi.from_wsgi("/api/openapi.json", app)
                             .get_all_operations()))
            per_op = math.ceil(args.cases / n_ops)
            started = time.monotonic()
            sent = fuzz(app, per_op)
            while sum(sent.values()) < args.cases:  # some operations have few inputs
                busy = {label for label, n in sent.items() if n >= per_op}
                more = fuzz(app, math.ceil((args.cases - sum(sent.values())) / len(busy)),
                            only=busy)
                for label, n in more.items():
                    sent[label] += n
        finally:
            shutdown_app(app)
    for label, n in sorted(sent.items()):
        print(f"{n:6d}  {label}")
    print(f"{sum(sent.values())} requests over {len(sent)} operations in "
          f"{time.monotonic() - started:.0f} s: no server error, every answer as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
