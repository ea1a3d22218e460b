"""Fixtures for the browser tests: a live host on a free loopback port and Debian's Chromium
driven by Playwright, phone-sized with touch (Pixel 7) or desktop-sized with a keyboard.

Playwright's own browser download cannot run here, so the tests launch /usr/bin/chromium
(installed by scripts/test) through `executable_path`. Screenshots land in
build/test-artifacts/browser/ (or $BROWSER_ARTIFACTS).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
REPO = Path(__file__).resolve().parent.parent
CLIENT = REPO / "client_web"
ARTIFACTS = Path(os.environ.get("BROWSER_ARTIFACTS", REPO / "build" / "test-artifacts" / "browser"))
# the fixtures a test module star-imports
__all__ = ["host", "browser", "open_page", "phone", "phone_height"]
SOCKET_IO = CLIENT / "node_modules" / "socket.io-client" / "dist" / "socket.io.min.js"


def _missing() -> str | None:
    """Why the browser tests cannot run on this machine, or None."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (scripts/test installs Debian's chromium)"
    if not SOCKET_IO.exists():
        return "client_web/node_modules is missing (scripts/test runs npm ci)"
    return None


class Host:
    """A running host: its base URL and REST helpers for setting up games."""

    def __init__(self, url: str, app) -> None:
        self.url = url
        self.app = app

    def create(self, variant: str, seats: list[dict], game: str | None = None,
               options: dict | None = None) -> dict:
        body = {"variant": variant, "seats": seats} | ({"game": game} if game else {}) | (
            {"options": options} if options else {})
        r = requests.post(f"{self.url}/api/games", json=body, timeout=10)
        r.raise_for_status()
        return r.json()

    def catalog(self) -> list[dict]:
        r = requests.get(f"{self.url}/api/catalog", timeout=10)
        r.raise_for_status()
        return r.json()["games"]

    def state(self, game_id: str) -> dict:
        r = requests.get(f"{self.url}/api/games/{game_id}", timeout=10)
        r.raise_for_status()
        return r.json()

    def legal(self, game_id: str, seat: int, piece: str | None = None) -> list[dict]:
        params = {"seat": seat} | ({"piece": piece} if piece else {})
        r = requests.get(f"{self.url}/api/games/{game_id}/legal", params=params, timeout=10)
        r.raise_for_status()
        return r.json()["moves"]

    def claim(self, game_id: str, seat: int, name: str) -> str:
        r = requests.post(f"{self.url}/api/games/{game_id}/seats/{seat}", json={"name": name},
                          timeout=10)
        r.raise_for_status()
        return r.json()["token"]

    def move(self, game_id: str, seat: int, move: str, token: str) -> dict:
        seq = self.state(game_id)["seq"]
        r = requests.post(f"{self.url}/api/games/{game_id}/moves",
                          json={"seat": seat, "move": move, "seq": seq},
                          headers={"Authorization": f"Bearer {token}"}, timeout=10)
        r.raise_for_status()
        return r.json()


@contextlib.contextmanager
def served_host(data_dir: Path, **config) -> Iterator[Host]:
    """A host on a free 127.0.0.1 port, its data in `data_dir`, one bot worker with a short
    delay, and `config` on top; skips the test where the browser tests cannot run."""
    why = _missing()
    if why:
        pytest.skip(why)
    from server.app import create_app, shutdown_app
    from server.serve import werkzeug_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)

    app = create_app({"DATA_DIR": str(data_dir), "BOT_DELAY": 0.05, "BOT_WORKERS": 1, **config})
    server = werkzeug_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Host(f"http://127.0.0.1:{server.port}", app)
    finally:
        server.shutdown()
        server.server_close()
        shutdown_app(app)


# Module scope: each test module star-imports these fixtures, which makes a copy per module;
# module scope keeps those copies from overlapping (one Playwright driver at a time).
@pytest.fixture(scope="module")
def host(tmp_path_factory) -> Iterator[Host]:
    """One host per test module, on a free 127.0.0.1 port; every test makes its own games."""
    with served_host(tmp_path_factory.mktemp("host"), UNDO_TIMEOUT=30.0) as served:
        yield served


@pytest.fixture(scope="module")
def browser():
    why = _missing()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        b.devices = pw.devices  # the device profiles (Pixel 7) travel with the browser
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def open_page(browser, host, request):
    """open_page(device="Pixel 7" | "desktop", path="/", storage=None, script=None) -> a page.

    `storage` is put in localStorage and `script` run before the page's own scripts. A
    table's page (`/#/game/…`) is returned once its board is drawn.
    Each call is a fresh browser context (its own localStorage: one phone). Pages are
    screenshotted into the artifacts folder when the test ends.
    """
    contexts = []

    def _open(device: str = "Pixel 7", path: str = "/", storage: dict | None = None,
              script: str | None = None):
        if device == "desktop":
            options = {"viewport": {"width": 1280, "height": 800}}
        else:
            options = dict(browser.devices[device])
        context = browser.new_context(base_url=host.url, **options)
        context.set_default_timeout(10_000)
        if storage:
            context.add_init_script(
                f"for (const [k, v] of Object.entries({json.dumps(storage)})) "
                "localStorage.setItem(k, v);")
        if script:
            context.add_init_script(script)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(path)
        contexts.append((context, page))
        if path.startswith("/#/game/"):
            # A table is drawn once its state and its board module are in: the tray and the
            # seats' pieces come in then, moving what is under them (a tap before would
            # land on whatever the layout put there)
            page.wait_for_function("() => window.ccGame?.board && window.ccGame.state")
        return page

    yield _open
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for i, (context, page) in enumerate(contexts):
        try:
            page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{i}.png"), scale="css")
        except Exception:  # noqa: BLE001 - a failed screenshot must not hide the real result
            pass
        context.close()


@pytest.fixture
def phone_height() -> int:
    """The height in CSS px of a `phone` page given a width (a module may override it)."""
    return 720


@pytest.fixture
def phone(browser, host, phone_height):
    """phone(width=None, path="/", storage=None, before=None) -> a page in a new Pixel 7
    context, `width` CSS px wide and `phone_height` high (width None: the Pixel 7's own 412
    wide screen); `storage` is put in localStorage and `before(page)` run before it opens
    `path`; the page's uncaught errors in `page.errors`."""
    contexts = []

    def _open(width: int | None = None, path: str = "/", storage: dict | None = None,
              before=None):
        options = dict(browser.devices["Pixel 7"])
        if width:
            options["viewport"] = {"width": width, "height": phone_height}
        context = browser.new_context(base_url=host.url, **options)
        contexts.append(context)
        if storage:
            context.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(storage)}))"
                                    " localStorage.setItem(k, v);")
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        if before:
            before(page)
        page.goto(path)
        return page

    yield _open
    for context in contexts:
        context.close()


def sideways(page) -> int:
    """How many CSS px the page is wider than its screen (0: it never scrolls sideways)."""
    return page.evaluate("() => document.scrollingElement.scrollWidth"
                         " - document.scrollingElement.clientWidth")


def board_seen(page) -> bool:
    """Whether some of the replay's board is on the screen."""
    return page.evaluate("""() => {
      const r = document.querySelector("[data-testid=replay-board]").getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight && r.height > 0;
    }""")


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), scale="css")
    return path


def cell_centre(page, name: str) -> tuple[float, float]:
    box = page.get_by_test_id(f"cell-{name}").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


class Finger:
    """One finger on a touch screen, through the Chrome DevTools Protocol's touch events."""

    def __init__(self, page) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def _touch(self, kind: str, x: float | None = None, y: float | None = None) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x: float, y: float) -> None:
        self._touch("touchStart", x, y)

    def move(self, x: float, y: float, steps: int = 6) -> None:
        start = getattr(self, "_at", (x, y))
        for i in range(1, steps + 1):
            self._touch("touchMove", start[0] + (x - start[0]) * i / steps,
                        start[1] + (y - start[1]) * i / steps)
        self._at = (x, y)

    def up(self) -> None:
        self._touch("touchEnd")

    def drag_to_cells(self, start: str, *path: str) -> None:
        self.down(*cell_centre(self.page, start))
        self._at = cell_centre(self.page, start)
        for name in path:
            self.move(*cell_centre(self.page, name))
