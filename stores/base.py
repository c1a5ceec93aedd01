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
- :class:`Transcripts`: what erasing a user's data needs from working memory (the checkpointer),
  provided by the application.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Protocol

from memory_agent.core.facts import Fact


class StoreError(RuntimeError):
    """A store cannot be used (down, corrupt, or opened with the wrong embedder)."""


class EmbedderMismatchError(StoreError):
    """A collection was written with a different embedder than the one now configured."""


class FactIndex(Protocol):
    """Live facts of each user, searchable by embedding (cosine distance); ``embedder_name`` and
    ``dimension`` name the embedder its vectors must come from (recorded with the ledger's copies too)."""

    embedder_name: str
    dimension: int

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


#: What :meth:`FactRecords.live_rows` gives per fact, in order: id, the fact's JSON, its embedding
#: (float32 bytes) and embedder name, its lexical tokens (space-separated), kind, content, created_at
#: and updated_at (ISO), then the ranking fields kept as columns (topic, importance 0–1, valid_until
#: ISO, the aspects it states: ``memory_agent.memory.aspects.stated_aspects``). Any of embedding,
#: embedder, terms and the last four may be ``None`` for rows of an older release; ``importance``
#: ``None`` means the ranking fields must be read from the JSON.
LIVE_COLUMNS = ("id", "data", "embedding", "embedder", "terms", "kind", "content", "created_at", "updated_at",
                "topic", "importance", "valid_until", "aspects")


class FactRecords(Protocol):
    """Every committed fact of each user, with its status history."""

    def save_fact(self, fact: Fact, embedding: Sequence[float] | None = None,
                  terms: Sequence[str] | None = None, embedder: str | None = None) -> None:
        """Insert or replace the fact row keyed by ``(user_id, id)`` with the embedding of its index text
        (by ``embedder``) and its lexical tokens (all optional), and change the user's :meth:`generation`,
        in one transaction; a stored fact that is no longer confirmed is left as it is (its status and
        ``superseded_by`` change only by :meth:`change_status`)."""

    def live_rows(self, user_id: str) -> tuple[str, list[tuple]]:
        """``(generation, rows)``, one row per confirmed fact of the user, oldest first, with the columns
        :data:`LIVE_COLUMNS` names in that order; the generation is read first."""

    def live_key(self, user_id: str) -> tuple[str, int]:
        """``(generation, number of confirmed facts)`` of the user."""

    def change_status(self, user_id: str, fact_id: str, status: str, at: datetime, *, expect: str = "confirmed",
                      superseded_by: str | None = None, audit: dict[str, Any] | None = None,
                      update: Fact | None = None) -> bool:
        """Compare-and-set: if the fact's status is ``expect``, set ``status``, ``updated_at = at`` and
        ``superseded_by``, rewrite ``update`` (another fact of the user) if it is confirmed, and append the
        ``audit`` row, all in one transaction; otherwise write nothing. True when the status changed."""

    def update_live_fact(self, fact: Fact, audit: dict[str, Any] | None = None) -> bool:
        """Rewrite a confirmed fact's record and append its ``audit`` row in one transaction; a fact that
        is no longer confirmed is left as it is and nothing is audited. True when written."""

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

    def threads(self, user_id: str, since: datetime | None = None) -> list[str]:
        """The user's thread ids, oldest first (``since``: only threads started at or after it)."""

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
        """Insert or replace the summary of one thread of the user: ``{"user_id", "thread_id",
        "started_at", "ended_at", "fact_ids": [str]}`` (no text: see ``memory_agent.memory.sessions``)."""

    def summaries(self, user_id: str) -> list[dict[str, Any]]:
        """The user's session summaries, newest first."""

    def save_episode(self, row: dict[str, Any]) -> bool:
        """Record one dated episode (idempotent on its id); True when new."""

    def episodes(self, user_id: str, start: datetime | None = None, end: datetime | None = None) -> list[dict]:
        """The user's episodes in ``[start, end)``, oldest first."""


class CommitJournal(Protocol):
    """Decisions being written right now (every write of facts, audit rows, summaries and episodes):
    an entry left open means a writer died half-way, and the entry holds what is needed to finish it."""

    def journal_begin(self, user_id: str, entry_id: str, payload: dict[str, Any], at: datetime) -> None:
        """Record a decision about to be written (idempotent), with what is needed to write it again."""

    def journal_end(self, user_id: str, entry_id: str, *, audit: dict[str, Any] | None = None,
                    every: bool = False) -> bool:
        """The decision is fully written: remove its entry (``every``: every entry of the user) and append
        its ``audit`` row in the same transaction. True when the audit row was new."""

    def journal_open(self, user_id: str | None = None) -> list[dict[str, Any]]:
        """Decisions begun and not ended, of every user (or of ``user_id``), oldest first:
        ``{"user_id", "id", "at", "payload"}``."""

    def user_lock(self, user_id: str) -> AbstractContextManager[None]:
        """A context manager that serializes the writers of one user (threads, and processes where the
        backend is shared); re-entrant in one thread."""


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


class APIKeys(Protocol):
    """Per-user API keys, kept as hashes (``memory_agent.app.accounts`` makes the keys and hashes them)."""

    def add_key(self, user_id: str, key_hash: str, at: datetime) -> None:
        """Record a key (by its hash) as signing in ``user_id``."""

    def user_of(self, key_hash: str) -> str | None:
        """The user the key with this hash signs in; ``None`` for an unknown (or revoked) key."""

    def delete_keys(self, user_id: str) -> int:
        """Revoke every key of the user; returns how many there were."""

    def key_users(self) -> list[str]:
        """Every user id with at least one key, sorted."""


class Transcripts(Protocol):
    """Working memory (the checkpointer's threads) as the erasing writes of long-term memory need it;
    the application provides it (``MemoryAgent``), so a journaled erasure left half-done is finished
    there too. Every call is scoped to one user and idempotent."""

    def delete_threads(self, user_id: str, thread_ids: Sequence[str], *, every: bool = False) -> int:
        """Delete the checkpoints of these threads of the user (``every``: also any other thread in the
        user's namespace); returns how many threads were deleted."""

    def rewind(self, user_id: str, thread_id: str, before: datetime) -> int | None:
        """Drop the thread's turns that started at or after ``before``; the number dropped, ``None`` when none."""

    def compact(self) -> None:
        """Rewrite embedded files so deleted text does not linger in freed pages (no-op for servers)."""
