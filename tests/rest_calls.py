"""What the host tests ask of one game over REST through a Flask test client: create it, read
its state, events and legal moves, and play a move (each answer checked where it must
succeed)."""

from __future__ import annotations

from tests.server_fixtures import bearer


def new_game(client, game: str, variant: str, seats: list[dict], **extra) -> dict:
    r = client.post("/api/games", json={"game": game, "variant": variant, "seats": seats,
                                        **extra})
    assert r.status_code == 201, r.json
    return r.json


def state(client, gid) -> dict:
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.json
    return r.json


def events(client, gid, since: int = 0) -> list[dict]:
    return client.get(f"/api/games/{gid}/events?since={since}").json["events"]


def legal(client, gid, seat, square: str | None = None) -> list[dict]:
    """`seat`'s legal moves (only those from `square`, where the game moves pieces)."""
    q = f"&from={square}" if square else ""
    r = client.get(f"/api/games/{gid}/legal?seat={seat}{q}")
    assert r.status_code == 200, r.json
    return r.json["moves"]


def play(client, gid, seat, move, seq, token):
    return client.post(f"/api/games/{gid}/moves", json={"seat": seat, "move": move, "seq": seq},
                       headers=bearer(token))
