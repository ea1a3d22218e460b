"""lab/second_reply.py: replies to a first piece scored by games finished from them."""

from lab.tests import tool


def test_a_finish_plays_the_reply_and_the_game_to_its_end():
    second = tool("second_reply")
    row = second.finish(("e8,d9,e9,e10,f10", "i5,j5,j6,k6,j7", "level:1", 3))
    assert row["reply"] == "i5,j5,j6,k6,j7" and row["seed"] == 3
    assert len(row["scores"]) == 2 and all(s <= 0 or s >= 15 for s in row["scores"])


def test_the_table_gives_each_reply_its_margin_and_wins():
    second = tool("second_reply")
    rows = [{"first": "f", "reply": "a", "seed": 1, "scores": [-10, -4]},
            {"first": "f", "reply": "a", "seed": 2, "scores": [-8, -8]},
            {"first": "f", "reply": "b", "seed": 1, "scores": [-3, -9]}]
    table = second.summary(rows).splitlines()
    assert table[2] == "| f | a | 2 | +3.0 ± 3.0 | 1.5 |"
    assert table[3] == "| f | b | 1 | -6.0 ± nan | 0 |"
