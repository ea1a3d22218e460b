"""Every game declares the capabilities it has, and only those: a game that writes a verb of a
capability it does not name among its bases is never asked for it (the host finds a capability
by type), and a game that names one must write all of it (`BaseRules` writes none but
`Perft`'s). And the host asks a game for nothing but the core and what it declares: a
take-away game written on the core alone, with no `BaseRules` under it, is created, played,
read, taken back and left through the real host."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import pytest

import tests.games.tictactoe  # noqa: F401 - the test-only game registers itself
from engine import core, events, registry
from engine.capabilities import CAPABILITIES, Clocked, Hints, capability, members
from engine.core import Game
from engine.errors import (
    EngineError,
    GameOverError,
    IllegalMoveError,
    LogError,
    NothingToUndoError,
    NotYourTurnError,
    SeatLeftError,
)
from engine.events import Event, GameCreated, MoveTakenBack, PlayerLeft
from engine.rules import (
    CORE,
    BaseRules,
    ColourSpec,
    Outcome,
    Picture,
    PublicView,
    SeatView,
    Step,
    VariantSpec,
)
from tests.server_fixtures import *  # noqa: F403 - the fixtures
from tests.server_fixtures import bearer

#: The classes that only name verbs: the capability protocols, and what a Protocol carries.
STUBS = (*CAPABILITIES, Protocol, object)


def writer(cls: type, name: str) -> type | None:
    """The class of `cls`' MRO that writes `name` (a verb or an attribute), None if only a
    capability's protocol names it (or nothing does)."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return None if klass in STUBS or klass.__module__ == "typing" else klass
    return None


def declaration_problems(cls: type) -> list[str]:
    """What `cls` (a game's rules class) writes of a capability it does not declare, and what
    it does not write of one it declares: one sentence each, naming the game, the capability
    and the verb."""
    game = getattr(cls, "game", cls.__name__)
    out = []
    for kind in CAPABILITIES:
        declared = kind in cls.__mro__
        for verb in sorted(members(kind)):
            by = writer(cls, verb)
            if declared and by is None:
                out.append(f"{game} declares {kind.__name__} but does not write its {verb}")
            elif not declared and by is not None:
                out.append(f"{game} writes {verb} ({by.__qualname__}) of {kind.__name__}, "
                           f"a capability it does not declare")
    return out


@pytest.mark.parametrize("game_id", [rules.game for rules in registry.games()])
def test_a_game_declares_every_capability_it_writes_and_writes_every_one_it_declares(game_id):
    assert declaration_problems(type(registry.get(game_id))) == []


def test_the_check_names_an_undeclared_verb_and_a_missing_one():
    class Sneaky(BaseRules):
        game = "sneaky"

        def deadline(self, state):  # a clock the host would never watch
            return None

    class Forgetful(BaseRules, Hints):
        game = "forgetful"
        hint_level = 1  # but no hint

    assert declaration_problems(Sneaky) == [
        "sneaky writes deadline (test_the_check_names_an_undeclared_verb_and_a_missing_one."
        "<locals>.Sneaky) of Clocked, a capability it does not declare"]
    assert declaration_problems(Forgetful) == ["forgetful declares Hints but does not write "
                                               "its hint"]
    assert capability(Sneaky(), Clocked) is None


def test_base_rules_writes_no_capability_verb_but_perft():
    written = {verb for kind in CAPABILITIES for verb in members(kind)
               if writer(BaseRules, verb) is BaseRules}
    assert written == {"perft"}


# -- a game on the core alone, through the real host --------------------------------------------

#: What the host may ask of a game that declares nothing: the core's verbs and attributes.
CORE_NAMES = set(CORE) | {"game", "title", "tagline", "summary", "palette", "variants",
                          "levels", "formats", "stats", "legal_query", "legal_query_schema",
                          "passing"}
ASKED: set[str] = set()
PILE = 7


@dataclass(frozen=True, kw_only=True)
class Took(Event):  # registered as an event type by the `takeaway` fixture, for its test only
    TYPE: ClassVar[str] = "takeaway_took"
    seat: int
    move: str


@dataclass(frozen=True)
class Pile:
    seq: int
    takes: tuple[tuple[int, int, int], ...] = ()  # (seq, seat, stones)
    left: frozenset[int] = frozenset()

    @property
    def stones(self) -> int:
        return PILE - sum(n for _, _, n in self.takes)

    @property
    def over(self) -> bool:
        return bool(self.left) or self.stones == 0

    @property
    def to_move(self) -> int | None:
        return None if self.over else 1 + len(self.takes) % 2


def checked_take(state: Pile, seat: int, text: str) -> int:
    if seat in state.left:
        raise SeatLeftError(f"seat {seat} has left")
    if state.over:
        raise GameOverError("the game is over")
    if seat != state.to_move:
        raise NotYourTurnError(f"it is seat {state.to_move}'s turn", to_move=state.to_move)
    if text not in ("1", "2") or int(text) > state.stones:
        raise IllegalMoveError(f"take 1 or 2 of the {state.stones} stones, not {text!r}")
    return int(text)


class TakeAway:
    """Two seats take 1 or 2 stones in turn from a pile of 7; who takes the last one wins.
    The core's fifteen verbs and nothing else; every name asked of it is noted in ASKED."""

    game = "takeaway"
    title = "Take-away"
    tagline = "a pile of stones, 2 players"
    summary = "Take one or two stones; take the last one to win."
    palette = {"first": ColourSpec("#1d4ed8", "#fff", "1"),
               "second": ColourSpec("#b91c1c", "#fff", "2")}
    variants = {"7": VariantSpec("7", "7 stones", (2,), ("first", "second"),
                                 description="a pile of seven")}
    levels: dict = {}
    formats: dict = {}
    stats = ()
    legal_query = None
    legal_query_schema = None
    passing = False

    def __getattribute__(self, name: str) -> Any:
        if not name.startswith("__"):
            ASKED.add(name)
        return object.__getattribute__(self, name)

    def initial_state(self, created: GameCreated) -> Pile:
        if created.variant not in self.variants:
            raise EngineError(f"no variant {created.variant!r}")
        self.variants[created.variant].option_values(created.options)
        if created.players and len(created.players) != 2:
            raise EngineError("take-away has 2 seats")
        return Pile(created.seq)

    def apply(self, state: Pile, event: Event) -> Pile:
        if isinstance(event, Took):
            n = checked_take(state, event.seat, event.move)
            return Pile(event.seq, state.takes + ((event.seq, event.seat, n),), state.left)
        if isinstance(event, PlayerLeft):
            return Pile(event.seq, state.takes, state.left | {event.seat})
        if isinstance(event, MoveTakenBack):
            return Pile(event.seq, tuple(t for t in state.takes if t[0] < event.from_seq),
                        state.left)
        raise LogError(f"event {event.TYPE} is not a take-away event")

    def check_move(self, state: Pile, seat: int, text: str, *, now=None) -> int:
        return checked_take(state, seat, text)

    def play_move(self, state: Pile, seat: int, move: int, *, now=None) -> Took:
        return Took(seq=state.seq + 1, seat=seat, move=str(move))

    def undo(self, state: Pile, seat: int, *, now=None) -> MoveTakenBack:
        own = [q for q, s, _ in state.takes if s == seat]
        if not own or seat in state.left:
            raise NothingToUndoError(f"seat {seat} has nothing to take back")
        return MoveTakenBack(seq=state.seq + 1, seat=seat, from_seq=own[-1])

    def leave(self, state: Pile, seat: int, *, now=None) -> PlayerLeft:
        if seat not in (1, 2) or seat in state.left or state.over:
            raise GameOverError("nothing to leave")
        return PlayerLeft(seq=state.seq + 1, seat=seat)

    def legal(self, state: Pile, seat: int, query: str | None = None) -> list[dict]:
        if seat != state.to_move:
            return []
        return [{"move": str(n)} for n in (1, 2) if n <= state.stones]

    def to_move(self, state: Pile) -> int | None:
        return state.to_move

    def is_over(self, state: Pile) -> bool:
        return state.over

    def outcome(self, state: Pile) -> Outcome:
        scores = tuple(sum(n for _, s, n in state.takes if s == seat) for seat in (1, 2))
        if not state.over:
            return Outcome((), ("draw", "draw"), scores, "playing")
        winner = 3 - next(iter(state.left)) if state.left else state.takes[-1][1]
        results = tuple("win" if s == winner else "loss" for s in (1, 2))
        return Outcome((winner,), results, scores, "resigned" if state.left else "finished")

    def left(self, state: Pile) -> frozenset[int]:
        return state.left

    def public_view(self, state: Pile) -> PublicView:
        seats = tuple(SeatView(colour, s in state.left, None, state.to_move == s)
                      for s, colour in ((1, "first"), (2, "second")))
        last = None
        if state.takes:
            q, s, n = state.takes[-1]
            last = {"seat": s, "move": str(n), "seq": q}
        return PublicView({"stones": state.stones}, seats, last)

    def step(self, state: Pile, event: Event) -> Step:
        if isinstance(event, Took):
            return Step("move", event.seat, event.move)
        if isinstance(event, PlayerLeft):
            return Step("left", event.seat, text="left")
        return Step("takeback", getattr(event, "seat", None), text="took back")

    def picture(self, state: Pile) -> Picture:
        cells = [""] * PILE
        at = 0
        for _, s, n in state.takes:
            for _ in range(n):
                cells[at] = ("first", "second")[s - 1]
                at += 1
        return Picture((tuple(cells),), tuple("abcdefg"), ("1",))

    def catalog(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "tagline": self.tagline,
                "summary": self.summary,
                "palette": {name: c.to_dict() for name, c in self.palette.items()},
                "variants": [v.to_dict() for v in self.variants.values()],
                "levels": [], "formats": [], "stats": [], "legal_query": None,
                "actions": [], "hint": False, "pass": False}


@pytest.fixture
def takeaway(monkeypatch, tmp_path):
    """Take-away offered on this host for one test (the registry as it was afterwards)."""
    board = tmp_path / "takeaway.js"
    board.write_text("export function draw() {}\n")
    rules = TakeAway()
    registry.games()  # the built-ins first
    monkeypatch.setitem(registry._GAMES, rules.game,
                        registry.Registration(rules, board, __name__, False))
    monkeypatch.setitem(core.RULES, rules.game, rules)
    monkeypatch.setitem(events.EVENT_TYPES, Took.TYPE, Took)
    ASKED.clear()
    yield rules


def test_the_core_only_game_declares_nothing(takeaway):
    assert declaration_problems(TakeAway) == []
    assert not any(capability(takeaway, kind) for kind in CAPABILITIES)
    game = Game.new("takeaway", "7", ("Ann", "Bob"))
    game.play(1, "2")
    with pytest.raises(EngineError, match="no action"):
        game.act(2, "resign")
    assert Game.from_json(game.to_json()).state == game.state


def test_the_host_asks_a_core_only_game_for_the_core_alone(takeaway, client):
    line = next(g for g in client.get("/api/catalog").json["games"] if g["game"] == "takeaway")
    assert (line["actions"], line["hint"], line["legal_query"]) == ([], False, None)
    r = client.post("/api/games", json={
        "game": "takeaway", "variant": "7",
        "seats": [{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Bob"}]})
    assert r.status_code == 201, r.json
    gid, tokens = r.json["id"], r.json["tokens"]

    def state() -> dict:
        got = client.get(f"/api/games/{gid}")
        assert got.status_code == 200, got.json
        return got.json

    def legal(seat: int) -> list[str]:
        got = client.get(f"/api/games/{gid}/legal?seat={seat}")
        assert got.status_code == 200, got.json
        return [m["move"] for m in got.json["moves"]]

    def send(path: str, seat: int, **body) -> Any:
        return client.post(f"/api/games/{gid}/{path}", headers=bearer(tokens[str(seat)]),
                           json={"seat": seat, "seq": state()["seq"], **body})

    assert legal(1) == ["1", "2"] and legal(2) == []
    for seat, take in ((1, "2"), (2, "2")):
        assert send("moves", seat, move=take).status_code == 201
    assert state()["board"] == {"stones": 3}
    r = send("undo", 2)  # the hot seat's takeback is at once
    assert r.status_code == 200 and r.json["event"]["type"] == "move_taken_back", r.json
    assert state()["board"] == {"stones": 5} and state()["to_move"] == 2
    assert send("actions", 2, action="resign").status_code == 422  # no actions
    hint = client.get(f"/api/games/{gid}/hint?seat=2", headers=bearer(tokens["2"]))
    assert hint.status_code == 404 and hint.json["error"]["code"] == "no_hints", hint.json
    assert client.get(f"/api/games/{gid}/replay.json").status_code == 200
    r = client.post(f"/api/games/{gid}/leave", headers=bearer(tokens["2"]), json={"seat": 2})
    assert r.status_code in (200, 201), r.json
    done = state()
    assert done["status"] == "finished" and done["result"]["winners"] == [1]
    assert done["practice"] is False
    assert client.get(f"/api/games/{gid}/events").status_code == 200
    assert {"check_move", "play_move", "undo", "leave", "legal", "public_view"} <= ASKED
    assert ASKED <= CORE_NAMES, sorted(ASKED - CORE_NAMES)
