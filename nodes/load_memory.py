"""``load_memory``: retrieve this user's few relevant, live facts for the latest message."""

from __future__ import annotations

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from graph.context import AgentContext
from graph.state import AgentState
from memory_agent.memory import LongTermMemory

TURN_RESET = {"memories": [], "proposals": [], "dropped": [], "decisions": [], "committed": []}


def latest_user_text(state: AgentState) -> str:
    """The text of the newest ``HumanMessage`` in the state ('' when there is none)."""
    for msg in reversed(state.get("messages", [])):
        if isinstance(msg, HumanMessage):
            return msg.content if isinstance(msg.content, str) else str(msg.content)
    return ""


def make_load_memory(memory: LongTermMemory):
    """Build the node. It writes nothing: usage counts are recorded by ``commit``.

    State in: ``messages``. State out: ``memories`` (≤ top-k dicts with id, kind, content,
    similarity, recency, score) and the other per-turn fields reset.
    """

    def load_memory(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
        ctx = runtime.context
        if not ctx.memory_enabled:
            return dict(TURN_RESET)
        query = latest_user_text(state)
        if not query.strip():
            return dict(TURN_RESET)
        scored = memory.retrieve(ctx.user_id, query, ctx.clock())
        return {**TURN_RESET, "memories": [s.as_dict() for s in scored]}

    return load_memory
