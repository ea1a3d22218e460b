#!/usr/bin/env python3
"""Write the install locks: every package the host (`requirements/host.lock`) and the host
with its tests and the club's drivers (`requirements/all.lock`) install, each pinned to one
version with the SHA-256 of its file, so that `scripts/serve`, `scripts/test` and CI install
exactly what was tested (pip's `--require-hashes`) and nothing drifts with the index.

    .venv/bin/python scripts/lock.py        # after a change of pyproject.toml's pins
    python3 scripts/lock.py pick requirements/all.lock numba numpy llvmlite
                                            # those entries only (scripts/test's first step)

`pip lock` resolves pyproject.toml's requirements for this platform (Linux, CPython 3.11)
into a pylock.toml; this script turns each into a requirements file pip installs with
hashes. The project itself is left out: the scripts install it after, with `--no-deps`.
tests/test_locks.py checks that each lock holds pyproject.toml's own pins.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCKS = {"host.lock": ".", "all.lock": ".[test,club]"}


def requirements(pylock: dict) -> str:
    """A pylock.toml's packages as requirement lines with their hashes, by name."""
    out = []
    for pkg in sorted(pylock["packages"], key=lambda p: p["name"].lower()):
        if pkg["name"] == "cornerclaim":
            continue
        files = [*pkg.get("wheels", []), *([pkg["sdist"]] if "sdist" in pkg else [])]
        hashes = sorted({f["hashes"]["sha256"] for f in files})
        if not hashes:
            raise SystemExit(f"{pkg['name']} has no hash in the lock")
        lines = [f"{pkg['name']}=={pkg['version']}"] + [f"--hash=sha256:{h}" for h in hashes]
        out.append(" \\\n    ".join(lines))
    return "\n".join(out) + "\n"


def pick(lock: Path, names: list[str]) -> str:
    """The entries of `lock` (with their hashes) for the packages `names`."""
    entries = lock.read_text().split("\n")
    out, keep = [], False
    for line in entries:
        if line and not line.startswith((" ", "#")):
            keep = line.split("==")[0].lower() in {n.lower() for n in names}
        if keep:
            out.append(line)
    return "\n".join(out) + "\n"


def main() -> None:
    if sys.argv[1:2] == ["pick"]:
        sys.stdout.write(pick(Path(sys.argv[2]), sys.argv[3:]))
        return
    (ROOT / "requirements").mkdir(exist_ok=True)
    for name, spec in LOCKS.items():
        lock = ROOT / "pylock.scratch.toml"  # pip wants it beside the project, not below
        try:
            subprocess.run([sys.executable, "-m", "pip", "lock", "--quiet", spec, "-o",
                            str(lock)], cwd=ROOT, check=True)
            text = requirements(tomllib.loads(lock.read_text()))
        finally:
            lock.unlink(missing_ok=True)
        head = (f"# {name}: every package `pip install {spec}` installs, pinned with its hash.\n"
                "# Made by scripts/lock.py; never edited by hand.\n")
        (ROOT / "requirements" / name).write_text(head + text)
        print(f"requirements/{name}: {text.count('==')} packages")


if __name__ == "__main__":
    main()
