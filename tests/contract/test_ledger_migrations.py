"""The ledger's schema migrations: a database made by release 0.1.0 (tests/data/release-0.1.0, made by
that release's own code, see make_fixtures.py there) opens with every row intact and is recorded as
version 1, a further migration upgrades it in place once, a newer database is refused, concurrent
openers migrate once, and each dialect writes out its own SQL."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path

import psycopg
import pytest
from conftest import with_schema

from memory_agent.stores.base import StoreError
from memory_agent.stores.postgres import open_pool
from memory_agent.stores.sql.dialects import PostgresDialect, SQLiteDialect
from memory_agent.stores.sql.ledger import SQLFactLedger
from memory_agent.stores.sql.migrations import migrate, schema_versions
from memory_agent.stores.sql.schema import MIGRATIONS, Migration

RELEASE = Path(__file__).resolve().parents[1] / "data" / "release-0.1.0"
TABLES = ("facts", "audit_log", "fact_uses", "user_threads", "commit_journal", "user_settings",
          "session_summaries", "episodes", "thread_activity")
#: A test-only migration after the last real one: a new column with a default, as a real upgrade would add.
#: Numbered from MIGRATIONS, so a fork that appends its own migrations keeps these tests.
ADD_COLUMN = Migration(len(MIGRATIONS) + 1, "facts.pinned (test only)",
                       sqlite=("ALTER TABLE facts ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0",),
                       postgres=("ALTER TABLE facts ADD COLUMN pinned BIGINT NOT NULL DEFAULT 0",))


#: Columns a later migration removes on purpose, each with why. Version 2: the session summaries' text
#: columns held the user's sentences copied by rule; a summary keeps the ids of its facts instead.
DROPPED = {"session_summaries": ("topic", "decisions", "open_items", "text")}


def kept(before: dict[str, tuple[list[str], list[tuple]]]) -> tuple[dict[str, list[str]], dict]:
    """The release's columns that every migration keeps, and ``before`` limited to them:
    ``(columns by table, snapshot)``."""
    columns, rows = {}, {}
    for table, (cols, values) in before.items():
        keep = [i for i, c in enumerate(cols) if c not in DROPPED.get(table, ())]
        columns[table] = [cols[i] for i in keep]
        rows[table] = (columns[table], [tuple(r[i] for i in keep) for r in values])
    return columns, rows


def snapshot(execute, columns: dict[str, list[str]] | None = None) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every row of every ledger table in insertion order: ``{table: (columns, rows)}``; ``columns``
    limits each table to the columns given (those of an older snapshot)."""
    out = {}
    for table in TABLES:
        cols = columns[table] if columns else None
        select = ", ".join(cols) if cols else "*"
        cur, names = execute(f"SELECT {select} FROM {table} ORDER BY rowid")
        out[table] = (cols or names, [tuple(r) for r in cur])
    return out


# ---- SQLite ------------------------------------------------------------------------------------
def _sqlite_snapshot(path: Path, columns=None):
    conn = sqlite3.connect(str(path))
    try:
        def execute(sql):
            cur = conn.execute(sql)
            return cur.fetchall(), [d[0] for d in cur.description]
        return snapshot(execute, columns)
    finally:
        conn.close()


@pytest.fixture
def release_sqlite(tmp_path) -> Path:
    """A copy of the SQLite ledger release 0.1.0 wrote."""
    path = tmp_path / "ledger.sqlite"
    shutil.copy(RELEASE / "ledger.sqlite", path)
    return path


def test_a_release_sqlite_ledger_opens_with_every_row_and_is_recorded_as_version_1(release_sqlite):
    before = _sqlite_snapshot(release_sqlite)
    assert all(rows for _, rows in before.values())  # the fixture has rows in every table
    ledger = SQLFactLedger(release_sqlite)
    assert [v[:2] for v in schema_versions(ledger.db)] == [(m.version, m.name) for m in MIGRATIONS]
    assert schema_versions(ledger.db)[0][0] == 1
    _reads_back_the_release_rows(ledger)
    ledger.close()
    # the release's columns keep every value (later migrations may add columns; DROPPED ones are gone)
    columns, expected = kept(before)
    assert _sqlite_snapshot(release_sqlite, columns) == expected


def test_a_further_migration_upgrades_a_release_sqlite_ledger_in_place_once(release_sqlite):
    before = _sqlite_snapshot(release_sqlite)
    ledger = SQLFactLedger(release_sqlite, migrations=(*MIGRATIONS, ADD_COLUMN))
    first = schema_versions(ledger.db)
    assert [v[0] for v in first] == [*range(1, ADD_COLUMN.version + 1)] and first[-1][1] == ADD_COLUMN.name
    _reads_back_the_release_rows(ledger)
    assert migrate(ledger.db, (*MIGRATIONS, ADD_COLUMN)) == []
    ledger.close()
    assert _sqlite_snapshot(release_sqlite, kept(before)[0]) == kept(before)[1]
    again = SQLFactLedger(release_sqlite, migrations=(*MIGRATIONS, ADD_COLUMN))
    assert schema_versions(again.db) == first  # not applied a second time
    assert [r[0] for r in again.conn.execute("SELECT pinned FROM facts")] == [0, 0, 0, 0]
    again.close()
    # the code of the older release (version 1 only) refuses the upgraded file, saying what to do
    with pytest.raises(StoreError, match=rf"schema version {ADD_COLUMN.version}.*Upgrade memory-agent"):
        SQLFactLedger(release_sqlite)


def _sqlite_columns(path: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(str(path))
    try:
        return {t: conn.execute(f"PRAGMA table_info({t})").fetchall() for t in TABLES}
    finally:
        conn.close()


def test_version_1_alone_makes_the_release_schema_on_sqlite(release_sqlite, tmp_path):
    SQLFactLedger(tmp_path / "new.sqlite", migrations=MIGRATIONS[:1]).close()
    assert _sqlite_columns(tmp_path / "new.sqlite") == _sqlite_columns(release_sqlite)


def test_an_upgraded_release_sqlite_ledger_has_the_schema_of_a_new_one(release_sqlite, tmp_path):
    SQLFactLedger(release_sqlite, migrations=(*MIGRATIONS, ADD_COLUMN)).close()
    SQLFactLedger(tmp_path / "new.sqlite", migrations=(*MIGRATIONS, ADD_COLUMN)).close()
    assert _sqlite_columns(release_sqlite) == _sqlite_columns(tmp_path / "new.sqlite")


def test_concurrent_openers_of_a_new_sqlite_file_migrate_once(tmp_path):
    path, errors, ledgers = tmp_path / "race.sqlite", [], []
    start = threading.Barrier(4)

    def open_it():
        start.wait()
        try:
            ledgers.append(SQLFactLedger(path))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [v[0] for v in schema_versions(ledgers[0].db)] == [m.version for m in MIGRATIONS]
    for ledger in ledgers:
        ledger.close()


# ---- PostgreSQL ----------------------------------------------------------------------------------
_n = iter(range(1_000_000))


def _new_schema(database_url: str, load_release: bool) -> str:
    """A new schema of the test database, empty or loaded from the release's dump; returns its URL."""
    schema = f"migration_{next(_n)}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        if load_release:
            conn.execute((RELEASE / "ledger_postgres.sql").read_text().replace("release_0_1_0", schema))
        else:
            conn.execute(f"CREATE SCHEMA {schema}")
    return with_schema(database_url, schema)


def _pg_snapshot(url: str, columns=None):
    with psycopg.connect(url) as conn:
        def execute(sql):
            cur = conn.execute(sql)
            return cur.fetchall(), [d.name for d in cur.description]
        return snapshot(execute, columns)


@pytest.fixture
def release_postgres(postgres_database) -> str:
    """The URL of a fresh schema holding the ledger release 0.1.0 wrote to Postgres."""
    return _new_schema(postgres_database, load_release=True)


def test_a_release_postgres_ledger_opens_with_every_row_and_is_recorded_as_version_1(release_postgres):
    before = _pg_snapshot(release_postgres)
    assert all(rows for _, rows in before.values())
    pool = open_pool(release_postgres, max_size=2)
    try:
        ledger = SQLFactLedger(pool=pool)
        assert [v[:2] for v in schema_versions(ledger.db)] == [(m.version, m.name) for m in MIGRATIONS]
        _reads_back_the_release_rows(ledger)
    finally:
        pool.close()
    assert _pg_snapshot(release_postgres, kept(before)[0]) == kept(before)[1]


def test_a_further_migration_upgrades_a_release_postgres_ledger_in_place_once(release_postgres):
    before = _pg_snapshot(release_postgres)
    pool = open_pool(release_postgres, max_size=2)
    try:
        ledger = SQLFactLedger(pool=pool, migrations=(*MIGRATIONS, ADD_COLUMN))
        first = schema_versions(ledger.db)
        assert [v[0] for v in first] == [*range(1, ADD_COLUMN.version + 1)]
        _reads_back_the_release_rows(ledger)
        again = SQLFactLedger(pool=pool, migrations=(*MIGRATIONS, ADD_COLUMN))
        assert schema_versions(again.db) == first
        ledger.save_fact(ledger.get_fact("bob", "f_bob"))  # inserts still work (sequences restored)
        with pytest.raises(StoreError, match=rf"schema version {ADD_COLUMN.version}.*Upgrade memory-agent"):
            SQLFactLedger(pool=pool)
    finally:
        pool.close()
    assert _pg_snapshot(release_postgres, kept(before)[0]) == kept(before)[1]


def test_version_1_alone_makes_the_release_schema_on_postgres(release_postgres, postgres_database):
    new = _new_schema(postgres_database, load_release=False)
    pool = open_pool(new, max_size=2)
    try:
        SQLFactLedger(pool=pool, migrations=MIGRATIONS[:1])  # version 1 alone
    finally:
        pool.close()

    def columns(url):
        with psycopg.connect(url) as conn:
            return conn.execute(
                "SELECT table_name, column_name, ordinal_position, data_type, is_nullable FROM "
                "information_schema.columns WHERE table_schema = current_schema() AND table_name <> "
                "'schema_migrations' ORDER BY table_name, ordinal_position").fetchall()

    assert columns(new) == columns(release_postgres)


def test_concurrent_openers_of_a_new_postgres_schema_migrate_once(postgres_database):
    url = _new_schema(postgres_database, load_release=False)
    pools = [open_pool(url, max_size=2) for _ in range(3)]
    errors, ledgers = [], []
    start = threading.Barrier(len(pools))

    def open_it(pool):
        start.wait()
        try:
            ledgers.append(SQLFactLedger(pool=pool))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    try:
        threads = [threading.Thread(target=open_it, args=(p,)) for p in pools]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert [v[0] for v in schema_versions(ledgers[0].db)] == [m.version for m in MIGRATIONS]
    finally:
        for pool in pools:
            pool.close()


# ---- what each dialect writes out ------------------------------------------------------------------
def test_each_dialect_writes_its_own_placeholders_and_ddl():
    assert SQLiteDialect.mark == "?" and PostgresDialect.mark == "%s"
    for migration in MIGRATIONS:
        sqlite_ddl, postgres_ddl = " ".join(migration.sqlite), " ".join(migration.postgres)
        assert len(migration.sqlite) == len(migration.postgres)
        assert "BIGSERIAL" not in sqlite_ddl and "INTEGER" not in postgres_ddl
    creates = [s for s in MIGRATIONS[0].postgres if s.startswith("CREATE TABLE")]
    assert creates and all("rowid BIGSERIAL" in s for s in creates)


def _reads_back_the_release_rows(ledger) -> None:
    """What the release wrote (tests/data/release-0.1.0/make_fixtures.py), read through the new code."""
    assert [(f.id, f.status) for f in ledger.facts("alice")] == [
        ("f_city_old", "superseded"), ("f_diet", "confirmed"), ("f_city_new", "confirmed")]
    assert ledger.get_fact("alice", "f_diet").use_count == 1
    assert [f.id for f in ledger.facts("bob")] == ["f_bob"]
    assert [r["id"] for r in ledger.audit_rows("alice")] == ["a0", "a1", "a2"]
    assert ledger.audit_rows("alice")[1]["target_id"] == "f_city_old"
    assert ledger.threads("alice") == ["t1"] and ledger.users() == ["alice", "bob"]
    assert list(ledger.thread_activity("alice")) == ["t1"]
    # version 2: the summary keeps the ids of the facts of its thread, and none of its old text
    [summary] = ledger.summaries("alice")
    assert sorted(summary["fact_ids"]) == ["f_city_new", "f_city_old", "f_diet"]
    assert set(summary) == {"user_id", "thread_id", "started_at", "ended_at", "fact_ids"}
    assert not [h for h in ledger.scan(["Oslo", "flat", "moving"]) if h["table"] == "session_summaries"]
    assert [e["id"] for e in ledger.episodes("alice")] == ["e1"]
    assert ledger.memory_enabled("bob") is False and ledger.memory_enabled("alice") is True
    assert ledger.journal_open() == [{"user_id": "alice", "id": "j1", "at": "2025-03-05T09:00:00+00:00",
                                      "payload": {"decision": "add", "fact_id": "f_diet"}}]
