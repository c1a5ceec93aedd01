"""The small interfaces the memory pipeline talks to, so a store can be swapped in one place.

- :class:`FactIndex`: the *live* facts of each user with their embeddings (default: Chroma,
  one collection per user). Every method takes the ``user_id``; an implementation must scope
  the call to that user inside the store (its own collection or key), never by filtering
  results afterwards.
- :class:`FactLedger`: every fact ever committed (live and not), the audit log, the user → threads
  index, sessions and episodes, the commit journal and per-user settings (SQLite by default, or
  PostgreSQL). It is the union of small role protocols (:class:`FactRecords`, :class:`AuditLog`,
  :class:`ThreadIndex`, :class:`SessionRecords`, :class:`CommitJournal`, :class:`UserControl`), so a
  caller that needs one role can be typed against just that role.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from memory_agent.core.facts import Fact


class StoreError(RuntimeError):
    """A store cannot be used (down, corrupt, or opened with the wrong embedder)."""


class EmbedderMismatchError(StoreError):
    """A collection was written with a different embedder than the one now configured."""


class FactIndex(Protocol):
    """Live facts of each user, searchable by embedding (cosine distance)."""

    def upsert(self, user_id: str, facts: Sequence[Fact], embeddings: Sequence[Sequence[float]]) -> None:
        """Insert or replace facts (same id → replaced, so a retried write is idempotent)."""

    def query(self, user_id: str, embedding: Sequence[float], n: int) -> list[tuple[Fact, float]]:
        """The ``n`` nearest live facts with their cosine distance (0 = same direction, 2 = opposite)."""

    def nearest_ids(self, user_id: str, embedding: Sequence[float], n: int) -> list[tuple[str, float]]:
        """Like :meth:`query`, ids only: ``(fact id, cosine distance)``, nearest first. An approximate
        index may leave out facts it cannot reach, even when ``n`` is the live count."""

    def vectors(self, user_id: str, ids: Sequence[str] | None = None) -> dict[str, Sequence[float]]:
        """The stored embeddings of these live facts (every live fact when ``ids`` is ``None``), by id;
        ids not live are left out."""

    def get(self, user_id: str, ids: Sequence[str]) -> list[Fact]:
        """The live facts with these ids (missing ids are skipped)."""

    def generation(self, user_id: str) -> int:
        """A number that changes with every write this process makes to the user's live facts
        (caches derived from them compare it); writes by other processes need not change it."""

    def count(self, user_id: str) -> int:
        """How many live facts the user has (0 for an unknown user)."""

    def list(self, user_id: str) -> list[Fact]:
        """Every live fact of the user."""

    def delete(self, user_id: str, ids: Sequence[str]) -> None:
        """Remove facts from the live set (no error for missing ids)."""

    def drop_user(self, user_id: str) -> int:
        """Remove every live fact of the user; returns how many there were."""

    def scan(self, user_id: str, needles: Sequence[str]) -> list[dict[str, Any]]:
        """Look through the *whole* store (every user) for anything left of ``user_id`` (its
        collection or key) or containing one of ``needles``; one dict per hit
        ``{"store", "table", "column", "needle", "rows"}``, empty when nothing remains."""


class FactRecords(Protocol):
    """Every committed fact of each user, with its status history."""

    def save_fact(self, fact: Fact) -> None:
        """Insert or replace the fact row keyed by ``(user_id, id)`` (and change the user's :meth:`generation`)."""

    def generation(self, user_id: str) -> str:
        """A token that changes, in the same transaction, with every change to the user's facts by any
        process (``save_fact``, ``delete_facts``, ``forget_since``; not usage counts) and never returns to
        an earlier value; ``""`` when no change is recorded (or the user was erased). Caches of the
        user's live facts compare it."""

    def live_versions(self, user_id: str) -> dict[str, datetime]:
        """``{fact id: updated_at}`` of the user's confirmed facts (what the live index should hold)."""

    def get_fact(self, user_id: str, fact_id: str) -> Fact | None:
        """The fact row of this user, or ``None``."""

    def facts(self, user_id: str, status: str | None = None) -> list[Fact]:
        """The user's facts, optionally only one status, oldest first."""

    def live_facts_of_kinds(self, user_id: str, kinds: Sequence[str]) -> list[Fact]:
        """The user's confirmed facts of these kinds, oldest first."""

    def touch(self, user_id: str, fact_ids: Sequence[str], at: datetime, turn_id: str) -> None:
        """Record that facts were injected in turn ``turn_id`` at ``at``: set last-used and add one
        to the use count, once per (fact, turn)."""

    def delete_facts(self, user_id: str, fact_ids: Sequence[str]) -> int:
        """Delete fact rows of the user (and their usage rows and episodes; the :meth:`generation`
        changes); returns how many."""


class AuditLog(Protocol):
    """One row per proposal: what was proposed, the decision, by whom, when, why."""

    def audit(self, row: dict[str, Any]) -> bool:
        """Append an audit row (idempotent on ``row['id']``); True when it was new."""

    def audit_rows(self, user_id: str) -> list[dict[str, Any]]:
        """The user's audit rows, oldest first."""

    def tombstone_audit(self, user_id: str, *, fact_ids: Sequence[str] | None = None,
                        since: datetime | None = None, new_user_id: str | None = None) -> int:
        """Blank the text of the user's audit rows (optionally only about ``fact_ids`` / since a time)."""


class ThreadIndex(Protocol):
    """Which threads belong to which user, and when each was active."""

    def remember_thread(self, user_id: str, thread_id: str, at: datetime) -> None:
        """Record that ``thread_id`` belongs to ``user_id``."""

    def threads(self, user_id: str) -> list[str]:
        """The user's thread ids."""

    def touch_thread(self, user_id: str, thread_id: str, at: datetime) -> None:
        """Record activity in a thread at ``at`` (first and last turn times)."""

    def thread_activity(self, user_id: str) -> dict[str, tuple[datetime, datetime]]:
        """``{thread_id: (first turn, last turn)}`` of the user's threads."""

    def all_threads(self) -> list[tuple[str, str, str]]:
        """Every ``(user_id, thread_id, created_at ISO text)`` of every user, oldest first."""

    def forget_thread(self, user_id: str, thread_id: str) -> bool:
        """Remove ``thread_id`` from the user's threads; True when it was there."""


class SessionRecords(Protocol):
    """Session summaries (one per ended thread) and dated episodes."""

    def save_summary(self, row: dict[str, Any]) -> None:
        """Insert or replace the summary of one thread of the user."""

    def summaries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's session summaries, newest first."""

    def save_episode(self, row: dict[str, Any]) -> bool:
        """Record one dated episode (idempotent on its id); True when new."""

    def episodes(self, user_id: str, start: datetime | None = None, end: datetime | None = None) -> list[dict]:
        """The user's episodes in ``[start, end)``, oldest first."""


class CommitJournal(Protocol):
    """Decisions being written right now; an entry left open means a commit died half-way."""

    def journal_begin(self, user_id: str, entry_id: str, payload: dict[str, Any], at: datetime) -> None:
        """Record a decision about to be written (idempotent), with what is needed to write it again."""

    def journal_end(self, user_id: str, entry_id: str) -> None:
        """The decision is fully written."""

    def journal_open(self) -> list[dict[str, Any]]:
        """Decisions begun and not ended, of every user: ``{"user_id", "id", "at", "payload"}``."""


class UserControl(Protocol):
    """Per-user settings, erasure and the search for what is left of a user."""

    def users(self) -> list[str]:
        """Every user id with at least one fact, sorted (for ``maintain``)."""

    def set_memory_enabled(self, user_id: str, enabled: bool, at: datetime) -> None:
        """Turn the user's long-term memory on or off."""

    def memory_enabled(self, user_id: str) -> bool:
        """The user's memory switch (True unless turned off)."""

    def erase_user(self, user_id: str, tombstone: str) -> dict[str, int]:
        """Delete every row of the user; audit rows become tombstones under ``tombstone``."""

    def forget_since(self, user_id: str, since: datetime) -> dict[str, Any]:
        """Delete what was written for the user at or after ``since``: ``{"fact_ids", "thread_ids",
        "session_summaries", "episodes", "audit_log"}`` (ids to remove elsewhere, counts)."""

    def scan(self, needles: Sequence[str], user_id: str | None = None) -> list[dict[str, Any]]:
        """Rows keyed by ``user_id`` (exact) and every text column holding one of ``needles``
        (substring), in every table; empty when nothing remains."""


class FactLedger(FactRecords, AuditLog, ThreadIndex, SessionRecords, CommitJournal, UserControl, Protocol):
    """What a full ledger backend implements: every role above."""
