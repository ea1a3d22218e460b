import json
from pathlib import Path

import pytest

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
