"""A phone that says "your turn" and keeps its screen on, in real Chromium on a Pixel 7.

The chime and the buzz are spied in the page (`navigator.vibrate` and
`AudioContext.prototype.createOscillator` wrapped before the page's own scripts); the other
players' moves are made through the API, as their phones would. Keeping the screen on is
tried where it matters: a plain-http address that is not localhost (Chromium counts
127.0.0.1 as a secure context and would offer the Wake Lock API there), reached as
http://party.test through a host-resolver rule, as a phone reaches the host's LAN address.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser_fixtures import *  # noqa: F403 - the fixtures host, open_page
from tests.browser_fixtures import CHROMIUM, CHROMIUM_ARGS, _missing
from tests.test_browser import play_single_square, storage_for

expect.set_options(timeout=10_000)
TITLE = "Corner games"
SPIES = """
window.__buzzes = 0;
window.__chimes = 0;
Object.defineProperty(Navigator.prototype, 'vibrate', {configurable: true, writable: true,
  value: function () { window.__buzzes += 1; return true; }});
const createOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__chimes += 1;
  return createOscillator.call(this);
};
"""

# The page as the browser shows it when the phone is put away (hidden) and taken up again.
SET_HIDDEN = """hidden => {
  const state = {configurable: true, value: 'hidden'};
  if (hidden) Object.defineProperty(document, 'visibilityState', state);
  else delete document.visibilityState;
  document.dispatchEvent(new Event('visibilitychange'));
}"""


@pytest.fixture(scope="module")
def browser():
    """Chromium that resolves party.test to this machine, so a page can be opened on a
    plain-http origin that is not localhost (not a secure context)."""
    why = _missing()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=[
            *CHROMIUM_ARGS, "--host-resolver-rules=MAP party.test 127.0.0.1"])
        b.devices = pw.devices
        try:
            yield b
        finally:
            b.close()


def calls(page) -> tuple[int, int]:
    """(buzzes, chimes) the page made so far."""
    return tuple(page.evaluate("[window.__buzzes, window.__chimes]"))


def play_as(host, gid: str, seat: int, token: str) -> None:
    """A move of `seat` made elsewhere (another phone): the first of the host's legal list."""
    host.move(gid, seat, host.legal(gid, seat)[0]["move"], token)


def set_setting(page, name: str, on: bool) -> None:
    page.get_by_test_id("settings").tap()
    box = page.get_by_test_id(f"settings-{name}")
    box.set_checked(on)
    page.get_by_test_id("settings-close").tap()
    expect(page.get_by_test_id("settings-sheet")).to_be_hidden()


def test_the_turn_coming_back_buzzes_chimes_and_marks_the_title_until_the_move(host, open_page):
    """Ann plays Bob on two phones. Her turn coming back from Bob buzzes and chimes once and
    marks the title and the favicon; her own move restores them and calls nothing. Sound off,
    then vibration off, each leaves the other, and both stay off after a reload."""
    game = host.create("duo", [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bob"}])
    gid, ann, bob = game["id"], game["tokens"]["1"], game["tokens"]["2"]
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, {1: ann}), script=SPIES)
    expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
    expect(page).to_have_title(f"Your turn · {TITLE}")  # the game opened on her turn: no call
    assert calls(page) == (0, 0)

    play_single_square(page)  # her own move (its taps start the page's audio)
    expect(page).to_have_title(TITLE)
    play_as(host, gid, 2, bob)
    expect(page).to_have_title(f"Your turn · {TITLE}")
    assert calls(page) == (1, 1)
    icon = page.locator("link[rel~=icon]")
    expect(icon).to_have_attribute("data-marked", "true")
    expect(icon).to_have_attribute("href", re.compile("circle"))

    # Both on by default; sound off leaves the buzz.
    page.get_by_test_id("settings").tap()
    expect(page.get_by_test_id("settings-sound")).to_be_checked()
    expect(page.get_by_test_id("settings-vibrate")).to_be_checked()
    page.get_by_test_id("settings-close").tap()
    set_setting(page, "sound", False)
    play_as(host, gid, 1, ann)
    expect(page).to_have_title(TITLE)
    expect(icon).not_to_have_attribute("data-marked", "true")
    play_as(host, gid, 2, bob)
    expect(page).to_have_title(f"Your turn · {TITLE}")
    assert calls(page) == (2, 1)

    # Vibration off too, and the phone keeps both settings over a reload.
    set_setting(page, "vibrate", False)
    page.reload()
    page.wait_for_function("() => window.ccGame?.board && window.ccGame.state")
    page.get_by_test_id("settings").tap()
    expect(page.get_by_test_id("settings-sound")).not_to_be_checked()
    expect(page.get_by_test_id("settings-vibrate")).not_to_be_checked()
    page.get_by_test_id("settings-close").tap()
    play_as(host, gid, 1, ann)
    expect(page).to_have_title(TITLE)
    play_as(host, gid, 2, bob)
    expect(page).to_have_title(f"Your turn · {TITLE}")  # the title still says it
    assert calls(page) == (0, 0)
    assert page.errors == []


def test_a_hot_seat_phone_names_whose_turn_it_is_and_calls_only_from_elsewhere(host, open_page):
    """Ann and Ben share a phone against Cy's. Passing the phone from Ann to Ben calls
    nobody (it is in hand), but the title names Ben; Cy's move calls Ann by name."""
    game = host.create("trio", [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Ben"},
                                {"kind": "local", "name": "Cy"}])
    gid, tokens = game["id"], game["tokens"]
    on_this_phone = {1: tokens["1"], 2: tokens["2"]}
    page = open_page("Pixel 7", f"/#/game/{gid}", storage_for(gid, on_this_phone), script=SPIES)
    expect(page).to_have_title(f"Your turn, Ann · {TITLE}")
    play_single_square(page)
    expect(page).to_have_title(f"Your turn, Ben · {TITLE}")
    play_single_square(page)
    expect(page).to_have_title(TITLE)
    assert calls(page) == (0, 0)
    play_as(host, gid, 3, tokens["3"])
    expect(page).to_have_title(f"Your turn, Ann · {TITLE}")
    assert calls(page) == (1, 1)
    assert page.errors == []


def test_the_screen_stays_on_during_a_game_on_a_plain_http_address(host, browser):
    """On http://party.test (no Wake Lock API there) the first tap at the table keeps the
    screen on, with the keep-awake library fetched only then; a hidden page lets it go until
    the next tap; the lobby, and the end of the game, let it go."""
    game = host.create("duo", [{"kind": "local", "name": "Rae"}, {"kind": "computer"}])
    gid = game["id"]
    port = host.url.rsplit(":", 1)[1]
    context = browser.new_context(base_url=f"http://party.test:{port}",
                                  **browser.devices["Pixel 7"])
    context.set_default_timeout(10_000)
    storage = json.dumps(storage_for(gid, game["tokens"]))
    context.add_init_script(
        f"for (const [k, v] of Object.entries({storage})) localStorage.setItem(k, v);")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    awake = "document.body.dataset.awake"
    try:
        page.goto(f"/#/game/{gid}")
        expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
        assert page.evaluate("[window.isSecureContext, 'wakeLock' in navigator]") == [False, False]
        assert page.evaluate(awake) == "off"
        assert page.evaluate("typeof window.NoSleep") == "undefined"  # not in the first load

        page.get_by_test_id("turn").tap()
        page.wait_for_function(f"{awake} === 'on'")
        assert page.evaluate("typeof window.NoSleep") == "function"  # fetched on that tap

        # The phone is put away: the screen is let go, and held again on the next tap.
        page.evaluate(SET_HIDDEN, True)
        assert page.evaluate(awake) == "off"
        page.evaluate(SET_HIDDEN, False)
        assert page.evaluate(awake) == "off"
        page.get_by_test_id("turn").tap()
        page.wait_for_function(f"{awake} === 'on'")

        # Back in the lobby: off; at the table again, on at the next tap.
        page.get_by_label("Back to the lobby").tap()
        expect(page.get_by_test_id("create")).to_be_visible()
        assert page.evaluate(awake) == "off"
        page.go_back()
        expect(page.get_by_test_id("turn")).to_have_text("Your turn (Blue)")
        page.get_by_test_id("turn").tap()
        page.wait_for_function(f"{awake} === 'on'")

        # Rae resigns: the game is over and the screen is let go.
        page.get_by_test_id("leave").tap()
        page.get_by_test_id("leave-confirm").tap()
        expect(page.get_by_test_id("gameover")).to_be_visible()
        page.wait_for_function(f"{awake} === 'off'")
        assert errors == []
    finally:
        context.close()
