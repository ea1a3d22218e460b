"""What a game may do beyond the required core (`engine.rules.Rules`), one small protocol per
capability.

A game says which it has by naming them among its bases, next to `BaseRules`:

    class TicTacToeRules(BaseRules, Computer, ApplyMove): ...

or through a class of its own that writes one or more capabilities in a module of its own
and derives from them (Corners' `clock.CornersClock(Clocked, Takebacks)`), named before
`BaseRules`:

    class CornersRules(CornersClock, CornersActions, CornersPlayers, CornersRecords,
                       CornersLadder, BaseRules, ApplyMove): ...

and the host asks with `capability(rules, Clocked)`, which gives the rules typed as that
capability, or None if the game did not declare it. It is a question about the game's type,
never about which attributes an object happens to have. `BaseRules` has no verb of any
capability but `Perft`'s, so a game that writes a capability's verbs and forgets to declare it
is never asked for them, and a host that called a verb the game did not declare would fail
loudly (AttributeError), not get a silent "nothing"; `tests/test_capability_declarations.py`
holds every registered game to what it declares.

Each protocol names the verbs (and attributes) the host uses for it:

- `Clocked`: a clock the host must watch (`deadline`, `expire`, `resume`).
- `Chance`: events the host draws at random (`chance`: a deal of marbles).
- `Actions`: a seat's own actions besides moving (`act`, `available_actions`,
  `computer_action`; the names in `actions`).
- `Computer`: computer players (`choose_move` at a level of `levels`, `warm_up` in a worker).
- `QuickMove`: a quick answer while `warm_up` still runs (`quick_move`).
- `Replacement`: the computer plays on for a seat that left (`replacement_level`).
- `HostPreparation`: work a long-running host does once before taking requests
  (`prepare_host`).
- `Hints`: a hint for the seat to move (`hint`, answered at `hint_level`).
- `Takebacks`: a reason the game refuses every takeback now (`takeback_refusal`).
- `Records`: game records besides the JSON log (`export`, `read`; the formats in `formats`).
- `Gtp`: a Go Text Protocol session (`gtp_session`).
- `Analysis`: a review of a finished game's moves (`analyse_ply`, labelled by the game's
  `analysis_thresholds`; `engine.analysis`).
- `Practice`: games played for practice, unrated and off the ladder (`practice`).
- `Ladder`: each seat's ladder points and the game's own stats (`ladder`); without it the
  ladder gives the outcome's points (`engine.rules.ladder_seats`).
- `LegalJson`: the legal list encoded by the game itself, faster than `json.dumps` of
  `legal` (`legal_json`; without it, `engine.rules.legal_json`).
- `ApplyMove`: folding a move made here without checking it again (`apply_move`, given the
  move value `check_move` gave; without it the host's `Game` folds with `apply`).
- `Perft`: counting move sequences to test a move generator (`perft`; `BaseRules` has one
  that walks the core, so every game built on it has it).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from .analysis import PlyReview, Thresholds
    from .events import Event
    from .views import LadderSeat

S = TypeVar("S")
K = TypeVar("K")


class Clocked(Protocol[S]):
    def deadline(self, state: S) -> float | None: ...
    def expire(self, state: S, now: float) -> Event | None: ...
    def resume(self, state: S, now: float) -> Event | None: ...


class Chance(Protocol[S]):
    def chance(self, state: S, rng: random.Random) -> Event | None: ...


class Actions(Protocol[S]):
    actions: tuple[str, ...]

    def act(self, state: S, seat: int, action: str, *, now: float | None = None) -> Event: ...
    def available_actions(self, state: S, seat: int) -> list[str]: ...
    def computer_action(self, state: S, seat: int) -> str | None: ...


class Computer(Protocol[S]):
    def choose_move(self, state: S, seat: int, *, level: int, seed: int) -> str | None: ...
    def warm_up(self) -> float: ...


class QuickMove(Protocol[S]):
    def quick_move(self, state: S, seat: int, *, level: int, seed: int) -> str | None: ...


class Replacement(Protocol[S]):
    def replacement_level(self, state: S, seat: int) -> int | None: ...


class HostPreparation(Protocol):
    def prepare_host(self) -> None: ...


class Hints(Protocol[S]):
    hint_level: int | None

    def hint(self, state: S, seat: int) -> str | None: ...


class Takebacks(Protocol[S]):
    def takeback_refusal(self, state: S) -> str | None: ...


class Records(Protocol):
    """`game` is the host's `engine.core.Game`, typed loosely here because `Game` folds its log
    through the capabilities."""

    def export(self, game: Any, fmt: str) -> str: ...
    def read(self, text: str) -> Any: ...


class Gtp(Protocol):
    def gtp_session(self, variant: str, **options: Any) -> Any: ...


class Analysis(Protocol[S]):
    analysis_thresholds: Thresholds

    def analyse_ply(self, state: S, seat: int, move: str, *,
                    level: int | None = None, seed: int = 0) -> PlyReview: ...


class Practice(Protocol[S]):
    def practice(self, state: S) -> bool: ...


class Ladder(Protocol[S]):
    def ladder(self, state: S) -> tuple[LadderSeat, ...]: ...


class LegalJson(Protocol[S]):
    def legal_json(self, state: S, seat: int, query: str | None = None) -> bytes: ...


class ApplyMove(Protocol[S]):
    def apply_move(self, state: S, event: Event, move: Any) -> S: ...


class Perft(Protocol):
    def perft(self, variant: str, depth: int, moves: tuple[str, ...] = ()) -> int: ...


#: Every capability, for the tests and the docs.
CAPABILITIES: tuple[type, ...] = (Clocked, Chance, Actions, Computer, QuickMove, Replacement,
                                  HostPreparation, Hints, Takebacks, Records, Gtp, Analysis,
                                  Practice, Ladder, LegalJson, ApplyMove, Perft)


def capability(rules: Any, kind: type[K]) -> K | None:
    """`rules` as the capability `kind` if its game declares it (names it among its bases),
    else None."""
    return rules if kind in type(rules).__mro__ else None  # type: ignore[return-value]


def capabilities(rules: Any) -> tuple[type, ...]:
    """The capabilities `rules`' game declares, in `CAPABILITIES` order."""
    mro = type(rules).__mro__
    return tuple(kind for kind in CAPABILITIES if kind in mro)


def members(kind: type) -> frozenset[str]:
    """What a game that declares `kind` writes for it: its verbs and its attributes."""
    return frozenset(name for name in (*vars(kind), *getattr(kind, "__annotations__", {}))
                     if not name.startswith("_"))
