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


def test_a_changed_policy_is_told_apart(tmp_path):
    """A base whose local draws look at nearer attach points only (NEAR 1 instead of 4,
    set before it is compiled) plays different playouts, and the comparison says so."""
    ab = script("ab_playout")
    base = ab.load_base(None, tmp_path, name="playout_near1")
    assert base.NEAR == 4
    base.NEAR = 1
    row = ab.compare(base, "duo", 8, rounds=2, per_round=4)
    assert row["same"] is False
