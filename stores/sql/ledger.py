"""The fact ledger in SQL: :class:`SQLFactLedger` on SQLite (embedded default) or PostgreSQL.

One class, two databases: the ledger holds one dialect (:mod:`memory_agent.stores.sql.dialects`)
that owns the connection and says what differs; each statement is written once with the
dialect's placeholder (``{p}`` in the f-strings: ``?`` on SQLite, ``%s`` on Postgres). The tables
and their migrations are in :mod:`memory_agent.stores.sql.schema`; opening a ledger applies the
migrations its database lacks (:func:`memory_agent.stores.sql.migrations.migrate`).
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from memory_agent.core.facts import Fact
from memory_agent.stores.base import LIVE_COLUMNS
from memory_agent.stores.sql.dialects import PostgresDialect, SQLiteDialect
from memory_agent.stores.sql.erasure import SQLErasure
from memory_agent.stores.sql.migrations import migrate
from memory_agent.stores.sql.schema import (
    AUDIT_COLUMNS,
    EPISODE_COLUMNS,
    MIGRATIONS,
    SUMMARY_COLUMNS,
    Migration,
)
from memory_agent.stores.sql.transitions import SQLTransitions, ranking_columns


class SQLFactLedger(SQLTransitions, SQLErasure):
    """:class:`memory_agent.stores.base.FactLedger` on SQLite (one file, WAL, 5 s busy timeout) or PostgreSQL
    (a ``psycopg_pool.ConnectionPool``; every method runs in one transaction on one pooled connection).
    Status changes with their audit rows, the journal's end and the per-user write lock come from
    :class:`SQLTransitions`; erasure and the search for leftovers from :class:`SQLErasure`.

    Args:
        path: the SQLite file (shared with the checkpointer in the embedded default).
        pool: instead of ``path``, a psycopg ``ConnectionPool`` (autocommit connections); the tables are
            made or upgraded in the connection's ``search_path``.
        timeout: seconds to wait for a pooled Postgres connection.
        migrations: the schema to bring the database to (default: :data:`MIGRATIONS`).

    Raises:
        ValueError: neither ``path`` nor ``pool``.
        StoreError: the SQLite file is not a database / cannot be opened, Postgres is unreachable,
            or the database was made by a newer memory-agent.
    """

    def __init__(self, path: str | Path | None = None, *, pool=None, timeout: float = 10.0,
                 migrations: Sequence[Migration] = MIGRATIONS):
        if pool is not None:
            self.db: SQLiteDialect | PostgresDialect = PostgresDialect(pool, timeout=timeout)
        elif path is None:
            raise ValueError("Give a SQLite path or a Postgres pool")
        else:
            self.db = SQLiteDialect(path)
        self.pool = pool
        self.timeout = timeout
        self.path = self.db.where
        self._p = self.db.mark
        migrate(self.db, migrations)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgres"``."""
        return self.db.name

    @property
    def conn(self) -> sqlite3.Connection:
        """The SQLite connection (SQLite only)."""
        return self.db.conn

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """One transaction: committed on success, rolled back on error, and the database's errors
        turned into a :class:`StoreError` that says what to do. Yields a connection whose
        ``execute(sql, params)`` returns a cursor (``fetchone``/``fetchall`` give tuples, ``rowcount``)."""
        with self.db.transaction() as conn:
            yield conn

    def _exec(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self._transaction() as conn:
            return conn.execute(sql, params)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._transaction() as conn:
            return conn.execute(sql, params).fetchall()

    def _marks(self, n: int) -> str:
        """``n`` placeholders, comma-separated."""
        return ", ".join([self._p] * n)

    # ---- facts ----------------------------------------------------------------------------------
    def save_fact(self, fact: Fact, embedding: Sequence[float] | None = None,
                  terms: Sequence[str] | None = None, embedder: str | None = None) -> None:
        """Insert or replace the fact row keyed by ``(user_id, id)``, with the embedding of its index
        text (stored as float32) by ``embedder`` (its name) and its lexical tokens when given (``NULL``
        otherwise: a read then takes the vector from the live index); the user's :meth:`generation`
        changes in the same transaction. A stored fact that is no longer confirmed (superseded,
        retracted, expired) is left as it is: its status and ``superseded_by`` change only through
        :meth:`change_status`, so a writer holding an old copy cannot revive it."""
        self.save_facts([fact], None if embedding is None else [embedding], None if terms is None else [terms],
                        embedder)

    def save_facts(self, facts: Sequence[Fact], embeddings: Sequence[Sequence[float]] | None = None,
                   terms: Sequence[Sequence[str]] | None = None, embedder: str | None = None) -> None:
        """:meth:`save_fact` for many facts (``embeddings`` and ``terms`` one per fact, or ``None``) in one
        transaction: bulk loads (evaluations, benchmarks)."""
        if not facts:
            return
        rows = [
            (f.user_id, f.id, f.status, f.kind, f.content, f.created_at.isoformat(), f.updated_at.isoformat(),
             f.model_dump_json(), None if embeddings is None else np.asarray(embeddings[k], dtype=np.float32).tobytes(),
             None if embeddings is None else embedder, None if terms is None else " ".join(terms[k]),
             *ranking_columns(f))
            for k, f in enumerate(facts)
        ]
        with self._transaction() as conn:
            for row in rows:
                conn.execute(
                    "INSERT INTO facts (user_id, id, status, kind, content, created_at, updated_at, data, embedding, "
                    f"embedder, terms, topic, importance, valid_until, aspects) VALUES ({self._marks(15)}) "
                    "ON CONFLICT (user_id, id) DO UPDATE SET "
                    "status = excluded.status, kind = excluded.kind, content = excluded.content, "
                    "created_at = excluded.created_at, updated_at = excluded.updated_at, data = excluded.data, "
                    "embedding = excluded.embedding, embedder = excluded.embedder, terms = excluded.terms, "
                    "topic = excluded.topic, importance = excluded.importance, valid_until = excluded.valid_until, "
                    "aspects = excluded.aspects WHERE facts.status = 'confirmed'", row)
            for user_id in sorted({f.user_id for f in facts}):
                self._bump_generation(conn, user_id)

    def live_rows(self, user_id: str) -> tuple[str, list[tuple]]:
        """``(generation, rows)``: the user's :meth:`generation` and one row per confirmed fact, the columns
        :data:`memory_agent.stores.base.LIVE_COLUMNS` names (embedding as float32 bytes), in
        ``(created_at, id)`` order; one indexed read (primary key ``(user_id, id)``). The generation is read
        first, so rows newer than it make the caller read again, never keep stale rows."""
        p = self._p
        with self._transaction() as conn:
            row = conn.execute(f"SELECT generation FROM fact_generations WHERE user_id = {p}", (user_id,)).fetchone()
            rows = conn.execute(f"SELECT {', '.join(LIVE_COLUMNS)} FROM facts WHERE user_id = {p} "
                                "AND status = 'confirmed' ORDER BY created_at, id", (user_id,)).fetchall()
        if rows and not isinstance(rows[0][2], bytes | None):  # psycopg gives memoryview for BYTEA
            rows = [(*r[:2], None if r[2] is None else bytes(r[2]), *r[3:]) for r in rows]
        return (row[0] if row else ""), rows

    def live_key(self, user_id: str) -> tuple[str, int]:
        """``(generation, number of confirmed facts)`` of the user: what a cache of :meth:`live_rows`
        compares (two indexed reads in one transaction)."""
        p = self._p
        with self._transaction() as conn:
            row = conn.execute(f"SELECT generation FROM fact_generations WHERE user_id = {p}", (user_id,)).fetchone()
            n = conn.execute(f"SELECT COUNT(*) FROM facts WHERE user_id = {p} AND status = 'confirmed'",
                             (user_id,)).fetchone()[0]
        return (row[0] if row else ""), int(n)

    def _bump_generation(self, conn: Any, user_id: str) -> None:
        """Give the user a new :meth:`generation` token, on ``conn`` (inside the caller's transaction).
        Every statement that changes a user's facts calls it in its own transaction."""
        conn.execute(f"INSERT INTO fact_generations (user_id, generation) VALUES ({self._marks(2)}) "
                     "ON CONFLICT (user_id) DO UPDATE SET generation = excluded.generation",
                     (user_id, uuid.uuid4().hex))

    def generation(self, user_id: str) -> str:
        """An opaque token that changes whenever the user's facts change in the ledger, from any process:
        ``save_fact``, ``delete_facts``, ``forget_since`` (a random token per change, so it never comes
        back to an earlier value); ``""`` for a user with no change recorded since migration 2, or erased.
        Usage counts (:meth:`touch`) do not change it."""
        rows = self._rows(f"SELECT generation FROM fact_generations WHERE user_id = {self._p}", (user_id,))
        return rows[0][0] if rows else ""

    def live_versions(self, user_id: str) -> dict[str, datetime]:
        """``{fact id: updated_at}`` of the user's confirmed facts: what the live index should hold, read
        without parsing the facts (a cache of the index checks its copy against it)."""
        rows = self._rows(f"SELECT id, updated_at FROM facts WHERE user_id = {self._p} AND status = 'confirmed'",
                          (user_id,))
        return {r[0]: datetime.fromisoformat(r[1]) for r in rows}

    def get_fact(self, user_id: str, fact_id: str) -> Fact | None:
        """The fact of this user with this id, or ``None`` (another user's id gives ``None``)."""
        p = self._p
        rows = self._rows(f"SELECT data FROM facts WHERE user_id = {p} AND id = {p}", (user_id, fact_id))
        return Fact.model_validate_json(rows[0][0]) if rows else None

    def facts(self, user_id: str, status: str | None = None) -> list[Fact]:
        """The user's facts (optionally of one status), oldest first."""
        p = self._p
        if status is None:
            rows = self._rows(f"SELECT data FROM facts WHERE user_id = {p} ORDER BY created_at, id", (user_id,))
        else:
            rows = self._rows(
                f"SELECT data FROM facts WHERE user_id = {p} AND status = {p} ORDER BY created_at, id",
                (user_id, status),
            )
        return [Fact.model_validate_json(r[0]) for r in rows]

    def live_facts_of_kinds(self, user_id: str, kinds: Sequence[str]) -> list[Fact]:
        """The user's confirmed facts of these kinds, oldest first (one indexed query, so a session's
        profile does not read every fact of the user)."""
        if not kinds:
            return []
        rows = self._rows(f"SELECT data FROM facts WHERE user_id = {self._p} AND status = 'confirmed' "
                          f"AND kind IN ({self._marks(len(kinds))}) ORDER BY created_at, id", (user_id, *kinds))
        return [Fact.model_validate_json(r[0]) for r in rows]

    def touch(self, user_id: str, fact_ids: Sequence[str], at: datetime, turn_id: str) -> None:
        """Record that facts were injected in turn ``turn_id`` at ``at``: set last-used and add one to
        the use count — once per (fact, turn), so a re-run commit does not count twice."""
        p = self._p
        with self._transaction() as conn:
            # rows are locked in one global order (sorted ids): two processes touching the same facts,
            # ranked differently, would otherwise each hold a row the other waits for (a deadlock on
            # Postgres, found by tests/load/run_load.py)
            for fid in sorted(set(fact_ids)):
                # lock the fact row first (a no-op update), so two processes touching one fact at once
                # on Postgres count both uses instead of one overwriting the other's count
                conn.execute(f"UPDATE facts SET status = status WHERE user_id = {p} AND id = {p}", (user_id, fid))
                new = conn.execute(
                    f"INSERT INTO fact_uses (user_id, fact_id, turn_id, at) VALUES ({p}, {p}, {p}, {p}) "
                    "ON CONFLICT DO NOTHING",
                    (user_id, fid, turn_id, at.isoformat()),
                ).rowcount
                row = conn.execute(f"SELECT data FROM facts WHERE user_id = {p} AND id = {p}",
                                   (user_id, fid)).fetchone()
                if not new or row is None:
                    continue
                fact = Fact.model_validate_json(row[0])
                fact.last_used_at = at
                fact.use_count += 1
                conn.execute(f"UPDATE facts SET data = {p} WHERE user_id = {p} AND id = {p}",
                             (fact.model_dump_json(), user_id, fid))

    def delete_facts(self, user_id: str, fact_ids: Sequence[str]) -> int:
        """Delete fact rows of the user (with their usage rows and episodes); returns how many facts. The
        user's :meth:`generation` changes in the same transaction."""
        if not fact_ids:
            return 0
        p, marks = self._p, self._marks(len(fact_ids))
        with self._transaction() as conn:
            n = conn.execute(f"DELETE FROM facts WHERE user_id = {p} AND id IN ({marks})",
                             (user_id, *fact_ids)).rowcount
            conn.execute(f"DELETE FROM fact_uses WHERE user_id = {p} AND fact_id IN ({marks})", (user_id, *fact_ids))
            conn.execute(f"DELETE FROM episodes WHERE user_id = {p} AND fact_id IN ({marks})", (user_id, *fact_ids))
            self._bump_generation(conn, user_id)
        return n

    # ---- audit log ------------------------------------------------------------------------------
    def audit(self, row: dict[str, Any]) -> bool:
        """Append one audit row; a row with an existing ``id`` is ignored. Returns True when new.

        Required keys: ``id``, ``user_id``, ``at``, ``decision``, ``decided_by``; the others of
        :data:`AUDIT_COLUMNS` are optional. A missing required value raises :class:`StoreError`
        (it is not silently skipped)."""
        with self._transaction() as conn:
            return self._audit_in(conn, row)

    def _audit_in(self, conn: Any, row: dict[str, Any]) -> bool:
        """:meth:`audit` inside the transaction ``conn``."""
        values = dict(row)
        if isinstance(values.get("proposal"), dict):
            values["proposal"] = json.dumps(values["proposal"], ensure_ascii=False, default=str)
        if isinstance(values.get("at"), datetime):
            values["at"] = values["at"].isoformat()
        cols = [c for c in AUDIT_COLUMNS if c in values]
        cur = conn.execute(
            f"INSERT INTO audit_log ({', '.join(cols)}) VALUES ({self._marks(len(cols))}) "
            "ON CONFLICT(id) DO NOTHING",
            [values[c] for c in cols],
        )
        return cur.rowcount == 1

    def audit_rows(self, user_id: str) -> list[dict[str, Any]]:
        """The user's audit rows as dicts, oldest first."""
        rows = self._rows(
            f"SELECT {', '.join(AUDIT_COLUMNS)} FROM audit_log WHERE user_id = {self._p} ORDER BY at, rowid",
            (user_id,),
        )
        return [dict(zip(AUDIT_COLUMNS, r, strict=True)) for r in rows]

    # ---- threads --------------------------------------------------------------------------------
    def remember_thread(self, user_id: str, thread_id: str, at: datetime) -> None:
        """Record that ``thread_id`` belongs to ``user_id`` (idempotent)."""
        self._exec(
            f"INSERT INTO user_threads (user_id, thread_id, created_at) VALUES ({self._marks(3)}) "
            "ON CONFLICT DO NOTHING",
            (user_id, thread_id, at.isoformat()),
        )

    def threads(self, user_id: str, since: datetime | None = None) -> list[str]:
        """The user's thread ids, oldest first (``since``: only threads started at or after it)."""
        if since is not None:
            return [r[0] for r in self._rows(
                f"SELECT thread_id FROM user_threads WHERE user_id = {self._p} AND created_at >= {self._p} "
                "ORDER BY created_at", (user_id, since.isoformat()))]
        return [r[0] for r in self._rows(
            f"SELECT thread_id FROM user_threads WHERE user_id = {self._p} ORDER BY created_at", (user_id,)
        )]

    def touch_thread(self, user_id: str, thread_id: str, at: datetime) -> None:
        """Record activity in a thread at ``at`` (first and last turn times, for session summaries)."""
        self._exec(
            f"INSERT INTO thread_activity (user_id, thread_id, first_at, last_at) VALUES ({self._marks(4)}) "
            "ON CONFLICT(user_id, thread_id) DO UPDATE SET last_at = excluded.last_at",
            (user_id, thread_id, at.isoformat(), at.isoformat()),
        )

    def thread_activity(self, user_id: str) -> dict[str, tuple[datetime, datetime]]:
        """``{thread_id: (first turn, last turn)}`` of the user's threads."""
        rows = self._rows(f"SELECT thread_id, first_at, last_at FROM thread_activity WHERE user_id = {self._p}",
                          (user_id,))
        return {r[0]: (datetime.fromisoformat(r[1]), datetime.fromisoformat(r[2])) for r in rows}

    def all_threads(self) -> list[tuple[str, str, str]]:
        """Every ``(user_id, thread_id, created_at ISO text)``, oldest first: for retention jobs that work
        across users (``memory-agent threads prune``), which then act on each thread under its own user."""
        return [(r[0], r[1], r[2]) for r in self._rows(
            "SELECT user_id, thread_id, created_at FROM user_threads ORDER BY created_at, user_id, thread_id")]

    def forget_thread(self, user_id: str, thread_id: str) -> bool:
        """Remove ``thread_id`` from the user's threads (its checkpoints are the checkpointer's to
        delete); True when it was there."""
        p = self._p
        return self._exec(f"DELETE FROM user_threads WHERE user_id = {p} AND thread_id = {p}",
                          (user_id, thread_id)).rowcount == 1

    # ---- sessions and episodes ------------------------------------------------------------------
    def save_summary(self, row: dict[str, Any]) -> None:
        """Insert or replace the summary of one thread (keys: :data:`SUMMARY_COLUMNS`; ``fact_ids`` is
        a list of fact ids, times are datetimes)."""
        updates = ", ".join(f"{c} = excluded.{c}" for c in SUMMARY_COLUMNS[2:])
        self._exec(
            f"INSERT INTO session_summaries ({', '.join(SUMMARY_COLUMNS)}) VALUES "
            f"({self._marks(len(SUMMARY_COLUMNS))}) ON CONFLICT(user_id, thread_id) DO UPDATE SET {updates}",
            _encode(row, SUMMARY_COLUMNS),
        )

    def summaries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's session summaries, newest (by end time) first."""
        rows = self._rows(
            f"SELECT {', '.join(SUMMARY_COLUMNS)} FROM session_summaries WHERE user_id = {self._p} "
            "ORDER BY ended_at DESC, thread_id", (user_id,),
        )
        return [_decode(dict(zip(SUMMARY_COLUMNS, r, strict=True))) for r in rows]

    def save_episode(self, row: dict[str, Any]) -> bool:
        """Record one dated episode (keys: :data:`EPISODE_COLUMNS`); idempotent on ``(user_id, id)``.
        Returns True when it was new."""
        cur = self._exec(
            f"INSERT INTO episodes ({', '.join(EPISODE_COLUMNS)}) VALUES ({self._marks(len(EPISODE_COLUMNS))}) "
            "ON CONFLICT(user_id, id) DO NOTHING",
            _encode(row, EPISODE_COLUMNS),
        )
        return cur.rowcount == 1

    def episodes(self, user_id: str, start: datetime | None = None, end: datetime | None = None) -> list[dict]:
        """The user's episodes with ``start <= occurred_at < end`` (either bound optional), oldest first."""
        p = self._p
        sql = f"SELECT {', '.join(EPISODE_COLUMNS)} FROM episodes WHERE user_id = {p}"
        params: list[Any] = [user_id]
        if start is not None:
            sql += f" AND occurred_at >= {p}"
            params.append(start.isoformat())
        if end is not None:
            sql += f" AND occurred_at < {p}"
            params.append(end.isoformat())
        rows = self._rows(sql + " ORDER BY occurred_at, id", params)
        return [_decode(dict(zip(EPISODE_COLUMNS, r, strict=True))) for r in rows]

    # ---- commit journal: a decision being written, so a crash mid-commit can be repaired ----------
    def journal_begin(self, user_id: str, entry_id: str, payload: dict[str, Any], at: datetime) -> None:
        """Record that the decision ``entry_id`` is about to be written (idempotent). ``payload`` is
        what is needed to write it again (JSON-serialisable)."""
        self._exec(f"INSERT INTO commit_journal (user_id, id, at, payload) VALUES ({self._marks(4)}) "
                   "ON CONFLICT DO NOTHING",
                   (user_id, entry_id, at.isoformat(), json.dumps(payload, ensure_ascii=False, default=str)))

    def journal_open(self, user_id: str | None = None) -> list[dict[str, Any]]:
        """Decisions begun and never ended, of every user (or of ``user_id``), oldest first:
        ``{"user_id", "id", "at", "payload": dict}``."""
        if user_id is None:
            rows = self._rows("SELECT user_id, id, at, payload FROM commit_journal ORDER BY at, rowid")
        else:
            rows = self._rows(f"SELECT user_id, id, at, payload FROM commit_journal WHERE user_id = {self._p} "
                              "ORDER BY at, rowid", (user_id,))
        return [{"user_id": r[0], "id": r[1], "at": r[2], "payload": json.loads(r[3])} for r in rows]

    # ---- user settings --------------------------------------------------------------
    def users(self) -> list[str]:
        """Every user id with at least one fact (any status), sorted."""
        return [r[0] for r in self._rows("SELECT DISTINCT user_id FROM facts ORDER BY user_id")]

    def set_memory_enabled(self, user_id: str, enabled: bool, at: datetime) -> None:
        """Turn the user's long-term memory on or off (off: no reads, no writes)."""
        self._exec(
            f"INSERT INTO user_settings (user_id, memory_enabled, updated_at) VALUES ({self._marks(3)}) "
            "ON CONFLICT(user_id) DO UPDATE SET memory_enabled = excluded.memory_enabled, "
            "updated_at = excluded.updated_at",
            (user_id, 1 if enabled else 0, at.isoformat()),
        )

    def memory_enabled(self, user_id: str) -> bool:
        """The user's memory switch (on unless the user turned it off)."""
        rows = self._rows(f"SELECT memory_enabled FROM user_settings WHERE user_id = {self._p}", (user_id,))
        return bool(rows[0][0]) if rows else True

    def compact(self) -> None:
        """Move the write-ahead log into the file and rewrite the file (``VACUUM``), so deleted
        rows leave no bytes behind in freed pages. SQLite only: other backends do their own."""
        self.db.compact()

    def close(self) -> None:
        """Close the SQLite connection (a Postgres pool is closed by whoever opened it)."""
        self.db.close()


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
    for key in ("fact_ids",):
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
