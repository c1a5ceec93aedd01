"""The fact index contract (:mod:`index_contract`) on Chroma: embedded (``PersistentClient`` in
``tmp_path``) always, and a Chroma server (one database per test) when
``MEMORY_AGENT_TEST_CHROMA_URL`` names one (skipped otherwise, failed under
``MEMORY_AGENT_TEST_SERVERS=required``; see tests/conftest.py)."""

from __future__ import annotations

import itertools
import os

import pytest
from conftest import SESSION_TAG, _delete_chroma_database, _servers_missing
from index_contract import AXES, DIMENSION, IndexContract, fact

from memory_agent.stores.chroma_store import ChromaFactIndex, make_chroma_client

_databases = itertools.count()


class KeptHandles:
    """Chroma-specific: a kept collection handle whose collection another process dropped."""

    def test_a_collection_dropped_elsewhere_is_looked_up_again(self, index):
        other = ChromaFactIndex(index.client, index.embedder_name, index.dimension)  # another process's view
        index.upsert("alice", [fact("alice", "f1", "a")], [AXES[0]])
        assert index.count("alice") == 1  # this index now keeps a handle
        other.drop_user("alice")  # forget-user there
        assert index.count("alice") == 0 and index.list("alice") == [] and index.nearest_ids("alice", AXES[0], 5) == []
        other.upsert("alice", [fact("alice", "f2", "b")], [AXES[1]])  # the user writes again there
        assert [f.id for f in index.list("alice")] == ["f2"] and list(index.vectors("alice")) == ["f2"]
        other.drop_user("alice")
        index.upsert("alice", [fact("alice", "f3", "c")], [AXES[2]])  # ... and here: a new collection
        assert [f.id for f in other.list("alice")] == ["f3"]
        other.drop_user("alice")
        index.delete("alice", ["f3"])  # nothing left to delete: no error
        assert index.drop_user("alice") == 0


class TestEmbeddedChromaIndex(IndexContract, KeptHandles):
    @pytest.fixture
    def index(self, tmp_path):
        return ChromaFactIndex(make_chroma_client(path=str(tmp_path / "chroma")), "contract-embedder", DIMENSION)


class TestServerChromaIndex(IndexContract, KeptHandles):
    @pytest.fixture
    def index(self):
        url = os.environ.get("MEMORY_AGENT_TEST_CHROMA_URL")
        if not url:
            _servers_missing("no Chroma server configured (MEMORY_AGENT_TEST_CHROMA_URL)")
        database = f"index_contract_{SESSION_TAG}_{next(_databases)}"
        yield ChromaFactIndex(make_chroma_client(url=url, database=database), "contract-embedder", DIMENSION)
        _delete_chroma_database(url, database)
