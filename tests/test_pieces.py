"""Golden numbers of the piece set (Pentobi's and the rulebook's)."""

from engine.cornerclaim.pieces import PIECE_BY_NAME, PIECES, TOTAL_SQUARES, flip, rotate


def test_twenty_one_pieces_with_the_rulebook_sizes():
    sizes = sorted(p.size for p in PIECES)
    assert len(PIECES) == 21
    assert sizes == [1, 2, 3, 3] + [4] * 5 + [5] * 12
    assert TOTAL_SQUARES == 89


def test_ninety_one_unique_orientations():
    assert sum(len(p.orientations) for p in PIECES) == 91
    for p in PIECES:
        assert len(set(p.orientations)) == len(p.orientations)
        for shape in p.orientations:
            assert rotate(shape) in p.orientations and flip(shape) in p.orientations


def test_every_shape_is_a_distinct_piece():
    shapes = [s for p in PIECES for s in p.orientations]
    assert len(shapes) == len(set(shapes))


def test_stable_names_in_tray_order():
    assert [p.name for p in PIECES] == [
        "1", "2", "I3", "V3", "I4", "L4", "O4", "T4", "Z4", "F", "I5", "L5",
        "N", "P", "T5", "U", "V", "W", "X", "Y", "Z5",
    ]


def test_symmetric_shapes_offer_no_useless_buttons():
    for name in ("1", "O4", "X"):
        assert not PIECE_BY_NAME[name].can_rotate
    for name in ("1", "2", "I3", "I4", "I5", "O4", "X", "T4", "U", "T5"):
        assert not PIECE_BY_NAME[name].can_flip
    for name in ("F", "L5", "N", "P", "Y", "L4", "Z4", "Z5"):
        assert PIECE_BY_NAME[name].can_flip and PIECE_BY_NAME[name].can_rotate
