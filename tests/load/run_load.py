"""Load check: several agent processes share Postgres and a Chroma server; afterwards nothing is lost,
nothing is written twice and nothing sits under a user who did not say it.

Default: 8 worker processes, 20 users, 50 turns per user (1,000 turns), auto-approve
(``approval="never"``), the offline rule-based model (not a language model) and the real MiniLM
embedder. Turn ``k`` of user ``u`` goes to worker ``(50·u + k) mod 8`` on thread ``u<u>-w<worker>``,
so every user is served by several processes at once; a fifth of the messages move the user to a
new city (an UPDATE that supersedes the old fact, racing with the other workers' turns of that user).
Every message of user ``u`` carries the tag ``zq<u>``.

Checks, run on the stores themselves after all workers stop:

1. every turn finished (no error), every thread's transcript holds 2 messages per turn sent to it;
2. every approved fact the workers reported is in the ledger exactly once, under its user;
3. every approved ADD/UPDATE audit row names a ledger fact of the same user, one audit row per
   approved proposal, and no ledger fact lacks its audit row;
4. the live facts in Chroma (every collection of the database) are exactly the ledger's confirmed
   facts, each in one collection only, the collection of its user, and each carries only that
   user's tag (a scan for facts under a user who never said them);
5. the commit journal is empty (no half-written decision).

It is a script, not a pytest test, because it takes minutes on 2 cores; ``.ci/run`` runs it after
``make test``. It makes its own Postgres database and Chroma database and drops both at the end.

Usage::

    python tests/load/run_load.py --chroma-url http://127.0.0.1:8000 \
        [--database-url postgresql://postgres@127.0.0.1:5432/postgres] [--workers 8 --users 20 --turns 50]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import sys
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

CITIES = ["Oslo", "Bergen", "Lisbon", "Porto", "Munich", "Vienna", "Zurich", "Madrid", "Dublin", "Leeds"]


def tag(u: int) -> str:
    """The marker every message (and so every fact) of user ``u`` carries."""
    return f"zq{u:02d}"


def message(u: int, k: int) -> str:
    """Turn ``k`` of user ``u``: a new fact most of the time, a move (UPDATE) or a question otherwise."""
    t = tag(u)
    kind = k % 10
    if kind in (0, 5):
        return f"I now live in {CITIES[(u + k) % len(CITIES)]} {t}."
    if kind == 9:
        return f"What do you remember about my pets {t}?"
    return [f"I have a dog named Rex{t}k{k}.", f"My favourite colour is teal{t}k{k}.",
            f"I play the cello{t}k{k}.", f"I drink green tea{t}k{k} every morning.",
            f"I work as a baker{t}k{k}.", f"My sister is called Mia{t}k{k}.",
            f"I like hiking in Norway{t}k{k}."][kind % 7]


def settings_for(args, worker: bool):
    from memory_agent.app.settings import Settings

    return Settings(data_dir="/nonexistent-unused", database_url=args.db_url, chroma_url=args.chroma_url,
                    chroma_database=args.chroma_database, approval="never",
                    postgres_pool_size=2 if worker else 4, postgres_timeout=30)


def worker_main(w: int, items: list[tuple[int, int]], args, out_path: str) -> None:
    """Run this worker's turns in order; write what happened to ``out_path`` (JSON)."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from memory_agent.app.agent import MemoryAgent
    from memory_agent.models.offline.chat_model import OfflineChatModel

    report = {"worker": w, "turns": [], "errors": []}
    with MemoryAgent.open(settings_for(args, True), model=OfflineChatModel()) as agent:
        t0 = time.perf_counter()
        for u, k in items:
            thread = f"u{u}-w{w}"
            try:
                r = agent.turn(f"user-{u:02d}", message(u, k), thread_id=thread, approval="never")
                report["turns"].append({"user": u, "k": k, "thread": thread, "committed": r.committed,
                                        "pending": len(r.pending)})
            except Exception as exc:  # reported and counted as a failure by the parent
                import traceback

                report["errors"].append({"user": u, "k": k, "thread": thread, "error": f"{type(exc).__name__}: {exc}",
                                         "where": traceback.format_exc()[-1500:]})
                if agent.unfinished(f"user-{u:02d}", thread):  # as the chat does: finish it, go on
                    agent.finish_interrupted(f"user-{u:02d}", thread)
        report["seconds"] = time.perf_counter() - t0
    Path(out_path).write_text(json.dumps(report))


def verify(args, reports: list[dict]) -> list[str]:
    """The checks of the module docstring; returns the problems found (empty = all good)."""
    from memory_agent.app.agent import MemoryAgent
    from memory_agent.core.facts import Fact
    from memory_agent.models.offline.chat_model import OfflineChatModel

    problems: list[str] = []
    errors = [e for r in reports for e in r["errors"]]
    if errors:
        problems.append(f"{len(errors)} turns failed, e.g. {errors[:3]}")
    if any(t["pending"] for r in reports for t in r["turns"]):
        problems.append("a turn stopped at an approval under approval='never'")

    approved: dict[str, int] = {}  # fact id -> user, for approved ADD/UPDATE reported by the workers
    approved_proposals: set[str] = set()
    per_thread: Counter = Counter()
    for r in reports:
        for e in r["errors"]:  # a failed turn is finished by the worker, so its messages are there too
            per_thread[(e["user"], e["thread"])] += 1
        for t in r["turns"]:
            per_thread[(t["user"], t["thread"])] += 1
            for c in t["committed"]:
                if c["action"] in ("approve", "edit") and c["operation"] in ("ADD", "UPDATE"):
                    approved[c["fact_id"]] = t["user"]
                    approved_proposals.add(c["proposal_id"])

    with MemoryAgent.open(settings_for(args, False), model=OfflineChatModel()) as agent:
        ledger, client = agent.memory.ledger, agent.memory.index.client
        for (u, thread), n in per_thread.items():
            got = len(agent.transcript(f"user-{u:02d}", thread))
            if got != 2 * n:
                problems.append(f"thread {thread} holds {got} messages, expected {2 * n}")
        ledger_facts: dict[str, Fact] = {}
        for u in range(args.users):
            for f in ledger.facts(f"user-{u:02d}"):
                if f.id in ledger_facts:
                    problems.append(f"fact {f.id} is in the ledger twice")
                ledger_facts[f.id] = f
        dupes = ledger._rows("SELECT id, COUNT(*) FROM facts GROUP BY id HAVING COUNT(*) > 1")
        if dupes:
            problems.append(f"{len(dupes)} fact ids appear more than once in the ledger")
        for fid, u in approved.items():
            f = ledger_facts.get(fid)
            if f is None:
                problems.append(f"approved fact {fid} of user {u} is missing from the ledger")
            elif f.user_id != f"user-{u:02d}":
                problems.append(f"approved fact {fid} is under {f.user_id}, told by user-{u:02d}")
        if set(ledger_facts) != set(approved):
            problems.append(f"ledger facts {len(ledger_facts)} != approved facts {len(approved)}")

        audit_proposals: set[str] = set()
        for u in range(args.users):
            user = f"user-{u:02d}"
            for row in ledger.audit_rows(user):
                if row["decision"] not in ("approved", "edited") or row["operation"] not in ("ADD", "UPDATE"):
                    continue
                audit_proposals.add(row["id"].removeprefix("a_"))
                f = ledger_facts.get(row["fact_id"])
                if f is None or f.user_id != user:
                    problems.append(f"audit row {row['id']} of {user} names fact {row['fact_id']} not of that user")
        if audit_proposals != approved_proposals:
            problems.append(f"approved audit rows {len(audit_proposals)} != approved proposals "
                            f"{len(approved_proposals)}")
        audited_facts = {"f_" + p.removeprefix("p_") for p in audit_proposals}
        if set(ledger_facts) - audited_facts:
            problems.append(f"{len(set(ledger_facts) - audited_facts)} ledger facts have no audit row")

        seen: Counter = Counter()
        live: set[str] = set()
        tags = {tag(u) for u in range(args.users)}
        for col in client.list_collections():
            owner = (col.metadata or {}).get("user_id")
            res = client.get_collection(col.name, embedding_function=None).get(include=["metadatas"])
            for fid, meta in zip(res["ids"], res["metadatas"], strict=True):
                seen[fid] += 1
                live.add(fid)
                fact = Fact.model_validate_json(meta["fact"])
                u = int(owner.removeprefix("user-"))
                if fact.user_id != owner:
                    problems.append(f"fact {fid} of {fact.user_id} is in the collection of {owner}")
                wrong = {t for t in tags if t in fact.content or t in fact.evidence} - {tag(u)}
                if wrong or tag(u) not in fact.evidence:
                    problems.append(f"fact {fid} under {owner} was not told by {owner}: {fact.content!r}")
        if any(n > 1 for n in seen.values()):
            problems.append(f"{sum(n > 1 for n in seen.values())} facts are live in more than one place")
        confirmed = {i for i, f in ledger_facts.items() if f.status == "confirmed"}
        if live != confirmed:
            problems.append(f"live facts {len(live)} != confirmed ledger facts {len(confirmed)} "
                            f"(only live {len(live - confirmed)}, only confirmed {len(confirmed - live)})")
        if ledger.journal_open():
            problems.append(f"{len(ledger.journal_open())} decisions left half-written in the journal")
        statuses = Counter(f.status for f in ledger_facts.values())
        print(f"stores: {len(ledger_facts)} facts in the ledger {dict(statuses)}, {len(live)} live in "
              f"{len(client.list_collections())} collections, {len(audit_proposals)} approved audit rows")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chroma-url", default=os.environ.get("MEMORY_AGENT_TEST_CHROMA_URL"))
    parser.add_argument("--database-url", default=os.environ.get(
        "MEMORY_AGENT_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres"),
        help="a database to connect to for creating (and at the end dropping) this run's database")
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--turns", type=int, default=50, help="turns per user")
    args = parser.parse_args()
    if not args.chroma_url:
        parser.error("give --chroma-url (or MEMORY_AGENT_TEST_CHROMA_URL): a running `chroma run` server")
    import psycopg

    run = f"memory_agent_load_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    args.db_url = f"{args.database_url.rsplit('/', 1)[0]}/{run}"
    args.chroma_database = run
    admin = psycopg.connect(args.database_url, autocommit=True)
    admin.execute(f'CREATE DATABASE "{run}"')
    try:
        from memory_agent.app.agent import MemoryAgent
        from memory_agent.models.offline.chat_model import OfflineChatModel

        MemoryAgent.open(settings_for(args, False), model=OfflineChatModel()).close()  # setup() once, here

        plan: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for k in range(args.turns):
            for u in range(args.users):
                plan[(args.turns * u + k) % args.workers].append((u, k))
        ctx = mp.get_context("spawn")
        out_dir = Path(f"/tmp/{run}")
        out_dir.mkdir()
        t0 = time.perf_counter()
        procs = [ctx.Process(target=worker_main, args=(w, plan[w], args, str(out_dir / f"w{w}.json")))
                 for w in range(args.workers)]
        for p in procs:
            p.start()
        for p in procs:
            p.join()
        wall = time.perf_counter() - t0
        if any(p.exitcode != 0 for p in procs):
            print(f"FAIL: worker exit codes {[p.exitcode for p in procs]}")
            return 1
        reports = [json.loads((out_dir / f"w{w}.json").read_text()) for w in range(args.workers)]
        turns = sum(len(r["turns"]) for r in reports)
        writes = sum(1 for r in reports for t in r["turns"] for c in t["committed"] if c["written"])
        print(f"load: {args.workers} processes, {args.users} users x {args.turns} turns = {turns} turns in "
              f"{wall:.1f} s wall ({turns / wall:.1f} turns/s, including each process loading MiniLM); "
              f"{writes} committed decisions; turns alone took {max(r['seconds'] for r in reports):.1f} s in the "
              f"slowest worker")
        problems = verify(args, reports)
        for p in problems:
            print("FAIL:", p)
        for e in (e for r in reports for e in r["errors"]):
            print(f"turn {e['k']} of user {e['user']} failed:\n{e['where']}")
        if not problems:
            print("OK: every approved fact present exactly once, audit rows match, no fact under a wrong user")
        return 1 if problems else 0
    finally:
        shutil.rmtree(f"/tmp/{run}", ignore_errors=True)
        admin.execute(f'DROP DATABASE IF EXISTS "{run}" WITH (FORCE)')
        admin.close()
        try:
            from urllib.parse import urlparse

            import chromadb

            u = urlparse(args.chroma_url)
            chromadb.AdminClient(chromadb.config.Settings(
                anonymized_telemetry=False, chroma_api_impl="chromadb.api.fastapi.FastAPI",
                chroma_server_host=u.hostname, chroma_server_http_port=u.port)).delete_database(run)
        except Exception as exc:  # best effort: an old server without delete_database
            print(f"note: could not delete the Chroma database {run}: {exc}")


if __name__ == "__main__":
    sys.exit(main())
