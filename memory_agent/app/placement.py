"""Where the data is: a data folder written by the embedded stores, under settings that now send part or
all of the data to a server (``DATABASE_URL``, ``CHROMA_URL``).

With one store on a server and the other still in the folder, commands would read one store and write
another (``memories list`` from the folder's Chroma, ``memories show`` from an empty Postgres), so
:func:`check_placement` refuses to open them. With both on servers the folder is not opened at all; the
doctor (:mod:`memory_agent.app.doctor`) still reports what it holds. Nothing here writes.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from memory_agent.app.settings import Settings, mask_url
from memory_agent.stores.data_dir import DataDirError

SQLITE_FILE = "agent.sqlite"  # the ledger and the checkpoints (memory_agent.stores.data_dir.DataDir)
CHROMA_FILE = Path("chroma") / "chroma.sqlite3"  # Chroma's own catalogue inside the folder


@dataclass(frozen=True)
class Stranded:
    """Data the folder holds in an embedded store whose setting now names a server.

    ``store``: ``sqlite`` | ``chroma``; ``path``: the file; ``what``: e.g. ``"12 facts of 2 users, 5 threads"``;
    ``setting``: the variable that moved it (``DATABASE_URL`` | ``CHROMA_URL``); ``url``: its value, masked."""

    store: str
    path: Path
    what: str
    setting: str
    url: str


def _count(path: Path, queries: dict[str, str]) -> dict[str, int]:
    """``{label: count}`` of read-only queries on the SQLite file ``path``; a missing table counts 0."""
    counts = {}
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2)
    try:
        for label, sql in queries.items():
            try:
                counts[label] = int(conn.execute(sql).fetchone()[0])
            except sqlite3.OperationalError:  # no such table: that store never wrote it
                counts[label] = 0
    finally:
        conn.close()
    return counts


def stranded_data(settings: Settings) -> list[Stranded]:
    """What the data folder holds in the embedded stores that ``settings`` replace by a server.

    Reads the folder's SQLite files read-only (no lock taken); a damaged file is reported as holding data
    of unknown size. ``[]`` when no server is configured or the folder holds nothing."""
    folder = settings.data_dir.expanduser().resolve()
    out = []
    sqlite_file, chroma_file = folder / SQLITE_FILE, folder / CHROMA_FILE
    if settings.database_url and sqlite_file.is_file():
        try:
            n = _count(sqlite_file, {"facts": "SELECT COUNT(*) FROM facts",
                                     "users": "SELECT COUNT(DISTINCT user_id) FROM facts",
                                     "threads": "SELECT COUNT(DISTINCT thread_id) FROM checkpoints"})
            what = f"{n['facts']} fact(s) of {n['users']} user(s), {n['threads']} thread(s)" \
                if n["facts"] or n["threads"] else ""
        except sqlite3.DatabaseError as exc:
            what = f"unreadable ({exc})"
        if what:
            out.append(Stranded("sqlite", sqlite_file, what, "DATABASE_URL", mask_url(settings.database_url)))
    if settings.chroma_url and chroma_file.is_file():
        try:
            n = _count(chroma_file, {"vectors": "SELECT COUNT(*) FROM embeddings"})
            what = f"{n['vectors']} indexed fact(s)" if n["vectors"] else ""
        except sqlite3.DatabaseError as exc:
            what = f"unreadable ({exc})"
        if what:
            out.append(Stranded("chroma", chroma_file, what, "CHROMA_URL", mask_url(settings.chroma_url)))
    return out


def how_to_move(settings: Settings) -> str:
    """What to do about stranded data: keep the folder, or start fresh on the servers (no migration exists)."""
    folder = settings.data_dir.expanduser().resolve()
    unset = " and ".join(s for s, v in (("DATABASE_URL", settings.database_url),
                                         ("CHROMA_URL", settings.chroma_url)) if v)
    return (f"to keep using this data, unset {unset}; to start on the servers instead, move the folder aside "
            f"(mv {folder} {folder}.old) or point --data-dir elsewhere. Nothing copies data between backends: "
            "memory-agent memories export --user U saves one user's records as JSON first.")


def check_placement(settings: Settings) -> None:
    """Refuse settings that would read one store and write another.

    Raises :class:`~memory_agent.stores.data_dir.DataDirError` when one store is on a server and the
    other in the data folder, and the folder holds data the server-side store would not see."""
    if not settings.uses_data_dir or not (settings.database_url or settings.chroma_url):
        return  # all embedded (nothing moved) or all on servers (the folder is not opened)
    stranded = stranded_data(settings)
    if not stranded:
        return
    where = "; ".join(f"{s.path} holds {s.what}, but {s.setting} now sends that store to {s.url}" for s in stranded)
    move = how_to_move(settings)
    raise DataDirError(f"{where}, while the other store stays in the folder: commands would read one and write "
                       f"the other. {move[0].upper()}{move[1:]} memory-agent doctor shows what is where.")
