"""Erasure on the SQL ledger's tables: tombstoned audit rows, a user erased, what was written since
a time forgotten, and the search for anything left of a user.

:class:`SQLErasure` is a part of :class:`memory_agent.stores.sql.ledger.SQLFactLedger` (its base
class): it runs on the ledger's transaction helpers and placeholder (``{p}`` in the f-strings).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from memory_agent.stores.sql.schema import AUDIT_TEXT_COLUMNS, SCANNED_COLUMNS


class SQLErasure:
    """The erasure half of the SQL ledger (see the module docstring)."""

    _p: str  # the dialect's placeholder

    def _transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _exec(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        raise NotImplementedError

    def _marks(self, n: int) -> str:
        raise NotImplementedError

    def delete_facts(self, user_id: str, fact_ids: Sequence[str]) -> int:
        raise NotImplementedError

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
        p = self._p
        sets = [f"{c} = NULL" for c in AUDIT_TEXT_COLUMNS]
        params: list[Any] = []
        if new_user_id is not None:
            sets = [*sets, f"user_id = {p}", "thread_id = NULL", "fact_id = NULL", "target_id = NULL"]
            params.append(new_user_id)
        where = [f"user_id = {p}"]
        params.append(user_id)
        if fact_ids is not None:
            if not fact_ids:
                return 0
            marks = self._marks(len(fact_ids))
            where.append(f"(fact_id IN ({marks}) OR target_id IN ({marks}))")
            params += [*fact_ids, *fact_ids]
        if since is not None:
            where.append(f"at >= {p}")
            params.append(since.isoformat())
        return self._exec(f"UPDATE audit_log SET {', '.join(sets)} WHERE {' AND '.join(where)}", params).rowcount

    def erase_user(self, user_id: str, tombstone: str) -> dict[str, int]:
        """Delete every row of the user in every table except the audit log, whose rows become
        tombstones under the id ``tombstone`` (see :meth:`tombstone_audit`). Returns rows removed
        (or tombstoned) per table (``api_keys``: the user's API keys, revoked). The user's generation
        row goes too, uncounted (the token becomes ``""``; the caller drops the live index first, so no
        process serves a cached copy of the facts after it)."""
        counts = {"audit_log": self.tombstone_audit(user_id, new_user_id=tombstone)}
        with self._transaction() as conn:
            for table in ("facts", "fact_uses", "user_threads", "user_settings", "session_summaries", "episodes",
                          "thread_activity", "api_keys"):
                counts[table] = conn.execute(f"DELETE FROM {table} WHERE user_id = {self._p}", (user_id,)).rowcount
            conn.execute(f"DELETE FROM fact_generations WHERE user_id = {self._p}", (user_id,))
        return counts

    def forget_since(self, user_id: str, since: datetime) -> dict[str, Any]:
        """Delete what was written for the user at or after ``since``: facts created then (returned
        in ``fact_ids`` so the caller removes them from the live index), summaries and episodes of
        that time, threads started then (``thread_ids``: the caller deletes their checkpoints);
        audit rows of that time become tombstones."""
        at, p = since.isoformat(), self._p
        with self._transaction() as conn:
            fact_ids = [r[0] for r in conn.execute(
                f"SELECT id FROM facts WHERE user_id = {p} AND created_at >= {p}", (user_id, at)).fetchall()]
            thread_ids = [r[0] for r in conn.execute(
                f"SELECT thread_id FROM user_threads WHERE user_id = {p} AND created_at >= {p}",
                (user_id, at)).fetchall()]
        self.delete_facts(user_id, fact_ids)
        with self._transaction() as conn:
            conn.execute(f"DELETE FROM user_threads WHERE user_id = {p} AND created_at >= {p}", (user_id, at))
            conn.execute(f"DELETE FROM thread_activity WHERE user_id = {p} AND first_at >= {p}", (user_id, at))
            summaries = conn.execute(f"DELETE FROM session_summaries WHERE user_id = {p} AND ended_at >= {p}",
                                     (user_id, at)).rowcount
            episodes = conn.execute(f"DELETE FROM episodes WHERE user_id = {p} AND occurred_at >= {p}",
                                    (user_id, at)).rowcount
            conn.execute(f"DELETE FROM fact_uses WHERE user_id = {p} AND at >= {p}", (user_id, at))
        audit = self.tombstone_audit(user_id, since=since)
        return {"fact_ids": fact_ids, "thread_ids": thread_ids, "session_summaries": summaries,
                "episodes": episodes, "audit_log": audit}

    def scan(self, needles: Sequence[str], user_id: str | None = None) -> list[dict[str, Any]]:
        """Search every table of the ledger for what is left: rows whose ``user_id`` equals
        ``user_id`` (exact), and every text column for each of ``needles`` (a substring; SQL
        ``LIKE`` with ``%`` and ``_`` escaped). Returns ``{"store", "table", "column", "needle",
        "rows"}`` for every hit; empty when nothing remains."""
        p = self._p
        hits = []
        if user_id is not None:
            for table in SCANNED_COLUMNS:
                n = self._rows(f"SELECT COUNT(*) FROM {table} WHERE user_id = {p}", (user_id,))[0][0]
                if n:
                    hits.append({"store": "ledger", "table": table, "column": "user_id", "needle": user_id, "rows": n})
        for needle in needles:
            if not needle:
                continue
            pattern = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            for table, columns in SCANNED_COLUMNS.items():
                for col in columns:
                    n = self._rows(f"SELECT COUNT(*) FROM {table} WHERE {col} LIKE {p} ESCAPE '\\'", (pattern,))[0][0]
                    if n:
                        hits.append({"store": "ledger", "table": table, "column": col, "needle": needle, "rows": n})
        return hits
