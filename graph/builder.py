"""Build the agent graph."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph

from memory_agent.graph.context import AgentContext
from memory_agent.graph.state import AgentState
from memory_agent.nodes import make_answer, make_commit, make_human_approval, make_load_memory, make_propose_facts
from memory_agent.stores.long_term import LongTermMemory


def build_graph(memory: LongTermMemory, model: BaseChatModel, checkpointer=None, *,
                context_schema: type[AgentContext] = AgentContext):
    """Compile ``load_memory → answer → propose_facts → human_approval → commit``.

    Args:
        memory: long-term memory (facts of all users; each run is scoped by ``context.user_id``).
        model: any LangChain chat model; ``propose_facts`` uses its ``with_structured_output``.
        checkpointer: a LangGraph checkpointer (working memory), e.g. ``SqliteSaver``; ``None``
            compiles without one (``langgraph dev`` supplies its own).
        context_schema: ``AgentContext`` or a subclass (``memory_agent.server`` uses one that also takes
            the clock as an ISO 8601 string, as JSON clients send it).

    Returns:
        A compiled graph; run it with ``context=AgentContext(...)`` and
        ``config={"configurable": {"thread_id": ...}}``.
    """
    g = StateGraph(AgentState, context_schema=context_schema)
    g.add_node("load_memory", make_load_memory(memory))
    g.add_node("answer", make_answer(model))
    g.add_node("propose_facts", make_propose_facts(memory, model))
    g.add_node("human_approval", make_human_approval())
    g.add_node("commit", make_commit(memory))
    g.add_edge(START, "load_memory")
    g.add_edge("load_memory", "answer")
    g.add_edge("answer", "propose_facts")
    g.add_edge("propose_facts", "human_approval")
    g.add_edge("human_approval", "commit")
    g.add_edge("commit", END)
    return g.compile(checkpointer=checkpointer)
