"""The replay viewer, the ladder and a player's page in real Chromium against a live host;
Corners' `.cgn` record exported from a game and imported into the viewer."""

from __future__ import annotations

import json
import re

import requests
from playwright.sync_api import expect

from replays.frames import expand_frames
from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.conftest import PENTOBI, load_record

expect.set_options(timeout=10_000)
DUO = PENTOBI / "duo_L3_g1.blksgf"


def import_record(host, path) -> str:
    r = requests.post(f"{host.url}/api/replays", data=path.read_bytes(),
                      headers={"Content-Type": "application/x-blokus-sgf"}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def frames(host, rid: str) -> list[dict]:
    """The imported replay's frames, whole (as the viewer makes them on arrival)."""
    data = requests.get(f"{host.url}/api/replays/{rid}", timeout=10).json()
    return expand_frames(data)["frames"]


def scores(page) -> list[str]:
    return [page.get_by_test_id(f"replay-score-{s}").inner_text() for s in (1, 2)]


def test_a_pentobi_game_steps_jumps_and_autoplays_to_its_final_scores(host, open_page):
    rid = import_record(host, DUO)
    recorded = load_record(DUO.with_suffix(".json"))["corner_claim_scores"]
    final = [str(recorded[c]["score"]) for c in ("b", "w")]
    page = open_page("desktop", f"/replay.html?import={rid}")
    counter = page.get_by_test_id("replay-counter")
    expect(counter).to_have_text("Move 32 / 32")  # opens on the final position
    assert scores(page) == final
    expect(page.get_by_test_id("replay-result")).to_have_text("Game over: Blue wins")

    page.keyboard.press("Home")
    expect(counter).to_have_text("Move 0 / 32")
    assert scores(page) == ["-89", "-89"]
    expect(page.get_by_test_id("replay-turn")).to_have_text("Blue to move")
    expect(page.get_by_test_id("replay-result")).to_be_hidden()
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("Move 1 / 32")
    assert scores(page) == ["-84", "-89"]
    # The replay's board is Corner Claim's board module, read-only: the last piece outlined.
    expect(page.locator("[data-testid=replay-board] .cell.last")).to_have_count(5)
    page.get_by_test_id("replay-forward").click()
    page.get_by_test_id("replay-back").click()
    page.get_by_test_id("replay-back").click()
    expect(counter).to_have_text("Move 0 / 32")

    expected = frames(host, rid)[10]
    page.get_by_test_id("replay-move-10").click()  # jump from the move list
    expect(counter).to_have_text("Move 10 / 32")
    assert scores(page) == [str(s) for s in expected["scores"]]
    covered = sum(seat != 0 for row in expected["board"]["rows"] for seat in row)
    expect(page.locator("[data-testid=replay-board] .cell[aria-label]")).to_have_count(covered)
    page.get_by_test_id("replay-slider").fill("20")  # jump with the slider
    expect(counter).to_have_text("Move 20 / 32")
    page.get_by_test_id("replay-last").click()
    expect(counter).to_have_text("Move 32 / 32")
    page.get_by_test_id("replay-first").click()

    page.get_by_test_id("replay-speed").select_option("4")
    page.get_by_test_id("replay-play").click()
    expect(counter).not_to_have_text("Move 0 / 32")
    expect(counter).to_have_text("Move 32 / 32", timeout=30_000)
    assert scores(page) == final
    expect(page.get_by_test_id("replay-result")).to_have_text("Game over: Blue wins")
    expect(page.get_by_test_id("replay-play")).to_have_attribute("aria-label", "Play")
    expect(page.locator("[data-testid=replay-chart] polyline")).to_have_count(2)
    assert page.errors == []


def a_running_duo_with_a_takeback(host) -> tuple[str, dict]:
    """Ann and Bo's duo game, three moves in, Ann's last taken back: its id and tokens."""
    game = host.create("duo", [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}])
    gid, tokens = game["id"], game["tokens"]
    host.move(gid, 1, "e10", tokens["1"])
    host.move(gid, 2, "j5", tokens["2"])
    host.move(gid, 1, "d8,d9", tokens["1"])
    r = requests.post(f"{host.url}/api/games/{gid}/undo", json={"seat": 1, "seq": 4},
                      headers={"Authorization": f"Bearer {tokens['1']}"}, timeout=10)
    assert r.status_code == 200, r.text
    return gid, tokens


def test_a_running_game_with_a_takeback_on_a_phone(host, open_page):
    gid, tokens = a_running_duo_with_a_takeback(host)
    page = open_page("Pixel 7", f"/replay.html?game={gid}")
    counter = page.get_by_test_id("replay-counter")
    expect(counter).to_have_text("Move 2 / 2")  # the takeback is hidden
    expect(page.get_by_test_id("replay-turn")).to_have_text("Ann to move")
    page.get_by_test_id("replay-takebacks").check()
    expect(counter).to_have_text("Move 4 / 4")
    expect(page.get_by_test_id("replay-move-3")).to_contain_text("Ann: 2 d8,d9")
    expect(page.locator("li.withdrawn")).to_have_count(1)
    page.get_by_test_id("replay-move-3").tap()
    assert scores(page) == ["-86", "-88"]

    host.move(gid, 1, "f8,f9", tokens["1"])  # the game goes on; the viewer follows
    expect(counter).to_have_text("Move 3 / 5", timeout=15_000)  # it stays where it was
    page.get_by_test_id("replay-last").tap()
    expect(counter).to_have_text("Move 5 / 5")
    href = page.get_by_test_id("replay-download-svg").get_attribute("href")
    svg = requests.get(host.url + href, timeout=10)
    assert svg.headers["Content-Type"].startswith("image/svg+xml") and "Ann: -86" in svg.text
    # Export links: the JSON log and the game's own formats from the catalog.
    assert page.get_by_test_id("replay-export-blksgf").get_attribute("href").endswith(
        "/replay.blksgf")
    assert page.get_by_test_id("replay-export-json").get_attribute("href").endswith(
        "/replay.json")
    assert page.errors == []


def test_a_poll_answered_after_the_takebacks_switch_is_dropped(host, open_page):
    """A running game's viewer polls the host. I switch takebacks on while a poll (without
    them) is on its way; that poll's answer comes last (held here until the takebacks are
    shown) and the viewer keeps showing the takebacks."""
    gid, _ = a_running_duo_with_a_takeback(host)
    page = open_page("Pixel 7", "/")
    plain = re.compile(rf"/api/games/{gid}/replay\?takebacks=false")
    held, asked = [], [0]

    def hold_polls(route):  # the first load goes through; the polls after it are held
        if held or asked[0]:
            held.append(route)
        else:
            asked[0] += 1
            route.continue_()

    page.route(plain, hold_polls)
    counter = page.get_by_test_id("replay-counter")
    seen = [0]

    def second_plain(request) -> bool:
        seen[0] += bool(plain.search(request.url))
        return seen[0] == 2

    with page.expect_request(second_plain, timeout=30_000):  # the first poll, 3 s on
        page.goto(f"/replay.html?game={gid}")
        expect(counter).to_have_text("Move 2 / 2")
    page.get_by_test_id("replay-takebacks").check()
    expect(counter).to_have_text("Move 4 / 4")
    assert len(held) == 1 and page.evaluate("ccReplay.count") == 2
    with page.expect_response(plain):
        held[0].continue_()
    page.wait_for_function("() => ccReplay.count === 3")
    # read at once: an answer is drawn in the same turn of the page's loop, and the next
    # poll (3 s on, with takebacks) would mend a wrong drawing
    assert counter.inner_text() == "Move 4 / 4"
    assert page.locator("li.withdrawn").count() == 1
    assert page.errors == []


def test_the_ladder_and_a_players_rating_chart(host, open_page):
    for opponent in ("Zed", "Yan"):
        game = host.create("duo", [{"kind": "local", "name": "Xia"},
                                   {"kind": "local", "name": opponent}])
        host.move(game["id"], 1, "e9,d10,e10,f10,e11", game["tokens"]["1"])
        r = requests.post(f"{host.url}/api/games/{game['id']}/leave", json={"seat": 2},
                          headers={"Authorization": f"Bearer {game['tokens']['2']}"},
                          timeout=10)
        assert r.status_code == 200, r.text
    page = open_page("Pixel 7", "/")
    page.get_by_test_id("ladder").tap()  # the lobby links to the ladder
    row = page.get_by_test_id("ladder-row-Xia")
    expect(row).to_contain_text("44")  # two wins, 22 points each
    # One game's ladder, picked from the catalog; its own statistics labelled from it.
    expect(page.get_by_test_id("ladder-game")).to_have_value("cornerclaim")
    expect(page.get_by_test_id("ladder-note")).to_contain_text("Rating: Corner Claim Duo")
    entry = next(g for g in host.catalog() if g["game"] == "cornerclaim")
    for stat in entry["stats"]:
        label = page.get_by_test_id(f"col-stat-{stat['key']}")
        expect(label).to_have_text(stat["label"][0].upper() + stat["label"][1:])
    page.get_by_test_id("sort-name").tap()
    expect(page.locator("table.ladder th[aria-sort]")).to_contain_text("Player")
    names = page.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert names == sorted(names, key=str.casefold)
    row.get_by_role("link", name="Xia").tap()
    expect(page.get_by_test_id("player-name")).to_have_text("Xia")
    expect(page.get_by_test_id("player-rating")).to_contain_text(re.compile(r"Rating 15\d\d"))
    expect(page.locator("[data-testid=rating-chart] polyline")).to_have_count(1)
    expect(page.get_by_test_id("stat-all-wins")).to_have_text("2")
    expect(page.get_by_test_id("player-games").locator("li")).to_have_count(2)
    assert page.errors == []


CORNERS_SEATS = [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bo"}]


def test_a_corners_game_exports_cgn_and_the_viewer_imports_it(host, open_page, tmp_path):
    """Corners' `.cgn` record: the game-over card and the viewer link it (from the catalog),
    and the record downloaded opens in the viewer through its import form."""
    game = host.create("classic-3x3", CORNERS_SEATS, game="corners")
    gid, tokens = game["id"], game["tokens"]
    for seat, move in ((1, "c3-d3"), (2, "f6-e6"), (1, "c1-e3")):
        host.move(gid, seat, move, tokens[str(seat)])
    r = requests.post(f"{host.url}/api/games/{gid}/actions",
                      json={"seat": 2, "action": "resign", "seq": host.state(gid)["seq"]},
                      headers={"Authorization": f"Bearer {tokens['2']}"}, timeout=10)
    assert r.status_code == 201, r.text

    storage = {"cornerclaim.v1": json.dumps({"name": "Ann", "games": {
        gid: {"seats": {"1": tokens["1"]}}}})}
    page = open_page("Pixel 7", f"/#/game/{gid}", storage)
    link = page.get_by_test_id("replay-cgn")
    expect(link).to_have_text("Replay (Corners game notation)")
    assert link.get_attribute("href") == f"/api/games/{gid}/replay.cgn"
    text = requests.get(host.url + link.get_attribute("href"), timeout=10).text
    assert '[Result "1-0"]\n[Reason "resigned"]' in text
    assert "1. c3-d3 f6-e6 2. c1-c3-e3 1-0" in text

    page.get_by_test_id("replay-viewer").tap()
    counter = page.get_by_test_id("replay-counter")
    expect(counter).to_have_text(re.compile(r"Move (\d+) / \1"))  # opens at the end
    last = counter.inner_text()
    export = page.get_by_test_id("replay-export-cgn")
    expect(export).to_have_text("Export .cgn (Corners game notation)")
    assert export.get_attribute("href") == f"/api/games/{gid}/replay.cgn"

    record = tmp_path / "game.cgn"
    record.write_text(text)
    page = open_page("Pixel 7", "/replay.html")
    expect(page.get_by_test_id("import-note")).to_contain_text(
        "a Corners .cgn file (Corners game notation)")
    assert ".cgn" in page.get_by_test_id("import-file").get_attribute("accept")
    page.get_by_test_id("import-file").set_input_files(str(record))
    page.get_by_test_id("import-send").tap()
    expect(page.get_by_test_id("replay-counter")).to_have_text(last)
    expect(page.get_by_test_id("replay-result")).to_have_text("Game over: Ann wins")
    expect(page.get_by_test_id("replay-ending")).to_have_text("Black resigned")
    expect(page.get_by_test_id("replay-export-cgn")).to_be_visible()

    record.write_text(text.replace("c1-c3-e3", "c1-e5"))
    page = open_page("Pixel 7", "/replay.html")
    page.get_by_test_id("import-file").set_input_files(str(record))
    page.get_by_test_id("import-send").tap()
    expect(page.get_by_test_id("import-error")).to_contain_text(
        "line 9: 2. c1-e5: the piece on c1 cannot get to e5")
    assert page.errors == []


def test_the_viewer_makes_the_hosts_frames_whole(host, open_page):
    """The host sends each later frame's board and seats as changes; the page's
    `expandFrames` (frames.js) makes them whole, the same frames as the host's own
    (`replays.frames.expand_frames`, checked against `Frame.to_dict` in test_replay_frames),
    for Corner Claim with a takeback shown and hidden and for Corners."""
    gid, _ = a_running_duo_with_a_takeback(host)
    corners = host.create("classic-3x3", CORNERS_SEATS, game="corners")
    for seat, move in ((1, "c3-d3"), (2, "f6-e6"), (1, "c1-e3")):
        host.move(corners["id"], seat, move, corners["tokens"][str(seat)])
    page = open_page("desktop", "/replay.html")
    for path in (f"/api/games/{gid}/replay?takebacks=true",
                 f"/api/games/{gid}/replay?takebacks=false",
                 f"/api/games/{corners['id']}/replay?takebacks=false"):
        sent = requests.get(host.url + path, timeout=10).json()
        assert "changes" in sent["frames"][-1] and "board" not in sent["frames"][-1]
        whole = page.evaluate("""async (path) => {
            const { expandFrames } = await import("/js/frames.js");
            const answer = await (await fetch(path)).json();
            return expandFrames(answer).frames;
        }""", path)
        assert whole == expand_frames(sent)["frames"], path
    assert page.errors == []
