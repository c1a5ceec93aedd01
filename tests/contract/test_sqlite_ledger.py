"""The ledger contract (:mod:`ledger_contract`) on the embedded SQLite ledger."""

from __future__ import annotations

import pytest
from ledger_contract import LedgerContract

from memory_agent.stores.sql.ledger import SQLFactLedger


class TestSQLiteLedger(LedgerContract):
    @pytest.fixture
    def ledger(self, tmp_path):
        store = SQLFactLedger(tmp_path / "ledger.sqlite")
        yield store
        store.close()
