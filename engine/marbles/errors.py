"""Corner's (the marble game's) errors: the shared ones (`engine.errors`) and its own (a given
setup that is not a setup)."""

from __future__ import annotations

from ..errors import *  # noqa: F403 - a Corner command may raise any shared error
from ..errors import BadOptionError


class BadSetupError(BadOptionError):
    """A marble setup that is not 36 letters of the right colours in the right numbers
    (Corner's `setups` option); `details["problem"]` is "type", "length", "letter" or
    "count"."""

    code = "bad_setup"
