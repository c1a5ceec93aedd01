"""The read and write path at scale, side by side with LangGraph's ``SqliteStore`` (sqlite-vec).

    python benchmarks/scale.py --dir /tmp/scale [--facts 1000000] [--measured 10000] [--small 1000]
                               [--per-user 1000] [--queries 40] [--cold-users 20] [--no-sqlitestore]

Builds, in ``--dir`` (reused when already built with the same counts), one store of ``--facts`` facts:
filler users of ``--per-user`` facts each with random unit vectors (embedding 1M texts would take
hours on a small machine; latency does not depend on what the vectors say), plus one measured user
of ``--measured`` facts and one of ``--small`` facts whose texts and queries are embedded with the
project's embedder. The project's store is what ``MemoryAgent`` opens (the SQLite ledger and an
embedded Chroma folder); ``SqliteStore`` gets the same facts under namespace ``("memories", user_id)``
with the same vectors and the same embedder for queries.

Reported (median / p95 in ms): ``retrieve()`` warm (the whole call, query embedding included) and
cold (a user's first query in a fresh process whose embedder is already loaded), for the measured
user and for ``--cold-users`` filler users of ``--per-user`` facts; one ``commit`` of one fact
(``LongTermMemory.apply``, embedding excluded: the text is embedded before the clock starts), and a
``put`` in ``SqliteStore``; the fill rate; disk per fact; the peak RSS of the measuring process; the
machine's load average. Prints a Markdown table and writes ``results.json`` in ``--dir``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import numpy as np  # noqa: E402
from langchain_core.embeddings import Embeddings  # noqa: E402

T0 = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)
DIM = 384
NAMES = [
    "Ana", "Ben", "Chen", "Dara", "Eli", "Farah", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena", "Milo", "Nia", "Omar",
    "Pia", "Quinn", "Rosa", "Sami", "Tess",
]
VERBS = [
    "likes", "visited", "bought", "cooked", "painted", "fixed", "planned", "booked", "read", "watched", "sold",
    "learned", "wrote", "hiked",
]
THINGS = [
    "a red bicycle", "the old piano", "sourdough bread", "a trip to Lisbon", "a jazz concert", "the garden shed",
    "a chess set", "a rescue dog", "the kitchen sink", "a wool sweater", "a sci-fi novel", "a pottery class",
    "the marathon", "a Thai curry", "a camping tent", "the violin", "a vintage camera", "a coffee grinder",
    "the museum tour",
]
PLACES = [
    "Oslo", "Lisbon", "Kyoto", "Denver", "Lagos", "Lima", "Porto", "Tartu", "Austin", "Hanoi", "Quito", "Bergen",
    "Cork", "Perth",
]
QUESTIONS = [
    "What did {n} buy in {p}?", "Where did {n} go hiking?", "What does {n} like to cook?",
    "When did {n} visit {p}?", "What instrument does {n} play?", "Tell me about {n}'s dog.",
    "What did {n} read last month?", "Which trip did {n} plan?",
]
#: Requests about the user's own life: they ask for aspects (memory/aspects.py: food, home, leisure, work),
#: whose facts a first read must find among all of the user's.
PERSONAL = [
    "What should I cook for dinner tonight?", "Any day trips near home this weekend?",
    "Suggest something fun to do on my day off.", "Write a short bio for my work profile.",
    "What do I like to eat?",
]


def sentence(rng: random.Random, k: int) -> str:
    return (f"{rng.choice(NAMES)} {rng.choice(VERBS)} {rng.choice(THINGS)} in {rng.choice(PLACES)} "
            f"on day {k % 365}.")


def filler_vectors(user: int, n: int) -> np.ndarray:
    """Deterministic random unit vectors of a filler user (float32, ``(n, DIM)``)."""
    v = np.random.default_rng(user).standard_normal((n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def percentile(xs: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(xs), q)) if xs else float("nan")


def rss_mb() -> float:
    """Peak RSS of this process in MB: ``VmHWM`` (``ru_maxrss`` would carry the parent's peak over a fork)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def disk_mb(path: Path) -> float:
    if path.is_file():
        return path.stat().st_size / 2**20
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


# ---- the stores ---------------------------------------------------------------------------------
def open_memory(folder: Path, embedder):
    from memory_agent.stores.chroma_store import ChromaFactIndex, make_chroma_client
    from memory_agent.stores.long_term import LongTermMemory
    from memory_agent.stores.sql.ledger import SQLFactLedger

    index = ChromaFactIndex(make_chroma_client(path=str(folder / "chroma")), embedder.name, embedder.dimension)
    return LongTermMemory(index, SQLFactLedger(folder / "agent.sqlite"), embedder.embeddings)


class LookupEmbeddings(Embeddings):
    """``SqliteStore``'s embedder: stored texts get the vectors the project's store got (looked up by
    text), anything else (queries) is embedded by the project's embedder."""

    def __init__(self, real, known: dict[str, list[float]]):
        self.real, self.known = real, known

    def embed_documents(self, texts):
        missing = [t for t in texts if t not in self.known]
        got = dict(zip(missing, self.real.embed_documents(missing), strict=True)) if missing else {}
        return [self.known.get(t) or got[t] for t in texts]

    def embed_query(self, text):
        return self.known.get(text) or self.real.embed_query(text)


def open_sqlitestore(folder: Path, embeddings):
    from langgraph.store.sqlite import SqliteStore

    try:  # sqlite-vec is a loadable extension: a sqlite3 built with extension loading is needed
        from pysqlite3 import dbapi2 as sqlite_with_extensions
    except ImportError:
        sqlite_with_extensions = sqlite3
    conn = sqlite_with_extensions.connect(str(folder / "sqlitestore.sqlite"), check_same_thread=False,
                                          isolation_level=None)
    store = SqliteStore(conn, index={"dims": DIM, "embed": embeddings, "fields": ["text"]})
    store.setup()
    return store


# ---- build --------------------------------------------------------------------------------------
def build(folder: Path, args, embedder) -> dict:
    from langgraph.store.base import PutOp

    from memory_agent.core.facts import Fact, Source
    from memory_agent.memory.lexical import tokenize

    folder.mkdir(parents=True, exist_ok=True)
    memory = open_memory(folder, embedder)
    fillers = max(0, (args.facts - args.measured - args.small) // args.per_user)
    real_users = {"measured": args.measured, "small": args.small}
    rng = random.Random(7)
    real_texts = {u: [sentence(rng, k) + f" (#{u[0]}{k})" for k in range(n)] for u, n in real_users.items()}
    t = time.perf_counter()
    all_real = [s for u in real_users for s in real_texts[u]]
    real_vecs = np.asarray(embedder.embeddings.embed_documents(all_real), dtype=np.float32)
    embed_s = time.perf_counter() - t
    known: dict[str, list[float]] = {}
    store = None
    timing = {"project_s": 0.0, "sqlitestore_s": 0.0, "facts": 0}
    if not args.no_sqlitestore:
        store = open_sqlitestore(folder, LookupEmbeddings(embedder.embeddings, known))

    def load(user: str, texts: list[str], vecs: np.ndarray) -> None:
        facts = [Fact(id=f"f_{user}_{k}", user_id=user, kind="fact", content=s, topic="",
                      source=Source(thread_id=f"t_{user}_{k // 50}", message_ids=[f"m{k}"]), evidence=s,
                      importance=0.5, created_at=T0 + timedelta(minutes=k), updated_at=T0 + timedelta(minutes=k))
                 for k, s in enumerate(texts)]
        t = time.perf_counter()
        for start in range(0, len(facts), 1000):
            chunk, v = facts[start:start + 1000], vecs[start:start + 1000]
            memory.ledger.save_facts(chunk, v, [tokenize(f.index_text) for f in chunk], embedder.name)
            memory.index.upsert(user, chunk, v.tolist())
        timing["project_s"] += time.perf_counter() - t
        timing["facts"] += len(facts)
        if store is not None:
            known.clear()
            known.update(zip(texts, vecs.tolist(), strict=True))
            t = time.perf_counter()
            store.batch([PutOp(("memories", user), f.id, {"text": f.content}, index=["text"]) for f in facts])
            timing["sqlitestore_s"] += time.perf_counter() - t

    offset = 0
    for u, n in real_users.items():
        load(u, real_texts[u], real_vecs[offset:offset + n])
        offset += n
    for i in range(fillers):
        r = random.Random(i)
        load(f"filler{i:05d}", [sentence(r, k) + f" (#{i}-{k})" for k in range(args.per_user)],
             filler_vectors(i, args.per_user))
        if i % 20 == 0:
            print(f"  built {timing['facts']:,} facts ({timing['project_s']:.0f} s project, "
                  f"{timing['sqlitestore_s']:.0f} s SqliteStore)", flush=True)
    meta = {"facts": timing["facts"], "fillers": fillers, "measured": args.measured, "small": args.small,
            "per_user": args.per_user, "embed_real_s": embed_s,
            "fill_project_facts_per_s": timing["facts"] / timing["project_s"],
            "fill_sqlitestore_facts_per_s": (timing["facts"] / timing["sqlitestore_s"]) if store else None}
    (folder / "built.json").write_text(json.dumps(meta, indent=1))
    return meta


# ---- measuring (each in a fresh process) ----------------------------------------------------------
def queries(n: int) -> list[str]:
    rng = random.Random(11)
    return [rng.choice(QUESTIONS).format(n=rng.choice(NAMES), p=rng.choice(PLACES)) for _ in range(n)]


def measure(folder: Path, system: str, users: list[str], warm: int, commits: int, personal: bool = False) -> dict:
    """In this (fresh) process: the first query of each user (cold), then ``warm`` more queries of the
    first user, then ``commits`` commits (project) or puts (SqliteStore). Queries are embedded before
    the clock starts for ``cold`` and ``warm_store`` (the store's part), and inside it for ``warm`` (the
    whole call); ``embed`` is the query embedding alone. ``personal``: the cold queries are requests about
    the user's own life (:data:`PERSONAL`)."""
    from memory_agent.models.embeddings import load_embedder

    embedder = load_embedder("minilm")
    real = embedder.embeddings
    qs = queries(max(warm, len(users)) + 1)
    if personal:
        qs = [PERSONAL[k % len(PERSONAL)] for k in range(len(users))] + qs[len(users):]
    known = {q: real.embed_query(q) for q in qs}
    embed = []
    for q in qs[:warm]:
        t = time.perf_counter()
        real.embed_query(q)
        embed.append((time.perf_counter() - t) * 1000)
    pre = LookupEmbeddings(real, known)
    now = T0 + timedelta(days=400)
    if system == "project":
        memory = open_memory(folder, embedder)

        def ask(user, q, embeddings):
            memory.embeddings = embeddings
            return memory.retrieve(user, q, now)
    else:
        store = open_sqlitestore(folder, real)

        def ask(user, q, embeddings):
            store.embeddings = embeddings
            return store.search(("memories", user), query=q, limit=5)

    def timed(user, q, embeddings) -> float:
        t = time.perf_counter()
        ask(user, q, embeddings)
        return (time.perf_counter() - t) * 1000

    cold = [timed(user, qs[k], pre) for k, user in enumerate(users)]
    whole, part = [], []
    for k in range(warm):
        whole.append(timed(users[0], qs[k + 1], real))
        part.append(timed(users[0], qs[k + 1], pre))
    writes, index_ms = [], []
    if system == "project":  # how much of a commit is the live index's (Chroma) write
        spent = [0.0]

        def clocked(call):
            def run(*a, **kw):
                t = time.perf_counter()
                try:
                    return call(*a, **kw)
                finally:
                    spent[0] += (time.perf_counter() - t) * 1000
            return run

        memory.index.upsert, memory.index.delete = clocked(memory.index.upsert), clocked(memory.index.delete)
    for k in range(commits):
        text = f"{NAMES[k % len(NAMES)]} adopted a cat named Pixel number {k} at {time.time_ns()}."
        vec = real.embed_documents([text])[0]
        if system == "project":
            from memory_agent.core.facts import Proposal, Source

            memory._embeddings_cache[(users[0], text)] = vec  # embedding excluded from the commit's time
            p = Proposal(id=f"p_bench{time.time_ns()}", operation="ADD", kind="fact", content=text,
                         source=Source(thread_id="bench", message_ids=["m"]), evidence=text)
            spent[0] = 0.0
            t = time.perf_counter()
            memory.apply(users[0], p, "approve", now, "user")
            index_ms.append(spent[0])
        else:
            store.embeddings = LookupEmbeddings(real, {text: vec})
            t = time.perf_counter()
            store.put(("memories", users[0]), f"bench{time.time_ns()}", {"text": text})
        writes.append((time.perf_counter() - t) * 1000)
    return {"cold": cold, "warm": whole, "warm_store": part, "embed": embed, "writes": writes,
            "writes_index": index_ms, "rss_mb": rss_mb()}


def run_child(folder: Path, system: str, users: list[str], warm: int, commits: int, personal: bool = False) -> dict:
    out = subprocess.run([sys.executable, __file__, "--dir", str(folder), "--child", system, "--warm", str(warm),
                          "--commits", str(commits), *(["--personal"] if personal else []), *users],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def chroma_log_rows(folder: Path) -> int | None:
    db = folder / "chroma" / "chroma.sqlite3"
    if not db.exists():
        return None
    conn = sqlite3.connect(str(db))
    try:
        return conn.execute("SELECT COUNT(*) FROM embeddings_queue").fetchone()[0]
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--measured", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--per-user", type=int, default=1_000)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--cold-users", type=int, default=20)
    parser.add_argument("--cold-runs", type=int, default=5, help="fresh processes for the measured user's cold query")
    parser.add_argument("--commits", type=int, default=20)
    parser.add_argument("--no-sqlitestore", action="store_true")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--child", choices=["project", "sqlitestore"])
    parser.add_argument("--warm", type=int, default=0)
    parser.add_argument("--personal", action="store_true", help="(child) cold queries about the user's own life")
    parser.add_argument("users", nargs="*")
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.dir, args.child, args.users, args.warm, args.commits, args.personal)))
        return 0

    from memory_agent.models.embeddings import load_embedder

    built = args.dir / "built.json"
    meta = json.loads(built.read_text()) if built.exists() and not args.rebuild else None
    if meta is None or meta["facts"] < args.facts - args.per_user:
        if args.dir.exists():
            shutil.rmtree(args.dir)
        meta = build(args.dir, args, load_embedder("minilm"))
    systems = ["project"] + ([] if args.no_sqlitestore or meta["fill_sqlitestore_facts_per_s"] is None
                             else ["sqlitestore"])
    fillers = [f"filler{i:05d}" for i in range(0, meta["fillers"], max(1, meta["fillers"] // args.cold_users))]
    fillers = fillers[: args.cold_users]
    results: dict = {"built": meta, "load_average": os.getloadavg(), "date": datetime.now(UTC).isoformat(),
                     "chroma_log_rows": chroma_log_rows(args.dir)}
    for system in systems:
        r10k = [run_child(args.dir, system, ["measured"], args.queries if k == 0 else 0,
                          args.commits if k == 0 else 0) for k in range(args.cold_runs)]
        personal = [run_child(args.dir, system, ["measured"], 0, 0, personal=True) for k in range(args.cold_runs)]
        r1k = run_child(args.dir, system, ["small", *fillers], args.queries, 0)
        results[system] = {
            "cold_10k": [x for r in r10k for x in r["cold"]],
            "cold_10k_personal": [x for r in personal for x in r["cold"]], "warm_10k": r10k[0]["warm"],
            "warm_store_10k": r10k[0]["warm_store"], "cold_1k": r1k["cold"], "warm_1k": r1k["warm"],
            "warm_store_1k": r1k["warm_store"], "embed": r10k[0]["embed"] + r1k["embed"], "writes": r10k[0]["writes"],
            "writes_index": r10k[0]["writes_index"] or [float("nan")],
            "rss_mb": max(r["rss_mb"] for r in [*r10k, r1k]),
        }
    results["disk_mb"] = {"project_ledger": disk_mb(args.dir / "agent.sqlite"),
                          "project_chroma": disk_mb(args.dir / "chroma"),
                          "sqlitestore": disk_mb(args.dir / "sqlitestore.sqlite")
                          if (args.dir / "sqlitestore.sqlite").exists() else None}
    (args.dir / "results.json").write_text(json.dumps(results, indent=1))
    print(table(results))
    return 0


def table(r: dict) -> str:
    def mp(xs):
        xs = [x for x in xs if x == x]  # nan: not measured for this system
        return f"{percentile(xs, 50):.1f} / {percentile(xs, 95):.1f}" if xs else "–"

    systems = [s for s in ("project", "sqlitestore") if s in r]
    b = r["built"]
    lines = [f"{b['facts']:,} facts, {b['fillers']} filler users of {b['per_user']:,} + measured users of "
             f"{b['measured']:,} and {b['small']:,}; load average {r['load_average'][0]:.2f}; {r['date'][:16]} UTC", "",
             "| ms, median / p95 | " + " | ".join(systems) + " |", "|---|" + "---|" * len(systems)]
    for key, label in (("embed", "embedding the query alone (same embedder on both sides)"),
                       ("warm_1k", f"warm retrieve, {b['per_user']:,} facts, whole call"),
                       ("warm_store_1k", f"warm retrieve, {b['per_user']:,} facts, query embedded before"),
                       ("warm_10k", f"warm retrieve, {b['measured']:,} facts, whole call"),
                       ("warm_store_10k", f"warm retrieve, {b['measured']:,} facts, query embedded before"),
                       ("cold_1k", f"first retrieve of a user in a process, {b['per_user']:,} facts, "
                                   "query embedded before"),
                       ("cold_10k", f"first retrieve in a fresh process, {b['measured']:,} facts, "
                                    "query embedded before"),
                       ("cold_10k_personal", "... the same, a request about the user's own life "
                                             "(\"What should I cook for dinner tonight?\")"),
                       ("writes", "one commit of one fact (project) / one put (SqliteStore), embedding excluded"),
                       ("writes_index", "... of which the live index's (Chroma) upsert")):
        lines.append(f"| {label} | " + " | ".join(mp(r[s].get(key, [])) for s in systems) + " |")
    d = r["disk_mb"]
    project_disk = d["project_ledger"] + d["project_chroma"]
    lines.append(f"| disk, MB (bytes per fact) | {project_disk:,.0f} (ledger {d['project_ledger']:,.0f} + Chroma "
                 f"{d['project_chroma']:,.0f}; {project_disk * 2**20 / b['facts']:,.0f} B/fact)"
                 + (f" | {d['sqlitestore']:,.0f} ({d['sqlitestore'] * 2**20 / b['facts']:,.0f} B/fact)"
                    if d["sqlitestore"] else "") + " |")
    lines.append("| fill rate, facts/s | " + f"{b['fill_project_facts_per_s']:,.0f}"
                 + (f" | {b['fill_sqlitestore_facts_per_s']:,.0f}" if b["fill_sqlitestore_facts_per_s"] else "")
                 + " |")
    lines.append("| peak RSS of the measuring process, MB | " + " | ".join(f"{r[s]['rss_mb']:,.0f}" for s in systems)
                 + " |")
    lines.append(f"\nChroma log (embeddings_queue) rows after the build: {r['chroma_log_rows']}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
