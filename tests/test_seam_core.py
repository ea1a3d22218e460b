"""The seam between the host and a game: a small required core, optional capabilities found by
type (never by probing an object for a method), and the shared seat checks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tests.games.tictactoe  # noqa: F401 - the test-only game registers itself
from engine import registry
from engine.capabilities import (
    CAPABILITIES,
    Actions,
    Chance,
    Clocked,
    Gtp,
    Hints,
    HostPreparation,
    Perft,
    QuickMove,
    Records,
    Replacement,
    Takebacks,
    capabilities,
    capability,
)
from engine.core import Game
from engine.errors import BadSeatError, GameOverError, NotYourTurnError, SeatLeftError
from engine.rules import CORE, BaseRules, Rules
from tests.server_fixtures import *  # noqa: F403 - the fixtures

ROOT = Path(__file__).resolve().parent.parent


def protocol_methods(proto: type) -> set[str]:
    return {name for name, value in vars(proto).items()
            if callable(value) and not name.startswith("_")}


def test_the_required_core_has_at_most_fifteen_methods():
    assert protocol_methods(Rules) == set(CORE)
    assert len(CORE) <= 15


def test_every_game_writes_the_core():
    for rules in registry.games():
        for verb in CORE:
            assert callable(getattr(rules, verb)), (rules.game, verb)
        mine = [cls for cls in type(rules).__mro__ if cls not in BaseRules.__mro__]
        for verb in ("initial_state", "apply", "check_move", "play_move", "undo", "leave",
                     "legal", "to_move", "is_over", "outcome", "left", "public_view"):
            assert any(verb in vars(cls) for cls in mine), (rules.game, verb)


def test_capabilities_are_small_and_apart_from_the_core():
    for kind in CAPABILITIES:
        verbs = protocol_methods(kind)
        assert 1 <= len(verbs) <= 3, kind
        assert not verbs & set(CORE), kind


def test_each_game_declares_what_it_does():
    declared = {rules.game: {k.__name__ for k in capabilities(rules)}
                for rules in registry.games()}
    assert declared["cornerclaim"] == {"Computer", "QuickMove", "HostPreparation", "Hints",
                                       "Records", "Gtp", "Analysis", "Ladder", "LegalJson",
                                       "ApplyMove", "Perft"}
    assert declared["corners"] == {"Clocked", "Actions", "Computer", "Hints", "Takebacks",
                                   "Records", "Analysis", "Practice", "Ladder", "ApplyMove",
                                   "Perft"}
    assert declared["marbles"] == {"Chance", "Computer", "Replacement", "Hints", "Analysis",
                                   "Ladder", "ApplyMove", "Perft"}
    assert declared["tictactoe"] == {"Computer", "ApplyMove", "Perft"}


@pytest.mark.parametrize("kind", [k for k in CAPABILITIES if k is not Perft])
def test_a_declared_capability_is_the_game_s_own_and_an_undeclared_one_is_not(kind):
    """A game that declares a capability writes its verbs (BaseRules has none of them); a
    game that writes one of them declares it."""
    for rules in registry.games():
        mine = [cls for cls in type(rules).__mro__ if cls not in BaseRules.__mro__]
        written = {verb for verb in protocol_methods(kind)
                   if any(verb in vars(cls) for cls in mine if cls not in CAPABILITIES)}
        if capability(rules, kind) is None:
            assert not written, (rules.game, kind.__name__, written)
        else:
            assert written == protocol_methods(kind), (rules.game, kind.__name__)


def test_capability_gives_the_rules_or_none():
    corners = registry.get("corners")
    assert capability(corners, Clocked) is corners
    assert capability(corners, Chance) is None
    assert capability(registry.get("marbles"), Replacement) is registry.get("marbles")
    assert capability(registry.get("cornerclaim"), Gtp) is registry.get("cornerclaim")
    for kind in (Actions, Records, QuickMove, HostPreparation, Takebacks):
        assert capability(registry.get("tictactoe"), kind) is None
    assert capability(registry.get("tictactoe"), Hints) is None
    assert capability(object(), Perft) is None


def test_a_move_is_checked_once_into_the_game_s_value_then_made_an_event():
    for game_id, text in (("cornerclaim", None), ("corners", None), ("marbles", None),
                          ("tictactoe", "b2")):
        rules = registry.get(game_id)
        variant = next(iter(rules.variants))
        game = Game.new(game_id, variant)
        state = game.state
        if rules.to_move(state) is None:  # a deal first
            import random
            state = rules.apply(state, rules.chance(state, random.Random(1)))
        seat = rules.to_move(state)
        text = text or rules.legal(state, seat)[0]["move"]
        move = rules.check_move(state, seat, text)
        event = rules.play_move(state, seat, move)
        assert event == rules.play(state, seat, text)
        assert rules.apply(state, event) is not None


def test_the_shared_seat_checks():
    rules = registry.get("cornerclaim")
    state = Game.new("cornerclaim", "duo").state
    with pytest.raises(BadSeatError, match="seat must be 1 or 2"):
        rules.check_seat(3, 2)
    with pytest.raises(BadSeatError, match="seat must be 1 to 4"):
        rules.check_seat(True, 4)
    with pytest.raises(NotYourTurnError):
        rules.check_turn(state, 2, 2)
    left = rules.apply(state, rules.leave(state, 2))
    with pytest.raises(GameOverError):
        rules.check_turn(left, 1, 2)
    with pytest.raises(SeatLeftError, match="has already left"):
        rules.check_leave(left, 2, 2)
    with pytest.raises(SeatLeftError, match="has left this game"):
        rules.check_undo_seat(left, 2, 2)


#: The paths that must hold a game only through the core and `capability`.
OWN_PATHS = ("gtp", "replays", "server")
PROBE = re.compile(r"\b(getattr|hasattr)\(\s*[\w.]*rules\b")
#: A probe for one of a capability's verbs (or a level's rating) on any object.
VERBS = sorted({verb for kind in CAPABILITIES for verb in vars(kind)
                if not verb.startswith("_")} | {"hint_level", "actions", "rating"})
PROBE_VERB = re.compile(r"\b(getattr|hasattr)\([^)]*[\"'](" + "|".join(VERBS) + r")[\"']")


def test_no_probe_for_a_method_on_a_rules_object():
    found = []
    for path in OWN_PATHS:
        p = ROOT / path
        for f in ([p] if p.is_file() else sorted(p.rglob("*.py"))):
            for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
                if PROBE.search(line) or PROBE_VERB.search(line):
                    found.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []


def test_the_probe_check_sees_a_probe():
    for line in ('if hasattr(rules, "quick_move"):', 'getattr(table.rules, "chance", None)',
                 'rating = getattr(spec, "rating", None)', 'getattr(r, "deadline")'):
        assert PROBE.search(line) or PROBE_VERB.search(line), line
    assert not PROBE_VERB.search('getattr(args, "seed", None)')


#: Each game's own move check, the one its `check_move` and its fold of a log call.
MOVE_CHECKS = {"cornerclaim": "check_placement", "corners": "resolve", "marbles": "resolve",
               "tictactoe": "_check_mark"}


@pytest.mark.parametrize("game_id", sorted(MOVE_CHECKS))
def test_a_move_made_here_is_checked_once_and_a_log_read_in_full(game_id, monkeypatch):
    import random

    rules = registry.get(game_id)
    calls = []
    name = MOVE_CHECKS[game_id]
    check = getattr(type(rules), name)

    def counted(self, *args, **kwargs):
        calls.append(args)
        return check(self, *args, **kwargs)

    monkeypatch.setattr(type(rules), name, counted)
    game = Game.new(game_id, next(iter(rules.variants)))
    if rules.to_move(game.state) is None:  # a deal first
        game.append(rules.chance(game.state, random.Random(1)))
    for _ in range(2):
        seat = rules.to_move(game.state)
        before = len(calls)
        game.play(seat, rules.legal(game.state, seat)[0]["move"])
        assert len(calls) == before + 1
    calls.clear()
    again = Game.from_json(game.to_json())
    assert len(calls) == 2 and again.state == game.state


def two_seat_variant(rules) -> str:
    return next(v.name for v in rules.variants.values() if 2 in v.seats)


@pytest.mark.parametrize("game_id", sorted(MOVE_CHECKS))
def test_a_move_sent_to_the_host_is_checked_once(game_id, client, monkeypatch):
    """Through the HTTP API: each move command asks the game's `check_move` once, and the
    game's own move check runs once under it (the host's fold does not check it again)."""
    from tests.server_fixtures import bearer

    rules = registry.get(game_id)
    calls = {"check_move": 0, MOVE_CHECKS[game_id]: 0}
    for name in calls:
        original = getattr(type(rules), name)

        def counted(self, *args, _original=original, _name=name, **kwargs):
            calls[_name] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(type(rules), name, counted)
    r = client.post("/api/games", json={
        "game": game_id, "variant": two_seat_variant(rules),
        "seats": [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bob"}]})
    assert r.status_code == 201, r.json
    gid, tokens = r.json["id"], r.json["tokens"]
    for _ in range(3):
        s = client.get(f"/api/games/{gid}").json
        seat = s["to_move"]
        text = client.get(f"/api/games/{gid}/legal?seat={seat}").json["moves"][0]["move"]
        for name in calls:
            calls[name] = 0
        r = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[str(seat)]),
                        json={"seat": seat, "move": text, "seq": s["seq"]})
        assert r.status_code == 201, r.json
        assert calls == {"check_move": 1, MOVE_CHECKS[game_id]: 1}, text
    assert client.get(f"/api/games/{gid}").json["seq"] == s["seq"] + 1
