"""Property-based API testing: schemathesis generates requests from /api/openapi.json and sends
them in-process (WSGI) to a real host on a real SQLite file. No input may cause a 5xx, and
every answer must match the documented schemas (bodies, status codes, content types)."""

from __future__ import annotations

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

from server.app import create_app, shutdown_app


@pytest.fixture(scope="module")
def host_app(tmp_path_factory):
    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("fuzz")), "START_BOTS": False})
    c = app.test_client()
    g = c.post("/api/games", json={"variant": "duo", "seats": [{"kind": "local"}] * 2}).json
    c.post(f"/api/games/{g['id']}/moves", json={"seat": 1, "move": "e9,d10,e10,f10,e11",
                                                "seq": 1},
           headers={"Authorization": f"Bearer {g['tokens']['1']}"})
    app.config["KNOWN_GAME"] = g["id"]
    yield app
    shutdown_app(app)


@pytest.fixture(scope="module")
def api_schema(host_app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", host_app)


def test_no_input_makes_the_host_fail(api_schema, host_app):
    """Each operation in turn (schemathesis' pytest plugin does not support pytest 9 yet, so
    the operations' hypothesis strategies are driven directly)."""
    checks = [not_a_server_error, status_code_conformance, content_type_conformance,
              response_schema_conformance]
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15
    for operation in operations:

        @given(case=operation.as_strategy(), known=st.booleans())
        @settings(max_examples=25, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def check(case, known):
            if known and "game_id" in (case.path_parameters or {}):
                case.path_parameters["game_id"] = host_app.config["KNOWN_GAME"]
            case.call_and_validate(checks=checks)

        check()
