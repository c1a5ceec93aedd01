"""Every live fact is found right after it is written, whatever the vector index's graph can reach.

Embedded Chroma 1.5.x can leave a just-written point unreachable by nearest-neighbour search when a
collection is written, read (the first read in the process) and written again, which is what a turn
does (see ``stores/chroma_store.py``): a few collections in a hundred lose a point. Retrieval scores
such a fact from its stored vector, so it is still found. ``tests/load/search_after_write.py`` runs
the same loop at any size and also counts what the index's own search misses.
"""

from __future__ import annotations

from functools import cache

import pytest
from conftest import T0, day
from langchain_core.embeddings import Embeddings

from memory_agent.core.facts import Fact, Source, stable_id
from memory_agent.memory.retrieval import RetrievalConfig

USERS = 200
BEFORE, AFTER = 20, 5  # facts written before the first read, and in the write after it
TEXTS = [f"The user's note number {i} is about topic {i % 7}." for i in range(BEFORE + AFTER)]


class Remembered(Embeddings):
    """The real embedder, each text embedded once: the loop asks the same few questions of 200 users."""

    def __init__(self, embeddings: Embeddings):
        self.query = cache(embeddings.embed_query)
        self.documents = embeddings.embed_documents

    def embed_query(self, text: str) -> list[float]:
        return self.query(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.documents(texts)


def _facts(user_id: str, texts: list[str]) -> list[Fact]:
    return [Fact(id=stable_id(user_id, t, prefix="f_"), user_id=user_id, kind="fact", content=t, evidence=t,
                 source=Source(thread_id="t1", message_ids=["m1"]), created_at=T0, updated_at=T0) for t in texts]


def _write(memory, user_id: str, facts: list[Fact], vectors: list[list[float]]) -> None:
    """Ledger first, then the live index in one batch (as a commit does, for several facts at once)."""
    for f in facts:
        memory.ledger.save_fact(f)
    memory.index.upsert(user_id, facts, vectors)


@pytest.mark.parametrize("backend", ["embedded"], indirect=True)
def test_write_read_write_on_many_collections_finds_every_new_fact(memory, backend):
    memory.embeddings = Remembered(memory.embeddings)
    vectors = memory.embeddings.embed_documents(TEXTS)
    dense_only = RetrievalConfig(lexical=False)
    missed, index_missed = [], 0
    for u in range(USERS):
        user = f"user-{u}"
        _write(memory, user, _facts(user, TEXTS[:BEFORE]), vectors[:BEFORE])
        assert memory.retrieve(user, "What is note number 3 about?", day(1))  # the first read of this collection
        new = _facts(user, TEXTS[BEFORE:])
        _write(memory, user, new, vectors[BEFORE:])
        for f, vector in zip(new, vectors[BEFORE:], strict=True):
            index_missed += f.id not in {i for i, _ in memory.index.nearest_ids(user, vector, BEFORE + AFTER)}
            for config in (dense_only, None):
                found = {s.fact.id: s for s in memory.retrieve(user, f.content, day(1), config=config)}
                if f.id not in found or found[f.id].similarity < 0.99:
                    missed.append((user, f.content, config is None))
    assert missed == [], f"{len(missed)} searches missed a fact (the index's own search missed {index_missed})"
