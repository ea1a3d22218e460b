"""What the table's controls read from the host: whether a game has a pass (the catalog),
whether it takes takebacks now and why not (the state's `undo`, the same words its refusal
says), the latest event in the game's words (`last_step`), and a computer that declines a
draw offered to it."""

from __future__ import annotations

from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer, wait_for
from tests.test_api import assert_error
from tests.test_corners_host import act, legal, new_corners, play, state

CLOCKED = {"options": {"reserve_s": 300, "increment_s": 5}}


def test_only_a_game_with_passing_says_so_in_its_catalog(client):
    games = {g["game"]: g for g in client.get("/api/catalog").json["games"]}
    assert games["cornerclaim"]["pass"] is True
    assert games["corners"]["pass"] is False
    assert games["marbles"]["pass"] is False


def test_a_rated_clocked_game_says_it_takes_no_takebacks_with_the_words_it_refuses_with(client):
    created = new_corners(client, **CLOCKED)
    gid, tokens = created["id"], created["tokens"]
    s = state(client, gid)
    reason = "No takebacks in a rated game played with a clock"
    assert s["undo"] == {"allowed": False, "reason": reason}
    move = legal(client, gid, 1)[0]["move"]
    assert play(client, gid, 1, move, s["seq"], tokens["1"]).status_code == 201
    r = client.post(f"/api/games/{gid}/undo", json={"seat": 1, "seq": s["seq"] + 1},
                    headers=bearer(tokens["1"]))
    assert_error(r, 409, "takeback_refused")
    assert r.json["error"]["message"] == reason
    # without a clock the same variant takes them
    free = new_corners(client, options={"reserve_s": 0, "increment_s": 0})
    assert state(client, free["id"])["undo"] == {"allowed": True, "reason": None}


def test_the_state_words_the_latest_step(client):
    created = new_corners(client)
    gid, tokens = created["id"], created["tokens"]
    s = state(client, gid)
    assert s["last_step"] is None
    assert act(client, gid, 1, "offer_draw", s["seq"], tokens["1"]).status_code == 201
    s = state(client, gid)
    assert s["last_step"] == {"seq": s["seq"], "kind": "draw_offered", "seat": 1,
                              "text": "offered a draw"}
    assert act(client, gid, 2, "decline_draw", s["seq"], tokens["2"]).status_code == 201
    assert state(client, gid)["last_step"]["text"] == "declined the draw offer"


def test_a_computer_declines_a_draw_offered_to_it_and_plays_on(make_app):
    client = make_app().test_client()
    created = new_corners(client, seats=[{"kind": "local", "name": "Pia"},
                                         {"kind": "computer", "level": 1}])
    gid, token = created["id"], created["tokens"]["1"]
    s = state(client, gid)
    assert act(client, gid, 1, "offer_draw", s["seq"], token).status_code == 201
    # the computer's answer is an event of its seat, in the log before anything else of it
    wait_for(lambda: state(client, gid)["board"]["draw_offer"] is None, "the answer")
    kinds = [e["type"] for e in client.get(f"/api/games/{gid}/events?since=0").json["events"]]
    assert kinds[-1] == "corners_draw_declined"
    after = state(client, gid)
    assert after["last_step"] == {"seq": after["seq"], "kind": "draw_declined", "seat": 2,
                                  "text": "declined the draw offer"}
    assert after["status"] == "running" and after["to_move"] == 1
    # the replay words it too
    frames = client.get(f"/api/games/{gid}/replay").json["frames"]
    assert [f["text"] for f in frames[-2:]] == ["offered a draw", "declined the draw offer"]


def test_replay_show_words_a_draw_offer(client, tmp_path, capsys):
    """The command line's replay says a draw offer and its answer in the game's words."""
    from replays.cli import show

    created = new_corners(client, options={"reserve_s": 0, "increment_s": 0})
    gid, tokens = created["id"], created["tokens"]
    seq = state(client, gid)["seq"]
    assert act(client, gid, 1, "offer_draw", seq, tokens["1"]).status_code == 201
    assert act(client, gid, 2, "decline_draw", seq + 1, tokens["2"]).status_code == 201
    path = tmp_path / "game.json"
    path.write_text(client.get(f"/api/games/{gid}/replay.json").get_data(as_text=True))
    assert show(path, None) == 0
    out = capsys.readouterr().out
    assert "Boris declined the draw offer" in out and "draw_declined" not in out
