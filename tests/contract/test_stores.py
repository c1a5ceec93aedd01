"""The stores as the agent opens them (``memory_agent.stores``: Chroma + SQLite in ``tmp_path``, real
MiniLM): one cosine Chroma collection per user with its embedder recorded and checked, idempotent
index writes, expiry, similarities spread over [0, 1], ledger rows scoped to their user, no embedding
for a user without facts, and Chroma failures reported as :class:`StoreError`. What every backend
must do is in the contract modules (``ledger_contract.py``, ``index_contract.py``)."""

from __future__ import annotations

import re

import pytest
from conftest import T0, day, plant

from memory_agent.app.agent import MemoryAgent
from memory_agent.app.settings import Settings
from memory_agent.core.facts import Fact, Source
from memory_agent.memory.retrieval import RetrievalConfig, rank
from memory_agent.models.embeddings import EmbedderInfo, MiniLMEmbeddings
from memory_agent.stores.base import EmbedderMismatchError, StoreError
from memory_agent.stores.chroma_store import ChromaFactIndex, collection_name

PROFILE = [
    ("The user's backend uses Postgres.", "fact", "database"),
    ("The user deploys the backend on Kubernetes.", "fact", "hosting"),
    ("The user is vegetarian.", "preference", "diet"),
    ("The user plays the cello.", "preference", "instrument"),
    ("The user has a cat named Miso.", "fact", "pet"),
    ("The user lives in Munich.", "fact", "home city"),
]
ALL_PASS = RetrievalConfig(top_k=50, min_similarity=0.0, min_similarity_profile=0.0, min_score=0.0)


def make_fact(user_id: str, fid: str, content: str, **fields) -> Fact:
    """A confirmed fact created at ``T0`` unless overridden."""
    base = {"kind": "fact", "source": Source(thread_id="t", message_ids=["m"]), "evidence": content,
            "created_at": T0, "updated_at": T0}
    return Fact(id=fid, user_id=user_id, content=content, **{**base, **fields})


# ---- Chroma: one cosine collection per user, with the embedder recorded ------------------------
def test_collections_are_per_user_cosine_and_record_the_embedder(memory):
    plant(memory, "alice", "The user is vegetarian.", kind="preference", topic="diet")
    plant(memory, "alice", "The user plays the cello.", kind="preference", topic="instrument")
    plant(memory, "bob", "The user's backend uses Postgres.", topic="database")
    client = memory.index.client
    assert {c.name for c in client.list_collections()} == {collection_name("alice"), collection_name("bob")}
    for user, n in (("alice", 2), ("bob", 1)):
        col = client.get_collection(collection_name(user))
        assert col.metadata == {"user_id": user, "embedder": MiniLMEmbeddings.name, "dimension": 384}
        assert col.configuration_json["hnsw"]["space"] == "cosine"
        assert col.count() == n
        rows = col.get(include=["metadatas"])
        assert {Fact.model_validate_json(m["fact"]).user_id for m in rows["metadatas"]} == {user}
    # cosine, not L2: a scaled copy of a stored vector is at distance 0, its negation at 2
    vec = memory.embeddings.embed_query("diet: The user is vegetarian.")
    [(near, d_near)] = memory.index.query("alice", [3 * x for x in vec], 1)
    [(_, d_far)] = [c for c in memory.index.query("alice", [-x for x in vec], 2) if c[0].id == near.id]
    assert near.content == "The user is vegetarian."
    assert d_near == pytest.approx(0.0, abs=1e-4)
    assert d_far == pytest.approx(2.0, abs=1e-4)


def test_collection_names_are_valid_distinct_and_stable():
    ids = ["u1", "u10", "alice@example.com", "first last", "Jürgen", "ユーザー", "x' OR '1'='1", "a" * 500]
    names = [collection_name(u) for u in ids]
    assert len(set(names)) == len(ids)
    assert names == [collection_name(u) for u in ids]
    assert all(re.fullmatch(r"user_[0-9a-f]{40}", n) for n in names)  # Chroma: 3-512 chars of [a-zA-Z0-9._-]


@pytest.mark.parametrize(("name", "dimension"), [("openai:text-embedding-3-small", 1536),
                                                  (MiniLMEmbeddings.name, 768)])
def test_existing_collection_with_another_embedder_is_refused(memory, embedder, name, dimension):
    plant(memory, "alice", "The user is vegetarian.", kind="preference", topic="diet")
    other = ChromaFactIndex(memory.index.client, name, dimension)
    with pytest.raises(EmbedderMismatchError) as err:
        other.query("alice", [0.1] * dimension, 5)
    message = str(err.value)
    assert MiniLMEmbeddings.name in message and "384" in message
    assert name in message and str(dimension) in message
    assert "MEMORY_AGENT_EMBEDDER" in message
    for call in (lambda: other.list("alice"), lambda: other.get("alice", ["x"]),
                 lambda: other.upsert("alice", [make_fact("alice", "f_x", "x")], [[0.1] * dimension])):
        with pytest.raises(EmbedderMismatchError):
            call()
    col = memory.index.client.get_collection(collection_name("alice"))
    assert col.metadata["embedder"] == MiniLMEmbeddings.name and col.metadata["dimension"] == 384
    assert col.count() == 1
    # a user with no collection yet is fine under the new embedder
    assert other.query("bob", [0.1] * dimension, 5) == []


def test_reopening_the_data_folder_with_another_embedder_fails_clearly(make_agent, embedder, tmp_path):
    first = make_agent()
    plant(first.memory, "alice", "The user is vegetarian.", kind="preference", topic="diet")
    first.close()
    renamed = EmbedderInfo(embedder.embeddings, "my-other-embedder", 384)
    with MemoryAgent.open(Settings(data_dir=tmp_path / "data"), model=first.model, embedder=renamed) as agent:
        with pytest.raises(EmbedderMismatchError, match="my-other-embedder"):
            agent.turn("alice", "Plan a dinner.", thread_id="t", now=T0)
        assert agent.memory.ledger.facts("alice")[0].status == "confirmed"


def test_index_upsert_is_idempotent_and_scoped(memory, embedder):
    fact = make_fact("alice", "f_1", "The user is vegetarian.", kind="preference", topic="diet")
    vec = embedder.embeddings.embed_documents([fact.index_text])
    memory.index.upsert("alice", [fact], vec)
    memory.index.upsert("alice", [fact.model_copy(update={"content": "The user is vegan."})], vec)
    assert [f.content for f in memory.index.list("alice")] == ["The user is vegan."]
    with pytest.raises(ValueError, match="belong"):
        memory.index.upsert("bob", [fact], vec)
    assert memory.index.list("bob") == []
    assert memory.index.get("bob", ["f_1"]) == []
    memory.index.delete("alice", ["f_missing"])  # no error
    memory.index.delete("bob", ["f_1"])  # another user's delete touches nothing
    assert len(memory.index.list("alice")) == 1
    assert memory.index.drop_user("alice") == 1
    assert memory.index.list("alice") == []
    assert memory.index.drop_user("alice") == 0


# ---- expiry -----------------------------------------------------------------------------------
def test_fact_without_valid_until_stores_and_expired_fact_is_not_retrieved(memory):
    forever = plant(memory, "alice", "The user is vegetarian.", kind="preference", topic="diet")
    expired = plant(memory, "alice", "The user is in Lisbon for a vegetarian food festival.", kind="event",
                    topic="travel", valid_until=day(3))
    col = memory.index.client.get_collection(collection_name("alice"))
    metas = dict(zip(*[col.get(include=["metadatas"])[k] for k in ("ids", "metadatas")], strict=True))
    assert "valid_until" not in metas[forever.id]
    assert metas[expired.id]["valid_until"] == day(3).timestamp()
    assert {f.id for f in memory.live("alice")} == {forever.id, expired.id}

    query = "Which vegetarian food festival am I at in Lisbon?"
    assert {s.fact.id for s in memory.retrieve("alice", query, day(1))} == {forever.id, expired.id}
    assert [s.fact.id for s in memory.retrieve("alice", query, day(4))] == [forever.id]
    assert [s.fact.id for s in memory.retrieve("alice", query, day(3))] == [forever.id]  # valid_until is exclusive


# ---- scores spread over [0, 1] -----------------------------------------------------------------
def test_similarities_spread_over_zero_to_one(memory):
    for content, kind, topic in PROFILE:
        plant(memory, "alice", content, kind=kind, topic=topic)
    query = "Which database should my backend use?"
    candidates = memory.index.query("alice", memory.embeddings.embed_query(query), 30)
    assert len(candidates) == len(PROFILE)
    scored = rank(candidates, T0, ALL_PASS)
    sims = {s.fact.content: s.similarity for s in scored}
    assert len(sims) == len(PROFILE)
    assert all(0.0 <= s <= 1.0 for s in sims.values())
    assert max(sims.values()) - min(sims.values()) > 0.3
    assert sims["The user's backend uses Postgres."] > 0.5
    assert sims["The user plays the cello."] < 0.3
    assert sims["The user has a cat named Miso."] < 0.3
    assert scored[0].fact.content == "The user's backend uses Postgres."

    retrieved = memory.retrieve("alice", query, T0)
    assert retrieved[0].fact.content == "The user's backend uses Postgres."
    assert all(0.0 <= s.score <= 1.0 and 0.0 <= s.similarity <= 1.0 for s in retrieved)
    assert "The user plays the cello." not in [s.fact.content for s in retrieved]
    assert "The user is vegetarian." not in [s.fact.content for s in retrieved]
    assert retrieved[0].similarity - min(sims.values()) > 0.3


# ---- the SQLite ledger ------------------------------------------------------------------------
def test_ledger_rows_are_scoped_to_their_user(memory):
    fact = plant(memory, "alice", "The user is vegetarian.", kind="preference", topic="diet")
    assert memory.ledger.get_fact("alice", fact.id) == fact
    assert memory.ledger.get_fact("bob", fact.id) is None
    assert memory.ledger.get_fact("alice' OR '1'='1", fact.id) is None
    assert memory.ledger.facts("bob") == []
    assert memory.ledger.facts("alice", status="superseded") == []
    assert memory.show("bob", fact.id) is None
    assert memory.history("bob", fact.id) == []
    row = {"id": "a_1", "user_id": "alice", "at": T0, "decision": "approved", "decided_by": "user"}
    assert memory.ledger.audit(row) is True
    assert memory.ledger.audit(row) is False
    assert len(memory.ledger.audit_rows("alice")) == 1
    assert memory.ledger.audit_rows("bob") == []


# ---- retrieval on the index: an empty index, a failing Chroma ----------------------------------
def test_retrieve_for_a_user_without_facts_does_not_embed(memory):
    calls = []
    real = memory.embeddings.embed_query
    memory.embeddings.embed_query = lambda text: calls.append(text) or real(text)
    try:
        assert memory.index.count("nobody-yet") == 0
        assert memory.retrieve("nobody-yet", "Where do I live?", T0) == []
        assert calls == []  # a first turn need not wait for the embedder to load
        plant(memory, "someone", "The user lives in Oslo.", topic="home city")
        assert memory.index.count("someone") == 1
        assert [s.fact.content for s in memory.retrieve("someone", "Where do I live?", T0)] == [
            "The user lives in Oslo."]
        assert calls == ["Where do I live?"]
    finally:
        memory.embeddings.embed_query = real


def test_a_chroma_failure_becomes_a_store_error_that_says_what_failed(memory):
    plant(memory, "alice", "The user lives in Oslo.", topic="home city")
    collection = memory.index._collections["alice"]

    def down(*args, **kwargs):
        raise ConnectionError("connection refused")

    for name in ("query", "upsert", "delete", "get"):
        object.__setattr__(collection, name, down)
    with pytest.raises(StoreError, match="query facts.*connection refused.*reachable"):
        memory.index.nearest_ids("alice", [1.0] * memory.index.dimension, 5)
    with pytest.raises(StoreError, match="delete facts"):
        memory.index.delete("alice", ["x"])
    object.__setattr__(collection, "count", down)
    with pytest.raises(StoreError, match="count facts"):
        memory.index.count("alice")
    # ranking reads the ledger's copy of the user's facts and vectors, not the live index
    assert [s.fact.content for s in memory.retrieve("alice", "Where do I live?", day(1))] == ["The user lives in Oslo."]
