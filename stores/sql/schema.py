"""The ledger's tables, written out per dialect, and the ordered list of migrations that make them.

Tables (every row keyed by ``user_id``; every query filters on it in SQL):

- ``facts``: every fact ever committed, with its status (live ones are also in the fact index).
- ``audit_log``: one row per proposal: what was proposed, the decision, by whom, when, why.
- ``fact_uses``: which fact was injected in which turn (use counts count once per turn).
- ``user_threads``: which threads belong to which user.
- ``commit_journal``: writes being made right now (:mod:`memory_agent.stores.journal`); a row left
  behind means a process died in the middle of one, and holds what is needed to finish it.
- ``user_settings``: the per-user memory switch.
- ``session_summaries``: one summary per ended thread: its dates and the ids of the facts committed
  from it (``fact_ids``, a JSON list), no text (rendered from the live facts when read).
- ``episodes``: dated notable events (decisions, milestones) for time questions.
- ``thread_activity``: first and last turn time of each thread.
- ``fact_generations``: one opaque token per user, replaced in the same transaction as every statement
  that changes the user's facts (migration 2): caches of a user's live facts in any process compare it.
- ``api_keys``: the sha256 of each API key and the user it signs in (migration 4;
  :mod:`memory_agent.stores.sql.api_keys`); never the key itself.
- ``facts.embedding`` / ``facts.embedder`` / ``facts.terms`` (migration 5): the fact's embedding
  (float32 bytes), the embedder's name, and the lexical tokens of its index text (space-separated),
  written in the fact's own transaction, so a query reads a user's live facts, vectors and tokens in one indexed access
  (:mod:`memory_agent.stores.fact_reads`); ``NULL`` for facts written before it.
- index ``facts_user_status`` on ``facts (user_id, status)`` (migration 6): a user's live count, half
  of the readers' cache key, read at every retrieve, from the index alone.
- ``facts.topic`` / ``facts.importance`` / ``facts.valid_until`` / ``facts.aspects`` (migration 7): the
  fields ranking reads, copied from the fact's record by every write of it, and the aspects of the user's
  life it states (:func:`memory_agent.memory.aspects.stated_aspects`); ``importance`` is ``NULL`` for
  rows written before it.
- ``schema_migrations``: ``(version, name, applied_at)`` of every migration applied (see
  :mod:`memory_agent.stores.sql.migrations`).

Times are ISO-8601 text, compared as text. On PostgreSQL every table has a ``rowid BIGSERIAL``
column, so ``ORDER BY ..., rowid`` keeps insertion order as SQLite's implicit ``rowid`` does.

A new column or table is a new :class:`Migration` appended to :data:`MIGRATIONS` (never an edit
of an applied one), with its SQL for each dialect.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    """One step of the ledger's schema, applied once per database, in ``version`` order.

    Attributes:
        version: 1, 2, 3, ... (recorded in ``schema_migrations``).
        name: a short description, recorded with it.
        sqlite: the statements for SQLite, run in one transaction.
        postgres: the same change for PostgreSQL.
    """

    version: int
    name: str
    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]


_SQLITE_V1 = (
    """CREATE TABLE IF NOT EXISTS facts (
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    status TEXT NOT NULL,
    kind TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (user_id, id)
)""",
    """CREATE TABLE IF NOT EXISTS audit_log (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    thread_id TEXT,
    at TEXT NOT NULL,
    operation TEXT,
    kind TEXT,
    content TEXT,
    evidence TEXT,
    decision TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    reason TEXT,
    fact_id TEXT,
    target_id TEXT,
    proposal TEXT
)""",
    "CREATE INDEX IF NOT EXISTS audit_user ON audit_log (user_id, at)",
    """CREATE TABLE IF NOT EXISTS fact_uses (
    user_id TEXT NOT NULL,
    fact_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (user_id, fact_id, turn_id)
)""",
    """CREATE TABLE IF NOT EXISTS user_threads (
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
)""",
    """CREATE TABLE IF NOT EXISTS commit_journal (
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    at TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (user_id, id)
)""",
    """CREATE TABLE IF NOT EXISTS user_settings (
    user_id TEXT PRIMARY KEY,
    memory_enabled INTEGER NOT NULL,
    updated_at TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS session_summaries (
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    started_at TEXT NOT NULL,
    ended_at TEXT NOT NULL,
    topic TEXT NOT NULL,
    decisions TEXT NOT NULL,
    open_items TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
)""",
    """CREATE TABLE IF NOT EXISTS episodes (
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    kind TEXT NOT NULL,
    topic TEXT NOT NULL,
    content TEXT NOT NULL,
    thread_id TEXT,
    fact_id TEXT,
    PRIMARY KEY (user_id, id)
)""",
    "CREATE INDEX IF NOT EXISTS episodes_user ON episodes (user_id, occurred_at)",
    """CREATE TABLE IF NOT EXISTS thread_activity (
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    first_at TEXT NOT NULL,
    last_at TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
)""",
)

_POSTGRES_V1 = (
    """CREATE TABLE IF NOT EXISTS facts (
    rowid BIGSERIAL,
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    status TEXT NOT NULL,
    kind TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (user_id, id)
)""",
    """CREATE TABLE IF NOT EXISTS audit_log (
    rowid BIGSERIAL,
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    thread_id TEXT,
    at TEXT NOT NULL,
    operation TEXT,
    kind TEXT,
    content TEXT,
    evidence TEXT,
    decision TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    reason TEXT,
    fact_id TEXT,
    target_id TEXT,
    proposal TEXT
)""",
    "CREATE INDEX IF NOT EXISTS audit_user ON audit_log (user_id, at)",
    """CREATE TABLE IF NOT EXISTS fact_uses (
    rowid BIGSERIAL,
    user_id TEXT NOT NULL,
    fact_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (user_id, fact_id, turn_id)
)""",
    """CREATE TABLE IF NOT EXISTS user_threads (
    rowid BIGSERIAL,
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
)""",
    """CREATE TABLE IF NOT EXISTS commit_journal (
    rowid BIGSERIAL,
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    at TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (user_id, id)
)""",
    """CREATE TABLE IF NOT EXISTS user_settings (
    rowid BIGSERIAL,
    user_id TEXT PRIMARY KEY,
    memory_enabled BIGINT NOT NULL,
    updated_at TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS session_summaries (
    rowid BIGSERIAL,
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    started_at TEXT NOT NULL,
    ended_at TEXT NOT NULL,
    topic TEXT NOT NULL,
    decisions TEXT NOT NULL,
    open_items TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
)""",
    """CREATE TABLE IF NOT EXISTS episodes (
    rowid BIGSERIAL,
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    kind TEXT NOT NULL,
    topic TEXT NOT NULL,
    content TEXT NOT NULL,
    thread_id TEXT,
    fact_id TEXT,
    PRIMARY KEY (user_id, id)
)""",
    "CREATE INDEX IF NOT EXISTS episodes_user ON episodes (user_id, occurred_at)",
    """CREATE TABLE IF NOT EXISTS thread_activity (
    rowid BIGSERIAL,
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    first_at TEXT NOT NULL,
    last_at TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
)""",
)

_SUMMARY_TEXT_COLUMNS = ("topic", "decisions", "open_items", "text")
#: Version 2: a session summary keeps the ids of the facts committed in its thread, not text. Each
#: existing row gets the ids of its user's facts whose source is that thread (read from the fact's
#: JSON), then the columns that held the user's sentences are dropped with what they held.
_SQLITE_V2 = (
    "ALTER TABLE session_summaries ADD COLUMN fact_ids TEXT NOT NULL DEFAULT '[]'",
    """UPDATE session_summaries SET fact_ids = (
    SELECT json_group_array(f.id) FROM facts f
    WHERE f.user_id = session_summaries.user_id
      AND json_extract(f.data, '$.source.thread_id') = session_summaries.thread_id)""",
    *(f"ALTER TABLE session_summaries DROP COLUMN {c}" for c in _SUMMARY_TEXT_COLUMNS),
)
_POSTGRES_V2 = (
    "ALTER TABLE session_summaries ADD COLUMN fact_ids TEXT NOT NULL DEFAULT '[]'",
    """UPDATE session_summaries s SET fact_ids = COALESCE((
    SELECT json_agg(f.id ORDER BY f.created_at, f.id)::text FROM facts f
    WHERE f.user_id = s.user_id AND (f.data::json -> 'source' ->> 'thread_id') = s.thread_id), '[]')""",
    *(f"ALTER TABLE session_summaries DROP COLUMN {c}" for c in _SUMMARY_TEXT_COLUMNS),
)
#: Version 3: a per-user token of the facts' last change (``fact_generations``).
_SQLITE_V3 = (
    """CREATE TABLE IF NOT EXISTS fact_generations (
    user_id TEXT PRIMARY KEY,
    generation TEXT NOT NULL
)""",
)

_POSTGRES_V3 = (
    """CREATE TABLE IF NOT EXISTS fact_generations (
    rowid BIGSERIAL,
    user_id TEXT PRIMARY KEY,
    generation TEXT NOT NULL
)""",
)

#: Version 4: per-user API keys, stored as the sha256 of the key (``memory_agent.app.accounts``).
_SQLITE_V4 = (
    """CREATE TABLE IF NOT EXISTS api_keys (
    key_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    created_at TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS api_keys_user ON api_keys (user_id)",
)
_POSTGRES_V4 = (
    """CREATE TABLE IF NOT EXISTS api_keys (
    rowid BIGSERIAL,
    key_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    created_at TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS api_keys_user ON api_keys (user_id)",
)

#: Version 5: each fact row keeps its embedding and lexical tokens (NULL for older rows: read from the index).
_SQLITE_V5 = (
    "ALTER TABLE facts ADD COLUMN embedding BLOB",
    "ALTER TABLE facts ADD COLUMN embedder TEXT",
    "ALTER TABLE facts ADD COLUMN terms TEXT",
)
_POSTGRES_V5 = (
    "ALTER TABLE facts ADD COLUMN embedding BYTEA",
    "ALTER TABLE facts ADD COLUMN embedder TEXT",
    "ALTER TABLE facts ADD COLUMN terms TEXT",
)

#: Version 6: an index that answers "how many live facts has this user" (the readers' cache key, read at
#: every retrieve) from the index alone; without it the count read every row of the user (9 ms at 10,000
#: facts, whose rows carry their vectors).
_V6 = ("CREATE INDEX IF NOT EXISTS facts_user_status ON facts (user_id, status)",)

#: Version 7: the fields ranking reads of every live fact, as columns written with the fact, so a user's
#: first read parses no JSON and matches no pattern per row: ``topic``, ``importance`` (0–1),
#: ``valid_until`` (ISO text or NULL) and ``aspects`` (the aspects of the user's life the fact states,
#: tagged with the patterns' version: ``memory_agent.memory.aspects.stated_aspects``). ``NULL`` in
#: ``importance`` marks a row written before it (read from its JSON).
_SQLITE_V7 = (
    "ALTER TABLE facts ADD COLUMN topic TEXT",
    "ALTER TABLE facts ADD COLUMN importance REAL",
    "ALTER TABLE facts ADD COLUMN valid_until TEXT",
    "ALTER TABLE facts ADD COLUMN aspects TEXT",
)
_POSTGRES_V7 = (
    "ALTER TABLE facts ADD COLUMN topic TEXT",
    "ALTER TABLE facts ADD COLUMN importance DOUBLE PRECISION",
    "ALTER TABLE facts ADD COLUMN valid_until TEXT",
    "ALTER TABLE facts ADD COLUMN aspects TEXT",
)

#: Every migration, oldest first. Version 1 is the schema release 0.1.0 created; its statements stay
#: ``IF NOT EXISTS``, so running it on a database made by that release changes nothing and records it.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "facts, audit log, threads, journal, settings, summaries, episodes", _SQLITE_V1, _POSTGRES_V1),
    Migration(2, "session summaries keep fact ids, not text", _SQLITE_V2, _POSTGRES_V2),
    Migration(3, "fact_generations: a per-user token of the facts' last change", _SQLITE_V3, _POSTGRES_V3),
    Migration(4, "api_keys: per-user API keys, stored hashed", _SQLITE_V4, _POSTGRES_V4),
    Migration(5, "facts keep their embedding and lexical tokens", _SQLITE_V5, _POSTGRES_V5),
    Migration(6, "facts indexed by user and status", _V6, _V6),
    Migration(7, "facts keep their ranking fields as columns", _SQLITE_V7, _POSTGRES_V7),
)

#: Every table of the ledger with its text columns: what the ledger's ``scan`` searches.
SCANNED_COLUMNS: dict[str, tuple[str, ...]] = {
    "facts": ("user_id", "id", "content", "data", "terms", "topic"),
    "audit_log": ("user_id", "thread_id", "content", "evidence", "reason", "proposal", "fact_id", "target_id"),
    "fact_uses": ("user_id", "fact_id", "turn_id"),
    "user_threads": ("user_id", "thread_id"),
    "user_settings": ("user_id",),
    "session_summaries": ("user_id", "thread_id", "fact_ids"),
    "episodes": ("user_id", "id", "topic", "content", "thread_id", "fact_id"),
    "thread_activity": ("user_id", "thread_id"),
    "commit_journal": ("user_id", "payload"),
    "fact_generations": ("user_id",),
    "api_keys": ("user_id",),
}
SUMMARY_COLUMNS = ("user_id", "thread_id", "started_at", "ended_at", "fact_ids")
EPISODE_COLUMNS = ("user_id", "id", "occurred_at", "kind", "topic", "content", "thread_id", "fact_id")
#: Audit columns that may hold what the user said; a tombstone sets them to NULL.
AUDIT_TEXT_COLUMNS = ("content", "evidence", "reason", "proposal")
AUDIT_COLUMNS = ("id", "user_id", "thread_id", "at", "operation", "kind", "content", "evidence",
                 "decision", "decided_by", "reason", "fact_id", "target_id", "proposal")
