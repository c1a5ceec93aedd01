"""The ledger contract (:mod:`ledger_contract`) on the embedded SQLite ledger, and what only SQLite
does: an audit row the database refuses raises :class:`StoreError`, and a locked database is reported
as locked, not damaged."""

from __future__ import annotations

import sqlite3

import pytest
from conftest import T0
from ledger_contract import LedgerContract

from memory_agent.core.facts import Fact, Source
from memory_agent.stores.base import StoreError
from memory_agent.stores.sql.ledger import SQLFactLedger
from memory_agent.stores.sql.schema import SCANNED_COLUMNS


class TestSQLiteLedger(LedgerContract):
    @pytest.fixture
    def ledger(self, tmp_path):
        store = SQLFactLedger(tmp_path / "ledger.sqlite")
        yield store
        store.close()


def test_an_audit_row_missing_a_required_value_raises_instead_of_vanishing(tmp_path):
    ledger = SQLFactLedger(tmp_path / "x.sqlite")
    with pytest.raises(StoreError, match="refused"):
        ledger.audit({"id": "a1", "user_id": "u", "at": T0, "decision": "approved", "decided_by": None})
    ledger.close()


def test_a_locked_database_is_not_reported_as_damaged(tmp_path):
    path = tmp_path / "x.sqlite"
    ledger = SQLFactLedger(path)
    ledger.conn.execute("PRAGMA busy_timeout=100")
    ledger.save_fact(Fact(id="f1", user_id="u", kind="fact", content="c", evidence="c", created_at=T0,
                          updated_at=T0, source=Source(thread_id="t", message_ids=["m"])))
    other = sqlite3.connect(path)
    other.execute("BEGIN IMMEDIATE")
    for call in (lambda: ledger.remember_thread("u", "t2", T0), lambda: ledger.touch("u", ["f1"], T0, "t/m")):
        with pytest.raises(StoreError) as err:
            call()
        assert "locked" in str(err.value) and "damaged" not in str(err.value)
    other.rollback()
    other.close()
    ledger.close()


#: Text columns that erasure does not scan for a user's words, each with the reason. A new column that
#: may hold what a user said goes into ``SCANNED_COLUMNS`` (and, on audit_log, ``AUDIT_TEXT_COLUMNS``).
NOT_SCANNED = {
    "schema_migrations": {"version", "name", "applied_at"},  # the schema's own history
    # embedder: a model name; valid_until: a time; aspects: names from the aspect table and its version tag
    "facts": {"status", "kind", "created_at", "updated_at", "embedder", "valid_until", "aspects"},
    "audit_log": {"id", "at", "operation", "kind", "decision", "decided_by"},
    "fact_uses": {"at"},
    "user_threads": {"created_at"},
    "commit_journal": {"id", "at"},  # a hash of the proposal id, and a time
    "user_settings": {"updated_at"},
    "session_summaries": {"started_at", "ended_at"},
    "episodes": {"occurred_at", "kind"},
    "thread_activity": {"first_at", "last_at"},
    "fact_generations": {"generation"},  # a random token, nothing the user said
    "api_keys": {"key_hash", "created_at"},  # the sha256 of a random key, and a time
}


def test_every_text_column_is_scanned_by_erasure_or_listed_with_its_reason(tmp_path):
    SQLFactLedger(tmp_path / "l.sqlite").close()
    conn = sqlite3.connect(str(tmp_path / "l.sqlite"))
    try:
        tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        text = {t: {r[1] for r in conn.execute(f"PRAGMA table_info({t})") if r[2] == "TEXT"} for t in tables}
    finally:
        conn.close()
    unaccounted = {t: cols - set(SCANNED_COLUMNS.get(t, ())) - NOT_SCANNED.get(t, set())
                   for t, cols in text.items()}
    assert not {t: c for t, c in unaccounted.items() if c}, (
        "add these text columns to SCANNED_COLUMNS in stores/sql/schema.py, or to NOT_SCANNED here with why")
