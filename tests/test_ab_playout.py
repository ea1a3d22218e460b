"""scripts/ab_playout.py: two versions of the playouts timed side by side, and told apart."""

from tests.test_load import script


def test_the_same_file_plays_the_same_playouts(tmp_path):
    """The working tree's playout file loaded a second time plays exactly what the
    package's does, and both sides are timed on every round."""
    ab = script("ab_playout")
    base = ab.load_base(None, tmp_path)
    row = ab.compare(base, "duo", 8, rounds=2, per_round=4)
    assert row["same"] is True
    assert row["base"] > 0 and row["work"] > 0
    assert row["min"] <= row["median"] <= row["max"]


def test_other_playouts_are_told_apart():
    """A base that plays other playouts (each seed's neighbour's) is told apart. (A base
    compiled from another file is the test above; a second compile would only cost time.)"""
    ab = script("ab_playout")

    class Neighbour:
        @staticmethod
        def playout(pos, first, seed, **options):
            return ab.work.playout(pos, first, seed + 1, **options)

    row = ab.compare(Neighbour, "duo", 8, rounds=2, per_round=4)
    assert row["same"] is False
    assert row["base"] > 0 and row["work"] > 0
