"""Writes of the SQL ledger that must happen together or not at all: a fact's status change with its
audit row (a compare-and-set, so two writers never both end one fact), a live fact's record rewritten
with its audit row, a journal entry ended with the decision's audit row, and the per-user lock the
writers take.

:class:`SQLTransitions` is a part of :class:`memory_agent.stores.sql.ledger.SQLFactLedger` (a base
class, like :class:`memory_agent.stores.sql.erasure.SQLErasure`): it runs on the ledger's transaction
helpers, dialect and placeholder (``{p}`` in the f-strings).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any

from memory_agent.core.facts import Fact
from memory_agent.memory.aspects import stated_aspects


def ranking_columns(fact: Fact) -> tuple[str, float, str | None, str]:
    """``(topic, importance, valid_until ISO or None, aspects)``: the columns of migration 7, which every
    statement that writes a fact's record writes from it (:mod:`memory_agent.stores.sql.schema`)."""
    return (fact.topic, fact.importance, fact.valid_until.isoformat() if fact.valid_until else None,
            stated_aspects(fact.topic, fact.content))


class SQLTransitions:
    """The all-or-nothing writes of the SQL ledger (see the module docstring)."""

    _p: str  # the dialect's placeholder
    db: Any  # the dialect: ``for_update``, ``user_lock``

    def _transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _audit_in(self, conn: Any, row: dict[str, Any]) -> bool:
        raise NotImplementedError

    def _bump_generation(self, conn: Any, user_id: str) -> None:
        raise NotImplementedError

    def change_status(self, user_id: str, fact_id: str, status: str, at: datetime, *, expect: str = "confirmed",
                      superseded_by: str | None = None, audit: dict[str, Any] | None = None,
                      update: Fact | None = None) -> bool:
        """Compare-and-set a fact's status, in one transaction with what belongs to the change.

        If the fact's status is ``expect``, it becomes ``status`` with ``updated_at = at`` and
        ``superseded_by`` (also in the stored record); ``update`` (another fact of the user, e.g. the
        fact a duplicate is merged into) is rewritten if it is still confirmed; and the ``audit`` row is
        appended (idempotent on its id). If the status is not ``expect`` (another writer ended the fact
        first, or this change was already made), nothing is written. The row is locked while it is
        read (``SELECT ... FOR UPDATE`` on Postgres), so two writers never both end one fact.

        Returns:
            True when the status changed.
        """
        p = self._p
        with self._transaction() as conn:
            row = conn.execute(f"SELECT data FROM facts WHERE user_id = {p} AND id = {p} AND status = {p}"
                               f"{self.db.for_update}", (user_id, fact_id, expect)).fetchone()
            if row is None:
                return False
            fact = Fact.model_validate_json(row[0]).model_copy(
                update={"status": status, "updated_at": at, "superseded_by": superseded_by})
            changed = conn.execute(
                f"UPDATE facts SET status = {p}, updated_at = {p}, data = {p} "
                f"WHERE user_id = {p} AND id = {p} AND status = {p}",
                (status, at.isoformat(), fact.model_dump_json(), user_id, fact_id, expect)).rowcount
            if changed != 1:
                return False
            if update is not None:
                self._rewrite_live(conn, update)
            if audit is not None:
                self._audit_in(conn, audit)
            self._bump_generation(conn, user_id)
        return True

    def update_live_fact(self, fact: Fact, audit: dict[str, Any] | None = None) -> bool:
        """Rewrite the record of a live fact (a renewal's new review date, a merge's sources) and append
        its ``audit`` row, in one transaction, only while the fact is confirmed: a fact another writer
        ended meanwhile is left as it is, and no audit row is written. Returns True when written."""
        with self._transaction() as conn:
            written = self._rewrite_live(conn, fact)
            if written:
                self._bump_generation(conn, fact.user_id)
            if written and audit is not None:
                self._audit_in(conn, audit)
        return written

    def _rewrite_live(self, conn: Any, fact: Fact) -> bool:
        """Rewrite a confirmed fact's record on ``conn``; its stored embedding and tokens are kept only
        while its index text is unchanged (else ``NULL``: a read takes the vector from the live index)."""
        p = self._p
        row = conn.execute(f"SELECT data FROM facts WHERE user_id = {p} AND id = {p} AND status = 'confirmed'",
                           (fact.user_id, fact.id)).fetchone()
        if row is None:
            return False
        same_text = Fact.model_validate_json(row[0]).index_text == fact.index_text
        keep = "" if same_text else ", embedding = NULL, embedder = NULL, terms = NULL"
        return conn.execute(
            f"UPDATE facts SET kind = {p}, content = {p}, updated_at = {p}, data = {p}, topic = {p}, importance = {p}, "
            f"valid_until = {p}, aspects = {p}{keep} WHERE user_id = {p} AND id = {p} AND status = 'confirmed'",
            (fact.kind, fact.content, fact.updated_at.isoformat(), fact.model_dump_json(), *ranking_columns(fact),
             fact.user_id, fact.id),
        ).rowcount == 1

    def journal_end(self, user_id: str, entry_id: str, *, audit: dict[str, Any] | None = None,
                    every: bool = False) -> bool:
        """The decision ``entry_id`` is fully written: its entry is removed and, in the same
        transaction, its ``audit`` row appended (idempotent on the row's id), so a decision is either
        still in the journal or audited, never neither. ``every``: remove every entry of the user
        (erasing the user: nothing of theirs may be written again). Returns True when the audit row
        was new."""
        p = self._p
        with self._transaction() as conn:
            new = self._audit_in(conn, audit) if audit is not None else False
            if every:
                conn.execute(f"DELETE FROM commit_journal WHERE user_id = {p}", (user_id,))
            else:
                conn.execute(f"DELETE FROM commit_journal WHERE user_id = {p} AND id = {p}", (user_id, entry_id))
        return new

    @contextmanager
    def user_lock(self, user_id: str) -> Iterator[None]:
        """Hold the write lock of one user while the block runs: writers of the same user (threads of
        this process; on Postgres also other processes, through an advisory lock) wait for each other,
        writers of other users do not. Re-entrant in one thread. A writer never holds two users' locks.

        Raises:
            StoreError: the database is down, or (Postgres) the lock was not free within a minute.
        """
        with self.db.user_lock(user_id):
            yield
