"""The downloadable board picture carries the board's colour-blind patterns, not only fills."""

import xml.etree.ElementTree as ET

from engine.cornerclaim import RULES, new_game
from replays.board_svg import PATTERNS, board_svg

NS = "{http://www.w3.org/2000/svg}"


def test_every_placed_square_and_caption_swatch_has_its_colours_pattern():
    game = new_game("duo", ("Ann", "Bo"))
    game.play(1, "e10")
    game.play(2, "j5")
    svg = ET.fromstring(board_svg(RULES, game.state, names=("Ann", "Bo")))
    ids = {p.get("id") for p in svg.iter(f"{NS}pattern")}
    assert ids == {f"pattern-{c}" for c in PATTERNS}
    over = [r.get("fill") for r in svg.iter(f"{NS}rect") if r.get("fill", "").startswith("url(")]
    # one square each on the board, one swatch each in the caption
    assert sorted(over) == ["url(#pattern-blue)"] * 2 + ["url(#pattern-green)"] * 2
