"""The agent's tools: the memory tools and the user's own, in one registry.

- ``user_tools``: **your own tools**. Adding one is one function and one line in ``USER_TOOLS``.
- ``memory_tools``: read-only tools over this user's long-term memory (search, profile, open items).
- ``registry``: :func:`agent_tools`, the list the graph binds to the model.

Every tool reads the run's user from the runtime context (``runtime.context.user_id``), never from an
argument the model fills in; no tool writes memory ("remember that…" and "forget…" are proposals of
``propose_facts``, approved and committed like any other). The ``tools`` node passes every result
through ``memory_agent.memory.gate`` before the model reads it.
"""

from memory_agent.tools.registry import agent_tools

__all__ = ["agent_tools"]
