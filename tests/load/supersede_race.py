"""Concurrent supersedes of one slot: several writers at once tell the agent "I now live in <city k>" for one
user; afterwards exactly one fact says where the user lives, and the facts of that slot form a single
supersede chain (each fact superseded by at most one, no two facts superseding the same one, every fact of
the slot on the chain from the first to the live one).

- ``--backend server`` (default): ``--writers`` processes on Postgres and a Chroma server, each running
  ``--turns`` turns through the graph (the offline rule-based model, approval ``never``) on a thread of
  its own. It makes its own Postgres and Chroma databases and drops both at the end.
- ``--backend embedded``: ``--writers`` threads of one process on the embedded stores (a temporary data
  folder), each running ``--turns`` turns the same way.

The slot is seeded first ("I live in Oslo."), so every later turn is an update of the live fact; turn
``k`` of writer ``w`` names city ``(w * turns + k)`` of a list, so the writers keep changing it.
Prints the counts and exits 1 when the slot has more than one live fact or the chain forks.
``.ci/run`` runs it on small counts; ``tests/integration/test_concurrency.py`` too.

Usage::

    python tests/load/supersede_race.py [--backend server|embedded] [--writers 4] [--turns 30]
        [--chroma-url http://127.0.0.1:8000] [--database-url postgresql://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import shutil
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

USER = "mover@example.com"
CITIES = ["Bergen", "Lisbon", "Porto", "Munich", "Vienna", "Zurich", "Madrid", "Dublin", "Leeds", "Graz", "Turin",
          "Lyon", "Ghent", "Malmo", "Tartu", "Split", "Cork", "Basel", "Pisa", "Bonn"]


def city(w: int, k: int, turns: int) -> str:
    """The city of turn ``k`` of writer ``w`` (neighbouring turns never name the same city)."""
    return CITIES[(w * turns + k) % len(CITIES)]


def settings_for(args):
    from memory_agent.app.settings import Settings

    if args.backend == "embedded":
        return Settings(data_dir=args.data_dir, approval="never")
    return Settings(data_dir="/nonexistent-unused", database_url=args.db_url, chroma_url=args.chroma_url,
                    chroma_database=args.chroma_database, approval="never", postgres_pool_size=3,
                    postgres_timeout=30)


def writer(w: int, args, agent=None, start=None) -> list[str]:
    """Run writer ``w``'s turns (on ``agent``, or on an agent of its own), all writers starting together
    at the barrier ``start`` once their model is loaded; returns the errors."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from memory_agent.app.agent import MemoryAgent
    from memory_agent.models.offline.chat_model import OfflineChatModel

    own = agent is None
    agent = agent or MemoryAgent.open(settings_for(args), model=OfflineChatModel())
    errors = []
    if own:
        agent.memory.embeddings.embed_query("warm up")  # load the embedder before the race starts
    if start is not None:
        start.wait()
    try:
        for k in range(args.turns):
            try:
                agent.turn(USER, f"I now live in {city(w, k, args.turns)}.", thread_id=f"w{w}", approval="never")
            except Exception as exc:  # counted by the caller
                errors.append(f"writer {w} turn {k}: {type(exc).__name__}: {exc}")
                if agent.unfinished(USER, f"w{w}"):
                    agent.finish_interrupted(USER, f"w{w}")
    finally:
        if own:
            agent.close()
    return errors


def _process(w: int, args, out: str, start) -> None:
    Path(out).write_text("\n".join(writer(w, args, start=start)))


def check(agent) -> tuple[dict, list[str]]:
    """The slot's figures and its problems (empty = one live fact, one chain)."""
    facts = {f.id: f for f in agent.memory.ledger.facts(USER) if f.topic == "home city"}
    live = [f for f in facts.values() if f.status == "confirmed"]
    indexed = [f for f in agent.memory.index.list(USER) if f.topic == "home city"]
    problems = []
    if len(live) != 1 or len(indexed) != 1:
        problems.append(f"{len(live)} live facts in the ledger and {len(indexed)} in the live index say where the "
                        f"user lives: {[f.content for f in live]}")
    forks = {i: n for i, n in Counter(f.supersedes for f in facts.values() if f.supersedes).items() if n > 1}
    if forks:
        problems.append(f"{len(forks)} facts are superseded by two or more newer facts (a fork)")
    broken = [f.id for f in facts.values() if f.superseded_by and facts.get(f.superseded_by) is not None
              and facts[f.superseded_by].supersedes != f.id]
    if broken:
        problems.append(f"{len(broken)} facts point to a successor that does not point back")
    roots = [f for f in facts.values() if not f.supersedes]
    chain, seen = [], set()
    node = roots[0] if len(roots) == 1 else None
    while node is not None and node.id not in seen:
        seen.add(node.id)
        chain.append(node)
        node = facts.get(node.superseded_by) if node.superseded_by else None
    if len(roots) != 1 or len(chain) != len(facts) or chain[-1].status != "confirmed":
        problems.append(f"not a single chain: {len(roots)} first facts, {len(chain)} of {len(facts)} facts on the "
                        "chain from the first")
    statuses = Counter(f.status for f in facts.values())
    return {"facts": len(facts), "statuses": dict(statuses), "chain": len(chain)}, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["server", "embedded"], default="server")
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--turns", type=int, default=30, help="turns per writer")
    parser.add_argument("--chroma-url", default=os.environ.get("MEMORY_AGENT_TEST_CHROMA_URL"))
    parser.add_argument("--database-url", default=os.environ.get(
        "MEMORY_AGENT_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres"))
    args = parser.parse_args()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from memory_agent.app.agent import MemoryAgent
    from memory_agent.models.offline.chat_model import OfflineChatModel

    run = f"memory_agent_race_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    admin = None
    args.data_dir = tempfile.mkdtemp(prefix="supersede_race_")
    if args.backend == "server":
        if not args.chroma_url:
            parser.error("--backend server needs --chroma-url (or MEMORY_AGENT_TEST_CHROMA_URL)")
        import psycopg

        admin = psycopg.connect(args.database_url, autocommit=True)
        admin.execute(f'CREATE DATABASE "{run}"')
        args.db_url, args.chroma_database = f"{args.database_url.rsplit('/', 1)[0]}/{run}", run
    try:
        agent = MemoryAgent.open(settings_for(args), model=OfflineChatModel())
        agent.turn(USER, "I live in Oslo.", thread_id="seed", approval="never")
        t0 = time.perf_counter()
        if args.backend == "embedded":
            results: list[list[str]] = [[] for _ in range(args.writers)]
            start = threading.Barrier(args.writers)
            threads = [threading.Thread(target=lambda w=w: results.__setitem__(w, writer(w, args, agent, start)))
                       for w in range(args.writers)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            errors = [e for r in results for e in r]
        else:
            ctx = mp.get_context("spawn")
            outs = [Path(args.data_dir) / f"w{w}.txt" for w in range(args.writers)]
            start = ctx.Barrier(args.writers)
            procs = [ctx.Process(target=_process, args=(w, args, str(outs[w]), start)) for w in range(args.writers)]
            for p in procs:
                p.start()
            for p in procs:
                p.join()
            errors = [f"writer process {w} exited with {p.exitcode}" for w, p in enumerate(procs) if p.exitcode]
            errors += [line for o in outs if o.exists() for line in o.read_text().splitlines()]
        wall = time.perf_counter() - t0  # (with processes, including each loading its model)
        figures, problems = check(agent)
        agent.close()
        kind = "processes" if args.backend == "server" else "threads"
        print(f"{args.writers} {kind} x {args.turns} turns of 'I now live in <city>' for one user on "
              f"{'Postgres + a Chroma server' if args.backend == 'server' else 'the embedded stores'} in {wall:.1f} s: "
              f"{figures['facts']} facts of the slot {figures['statuses']}, chain of {figures['chain']}")
        for e in errors[:5]:
            print("ERROR:", e)
        for p in problems:
            print("FAIL:", p)
        if not problems and not errors:
            print("OK: exactly 1 live fact for the slot, a single supersede chain")
        return 1 if problems or errors else 0
    finally:
        shutil.rmtree(args.data_dir, ignore_errors=True)
        if admin is not None:
            admin.execute(f'DROP DATABASE IF EXISTS "{run}" WITH (FORCE)')
            admin.close()
            try:
                from urllib.parse import urlparse

                import chromadb

                u = urlparse(args.chroma_url)
                chromadb.AdminClient(chromadb.config.Settings(
                    anonymized_telemetry=False, chroma_api_impl="chromadb.api.fastapi.FastAPI",
                    chroma_server_host=u.hostname, chroma_server_http_port=u.port)).delete_database(run)
            except Exception as exc:  # best effort
                print(f"note: could not delete the Chroma database {run}: {exc}")


if __name__ == "__main__":
    sys.exit(main())
