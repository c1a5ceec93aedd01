"""The one list of tools the agent binds: the memory tools, then the user's own (``USER_TOOLS``)."""

from __future__ import annotations

from langchain_core.tools import BaseTool, StructuredTool

from memory_agent.stores.long_term import LongTermMemory
from memory_agent.tools.memory_tools import memory_tools
from memory_agent.tools.user_tools import USER_TOOLS


def agent_tools(memory: LongTermMemory | None) -> list[BaseTool]:
    """The memory tools over ``memory`` (none when ``memory`` is ``None``, e.g. to draw the diagram) and
    every function of ``memory_agent.tools.user_tools.USER_TOOLS`` as a LangChain tool.

    Raises:
        ValueError: two tools share a name (the model could not tell them apart).
    """
    tools = memory_tools(memory) if memory is not None else []
    tools += [t if isinstance(t, BaseTool) else StructuredTool.from_function(t) for t in USER_TOOLS]
    names = [t.name for t in tools]
    if len(set(names)) != len(names):
        raise ValueError(f"Two tools share a name in {names}: rename one in memory_agent/tools/user_tools.py")
    return tools
