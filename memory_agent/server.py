"""The graph as ``langgraph dev`` (LangGraph Studio) and the LangGraph server load it.

``langgraph.json`` names :func:`make_graph`. The server supplies its own checkpointer (working
memory: threads, interrupts, resume), so the graph is compiled **without** one; long-term memory
stays ours: the stores in ``Settings().data_dir`` (or the server backends the settings name),
opened once per server process, on the first call.

Every run passes the run context (``memory_agent.graph.context.AgentContext``; :class:`ServerContext` also
takes ``now`` as an ISO 8601 string) as JSON, e.g. with the LangGraph SDK::

    client.runs.wait(thread_id, "memory_agent", input={"messages": [{"role": "user", "content": "..."}]},
                     context={"user_id": "alice", "approval": "always"})
    client.runs.wait(thread_id, "memory_agent", command={"resume": "approve"}, context={"user_id": "alice"})

The embedded data folder is locked by the server process while it runs: stop the server before
running ``memory-agent`` on the same folder, or give each its own ``MEMORY_AGENT_DATA_DIR``.
"""

from __future__ import annotations

import asyncio
import atexit
import threading
from dataclasses import dataclass
from datetime import datetime

from memory_agent.app.agent import MemoryAgent
from memory_agent.app.settings import Settings
from memory_agent.graph.builder import build_graph
from memory_agent.graph.context import AgentContext


@dataclass(frozen=True)
class ServerContext(AgentContext):
    """:class:`~memory_agent.graph.context.AgentContext` as JSON clients send it: ``now`` may also be an
    ISO 8601 string (``"2025-03-01T09:00:00Z"``). Same fields, same checks otherwise.

    Raises:
        ValueError: ``now`` is a string that is not an ISO 8601 date-time, or any check of
            ``AgentContext`` fails.
    """

    def __post_init__(self) -> None:
        if isinstance(self.now, str):
            try:
                parsed = datetime.fromisoformat(self.now)
            except ValueError:
                raise ValueError(f"now must be an ISO 8601 date-time such as 2025-03-01T09:00:00Z, "
                                 f"not {self.now!r}") from None
            object.__setattr__(self, "now", parsed)  # frozen: set once, before anything reads it
        super().__post_init__()


_lock = threading.Lock()
_agent: MemoryAgent | None = None
_graph = None


def _open():
    """Open the stores and compile the graph once per process (blocking: runs in a worker thread)."""
    global _agent, _graph
    with _lock:
        if _graph is None:
            _agent = MemoryAgent.open(Settings())
            atexit.register(_agent.close)
            warm = getattr(_agent.memory.embeddings, "warm_up", None)
            if callable(warm):
                warm()  # load the embedder in the background before the first run needs it
            _graph = build_graph(_agent.memory, _agent.model, checkpointer=None, context_schema=ServerContext,
                                 max_tool_rounds=_agent.settings.max_tool_rounds)
        return _graph


async def make_graph():
    """The compiled graph (no checkpointer: the server's is used) on this process's long-term memory.

    Async so that opening the stores (file I/O, the SQLite and Chroma clients) runs in a worker
    thread, not on the server's event loop. Settings come from ``MEMORY_AGENT_*`` variables or
    ``.env`` in the server's working folder.

    Raises:
        memory_agent.stores.data_dir.DataDirError: another process holds the data folder.
        memory_agent.stores.base.StoreError, memory_agent.models.chat.ModelError: as ``MemoryAgent.open``.
    """
    if _graph is not None:
        return _graph
    return await asyncio.to_thread(_open)
