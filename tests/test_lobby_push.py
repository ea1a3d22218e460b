"""The lobby and the table view are pushed, not polled: a socket that watches the lobby gets
every game's entry as it is created and changes, and tonight's standings as they change."""

from __future__ import annotations

import queue

import requests

from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import DEADLINE
from tests.socket_client import Client
from tests.test_api import PLUS


class Screen:
    """A screen watching the room: what the lobby room pushes, in order."""

    def __init__(self, url: str) -> None:
        self.sio = Client()
        self.pushed: dict[str, queue.Queue] = {"lobby": queue.Queue(), "tonight": queue.Queue()}
        for name, q in self.pushed.items():
            self.sio.on(name, q.put)
        self.sio.connect(url, transports=["websocket"], wait_timeout=10)

    def call(self, event: str, data: dict | None = None) -> dict:
        return self.sio.call(event, data if data is not None else {}, timeout=DEADLINE)

    def next_entry(self, game_id: str, **wanted) -> dict:
        """The next pushed entry of `game_id` that has `wanted`'s values."""
        while True:
            entry = self.pushed["lobby"].get(timeout=DEADLINE)["game"]
            if entry["id"] == game_id and all(entry.get(k) == v for k, v in wanted.items()):
                return entry

    def close(self) -> None:
        self.sio.disconnect()


def duo(url: str, names=("Ann", "Bo")) -> dict:
    seats = [{"kind": "local", "name": n} for n in names]
    r = requests.post(f"{url}/api/games", json={"variant": "duo", "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()


def test_a_watching_screen_gets_each_game_as_it_is_made_and_played(live):
    host = live()
    before = duo(host.url)
    tv = Screen(host.url)
    try:
        ack = tv.call("watch_lobby")
        assert ack["ok"] and [g["id"] for g in ack["games"]] == [before["id"]]
        assert ack["tonight"]["players"] == []
        game = duo(host.url, ("Cy", "Di"))
        created = tv.next_entry(game["id"])
        assert created["seq"] == 1 and [s["name"] for s in created["seats"]] == ["Cy", "Di"]
        r = requests.post(f"{host.url}/api/games/{game['id']}/moves",
                          json={"seat": 1, "move": PLUS, "seq": 1},
                          headers={"Authorization": f"Bearer {game['tokens']['1']}"})
        assert r.status_code == 201, r.text
        moved = tv.next_entry(game["id"], seq=2)
        assert moved["status"] == created["status"] and moved["rematch_of"] is None
        assert moved["updated_at"] >= created["updated_at"] >= created["created_at"]
        requests.post(f"{host.url}/api/games/{game['id']}/leave", json={"seat": 2},
                      headers={"Authorization": f"Bearer {game['tokens']['2']}"})
        assert tv.next_entry(game["id"], status="finished")["seq"] == 3
        again = requests.post(f"{host.url}/api/games/{game['id']}/rematch",
                              headers={"Authorization": f"Bearer {game['tokens']['1']}"})
        assert tv.next_entry(again.json()["id"])["rematch_of"] == game["id"]
        tonight = tv.pushed["tonight"].get(timeout=DEADLINE)
        assert [(p["name"], p["points"]) for p in tonight["players"]] == [("Cy", 22),
                                                                           ("Di", 3)]
        assert tv.call("unwatch_lobby") == {"ok": True}
        unseen = duo(host.url)["id"]
        assert tv.call("watch_lobby")["ok"]  # a round trip: what was pushed came before it
        heard = []
        while not tv.pushed["lobby"].empty():
            heard.append(tv.pushed["lobby"].get()["game"]["id"])
        assert unseen not in heard
    finally:
        tv.close()


def test_a_new_evening_is_pushed_to_the_watching_screens(live):
    host = live()
    tv = Screen(host.url)
    try:
        tv.call("watch_lobby")
        r = requests.post(f"{host.url}/api/tonight")  # loopback: the host PC itself
        assert r.status_code == 200, r.text
        pushed = tv.pushed["tonight"].get(timeout=DEADLINE)
        assert pushed == r.json() and pushed["players"] == []
        assert tv.call("watch_lobby", {"x": 1})["error"]["code"] == "invalid_request"
    finally:
        tv.close()
