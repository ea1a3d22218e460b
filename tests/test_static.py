"""How the host sends the phone UI: its files and the catalog compressed, with `Vary` and
validators a phone's next load is answered 304 by; Socket.IO's own traffic as it was; and the
catalog's lobby fields (taglines, palettes, presets, an option's placeholder) consistent."""

from __future__ import annotations

import gzip

import pytest

from engine import registry
from tests.server_fixtures import *  # noqa: F403 - the fixtures

FILES = ["/", "/app.css", "/js/lobby.js", "/js/options.js", "/vendor/socket.io.min.js",
         "/vendor/nosleep.min.js", "/boards/corners.js"]


@pytest.mark.parametrize("path", FILES)
def test_a_file_of_the_phone_ui_comes_gzipped_and_is_revalidated(client, path):
    plain = client.get(path)
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert plain.headers["Vary"] == "Accept-Encoding"
    zipped = client.get(path, headers={"Accept-Encoding": "gzip, deflate"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.headers["Vary"] == "Accept-Encoding"
    assert zipped.headers["Cache-Control"] == "no-cache"  # asked again, answered 304
    assert gzip.decompress(zipped.data) == plain.data
    assert int(zipped.headers["Content-Length"]) == len(zipped.data) < len(plain.data)
    etag = zipped.headers["ETag"]
    assert etag != plain.headers["ETag"]  # another representation, another validator
    again = client.get(path, headers={"Accept-Encoding": "gzip, deflate", "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["Vary"] == "Accept-Encoding"


def test_brotli_where_the_browser_takes_it(client):
    answer = client.get("/js/lobby.js", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert answer.headers["Content-Encoding"] in ("br", "zstd", "gzip")
    assert client.get("/js/lobby.js", headers={"Accept-Encoding": "br"}).headers[
        "Content-Encoding"] == "br"


def test_the_catalog_is_compressed_and_other_answers_are_not(client):
    catalog = client.get("/api/catalog", headers={"Accept-Encoding": "gzip"})
    assert catalog.headers["Content-Encoding"] == "gzip"
    assert b'"games"' in gzip.decompress(catalog.data)
    health = client.get("/api/health", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in health.headers and health.json["ok"]


def test_a_byte_range_is_the_file_as_it_is(client):
    part = client.get("/js/lobby.js", headers={"Accept-Encoding": "gzip", "Range": "bytes=0-1"})
    assert part.status_code == 206 and part.data == b"//"
    assert "Content-Encoding" not in part.headers


def test_socket_io_polling_is_left_to_socket_io(client):
    """Socket.IO's handshake over long-polling still opens (its middleware answers it)."""
    answer = client.get("/socket.io/?EIO=4&transport=polling",
                        headers={"Accept-Encoding": "gzip, deflate"})
    assert answer.status_code == 200
    body = gzip.decompress(answer.data) if answer.headers.get("Content-Encoding") == "gzip" \
        else answer.data
    assert body.startswith(b"0{") and b'"sid"' in body


@pytest.mark.parametrize("rules", registry.games(), ids=lambda r: r.game)
def test_every_game_says_what_it_is_and_colours_every_seat(rules):
    line = rules.catalog()
    assert line["tagline"] and "players" in line["tagline"]
    for variant in line["variants"]:
        assert set(variant["colours"]) <= set(line["palette"]), variant["name"]
        options = {o["name"] for o in variant["options"]}
        for preset in variant["presets"]:
            assert set(preset["values"]) <= options and variant["presets_label"]
    for colour in line["palette"].values():
        assert colour["fill"].startswith("#") and colour["mark"]


def test_a_preset_the_variant_would_refuse_is_refused_at_once():
    from engine.errors import BadOptionError
    from engine.rules import OptionSpec, PresetSpec, VariantSpec

    clock = OptionSpec("reserve_s", "Time reserve", 300, "int", 0, 600)
    with pytest.raises(BadOptionError):
        VariantSpec("v", "V", (2,), ("a", "b"), options=(clock,),
                    presets=(PresetSpec("1 hour", (("reserve_s", 3600),)),))
