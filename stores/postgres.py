"""PostgreSQL for the server deployment: one connection pool per process, shared by LangGraph's
``PostgresSaver`` (working memory) and :class:`memory_agent.stores.sql.ledger.SQLFactLedger` (facts, audit log).

Connections are opened the way ``PostgresSaver`` needs them (its documentation): ``autocommit=True``
(``setup()`` runs ``CREATE INDEX CONCURRENTLY``, which fails inside a transaction) and
``row_factory=dict_row``. ``prepare_threshold`` is psycopg's: after that many runs a query is prepared
on the server. PgBouncer in transaction mode hands each transaction to any server connection, so a
prepared statement may be missing there: set ``prepare_threshold=None`` behind it
(``MEMORY_AGENT_POSTGRES_PREPARE_THRESHOLD=none``).
"""

from __future__ import annotations

import time
from typing import Any

from memory_agent.stores.base import StoreError
from memory_agent.stores.sql.dialects import postgres_error


def open_pool(url: str, *, prepare_threshold: int | None = 5, max_size: int = 10, timeout: float = 10.0):
    """Open a ``psycopg_pool.ConnectionPool`` on ``url`` and wait until one connection works.

    Args:
        url: ``postgresql://user[:password]@host:port/database`` (libpq conninfo strings work too).
        prepare_threshold: psycopg's setting; ``None`` = never prepare (PgBouncer transaction mode).
        max_size: most connections of this process.
        timeout: seconds to wait for the first connection, and later for a free one.

    Raises:
        StoreError: Postgres cannot be reached within ``timeout`` seconds.
    """
    import psycopg
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    kwargs: dict[str, Any] = {"autocommit": True, "row_factory": dict_row, "prepare_threshold": prepare_threshold}
    pool = ConnectionPool(url, min_size=1, max_size=max(max_size, 2), kwargs=kwargs, timeout=timeout, open=False,
                          check=ConnectionPool.check_connection, name="memory-agent")
    try:
        pool.open(wait=True, timeout=timeout)
    except (psycopg.Error, Exception) as exc:  # PoolTimeout when the server is down
        pool.close(timeout=0)
        raise postgres_error(exc, f"Postgres at {_where(url)}") from exc
    return pool


def make_checkpointer(pool):
    """A LangGraph ``PostgresSaver`` on ``pool`` with its tables set up (``setup()``, idempotent: it
    runs only the migrations the database has not seen).

    Raises:
        StoreError: Postgres fails or refuses the migrations.
    """
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver

    saver = PostgresSaver(pool)
    # setup() cannot run in a transaction, and a session lock does not hold behind PgBouncer in
    # transaction mode: when processes start at once, one may trip over the other's half-applied
    # migration. Each try applies only the migrations still missing, so trying again is safe.
    for attempt in range(6):
        try:
            saver.setup()
            return saver
        except psycopg.OperationalError as exc:
            raise postgres_error(exc, "Postgres (checkpointer setup)") from exc
        except psycopg.Error as exc:
            if attempt == 5:
                raise postgres_error(exc, "Postgres (checkpointer setup)") from exc
            time.sleep(0.2 * (attempt + 1))
    return saver


def checkpointer_schema_state(pool) -> tuple[int, int]:
    """``(migrations applied, migrations this LangGraph version knows)`` of the checkpoint tables;
    ``(0, n)`` when they were never set up."""
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver

    known = len(PostgresSaver.MIGRATIONS)
    try:
        with pool.connection() as conn:
            row = conn.execute("SELECT to_regclass('checkpoint_migrations') AS t").fetchone()
            if row["t"] is None:
                return 0, known
            row = conn.execute("SELECT count(*) AS n FROM checkpoint_migrations").fetchone()
            return int(row["n"]), known
    except psycopg.Error as exc:
        raise postgres_error(exc, "Postgres") from exc


def _where(url: str) -> str:
    """``host:port/db`` of a URL, without the user's password."""
    from urllib.parse import urlsplit

    try:
        u = urlsplit(url)
        return f"{u.hostname}:{u.port or 5432}{u.path}"
    except ValueError:
        return "the configured server"


__all__ = ["StoreError", "checkpointer_schema_state", "make_checkpointer", "open_pool"]
