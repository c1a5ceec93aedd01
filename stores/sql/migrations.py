"""Bring a ledger database to the schema this code knows, one recorded migration at a time.

Every migration of :data:`~memory_agent.stores.sql.schema.MIGRATIONS` runs once per database, in
version order, and is recorded in ``schema_migrations (version, name, applied_at)``. Everything
happens in one transaction under the dialect's migration lock (SQLite ``BEGIN IMMEDIATE``, Postgres
``pg_advisory_xact_lock``), so two processes opening a new database at once never both apply one:
the second waits, then finds the versions recorded.

A database made by release 0.1.0 has the tables but no ``schema_migrations``: version 1, whose
statements are all ``CREATE ... IF NOT EXISTS``, then leaves its tables as they are (and adds any an
earlier build lacked), is recorded, and the database is upgraded like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from memory_agent.stores.base import StoreError
from memory_agent.stores.sql.dialects import PostgresDialect, SQLiteDialect
from memory_agent.stores.sql.schema import MIGRATIONS, Migration


def migrate(db: SQLiteDialect | PostgresDialect, migrations: Sequence[Migration] = MIGRATIONS) -> list[int]:
    """Apply the migrations the database has not recorded; returns their versions (empty when none).

    Args:
        db: the dialect (and connection) of the database.
        migrations: versions 1, 2, ... in order (tests pass an extra one).

    Raises:
        ValueError: ``migrations`` are not numbered 1, 2, 3, ...
        StoreError: the database records a version newer than the last of ``migrations`` (opened by a
            newer memory-agent), or the database fails.
    """
    if [m.version for m in migrations] != list(range(1, len(migrations) + 1)):
        raise ValueError("migrations must be numbered 1, 2, 3, ... in order")
    m = db.mark
    record = f"INSERT INTO schema_migrations (version, name, applied_at) VALUES ({m}, {m}, {m})"
    applied_now = []
    with db.migration_transaction() as conn:
        if not db.has_table(conn, "schema_migrations"):
            for statement in db.schema_migrations_ddl:
                conn.execute(statement)
        applied = {int(r[0]) for r in conn.execute("SELECT version FROM schema_migrations").fetchall()}
        newest = max(applied, default=0)
        if newest > len(migrations):
            raise StoreError(
                f"The fact ledger at {db.where} has schema version {newest}, newer than this memory-agent knows "
                f"(up to {len(migrations)}): it was opened by a newer release. Upgrade memory-agent "
                "(pip install -U memory-agent) to use it; nothing was changed."
            )
        for migration in migrations:
            if migration.version in applied:
                continue
            for statement in db.statements(migration):
                conn.execute(statement)
            conn.execute(record, (migration.version, migration.name, _now()))
            applied_now.append(migration.version)
    return applied_now


def schema_versions(db: SQLiteDialect | PostgresDialect) -> list[tuple[int, str, str]]:
    """``(version, name, applied_at ISO text)`` of every migration recorded, oldest first."""
    with db.transaction() as conn:
        rows = conn.execute("SELECT version, name, applied_at FROM schema_migrations ORDER BY version").fetchall()
    return [(int(r[0]), r[1], r[2]) for r in rows]


def _now() -> str:
    return datetime.now(UTC).isoformat()
