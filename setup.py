"""The build's one hook: a built wheel carries the phone UI.

pyproject.toml declares the project; this file only adds a step to setuptools' build_py. It
copies the phone UI from client_web/ (its pages, styles and scripts) and the npm scripts it
loads, which `npm ci` installed there from client_web/package-lock.json (the Socket.IO client
and NoSleep.js, the phone's keep-awake), into the build's `cornerclaim` package, as
cornerclaim/client_web/ (same layout, so the host serves it unchanged), and so an installed
host serves the game with no checkout and no npm. The copy is made in the build
folder only: the source tree never holds it. An editable install (`pip install -e .`) copies
nothing, since the host then serves the checkout's client_web/ itself.

A build without those npm packages, or with a version other than the lockfile's, stops with
a message saying to run `npm ci` in client_web/.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.errors import SetupError

HERE = Path(__file__).resolve().parent
CLIENT = HERE / "client_web"
TARGET = Path("cornerclaim", "client_web")  # inside the build folder, hence the wheel
NOT_SERVED = {"package.json", "package-lock.json"}  # npm's, not the phone's
#: The npm packages the host serves, each with the files of it the wheel carries.
NPM_FILES = {
    "socket.io-client": (Path("dist", "socket.io.min.js"), Path("LICENSE")),
    "nosleep.js": (Path("dist", "NoSleep.min.js"), Path("LICENSE")),
}


def client_files() -> list[Path]:
    """The phone UI's files, relative to client_web/: all it holds (pages, styles, scripts,
    icons) but npm's files and hidden ones, and the served npm packages' scripts and licences
    from node_modules/ (checked against the lockfile)."""
    if not (CLIENT / "index.html").is_file():
        raise SetupError(f"{CLIENT} has no index.html: the wheel would carry no phone UI")
    own = sorted(rel for rel in (p.relative_to(CLIENT) for p in CLIENT.rglob("*") if p.is_file())
                 if rel.parts[0] != "node_modules" and rel.name not in NOT_SERVED
                 and not any(part.startswith(".") for part in rel.parts))
    return own + [f for name, files in NPM_FILES.items() for f in npm_files(name, files)]


def npm_files(name: str, files: tuple[Path, ...]) -> list[Path]:
    """`files` of the npm package `name` as `npm ci` installed it, relative to client_web/;
    stops the build if it is missing or not the lockfile's version."""
    folder = Path("node_modules", name)
    locked = json.loads((CLIENT / "package-lock.json").read_text())["packages"][
        folder.as_posix()]["version"]
    installed = CLIENT / folder / "package.json"
    missing = [f for f in files if not (CLIENT / folder / f).is_file()]
    if missing or not installed.is_file():
        raise SetupError(
            f"{name} {locked} is not installed in {CLIENT / 'node_modules'}: "
            "run `npm ci` in client_web/ before building the wheel (it carries that package)")
    version = json.loads(installed.read_text())["version"]
    if version != locked:
        raise SetupError(
            f"client_web/node_modules holds {name} {version}, the lockfile says "
            f"{locked}: run `npm ci` in client_web/ before building the wheel")
    return [folder / f for f in files]


class BuildPyWithClient(build_py):
    """setuptools' build_py, then the phone UI copied into the build's cornerclaim package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for rel in client_files():
            target = Path(self.build_lib) / TARGET / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(CLIENT / rel, target)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if getattr(self, "editable_mode", False):
            return outputs
        return outputs + [str(Path(self.build_lib) / TARGET / rel) for rel in client_files()]


setup(cmdclass={"build_py": BuildPyWithClient})
