"""``tools``: run the tool calls of the latest answer, each result fenced by the gate, then back to ``answer``.

LangGraph's ``ToolNode`` runs the calls (in parallel when there are several), fills each tool's
``runtime`` (the run context: user, clock) and turns a raised exception, an unknown tool or arguments
that do not fit the tool's schema into an error message for the model instead of a failed turn. This
node adds two things around every call (``wrap_tool_call``): a thread started by another user runs no
tool, and every result reaches the model only through ``memory_agent.memory.gate.tool_block``
(normalised, screened, escaped, fenced and labelled as data).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.prebuilt import ToolNode
from langgraph.prebuilt.tool_node import ToolCallRequest
from langgraph.types import Command

from memory_agent.memory.gate import tool_block

__all__ = ["make_tools", "tool_rounds"]


def tool_rounds(messages: Sequence[BaseMessage]) -> int:
    """How many answers of the running turn called tools: ``AIMessage``\\ s with ``tool_calls`` after the
    newest ``HumanMessage``."""
    count = 0
    for msg in reversed(messages):
        if isinstance(msg, HumanMessage):
            break
        if isinstance(msg, AIMessage) and msg.tool_calls:
            count += 1
    return count


def _refusal(request: ToolCallRequest) -> ToolMessage | None:
    """An error message when the thread belongs to another user than the run's context."""
    state = request.state if isinstance(request.state, dict) else {}
    owner = state.get("owner")
    if owner is not None and owner != request.runtime.context.user_id:
        return ToolMessage("This thread belongs to another user; no tool runs in it.", status="error",
                           name=request.tool_call["name"], tool_call_id=request.tool_call["id"])
    return None


def _gated(result: ToolMessage | Command) -> ToolMessage | Command:
    """``result`` with its content rendered by :func:`tool_block`: the artifact's ``{"label", "content"}``
    lines when the tool returned some (the memory tools), else the content as one line."""
    if not isinstance(result, ToolMessage):
        return result
    lines = result.artifact if isinstance(result.artifact, list) and all(
        isinstance(x, dict) and "content" in x for x in result.artifact) else None
    if lines is None:
        text = result.content if isinstance(result.content, str) else str(result.content)
        lines = [{"label": "error" if result.status == "error" else "result", "content": text}]
    block = tool_block(result.name or "tool", lines, error=result.status == "error")
    return result.model_copy(update={"content": block})


def make_tools(tools: Sequence[BaseTool]) -> ToolNode:
    """Build the node over ``tools`` (``memory_agent.tools.agent_tools``).

    State in: ``messages`` (the newest ``AIMessage`` holds the tool calls), ``owner``. State out:
    ``messages`` gains one ``ToolMessage`` per call, its content a gate block (status ``error`` for a
    failed call, whose message the model reads).
    """

    def wrap(request: ToolCallRequest, execute: Callable[[ToolCallRequest], ToolMessage | Command]):
        return _refusal(request) or _gated(execute(request))

    async def awrap(request: ToolCallRequest, execute: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command]]):
        return _refusal(request) or _gated(await execute(request))

    return ToolNode(list(tools), name="tools", handle_tool_errors=True, wrap_tool_call=wrap,
                    awrap_tool_call=awrap)
