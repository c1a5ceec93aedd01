"""The checkpointer as the application uses it: per-user thread keys and Postgres errors.

Every thread id reaches the checkpointer namespaced by the user (:func:`checkpoint_thread_id`),
and every checkpointer call that may hit Postgres runs under :func:`store_errors`.
:class:`AgentTranscripts` is the checkpointer as long-term memory's erasing writes reach it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from memory_agent.stores.sql.dialects import postgres_error


@contextmanager
def store_errors() -> Iterator[None]:
    """Turn a Postgres failure of the checkpointer (down, PgBouncer gone, pool exhausted) into a
    :class:`StoreError` that says what to do; the thread keeps its last checkpoint and continues
    from there once the server is back."""
    try:
        yield
    except Exception as exc:
        if type(exc).__module__.split(".", 1)[0] not in ("psycopg", "psycopg_pool"):
            raise
        raise postgres_error(exc, "Postgres (checkpointer)") from exc


def checkpoint_thread_id(user_id: str, thread_id: str) -> str:
    """The checkpointer's thread id: the user's thread id namespaced by a hash of the user id,
    so one user can never open another user's transcript by guessing a thread name."""
    return hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:16] + ":" + thread_id


class AgentTranscripts:
    """:class:`memory_agent.stores.base.Transcripts` on the agent's checkpointer: what the erasing writes
    of long-term memory delete or rewind in working memory (``MemoryAgent`` attaches it to its memory).

    Args:
        checkpointer: a LangGraph checkpointer (``SqliteSaver``, ``PostgresSaver``).
        rewind: ``(user_id, thread_id, before) -> turns dropped or None`` (``MemoryAgent.rewind_thread``).
        compact: rewrites the embedded files (``MemoryAgent.compact_embedded_stores``).
    """

    def __init__(self, checkpointer, rewind: Callable[[str, str, datetime], int | None],
                 compact: Callable[[], None]):
        self.checkpointer = checkpointer
        self._rewind = rewind
        self._compact = compact

    def delete_threads(self, user_id: str, thread_ids: Sequence[str], *, every: bool = False) -> int:
        """Delete the checkpoints of these threads of the user; ``every``: also every checkpoint whose
        thread id carries the user's namespace (threads the ledger does not know). Returns how many."""
        keys = {checkpoint_thread_id(user_id, t) for t in thread_ids}
        with store_errors():
            if every:
                prefix = checkpoint_thread_id(user_id, "")
                keys |= {key for key in (str(item.config["configurable"]["thread_id"])
                                         for item in self.checkpointer.list(None)) if key.startswith(prefix)}
            for key in keys:
                self.checkpointer.delete_thread(key)
        return len(keys)

    def rewind(self, user_id: str, thread_id: str, before: datetime) -> int | None:
        """Drop the thread's turns that started at or after ``before`` (see ``MemoryAgent.rewind_thread``)."""
        with store_errors():
            return self._rewind(user_id, thread_id, before)

    def compact(self) -> None:
        """Rewrite the embedded files so deleted text does not linger (no-op for server stores)."""
        self._compact()
