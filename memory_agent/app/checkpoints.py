"""The checkpointer as the application uses it: per-user thread keys and Postgres errors.

Every thread id reaches the checkpointer namespaced by the user (:func:`checkpoint_thread_id`),
and every checkpointer call that may hit Postgres runs under :func:`store_errors`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

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
