"""Corners' `Records` capability: a game as a `.cgn` record and back (the format itself is
`engine.corners.record`)."""

from __future__ import annotations

from ..capabilities import Records
from . import errors as E


class CornersRecords(Records):
    """`.cgn` records, the one format besides the JSON log (`formats`)."""

    def export(self, game, fmt: str) -> str:
        """The game as a `.cgn` record (`record.write_record`)."""
        if fmt != "cgn":
            raise E.EngineError(f"Corners has no {fmt} format", formats=sorted(self.formats))
        from .record import write_record

        return write_record(game)

    def read(self, text: str):
        """A `.cgn` record (it starts with a tag pair) as a `Game`, else None."""
        from .record import looks_like_record, read_record

        return read_record(text) if looks_like_record(text) else None

