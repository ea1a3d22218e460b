"""How a game's end reads on a phone, in real Chromium against a live host: a 4-player Corner
game won by a team names the team and both partners (not a draw), two computer seats of one
level go by distinct names, and the game-over card and the replay say how the game ended in
the game's own words (the host's `result.ending`)."""

from __future__ import annotations

import json
import re

import requests
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot

expect.set_options(timeout=10_000)
# The engine's sample deal, rows 1 to 6.
SETUP = "YYYSYK GWWWBR YSBYRR YGRKGB GYGRKB BWRGRS"
#: Marble letters from the fewest (the least worth collecting) to the most.
WORTH = "KSWBGRY"


def storage_for(game: dict) -> dict:
    seats = {str(k): v for k, v in game["tokens"].items()}
    return {"cornerclaim.v1": json.dumps({"name": "", "games": {game["id"]: {"seats": seats}}})}


def legal(host, gid: str, seat: int, token: str) -> list[dict]:
    r = requests.get(f"{host.url}/api/games/{gid}/legal", params={"seat": seat},
                     headers={"Authorization": f"Bearer {token}"}, timeout=10)
    r.raise_for_status()
    return r.json()["moves"]


def test_a_team_win_names_the_team_and_both_computer_partners(host, open_page):
    """Pia and Ola (red) against two computers of level 3 (yellow). Pia and Ola take the
    marbles least worth having; the computers win as a team, and every line says so: the
    turn line, the card, the replay. The two computers go by distinct names."""
    game = host.create("4p", [{"kind": "local", "name": "Pia"}, {"kind": "computer", "level": 3},
                              {"kind": "local", "name": "Ola"}, {"kind": "computer", "level": 3}],
                       game="marbles", options={"rounds": 1, "setups": [SETUP]})
    gid, tokens = game["id"], {int(k): v for k, v in game["tokens"].items()}
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(game))
    expect(page.get_by_test_id("seat-name-label-2")).to_have_text("Computer L3 (1)")
    expect(page.get_by_test_id("seat-name-label-4")).to_have_text("Computer L3 (2)")
    seq = 0
    for _ in range(60):  # the red seats' moves over REST; the computers answer on their own
        page.wait_for_function(
            f"() => {{ const s = window.ccGame.state; return s.seq >= {seq} && "
            f"(s.status === 'finished' || s.seq > {seq} && [1, 3].includes(s.to_move)); }}",
            timeout=20_000)
        state = host.state(gid)
        if state["status"] == "finished":
            break
        seat = state["to_move"]
        entries = legal(host, gid, seat, tokens[seat])
        worst = min(entries, key=lambda m: WORTH.find(m.get("colour", "K")))
        seq = host.move(gid, seat, worst["move"], tokens[seat])["event"]["seq"]
    final = host.state(gid)
    result = final["result"]
    red, yellow = final["board"]["team_scores"]["red"], final["board"]["team_scores"]["yellow"]
    assert yellow > red, "the computers win this deal against the worst marbles"
    assert result["results"] == ["loss", "win", "loss", "win"]
    assert result["ending"] == f"Yellow wins {yellow}–{red} after 1 round"
    team = "Yellow wins: Computer L3 (1) and Computer L3 (2)"
    expect(page.get_by_test_id("turn")).to_have_text(f"Game over — {team}")
    expect(page.get_by_test_id("gameover-title")).to_have_text(team)
    expect(page.get_by_test_id("gameover-ending")).to_have_text(result["ending"])
    for seat, word, points in ((1, "loss", "+0"), (2, "win", "+2"), (3, "loss", "+0"),
                               (4, "win", "+2")):
        expect(page.get_by_test_id(f"final-{seat}").locator("td").nth(2)).to_have_text(word)
        expect(page.get_by_test_id(f"final-{seat}").locator("td").nth(3)).to_have_text(points)
    screenshot(page, "results-team-win")

    page.get_by_test_id("replay-viewer").tap()
    expect(page.get_by_test_id("replay-result")).to_have_text(f"Game over: {team}")
    expect(page.get_by_test_id("replay-ending")).to_have_text(result["ending"])
    expect(page.get_by_test_id("replay-seat-2")).to_contain_text("Computer L3 (1)")
    expect(page.get_by_test_id("replay-seat-4")).to_contain_text("Computer L3 (2)")
    page.get_by_test_id("replay-first").tap()  # the ending shows with the result only
    expect(page.get_by_test_id("replay-ending")).to_be_hidden()
    assert page.errors == []


def test_a_corners_resignation_says_so_on_the_card_and_in_the_replay(host, open_page):
    """Kim resigns against the computer: the card names the winner and says "White
    resigned", as the replay does."""
    game = host.create("classic-3x3", [{"kind": "local", "name": "Kim"},
                                       {"kind": "computer", "level": 1}], game="corners")
    page = open_page("Pixel 7", f"/#/game/{game['id']}", storage_for(game))
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^Your turn"))
    page.get_by_test_id("action-resign").tap()
    page.get_by_test_id("action-confirm").tap()
    expect(page.get_by_test_id("gameover-title")).to_have_text("Computer L1 wins")
    expect(page.get_by_test_id("gameover-ending")).to_have_text("White resigned")
    assert host.state(game["id"])["result"]["ending"] == "White resigned"
    expect(page.get_by_test_id("final-1").locator("td").nth(2)).to_have_text("loss")
    page.get_by_test_id("replay-viewer").tap()
    expect(page.get_by_test_id("replay-result")).to_have_text("Game over: Computer L1 wins")
    expect(page.get_by_test_id("replay-ending")).to_have_text("White resigned")
    assert page.errors == []


def test_team_and_draw_wording_from_the_hosts_results(host, open_page):
    """The shell's words for results it cannot easily be dealt in a test game: a team draw,
    a team win with a partner who left, a three-way tie, all from `results` and `teams`."""
    page = open_page("Pixel 7", "/")
    expect(page.get_by_test_id("your-name")).to_be_visible()
    words = page.evaluate("""async () => {
      const { resultText } = await import("/js/results.js");
      const names = ["Ann", "Bob", "Cleo", "Dan"];
      const name = (s) => names[s - 1];
      const teams = [{ name: "Red", seats: [1, 3] }, { name: "Yellow", seats: [2, 4] }];
      return [
        resultText({ results: ["draw", "draw", "draw", "loss"], teams }, name),
        resultText({ results: ["loss", "win", "loss", "loss"], teams }, name),
        resultText({ results: ["draw", "draw", "draw", "loss"] }, name),
        resultText({ results: ["win", "loss"] }, name, true),
        resultText({ results: ["draw", "draw"] }, name, true),
        resultText({ results: ["loss", "loss", "loss", "loss"], teams }, name),
      ];
    }""")
    assert words == [
        "Draw between Red (Ann and Cleo) and Yellow (Bob; Dan left)",
        "Yellow wins: Bob; Dan left",
        "Draw between Ann, Bob and Cleo",
        "Ann wins",
        "draw between Ann and Bob",
        "",
    ]
    assert page.errors == []
