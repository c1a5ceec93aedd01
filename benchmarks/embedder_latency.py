"""The query embedder's share of ``retrieve()``: PyTorch vs ONNX Runtime, side by side in one run.

    python benchmarks/embedder_latency.py [--sizes 1000 10000] [--queries 200]
                                          [--locomo ../shared/datasets/locomo/locomo_dev.json]

For each runtime of all-MiniLM-L6-v2 (sentence-transformers on PyTorch; ONNX Runtime on the graph
``memory-agent embedder export`` writes, exported first if missing):

1. **start-up**: a fresh Python process imports the embedder, loads it and embeds one query;
   seconds and peak RSS (median of ``--starts`` processes);
2. **warm retrieve()**: one user with ``--sizes`` facts (the turns of the LoCoMo conversations,
   cycled with a number when more are needed) in embedded Chroma in a temporary folder; the
   LoCoMo questions are asked (after 20 warm-up queries) with the two runtimes taking turns, query
   by query, so both meet the same machine load. Median and p95 in ms of the whole call (query
   embedding included) and of the query embedding alone;
3. ONNX Runtime intra-op threads 1 vs 2 (query embedding alone, taking turns).

PyTorch runs with its default threads (one per core). Prints the load average before and after:
the figures are only as quiet as the machine. A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from memory_agent.core.facts import Fact, Source  # noqa: E402
from memory_agent.evals.locomo import load_locomo  # noqa: E402
from memory_agent.evals.locomo_retrieval import default_memory_factory, percentile  # noqa: E402
from memory_agent.models.embeddings import EmbedderInfo, MiniLMEmbeddings  # noqa: E402
from memory_agent.models.minilm_onnx import export_minilm_onnx  # noqa: E402

RUNTIMES = ("torch", "onnx")
START_SNIPPET = """
import json, resource, sys, time
t0 = time.perf_counter()
from memory_agent.models.embeddings import MiniLMEmbeddings
emb = MiniLMEmbeddings(runtime=sys.argv[1])
emb.embed_query("Where does the user live?")
print(json.dumps({"seconds": time.perf_counter() - t0,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def start_up(runtime: str, runs: int) -> dict[str, float]:
    """Median seconds to the first query vector and peak RSS (MB) of fresh processes."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    rows = [json.loads(subprocess.run([sys.executable, "-c", START_SNIPPET, runtime], env=env, check=True,
                                      capture_output=True, text=True).stdout.strip().splitlines()[-1])
            for _ in range(runs)]
    return {k: statistics.median(r[k] for r in rows) for k in ("seconds", "rss_mb")}


def corpus(locomo: Path, n: int) -> tuple[list[str], list[str]]:
    """``n`` fact texts (LoCoMo turns, cycled with a number) and the LoCoMo questions."""
    convs = load_locomo(locomo)
    turns = [f"{t.speaker}: {t.text.strip()}" for c in convs for s in c.sessions for t in s.turns if t.text.strip()]
    texts = [t if i < len(turns) else f"{t} ({i // len(turns)})" for i, t in
             ((i, turns[i % len(turns)]) for i in range(n))]
    questions = [q.question for c in convs for q in c.qa if q.question.strip()]
    return texts, questions


def facts_of(texts: list[str], user: str) -> list[Fact]:
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    return [Fact(id=f"b_{i}", user_id=user, kind="fact", content=text, topic="bench",
                 source=Source(thread_id="bench", message_ids=[f"m{i}"]), evidence=text, importance=0.5,
                 created_at=t0 + timedelta(minutes=i), updated_at=t0 + timedelta(minutes=i))
            for i, text in enumerate(texts)]


def summary(values: list[float]) -> str:
    return f"{percentile(values, 50):7.1f} / {percentile(values, 95):7.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=Path("../shared/datasets/locomo/locomo_dev.json"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    load_before = os.getloadavg()
    export_minilm_onnx()  # once; start-up below measures a process that finds it
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs, load average before "
          f"{load_before[0]:.1f} {load_before[1]:.1f} {load_before[2]:.1f}")

    print("\nstart-up (fresh process: import, load, first query vector), median of", args.starts)
    for runtime in RUNTIMES:
        s = start_up(runtime, args.starts)
        print(f"  {runtime:<6} {s['seconds']:6.2f} s   peak RSS {s['rss_mb']:6.0f} MB")

    embedders = {r: MiniLMEmbeddings(runtime=r) for r in RUNTIMES}
    for e in embedders.values():
        e.embed_query("warm up")
    import torch  # loaded by the torch runtime above

    print(f"\nwarm retrieve() of one user, ms median / p95 (torch threads {torch.get_num_threads()}, "
          f"ONNX Runtime threads {embedders['onnx'].threads})")
    print(f"  {'facts':>6}  {'runtime':<6}  {'whole call':>17}  {'query embedding':>17}")
    user = "bench-user"
    for size in args.sizes:
        texts, questions = corpus(args.locomo, size)
        info = EmbedderInfo(embedders["onnx"], MiniLMEmbeddings.name, MiniLMEmbeddings.dimension)
        with tempfile.TemporaryDirectory() as tmp:
            memory = default_memory_factory(info)(Path(tmp))
            facts = facts_of(texts, user)
            for start in range(0, len(facts), 500):
                chunk = facts[start:start + 500]
                memory.index.upsert(user, chunk, embedders["onnx"].embed_documents([f.index_text for f in chunk]))
            now = datetime(2026, 1, 1, tzinfo=UTC)
            whole = {r: [] for r in RUNTIMES}
            embed = {r: [] for r in RUNTIMES}
            for i in range(20 + args.queries):
                q = questions[i % len(questions)]
                for runtime in (RUNTIMES if i % 2 else RUNTIMES[::-1]):
                    memory.embeddings = embedders[runtime]
                    t0 = time.perf_counter()
                    memory.retrieve(user, q, now, top_k=memory.retrieval.candidates)
                    t1 = time.perf_counter()
                    embedders[runtime].embed_query(q)
                    t2 = time.perf_counter()
                    if i >= 20:
                        whole[runtime].append((t1 - t0) * 1000)
                        embed[runtime].append((t2 - t1) * 1000)
            for runtime in RUNTIMES:
                print(f"  {size:>6}  {runtime:<6}  {summary(whole[runtime])}  {summary(embed[runtime])}")

    print("\nONNX Runtime intra-op threads, query embedding alone, ms median / p95")
    by_threads = {n: MiniLMEmbeddings(runtime="onnx", threads=n) for n in (1, 2)}
    times = {n: [] for n in by_threads}
    _, questions = corpus(args.locomo, 1)
    for i in range(20 + args.queries):
        for n, e in (by_threads.items() if i % 2 else reversed(by_threads.items())):
            t0 = time.perf_counter()
            e.embed_query(questions[i % len(questions)])
            if i >= 20:
                times[n].append((time.perf_counter() - t0) * 1000)
    for n, values in times.items():
        print(f"  {n} thread{'s' if n > 1 else ' '}  {summary(values)}")
    load_after = os.getloadavg()
    print(f"\nload average after {load_after[0]:.1f} {load_after[1]:.1f} {load_after[2]:.1f}")


if __name__ == "__main__":
    main()
