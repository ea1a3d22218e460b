import json
import sys
from pathlib import Path

import pytest

from tests.pg_fixtures import pg_url, postgres  # noqa: F401 - PostgreSQL for the store tests
from tests.redis_fixtures import redis_server, redis_url  # noqa: F401 - Redis for the club tests

DATA = Path(__file__).parent / "data"
PENTOBI = DATA / "pentobi"
COLOR_SEAT = {"b": 1, "w": 2, "1": 1, "2": 2, "3": 3, "4": 4}


def pentobi_records():
    return sorted(PENTOBI.glob("*.json"))


def load_record(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture(autouse=True)
def _test_games_registered():
    """A test-only game a test module imported is registered for each of its tests, even
    after an earlier test withdrew it."""
    game = sys.modules.get("tests.games.tictactoe")
    if game is not None:
        game.register()
