"""The two databases the SQL ledger runs on, one object each: SQLite (embedded) and PostgreSQL.

A dialect owns the connection(s) and says everything that differs between the two: the
placeholder (:attr:`mark`: ``?`` / ``%s``), the DDL of each migration (:meth:`statements`), the
``schema_migrations`` table, how a table is looked up, how a migration takes its lock, and how the
database's errors become a :class:`~memory_agent.stores.base.StoreError`, and how writers of one
user are serialized (:meth:`SQLiteDialect.user_lock`, :meth:`PostgresDialect.user_lock`). Statements that are the
same on both (``INSERT ... ON CONFLICT ... DO NOTHING / DO UPDATE``, ``LIKE ... ESCAPE``, ``ORDER BY
..., rowid``) are written once in the ledger with :attr:`mark` for each parameter.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tenacity import retry, retry_if_exception, stop_after_delay, wait_random_exponential

from memory_agent.stores.base import StoreError
from memory_agent.stores.sql.schema import Migration

#: The advisory lock two Postgres processes opening the ledger at once take before migrating.
_MIGRATION_LOCK = 726354
#: The first key of the two-key advisory locks that serialize the writers of one user (the second is a
#: hash of the user id). Postgres keeps one-key and two-key advisory locks apart, so this never meets
#: :data:`_MIGRATION_LOCK`.
_USER_LOCK_SPACE = 726355
#: Per-user locks of this process, striped: a user id always maps to the same re-entrant lock, two users
#: rarely share one (then they wait for each other, which is safe: no code holds two users' locks).
_STRIPES = tuple(threading.RLock() for _ in range(256))


def _user_hash(user_id: str) -> int:
    """A signed 32-bit number of the user id (sha256), the second key of its advisory lock."""
    return int.from_bytes(hashlib.sha256(user_id.encode("utf-8")).digest()[:4], "big", signed=True)


def _stripe(user_id: str) -> threading.RLock:
    return _STRIPES[_user_hash(user_id) % len(_STRIPES)]


def _corrupt(path: str, exc: Exception) -> StoreError:
    return StoreError(
        f"The SQLite file {path} is damaged or not a database ({exc}). Nothing was deleted: move the "
        "file aside and restore a backup, or point --data-dir at a new folder."
    )


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


def _locked(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


@retry(retry=retry_if_exception(_locked), stop=stop_after_delay(5.0), wait=wait_random_exponential(0.01, 0.2),
       reraise=True)
def _open_checks(conn: sqlite3.Connection) -> str:
    """Switch a newly opened file to WAL and run ``PRAGMA quick_check``; returns its verdict (``"ok"``).

    SQLite answers a journal-mode change that meets another connection's lock with ``database is
    locked`` at once, without the busy timeout (two processes opening a new file together), so a
    locked or busy answer is retried for up to 5 s, the busy timeout (tenacity: a well-kept retry
    library, already a dependency of langchain-core)."""
    conn.execute("PRAGMA journal_mode=WAL")
    return conn.execute("PRAGMA quick_check").fetchone()[0]


class SQLiteDialect:
    """One SQLite file on one connection (WAL, 5 s busy timeout), shared by threads under a lock.

    Args:
        path: the file (created if missing).

    Raises:
        StoreError: the file is not a database or fails SQLite's ``quick_check``.
    """

    name = "sqlite"
    mark = "?"
    #: appended to a SELECT that reads a row it is about to change (SQLite: the connection's lock does it)
    for_update = ""
    schema_migrations_ddl = (
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
        "applied_at TEXT NOT NULL)",
    )

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            self.conn = sqlite3.connect(self.path, check_same_thread=False, timeout=5.0)
            check = _open_checks(self.conn)
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
        except sqlite3.DatabaseError as exc:
            raise _corrupt(self.path, exc) from exc

    @property
    def where(self) -> str:
        """The file, for messages."""
        return self.path

    def statements(self, migration: Migration) -> tuple[str, ...]:
        """The migration's SQLite DDL."""
        return migration.sqlite

    @contextmanager
    def transaction(self, *, exclusive: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction on the connection: committed on success, rolled back on any error; the
        database's errors become a :class:`StoreError`. ``exclusive``: start it with ``BEGIN
        IMMEDIATE`` (the write lock of the file, held until commit) as migrations do."""
        with self._lock:
            try:
                if exclusive:
                    self.conn.execute("BEGIN IMMEDIATE")
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
            except BaseException:
                self.conn.rollback()
                raise

    @contextmanager
    def migration_transaction(self) -> Iterator[sqlite3.Connection]:
        """A transaction holding the file's write lock, so two processes never migrate at once."""
        with self.transaction(exclusive=True) as conn:
            yield conn

    @contextmanager
    def user_lock(self, user_id: str) -> Iterator[None]:
        """Serialize the writers of one user among the threads of this process (re-entrant). Other
        processes cannot write the file at the same time: the data folder's lock keeps them out."""
        with _stripe(user_id):
            yield

    def has_table(self, conn: Any, table: str) -> bool:
        """Whether ``table`` exists in the file."""
        return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone() \
            is not None

    def compact(self) -> None:
        """Move the write-ahead log into the file and rewrite it (``VACUUM``), so deleted rows leave
        no bytes behind in freed pages."""
        with self._lock:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self.conn.close()


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
    """A psycopg connection with sqlite3's calling style: ``execute(sql, params)`` → tuple rows."""

    def __init__(self, conn):
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _PgCursor:
        from psycopg.rows import tuple_row

        cur = self._conn.cursor(row_factory=tuple_row)
        cur.execute(sql, tuple(params))
        return _PgCursor(cur)


class PostgresDialect:
    """PostgreSQL through a ``psycopg_pool.ConnectionPool`` of autocommit connections: each
    transaction runs on one pooled connection. Tables live in the connection's ``search_path``.

    Args:
        pool: the pool (opened and closed by its owner).
        timeout: seconds to wait for a pooled connection.
    """

    name = "postgres"
    mark = "%s"
    for_update = " FOR UPDATE"
    #: seconds a writer waits for another process to release a user's lock before it fails
    lock_wait = 60.0
    schema_migrations_ddl = (
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, "
        "applied_at TEXT NOT NULL)",
    )

    def __init__(self, pool, *, timeout: float = 10.0):
        self.pool = pool
        self.timeout = timeout
        self._held = threading.local()  # user ids whose lock this thread holds -> depth
        # A held user lock keeps one pooled connection; leave at least one free for the statements
        # run under it, so threads of this process holding locks never starve each other of connections.
        self._lock_slots = threading.BoundedSemaphore(max(1, (getattr(pool, "max_size", 2) or 2) - 1))

    @property
    def where(self) -> str:
        """What to call the database in messages."""
        return "postgres"

    def statements(self, migration: Migration) -> tuple[str, ...]:
        """The migration's PostgreSQL DDL."""
        return migration.postgres

    @contextmanager
    def transaction(self) -> Iterator[_PgConnection]:
        """One transaction on one pooled connection; psycopg and pool errors become a
        :class:`StoreError` (a refused row, or :func:`postgres_error`)."""
        import psycopg

        try:
            with self.pool.connection(timeout=self.timeout) as conn, conn.transaction():
                yield _PgConnection(conn)
        except psycopg.IntegrityError as exc:
            raise StoreError(f"Postgres refused a row ({exc}); nothing was written.") from exc
        except psycopg.Error as exc:  # includes psycopg_pool.PoolTimeout
            raise postgres_error(exc, "Postgres (fact ledger)") from exc

    @contextmanager
    def migration_transaction(self) -> Iterator[_PgConnection]:
        """A transaction holding an advisory lock until it ends, so two processes never migrate at once."""
        with self.transaction() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            yield conn

    @contextmanager
    def user_lock(self, user_id: str) -> Iterator[None]:
        """Serialize the writers of one user across processes: a transaction-scoped advisory lock
        (``pg_advisory_xact_lock(space, hash of the user id)``) held on a pooled connection of its own
        while the block runs; the ledger statements inside run (and commit) on other connections.
        Threads of this process queue on a per-user lock first; re-entrant within a thread. It also
        holds behind PgBouncer in transaction mode, since the lock's transaction stays open.

        Raises:
            StoreError: no connection within the pool timeout, Postgres down, or another process held
                the user's lock longer than :attr:`lock_wait` seconds.
        """
        import psycopg

        held = self._held.__dict__.setdefault("users", {})
        if held.get(user_id):
            held[user_id] += 1
            try:
                yield
            finally:
                held[user_id] -= 1
            return
        # a thread already holding a slot (another user's lock: no writer does that) does not wait for one
        slot = self._lock_slots if not any(held.values()) else contextlib.nullcontext()
        with _stripe(user_id), slot:
            try:
                with self.pool.connection(timeout=self.timeout) as conn, conn.transaction():
                    try:
                        conn.execute(f"SET LOCAL lock_timeout = '{int(self.lock_wait * 1000)}ms'")
                        conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_USER_LOCK_SPACE, _user_hash(user_id)))
                    except psycopg.errors.LockNotAvailable as exc:
                        raise StoreError(f"Another process has been writing this user's memories for over "
                                         f"{self.lock_wait:.0f} s; nothing was written. Try again.") from exc
                    held[user_id] = 1
                    try:
                        yield
                    finally:
                        held.pop(user_id, None)
            except psycopg.Error as exc:  # includes psycopg_pool.PoolTimeout
                raise postgres_error(exc, "Postgres (fact ledger)") from exc

    def has_table(self, conn: Any, table: str) -> bool:
        """Whether ``table`` exists in the schema new tables go to (``current_schema()``)."""
        return conn.execute("SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = %s",
                            (table,)).fetchone() is not None

    def compact(self) -> None:
        """Nothing: PostgreSQL reclaims space itself (autovacuum)."""

    def close(self) -> None:
        """Nothing: the pool is closed by whoever opened it."""
