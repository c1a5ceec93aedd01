"""The fact index contract (:mod:`index_contract`) on Chroma: embedded (``PersistentClient`` in
``tmp_path``) always, and a Chroma server (one database per test) when
``MEMORY_AGENT_TEST_CHROMA_URL`` names one (skipped otherwise, failed under
``MEMORY_AGENT_TEST_SERVERS=required``; see tests/conftest.py)."""

from __future__ import annotations

import itertools
import os

import pytest
from conftest import SESSION_TAG, _delete_chroma_database, _servers_missing
from index_contract import DIMENSION, IndexContract

from memory_agent.stores.chroma_store import ChromaFactIndex, make_chroma_client

_databases = itertools.count()


class TestEmbeddedChromaIndex(IndexContract):
    @pytest.fixture
    def index(self, tmp_path):
        return ChromaFactIndex(make_chroma_client(path=str(tmp_path / "chroma")), "contract-embedder", DIMENSION)


class TestServerChromaIndex(IndexContract):
    @pytest.fixture
    def index(self):
        url = os.environ.get("MEMORY_AGENT_TEST_CHROMA_URL")
        if not url:
            _servers_missing("no Chroma server configured (MEMORY_AGENT_TEST_CHROMA_URL)")
        database = f"index_contract_{SESSION_TAG}_{next(_databases)}"
        yield ChromaFactIndex(make_chroma_client(url=url, database=database), "contract-embedder", DIMENSION)
        _delete_chroma_database(url, database)
