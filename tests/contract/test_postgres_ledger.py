"""The ledger contract (:mod:`ledger_contract`) on PostgreSQL: each test gets a fresh schema in the
session's test database (see ``postgres_database`` in tests/conftest.py; skipped without Postgres)."""

from __future__ import annotations

import itertools

import psycopg
import pytest
from conftest import with_schema
from ledger_contract import LedgerContract

from memory_agent.stores.postgres import open_pool
from memory_agent.stores.sql.ledger import SQLFactLedger

_schemas = itertools.count()


@pytest.fixture
def postgres_schema_url(postgres_database):
    """The URL of a new, empty schema of the session's test database."""
    schema = f"ledger_contract_{next(_schemas)}"
    with psycopg.connect(postgres_database, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return with_schema(postgres_database, schema)


class TestPostgresLedger(LedgerContract):
    @pytest.fixture
    def ledger(self, postgres_schema_url):
        pool = open_pool(postgres_schema_url, max_size=2)
        yield SQLFactLedger(pool=pool)
        pool.close()
