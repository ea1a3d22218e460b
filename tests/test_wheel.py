"""The wheel as a Python user installs it: built from the sdist (as `python -m build` does),
installed into a fresh virtual environment, and run from there, away from the checkout.

The new environment gets the product only from the wheel (`pip install --no-deps`); its
dependencies come from the project's own environment through a .pth file added after the
install, so the test needs no network and no second copy of numba or gevent. It runs in a
temporary folder, so nothing of the checkout is on sys.path; the first test checks that.
The build uses the project environment's setuptools (no build isolation). setuptools lays
the sdist's files out in a folder of the checkout (`cornerclaim-<version>/`), so the suite's
workers, each of which may run this module's fixture, build it one at a time under a lock
and share the one sdist.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixture browser (Debian's Chromium)
from tests.server_fixtures import DEADLINE, host_answers
from tests.test_api import PLUS
from tests.throwaway import free_port

REPO = Path(__file__).resolve().parent.parent
SOCKET_IO = REPO / "client_web" / "node_modules" / "socket.io-client" / "dist" / "socket.io.min.js"
NOSLEEP = REPO / "client_web" / "node_modules" / "nosleep.js" / "dist" / "NoSleep.min.js"
BUILD_SDIST = "import sys; from setuptools import build_meta as b; b.build_sdist(sys.argv[1])"
BUILD_WHEEL = "import sys; from setuptools import build_meta as b; b.build_wheel(sys.argv[1])"
# The environment of a user's shell: nothing points Python at the checkout.
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def run(cmd: list, cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, env=ENV, capture_output=True,
                            text=True, timeout=300)
    if check and result.returncode != 0:
        raise AssertionError(f"{cmd} failed:\n{result.stdout}\n{result.stderr}")
    return result



class Installed:
    """A virtual environment with the wheel installed, and a folder outside the checkout."""

    def __init__(self, venv: Path, cwd: Path) -> None:
        self.venv = venv
        self.cwd = cwd
        self.python = venv / "bin" / "python"
        self.command = venv / "bin" / "cornerclaim"


def shared_sdist(shared: Path) -> Path:
    """The sdist, built once for the whole run in `shared` (the run's temporary folder, which
    its workers share): two builds at once in the checkout would race on setuptools' release
    folder."""
    out = shared / "sdist"
    with open(shared / "sdist.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not list(out.glob("cornerclaim-*.tar.gz")):
            run([sys.executable, "-c", BUILD_SDIST, out], cwd=REPO)
    [sdist] = out.glob("cornerclaim-*.tar.gz")
    return sdist


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    if not SOCKET_IO.exists():
        pytest.skip("client_web/node_modules is missing (scripts/test runs npm ci)")
    tmp = tmp_path_factory.mktemp("wheel")
    run_temp = tmp_path_factory.getbasetemp()  # a worker's own folder under the run's
    sdist = shared_sdist(run_temp.parent if os.environ.get("PYTEST_XDIST_WORKER") else run_temp)
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "-w", tmp / "dist", sdist], cwd=tmp)
    [wheel] = (tmp / "dist").glob("cornerclaim-*.whl")
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp)
    run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "-q",
         "--no-deps", "--no-index", wheel], cwd=tmp)
    # The dependencies, after the wheel's own packages on sys.path. Written after the install,
    # so that pip saw an empty environment (not the checkout's editable install).
    site = Path(run([venv / "bin" / "python", "-c",
                     "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                    cwd=tmp).stdout.strip())
    ours = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (site / "project-dependencies.pth").write_text("".join(f"{p}\n" for p in ours))
    cwd = tmp / "elsewhere"
    cwd.mkdir()
    return Installed(venv, cwd)


def test_the_product_code_and_the_phone_ui_come_from_the_wheel(installed):
    probe = ("import json, cornerclaim, engine, gtp, replays, server, server.app as app; "
             "print(json.dumps({'modules': [m.__file__ for m in "
             "(cornerclaim, engine, gtp, replays, server)], 'client': str(app.CLIENT_DIR)}))")
    found = json.loads(run([installed.python, "-c", probe], cwd=installed.cwd).stdout)
    venv = str(installed.venv.resolve())
    for path in found["modules"]:
        assert path.startswith(venv), f"{path} is not the wheel's"
    client = Path(found["client"])
    assert client.is_relative_to(venv) and client.parts[-2:] == ("cornerclaim", "client_web")
    # Every file of the checkout's phone UI (npm's own files aside), byte for byte.
    checkout = REPO / "client_web"
    ui = {p.relative_to(checkout) for p in checkout.rglob("*") if p.is_file()
          and "node_modules" not in p.relative_to(checkout).parts
          and p.name not in ("package.json", "package-lock.json")}
    carried = {p.relative_to(client) for p in client.rglob("*") if p.is_file()
               and "node_modules" not in p.relative_to(client).parts}
    assert Path("index.html") in ui and carried == ui
    installable = {Path("manifest.webmanifest"), Path("icons/icon-192.png"),
                   Path("icons/icon-512.png"), Path("icons/apple-touch-icon.png")}
    assert installable <= carried  # "Add to Home screen" works from an installed host
    assert all((client / f).read_bytes() == (checkout / f).read_bytes() for f in ui)
    socket_io = client / "node_modules" / "socket.io-client" / "dist" / "socket.io.min.js"
    assert socket_io.read_bytes() == SOCKET_IO.read_bytes()  # the lockfile's, as npm ci put it
    nosleep = client / "node_modules" / "nosleep.js" / "dist" / "NoSleep.min.js"
    assert nosleep.read_bytes() == NOSLEEP.read_bytes()
    assert not (REPO / "cornerclaim" / "client_web").exists(), "the build wrote into the tree"


def test_python_m_cornerclaim_is_the_command(installed):
    result = run([installed.python, "-m", "cornerclaim", "--help"], cwd=installed.cwd)
    assert result.stdout.startswith("usage: cornerclaim ")
    for sub in ("serve", "discover", "replay", "gtp", "perft"):
        assert sub in result.stdout


@pytest.fixture
def installed_host(installed, tmp_path):
    """`cornerclaim serve` of the installed wheel on a free loopback port; its base URL."""
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen(
        [installed.command, "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir",
         tmp_path / "data", "--no-qr", "--no-mdns", "--bot-delay", "0.05"],
        cwd=installed.cwd, env=ENV, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True)  # its own process group: the bot workers stop with it
    url = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + DEADLINE
        while True:
            if host_answers(url):
                break
            if proc.poll() is not None or time.monotonic() > end:
                raise AssertionError((tmp_path / "serve.log").read_text())
            time.sleep(0.1)
        yield url
    finally:
        # SIGTERM stops a host cleanly (test_serve.py); the group is killed after a while, as
        # a fresh install's bot worker may still be compiling the search.
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(10)
        log.close()


def test_the_installed_host_serves_a_game_page_with_no_console_errors(installed_host, browser):
    url = installed_host
    index = requests.get(f"{url}/", timeout=10)
    assert index.ok and "not installed" not in index.text and "<script" in index.text
    script = requests.get(f"{url}/vendor/socket.io.min.js", timeout=10)
    assert script.ok and script.content == SOCKET_IO.read_bytes()
    keep_awake = requests.get(f"{url}/vendor/nosleep.min.js", timeout=10)
    assert keep_awake.ok and keep_awake.content == NOSLEEP.read_bytes()
    manifest = requests.get(f"{url}/manifest.webmanifest", timeout=10)
    assert manifest.headers["Content-Type"] == "application/manifest+json"
    for icon in manifest.json()["icons"]:
        assert requests.get(f"{url}{icon['src']}", timeout=10).ok, icon["src"]
    game = requests.post(f"{url}/api/games", json={
        "variant": "duo", "seats": [{"kind": "local"}, {"kind": "local"}]}, timeout=10).json()
    seats = {str(k): v for k, v in game["tokens"].items()}
    storage = json.dumps({"name": "", "games": {game["id"]: {"seats": seats}}})

    context = browser.new_context(base_url=url, **browser.devices["Pixel 7"])
    context.set_default_timeout(20_000)
    context.add_init_script(f"localStorage.setItem('cornerclaim.v1', {json.dumps(storage)});")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400
            else None)
    try:
        page.goto(f"/#/game/{game['id']}")
        expect(page.get_by_test_id("board")).to_be_visible(timeout=20_000)
        expect(page.get_by_test_id("turn")).to_contain_text("Blue", timeout=20_000)
        assert page.evaluate("typeof io") == "function"  # the Socket.IO client loaded
        # A move made elsewhere reaches the page over the socket.
        r = requests.post(f"{url}/api/games/{game['id']}/moves",
                          json={"seat": 1, "move": PLUS, "seq": 1},
                          headers={"Authorization": f"Bearer {seats['1']}"}, timeout=10)
        assert r.status_code == 201, r.text
        for name in PLUS.split(","):
            expect(page.get_by_test_id(f"cell-{name}")).to_have_class(
                re.compile(r"\bo-blue\b"), timeout=20_000)
        assert errors == []
    finally:
        context.close()


def test_a_build_without_npm_ci_stops_and_says_so(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(REPO / name, src / name)
    shutil.copytree(REPO / "cornerclaim", src / "cornerclaim",
                    ignore=shutil.ignore_patterns("__pycache__", "client_web"))
    shutil.copytree(REPO / "client_web", src / "client_web",
                    ignore=shutil.ignore_patterns("node_modules"))
    result = run([sys.executable, "-c", BUILD_WHEEL, tmp_path / "dist"], cwd=src, check=False)
    assert result.returncode != 0
    assert "run `npm ci` in client_web/" in result.stderr + result.stdout
    assert not list(tmp_path.rglob("*.whl"))
