"""Corner Claim's `LegalJson` capability: the legal list as JSON joined from fragments encoded
once per placement of a board, so a new list costs one move generation plus a join."""

from __future__ import annotations

import json

from ..capabilities import LegalJson
from .pieces import PIECES
from .state import State

#: Per placement index of a board's constants, its legal-list entry as JSON, encoded on first
#: use (at most one per placement of the board: 13,729 on 14×14, 30,433 on 20×20).
_FRAGMENTS: dict[object, list[bytes | None]] = {}


class CornerClaimLegalJson(LegalJson):
    """`legal` (the core's, through `_legal_ids`) as a compact JSON array."""

    def legal_json(self, state: State, seat: int, query: str | None = None) -> bytes:
        """`legal` as a compact JSON array, joined from per-placement fragments encoded
        once per board: a new list costs one move generation plus a join."""
        bc = state.position.bc
        fragments = _FRAGMENTS.get(bc)
        if fragments is None:
            fragments = _FRAGMENTS.setdefault(bc, [None] * len(bc.move_piece))
        parts = []
        for m in self._legal_ids(state, seat, query):
            part = fragments[m]
            if part is None:
                part = fragments[m] = json.dumps(
                    {"piece": PIECES[bc.move_piece[m]].name, "move": state.move_str(m)},
                    separators=(",", ":")).encode()
            parts.append(part)
        return b"[" + b",".join(parts) + b"]"

