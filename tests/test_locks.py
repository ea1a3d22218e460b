"""The install locks (requirements/*.lock, made by scripts/lock.py) hold exactly what
pyproject.toml pins, every package with a hash, and the set-up scripts install from them with
`--require-hashes`, so nothing the host or the tests run can drift with the package index."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def entries(lock: str) -> dict[str, tuple[str, list[str]]]:
    """name -> (version, its hashes)."""
    out = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", (ROOT / "requirements" / lock).read_text()):
        if block.startswith("#"):
            block = "\n".join(line for line in block.splitlines() if not line.startswith("#"))
        if not block.strip():
            continue
        first = block.split()[0]
        name, version = first.split("==")
        hashes = re.findall(r"--hash=sha256:(\w{64})", block)
        out[name.lower().replace("_", "-")] = (version, hashes)
    return out


def pins(*groups: str) -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = list(project["dependencies"])
    for g in groups:
        deps += project["optional-dependencies"][g]
    got = {}
    for dep in deps:
        m = re.match(r"([A-Za-z0-9_.-]+)(\[[^\]]*\])?==([^\s;]+)", dep)
        assert m, f"pyproject.toml: {dep!r} is not pinned to one version"
        got[m.group(1).lower().replace("_", "-")] = m.group(3)
    return got


def test_each_lock_holds_the_project_s_pins_and_every_package_has_a_hash():
    for lock, groups in (("host.lock", ()), ("all.lock", ("test", "club"))):
        locked = entries(lock)
        assert "cornerclaim" not in locked
        for name, version in pins(*groups).items():
            assert locked.get(name, ("missing",))[0] == version, (lock, name, version)
        for name, (_, hashes) in locked.items():
            assert hashes, (lock, name)


def test_the_host_s_lock_is_a_part_of_the_whole_one():
    host, everything = entries("host.lock"), entries("all.lock")
    assert {n: v for n, (v, _) in host.items()} == {
        n: everything[n][0] for n in host}


def test_the_set_up_scripts_install_from_the_locks_with_hashes():
    serve = (ROOT / "scripts" / "serve").read_text()
    setup = (ROOT / "scripts" / "test").read_text()
    assert "--require-hashes -r requirements/host.lock" in serve
    assert "--require-hashes -r requirements/all.lock" in setup
    for script in (serve, setup):
        installs = re.findall(r"pip install[^\n]*", script)
        assert any("--no-deps -e ." in line for line in installs)
        for line in installs:  # the project without its deps; any other package with hashes
            assert "--no-deps -e ." in line or "--require-hashes" in line \
                or re.fullmatch(r"pip install --quiet pip==[\d.]+", line), line
