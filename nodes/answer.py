"""``answer``: reply to the user, with the injected memories as fenced, labelled data blocks."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, SystemMessage
from langgraph.runtime import Runtime

from memory_agent.graph.context import AgentContext
from memory_agent.graph.state import AgentState
from memory_agent.memory.gate import memory_block, session_block
from memory_agent.prompts import load_prompt

MAX_HISTORY_MESSAGES = 20


def make_answer(model: BaseChatModel):
    """Build the node: system prompt + memory block (if any) + session block (if any) + the last 20
    messages → one reply. Both blocks are rendered only by :mod:`memory_agent.memory.gate`
    (normalised, screened, fenced and escaped).

    State out: ``messages`` gains one ``AIMessage``. Model errors propagate (the turn fails,
    nothing is written, the thread stays as it was before the turn's nodes ran).
    """

    def answer(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
        prompt = [SystemMessage(load_prompt("system"))]
        if state.get("memories"):
            prompt.append(SystemMessage(memory_block(state["memories"], state.get("memories_left_out", 0))))
        if state.get("session"):
            prompt.append(SystemMessage(session_block(state["session"])))
        prompt.extend(state.get("messages", [])[-MAX_HISTORY_MESSAGES:])
        reply = model.invoke(prompt)
        text = reply.content if isinstance(reply.content, str) else str(reply.content)
        return {"messages": [AIMessage(content=text)]}

    return answer
