"""The offline model's tool calls by rule, its word-by-word stream, and the example tools."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from memory_agent.memory.gate import tool_block
from memory_agent.models.offline.chat_model import OfflineChatModel
from memory_agent.models.offline.tool_calls import tool_calls_for
from memory_agent.tools.user_tools import calculator

ALL = {"search_memories", "get_user_profile", "list_open_items", "current_time", "calculator"}


@pytest.mark.parametrize(("text", "expected"), [
    ("Search my memories for the Berlin trip.", [("search_memories", {"query": "the Berlin trip"})]),
    ("could you look through your notes about my sister and tell me", [("search_memories", {"query": "my sister"})]),
    ("What's in my profile?", [("get_user_profile", {})]),
    ("what is still open?", [("list_open_items", {})]),
    ("What time is it? Also calculate 12 * (3 + 4)",
     [("current_time", {}), ("calculator", {"expression": "12 * (3 + 4)"})]),
    ("I live in Munich.", []),
    ("What is the capital of France?", []),
    ("what is 7 apples", []),
])
def test_requests_in_plain_words_become_calls_of_bound_tools(text, expected):
    calls = tool_calls_for([HumanMessage(text, id="m1")], ALL)
    assert [(c["name"], c["args"]) for c in calls] == expected


def test_only_bound_tools_are_called_and_only_before_a_tool_answered():
    asked = [HumanMessage("what time is it", id="m1")]
    assert tool_calls_for(asked, {"calculator"}) == []
    answered = [*asked, AIMessage("", tool_calls=[{"name": "current_time", "args": {}, "id": "c1"}]),
                ToolMessage(tool_block("current_time", [{"label": "result", "content": "2025-03-01T09:00:00"}]),
                            tool_call_id="c1", name="current_time")]
    assert tool_calls_for(answered, ALL) == []
    reply = OfflineChatModel().bind_tools([calculator]).invoke(answered)
    assert reply.tool_calls == [] and "current_time: 2025-03-01T09:00:00" in reply.content


def test_the_offline_model_streams_word_by_word_and_a_call_in_one_chunk():
    model = OfflineChatModel()
    prompt = [SystemMessage("<memories>\n- [fact] The user lives in Munich.\n</memories>"), HumanMessage("hi")]
    chunks = [c.content for c in model.stream(prompt)]
    assert len(chunks) > 5 and "".join(chunks) == model.invoke(prompt).content
    chunks = list(model.bind_tools([calculator]).stream([HumanMessage("calculate 2+2", id="m")]))
    calls = [c for c in chunks if c.tool_call_chunks]
    assert len(calls) == 1 and calls[0].tool_call_chunks[0]["name"] == "calculator"
    assert sum(chunks[1:], chunks[0]).tool_calls[0]["args"] == {"expression": "2+2"}


def test_the_calculator_evaluates_arithmetic_only():
    assert calculator("2 ** 10 - (3 * 4) / 2") == "1018.0"
    for bad in ("__import__('os').system('id')", "x + 1", "2 ** 1000", "1" * 300):
        with pytest.raises(ValueError):
            calculator(bad)
