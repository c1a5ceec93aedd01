"""The agent's LangGraph state machine: ``load_memory → answer → propose_facts → human_approval → commit``.

``build_graph``, ``AgentContext`` and ``AgentState`` are exported lazily, so importing a node
module (which needs ``graph.context``) never imports the builder (which needs the nodes).
"""

from __future__ import annotations

from typing import Any

__all__ = ["AgentContext", "AgentState", "build_graph"]


def __getattr__(name: str) -> Any:
    if name == "build_graph":
        from graph.builder import build_graph

        return build_graph
    if name == "AgentContext":
        from graph.context import AgentContext

        return AgentContext
    if name == "AgentState":
        from graph.state import AgentState

        return AgentState
    raise AttributeError(f"module 'graph' has no attribute {name!r}")
