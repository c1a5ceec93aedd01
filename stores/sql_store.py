"""The fact ledger, audit log and user → threads index in SQL: SQLite (embedded default) or PostgreSQL.

Tables (every row keyed by ``user_id``; every query filters on it in SQL):

- ``facts``: every fact ever committed, with its status (live ones are also in the fact index).
- ``audit_log``: one row per proposal: what was proposed, the decision, by whom, when, why.
- ``user_threads``: which threads belong to which user.
- ``commit_journal``: decisions being written right now (see :meth:`SQLFactLedger.journal_begin`);
  a row left behind means a process died in the middle of ``commit``.

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
CREATE TABLE IF NOT EXISTS commit_journal (
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    at TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (user_id, id)
);
"""

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
    """:class:`stores.base.FactLedger` on SQLite (one file, WAL, 5 s busy timeout) or PostgreSQL
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
                for statement in _statements(SCHEMA):
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
            for fid in fact_ids:
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
