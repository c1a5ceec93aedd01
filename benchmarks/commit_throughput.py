"""Commit throughput: approved facts written per second by ``LongTermMemory.apply`` (what the
``commit`` node runs per decision), real MiniLM embedding included.

Each write is the full path of an approved ADD: commit-journal row, ledger row, MiniLM embedding of
the fact (CPU), Chroma upsert, audit row, journal row removed. Every fact is a distinct sentence, so
nothing is served from the embedding cache.

Configurations:

- ``embedded``: SQLite + Chroma on disk, one process (the embedded stores serve one process);
- ``server``: Postgres + a Chroma server, 1 process and ``--processes`` processes (default 8) at once,
  each writing for its own users. The processes load MiniLM first and start writing together
  (a barrier), so the figure is write throughput, not start-up.

Reports facts per second (total facts / wall seconds of the writing phase) and the median / p95 of
one ``apply`` in ms. Makes its own Postgres database and Chroma database and drops them.

Usage::

    python benchmarks/commit_throughput.py --chroma-url http://127.0.0.1:8000 [--facts 400] [--processes 8]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORDS = ["Postgres", "Rust", "tennis", "Lisbon", "green tea", "the cello", "chess", "Vim", "jazz", "hiking",
         "sourdough", "Spanish", "climbing", "photography", "Kubernetes", "sailing", "pottery", "Go"]


def proposals(worker: int, n: int):
    from memory_agent.core.facts import Proposal, Source

    out = []
    for i in range(n):
        a, b = WORDS[i % len(WORDS)], WORDS[(i * 7 + worker) % len(WORDS)]
        content = f"The user talked about {a} and {b} in note {worker}-{i}."
        out.append(Proposal(id=f"p_w{worker}_{i}_{uuid.uuid4().hex[:8]}", operation="ADD", kind="fact",
                            content=content, topic=a, source=Source(thread_id=f"bench{worker}", message_ids=[f"m{i}"]),
                            evidence=content))
    return out


def writer(worker: int, n: int, settings_kwargs: dict, barrier, out_path: str) -> None:
    """Open the stores, embed once to load MiniLM, wait for the others, then apply ``n`` decisions."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from memory_agent.app.agent import MemoryAgent
    from memory_agent.app.settings import Settings
    from memory_agent.models.offline.chat_model import OfflineChatModel

    with MemoryAgent.open(Settings(**settings_kwargs), model=OfflineChatModel()) as agent:
        memory = agent.memory
        memory.embeddings.embed_query("warm up")
        items = proposals(worker, n)
        now = datetime.now(UTC)
        if barrier is not None:
            barrier.wait()
        times = []
        t0 = time.perf_counter()
        for k, p in enumerate(items):
            t = time.perf_counter()
            memory.apply(f"bench-user-{worker}-{k % 10}", p, "approve", now, "bench")
            times.append(time.perf_counter() - t)
        wall = time.perf_counter() - t0
    Path(out_path).write_text(json.dumps({"start": t0, "wall": wall, "times": times}))


def run(label: str, processes: int, n_per_process: int, settings_kwargs: dict) -> dict:
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(processes) if processes > 1 else None
    folder = Path(tempfile.mkdtemp(prefix="commit-bench-"))
    try:
        procs = [ctx.Process(target=writer,
                             args=(w, n_per_process, settings_kwargs, barrier, str(folder / f"{w}.json")))
                 for w in range(processes)]
        for p in procs:
            p.start()
        for p in procs:
            p.join()
        if any(p.exitcode != 0 for p in procs):
            raise SystemExit(f"{label}: a writer failed ({[p.exitcode for p in procs]})")
        parts = [json.loads((folder / f"{w}.json").read_text()) for w in range(processes)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    wall = max(p["start"] + p["wall"] for p in parts) - min(p["start"] for p in parts)
    times = sorted(t * 1000 for p in parts for t in p["times"])
    result = {"config": label, "processes": processes, "facts": len(times), "wall_s": round(wall, 2),
              "facts_per_s": round(len(times) / wall, 1), "apply_median_ms": round(statistics.median(times), 1),
              "apply_p95_ms": round(times[int(0.95 * (len(times) - 1))], 1)}
    print(f"  {label:<34} {processes} proc  {result['facts']:>5} facts in {result['wall_s']:>7.1f} s  "
          f"= {result['facts_per_s']:>6.1f} facts/s   one apply: median {result['apply_median_ms']} ms, "
          f"p95 {result['apply_p95_ms']} ms", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chroma-url", default=os.environ.get("MEMORY_AGENT_TEST_CHROMA_URL"))
    parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1:5432/postgres",
                        help="a database to connect to for creating and dropping this run's database")
    parser.add_argument("--facts", type=int, default=400, help="facts written per configuration")
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if not args.chroma_url:
        parser.error("give --chroma-url: a running `chroma run` server")
    import psycopg

    print(f"machine: {os.cpu_count()} CPUs, load average (1 min) {os.getloadavg()[0]:.2f}; MiniLM on CPU; "
          "every fact a distinct sentence (no cache hits)")
    name = f"memory_agent_bench_{os.getpid()}"
    admin = psycopg.connect(args.database_url, autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    data = Path(tempfile.mkdtemp(prefix="commit-bench-data-"))
    results = []
    try:
        server = {"data_dir": str(data / "unused"), "database_url": f"{args.database_url.rsplit('/', 1)[0]}/{name}",
                  "chroma_url": args.chroma_url, "chroma_database": name, "postgres_pool_size": 2}
        results.append(run("embedded (SQLite + Chroma folder)", 1, args.facts, {"data_dir": str(data / "embedded")}))
        results.append(run("server (Postgres + Chroma server)", 1, args.facts, server))
        results.append(run("server (Postgres + Chroma server)", args.processes, args.facts // args.processes, server))
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        shutil.rmtree(data, ignore_errors=True)
        try:
            from urllib.parse import urlparse

            import chromadb

            u = urlparse(args.chroma_url)
            chromadb.AdminClient(chromadb.config.Settings(
                anonymized_telemetry=False, chroma_api_impl="chromadb.api.fastapi.FastAPI",
                chroma_server_host=u.hostname, chroma_server_http_port=u.port)).delete_database(name)
        except Exception as exc:
            print(f"note: could not delete the Chroma database {name}: {exc}")
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.2f}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
