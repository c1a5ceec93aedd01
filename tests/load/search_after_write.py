"""Search right after a write: the write → read → write loop of a turn, on many collections of an
embedded Chroma, counting the facts that search cannot find.

Per collection (one user each): ``--before`` facts are written in one batch (ledger, then the live
index), the user's memories are read once (the first read of that collection in this process, as
``load_memory`` does), ``--after`` more facts are written in one batch, and each of those is then
looked for with its own wording as the question. Two counts come out:

- ``index misses``: the new fact is absent from Chroma's nearest-neighbour search asked for every
  live fact of the collection (embedded Chroma 1.5.x leaves a just-written point unreachable in
  this pattern; see ``stores/chroma_store.py``);
- ``retrieve misses``: ``LongTermMemory.retrieve`` (dense only, and hybrid) did not return the fact
  with its full similarity. This must be 0: retrieval scores what the search did not reach from the
  stored vector.

The real MiniLM embedder embeds the ``before + after`` texts once (every user gets the same ones:
near-identical sentences, so the vectors crowd together as a user's memories do). Exit status 1
when a retrieve missed. ``.ci/run`` runs it on a small count; the pytest version is
``tests/contract/test_search_after_write.py``.

Usage::

    python tests/load/search_after_write.py --collections 400 [--before 20 --after 5]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from memory_agent.core.facts import Fact, Source, stable_id  # noqa: E402
from memory_agent.memory.retrieval import RetrievalConfig  # noqa: E402
from memory_agent.models.embeddings import load_embedder  # noqa: E402
from memory_agent.stores.chroma_store import ChromaFactIndex, make_chroma_client  # noqa: E402
from memory_agent.stores.long_term import LongTermMemory  # noqa: E402
from memory_agent.stores.sql.ledger import SQLFactLedger  # noqa: E402

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--collections", type=int, default=200, help="users, one collection each")
    parser.add_argument("--before", type=int, default=20, help="facts written before the first read")
    parser.add_argument("--after", type=int, default=5, help="facts written after it (each then searched for)")
    args = parser.parse_args(argv)

    embedder = load_embedder("minilm")
    texts = [f"The user's note number {i} is about topic {i % 7}." for i in range(args.before + args.after)]
    vectors = embedder.embeddings.embed_documents(texts)
    query_vector = cache(embedder.embeddings.embed_query)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        index = ChromaFactIndex(make_chroma_client(path=str(Path(folder) / "chroma")), embedder.name,
                                embedder.dimension)
        ledger = SQLFactLedger(Path(folder) / "agent.sqlite")
        memory = LongTermMemory(index, ledger, embedder.embeddings)
        memory.embeddings = _Cached(embedder.embeddings, query_vector)
        index_misses = retrieve_misses = searches = 0
        for u in range(args.collections):
            user = f"user-{u}"
            facts = [Fact(id=stable_id(user, t, prefix="f_"), user_id=user, kind="fact", content=t, evidence=t,
                          source=Source(thread_id="t1", message_ids=["m1"]), created_at=T0, updated_at=T0)
                     for t in texts]
            _write(memory, user, facts[: args.before], vectors[: args.before])
            memory.retrieve(user, "What is note number 3 about?", T0 + timedelta(days=1))
            _write(memory, user, facts[args.before:], vectors[args.before:])
            for f, vector in zip(facts[args.before:], vectors[args.before:], strict=True):
                index_misses += f.id not in {i for i, _ in index.nearest_ids(user, vector, len(facts))}
                for config in (RetrievalConfig(lexical=False), None):
                    searches += 1
                    found = {s.fact.id: s for s in memory.retrieve(user, f.content, T0 + timedelta(days=1),
                                                                   config=config)}
                    retrieve_misses += f.id not in found or found[f.id].similarity < 0.99
        ledger.close()
    new = args.collections * args.after
    print(f"{args.collections} collections, {new} facts written after a read, "
          f"{time.monotonic() - started:.0f} s")
    print(f"index misses: {index_misses} of {new} (Chroma's own search, asked for every live fact)")
    print(f"retrieve misses: {retrieve_misses} of {searches} searches (dense only and hybrid)")
    return 1 if retrieve_misses else 0


class _Cached:
    """The real embedder with each question embedded once (the loop asks the same few of every user)."""

    def __init__(self, embeddings, query_vector):
        self._embeddings, self._query_vector = embeddings, query_vector

    def embed_query(self, text: str) -> list[float]:
        return self._query_vector(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._embeddings.embed_documents(texts)


def _write(memory: LongTermMemory, user: str, facts: list[Fact], vectors: list[list[float]]) -> None:
    """Ledger first, then the live index in one batch."""
    for f in facts:
        memory.ledger.save_fact(f)
    memory.index.upsert(user, facts, vectors)


if __name__ == "__main__":
    sys.exit(main())
