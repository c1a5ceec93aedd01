"""Per-user API keys in the ledger's database (table ``api_keys``, migration 4): only the hash of a
key is stored, with the user it signs in and when it was made.

:class:`SQLAPIKeys` implements :class:`memory_agent.stores.base.APIKeys` on one dialect
(:mod:`memory_agent.stores.sql.dialects`), so the keys live in the embedded SQLite file or in Postgres,
wherever the ledger is. Erasing a user (``SQLErasure.erase_user``) deletes the user's rows too.
"""

from __future__ import annotations

from datetime import datetime

from memory_agent.stores.sql.dialects import PostgresDialect, SQLiteDialect
from memory_agent.stores.sql.migrations import migrate


class SQLAPIKeys:
    """:class:`memory_agent.stores.base.APIKeys` on SQLite or PostgreSQL.

    Args:
        db: the dialect (and connection or pool) of the ledger's database; its migrations are applied
            on construction (:func:`memory_agent.stores.sql.migrations.migrate`).

    Raises:
        StoreError: the database fails, or was made by a newer memory-agent.
    """

    def __init__(self, db: SQLiteDialect | PostgresDialect):
        self.db = db
        migrate(db)

    def add_key(self, user_id: str, key_hash: str, at: datetime) -> None:
        """Record a key (by its hash) as signing in ``user_id``."""
        p = self.db.mark
        with self.db.transaction() as conn:
            conn.execute(f"INSERT INTO api_keys (key_hash, user_id, created_at) VALUES ({p}, {p}, {p})",
                         (key_hash, user_id, at.isoformat()))

    def user_of(self, key_hash: str) -> str | None:
        """The user the key with this hash signs in; ``None`` when no such key is stored."""
        with self.db.transaction() as conn:
            row = conn.execute(f"SELECT user_id FROM api_keys WHERE key_hash = {self.db.mark}", (key_hash,)).fetchone()
        return row[0] if row else None

    def delete_keys(self, user_id: str) -> int:
        """Delete every key of the user; returns how many there were."""
        with self.db.transaction() as conn:
            return conn.execute(f"DELETE FROM api_keys WHERE user_id = {self.db.mark}", (user_id,)).rowcount

    def key_users(self) -> list[str]:
        """Every user id with at least one key, sorted."""
        with self.db.transaction() as conn:
            return [r[0] for r in conn.execute("SELECT DISTINCT user_id FROM api_keys ORDER BY user_id").fetchall()]
