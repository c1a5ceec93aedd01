"""Open the stores the settings name: checkpointer, fact ledger and live index, wired into
:class:`~memory_agent.stores.long_term.LongTermMemory`.

Embedded (default): a SQLite checkpointer and ledger and Chroma on disk in ``settings.data_dir``,
held under a lock. ``settings.database_url`` moves the checkpointer (``PostgresSaver``) and the
ledger to one Postgres pool; ``settings.chroma_url`` moves the live facts to a Chroma server.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from memory_agent.app.placement import check_placement
from memory_agent.app.settings import Settings
from memory_agent.memory.retrieval import RetrievalConfig
from memory_agent.models.embeddings import EmbedderInfo
from memory_agent.stores.chroma_store import ChromaFactIndex, make_chroma_client, remove_orphan_segment_dirs
from memory_agent.stores.data_dir import DataDir
from memory_agent.stores.long_term import LongTermMemory
from memory_agent.stores.postgres import make_checkpointer, open_pool
from memory_agent.stores.sql.dialects import postgres_error
from memory_agent.stores.sql.ledger import SQLFactLedger, compact_sqlite_file


@dataclass
class OpenStores:
    """What :func:`open_stores` opened.

    - ``memory``: long-term memory (ledger + live index + embeddings).
    - ``checkpointer``: working memory (``SqliteSaver`` or ``PostgresSaver``).
    - ``closers``: call each, in order, to close the stores and release the data folder.
    - ``compactors``: call each to rewrite the embedded files so deleted text does not linger
      (the ledger's own compaction; for embedded Chroma also its orphan vector folders and file).
    - ``checkpoint_file``: the embedded checkpointer's SQLite file (``None`` with Postgres), for
      :func:`open_async_checkpointer`.
    """

    memory: LongTermMemory
    checkpointer: Any
    closers: list[Callable[[], None]] = field(default_factory=list)
    compactors: list[Callable[[], None]] = field(default_factory=list)
    checkpoint_file: str | None = None


def open_stores(settings: Settings, embedder: EmbedderInfo) -> OpenStores:
    """Open every store ``settings`` names. With both ``database_url`` and ``chroma_url`` no data
    folder is opened and any number of processes may share the stores. On any error, whatever was
    opened is closed again before the error propagates. Writes a crashed process left half-done are
    finished by ``MemoryAgent.open`` (:meth:`LongTermMemory.repair`), once working memory is attached.

    Raises:
        memory_agent.stores.data_dir.DataDirError: the folder is not writable or another process holds it, or
            it holds data of a store the settings moved to a server (``placement.check_placement``).
        memory_agent.stores.base.StoreError: a store is corrupt or down.
    """
    check_placement(settings)  # one store on a server, the other in a folder holding the first one's data
    closers: list[Callable[[], None]] = []
    try:
        data = DataDir(settings.data_dir) if settings.uses_data_dir else None
        if data is not None:
            closers.append(data.close)
        if settings.database_url:
            pool = open_pool(settings.database_url, prepare_threshold=settings.postgres_prepare_threshold,
                             max_size=settings.postgres_pool_size, timeout=settings.postgres_timeout)
            closers.insert(0, pool.close)
            ledger = SQLFactLedger(pool=pool, timeout=settings.postgres_timeout)
            checkpointer = make_checkpointer(pool)
        else:
            ledger = SQLFactLedger(data.sqlite_path)
            closers.insert(0, ledger.close)
            conn = sqlite3.connect(str(data.sqlite_path), check_same_thread=False, timeout=5.0)
            closers.insert(0, conn.close)
            checkpointer = SqliteSaver(conn)
        client = make_chroma_client(path=str(data.chroma_path) if data else None, url=settings.chroma_url,
                                    tenant=settings.chroma_tenant, database=settings.chroma_database)
        closers.insert(0, client.close)
        index = ChromaFactIndex(client, embedder.name, embedder.dimension)
        memory = LongTermMemory(index, ledger, embedder.embeddings, RetrievalConfig(top_k=settings.top_k),
                                max_facts=settings.max_facts_per_user, max_memory_tokens=settings.max_memory_tokens,
                                max_session_tokens=settings.max_session_tokens)
    except BaseException:
        for close in closers:  # nothing half-open stays behind
            close()
        raise
    compactors: list[Callable[[], None]] = [ledger.compact]
    if data is not None and not settings.chroma_url:
        compactors += [lambda: remove_orphan_segment_dirs(data.chroma_path),
                       lambda: compact_sqlite_file(data.chroma_path / "chroma.sqlite3")]
    return OpenStores(memory, checkpointer, closers, compactors,
                      checkpoint_file=None if settings.database_url else str(data.sqlite_path))


async def open_async_checkpointer(settings: Settings, checkpoint_file: str | None
                                  ) -> tuple[Any, Callable[[], Awaitable[None]]]:
    """The async twin of the checkpointer :func:`open_stores` opened, on the same tables, for the
    running event loop: ``AsyncPostgresSaver`` on a psycopg ``AsyncConnectionPool`` (same URL and
    settings as the sync pool), or ``AsyncSqliteSaver`` on an ``aiosqlite`` connection to
    ``checkpoint_file``. Returns ``(saver, aclose)``; the sync saver already set the tables up.

    Raises:
        memory_agent.stores.base.StoreError: Postgres cannot be reached within ``settings.postgres_timeout``.
    """
    if settings.database_url:
        import psycopg
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
        from psycopg.rows import dict_row
        from psycopg_pool import AsyncConnectionPool

        pool = AsyncConnectionPool(settings.database_url, min_size=1, max_size=max(settings.postgres_pool_size, 2),
                                   kwargs={"autocommit": True, "row_factory": dict_row,
                                           "prepare_threshold": settings.postgres_prepare_threshold},
                                   timeout=settings.postgres_timeout, open=False, name="memory-agent-async")
        try:
            await pool.open(wait=True, timeout=settings.postgres_timeout)
        except (psycopg.Error, Exception) as exc:
            await pool.close(timeout=0)
            raise postgres_error(exc, "Postgres (async checkpointer)") from exc
        return AsyncPostgresSaver(pool), pool.close
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    conn = await aiosqlite.connect(str(checkpoint_file), timeout=5.0)
    saver = AsyncSqliteSaver(conn)
    await saver.setup()
    return saver, conn.close
