"""The agent's LangGraph state machine: ``load_memory → answer (⇄ tools) → propose_facts → human_approval → commit``.

- ``context``: ``AgentContext``, the run's runtime context (user, clock, stores, model).
- ``state``: ``AgentState``, the graph state a checkpointer keeps per thread.
- ``turn``: what one turn hands from node to node.
- ``builder``: ``build_graph``, which wires the nodes of ``memory_agent.nodes``.
- ``diagram``: the graph drawn as Mermaid.
"""
