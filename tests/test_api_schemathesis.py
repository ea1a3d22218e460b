"""Property-based API testing: schemathesis generates requests from /api/openapi.json and sends
them in-process (WSGI) to a real host on a real SQLite file. No input may cause a 5xx, and
every answer must match the documented schemas (bodies, status codes, content types).

The document also states what the host enforces: `schemathesis run --checks all` against a
live host finds no request the document allows that the host refuses, nor the reverse, and
every new game the document allows is created."""

from __future__ import annotations

import importlib
import pkgutil
import random
import subprocess
import sys
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from engine.marbles.board import random_setup
from server.app import create_app, shutdown_app
from tests.server_fixtures import live, make_app  # noqa: F401 - the fixtures


def _load_every_module(package) -> None:
    """Import each module of `package` now, at collection, not first inside a generated case:
    pytest rewrites schemathesis's modules as they are imported (it is a pytest plugin), and
    CPython 3.11's parser can fail that on the deep stack of a running case ("AST
    constructor recursion depth mismatch"); schemathesis imports many of them lazily."""
    for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            importlib.import_module(found.name)
        except Exception:  # noqa: BLE001, S112 - an optional extra it does not have here
            continue


_load_every_module(schemathesis)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


def fuzz_host(data_dir) -> object:
    """A host with one known game a move in. No write limit: the fuzzer is one client
    sending hundreds of writes a second, and 429s would stop it reaching the code."""
    app = create_app({"DATA_DIR": str(data_dir), "START_BOTS": False, "WRITE_RATE": None})
    c = app.test_client()
    g = c.post("/api/games", json={"variant": "duo", "seats": [{"kind": "local"}] * 2}).json
    c.post(f"/api/games/{g['id']}/moves", json={"seat": 1, "move": "e9,d10,e10,f10,e11",
                                                "seq": 1},
           headers={"Authorization": f"Bearer {g['tokens']['1']}"})
    app.config["KNOWN_GAME"] = g["id"]
    return app


def fuzz(app, examples: int, only: set[str] | None = None) -> dict[str, int]:
    """Up to `examples` generated requests per operation, each checked; the number sent per
    operation. Schemathesis' pytest plugin does not support pytest 9 yet, so each
    operation's hypothesis strategy is driven directly. Raises on the first failure."""
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    sent: dict[str, int] = {}
    for operation in operations:
        label = f"{operation.method.upper()} {operation.path}"
        if only is not None and label not in only:
            continue
        sent[label] = 0
        _fuzz_one(app, operation, examples, label, sent)
    return sent


def _fuzz_one(app, operation, examples: int, label: str, sent: dict[str, int]) -> None:
    @given(case=operation.as_strategy(), known=st.booleans())
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(case, known):
        if known and "game_id" in (case.path_parameters or {}):
            case.path_parameters["game_id"] = app.config["KNOWN_GAME"]
        sent[label] += 1
        # In-process (WSGI) answers reach schemathesis as sent, never decoded: ask for them
        # uncompressed (the host compresses the catalog for a browser that takes it).
        case.call_and_validate(checks=CHECKS, headers={"Accept-Encoding": "identity"})

    check()


@pytest.fixture(scope="module")
def host_app(tmp_path_factory):
    app = fuzz_host(tmp_path_factory.mktemp("fuzz"))
    yield app
    shutdown_app(app)


def test_no_input_makes_the_host_fail(host_app):
    """Each operation in turn, 25 cases each (scripts/fuzz_api.py runs 5,000 in all)."""
    sent = fuzz(host_app, 25)
    assert len(sent) >= 15 and sum(sent.values()) >= 15 * 10


REPO = Path(__file__).resolve().parent.parent
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


def schemathesis_cli(url: str, *extra: str, **kwargs) -> subprocess.CompletedProcess:
    """`schemathesis run URL/api/openapi.json --checks all` from the repository (so it reads
    its schemathesis.toml), without a generation database."""
    return subprocess.run(
        [str(SCHEMATHESIS), "run", f"{url}/api/openapi.json", "--checks", "all",
         "--generation-database", "none", *extra], cwd=REPO, **kwargs)


def test_the_document_states_what_the_host_enforces(live):  # noqa: F811 - the fixture
    """`schemathesis run --checks all` (every check: server errors, schema-valid requests
    refused, schema-invalid ones accepted, ...) against a live host, a few cases per
    operation, without the coverage phase's thousands of boundary cases (~30 s;
    scripts/fuzz_api.py --cli runs every phase at full size)."""
    host = live(WRITE_RATE=None, START_BOTS=False)
    run = schemathesis_cli(host.url, "--max-examples", "3", "--seed", "48",
                           "--phases", "examples,fuzzing,stateful",
                           capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-2000:]


def test_a_405_names_the_methods_the_path_takes(host_app):
    """RFC 9110: a 405 carries Allow (what the coverage phase's undeclared methods check)."""
    r = host_app.test_client().open("/api/games", method="TRACE")
    assert r.status_code == 405 and r.json["error"]["code"] == "method_not_allowed"
    assert set(r.headers["Allow"].split(", ")) >= {"GET", "POST"}
    assert r.headers["Content-Type"] == "application/json"


def full_setups(body, rng: random.Random):
    """`body` with each marble setup it gives a full set, and no more of them than rounds,
    and a Corners set-up position (a text the schema allows) the variant's start: what the
    schema says in words only (docs/api.md)."""
    if not isinstance(body, dict):
        return body
    options = body.get("options") if isinstance(body.get("options"), dict) else {}
    if isinstance(options.get("setup"), str):
        options["setup"] = ""
    rounds = body.get("rounds", options.get("rounds", 2))
    for holder in (body, options):
        if isinstance(holder.get("setups"), list):
            holder["setups"] = [random_setup(rng) for _ in holder["setups"][:rounds]]
    return body


def test_every_new_game_the_document_allows_is_created(tmp_path):
    """Bodies drawn from POST /api/games' schema (every game, variant, seat count, seat kind,
    level, name and option it allows): the host creates each one."""
    app = create_app({"DATA_DIR": str(tmp_path), "START_BOTS": False, "WRITE_RATE": None,
                      "MAX_GAMES": 10_000})
    try:
        schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
        operation = schema["/api/games"]["POST"]
        rng = random.Random(48)
        answers: list[int] = []

        @given(case=operation.as_strategy())
        @settings(max_examples=15, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def check(case):
            case.body = full_setups(case.body, rng)
            response = case.call()
            answers.append(response.status_code)
            assert response.status_code == 201, (case.body, response.json())

        check()
        assert len(answers) >= 10
    finally:
        shutdown_app(app)
