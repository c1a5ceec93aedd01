"""Latency of the ``load_memory`` path at scale: one Chroma collection per user vs one shared collection.

Builds an embedded Chroma ``PersistentClient`` in a temporary folder holding ``--users`` users with
``--facts-per-user`` facts on average (default 1,000 × 100 = 100,000 facts, one collection per user,
written through :class:`memory_agent.stores.chroma_store.ChromaFactIndex`). One target user holds ``--target-facts``
of them (default 1,000); the others share the rest (99 or 100 each).

The fill uses random unit vectors of dimension 384 (the size of all-MiniLM-L6-v2) so it takes minutes,
not hours; ``--real-facts`` of the target user's facts are real sentences embedded with MiniLM, so the
queries find something and ``rank`` scores real hits.

Then it times ``LongTermMemory.retrieve(user, query, now)`` for the target user, with the REAL MiniLM
embedder embedding varied queries: ``--repeats`` runs after ``--warmup`` runs, reporting the median and
p95 in ms, and the split into query embedding vs Chroma query + rank. For contrast it builds one shared
collection with all facts and a ``user_id`` metadata field, and times the same query with
``where={"user_id": ...}`` (plus rank) — the layout the template avoids.

``--chroma-url http://host:port`` runs the same on a Chroma server (``chroma run``) instead of the
embedded folder, in a Chroma database made for the run and deleted after it.

Usage::

    python benchmarks/load_memory_latency.py                      # default size (a few minutes)
    python benchmarks/load_memory_latency.py --users 1000 --facts-per-user 200 --target-facts 10000 \
        [--chroma-url http://127.0.0.1:8000]                      # the BENCHMARKS.md sizes
    python benchmarks/load_memory_latency.py --users 100 --repeats 50 --out /tmp/bench.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chromadb  # noqa: E402

from memory_agent.core.facts import Fact, Source  # noqa: E402
from memory_agent.core.kinds import FACT_KINDS  # noqa: E402
from memory_agent.memory.lexical import tokenize  # noqa: E402
from memory_agent.memory.retrieval import RetrievalConfig, rank  # noqa: E402
from memory_agent.models.embeddings import load_embedder  # noqa: E402
from memory_agent.stores.chroma_store import ChromaFactIndex, _metadata, make_chroma_client  # noqa: E402
from memory_agent.stores.long_term import LongTermMemory  # noqa: E402
from memory_agent.stores.sql.ledger import SQLFactLedger  # noqa: E402

DIM = 384
NOW = datetime(2025, 6, 1, tzinfo=UTC)

SUBJECTS = ["Postgres", "Rust", "Python", "Kubernetes", "the cello", "tennis", "Munich", "Berlin", "vegetarian food",
            "green tea", "dark mode", "TypeScript", "a cat named Miso", "hiking", "jazz", "Go", "SQLite", "Lisbon",
            "sourdough bread", "chess", "Vim", "Terraform", "climbing", "Spanish", "photography"]
TEMPLATES = ["The user likes {}.", "The user works with {}.", "The user's current project uses {}.",
             "The user decided to learn more about {}.", "The user often talks about {}."]
QUERIES = [
    "Which database should my backend use?", "Plan a dinner for four friends on Saturday.",
    "Recommend a programming language for a CLI tool.", "What should I do this weekend?",
    "Suggest some music for working late.", "How do I deploy my service to the cloud?",
    "Which editor settings would suit me?", "Plan a trip for my next holiday.",
    "What should I drink in the afternoon?", "Suggest a hobby I could pick up.",
    "Help me write a migration script.", "What gift should I buy for my sister?",
    "How can I speed up my test suite?", "Where should I live next year?", "What can I cook tonight?",
    "Recommend a book about systems design.", "Which language should I learn next?",
    "How do I take better photos at night?", "Plan my training for a mountain tour.",
    "What do you remember about my pets?",
]


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0–100) of ``values`` (linear interpolation)."""
    return float(np.percentile(np.asarray(values), q))


def summary(seconds: list[float]) -> dict[str, float]:
    """Median / p95 / mean / min / max in milliseconds."""
    ms = [s * 1000.0 for s in seconds]
    return {"median_ms": round(statistics.median(ms), 3), "p95_ms": round(percentile(ms, 95), 3),
            "mean_ms": round(statistics.fmean(ms), 3), "min_ms": round(min(ms), 3), "max_ms": round(max(ms), 3),
            "n": len(ms)}


def random_unit(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` random unit vectors of dimension 384 (float32)."""
    v = rng.standard_normal((n, DIM)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v


def make_fact(user_id: str, i: int, content: str, topic: str, rng: np.random.Generator) -> Fact:
    """A confirmed fact with plausible provenance and times spread over the last 180 days."""
    at = NOW - timedelta(days=float(rng.uniform(0, 180)))
    return Fact(id=f"f_{i:07d}", user_id=user_id, kind=FACT_KINDS[i % len(FACT_KINDS)], content=content, topic=topic,
                source=Source(thread_id=f"t_{i % 97}", message_ids=[f"m_{i}"]), evidence=content,
                importance=float(rng.uniform(0.2, 0.9)), created_at=at, updated_at=at)


def user_sizes(users: int, facts_per_user: int, target_facts: int) -> list[int]:
    """Facts per user: the target (index 0) gets ``target_facts``, the others share the rest evenly."""
    total = users * facts_per_user
    others = max(total - target_facts, 0)
    base, extra = divmod(others, users - 1) if users > 1 else (0, 0)
    return [target_facts] + [base + (1 if j < extra else 0) for j in range(users - 1)]


def fill(args, index: ChromaFactIndex, embedder, rng,
         ledger: SQLFactLedger | None = None) -> tuple[list[str], list, np.ndarray, list[int]]:
    """Write every user's facts (per-user collections, and the ledger rows reads rank: vector and
    lexical tokens with each fact); returns user ids, facts, vectors and sizes."""
    sizes = user_sizes(args.users, args.facts_per_user, args.target_facts)
    users = [f"bench-user-{j:05d}@example.com" for j in range(args.users)]
    total = sum(sizes)
    facts: list[Fact] = []
    vectors = random_unit(rng, total)
    # real, MiniLM-embedded sentences for the first --real-facts facts of the target user
    real = min(args.real_facts, sizes[0])
    sentences = [TEMPLATES[k % len(TEMPLATES)].format(SUBJECTS[(k * 7) % len(SUBJECTS)]) + f" (note {k})"
                 for k in range(real)]
    t0 = time.perf_counter()
    if real:
        vectors[:real] = np.asarray(embedder.embeddings.embed_documents(
            [f"topic {k % 13}: {s}" for k, s in enumerate(sentences)]), dtype=np.float32)
    print(f"  embedded {real} real facts of the target user with MiniLM in {time.perf_counter() - t0:.1f} s")

    t0 = time.perf_counter()
    pos = 0
    pending_facts: list[Fact] = []
    pending_vecs: list[np.ndarray] = []
    pending_user: str | None = None
    written = 0

    def flush() -> None:
        nonlocal written, pending_facts, pending_vecs
        if pending_facts:
            if ledger is not None:
                ledger.save_facts(pending_facts, np.vstack(pending_vecs),
                                  [tokenize(f.index_text) for f in pending_facts], embedder.name)
            index.upsert(pending_user, pending_facts, np.vstack(pending_vecs).tolist())
            written += len(pending_facts)
            pending_facts, pending_vecs = [], []

    for j, (user, n) in enumerate(zip(users, sizes, strict=True)):
        for k in range(n):
            content = sentences[k] if (j == 0 and k < real) else f"Synthetic fact {k} of user {j}."
            fact = make_fact(user, pos, content, f"topic {k % 13}", rng)
            facts.append(fact)
            if pending_user != user or len(pending_facts) >= args.batch:
                flush()
                pending_user = user
            pending_facts.append(fact)
            pending_vecs.append(vectors[pos:pos + 1])
            pos += 1
        flush()
        if (j + 1) % max(1, args.users // 10) == 0 or j + 1 == args.users:
            rate = written / max(time.perf_counter() - t0, 1e-9)
            print(f"  per-user collections: {j + 1:>6,}/{args.users:,} users, {written:>8,} facts "
                  f"({rate:,.0f} facts/s)", flush=True)
    return users, facts, vectors, sizes


def fill_shared(args, client, facts: list[Fact], vectors: np.ndarray):
    """One collection holding every fact, with ``user_id`` in the metadata (the layout the template avoids)."""
    col = client.get_or_create_collection("bench_shared_all_users", embedding_function=None,
                                          metadata={"embedder": "random-unit-384", "dimension": DIM},
                                          configuration={"hnsw": {"space": "cosine"}})
    t0 = time.perf_counter()
    for start in range(0, len(facts), args.batch):
        chunk = facts[start:start + args.batch]
        col.upsert(ids=[f"{f.user_id}:{f.id}" for f in chunk],
                   embeddings=vectors[start:start + len(chunk)].tolist(),
                   documents=[f.index_text for f in chunk],
                   metadatas=[{**_metadata(f), "user_id": f.user_id} for f in chunk])
        done = start + len(chunk)
        if (done // args.batch) % 5 == 0 or done == len(facts):
            print(f"  shared collection: {done:>8,}/{len(facts):,} facts "
                  f"({done / max(time.perf_counter() - t0, 1e-9):,.0f} facts/s)", flush=True)
    return col


def time_per_user(memory: LongTermMemory, user: str, queries: list[str], args) -> dict:
    """Time ``retrieve`` end to end, and separately embed vs Chroma query + rank, on varied queries."""
    config = memory.retrieval
    for q in queries[: args.warmup]:
        memory.retrieve(user, q, NOW)
    total, embed, query_rank, hits = [], [], [], []
    for r in range(args.repeats):
        q = queries[r % len(queries)]
        t0 = time.perf_counter()
        scored = memory.retrieve(user, q, NOW)
        t1 = time.perf_counter()
        vec = memory.embeddings.embed_query(q)
        t2 = time.perf_counter()
        rank(memory.index.query(user, vec, config.candidates), NOW, config)
        t3 = time.perf_counter()
        total.append(t1 - t0)
        embed.append(t2 - t1)
        query_rank.append(t3 - t2)
        hits.append(len(scored))
    return {"retrieve": summary(total), "embed_query": summary(embed), "query_and_rank": summary(query_rank),
            "mean_hits": round(statistics.fmean(hits), 2)}


def time_shared(col, memory: LongTermMemory, user: str, queries: list[str], args) -> dict:
    """Time the same retrieval on the shared collection with ``where={"user_id": user}`` (query + rank)."""
    config = memory.retrieval
    vecs = [memory.embeddings.embed_query(q) for q in queries]

    def one(vec):
        res = col.query(query_embeddings=[vec], n_results=config.candidates, where={"user_id": user},
                        include=["metadatas", "distances"])
        cands = [(Fact.model_validate_json(m["fact"]), float(d))
                 for m, d in zip(res["metadatas"][0], res["distances"][0], strict=True)]
        assert all(f.user_id == user for f, _ in cands)
        return rank(cands, NOW, config)

    for k in range(args.warmup):
        one(vecs[k % len(vecs)])
    times = []
    for r in range(args.repeats):
        t0 = time.perf_counter()
        one(vecs[r % len(vecs)])
        times.append(time.perf_counter() - t0)
    return {"query_and_rank": summary(times)}


def machine() -> dict:
    """CPU count, RAM, platform and library versions."""
    mem_gb = None
    try:
        with open("/proc/meminfo") as f:
            mem_gb = round(int(f.readline().split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "ram_gb": mem_gb,
            "load_average_1m_at_start": round(os.getloadavg()[0], 2), "platform": platform.platform(),
            "python": platform.python_version(), "chromadb": chromadb.__version__, "numpy": np.__version__}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=1000, help="number of users (collections)")
    parser.add_argument("--facts-per-user", type=int, default=100, help="average facts per user")
    parser.add_argument("--target-facts", type=int, default=1000, help="facts of the measured user")
    parser.add_argument("--real-facts", type=int, default=50,
                        help="target-user facts that are real MiniLM-embedded sentences (rest: random vectors)")
    parser.add_argument("--repeats", type=int, default=200, help="timed runs per measurement")
    parser.add_argument("--warmup", type=int, default=20, help="untimed runs first")
    parser.add_argument("--batch", type=int, default=5000, help="upsert batch size (per collection)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dir", type=Path, default=None, help="folder for the Chroma files (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the Chroma folder afterwards")
    parser.add_argument("--skip-shared", action="store_true", help="skip the shared-collection contrast")
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON here")
    parser.add_argument("--chroma-url", default=None, help="a Chroma server instead of an embedded folder")
    args = parser.parse_args(argv)
    if args.users < 1 or args.target_facts < 1 or args.repeats < 1:
        parser.error("--users, --target-facts and --repeats must be at least 1")

    info = machine()
    print(f"machine: {info['cpus']} CPUs, {info['ram_gb']} GB RAM, {info['platform']}, "
          f"python {info['python']}, chromadb {info['chromadb']}")
    print(f"stored vectors: random unit vectors of dimension {DIM} (except {args.real_facts} real MiniLM facts "
          "of the target user); queries: embedded with the real all-MiniLM-L6-v2 on CPU")
    rng = np.random.default_rng(args.seed)
    folder = args.dir or Path(tempfile.mkdtemp(prefix="memory-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    embedder = load_embedder("minilm")
    embedder.embeddings.embed_query("warm up")
    print(f"loaded MiniLM in {time.perf_counter() - t0:.1f} s; Chroma folder: {folder}")
    try:
        server_db = f"bench_{os.getpid()}" if args.chroma_url else "default_database"
        client = make_chroma_client(path=str(folder / "chroma"), url=args.chroma_url, database=server_db)
        index = ChromaFactIndex(client, embedder.name, embedder.dimension)
        ledger = SQLFactLedger(folder / "ledger.sqlite")
        memory = LongTermMemory(index, ledger, embedder.embeddings, RetrievalConfig())

        t0 = time.perf_counter()
        users, facts, vectors, sizes = fill(args, index, embedder, rng, ledger)
        fill_s = time.perf_counter() - t0
        target, typical = users[0], users[-1]
        print(f"filled {len(facts):,} facts for {len(users):,} users in {fill_s:.1f} s; "
              f"target user {target!r} holds {sizes[0]:,} facts, a typical user {sizes[-1]:,}")

        queries = QUERIES
        print(f"timing retrieve() for the target user: {args.warmup} warm-up + {args.repeats} runs, "
              f"{len(queries)} distinct queries ...")
        per_user = time_per_user(memory, target, queries, args)
        per_user_typical = time_per_user(memory, typical, queries, args)

        result = {
            "machine": info, "chroma": f"server {args.chroma_url}" if args.chroma_url else "embedded folder",
            "vectors": f"random unit vectors, dimension {DIM} ({args.real_facts} real MiniLM facts for the target)",
            "users": len(users), "facts_total": len(facts), "target_user_facts": sizes[0],
            "typical_user_facts": sizes[-1], "fill_seconds": round(fill_s, 1), "repeats": args.repeats,
            "per_user_collection": per_user, "per_user_collection_typical_user": per_user_typical,
        }
        if not args.skip_shared:
            t0 = time.perf_counter()
            col = fill_shared(args, client, facts, vectors)
            result["shared_fill_seconds"] = round(time.perf_counter() - t0, 1)
            print(f"timing the shared collection with where={{'user_id': ...}}: {args.repeats} runs ...")
            result["shared_collection_where"] = time_shared(col, memory, target, queries, args)
            result["shared_collection_where_typical_user"] = time_shared(col, memory, typical, queries, args)
        ledger.close()
        if args.chroma_url:
            _delete_server_database(args.chroma_url, server_db)
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)

    report(result)
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))
        print(f"wrote {args.out}")
    return result


def _delete_server_database(url: str, name: str) -> None:
    from urllib.parse import urlparse

    u = urlparse(url)
    chromadb.AdminClient(chromadb.config.Settings(
        anonymized_telemetry=False, chroma_api_impl="chromadb.api.fastapi.FastAPI",
        chroma_server_host=u.hostname, chroma_server_http_port=u.port)).delete_database(name)


def report(r: dict) -> None:
    """Print the figures."""
    def line(label: str, s: dict) -> str:
        return f"  {label:<44} median {s['median_ms']:>8.2f} ms   p95 {s['p95_ms']:>8.2f} ms"

    print()
    print(f"load average (1 min) at start {r['machine']['load_average_1m_at_start']}, at end "
          f"{os.getloadavg()[0]:.2f} on {r['machine']['cpus']} CPUs (other work on the machine slows every figure)")
    print(f"sizes: {r['users']:,} users, {r['facts_total']:,} facts total, target user {r['target_user_facts']:,} "
          f"facts, typical user {r['typical_user_facts']:,} facts; {r['repeats']} timed runs each")
    print(f"stored vectors: {r['vectors']}; Chroma: {r['chroma']}")
    pu = r["per_user_collection"]
    print("one collection per user (the template):")
    print(line("retrieve() end to end, target user", pu["retrieve"]))
    print(line("  of which: embed the query (MiniLM, CPU)", pu["embed_query"]))
    print(line("  of which: Chroma query + rank", pu["query_and_rank"]))
    print(f"  injected facts per query (mean): {pu['mean_hits']}")
    pt = r["per_user_collection_typical_user"]
    print(line("retrieve() end to end, typical user", pt["retrieve"]))
    print(line("  of which: Chroma query + rank", pt["query_and_rank"]))
    if "shared_collection_where" in r:
        print("one shared collection, where={'user_id': ...} (for contrast):")
        print(line("Chroma query + rank, target user", r["shared_collection_where"]["query_and_rank"]))
        print(line("Chroma query + rank, typical user", r["shared_collection_where_typical_user"]["query_and_rank"]))


if __name__ == "__main__":
    main()
