"""Replays of any game: the replay cursor and the board picture. Pure: logs in, values out."""

from __future__ import annotations


def read_record(data: bytes):
    """A `Game` from a record's bytes (UTF-8 text; a BOM is ignored): any game's JSON log or
    a game's own format (.blksgf, .cgn), told apart by `engine.registry.read_record`. LogError
    says what is wrong."""
    from engine import registry
    from engine.errors import LogError

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise LogError(f"the file is not UTF-8 text ({e.reason} at byte {e.start})") from None
    if not text.strip():
        raise LogError("the file is empty: a game record is a JSON game log or a game's "
                       "own format (" + ", ".join(f".{f}" for r in registry.games()
                                                  for f in r.formats) + ")")
    return registry.read_record(text)
