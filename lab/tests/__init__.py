"""Tests of the lab's tools (not part of the CI suite: `.venv/bin/python -m pytest lab/tests`)."""

import importlib.util
import sys
from pathlib import Path

LAB = Path(__file__).resolve().parent.parent


def tool(name: str):
    """Import lab/<name>.py as a module of its own name (as the tools run as scripts)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, LAB / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
