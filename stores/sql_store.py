"""The fact ledger, audit log and user → threads index in SQLite (embedded default).

Tables (every row keyed by ``user_id``; every query filters on it in SQL):

- ``facts``: every fact ever committed, with its status (live ones are also in Chroma).
- ``audit_log``: one row per proposal: what was proposed, the decision, by whom, when, why.
- ``user_threads``: which threads belong to which user.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from memory_agent.facts import Fact
from stores.base import StoreError

SCHEMA = """
CREATE TABLE IF NOT EXISTS facts (
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    status TEXT NOT NULL,
    kind TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (user_id, id)
);
CREATE TABLE IF NOT EXISTS audit_log (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    thread_id TEXT,
    at TEXT NOT NULL,
    operation TEXT,
    kind TEXT,
    content TEXT,
    evidence TEXT,
    decision TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    reason TEXT,
    fact_id TEXT,
    target_id TEXT,
    proposal TEXT
);
CREATE INDEX IF NOT EXISTS audit_user ON audit_log (user_id, at);
CREATE TABLE IF NOT EXISTS fact_uses (
    user_id TEXT NOT NULL,
    fact_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (user_id, fact_id, turn_id)
);
CREATE TABLE IF NOT EXISTS user_threads (
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
);
"""

AUDIT_COLUMNS = ("id", "user_id", "thread_id", "at", "operation", "kind", "content", "evidence",
                 "decision", "decided_by", "reason", "fact_id", "target_id", "proposal")


def _corrupt(path: str, exc: Exception) -> StoreError:
    return StoreError(
        f"The SQLite file {path} is damaged or not a database ({exc}). Nothing was deleted: move the "
        "file aside and restore a backup, or point --data-dir at a new folder."
    )


class SQLiteFactLedger:
    """:class:`stores.base.FactLedger` on one SQLite file (WAL, 5 s busy timeout).

    Args:
        path: the SQLite file (shared with the checkpointer in the embedded default).

    Raises:
        StoreError: the file is not a SQLite database or cannot be opened.
    """

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            self.conn = sqlite3.connect(self.path, check_same_thread=False, timeout=5.0)
            self.conn.execute("PRAGMA journal_mode=WAL")
            check = self.conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
            self.conn.executescript(SCHEMA)
            self.conn.commit()
        except sqlite3.DatabaseError as exc:
            raise _corrupt(self.path, exc) from exc

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One locked transaction: committed on success, rolled back on error, and SQLite's errors
        turned into a :class:`StoreError` that says what to do."""
        with self._lock:
            try:
                yield self.conn
                self.conn.commit()
            except sqlite3.IntegrityError as exc:  # a required value missing: a caller's bug, not damage
                self.conn.rollback()
                raise StoreError(f"{self.path}: a row was refused ({exc}); nothing was written.") from exc
            except sqlite3.OperationalError as exc:  # locked, busy, read-only, disk full
                self.conn.rollback()
                raise StoreError(f"{self.path}: {exc}. Another process may be writing; try again.") from exc
            except sqlite3.DatabaseError as exc:
                self.conn.rollback()
                raise _corrupt(self.path, exc) from exc

    def _exec(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        with self._transaction() as conn:
            return conn.execute(sql, params)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._transaction() as conn:
            return conn.execute(sql, params).fetchall()

    def save_fact(self, fact: Fact) -> None:
        """Insert or replace the fact row keyed by ``(user_id, id)``."""
        self._exec(
            "INSERT OR REPLACE INTO facts (user_id, id, status, kind, content, created_at, updated_at, data) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (fact.user_id, fact.id, fact.status, fact.kind, fact.content, fact.created_at.isoformat(),
             fact.updated_at.isoformat(), fact.model_dump_json()),
        )

    def get_fact(self, user_id: str, fact_id: str) -> Fact | None:
        """The fact of this user with this id, or ``None`` (another user's id gives ``None``)."""
        rows = self._rows("SELECT data FROM facts WHERE user_id = ? AND id = ?", (user_id, fact_id))
        return Fact.model_validate_json(rows[0][0]) if rows else None

    def facts(self, user_id: str, status: str | None = None) -> list[Fact]:
        """The user's facts (optionally of one status), oldest first."""
        if status is None:
            rows = self._rows("SELECT data FROM facts WHERE user_id = ? ORDER BY created_at, id", (user_id,))
        else:
            rows = self._rows(
                "SELECT data FROM facts WHERE user_id = ? AND status = ? ORDER BY created_at, id", (user_id, status)
            )
        return [Fact.model_validate_json(r[0]) for r in rows]

    def touch(self, user_id: str, fact_ids: Sequence[str], at: datetime, turn_id: str) -> None:
        """Record that facts were injected in turn ``turn_id`` at ``at``: set last-used and add one to
        the use count — once per (fact, turn), so a re-run commit does not count twice."""
        with self._transaction() as conn:
            for fid in fact_ids:
                new = conn.execute(
                    "INSERT OR IGNORE INTO fact_uses (user_id, fact_id, turn_id, at) VALUES (?, ?, ?, ?)",
                    (user_id, fid, turn_id, at.isoformat()),
                ).rowcount
                row = conn.execute("SELECT data FROM facts WHERE user_id = ? AND id = ?", (user_id, fid)).fetchone()
                if not new or row is None:
                    continue
                fact = Fact.model_validate_json(row[0])
                fact.last_used_at = at
                fact.use_count += 1
                conn.execute("UPDATE facts SET data = ? WHERE user_id = ? AND id = ?",
                             (fact.model_dump_json(), user_id, fid))

    def audit(self, row: dict[str, Any]) -> bool:
        """Append one audit row; a row with an existing ``id`` is ignored. Returns True when new.

        Required keys: ``id``, ``user_id``, ``at``, ``decision``, ``decided_by``; the others of
        :data:`AUDIT_COLUMNS` are optional. A missing required value raises :class:`StoreError`
        (it is not silently skipped)."""
        values = dict(row)
        if isinstance(values.get("proposal"), dict):
            values["proposal"] = json.dumps(values["proposal"], ensure_ascii=False, default=str)
        if isinstance(values.get("at"), datetime):
            values["at"] = values["at"].isoformat()
        cols = [c for c in AUDIT_COLUMNS if c in values]
        cur = self._exec(
            f"INSERT INTO audit_log ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)}) "
            "ON CONFLICT(id) DO NOTHING",
            [values[c] for c in cols],
        )
        return cur.rowcount == 1

    def audit_rows(self, user_id: str) -> list[dict[str, Any]]:
        """The user's audit rows as dicts, oldest first."""
        rows = self._rows(
            f"SELECT {', '.join(AUDIT_COLUMNS)} FROM audit_log WHERE user_id = ? ORDER BY at, rowid", (user_id,)
        )
        return [dict(zip(AUDIT_COLUMNS, r, strict=True)) for r in rows]

    def remember_thread(self, user_id: str, thread_id: str, at: datetime) -> None:
        """Record that ``thread_id`` belongs to ``user_id`` (idempotent)."""
        self._exec(
            "INSERT OR IGNORE INTO user_threads (user_id, thread_id, created_at) VALUES (?, ?, ?)",
            (user_id, thread_id, at.isoformat()),
        )

    def threads(self, user_id: str) -> list[str]:
        """The user's thread ids, oldest first."""
        return [r[0] for r in self._rows(
            "SELECT thread_id FROM user_threads WHERE user_id = ? ORDER BY created_at", (user_id,)
        )]

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self.conn.close()
