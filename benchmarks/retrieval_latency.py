"""Latency of the project's retriever (``LongTermMemory.retrieve``, hybrid) on one LoCoMo conversation.

    python benchmarks/retrieval_latency.py [--locomo ../shared/datasets/locomo/locomo_dev.json]
                                            [--conversation conv-26] [--queries 200]

Stores every turn of the conversation as an episode (one Chroma collection, real MiniLM), then
asks its questions (cycled up to ``--queries``) after 20 warm-up queries. Prints the median and
p95 in milliseconds of the whole call and of the call without embedding the query, the number
of facts, and the machine's load average (the figures are only as quiet as the machine).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from memory_agent.evals.locomo import load_locomo  # noqa: E402
from memory_agent.evals.locomo_retrieval import default_memory_factory, episode_facts, episode_user, percentile  # noqa: E402
from memory_agent.memory.lexical import tokenize  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=Path("../shared/datasets/locomo/locomo_dev.json"))
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    conv = next(c for c in load_locomo(args.locomo) if c.sample_id == args.conversation)
    with tempfile.TemporaryDirectory() as tmp:
        memory = default_memory_factory()(Path(tmp))
        facts, user = episode_facts(conv), episode_user(conv)
        vectors = memory.embeddings.embed_documents([f.index_text for f in facts])
        memory.ledger.save_facts(facts, vectors, [tokenize(f.index_text) for f in facts], memory.index.embedder_name)
        memory.index.upsert(user, facts, vectors)
        config = replace(memory.retrieval, top_k=10)
        questions = [q.question for q in conv.qa if q.question.strip()]
        now = max(f.created_at for f in facts)
        inner = memory.embeddings
        vectors = {}

        class Cached:  # the same vectors, without the embedding time
            def embed_query(self, text):
                return vectors[text]

        total, rest = [], []
        for i in range(20 + args.queries):
            q = questions[i % len(questions)]
            memory.embeddings = inner
            t0 = time.perf_counter()
            memory.retrieve(user, q, now, config=config)
            t1 = time.perf_counter()
            vectors[q] = inner.embed_query(q)
            memory.embeddings = Cached()
            t2 = time.perf_counter()
            memory.retrieve(user, q, now, config=config)
            t3 = time.perf_counter()
            if i >= 20:
                total.append((t1 - t0) * 1000)
                rest.append((t3 - t2) * 1000)
    print(f"{args.conversation}: {len(facts)} episodes, {len(total)} queries, load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs")
    print(f"retrieve, whole call:           median {percentile(total, 50):.1f} ms, p95 {percentile(total, 95):.1f} ms")
    print(f"retrieve, query already embedded: median {percentile(rest, 50):.1f} ms, p95 {percentile(rest, 95):.1f} ms")


if __name__ == "__main__":
    main()
