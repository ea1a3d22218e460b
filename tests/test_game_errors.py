"""Errors and level ratings live with their game: `engine.errors` holds only the shared errors,
each game's `errors` module its own (and offers the shared ones); every error says its family,
and the host's status for each code follows from it."""

from __future__ import annotations

import inspect

import pytest

from engine import errors as shared
from engine import registry
from engine.cornerclaim import errors as cornerclaim
from engine.corners import errors as corners
from engine.marbles import errors as marbles
from server.errors import from_engine

#: What the host answers each family with.
FAMILY_STATUS = {"malformed": 400, "illegal": 422, "not_now": 409}


def error_classes(module) -> dict[str, type]:
    return {name: cls for name, cls in vars(module).items()
            if inspect.isclass(cls) and issubclass(cls, shared.EngineError)}


def own(module) -> dict[str, type]:
    return {n: c for n, c in error_classes(module).items() if c.__module__ == module.__name__}


def test_the_shared_module_names_no_game_s_rule():
    assert set(error_classes(shared)) == {
        "EngineError", "NotationError", "IllegalMoveError", "TurnError", "NotYourTurnError",
        "GameOverError", "SeatLeftError", "NothingToUndoError", "StaleSeqError",
        "BadSeatError", "LogError", "NoSuchGameError", "BadOptionError"}


def test_each_game_s_errors_are_its_own_and_it_offers_the_shared_ones():
    assert {c.code for c in own(cornerclaim).values()} == {
        "not_a_piece", "piece_used", "off_board", "overlap", "start_cell", "edge_contact",
        "no_corner_contact", "cannot_pass", "bad_piece"}
    assert {c.code for c in own(corners).values()} == {
        "time_up", "takeback_refused", "no_draw_offer", "draw_offer_refused",
        "not_your_piece", "unreachable", "not_a_chain", "locks_in", "bad_record"}
    assert {c.code for c in own(marbles).values()} == {"bad_setup"}
    for module in (cornerclaim, corners, marbles):
        assert set(error_classes(shared)) <= set(error_classes(module))


@pytest.mark.parametrize("module", [shared, cornerclaim, corners, marbles],
                         ids=lambda m: m.__name__)
def test_every_error_has_a_code_a_family_and_the_host_s_status_follows_it(module):
    for cls in error_classes(module).values():
        assert cls.code and cls.family in shared.FAMILIES, cls
        assert from_engine(cls("x")).status == FAMILY_STATUS[cls.family], cls.code


def test_a_game_s_levels_carry_their_ladder_ratings():
    levels = registry.get("cornerclaim").levels
    assert {n: spec.rating for n, spec in levels.items()} == {
        1: 800.0, 2: 1000.0, 3: 1250.0, 4: 1450.0, 5: 1650.0, 6: 1850.0}
    assert registry.get("cornerclaim").catalog()["levels"][2]["rating"] == 1250.0


def test_the_host_names_no_game_s_own_code_and_answers_a_new_one_by_its_family():
    from server.errors import STATUS

    for module in (cornerclaim, corners, marbles):
        for cls in own(module).values():
            assert cls.code not in STATUS, cls.code

    class Unheard(shared.TurnError):  # a code no game had when the host was written
        code = "not_while_dealing"

    error = from_engine(Unheard("the deal is not done", seat=2))
    assert (error.status, error.code, error.details) == (409, "not_while_dealing", {"seat": 2})
