"""The behaviour every :class:`memory_agent.stores.base.FactIndex` backend must have, as a reusable
test class written only against the protocol (no Chroma specifics).

To run it against a new backend, add ``tests/contract/test_<backend>_index.py``::

    import pytest
    from index_contract import DIMENSION, IndexContract

    class TestMyIndex(IndexContract):
        @pytest.fixture
        def index(self, tmp_path):
            yield MyIndex(..., dimension=DIMENSION)   # a fresh, empty store for each test

Every test of :class:`IndexContract` then runs on it. Embeddings are small hand-made vectors of
:data:`DIMENSION` numbers, so no embedding model is loaded; distances are cosine distances.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory_agent.core.facts import Fact, Source

DIMENSION = 4
T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
#: Unit vectors along each axis: cosine distance 0 to itself, 1 to the others, 2 to its negation.
AXES = [[1.0 if i == j else 0.0 for j in range(DIMENSION)] for i in range(DIMENSION)]


def fact(user_id: str, fid: str, content: str, days: float = 0) -> Fact:
    return Fact(id=fid, user_id=user_id, kind="fact", content=content, topic="topic", evidence=content,
                source=Source(thread_id="t1", message_ids=["m1"]), created_at=T0 + timedelta(days=days),
                updated_at=T0 + timedelta(days=days))


class IndexContract:
    """The contract; a subclass provides the ``index`` fixture (see the module docstring)."""

    def test_upsert_is_idempotent_and_replaces_by_id(self, index):
        index.upsert("alice", [fact("alice", "f1", "lives in Munich")], [AXES[0]])
        index.upsert("alice", [fact("alice", "f1", "lives in Oslo")], [AXES[0]])
        assert [f.content for f in index.list("alice")] == ["lives in Oslo"]
        assert index.count("alice") == 1
        index.upsert("alice", [], [])  # nothing to write: no error

    def test_a_fact_of_another_user_is_refused_and_users_never_see_each_other(self, index):
        index.upsert("alice", [fact("alice", "f1", "alice's")], [AXES[0]])
        with pytest.raises(ValueError, match="belong"):
            index.upsert("bob", [fact("alice", "f2", "alice's, written as bob")], [AXES[1]])
        index.upsert("bob", [fact("bob", "f9", "bob's")], [AXES[0]])
        assert [f.id for f, _ in index.query("alice", AXES[0], 10)] == ["f1"]
        assert [i for i, _ in index.nearest_ids("bob", AXES[0], 10)] == ["f9"]
        assert index.get("bob", ["f1"]) == [] and index.get("alice", ["f9"]) == []
        index.delete("bob", ["f1"])  # another user's id: touches nothing
        index.drop_user("bob")
        assert index.count("alice") == 1 and index.count("bob") == 0

    def test_query_and_nearest_ids_rank_by_cosine_distance(self, index):
        facts = [fact("alice", f"f{i}", f"fact {i}", days=i) for i in range(3)]
        index.upsert("alice", facts, [AXES[0], AXES[1], [1.0, 1.0, 0.0, 0.0]])
        ranked = index.query("alice", [3.0, 0.0, 0.0, 0.0], 3)  # a scaled copy: same direction
        assert [f.id for f, _ in ranked] == ["f0", "f2", "f1"]
        assert [round(d, 4) for _, d in ranked] == [0.0, round(1 - 2 ** -0.5, 4), 1.0]
        assert [(i, round(d, 4)) for i, d in index.nearest_ids("alice", [3.0, 0.0, 0.0, 0.0], 2)] == [
            ("f0", 0.0), ("f2", round(1 - 2 ** -0.5, 4))]
        [(_, opposite)] = [c for c in index.query("alice", [-1.0, 0.0, 0.0, 0.0], 3) if c[0].id == "f0"]
        assert opposite == pytest.approx(2.0, abs=1e-4)
        assert len(index.query("alice", AXES[0], 50)) == 3  # n beyond the count: every fact
        assert index.query("nobody", AXES[0], 5) == [] and index.nearest_ids("nobody", AXES[0], 5) == []

    def test_get_list_and_count(self, index):
        index.upsert("alice", [fact("alice", "f2", "second", days=2), fact("alice", "f1", "first", days=1)],
                     [AXES[1], AXES[0]])
        assert {f.id for f in index.get("alice", ["f1", "f2", "missing"])} == {"f1", "f2"}
        assert index.get("alice", []) == [] and index.get("nobody", ["f1"]) == []
        assert [f.id for f in index.list("alice")] == ["f1", "f2"]  # oldest first
        assert index.list("nobody") == []
        assert index.count("alice") == 2 and index.count("nobody") == 0

    def test_vectors_are_the_stored_embeddings_by_id(self, index):
        index.upsert("alice", [fact("alice", "f1", "a"), fact("alice", "f2", "b")], [AXES[0], [0.0, 2.0, 2.0, 0.0]])
        index.upsert("bob", [fact("bob", "f3", "c")], [AXES[3]])
        got = index.vectors("alice", ["f2", "missing", "f3"])
        assert list(got) == ["f2"]
        norm = sum(x * x for x in got["f2"]) ** 0.5  # an index may keep vectors normalised: compare directions
        assert [x / norm for x in got["f2"]] == pytest.approx([0.0, 2 ** -0.5, 2 ** -0.5, 0.0], abs=1e-6)
        assert set(index.vectors("alice")) == {"f1", "f2"}
        assert index.vectors("alice", []) == {} and index.vectors("nobody") == {} and index.vectors("bob", ["f1"]) == {}

    def test_delete_and_drop_user(self, index):
        index.upsert("alice", [fact("alice", "f1", "a"), fact("alice", "f2", "b")], [AXES[0], AXES[1]])
        index.delete("alice", ["f1", "missing"])
        index.delete("nobody", ["f1"])
        assert [f.id for f in index.list("alice")] == ["f2"]
        assert index.drop_user("alice") == 1
        assert index.drop_user("alice") == 0 and index.list("alice") == []

    def test_generation_changes_with_every_write_to_that_user(self, index):
        start = index.generation("alice")
        other = index.generation("bob")
        index.upsert("alice", [fact("alice", "f1", "a")], [AXES[0]])
        after_upsert = index.generation("alice")
        index.delete("alice", ["f1"])
        after_delete = index.generation("alice")
        index.upsert("alice", [fact("alice", "f1", "a")], [AXES[0]])
        before_drop = index.generation("alice")
        index.drop_user("alice")
        assert len({start, after_upsert, after_delete, before_drop, index.generation("alice")}) == 5
        assert index.generation("bob") == other

    def test_scan_finds_what_is_left_of_a_user(self, index):
        assert index.scan("alice", ["Oslo"]) == []
        index.upsert("alice", [fact("alice", "f1", "The user lives in Oslo.")], [AXES[0]])
        index.upsert("bob", [fact("bob", "f2", "The user lives in Rome.")], [AXES[0]])
        hits = index.scan("alice", ["Oslo", "Bergen"])
        assert {(h["column"], h["needle"], h["rows"]) for h in hits} == {("collection", "alice", 1),
                                                                          ("documents", "Oslo", 1)}
        assert all(set(h) == {"store", "table", "column", "needle", "rows"} for h in hits)
        index.drop_user("alice")
        assert index.scan("alice", ["Oslo"]) == []
        assert [h["needle"] for h in index.scan("bob", ["Rome"])] == ["bob", "Rome"]
