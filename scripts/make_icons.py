"""Write the phone UI's app icons, client_web/icons/*.png: the house mark of the pages' favicon
(a 2×2 square, blue top left and yellow bottom right) on the pages' dark background.

    python scripts/make_icons.py          # write the icons
    python scripts/make_icons.py --check  # exit 1 if a committed icon differs from this script's

The PNGs are written with the standard library only (zlib and struct): 8-bit RGB, every row
unfiltered, compressed at zlib's level 9. The output is the same bytes on every run with the
same zlib (tests/test_manifest.py checks the committed files against it). An `any` icon is
drawn with the mark filling three quarters of it; a `maskable` one keeps the whole mark inside
the safe zone, the centred circle of 80% of the icon's width that every launcher's mask
leaves visible (the square's half-diagonal, 0.55/√2 ≈ 0.39 of the width, is within 0.40).
client_web/manifest.webmanifest lists them; the pages link the 180 px one for iOS.
"""

from __future__ import annotations

import struct
import sys
import zlib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

ICONS_DIR = Path(__file__).resolve().parent.parent / "client_web" / "icons"
BACKGROUND = bytes.fromhex("1d2330")
BLUE = bytes.fromhex("2f6fde")
YELLOW = bytes.fromhex("e0b400")
MARK_SHARE = {"any": Fraction(3, 4), "maskable": Fraction(11, 20)}  # the mark's width / icon's


@dataclass(frozen=True)
class Icon:
    name: str
    size: int  # pixels, square
    purpose: str  # the manifest's: "any" or "maskable"


ICONS = (
    Icon("icon-192.png", 192, "any"),
    Icon("icon-512.png", 512, "any"),
    Icon("maskable-192.png", 192, "maskable"),
    Icon("maskable-512.png", 512, "maskable"),
    Icon("apple-touch-icon.png", 180, "any"),  # iOS rounds the corners itself
)


def pixels(icon: Icon) -> list[bytes]:
    """The icon's rows of RGB bytes: the mark centred, each of its two squares `cell` wide."""
    size = icon.size
    cell = round(size * MARK_SHARE[icon.purpose] / 2)
    margin = (size - 2 * cell) // 2
    blank = BACKGROUND * size
    top = BACKGROUND * margin + BLUE * cell + BACKGROUND * (size - margin - cell)
    bottom = BACKGROUND * (margin + cell) + YELLOW * cell + BACKGROUND * (size - margin - 2 * cell)
    return ([blank] * margin + [top] * cell + [bottom] * cell
            + [blank] * (size - margin - 2 * cell))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(rows: list[bytes]) -> bytes:
    """An 8-bit RGB PNG of `rows` (each row 3 bytes a pixel, all the same length)."""
    width, height = len(rows[0]) // 3, len(rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # RGB, no interlace
    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 (none) on every row
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))


def render(icon: Icon) -> bytes:
    return png(pixels(icon))


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    stale = []
    if not check:
        ICONS_DIR.mkdir(parents=True, exist_ok=True)
    for icon in ICONS:
        path = ICONS_DIR / icon.name
        data = render(icon)
        if check:
            if not path.is_file() or path.read_bytes() != data:
                stale.append(icon.name)
        else:
            path.write_bytes(data)
            print(f"wrote {path} ({len(data)} bytes)")
    if stale:
        print(f"differ from scripts/make_icons.py: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
