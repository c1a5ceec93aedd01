"""Make the release-0.1.0 ledger fixtures with the release's own code (git commit c851f3d).

How they were made (run once; the outputs are committed next to this script):

    git worktree add /tmp/release c851f3d
    cd /tmp/release && PYTHONPATH=/tmp/release python <this script> <this folder> postgresql://postgres@127.0.0.1:5432/test
    git worktree remove --force /tmp/release

Writes, through the release's ``stores.sql_store.SQLFactLedger``:

- ``ledger.sqlite``: a SQLite ledger;
- ``ledger_postgres.sql``: ``pg_dump --schema=release_0_1_0 --no-owner --inserts`` of the same rows
  written to a Postgres schema ``release_0_1_0`` (dropped afterwards). psql's ``\\restrict`` lines,
  if the pg_dump version writes them, are left out so the file runs as one plain SQL script.

The same rows go to both: two users, live and superseded facts, a touched fact, audit rows, a
thread with activity, a session summary, an episode, a switched-off memory and an open journal entry.
"""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
SCHEMA = "release_0_1_0"


def write(ledger) -> None:
    from memory_agent.facts import Fact, Source

    src = Source(thread_id="t1", message_ids=["m1"])
    old = Fact(id="f_city_old", user_id="alice", kind="fact", content="The user lives in Munich.", topic="home city",
               source=src, evidence="I live in Munich", created_at=T0, updated_at=T0)
    new = Fact(id="f_city_new", user_id="alice", kind="fact", content="The user lives in Oslo.", topic="home city",
               source=src, evidence="I moved to Oslo", created_at=T0 + timedelta(days=2),
               updated_at=T0 + timedelta(days=2), supersedes="f_city_old")
    old = old.model_copy(update={"status": "superseded", "superseded_by": "f_city_new",
                                 "updated_at": T0 + timedelta(days=2)})
    diet = Fact(id="f_diet", user_id="alice", kind="preference", content="The user is vegetarian.", topic="diet",
                source=src, evidence="I'm vegetarian", created_at=T0 + timedelta(days=1),
                updated_at=T0 + timedelta(days=1), importance=0.9)
    bob = Fact(id="f_bob", user_id="bob", kind="fact", content="The user's backend uses Postgres.", topic="database",
               source=Source(thread_id="tb", message_ids=["mb"]), evidence="we use Postgres", created_at=T0,
               updated_at=T0)
    for fact in (old, new, diet, bob):
        ledger.save_fact(fact)
    ledger.touch("alice", ["f_diet", "f_city_new"], T0 + timedelta(days=3), "turn-1")
    for i, (user, fact_id, op) in enumerate([("alice", "f_city_old", "add"), ("alice", "f_city_new", "update"),
                                              ("alice", "f_diet", "add"), ("bob", "f_bob", "add")]):
        ledger.audit({"id": f"a{i}", "user_id": user, "thread_id": "t1", "at": T0 + timedelta(days=i),
                      "operation": op, "kind": "fact", "content": f"content {i}", "evidence": f"evidence {i}",
                      "decision": "approved", "decided_by": "auto", "reason": "ok", "fact_id": fact_id,
                      "target_id": "f_city_old" if op == "update" else None,
                      "proposal": {"operation": op, "n": i}})
    ledger.remember_thread("alice", "t1", T0)
    ledger.remember_thread("bob", "tb", T0 + timedelta(hours=1))
    ledger.touch_thread("alice", "t1", T0)
    ledger.touch_thread("alice", "t1", T0 + timedelta(hours=2))
    ledger.save_summary({"user_id": "alice", "thread_id": "t1", "started_at": T0, "ended_at": T0 + timedelta(hours=2),
                         "topic": "moving", "decisions": ["move to Oslo"], "open_items": ["find a flat"],
                         "text": "Talked about moving to Oslo."})
    ledger.save_episode({"user_id": "alice", "id": "e1", "occurred_at": T0 + timedelta(days=2), "kind": "decision",
                         "topic": "moving", "content": "Decided to move to Oslo.", "thread_id": "t1",
                         "fact_id": "f_city_new"})
    ledger.set_memory_enabled("bob", False, T0)
    ledger.journal_begin("alice", "j1", {"decision": "add", "fact_id": "f_diet"}, T0 + timedelta(days=4))


def main(out: Path, database_url: str) -> None:
    import psycopg
    from stores.sql_store import SQLFactLedger

    from stores.postgres import open_pool

    sqlite_path = out / "ledger.sqlite"
    sqlite_path.unlink(missing_ok=True)
    ledger = SQLFactLedger(sqlite_path)
    write(ledger)
    ledger.compact()
    ledger.close()

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
        conn.execute(f"CREATE SCHEMA {SCHEMA}")
    pool = open_pool(f"{database_url}?options=-csearch_path%3D{SCHEMA}")
    try:
        write(SQLFactLedger(pool=pool))
    finally:
        pool.close()
    dump = subprocess.run(["pg_dump", f"--schema={SCHEMA}", "--no-owner", "--inserts", database_url],
                          check=True, capture_output=True, text=True).stdout
    lines = [line for line in dump.splitlines() if not line.startswith("\\")]
    (out / "ledger_postgres.sql").write_text("\n".join(lines) + "\n")
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {SCHEMA} CASCADE")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), sys.argv[2])
