"""The lobby on a phone, in real Chromium: a Pixel 7 and a 320 px wide phone. Nothing scrolls
sideways, every option shows its value and every select its lines in full, an option's input
follows its kind (Corner's setups are text, the host's error shown beside them), the header
names the host, Corners' clocks are one tap, the first load asks for the games once and loads
no board module (only each game's picture), and a name typed while the catalog is on its way
stays. The game cards and the how-to-play sheets: tests/test_browser_howto.py.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, browser, open_page
from tests.browser_fixtures import screenshot, sideways

expect.set_options(timeout=10_000)
WIDTHS = {"Pixel 7": None, "320 px phone": 320}
SETUP = "YYYYYYYY RRRRRRR GGGGGG BBBBB WWWW SSS KKK"  # 36 letters: 8 7 6 5 4 3 3


def hidden_text(page) -> list:
    """The option inputs whose value does not fit them: [(test id, scroll, client)...]."""
    return page.evaluate("""() => [...document.querySelectorAll('.option input, .option textarea')]
      .filter((e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight)
      .map((e) => [e.dataset.testid, e.scrollWidth, e.clientWidth, e.scrollHeight,
                   e.clientHeight])""")


def cut_lines(page) -> list:
    """The lines of the lobby's shown selects that would not fit them when chosen (the
    select's width less its padding and its arrow): [(test id, line)...]."""
    return page.evaluate("""() => {
      const ctx = document.createElement('canvas').getContext('2d');
      const shown = [...document.querySelectorAll('.lobby select')].filter((s) => s.offsetParent);
      return shown.flatMap((s) => {
        const cs = getComputedStyle(s);
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
        return [...s.options].filter((o) => ctx.measureText(o.text).width > room)
          .map((o) => [s.dataset.testid, o.text]);
      });
    }""")


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_no_lobby_scrolls_sideways_whatever_game_and_variant(host, phone, width):
    """Every game and every variant the catalog offers: the lobby stays within the phone
    (Corners' six variant buttons wrap), every option field shows its largest value, and
    every line of a seat's selects fits it ("Open seat", the computer levels)."""
    page = phone(width)
    for entry in host.catalog():
        page.get_by_test_id(f"pick-game-{entry['game']}").click()
        for variant in entry["variants"]:
            page.get_by_test_id(f"variant-{variant['name']}").tap()
            expect(page.get_by_test_id(f"variant-{variant['name']}")).to_have_attribute(
                "aria-pressed", "true")
            for option in variant["options"]:
                if option["kind"] == "int":
                    page.get_by_test_id(f"option-{option['name']}").fill(str(option["maximum"]))
            if any(o["kind"] == "strings" for o in variant["options"]):
                page.get_by_test_id("option-setups").fill(f"{SETUP}, {SETUP}")
            assert sideways(page) == 0, (entry["game"], variant["name"])
            assert hidden_text(page) == [], (entry["game"], variant["name"])
            assert cut_lines(page) == [], (entry["game"], variant["name"])
    screenshot(page, f"lobby-{width or 412}px")


@pytest.mark.parametrize("game", ["cornerclaim", "corners", "marbles"])
def test_a_game_page_fits_a_320px_phone(host, phone, game):
    entry = next(e for e in host.catalog() if e["game"] == game)
    variant = entry["variants"][0]
    made = host.create(variant["name"], [{"kind": "local"}] * variant["seats"][0], game=game)
    memory = {"games": {made["id"]: {"seats": made["tokens"], "host": made["host_token"]}}}
    page = phone(320, f"/#/game/{made['id']}", storage={"cornerclaim.v1": json.dumps(memory)})
    expect(page.get_by_test_id("board")).to_be_visible()
    page.wait_for_function("() => window.ccGame && window.ccGame.state")
    assert sideways(page) == 0
    screenshot(page, f"game-{game}-320px")


def test_the_setups_are_typed_as_text_and_the_hosts_error_is_shown(host, phone):
    """Corner's setups are 36 letters each: a text area with the format in its placeholder;
    a wrong setup is refused by the host, whose message shows beside the field and under the
    form; a right one makes the game with that setup."""
    entry = next(e for e in host.catalog() if e["game"] == "marbles")
    setups = next(o for o in entry["variants"][0]["options"] if o["name"] == "setups")
    page = phone()
    page.get_by_test_id("pick-game-marbles").click()
    field = page.get_by_test_id("option-setups")
    expect(field).to_have_js_property("tagName", "TEXTAREA")
    expect(field).to_have_attribute("placeholder", setups["placeholder"])
    field.fill(SETUP[:-1])  # one black marble short
    page.get_by_test_id("create").tap()
    expect(page.get_by_test_id("lobby-error")).to_have_text("setup 1 has 35 letters, not 36")
    expect(page.get_by_test_id("option-error-setups")).to_have_text(
        "setup 1 has 35 letters, not 36")
    expect(page.get_by_test_id("option-setups")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_test_id("option-setups")).to_have_value(SETUP[:-1])
    page.get_by_test_id("option-setups").fill(SETUP)
    page.get_by_test_id("create").tap()
    expect(page).to_have_url(re.compile(r"#/game/"))
    game_id = page.url.split("#/game/")[1].split("/")[0]
    assert host.state(game_id)["options"]["setups"] == [SETUP]


def test_the_header_names_the_host_and_a_variant_says_its_label_once(host, phone):
    page = phone()
    expect(page.get_by_role("heading", level=1)).to_have_text("Corner games")
    expect(page).to_have_title("Corner games")
    # The host's three games, in the catalog's order (a test-only game another test module
    # registered may follow).
    ours = page.locator(".game-card:is([data-game=cornerclaim], [data-game=corners],"
                        " [data-game=marbles]) .game-title")
    expect(ours).to_have_text(["Corner Claim", "Corners", "Corner"])
    # Each variant button says its label once: no "2 players · 2 players".
    page.get_by_test_id("pick-game-marbles").tap()
    expect(page.get_by_test_id("variant-2p")).to_have_text("2 players")
    expect(page.get_by_test_id("variant-4p")).to_have_text("4 players in two teams")
    page.get_by_test_id("pick-game-cornerclaim").tap()
    expect(page.get_by_test_id("variant-duo")).to_have_text("Duo")
    expect(page.get_by_test_id("variant-note")).to_have_text("2 players on a 14×14 board")


def test_corners_clocks_are_one_tap_beside_the_free_fields(host, phone):
    """The catalog's clocks for Corners (1+0 … 10+5, no clock) are buttons under "Clock";
    one tap fills the two fields, a field typed by hand leaves no clock chosen, and the game
    is made with the chosen clock."""
    entry = next(e for e in host.catalog() if e["game"] == "corners")
    presets = entry["variants"][0]["presets"]
    assert [p["label"] for p in presets] == ["1+0", "3+2", "5+3", "10+5", "No clock"]
    page = phone()
    page.get_by_test_id("pick-game-corners").click()
    clock = page.get_by_role("group", name="Clock")
    expect(clock.get_by_role("button")).to_have_text([p["label"] for p in presets])
    reserve, increment = page.get_by_test_id("option-reserve_s"), page.get_by_test_id(
        "option-increment_s")
    # Against the computer the catalog plays without a clock: "No clock" shows chosen.
    expect(page.get_by_test_id("preset-no-clock")).to_have_attribute("aria-pressed", "true")
    expect(reserve).to_have_value("0")
    page.get_by_test_id("preset-3+2").tap()
    expect(reserve).to_have_value("180")
    expect(increment).to_have_value("2")
    expect(page.get_by_test_id("preset-3+2")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("preset-no-clock")).to_have_attribute("aria-pressed", "false")
    reserve.fill("200")
    expect(page.get_by_test_id("preset-3+2")).to_have_attribute("aria-pressed", "false")
    page.get_by_test_id("preset-10+5").tap()
    page.get_by_test_id("seat-kind-2").select_option("local")  # the clock stays as chosen
    expect(reserve).to_have_value("600")
    page.get_by_test_id("create").tap()
    expect(page).to_have_url(re.compile(r"#/game/"))
    game_id = page.url.split("#/game/")[1].split("/")[0]
    assert host.state(game_id)["options"] == {"reserve_s": 600, "increment_s": 5,
                                              "practice": False, "setup": ""}


def test_the_first_load_asks_for_the_games_once_and_loads_no_board(host, phone):
    """The lobby's first load: the catalog once, the game list once over the live link (one
    `watch_lobby`, answered with the lines), no game's board module, only its picture (the
    seat chips take their colours from the catalog's palette). Nothing is polled: a game
    made elsewhere is pushed into the list while the page's own timers stand still."""
    asked, sent = [], []

    def before(page):
        page.clock.install(time=1_800_000_000)
        page.clock.pause_at(1_800_000_001)  # no timer of the page fires on its own
        page.on("request", lambda r: asked.append(r.url.removeprefix(host.url)))
        page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))

    page = phone(before=before)
    expect(page.get_by_test_id("games-open")).to_be_visible()
    expect(page.get_by_test_id("create")).to_be_visible()
    expect(page.locator(".seat-row .chip.c-blue")).to_have_css("background-color",
                                                              "rgb(47, 111, 222)")
    assert asked.count("/api/catalog") == 1 and "/api/games" not in asked, asked
    assert len([f for f in sent if '"watch_lobby"' in f]) == 1, sent
    assert not [u for u in asked if "/boards/" in u and not u.endswith("/thumb.js")], asked
    game = host.create("duo", [{"kind": "local", "name": "Pushed"}, {"kind": "open"}])
    expect(page.get_by_test_id(f"game-{game['id']}")).to_contain_text("Pushed")
    page.clock.run_for(3_000)
    assert "/api/games" not in asked and len([f for f in sent if '"watch_lobby"' in f]) == 1


def test_the_catalog_palette_is_the_board_modules(host, phone):
    """The seat colours the lobby takes from the catalog are those each game's board module
    draws with (where a board module exports its own)."""
    page = phone()
    expect(page.get_by_test_id("create")).to_be_visible()
    for entry in host.catalog():
        exported = page.evaluate("async (url) => (await import(url)).palette || null",
                                 entry["board_url"])
        if exported is not None:
            assert exported == entry["palette"], entry["game"]


def test_a_name_typed_while_the_catalog_comes_stays(host, phone):
    """The name field is there before the host has said what it plays; the form drawn when
    the catalog comes keeps what was typed, and the typing goes on in the same field."""
    held = []

    def before(page):
        page.route("**/api/catalog", lambda route: held.append(route))

    page = phone(before=before)
    name = page.get_by_test_id("your-name")
    expect(name).to_be_visible()
    expect(page.get_by_test_id("new-game-form")).to_contain_text("Asking the host")
    name.tap()
    page.keyboard.type("Ju")
    assert len(held) == 1
    held[0].continue_()
    expect(page.get_by_test_id("pick-game")).to_be_visible()
    page.keyboard.type("ne")
    expect(page.get_by_test_id("your-name")).to_have_value("June")
    expect(page.get_by_test_id("your-name")).to_be_focused()
    assert page.errors == []
