"""Kill -9 at random points of ``commit``, ``maintain`` and ``forget-user``, then check that the next open
finishes what was cut short, exactly once.

For each operation (the ops of ``tests/integration/fault_child.py``: five turns of one user through the
commit node, with an update, a retraction, an episode and a session summary; a ``maintain`` pass that
expires, prunes and merges; ``forget-user`` of a user with threads, summaries and episodes next to
another user), one reference run that is not killed gives its duration and number of store writes.
Then each of ``--kills`` runs starts from a fresh copy of the starting state, starts the child process,
and kills it with SIGKILL:

- ``--mode delay`` (default): after a random delay, uniform in [0, 1.1 x the reference duration], from
  the moment the operation starts;
- ``--mode write``: the child kills itself right after a random store write, uniform in [1, writes].

Then the parent opens the stores (which repairs) and checks, per ``fault_child.problems``: nothing lost,
nothing duplicated (facts, approved audit rows, ``merged_from`` ids, episodes), nothing live or ended
without its audit row, nothing left in the journal, no user half-erased, the other user untouched; then
does what an operator would (send the lost turns again, run ``maintain`` again, run ``forget-user``
again) and checks that the end state is that of a run never killed. Prints one line per run and the
counts; exits 1 if any check failed.

Usage::

    python tests/load/kill_writes.py [--op commit|maintain|forget-user|all] [--kills 30] [--mode delay|write]
        [--backend embedded|server --chroma-url http://127.0.0.1:8000] [--seed 1]

``--backend server`` uses Postgres (a database made for the run and dropped at the end, one schema per
kill) and a Chroma server (one database per kill). ``.ci/run`` runs it on small counts.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "integration"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import fault_child  # noqa: E402

CHILD = ROOT / "tests" / "integration" / "fault_child.py"


class Stores:
    """Fresh stores for each run: a data folder, and for ``server`` a Postgres schema and a Chroma database."""

    def __init__(self, args):
        self.args, self.n = args, 0
        self.tmp = Path(tempfile.mkdtemp(prefix="kill_writes_"))
        self.db_url = None
        if args.backend == "server":
            import psycopg

            self.run = f"memory_agent_kill_{os.getpid()}_{uuid.uuid4().hex[:6]}"
            self.admin = psycopg.connect(args.database_url, autocommit=True)
            self.admin.execute(f'CREATE DATABASE "{self.run}"')
            self.db_url = f"{args.database_url.rsplit('/', 1)[0]}/{self.run}"

    def fresh(self) -> tuple[Path, dict, dict]:
        """``(data_dir, settings, child env)`` of a new, empty set of stores."""
        self.n += 1
        data_dir = self.tmp / f"run{self.n}"
        if self.db_url is None:
            return data_dir, {}, {}
        import psycopg

        schema = f"k{self.n}"
        with psycopg.connect(self.db_url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        url = f"{self.db_url}?options=-csearch_path%3D{schema}"
        settings = {"database_url": url, "chroma_url": self.args.chroma_url,
                    "chroma_database": f"{self.run}_{self.n}"}
        env = {"MEMORY_AGENT_DATABASE_URL": url, "MEMORY_AGENT_CHROMA_URL": self.args.chroma_url,
               "MEMORY_AGENT_CHROMA_DATABASE": settings["chroma_database"]}
        return data_dir, settings, env

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)
        if self.db_url is None:
            return
        self.admin.execute(f'DROP DATABASE IF EXISTS "{self.run}" WITH (FORCE)')
        self.admin.close()
        from urllib.parse import urlparse

        import chromadb

        u = urlparse(self.args.chroma_url)
        admin = chromadb.AdminClient(chromadb.config.Settings(
            anonymized_telemetry=False, chroma_api_impl="chromadb.api.fastapi.FastAPI",
            chroma_server_host=u.hostname, chroma_server_http_port=u.port))
        for n in range(1, self.n + 1):
            try:
                admin.delete_database(f"{self.run}_{n}")
            except Exception:  # noqa: S112 - best effort: a run that never created it
                continue


def open_agent(data_dir: Path, settings: dict, embedder):
    from memory_agent.app.agent import MemoryAgent
    from memory_agent.app.settings import Settings

    return MemoryAgent.open(Settings(data_dir=data_dir, **settings), model=fault_child.model(), embedder=embedder)


def one_run(op: str, stores: Stores, embedder, kill_at: int = 0, delay: float | None = None) -> dict:
    """Prepare, run the child (killed at write ``kill_at`` or after ``delay`` seconds), open, check,
    finish, check. Returns ``{"killed", "writes", "seconds", "repaired": [...], "finished": [...]}``."""
    data_dir, settings, env = stores.fresh()
    with open_agent(data_dir, settings, embedder) as agent:
        fault_child.prepare(agent, op)
    child_env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", **env}
    proc = subprocess.Popen([sys.executable, str(CHILD), op, str(data_dir), str(kill_at)], cwd=ROOT,
                            env=child_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = ""
    while not line.startswith("ARMED"):
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            raise SystemExit(f"the child died before it started {op}: {proc.stderr.read()[-3000:]}")
    if delay is not None:
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=600)
    killed = proc.returncode == -signal.SIGKILL
    if not killed and proc.returncode != 0:
        raise SystemExit(f"the child failed ({proc.returncode}): {err[-3000:]}")
    done = next((w.split() for w in out.splitlines() if w.startswith("DONE")), None)
    with open_agent(data_dir, settings, embedder) as agent:  # opening repairs
        repaired = fault_child.problems(agent, op, "repaired")
        fault_child.finish(agent, op)
        finished = fault_child.problems(agent, op, "finished")
    return {"killed": killed, "writes": int(done[1]) if done else None, "seconds": float(done[2]) if done else None,
            "kill_at": kill_at, "delay": delay, "repaired": repaired, "finished": finished}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--op", choices=[*fault_child.OPS, "all"], default="all")
    parser.add_argument("--kills", type=int, default=30, help="killed runs per operation")
    parser.add_argument("--mode", choices=["delay", "write"], default="delay")
    parser.add_argument("--backend", choices=["embedded", "server"], default="embedded")
    parser.add_argument("--chroma-url", default=os.environ.get("MEMORY_AGENT_TEST_CHROMA_URL"))
    parser.add_argument("--database-url", default=os.environ.get(
        "MEMORY_AGENT_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.backend == "server" and not args.chroma_url:
        parser.error("--backend server needs --chroma-url (or MEMORY_AGENT_TEST_CHROMA_URL)")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from memory_agent.models.embeddings import load_embedder

    rng = random.Random(args.seed)
    embedder = load_embedder("minilm")
    stores = Stores(args)
    failed = False
    try:
        for op in fault_child.OPS if args.op == "all" else (args.op,):
            ref = one_run(op, stores, embedder)
            print(f"{op}: reference run {ref['writes']} store writes in {ref['seconds']:.2f} s; problems "
                  f"{ref['repaired'] + ref['finished'] or 'none'}", flush=True)
            failed |= bool(ref["repaired"] or ref["finished"])
            tally: Counter = Counter()
            for n in range(args.kills):
                if args.mode == "write":
                    r = one_run(op, stores, embedder, kill_at=rng.randint(1, ref["writes"]))
                else:
                    r = one_run(op, stores, embedder, delay=rng.uniform(0, 1.1 * ref["seconds"]))
                tally["killed" if r["killed"] else "finished before the kill"] += 1
                for stage in ("repaired", "finished"):
                    for p in r[stage]:
                        tally[f"{stage}: {p.split(':', 1)[0]}"] += 1
                how = f"at write {r['kill_at']}" if r["kill_at"] else f"after {r['delay']:.2f} s"
                print(f"{op} #{n + 1}: {'killed' if r['killed'] else 'finished before the kill'} ({how}); "
                      f"after open: {r['repaired'] or 'ok'}; after finishing: {r['finished'] or 'ok'}", flush=True)
                failed |= bool(r["repaired"] or r["finished"])
            problems = {k: v for k, v in tally.items() if ":" in k}
            verdict = (f"PROBLEMS {problems}" if problems else
                       "0 lost, 0 duplicated, 0 live or ended without audit, 0 half-written, 0 half-erased")
            print(f"{op}: {args.kills} runs, {tally['killed']} killed mid-operation: {verdict}", flush=True)
    finally:
        stores.close()
    print("FAIL" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
