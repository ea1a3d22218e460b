"""The computer's review in the replay viewer, in real Chromium on a Pixel 7: a finished marble
game (yellow taking the least valuable marble it can, again and again), Analyse, the progress,
the graph of the estimate (a tap on it jumps to that move), a labelled mistake in the move list
with the count per player, and "Show the better move" drawing the engine's arrow and marble on
the board.

The module's host reviews games at level 2 (a move's immediate gain), so the review of a whole
round takes a moment, and it reviews only when asked (no review on its own).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import Host, board_seen, served_host
from tests.server_fixtures import DEADLINE

expect.set_options(timeout=20_000)
# The engine's sample deal, rows 1 to 6.
SETUP = "YYYSYK GWWWBR YSBYRR YGRKGB GYGRKB BWRGRS"


@pytest.fixture(scope="module")
def host(tmp_path_factory) -> Iterator[Host]:
    """The module's host: the browser fixtures' host, reviewing at level 2, only when asked."""
    with served_host(tmp_path_factory.mktemp("host"), ANALYSIS_LEVEL=2,
                     ANALYSIS_AUTO=False) as served:
        yield served


def worth(entry: dict) -> int:
    """A take's colour from the fewest marbles (grey) to the most (yellow)."""
    return "KSWBGRY".find(entry.get("colour", "K"))


def finished_game(host) -> str:
    """A 1-round game to its end through the API: red takes the most plentiful colour it
    can, yellow the scarcest (ties: the host's first)."""
    game = host.create("2p", [{"kind": "local", "name": "Mira"}, {"kind": "local", "name": "Pia"}],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid = game["id"]
    tokens = {int(k): v for k, v in game["tokens"].items()}
    for _ in range(40):
        state = host.state(gid)
        if state["result"] is not None:
            return gid
        seat = state["to_move"]
        entries = host.legal(gid, seat)
        pick = max if seat == 1 else min
        host.move(gid, seat, pick(entries, key=worth)["move"], tokens[seat])
    raise AssertionError("the round did not end")


def test_analyse_a_finished_game_and_show_the_better_move(host, open_page):
    gid = finished_game(host)
    page = open_page("Pixel 7", f"/replay.html?game={gid}")
    review = page.get_by_test_id("review")
    expect(page.get_by_test_id("replay-result")).to_be_visible()
    expect(review).to_have_attribute("data-status", "none")
    # every status the panel shows, with whether its progress bar is shown
    page.evaluate("""() => {
      const el = document.querySelector("[data-testid=review]");
      const bar = document.querySelector("[data-testid=review-progress]");
      window.reviewSeen = [];
      new MutationObserver(() => window.reviewSeen.push([el.dataset.status, !bar.hidden]))
        .observe(el, { attributes: true, attributeFilter: ["data-status"] });
    }""")
    page.get_by_test_id("review-analyse").tap()
    # done: the graph, a label on every move, the counts per player
    expect(review).to_have_attribute("data-status", "done", timeout=DEADLINE * 1000)
    expect(page.get_by_test_id("review-progress")).to_be_hidden()
    seen = page.evaluate("window.reviewSeen")
    assert ["queued", True] in seen and seen[-1] == ["done", False], seen
    expect(page.get_by_test_id("review-analyse")).to_be_hidden()
    graph = page.get_by_test_id("review-graph")
    expect(graph).to_be_visible()
    expect(graph).to_have_attribute("aria-label",
                                    "Mira's expected score difference after each move")
    body = requests.get(f"{host.url}/api/games/{gid}/analysis", timeout=10).json()
    assert body["status"] == "done" and body["unit"] == "points"
    moves = page.locator("[data-testid=replay-moves] button[data-label]")
    expect(moves).to_have_count(len(body["plies"]))
    bad = [p for p in body["plies"] if p["label"] in ("mistake", "blunder")]
    assert bad, "the scarce-colour player makes no mistake"
    worst = max(bad, key=lambda p: p["loss"])
    labels = page.locator("[data-testid^=review-label-][data-label=mistake], "
                          "[data-testid^=review-label-][data-label=blunder]")
    expect(labels).to_have_count(len(bad))
    name = "Mira" if worst["seat"] == 1 else "Pia"
    expect(page.get_by_test_id(f"review-count-{worst['seat']}")).to_contain_text(
        re.compile(rf"^{name}: .*(mistake|blunder)"))

    # a tap on the graph's left edge jumps to the position before the first move
    box = graph.bounding_box()
    page.touchscreen.tap(box["x"] + 2, box["y"] + box["height"] / 2)
    expect(page.get_by_test_id("replay-slider")).to_have_value("1")
    expect(page.get_by_test_id("review-graph-marker")).to_have_attribute("data-point", "0")

    # the worst move: its label, what the computer prefers, and its move drawn on the board
    label = page.locator(f"[data-testid^=review-label-][data-label={worst['label']}]").first
    index = label.get_attribute("data-testid").removeprefix("review-label-")
    page.get_by_test_id("replay-moves").scroll_into_view_if_needed()
    page.get_by_test_id(f"replay-move-{index}").tap()
    expect(page.get_by_test_id("replay-slider")).to_have_value(index)
    assert board_seen(page)  # the move list is below the board and the review: back up
    text = page.get_by_test_id("review-better-text")
    expect(text).to_contain_text(f"{worst['move']} — {worst['label']}")
    expect(text).to_contain_text(f"prefers {worst['best']}")
    board = page.get_by_test_id("board")
    expect(board).to_have_attribute("data-preview", "")
    turn = page.get_by_test_id("replay-turn")
    page.get_by_test_id("review-better").tap()
    expect(board).to_have_attribute("data-preview", worst["best"])
    assert board_seen(page)
    # the status tells of the position drawn: the mover's turn, the computer's move on it
    expect(turn).to_have_text(f"{name} to move: the computer's {worst['best']} shown")
    expect(page.get_by_test_id(f"cell-{worst['best']}")).to_have_class(re.compile(r"\bbetter\b"))
    # the position before the move: the marble played is still on the board
    expect(page.get_by_test_id(f"cell-{worst['move']}")).not_to_have_attribute("data-marble", "")
    expect(page.locator("[data-testid=board] .arrow.ghost")).to_have_count(1)
    expect(text).to_contain_text(f"Better: {worst['best']}")
    # the next move puts the game's own frame back
    page.get_by_test_id("replay-forward").tap()
    expect(board).to_have_attribute("data-preview", "")
    assert not page.errors


def test_an_unreviewed_game_asks_for_no_review_and_a_resignation_ends_the_graph(host, open_page):
    """A finished game nobody had reviewed: the replay says so, the page asks for no review
    (a 404 would be an error in the console) and offers Analyse. Ann resigns in Corners: the
    review's graph ends at the result, 0 % for her, not at the estimate after the last move."""
    game = host.create("classic-3x3", [{"kind": "local", "name": "Ann"},
                                       {"kind": "local", "name": "Bo"}], game="corners")
    gid, tokens = game["id"], game["tokens"]
    for seat, move in ((1, "c3-d3"), (2, "f6-e6"), (1, "c1-e3"), (2, "f8-d6")):
        host.move(gid, seat, move, tokens[str(seat)])
    r = requests.post(f"{host.url}/api/games/{gid}/actions",
                      json={"seat": 1, "action": "resign", "seq": host.state(gid)["seq"]},
                      headers={"Authorization": f"Bearer {tokens['1']}"}, timeout=10)
    assert r.status_code == 201, r.text
    replay = f"{host.url}/api/games/{gid}/replay"
    assert requests.get(replay, timeout=10).json()["analysis"] == "none"

    page = open_page("Pixel 7", "/replay.html")
    errors, asked = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda q: asked.append(q.url) if "/analysis" in q.url else None)
    page.goto(f"/replay.html?game={gid}")
    review = page.get_by_test_id("review")
    expect(review).to_have_attribute("data-status", "none")
    expect(page.get_by_test_id("review-analyse")).to_be_visible()
    assert errors == [] and asked == []

    page.get_by_test_id("review-analyse").tap()
    expect(review).to_have_attribute("data-status", "done", timeout=DEADLINE * 1000)
    body = requests.get(f"{host.url}/api/games/{gid}/analysis", timeout=10).json()
    assert body["end_value"] == 0  # seat 1 resigned
    line = page.locator("[data-testid=review-graph] polyline")
    expect(line).to_have_attribute("data-values", re.compile(r" 0$"))
    # the resignation after the last move: a point of its own, at the replay's last frame
    assert len(line.get_attribute("data-values").split()) == len(body["plies"]) + 2
    assert requests.get(replay, timeout=10).json()["analysis"] == "done"
    assert errors == [] and not page.errors
