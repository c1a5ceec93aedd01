"""The commit step run again: after the index write failed, after a crash before the audit row, and
for the same turn twice. Each leaves the fact live once, the UPDATE on its original target, one audit
row per decision and one use per turn. Real SQLite, Chroma and MiniLM; only the chat model is fake.
(Processes killed in the middle of ``commit`` are in ``test_faults.py``.)"""

from __future__ import annotations

import pytest
from conftest import T0, ScriptedChatModel, day, plant

from memory_agent.core.facts import Proposal, Source

VEG = {"vegetarian": [{"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}]}


def test_a_commit_retried_after_the_index_write_failed_makes_the_fact_live(make_agent):
    agent = make_agent(model=ScriptedChatModel(script=VEG))
    real, calls = agent.memory.index.upsert, []

    def flaky(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("Chroma hiccup")
        return real(*args, **kwargs)

    agent.memory.index.upsert = flaky
    with pytest.raises(RuntimeError):
        agent.turn("alice", "I am vegetarian.", thread_id="t", now=T0, approval="never")
    assert agent.unfinished("alice", "t")
    agent.finish_interrupted("alice", "t", now=T0)
    assert [f.content for f in agent.memory.live("alice")] == ["The user is vegetarian."]
    assert [r["decision"] for r in agent.memory.ledger.audit_rows("alice")] == ["approved"]


def test_a_retried_update_keeps_its_original_target(make_agent):
    memory = make_agent().memory
    old = plant(memory, "alice", "The user lives in Berlin.", topic="home city")
    proposal = Proposal(id="p_upd", operation="UPDATE", kind="fact", content="The user lives in Munich.",
                        topic="home city", source=Source(thread_id="t", message_ids=["m1"]),
                        evidence="I moved to Munich", target_id=old.id, target_content=old.content)
    real = memory.ledger.change_status  # the supersede, written with the audit row
    memory.ledger.change_status = lambda *a, **k: (_ for _ in ()).throw(RuntimeError("crash before the audit row"))
    with pytest.raises(RuntimeError):
        memory.apply("alice", proposal, "approve", day(1), "user")
    memory.ledger.change_status = real
    summary = memory.apply("alice", proposal, "approve", day(1), "user")
    assert summary["target_id"] == old.id and summary["fact_id"] == "f_upd"
    assert memory.ledger.audit_rows("alice")[-1]["target_id"] == old.id
    assert memory.ledger.get_fact("alice", old.id).superseded_by == "f_upd"


def test_usage_is_counted_once_per_turn_even_if_commit_runs_again(make_agent):
    memory = make_agent().memory
    fact = plant(memory, "alice", "The user is vegetarian.", kind="preference", topic="diet")
    memory.touch("alice", [fact.id], day(1), turn_id="t/m1")
    memory.touch("alice", [fact.id], day(1), turn_id="t/m1")  # the same turn's commit re-run
    memory.touch("alice", [fact.id], day(2), turn_id="t/m2")
    stored = memory.ledger.get_fact("alice", fact.id)
    assert stored.use_count == 2 and stored.last_used_at == day(2)
