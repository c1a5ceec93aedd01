"""``memory-agent doctor``: is every configured backend usable, and is any data left where the settings no
longer look (:mod:`memory_agent.app.placement`)? Checks the data folder, SQLite or
Postgres (schema, half-written decisions) and Chroma (reachable, embedder of every collection)
without changing anything. A plain function so the CLI (``memory_agent/cli/ops.py``), notebooks and
tests share it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from urllib.parse import urlparse

import chromadb

from memory_agent.app.placement import how_to_move, stranded_data
from memory_agent.app.settings import Settings, mask_url
from memory_agent.models.embeddings import load_embedder
from memory_agent.stores.base import StoreError
from memory_agent.stores.chroma_store import make_chroma_client
from memory_agent.stores.data_dir import DataDir, DataDirError

LEDGER_TABLES = ("facts", "audit_log", "fact_uses", "user_threads", "commit_journal")


@dataclass
class Check:
    """One line of the doctor's report. ``status``: ``ok`` | ``warn`` | ``fail``; ``fix``: what to do."""

    backend: str
    check: str
    status: str
    detail: str = ""
    fix: str = ""


def doctor(settings: Settings) -> list[Check]:
    """Check every configured backend without changing anything: reachable, schema set up, the
    embedder the settings name matches every collection, no decision left half-written.

    Never raises for a broken backend: each problem is a ``fail`` row whose ``fix`` says what to do.
    """
    checks: list[Check] = []
    try:
        embedder = load_embedder(  # builds the embedder object only; no weights load
            settings.embedder, openai_base_url=settings.openai_base_url, runtime=settings.embedder_runtime,
            threads=settings.embedder_threads)
        checks.append(Check("embedder", "configured", "ok", f"{embedder.name} ({embedder.dimension} dimensions)"))
    except Exception as exc:
        embedder = None
        checks.append(Check("embedder", "configured", "fail", str(exc), "set MEMORY_AGENT_EMBEDDER to minilm "
                            "or openai:text-embedding-3-small"))

    _check_placement(settings, checks)
    lock_holder = None
    if settings.uses_data_dir:
        lock_holder = _check_data_dir(settings, checks)
    if settings.database_url:
        _check_postgres(settings, checks)
    elif lock_holder is None:
        _check_sqlite(settings, checks)
    if settings.chroma_url or lock_holder is None:
        _check_chroma(settings, embedder, checks)
    return checks


def _check_placement(settings: Settings, checks: list[Check]) -> None:
    """Data the folder holds in an embedded store the settings moved to a server: ``fail`` when the other
    store stays in the folder (commands refuse to open), ``warn`` when both are on servers (not read)."""
    stranded = stranded_data(settings)
    for s in stranded:
        mixed = settings.uses_data_dir
        effect = ("commands refuse to start: they would read one store and write the other" if mixed
                  else "no command reads it: everything goes to the servers")
        checks.append(Check("data folder", f"{s.store} data left behind", "fail" if mixed else "warn",
                            f"{s.path} holds {s.what}; {s.setting} sends that store to {s.url}; {effect}",
                            how_to_move(settings)))
    if not stranded and (settings.database_url or settings.chroma_url):
        where = ", ".join(f"{name}: {mask_url(url)}" for name, url in (
            ("ledger and checkpoints", settings.database_url), ("live index", settings.chroma_url)) if url)
        checks.append(Check("data folder", "data left behind", "ok", f"none; {where}"))


def _check_data_dir(settings: Settings, checks: list[Check]) -> int | None:
    """The data folder of the embedded stores: exists, free or held (returns the holder's pid)."""
    path = settings.data_dir.expanduser().resolve()
    what = "SQLite + Chroma" if not (settings.database_url or settings.chroma_url) else (
        "Chroma" if settings.database_url else "SQLite")
    if not path.exists():
        checks.append(Check("data folder", "exists", "warn", f"{path} does not exist yet ({what})",
                            "it is created by the first chat; check --data-dir if you expected data there"))
        return None
    try:
        DataDir(path).close()
    except DataDirError as exc:
        holder = (path / "lock").read_text().strip() if (path / "lock").exists() else "?"
        checks.append(Check("data folder", "free", "warn", str(exc),
                            "the embedded stores serve one process: stop that process, or use Postgres and a "
                            "Chroma server (DATABASE_URL, CHROMA_URL) to share memory between processes"))
        return int(holder) if holder.isdigit() else -1
    checks.append(Check("data folder", "free", "ok", f"{path} ({what})"))
    return None


def _check_sqlite(settings: Settings, checks: list[Check]) -> None:
    path = settings.data_dir.expanduser().resolve() / "agent.sqlite"
    if not path.exists():
        checks.append(Check("sqlite", "schema", "warn", f"{path} does not exist yet", "it is created on first use"))
        return
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2)
        try:
            quick = conn.execute("PRAGMA quick_check").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            journal = conn.execute("SELECT COUNT(*) FROM commit_journal").fetchone()[0] \
                if "commit_journal" in tables else 0
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        checks.append(Check("sqlite", "readable", "fail", f"{path}: {exc}",
                            "move the file aside and restore a backup"))
        return
    if quick != "ok":
        checks.append(Check("sqlite", "integrity", "fail", quick, "move the file aside and restore a backup"))
        return
    missing = [t for t in (*LEDGER_TABLES, "checkpoints") if t not in tables]
    checks.append(Check("sqlite", "schema", "warn" if missing else "ok",
                        f"missing tables: {', '.join(missing)}" if missing else str(path),
                        "run memory-agent doctor --fix (opens the stores once and creates them)" if missing else ""))
    _journal_check(checks, "sqlite", journal)


def _journal_check(checks: list[Check], backend: str, n: int) -> None:
    if n:
        checks.append(Check(backend, "commit journal", "warn", f"{n} writes (decisions, maintenance, edits or "
                            "erasures) were left half-done by a process that stopped mid-write",
                            "run memory-agent doctor --fix (or any command that opens the agent): they are "
                            "finished, each once"))
    else:
        checks.append(Check(backend, "commit journal", "ok", "no write left half-done"))


def _check_postgres(settings: Settings, checks: list[Check]) -> None:
    # Lazy: psycopg and PostgresSaver add about 0.5 s to start-up (measured with the stores already
    # imported) and only a Postgres configuration needs them.
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver

    url = settings.database_url
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=5,
                               prepare_threshold=settings.postgres_prepare_threshold)
    except psycopg.Error as exc:
        checks.append(Check("postgres", "reachable", "fail", f"{mask_url(url)}: {str(exc).strip()[:300]}",
                            "start Postgres (or PgBouncer) or fix DATABASE_URL / MEMORY_AGENT_DATABASE_URL"))
        return
    with conn:
        version = conn.execute("SHOW server_version").fetchone()[0]
        checks.append(Check("postgres", "reachable", "ok", f"{mask_url(url)} (server {version})"))
        tables = {t: conn.execute("SELECT to_regclass(%s)", (t,)).fetchone()[0] is not None
                  for t in (*LEDGER_TABLES, "checkpoint_migrations")}
        applied = conn.execute("SELECT COUNT(*) FROM checkpoint_migrations").fetchone()[0] \
            if tables["checkpoint_migrations"] else 0
        known = len(PostgresSaver.MIGRATIONS)
        if applied < known:
            checks.append(Check("postgres", "checkpointer schema", "fail",
                                f"{applied} of {known} PostgresSaver migrations applied",
                                "run memory-agent doctor --fix (runs PostgresSaver.setup() once)"))
        else:
            checks.append(Check("postgres", "checkpointer schema", "ok", f"{applied} of {known} migrations"))
        missing = [t for t in LEDGER_TABLES if not tables[t]]
        checks.append(Check("postgres", "ledger schema", "fail" if missing else "ok",
                            f"missing tables: {', '.join(missing)}" if missing else ", ".join(LEDGER_TABLES),
                            "run memory-agent doctor --fix" if missing else ""))
        if tables["commit_journal"]:
            _journal_check(checks, "postgres", conn.execute("SELECT COUNT(*) FROM commit_journal").fetchone()[0])
    port = url.split("@")[-1].split("/")[0].rsplit(":", 1)[-1]
    if port == "6432" and settings.postgres_prepare_threshold is not None:
        checks.append(Check("postgres", "prepared statements", "warn", "port 6432 is PgBouncer's usual port, and "
                            f"prepare_threshold is {settings.postgres_prepare_threshold}",
                            "behind PgBouncer in transaction mode set MEMORY_AGENT_POSTGRES_PREPARE_THRESHOLD=none"))


def _check_chroma(settings: Settings, embedder, checks: list[Check]) -> None:
    where = settings.chroma_url or str(settings.data_dir.expanduser().resolve() / "chroma")
    if not settings.chroma_url and not (settings.data_dir / "chroma").exists():
        checks.append(Check("chroma", "exists", "warn", f"{where} does not exist yet", "it is created on first use"))
        return
    try:
        client = _chroma_server_client(settings) if settings.chroma_url else make_chroma_client(path=where)
        client.heartbeat()
    except (StoreError, Exception) as exc:  # chromadb raises many types when a server is down
        checks.append(Check("chroma", "reachable", "fail", f"{where}: {type(exc).__name__}: {exc}",
                            "start the server (chroma run --host 127.0.0.1 --port 8000 --path DIR), fix CHROMA_URL, "
                            "or run memory-agent doctor --fix if the database does not exist yet"
                            if settings.chroma_url else "move the folder aside if it is damaged"))
        return
    checks.append(Check("chroma", "reachable", "ok", where + (
        f" (tenant {settings.chroma_tenant}, database {settings.chroma_database})" if settings.chroma_url else "")))
    if embedder is None:
        return
    wrong: list[str] = []
    total = 0
    for col in client.list_collections():
        meta = col.metadata or {}
        if "embedder" not in meta:
            continue
        total += 1
        if meta.get("embedder") != embedder.name or meta.get("dimension") != embedder.dimension:
            wrong.append(f"{meta.get('user_id', col.name)}: {meta.get('embedder')} ({meta.get('dimension')})")
    if wrong:
        checks.append(Check("chroma", "embedder matches", "fail",
                            f"{len(wrong)} of {total} collections were written by another embedder, e.g. "
                            + "; ".join(wrong[:3]),
                            f"set MEMORY_AGENT_EMBEDDER back to the embedder they were written with, or re-embed; "
                            f"configured now: {embedder.name}"))
    else:
        checks.append(Check("chroma", "embedder matches", "ok", f"{total} user collections, all {embedder.name}"))
    client.close()


def _chroma_server_client(settings: Settings):
    """A client on the configured server database, without creating it (doctor changes nothing)."""
    u = urlparse(settings.chroma_url)
    return chromadb.HttpClient(host=u.hostname or "localhost", port=u.port or 8000, ssl=u.scheme == "https",
                               tenant=settings.chroma_tenant, database=settings.chroma_database,
                               settings=chromadb.config.Settings(anonymized_telemetry=False))
