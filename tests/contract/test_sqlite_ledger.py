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
