"""The production model path: ``openai:<model>`` through langchain-openai against an
OpenAI-compatible server. The server is a fake on loopback (the model is the only thing we fake);
the graph, the stores and the embedder are real.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from conftest import T0, FakeOpenAI

from memory_agent.models.chat import load_chat_model


@pytest.fixture
def server(monkeypatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setenv("OPENAI_API_KEY", "unused")
    fake = FakeOpenAI()
    yield fake
    fake.server.shutdown()


def message_id(prompt: str) -> str:
    return re.search(r"^\[([^\]]+)\] user:", prompt, re.MULTILINE).group(1)


def test_openai_compatible_server_drives_the_whole_turn(server, make_agent):
    server.structured = lambda prompt: json.dumps({"facts": [{
        "operation": "add", "kind": "preference", "content": "The user is vegetarian.", "topic": "diet",
        "message_ids": [message_id(prompt)], "evidence": "I'm vegetarian", "confidence": 0.9, "importance": 0.6,
        "sensitivity": "common"}]})
    agent = make_agent(model=load_chat_model("openai:tiny-model", base_url=server.url))
    result = agent.turn("alice", "I'm vegetarian.", thread_id="t1", now=T0)
    assert result.answer == "Here is my answer."
    assert [p["content"] for p in result.pending] == ["The user is vegetarian."]
    agent.resume("alice", "t1", "approve", now=T0)
    assert [f.content for f in agent.memory.live("alice")] == ["The user is vegetarian."]

    server.structured = lambda prompt: json.dumps({"facts": []})
    agent.turn("alice", "Plan a dinner for four friends on Saturday.", thread_id="t2", now=T0)
    answer_request = [r for r in server.requests if not r.get("response_format")][-1]
    block = [m["content"] for m in answer_request["messages"] if "<memories>" in str(m["content"])]
    assert len(block) == 1 and "The user is vegetarian." in block[0]
    assert answer_request["model"] == "tiny-model"
    assert any(r.get("response_format", {}).get("type") == "json_schema" for r in server.requests)


@pytest.mark.parametrize("content", ["Sure! You like cats.", '{"facts": [{"kind": "nonsense"}]}', ""])
def test_malformed_structured_output_still_answers_and_is_audited(server, make_agent, content):
    server.structured = lambda prompt: content
    agent = make_agent(model=load_chat_model("openai:tiny-model", base_url=server.url))
    result = agent.turn("bob", "I'm vegetarian.", thread_id="t1", now=T0)
    assert result.answer == "Here is my answer." and result.pending == []
    assert agent.memory.live("bob") == []
    rows = agent.memory.ledger.audit_rows("bob")
    assert [r["decision"] for r in rows] == ["dropped"] and "malformed model output" in rows[0]["reason"]


def test_a_proposal_citing_a_message_that_does_not_exist_is_rejected(server, make_agent):
    server.structured = lambda prompt: json.dumps({"facts": [{
        "kind": "fact", "content": "The user is the CEO.", "message_ids": ["made-up-id"],
        "evidence": "I'm vegetarian"}]})
    agent = make_agent(model=load_chat_model("openai:tiny-model", base_url=server.url))
    result = agent.turn("carol", "I'm vegetarian.", thread_id="t1", now=T0)
    assert result.pending == [] and agent.memory.live("carol") == []
    assert "not in this thread" in agent.memory.ledger.audit_rows("carol")[0]["reason"]
