"""The agent's LangGraph state machine: ``load_memory → answer → propose_facts → human_approval → commit``."""

from graph.builder import build_graph
from graph.context import AgentContext
from graph.state import AgentState

__all__ = ["AgentContext", "AgentState", "build_graph"]
