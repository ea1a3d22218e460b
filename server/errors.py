"""One error shape for every failure a client can cause, and one HTTP status per code.

Every 4xx the host sends — from the engine's rules, the service's checks, marshmallow
validation or Flask itself (404, 405, 413) — is `{"error": {"code", "message", "details"}}`,
and the socket acknowledgements use the same dict. Engine errors keep their precise message
("touches your own piece along an edge at f6") and their details.
"""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError

#: HTTP status of each code the host itself sends and of the codes every game shares; a
#: game's own codes are answered by their family (FAMILY_STATUS), so none is named here.
STATUS: dict[str, int] = {
    "bad_json": 400,
    "bad_request": 400,
    "bad_seat": 400,
    "bad_log": 400,
    "engine_error": 400,
    "bad_notation": 422,
    "invalid_request": 422,
    "bad_option": 422,
    "no_such_game": 422,
    "no_such_variant": 422,
    "no_such_action": 422,
    "illegal_move": 422,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "unknown_game": 404,
    "no_such_format": 404,
    "no_hints": 404,
    "method_not_allowed": 405,
    "too_large": 413,
    "stale_seq": 409,
    "turn": 409,
    "not_your_turn": 409,
    "game_over": 409,
    "seat_left": 409,
    "nothing_to_undo": 409,
    "not_started": 409,
    "seat_taken": 409,
    "not_open": 409,
    "not_computer": 409,
    "not_away": 409,
    "grace_period": 409,
    "undo_pending": 409,
    "no_undo_request": 409,
    "not_finished": 409,
    "closed": 409,
    "too_many_games": 409,
    "too_many_requests": 429,
    "disk_full": 507,
    "store_failed": 503,
    "store_unavailable": 503,
}
#: HTTP status of an engine error whose code is not in STATUS, by its family
#: (engine.errors): a request that cannot be read, a move the rules forbid, not now.
FAMILY_STATUS: dict[str, int] = {"malformed": 400, "illegal": 422, "not_now": 409}


class ApiError(Exception):
    """A failure the client caused (or must know about), with its code and status."""

    def __init__(self, code: str, message: str, *, status: int | None = None,
                 **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or STATUS.get(code, 400)
        self.details = details

    def body(self) -> dict[str, Any]:
        return error_body(self.code, self.message, self.details)


def from_store(error: Exception) -> ApiError:
    """A failed save (server.store.StoreError) as a clear error: nothing was changed, and
    everything already saved can still be read. A seq another host process stored first is
    `stale_seq`, as for a phone; a database that cannot be reached is a 503."""
    code = getattr(error, "code", "store_failed")
    if getattr(error, "full", False):
        return ApiError("disk_full", "the host PC's disk is full: this was not saved and "
                        "nothing changed; free some space on the host, then try again")
    if code == "stale_seq":
        latest = getattr(error, "latest", None)
        return ApiError("stale_seq", "the game has moved on: another move was saved first "
                        f"(the latest is {latest}); nothing changed", latest=latest)
    if code == "store_unavailable" and getattr(error, "busy", False):
        return ApiError("store_unavailable", "the game database is too busy right now: this "
                        "was not saved and nothing changed; try again in a moment")
    if code == "store_unavailable":
        return ApiError("store_unavailable", "the game database cannot be reached right now: "
                        "this was not saved and nothing changed; try again in a moment")
    return ApiError("store_failed", "the host could not save this (nothing changed): "
                    f"{error}")


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict:
    """The shared shape: `{"error": {"code", "message", "details"}}`."""
    return {"error": {"code": code, "message": message, "details": _jsonable(details or {})}}


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def from_engine(error: EngineError) -> ApiError:
    """The engine's error as an ApiError: its code, message and details kept as they are;
    its status the code's (a shared one) else its family's."""
    status = STATUS.get(error.code) or FAMILY_STATUS.get(error.family, 400)
    return ApiError(error.code, error.message, status=status, **error.details)
