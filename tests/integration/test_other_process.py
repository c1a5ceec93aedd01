"""Another writer of the same stores changes a user's facts; this process serves the user correctly at
its next turn, whatever it had cached (the collection handle, the live snapshot of facts and BM25).

Two real processes need stores that several processes may open: PostgreSQL and a Chroma server
(``server`` backend; skipped without ``MEMORY_AGENT_TEST_CHROMA_URL``, see tests/conftest.py). The
other process is a child running the app's own functions (renew, edit, forget-user). The embedded
folder admits one process (its lock), so there the other writer is a second ``LongTermMemory`` in this
process on the same SQLite file and Chroma client: its own ledger connection, index handles and caches.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import T0, day

from memory_agent.app import control
from memory_agent.stores import maintenance
from memory_agent.stores.chroma_store import ChromaFactIndex
from memory_agent.stores.long_term import LongTermMemory
from memory_agent.stores.sql.ledger import SQLFactLedger

PROJECT_DIR = Path(__file__).resolve().parents[2]
VEGETARIAN = {"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}
CYCLING = {"kind": "fact", "content": "The user cycles to work.", "topic": "commute"}
DIET = "Am I vegetarian? What should I eat?"
RENEWED = day(200)  # a preference is due for review after 180 days

_CHILD = textwrap.dedent("""
    import sys
    from datetime import datetime
    sys.path.insert(0, "tests")
    from conftest import ScriptedChatModel
    from memory_agent.app import control, erasure
    from memory_agent.app.agent import MemoryAgent
    from memory_agent.app.settings import Settings
    from memory_agent.models.embeddings import load_embedder
    from memory_agent.stores import maintenance

    data_dir, action, now, *args = sys.argv[1:]
    now = datetime.fromisoformat(now)
    agent = MemoryAgent.open(Settings(data_dir=data_dir), model=ScriptedChatModel(), embedder=load_embedder())
    if action == "renew":
        print(maintenance.renew(agent.memory, "alice", args[0], now, None))
    elif action == "edit":
        print(control.edit_memory(agent, "alice", args[0], args[1], now)["id"])
    elif action == "forget-user":
        print(erasure.forget_user(agent, "alice", now).remaining)
    agent.close()
""")


def _in_child(backend, data_dir: Path):
    """The other writer as a child process on the server stores."""
    def run(action: str, now: datetime, *args: str) -> str:
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", **backend.env}
        done = subprocess.run([sys.executable, "-c", _CHILD, str(data_dir), action, now.isoformat(), *args],
                              cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout.strip().splitlines()[-1]
    return run


def _in_this_process(agent, tmp_path: Path):
    """The other writer as a second LongTermMemory on the same SQLite file and Chroma client."""
    index = agent.memory.index
    ledger = SQLFactLedger(tmp_path / "data" / "agent.sqlite")
    other = LongTermMemory(ChromaFactIndex(index.client, index.embedder_name, index.dimension), ledger,
                           agent.memory.embeddings)

    def run(action: str, now: datetime, *args: str) -> str:
        if action == "renew":
            return str(maintenance.renew(other, "alice", args[0], now, None))
        if action == "edit":
            return control.edit_memory(SimpleNamespace(memory=other), "alice", args[0], args[1], now)["id"]
        # forget-user, as it reaches the facts: the live collection dropped, then the ledger rows
        other.index.drop_user("alice")
        other.ledger.erase_user("alice", "erased-by-the-other")
        return "[]"
    return run, other


def _scenario(agent, model, other) -> None:
    model.script["vegetarian"] = [VEGETARIAN]
    model.script["cycle"] = [CYCLING]
    agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")
    [fact] = agent.turn("alice", DIET, thread_id="t1", now=day(1)).memories  # handle and snapshot now cached
    assert fact["updated_at"] == T0.isoformat()

    assert other("renew", RENEWED, fact["id"]) == "True"  # same id, same count, new updated_at
    [renewed] = agent.turn("alice", DIET, thread_id="t1", now=RENEWED).memories
    assert renewed["id"] == fact["id"] and renewed["updated_at"] == RENEWED.isoformat()

    vegan = other("edit", day(201), fact["id"], "The user is vegan.")
    [edited] = agent.turn("alice", DIET, thread_id="t1", now=day(202)).memories
    assert (edited["id"], edited["content"]) == (vegan, "The user is vegan.")

    assert other("forget-user", day(203)) == "[]"
    after = agent.turn("alice", DIET, thread_id="t2", now=day(204))  # no store error, nothing of the old facts
    assert after.memories == [] and agent.memory.index.count("alice") == 0
    agent.turn("alice", "I cycle to work every day.", thread_id="t2", now=day(205), approval="never")
    [cycling] = agent.turn("alice", "How do I get to work?", thread_id="t2", now=day(206)).memories
    assert cycling["content"] == CYCLING["content"] and agent.memory.index.count("alice") == 1


@pytest.mark.parametrize("backend", ["server"], indirect=True)
def test_another_process_renews_edits_and_forgets_the_user(make_agent, model, backend, tmp_path):
    agent = make_agent(model=model)
    _scenario(agent, model, _in_child(backend, tmp_path / "other"))


@pytest.mark.parametrize("backend", ["embedded"], indirect=True)
def test_another_memory_on_the_same_stores_renews_edits_and_forgets_the_user(make_agent, model, backend, tmp_path):
    agent = make_agent(model=model)
    run, other = _in_this_process(agent, tmp_path)
    try:
        _scenario(agent, model, run)
    finally:
        other.ledger.close()


@pytest.mark.parametrize("backend", ["embedded"], indirect=True)
def test_a_turn_between_the_other_writers_ledger_and_index_writes_keeps_no_stale_copy(make_agent, model, backend,
                                                                                    tmp_path):
    """The ledger is written before the live index: a turn that lists the index in between sees the new
    generation with the old facts, and must not keep that listing under it."""
    agent = make_agent(model=model)
    model.script["vegetarian"] = [VEGETARIAN]
    agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")
    _, other = _in_this_process(agent, tmp_path)
    try:
        [fact] = agent.turn("alice", DIET, thread_id="t1", now=day(1)).memories
        renewed = other.ledger.get_fact("alice", fact["id"]).model_copy(update={"updated_at": RENEWED})
        other.ledger.save_fact(renewed)  # the other writer, half-way: ledger done, live index not yet
        [between] = agent.turn("alice", DIET, thread_id="t1", now=RENEWED).memories
        assert between["updated_at"] == RENEWED.isoformat()  # reads rank the ledger's rows, written first
        vector = agent.memory.embeddings.embed_documents([renewed.index_text])[0]
        other.index.upsert("alice", [renewed], [vector])  # ... and its live index write (not this process's)
        [after] = agent.turn("alice", DIET, thread_id="t1", now=RENEWED).memories
        assert after["updated_at"] == RENEWED.isoformat()
    finally:
        other.ledger.close()
