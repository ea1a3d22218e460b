"""lab/mobility.py: A's mobility by round over a match's printout and game records."""

import shutil
from pathlib import Path

from engine.cornerclaim import new_game
from engine.cornerclaim.sgf import read_sgf
from lab.tests import tool

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "pentobi"


def _final_scores(record: Path) -> list[int]:
    game = new_game("classic")
    for seat, cells in read_sgf(record.read_bytes()).moves:
        if cells is not None:
            game.play(seat, cells)
    pos = game.state.position
    return [pos.score(c) for c in range(4)]


def test_mobility_by_place_and_round(tmp_path):
    """Two of Pentobi's classic games as a match's printout (A in seats 2 and 3): each
    game's ratio at the start of round 3 is A's legal moves over the others' mean, counted
    here with the engine, and the table has one row per place A took."""
    mob = tool("mobility")
    games = tmp_path / "m"
    games.mkdir()
    lines = []
    for index, (name, seat) in enumerate((("classic_L7_g1", 2), ("classic_L6_g1", 3))):
        record = games / f"game{index:03d}.blksgf"
        shutil.copy(DATA / f"{name}.blksgf", record)
        scores = _final_scores(record)
        lines.append(f"game {index:3d}: A seat {seat} scores [{', '.join(map(str, scores))}]")

        game = new_game("classic")
        placements = [m for m in read_sgf(record.read_bytes()).moves if m[1] is not None]
        for mover, cells in placements[:12]:
            game.play(mover, cells)
        counts = [len(game.state.position.legal_moves(c)) for c in range(4)]
        want = counts[seat - 1] / ((sum(counts) - counts[seat - 1]) / 3)
        got = mob.mobility(record, seat)
        assert abs(got[3] - want) < 1e-9
        assert set(got) <= set(mob.ROUNDS) and 3 in got and 5 in got
        assert all(v >= 0 for v in got.values())
    printout = tmp_path / "m.out"
    printout.write_text("\n".join(["load average 0.1: 2 game(s) at a time", *lines,
                                   "A: level:6"]) + "\n")
    rows = mob.table([printout])
    assert rows[0].startswith("| A's place | games | round 3 |")
    places = {mob.place([int(x) for x in ln.split("[")[1].rstrip("]").split(",")],
                        int(ln.split("seat ")[1][0])) for ln in lines}
    assert [int(r.split("|")[1]) for r in rows[2:]] == sorted(places)
    assert sum(int(r.split("|")[2]) for r in rows[2:]) == 2
    assert mob.main([str(printout)]) == 0
