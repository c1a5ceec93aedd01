"""The fact ledger, audit log and user → threads index in SQL: SQLite (embedded default) or PostgreSQL.

Tables (every row keyed by ``user_id``; every query filters on it in SQL):

- ``facts``: every fact ever committed, with its status (live ones are also in the fact index).
- ``audit_log``: one row per proposal: what was proposed, the decision, by whom, when, why.
- ``user_threads``: which threads belong to which user.
- ``commit_journal``: decisions being written right now (see :meth:`SQLFactLedger.journal_begin`);
  a row left behind means a process died in the middle of ``commit``.

Lifecycle and user control (a separate block below, see :data:`LIFECYCLE_SCHEMA`):

- ``user_settings``: the per-user memory switch.
- ``session_summaries``: one summary per ended thread (topic, decisions, open items, dates).
- ``episodes``: dated notable events (decisions, milestones) for time questions.

The SQL of that block is portable (``INSERT ... ON CONFLICT``, ``LIKE``, ISO-8601 text times
compared as text), so the same statements run on PostgreSQL.

One class, two databases. Methods are written once, in SQL both understand (``?`` placeholders,
``INSERT ... ON CONFLICT ... DO NOTHING / DO UPDATE``, ``ORDER BY ..., rowid``), and run inside
``self._transaction()`` / ``self._exec()`` / ``self._rows()``. A small dialect layer
(:class:`_Postgres`) makes that SQL run on PostgreSQL: ``?`` becomes ``%s``, ``INSERT OR IGNORE``
becomes ``ON CONFLICT DO NOTHING``, ``INTEGER`` columns become ``BIGINT``, and every table gets a
``rowid BIGSERIAL`` column so ``ORDER BY rowid`` keeps insertion order as on SQLite. ``INSERT OR
REPLACE`` is refused there (it has no key to translate to): write ``ON CONFLICT (...) DO UPDATE``.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from memory_agent.stores.base import StoreError

from memory_agent.core.facts import Fact

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
CREATE TABLE IF NOT EXISTS commit_journal (
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    at TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (user_id, id)
);
"""

# ---- lifecycle and user control (issue 5) ------------------------------------------------------
LIFECYCLE_SCHEMA = """
CREATE TABLE IF NOT EXISTS user_settings (
    user_id TEXT PRIMARY KEY,
    memory_enabled INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS session_summaries (
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    started_at TEXT NOT NULL,
    ended_at TEXT NOT NULL,
    topic TEXT NOT NULL,
    decisions TEXT NOT NULL,
    open_items TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
);
CREATE TABLE IF NOT EXISTS episodes (
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    kind TEXT NOT NULL,
    topic TEXT NOT NULL,
    content TEXT NOT NULL,
    thread_id TEXT,
    fact_id TEXT,
    PRIMARY KEY (user_id, id)
);
CREATE INDEX IF NOT EXISTS episodes_user ON episodes (user_id, occurred_at);
CREATE TABLE IF NOT EXISTS thread_activity (
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    first_at TEXT NOT NULL,
    last_at TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
);
"""

#: Every table of the ledger with its text columns: what :meth:`SQLiteFactLedger.scan` searches.
SCANNED_COLUMNS: dict[str, tuple[str, ...]] = {
    "facts": ("user_id", "id", "content", "data"),
    "audit_log": ("user_id", "thread_id", "content", "evidence", "reason", "proposal", "fact_id", "target_id"),
    "fact_uses": ("user_id", "fact_id", "turn_id"),
    "user_threads": ("user_id", "thread_id"),
    "user_settings": ("user_id",),
    "session_summaries": ("user_id", "thread_id", "topic", "decisions", "open_items", "text"),
    "episodes": ("user_id", "id", "topic", "content", "thread_id", "fact_id"),
    "thread_activity": ("user_id", "thread_id"),
}
SUMMARY_COLUMNS = ("user_id", "thread_id", "started_at", "ended_at", "topic", "decisions", "open_items", "text")
EPISODE_COLUMNS = ("user_id", "id", "occurred_at", "kind", "topic", "content", "thread_id", "fact_id")
#: Audit columns that may hold what the user said; a tombstone sets them to NULL.
AUDIT_TEXT_COLUMNS = ("content", "evidence", "reason", "proposal")

AUDIT_COLUMNS = ("id", "user_id", "thread_id", "at", "operation", "kind", "content", "evidence",
                 "decision", "decided_by", "reason", "fact_id", "target_id", "proposal")


def _corrupt(path: str, exc: Exception) -> StoreError:
    return StoreError(
        f"The SQLite file {path} is damaged or not a database ({exc}). Nothing was deleted: move the "
        "file aside and restore a backup, or point --data-dir at a new folder."
    )


_QUOTED_OR_MARK = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?|%")
_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+", re.IGNORECASE)
_INSERT_OR_REPLACE = re.compile(r"^\s*INSERT\s+OR\s+REPLACE\s+", re.IGNORECASE)
_CREATE_TABLE = re.compile(r"^(\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?\w+\s*\()", re.IGNORECASE)


def postgres_sql(sql: str) -> str:
    """Translate one statement of the ledger's portable SQL to PostgreSQL (psycopg's ``%s`` style).

    ``?`` outside quotes → ``%s``; a literal ``%`` → ``%%``; ``INSERT OR IGNORE`` → ``INSERT ... ON
    CONFLICT DO NOTHING``; in ``CREATE TABLE``: ``INTEGER PRIMARY KEY AUTOINCREMENT`` → ``BIGSERIAL
    PRIMARY KEY``, ``INTEGER`` → ``BIGINT``, ``BLOB`` → ``BYTEA``, plus a ``rowid BIGSERIAL`` column.

    Raises:
        StoreError: ``INSERT OR REPLACE``, which has no portable meaning (use ``ON CONFLICT DO UPDATE``).
    """
    if _INSERT_OR_REPLACE.match(sql):
        raise StoreError("INSERT OR REPLACE is SQLite-only; write INSERT ... ON CONFLICT (key) DO UPDATE SET ...")
    if _INSERT_OR_IGNORE.match(sql):
        sql = _INSERT_OR_IGNORE.sub("INSERT ", sql, count=1)
        if not re.search(r"ON\s+CONFLICT", sql, re.IGNORECASE):
            sql = sql.rstrip().rstrip(";") + " ON CONFLICT DO NOTHING"
    if _CREATE_TABLE.match(sql):
        sql = re.sub(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b", "BIGSERIAL PRIMARY KEY", sql, flags=re.I)
        sql = re.sub(r"\bINTEGER\b", "BIGINT", sql, flags=re.I)
        sql = re.sub(r"\bBLOB\b", "BYTEA", sql, flags=re.I)
        if not re.search(r"\browid\b", sql, re.IGNORECASE):
            sql = _CREATE_TABLE.sub(r"\1\n    rowid BIGSERIAL,", sql, count=1)

    def swap(m: re.Match[str]) -> str:
        text = m.group(0)
        return "%s" if text == "?" else text.replace("%", "%%")

    return _QUOTED_OR_MARK.sub(swap, sql)


def _statements(script: str) -> list[str]:
    """The statements of a DDL script (no ``;`` inside our DDL's strings)."""
    return [part.strip() for part in script.split(";") if part.strip()]


class _PgCursor:
    """What a ledger method gets back from ``conn.execute``: rows as tuples, ``rowcount``."""

    def __init__(self, cur):
        self._cur = cur
        self.rowcount = cur.rowcount

    def fetchone(self):
        return self._cur.fetchone() if self._cur.description else None

    def fetchall(self):
        return self._cur.fetchall() if self._cur.description else []

    def __iter__(self):
        return iter(self.fetchall())


class _PgConnection:
    """A psycopg connection that speaks the ledger's portable SQL (``conn.execute(sql, params)``)."""

    def __init__(self, conn):
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _PgCursor:
        from psycopg.rows import tuple_row

        cur = self._conn.cursor(row_factory=tuple_row)
        cur.execute(postgres_sql(sql), tuple(params))
        return _PgCursor(cur)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        from psycopg.rows import tuple_row

        with self._conn.cursor(row_factory=tuple_row) as cur:
            cur.executemany(postgres_sql(sql), [tuple(r) for r in rows])


def postgres_error(exc: Exception, what: str = "Postgres") -> StoreError:
    """A :class:`StoreError` for a psycopg / pool failure that says what to do."""
    name = type(exc).__name__
    if name in ("PoolTimeout", "OperationalError", "ConnectionTimeout") or "connect" in str(exc).lower():
        return StoreError(
            f"{what} is not reachable ({name}: {str(exc).strip()[:300]}). Nothing was written by the failed step. "
            "Check that the server (or PgBouncer) is running and DATABASE_URL is right, then try again: "
            "the thread continues where it stopped."
        )
    return StoreError(f"{what} failed ({name}: {str(exc).strip()[:300]}); nothing was written by the failed step.")


class SQLFactLedger:
    """:class:`memory_agent.stores.base.FactLedger` on SQLite (one file, WAL, 5 s busy timeout) or PostgreSQL
    (a ``psycopg_pool.ConnectionPool``; every method runs in one transaction on one pooled connection).

    Args:
        path: the SQLite file (shared with the checkpointer in the embedded default).
        pool: instead of ``path``, a psycopg ``ConnectionPool`` (autocommit connections); the tables are
            created if missing (in the connection's ``search_path``).
        timeout: seconds to wait for a pooled Postgres connection.

    Raises:
        StoreError: the SQLite file is not a database / cannot be opened, or Postgres is unreachable.
    """

    def __init__(self, path: str | Path | None = None, *, pool=None, timeout: float = 10.0):
        self._lock = threading.Lock()
        self.pool = pool
        self.timeout = timeout
        self.dialect = "postgres" if pool is not None else "sqlite"
        if pool is not None:
            self.path = "postgres"
            with self._transaction() as conn:
                conn.execute("SELECT pg_advisory_xact_lock(726354)")  # two processes creating tables at once
                for statement in _statements(SCHEMA) + _statements(LIFECYCLE_SCHEMA):
                    conn.execute(statement)
            return
        if path is None:
            raise ValueError("Give a SQLite path or a Postgres pool")
        self.path = str(path)
        try:
            self.conn = sqlite3.connect(self.path, check_same_thread=False, timeout=5.0)
            self.conn.execute("PRAGMA journal_mode=WAL")
            check = self.conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
            self.conn.executescript(SCHEMA)
            self.conn.executescript(LIFECYCLE_SCHEMA)
            self.conn.commit()
        except sqlite3.DatabaseError as exc:
            raise _corrupt(self.path, exc) from exc

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """One transaction: committed on success, rolled back on error, and the database's errors
        turned into a :class:`StoreError` that says what to do. Yields a connection whose
        ``execute(sql, params)`` takes the portable SQL and returns a cursor
        (``fetchone``/``fetchall`` give tuples, ``rowcount``)."""
        if self.pool is not None:
            yield from self._pg_transaction()
            return
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

    def _pg_transaction(self) -> Iterator[_PgConnection]:
        import psycopg

        try:
            with self.pool.connection(timeout=self.timeout) as conn, conn.transaction():
                yield _PgConnection(conn)
        except psycopg.IntegrityError as exc:
            raise StoreError(f"Postgres refused a row ({exc}); nothing was written.") from exc
        except psycopg.Error as exc:  # includes psycopg_pool.PoolTimeout
            raise postgres_error(exc, "Postgres (fact ledger)") from exc

    def _exec(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self._transaction() as conn:
            return conn.execute(sql, params)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._transaction() as conn:
            return conn.execute(sql, params).fetchall()

    def save_fact(self, fact: Fact) -> None:
        """Insert or replace the fact row keyed by ``(user_id, id)``."""
        self._exec(
            "INSERT INTO facts (user_id, id, status, kind, content, created_at, updated_at, data) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, id) DO UPDATE SET status = excluded.status, "
            "kind = excluded.kind, content = excluded.content, created_at = excluded.created_at, "
            "updated_at = excluded.updated_at, data = excluded.data",
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
            # rows are locked in one global order (sorted ids): two processes touching the same facts,
            # ranked differently, would otherwise each hold a row the other waits for (a deadlock on
            # Postgres, found by tests/load/run_load.py)
            for fid in sorted(set(fact_ids)):
                # lock the fact row first (a no-op update), so two processes touching one fact at once
                # on Postgres count both uses instead of one overwriting the other's count
                conn.execute("UPDATE facts SET status = status WHERE user_id = ? AND id = ?", (user_id, fid))
                new = conn.execute(
                    "INSERT INTO fact_uses (user_id, fact_id, turn_id, at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
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
            "INSERT INTO user_threads (user_id, thread_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (user_id, thread_id, at.isoformat()),
        )

    def threads(self, user_id: str) -> list[str]:
        """The user's thread ids, oldest first."""
        return [r[0] for r in self._rows(
            "SELECT thread_id FROM user_threads WHERE user_id = ? ORDER BY created_at", (user_id,)
        )]

    # ---- lifecycle and user control (issue 5) ----------------------------------------------
    def live_facts_of_kinds(self, user_id: str, kinds: Sequence[str]) -> list[Fact]:
        """The user's confirmed facts of these kinds, oldest first (one indexed query, so a session's
        profile does not read every fact of the user)."""
        if not kinds:
            return []
        marks = ", ".join("?" for _ in kinds)
        rows = self._rows(f"SELECT data FROM facts WHERE user_id = ? AND status = 'confirmed' AND kind IN ({marks}) "
                          "ORDER BY created_at, id", (user_id, *kinds))
        return [Fact.model_validate_json(r[0]) for r in rows]

    def users(self) -> list[str]:
        """Every user id with at least one fact (any status), sorted."""
        return [r[0] for r in self._rows("SELECT DISTINCT user_id FROM facts ORDER BY user_id")]

    def set_memory_enabled(self, user_id: str, enabled: bool, at: datetime) -> None:
        """Turn the user's long-term memory on or off (off: no reads, no writes)."""
        self._exec(
            "INSERT INTO user_settings (user_id, memory_enabled, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT(user_id) DO UPDATE SET memory_enabled = excluded.memory_enabled, "
            "updated_at = excluded.updated_at",
            (user_id, 1 if enabled else 0, at.isoformat()),
        )

    def memory_enabled(self, user_id: str) -> bool:
        """The user's memory switch (on unless the user turned it off)."""
        rows = self._rows("SELECT memory_enabled FROM user_settings WHERE user_id = ?", (user_id,))
        return bool(rows[0][0]) if rows else True

    def touch_thread(self, user_id: str, thread_id: str, at: datetime) -> None:
        """Record activity in a thread at ``at`` (first and last turn times, for session summaries)."""
        self._exec(
            "INSERT INTO thread_activity (user_id, thread_id, first_at, last_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(user_id, thread_id) DO UPDATE SET last_at = excluded.last_at",
            (user_id, thread_id, at.isoformat(), at.isoformat()),
        )

    def thread_activity(self, user_id: str) -> dict[str, tuple[datetime, datetime]]:
        """``{thread_id: (first turn, last turn)}`` of the user's threads."""
        rows = self._rows("SELECT thread_id, first_at, last_at FROM thread_activity WHERE user_id = ?", (user_id,))
        return {r[0]: (datetime.fromisoformat(r[1]), datetime.fromisoformat(r[2])) for r in rows}

    def save_summary(self, row: dict[str, Any]) -> None:
        """Insert or replace the summary of one thread (keys: :data:`SUMMARY_COLUMNS`; ``decisions``
        and ``open_items`` are lists of strings, times are datetimes)."""
        values = _encode(row, SUMMARY_COLUMNS)
        updates = ", ".join(f"{c} = excluded.{c}" for c in SUMMARY_COLUMNS[2:])
        self._exec(
            f"INSERT INTO session_summaries ({', '.join(SUMMARY_COLUMNS)}) VALUES "
            f"({', '.join('?' for _ in SUMMARY_COLUMNS)}) ON CONFLICT(user_id, thread_id) DO UPDATE SET {updates}",
            values,
        )

    def summaries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's session summaries, newest (by end time) first."""
        rows = self._rows(
            f"SELECT {', '.join(SUMMARY_COLUMNS)} FROM session_summaries WHERE user_id = ? "
            "ORDER BY ended_at DESC, thread_id", (user_id,),
        )
        return [_decode(dict(zip(SUMMARY_COLUMNS, r, strict=True))) for r in rows]

    def save_episode(self, row: dict[str, Any]) -> bool:
        """Record one dated episode (keys: :data:`EPISODE_COLUMNS`); idempotent on ``(user_id, id)``.
        Returns True when it was new."""
        cur = self._exec(
            f"INSERT INTO episodes ({', '.join(EPISODE_COLUMNS)}) VALUES ({', '.join('?' for _ in EPISODE_COLUMNS)}) "
            "ON CONFLICT(user_id, id) DO NOTHING",
            _encode(row, EPISODE_COLUMNS),
        )
        return cur.rowcount == 1

    def episodes(self, user_id: str, start: datetime | None = None, end: datetime | None = None) -> list[dict]:
        """The user's episodes with ``start <= occurred_at < end`` (either bound optional), oldest first."""
        sql = f"SELECT {', '.join(EPISODE_COLUMNS)} FROM episodes WHERE user_id = ?"
        params: list[Any] = [user_id]
        if start is not None:
            sql += " AND occurred_at >= ?"
            params.append(start.isoformat())
        if end is not None:
            sql += " AND occurred_at < ?"
            params.append(end.isoformat())
        rows = self._rows(sql + " ORDER BY occurred_at, id", params)
        return [_decode(dict(zip(EPISODE_COLUMNS, r, strict=True))) for r in rows]

    def delete_facts(self, user_id: str, fact_ids: Sequence[str]) -> int:
        """Delete fact rows of the user (with their usage rows and episodes); returns how many facts."""
        if not fact_ids:
            return 0
        marks = ", ".join("?" for _ in fact_ids)
        with self._transaction() as conn:
            n = conn.execute(f"DELETE FROM facts WHERE user_id = ? AND id IN ({marks})",
                             (user_id, *fact_ids)).rowcount
            conn.execute(f"DELETE FROM fact_uses WHERE user_id = ? AND fact_id IN ({marks})", (user_id, *fact_ids))
            conn.execute(f"DELETE FROM episodes WHERE user_id = ? AND fact_id IN ({marks})", (user_id, *fact_ids))
        return n

    def tombstone_audit(self, user_id: str, *, fact_ids: Sequence[str] | None = None,
                        since: datetime | None = None, new_user_id: str | None = None) -> int:
        """Replace the text of the user's audit rows with a tombstone: content, evidence, reason and
        the proposal become NULL; the time, operation, kind and decision stay, so the log still
        shows *that* something was decided, not *what*.

        Args:
            fact_ids: only rows about these facts (``fact_id`` or ``target_id``); ``None``: every row.
            since: only rows at or after this time.
            new_user_id: also replace the user id (and the thread id and fact ids) — for erasing a
                user: pass an id that is not derived from the old one.

        Returns:
            How many rows were changed.
        """
        sets = [f"{c} = NULL" for c in AUDIT_TEXT_COLUMNS]
        params: list[Any] = []
        if new_user_id is not None:
            sets = [*sets, "user_id = ?", "thread_id = NULL", "fact_id = NULL", "target_id = NULL"]
            params.append(new_user_id)
        where = ["user_id = ?"]
        params.append(user_id)
        if fact_ids is not None:
            if not fact_ids:
                return 0
            marks = ", ".join("?" for _ in fact_ids)
            where.append(f"(fact_id IN ({marks}) OR target_id IN ({marks}))")
            params += [*fact_ids, *fact_ids]
        if since is not None:
            where.append("at >= ?")
            params.append(since.isoformat())
        return self._exec(f"UPDATE audit_log SET {', '.join(sets)} WHERE {' AND '.join(where)}", params).rowcount

    def erase_user(self, user_id: str, tombstone: str) -> dict[str, int]:
        """Delete every row of the user in every table except the audit log, whose rows become
        tombstones under the id ``tombstone`` (see :meth:`tombstone_audit`). Returns rows removed
        (or tombstoned) per table."""
        counts = {"audit_log": self.tombstone_audit(user_id, new_user_id=tombstone)}
        with self._transaction() as conn:
            for table in ("facts", "fact_uses", "user_threads", "user_settings", "session_summaries", "episodes",
                          "thread_activity"):
                counts[table] = conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,)).rowcount
        return counts

    def forget_since(self, user_id: str, since: datetime) -> dict[str, Any]:
        """Delete what was written for the user at or after ``since``: facts created then (returned
        in ``fact_ids`` so the caller removes them from the live index), summaries and episodes of
        that time, threads started then (``thread_ids``: the caller deletes their checkpoints);
        audit rows of that time become tombstones."""
        at = since.isoformat()
        with self._transaction() as conn:
            fact_ids = [r[0] for r in conn.execute(
                "SELECT id FROM facts WHERE user_id = ? AND created_at >= ?", (user_id, at)).fetchall()]
            thread_ids = [r[0] for r in conn.execute(
                "SELECT thread_id FROM user_threads WHERE user_id = ? AND created_at >= ?", (user_id, at)).fetchall()]
        self.delete_facts(user_id, fact_ids)
        with self._transaction() as conn:
            conn.execute("DELETE FROM user_threads WHERE user_id = ? AND created_at >= ?", (user_id, at))
            conn.execute("DELETE FROM thread_activity WHERE user_id = ? AND first_at >= ?", (user_id, at))
            summaries = conn.execute("DELETE FROM session_summaries WHERE user_id = ? AND ended_at >= ?",
                                     (user_id, at)).rowcount
            episodes = conn.execute("DELETE FROM episodes WHERE user_id = ? AND occurred_at >= ?",
                                    (user_id, at)).rowcount
            conn.execute("DELETE FROM fact_uses WHERE user_id = ? AND at >= ?", (user_id, at))
        audit = self.tombstone_audit(user_id, since=since)
        return {"fact_ids": fact_ids, "thread_ids": thread_ids, "session_summaries": summaries,
                "episodes": episodes, "audit_log": audit}

    def scan(self, needles: Sequence[str], user_id: str | None = None) -> list[dict[str, Any]]:
        """Search every table of the ledger for what is left: rows whose ``user_id`` equals
        ``user_id`` (exact), and every text column for each of ``needles`` (a substring; SQL
        ``LIKE`` with ``%`` and ``_`` escaped). Returns ``{"store", "table", "column", "needle",
        "rows"}`` for every hit; empty when nothing remains."""
        hits = []
        if user_id is not None:
            for table in SCANNED_COLUMNS:
                n = self._rows(f"SELECT COUNT(*) FROM {table} WHERE user_id = ?", (user_id,))[0][0]
                if n:
                    hits.append({"store": "ledger", "table": table, "column": "user_id", "needle": user_id, "rows": n})
        for needle in needles:
            if not needle:
                continue
            pattern = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            for table, columns in SCANNED_COLUMNS.items():
                for col in columns:
                    n = self._rows(f"SELECT COUNT(*) FROM {table} WHERE {col} LIKE ? ESCAPE '\\'", (pattern,))[0][0]
                    if n:
                        hits.append({"store": "ledger", "table": table, "column": col, "needle": needle, "rows": n})
        return hits

    def compact(self) -> None:
        """Move the write-ahead log into the file and rewrite the file (``VACUUM``), so deleted
        rows leave no bytes behind in freed pages. SQLite only: other backends do their own."""
        if self.pool is not None:
            return
        with self._lock:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def all_threads(self) -> list[tuple[str, str, str]]:
        """Every ``(user_id, thread_id, created_at ISO text)``, oldest first: for retention jobs that work
        across users (``memory-agent threads prune``), which then act on each thread under its own user."""
        return [(r[0], r[1], r[2]) for r in self._rows(
            "SELECT user_id, thread_id, created_at FROM user_threads ORDER BY created_at, user_id, thread_id")]

    def forget_thread(self, user_id: str, thread_id: str) -> bool:
        """Remove ``thread_id`` from the user's threads (its checkpoints are the checkpointer's to
        delete); True when it was there."""
        return self._exec("DELETE FROM user_threads WHERE user_id = ? AND thread_id = ?",
                          (user_id, thread_id)).rowcount == 1

    # ---- commit journal: a decision being written, so a crash mid-commit can be repaired ----------
    def journal_begin(self, user_id: str, entry_id: str, payload: dict[str, Any], at: datetime) -> None:
        """Record that the decision ``entry_id`` is about to be written (idempotent). ``payload`` is
        what is needed to write it again (JSON-serialisable)."""
        self._exec("INSERT INTO commit_journal (user_id, id, at, payload) VALUES (?, ?, ?, ?) "
                   "ON CONFLICT DO NOTHING",
                   (user_id, entry_id, at.isoformat(), json.dumps(payload, ensure_ascii=False, default=str)))

    def journal_end(self, user_id: str, entry_id: str) -> None:
        """The decision ``entry_id`` is fully written (facts, live index, audit row)."""
        self._exec("DELETE FROM commit_journal WHERE user_id = ? AND id = ?", (user_id, entry_id))

    def journal_open(self) -> list[dict[str, Any]]:
        """Decisions begun and never ended, of every user, oldest first:
        ``{"user_id", "id", "at", "payload": dict}``."""
        rows = self._rows("SELECT user_id, id, at, payload FROM commit_journal ORDER BY at, rowid")
        return [{"user_id": r[0], "id": r[1], "at": r[2], "payload": json.loads(r[3])} for r in rows]

    def close(self) -> None:
        """Close the SQLite connection (a Postgres pool is closed by whoever opened it)."""
        if self.pool is None:
            with self._lock:
                self.conn.close()


#: The name the embedded default was known by; the same class.
SQLiteFactLedger = SQLFactLedger


def _encode(row: dict[str, Any], columns: Sequence[str]) -> list[Any]:
    """Row values in column order: datetimes as ISO-8601 text, lists as JSON."""
    out = []
    for c in columns:
        v = row.get(c)
        if isinstance(v, datetime):
            v = v.isoformat()
        elif isinstance(v, (list, dict)):
            v = json.dumps(v, ensure_ascii=False)
        out.append(v)
    return out


def _decode(row: dict[str, Any]) -> dict[str, Any]:
    """The reverse of :func:`_encode` for the JSON list columns."""
    for key in ("decisions", "open_items"):
        if isinstance(row.get(key), str):
            row[key] = json.loads(row[key])
    return row


def compact_sqlite_file(path: str | Path) -> None:
    """``wal_checkpoint(TRUNCATE)`` + ``VACUUM`` on a SQLite file another library owns (Chroma's
    embedded ``chroma.sqlite3``), on a connection of our own; a missing file is skipped."""
    if not Path(path).exists():
        return
    conn = sqlite3.connect(str(path), timeout=5.0)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
