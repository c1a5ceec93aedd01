"""Build the agent graph."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph

from memory_agent.graph.context import AgentContext
from memory_agent.graph.state import AgentState
from memory_agent.nodes import (
    after_answer,
    make_answer,
    make_commit,
    make_human_approval,
    make_load_memory,
    make_propose_facts,
    make_tools,
)
from memory_agent.nodes.answer import DEFAULT_MAX_TOOL_ROUNDS
from memory_agent.stores.long_term import LongTermMemory
from memory_agent.tools import agent_tools


def build_graph(memory: LongTermMemory, model: BaseChatModel, checkpointer=None, *,
                context_schema: type[AgentContext] = AgentContext, tools: Sequence[BaseTool] | None = None,
                max_tool_rounds: int = DEFAULT_MAX_TOOL_ROUNDS):
    """Compile ``load_memory → answer ⇄ tools``, then ``answer → propose_facts → human_approval → commit``.

    ``answer`` may call tools; ``tools`` runs them and returns to ``answer``, at most
    ``max_tool_rounds`` times per turn. ``propose_facts``, ``human_approval`` and ``commit`` run once
    per turn, after the final answer.

    Args:
        memory: long-term memory (facts of all users; each run is scoped by ``context.user_id``).
        model: any LangChain chat model; ``propose_facts`` uses its ``with_structured_output``, ``answer``
            its ``bind_tools`` (a model without it answers without tools).
        checkpointer: a LangGraph checkpointer (working memory), e.g. ``SqliteSaver`` (``AsyncSqliteSaver``
            for ``ainvoke``/``astream``); ``None`` compiles without one (``langgraph dev`` supplies its own).
        context_schema: ``AgentContext`` or a subclass (``memory_agent.server`` uses one that also takes
            the clock as an ISO 8601 string, as JSON clients send it).
        tools: the tools ``answer`` may call (default :func:`memory_agent.tools.agent_tools` over
            ``memory``: the memory tools and ``memory_agent/tools/user_tools.py``).
        max_tool_rounds: tool-calling answers per turn (``Settings.max_tool_rounds``, default 4).

    Returns:
        A compiled graph; run it with ``context=AgentContext(...)`` and
        ``config={"configurable": {"thread_id": ...}}``.
    """
    tools = agent_tools(memory) if tools is None else list(tools)
    g = StateGraph(AgentState, context_schema=context_schema)
    g.add_node("load_memory", make_load_memory(memory))
    g.add_node("answer", make_answer(model, tools, max_tool_rounds))
    g.add_node("tools", make_tools(tools))
    g.add_node("propose_facts", make_propose_facts(memory, model))
    g.add_node("human_approval", make_human_approval())
    g.add_node("commit", make_commit(memory))
    g.add_edge(START, "load_memory")
    g.add_edge("load_memory", "answer")
    g.add_conditional_edges("answer", after_answer, ["tools", "propose_facts"])
    g.add_edge("tools", "answer")
    g.add_edge("propose_facts", "human_approval")
    g.add_edge("human_approval", "commit")
    g.add_edge("commit", END)
    return g.compile(checkpointer=checkpointer)
