"""Approval policy on resume: the person's decision stands whatever approval mode the resume runs
under, and the resume payload cannot name who decided (every audit row of a resume says ``user``).
The approval flow itself (resume, per-proposal decisions, restarts, the modes) is tested on both
backends in ``test_memory_graph.py``."""

from __future__ import annotations

from conftest import T0, ScriptedChatModel
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from memory_agent.graph.builder import build_graph
from memory_agent.graph.context import AgentContext

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


def test_the_resume_payload_cannot_name_who_decided(make_agent):
    agent = make_agent(model=ScriptedChatModel(script=VEG))
    pid = agent.turn("alice", "I am vegetarian.", thread_id="t", now=T0).pending[0]["id"]
    agent.resume("alice", "t", [{"proposal_id": pid, "action": "approve", "decided_by": None}], now=T0)
    rows = agent.memory.ledger.audit_rows("alice")
    assert [(r["decision"], r["decided_by"]) for r in rows] == [("approved", "user")]
