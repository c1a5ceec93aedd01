"""``stream_events``: only the ``answer`` node's streamed text becomes answer tokens."""

from __future__ import annotations

from langchain_core.messages import AIMessage, AIMessageChunk

from memory_agent.app.turns import ANSWER_TOKEN, stream_events


def test_only_text_pieces_of_the_answer_node_are_tokens():
    piece = AIMessageChunk(content="Hello ")
    assert stream_events(("messages", (piece, {"langgraph_node": "answer"}))) == [(ANSWER_TOKEN, {"text": "Hello "})]
    assert stream_events(("messages", (piece, {"langgraph_node": "propose_facts"}))) == []  # the extraction call
    assert stream_events(("messages", (AIMessageChunk(content=""), {"langgraph_node": "answer"}))) == []
    assert stream_events(("messages", (AIMessage(content="whole"), {"langgraph_node": "answer"}))) == []
    update = {"messages": [AIMessage(content="whole")]}
    assert stream_events(("updates", {"answer": update, "__interrupt__": ("x",)})) == [
        ("answer", update), ("__interrupt__", {"value": ("x",)})]
