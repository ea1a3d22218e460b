"""The phone UI installs as an app: every page links the web app manifest and the iOS touch
icon; the manifest names the host's start page, standalone, in the pages' colours, with PNG
icons that exist at the sizes it claims; scripts/make_icons.py draws those icons byte for
byte; and the host serves the manifest as one. (Chromium's own reading of it over https is in
tests/test_tls.py.)"""

from __future__ import annotations

import importlib.util
import json
import struct
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.server_fixtures import *  # noqa: F403 - the fixtures

REPO = Path(__file__).resolve().parent.parent
CLIENT = REPO / "client_web"
PAGES = sorted(CLIENT.glob("*.html"))
MANIFEST = json.loads((CLIENT / "manifest.webmanifest").read_text())
BACKGROUND = "#1d2330"

_spec = importlib.util.spec_from_file_location("make_icons", REPO / "scripts" / "make_icons.py")
make_icons = importlib.util.module_from_spec(_spec)
sys.modules["make_icons"] = make_icons  # its dataclass looks its module up
_spec.loader.exec_module(make_icons)


class Links(HTMLParser):
    """The `<link>` elements of a page's head: rel -> href."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.links: dict[str, str] = {}
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link":
            self.links[a["rel"]] = a["href"]
        elif tag == "meta" and a.get("name") == "theme-color":
            self.links["theme-color"] = a["content"]


def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of an 8-bit RGB PNG, its chunks' checksums checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, []
    while at < len(data):
        (length,), kind = struct.unpack(">I", data[at:at + 4]), data[at + 4:at + 8]
        body = data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        at += 12 + length
    kinds = [k for k, _ in chunks]
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and b"IDAT" in kinds
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, colour, interlace) == (8, 2, 0)  # 8-bit RGB, not interlaced
    raw = zlib.decompress(b"".join(body for k, body in chunks if k == b"IDAT"))
    stride = 1 + 3 * width
    assert len(raw) == stride * height and all(raw[r * stride] == 0 for r in range(height))
    return width, height, [raw[r * stride + 1:(r + 1) * stride] for r in range(height)]


def client_file(href: str) -> Path:
    assert href.startswith("/")
    return CLIENT / href.removeprefix("/")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_page_links_the_manifest_and_a_180_px_touch_icon(page):
    links = Links(page.read_text()).links
    assert links["manifest"] == "/manifest.webmanifest"
    assert links["theme-color"] == MANIFEST["theme_color"]
    width, height, _ = read_png(client_file(links["apple-touch-icon"]).read_bytes())
    assert (width, height) == (180, 180)


def test_the_manifest_opens_the_host_standalone_in_the_pages_colours():
    assert MANIFEST["name"] == "Corner games" and len(MANIFEST["short_name"]) <= 12
    assert MANIFEST["start_url"] == "/" and MANIFEST["scope"] == "/"
    assert MANIFEST["display"] == "standalone"
    assert MANIFEST["theme_color"] == MANIFEST["background_color"] == BACKGROUND


def test_each_icon_is_a_png_of_the_size_the_manifest_claims():
    claimed = {(i["sizes"], i["purpose"]) for i in MANIFEST["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"),
            ("512x512", "maskable")} <= claimed
    for icon in MANIFEST["icons"]:
        assert icon["type"] == "image/png"
        width, height, _ = read_png(client_file(icon["src"]).read_bytes())
        assert f"{width}x{height}" == icon["sizes"], icon["src"]


def test_the_script_draws_the_committed_icons_byte_for_byte():
    committed = {p.name for p in (CLIENT / "icons").iterdir()}
    assert committed == {icon.name for icon in make_icons.ICONS}
    for icon in make_icons.ICONS:
        assert make_icons.render(icon) == (CLIENT / "icons" / icon.name).read_bytes(), icon.name
    listed = {Path(i["src"]).name: i["purpose"] for i in MANIFEST["icons"]}
    assert all(listed[i.name] == i.purpose for i in make_icons.ICONS if i.name in listed)


def test_the_house_mark_is_blue_top_left_and_yellow_bottom_right_on_the_dark_background():
    colours = {bytes.fromhex(c): c for c in ("1d2330", "2f6fde", "e0b400")}
    for icon in make_icons.ICONS:
        size, _, rows = read_png((CLIENT / "icons" / icon.name).read_bytes())
        quarter, three = size // 4, 3 * size // 4
        at = {(x, y): colours[rows[y][3 * x:3 * x + 3]] for y in range(size)
              for x in range(size)}
        assert set(at.values()) == set(colours.values())
        assert at[(0, 0)] == at[(size - 1, size - 1)] == at[(three, quarter)] == "1d2330"
        assert (at[(size // 2 - 2, size // 2 - 2)], at[(size // 2 + 1, size // 2 + 1)]) == (
            "2f6fde", "e0b400"), icon.name
        assert at[(quarter, three)] == "1d2330"


def test_a_maskable_icon_keeps_its_mark_inside_the_safe_zone():
    """Launchers may cut a maskable icon to any shape holding the centred circle of 80% of
    its width: nothing but background lies outside it."""
    for icon in (i for i in make_icons.ICONS if i.purpose == "maskable"):
        size, _, rows = read_png((CLIENT / "icons" / icon.name).read_bytes())
        centre, radius = (size - 1) / 2, 0.4 * size
        outside = {rows[y][3 * x:3 * x + 3] for y in range(size) for x in range(size)
                   if (x - centre) ** 2 + (y - centre) ** 2 > radius ** 2}
        assert outside == {bytes.fromhex("1d2330")}, icon.name


def test_the_host_serves_the_manifest_as_one_and_the_icons_as_png(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "application/manifest+json"
    assert answer.json == MANIFEST
    for icon in MANIFEST["icons"]:
        png = client.get(icon["src"])
        assert png.status_code == 200 and png.headers["Content-Type"] == "image/png"
