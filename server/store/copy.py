"""`cornerclaim store copy SRC DST`: move games between stores, a home host's SQLite and a
club's PostgreSQL, either way.

SRC and DST are each a `postgresql://` URL or a SQLite data folder (or its
`cornerclaim.sqlite3` file). Every game of SRC is written to DST whole — its record (closed,
rematch links), its seats with their token hashes, and its events with the times they were
stored — in one transaction per game, so a phone's seat and a replay carry over unchanged.
A game's computer review goes with it, finished or still to finish (a host on DST picks up an
unfinished one when it starts); a review DST already holds for a game is kept.

Running it again is safe: a game DST already holds exactly as SRC does is left alone; a game
DST holds differently (the same id with another log, seats or record) is refused and named,
never overwritten, and the command ends with status 1. A SQLite DST must not be in use by a
running host (its data folder lock is taken); hosts on a PostgreSQL DST see the copied games
once they restart, since a host reads every game at start.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.store import EventStore, StoreError, is_database_url, open_store


@dataclass
class CopyReport:
    """What a copy did: game ids copied, found already there, and refused (with why); the
    ids whose computer review was copied."""

    copied: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    reviews: list[str] = field(default_factory=list)

    def summary(self) -> str:
        line = (f"copied {len(self.copied)} game(s); {len(self.already)} already there; "
                f"{len(self.reviews)} review(s) copied")
        if self.refused:
            line += f"; refused {len(self.refused)}:"
            line += "".join(f"\n  {gid}: {why}" for gid, why in self.refused)
        return line


def copy_games(source: EventStore, target: EventStore) -> CopyReport:
    """Copy every game of `source` that `target` lacks; see the module doc."""
    report = CopyReport()
    held = {record.id: record for record in target.games()}
    for record in source.games():
        seats = source.seats(record.id)
        events = source.events_at(record.id)
        if record.id in held:
            why = _difference(target, held[record.id], record, seats, events)
            if why is not None:
                report.refused.append((record.id, why))
                continue
            report.already.append(record.id)
        else:
            try:
                target.put_game(record, seats, events)
            except StoreError as e:
                report.refused.append((record.id, str(e)))
                continue
            report.copied.append(record.id)
        review = source.analysis(record.id)
        if review is not None and target.analysis(record.id) is None:
            target.put_analysis(review)
            report.reviews.append(record.id)
    return report


def _difference(target: EventStore, held: Any, record: Any, seats: list[Any],
                events: list[tuple[dict[str, Any], float]]) -> str | None:
    """Why the target's game of the same id is not this one, or None if it is."""
    theirs = [e for e, _ in target.events_at(record.id)]
    ours = [e for e, _ in events]
    if theirs != ours:
        return (f"the target holds another log for this id ({len(theirs)} events, the "
                f"source {len(ours)}); left as it is")
    if target.seats(record.id) != seats:
        return "the target holds other seats for this id; left as it is"
    if held != record:
        return "the target holds this game with another record (closed, rematch); left as it is"
    return None


def open_place(where: str, *, create: bool) -> tuple[EventStore, Any]:
    """The store at `where` and the data folder lock held on it (None for PostgreSQL)."""
    if is_database_url(where):
        return open_store(where), None
    from server.store.sqlite import SqliteStore
    from server.web.limits import DataDirLock

    path = Path(where)
    folder = path.parent if path.suffix else path
    file = path if path.suffix else path / SqliteStore.FILENAME
    if not create and not file.is_file():
        raise StoreError(f"no game store in {folder}")
    lock = DataDirLock(folder).acquire() if create else None
    try:
        return SqliteStore(file), lock
    except BaseException:
        if lock is not None:
            lock.release()
        raise


def copy(source: str, target: str) -> int:
    """`store copy`: 0 when every game is in the target, 1 if any was refused, 2 if a store
    could not be opened."""
    from server.web.limits import DataDirLocked

    if source == target:
        print("the source and the target are the same store", file=sys.stderr)
        return 2
    opened: list[tuple[Any, Any]] = []
    try:
        try:
            opened.append(open_place(source, create=False))
            opened.append(open_place(target, create=True))
        except (StoreError, DataDirLocked, sqlite3.Error) as e:
            print(f"cannot copy: {e}", file=sys.stderr)
            return 2
        (src, _), (dst, _) = opened
        try:
            report = copy_games(src, dst)
        except StoreError as e:
            print(f"copy stopped: {e}", file=sys.stderr)
            return 2
    finally:
        for store, lock in opened:
            store.close()
            if lock is not None:
                lock.release()
    print(report.summary())
    return 1 if report.refused else 0


class StoreCommand:
    """`cornerclaim store copy SRC DST`."""

    @staticmethod
    def configure(parser: argparse.ArgumentParser) -> None:
        sub = parser.add_subparsers(dest="store_command", required=True)
        p = sub.add_parser("copy", help="copy every game from one store to another (SQLite "
                                        "data folder or postgresql:// URL, either way)",
                           description=__doc__.split("\n\n")[1])
        p.add_argument("source", metavar="SRC", help="a data folder, its .sqlite3 file, or a "
                                                     "postgresql:// URL")
        p.add_argument("target", metavar="DST", help="the same kinds of place; created if "
                                                     "it is a new folder")

    @staticmethod
    def run(args: argparse.Namespace) -> int:
        return copy(args.source, args.target)
