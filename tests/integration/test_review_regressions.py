"""Regressions for bugs a code review found: approval policy on resume, audit completeness,
retried commits, thread ownership on the raw graph, idempotent usage counts, error mapping,
input types, content blocks and provenance thread ids."""

from __future__ import annotations

import sqlite3

import pytest
from conftest import T0, ScriptedChatModel, day, plant
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from memory_agent.app.agent import InputError
from memory_agent.core.facts import Fact, Proposal, Source
from memory_agent.graph.builder import build_graph
from memory_agent.graph.context import AgentContext
from memory_agent.graph.turn import ThreadOwnerError
from memory_agent.stores.base import StoreError
from memory_agent.stores.sql.ledger import SQLFactLedger

VEG = {"vegetarian": [{"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}]}


def test_resume_under_another_approval_mode_keeps_the_persons_reject(make_agent):
    model = ScriptedChatModel(script=VEG)
    agent = make_agent(model=model)
    graph = build_graph(agent.memory, model, InMemorySaver())
    cfg = {"configurable": {"thread_id": "t1"}}
    graph.invoke({"messages": [HumanMessage("I am vegetarian.", id="m1")]}, cfg,
                 context=AgentContext(user_id="alice", now=T0, approval="always"))
    out = graph.invoke(Command(resume="reject"), cfg, context=AgentContext(user_id="alice", now=T0, approval="never"))
    assert [c["action"] for c in out["committed"]] == ["reject"]
    assert agent.memory.live("alice") == []
    assert [(r["decision"], r["decided_by"]) for r in agent.memory.ledger.audit_rows("alice")] == [("rejected", "user")]


def test_another_user_cannot_run_or_resume_a_thread_on_the_raw_graph(make_agent):
    model = ScriptedChatModel(script=VEG)
    agent = make_agent(model=model)
    graph = build_graph(agent.memory, model, InMemorySaver())
    cfg = {"configurable": {"thread_id": "t1"}}
    graph.invoke({"messages": [HumanMessage("I am vegetarian.", id="m1")]}, cfg, context=AgentContext("alice", T0))
    with pytest.raises(ThreadOwnerError):
        graph.invoke(Command(resume="approve"), cfg, context=AgentContext("mallory", T0))
    with pytest.raises(ThreadOwnerError):
        graph.invoke({"messages": [HumanMessage("hi", id="m2")]}, cfg, context=AgentContext("mallory", T0))
    assert agent.memory.live("mallory") == [] and agent.memory.live("alice") == []


def test_the_resume_payload_cannot_name_who_decided(make_agent):
    agent = make_agent(model=ScriptedChatModel(script=VEG))
    pid = agent.turn("alice", "I am vegetarian.", thread_id="t", now=T0).pending[0]["id"]
    agent.resume("alice", "t", [{"proposal_id": pid, "action": "approve", "decided_by": None}], now=T0)
    rows = agent.memory.ledger.audit_rows("alice")
    assert [(r["decision"], r["decided_by"]) for r in rows] == [("approved", "user")]


def test_an_audit_row_missing_a_required_value_raises_instead_of_vanishing(tmp_path):
    ledger = SQLFactLedger(tmp_path / "x.sqlite")
    with pytest.raises(StoreError, match="refused"):
        ledger.audit({"id": "a1", "user_id": "u", "at": T0, "decision": "approved", "decided_by": None})
    ledger.close()


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
    real = memory.ledger.audit
    memory.ledger.audit = lambda row: (_ for _ in ()).throw(RuntimeError("crash before the audit row"))
    with pytest.raises(RuntimeError):
        memory.apply("alice", proposal, "approve", day(1), "user")
    memory.ledger.audit = real
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


def test_a_locked_database_is_not_reported_as_damaged(tmp_path):
    path = tmp_path / "x.sqlite"
    ledger = SQLFactLedger(path)
    ledger.conn.execute("PRAGMA busy_timeout=100")
    ledger.save_fact(Fact(id="f1", user_id="u", kind="fact", content="c", evidence="c", created_at=T0,
                          updated_at=T0, source=Source(thread_id="t", message_ids=["m"])))
    other = sqlite3.connect(path)
    other.execute("BEGIN IMMEDIATE")
    for call in (lambda: ledger.remember_thread("u", "t2", T0), lambda: ledger.touch("u", ["f1"], T0, "t/m")):
        with pytest.raises(StoreError) as err:
            call()
        assert "locked" in str(err.value) and "damaged" not in str(err.value)
    other.rollback()
    other.close()
    ledger.close()


@pytest.mark.parametrize(("kwargs", "words"), [({"now": "2025-03-01"}, "datetime"), ({"thread_id": 5}, "thread id"),
                                               ({"approval": "sometimes"}, "approval")])
def test_wrong_types_are_input_errors(make_agent, kwargs, words):
    agent = make_agent()
    with pytest.raises(InputError, match=words):
        agent.turn("alice", "hello", **{"thread_id": "t", **kwargs})
    assert agent.memory.ledger.threads("alice") == []


def test_content_blocks_are_read_as_text_and_provenance_keeps_the_users_thread_id(make_agent):
    model = ScriptedChatModel(script=VEG)
    agent = make_agent(model=model)
    graph = agent.graph
    cfg = agent._config("alice", "kitchen")
    content = [{"type": "text", "text": "I am vegetarian."}]
    graph.invoke({"messages": [HumanMessage(content=content, id="m1")]}, cfg,
                 context=AgentContext("alice", T0, approval="never", thread_id="kitchen"))
    assert "[m1] user: I am vegetarian.\n" in model.extraction_calls[-1]
    (fact,) = agent.memory.live("alice")
    assert fact.source.thread_id == "kitchen" and fact.evidence == "I am vegetarian."
    assert agent.memory.ledger.threads("alice") == ["kitchen"]
