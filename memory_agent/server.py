"""The graph as ``langgraph dev`` (LangGraph Studio) and the LangGraph server load it.

``langgraph.json`` names :func:`make_graph`. The server supplies its own checkpointer (working
memory: threads, interrupts, resume), so the graph is compiled **without** one; long-term memory
stays ours: the stores in ``Settings().data_dir`` (or the server backends the settings name),
opened once per server process, on the first call.

Identity comes from authentication only: ``langgraph.json`` names the auth of
:mod:`memory_agent.server_auth` (per-user API keys), and every run's user id is the authenticated
user the server puts in the run's config (``configurable["langgraph_auth_user"]``), never a field the
client fills in. The approval mode is the deployment's (``MEMORY_AGENT_APPROVAL``). The run context
(:class:`ServerContext`) may still carry ``now`` (an ISO 8601 string), ``memory_enabled`` (it can
only turn memory off: the user's own switch, ``memories off``, wins) and ``thread_id``; a ``user_id``
or ``approval`` in it that differs is refused. With the SDK::

    client = get_sync_client(url=URL, api_key=None, headers={"Authorization": f"Bearer {key}"})
    client.runs.wait(thread_id, "memory_agent", input={"messages": [{"role": "user", "content": "..."}]})
    client.runs.wait(thread_id, "memory_agent", command={"resume": {"decisions": [{"type": "approve"}]}})

The embedded data folder is locked by the server process while it runs: stop the server before
running ``memory-agent`` on the same folder, or give each its own ``MEMORY_AGENT_DATA_DIR``
(``memory-agent users ...`` is the exception: it touches only the key table).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import dataclasses
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from langgraph.graph.state import CompiledStateGraph

from memory_agent.app.accounts import run_context_problem
from memory_agent.app.agent import MemoryAgent
from memory_agent.app.settings import Settings
from memory_agent.graph.builder import build_graph
from memory_agent.graph.context import AgentContext
from memory_agent.memory import tokens
from memory_agent.memory.text import warm_up as warm_up_language_id


@dataclass(frozen=True)
class ServerContext(AgentContext):
    """:class:`~memory_agent.graph.context.AgentContext` as JSON clients send it: ``now`` may also be an
    ISO 8601 string (``"2025-03-01T09:00:00Z"``). Same fields, same checks otherwise.

    Raises:
        ValueError: ``now`` is a string that is not an ISO 8601 date-time, or any check of
            ``AgentContext`` fails.
    """

    # A run without user_id gets user_id_problem's one-line error from AgentContext's check, not a TypeError.
    user_id: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.now, str):
            try:
                parsed = datetime.fromisoformat(self.now)
            except ValueError:
                raise ValueError(f"now must be an ISO 8601 date-time such as 2025-03-01T09:00:00Z, "
                                 f"not {self.now!r}") from None
            object.__setattr__(self, "now", parsed)  # frozen: set once, before anything reads it
        super().__post_init__()


class RunUserError(PermissionError):
    """A run with no authenticated user, or whose context names another user or approval mode."""


def run_context(config: Mapping[str, Any] | None, context: Any, approval: str) -> ServerContext:
    """The context a run executes with: the user id of the run's authenticated user
    (``config["configurable"]["langgraph_auth_user"]``, set by the LangGraph server from the auth of
    ``langgraph.json``), the deployment's ``approval``, and ``now``, ``memory_enabled`` and
    ``thread_id`` from the client's ``context`` (a dict or an :class:`AgentContext`).

    Raises:
        RunUserError: no authenticated user (the server runs without ``memory_agent.server_auth``, or
            it is LangGraph Studio's keyless user), or the client's context names another user id or
            approval mode.
        ValueError: a field of the context fails :class:`ServerContext`'s checks.
    """
    user = ((config or {}).get("configurable") or {}).get("langgraph_auth_user")
    identity = user.get("identity") if isinstance(user, Mapping) else getattr(user, "identity", None)
    if not identity or type(user).__name__ == "StudioUser":
        raise RunUserError("This run has no authenticated user: serve the graph with the auth of langgraph.json "
                           "(memory_agent.server_auth:auth) and send an API key (Authorization: Bearer <key>).")
    given = dataclasses.asdict(context) if dataclasses.is_dataclass(context) else dict(context or {})
    problem = run_context_problem(given, identity, approval)
    if problem:
        raise RunUserError(problem)
    return ServerContext(user_id=identity, approval=approval, now=given.get("now"),
                         memory_enabled=given.get("memory_enabled", True), thread_id=given.get("thread_id"))


class AuthenticatedGraph(CompiledStateGraph):
    """The compiled graph, run only as the authenticated user of each run (:func:`run_context`):
    every way of running it (``invoke``, ``stream``, ``astream``, events) goes through ``stream`` or
    ``astream``, which replace the client's context before anything runs. The approval mode is the
    one of the settings the stores were opened with."""

    def stream(self, input, config=None, *, context=None, **kwargs):  # noqa: A002 - LangGraph's name
        return super().stream(input, config, context=_context_of_run(config, context), **kwargs)

    async def astream(self, input, config=None, *, context=None, **kwargs):  # noqa: A002 - LangGraph's name
        # the user's switch is a database read: off the event loop (the dev server fails blocking calls)
        ctx = await asyncio.to_thread(_context_of_run, config, context)
        async with contextlib.aclosing(super().astream(input, config, context=ctx, **kwargs)) as chunks:
            async for chunk in chunks:
                yield chunk


def _context_of_run(config, context) -> ServerContext:
    """:func:`run_context` under the settings the stores were opened with, and with the user's own
    memory switch (``memories off``): off there means off for the run, whatever the client sent."""
    ctx = run_context(config, context, _agent.settings.approval if _agent is not None else Settings().approval)
    if ctx.memory_enabled and _agent is not None and not _agent.memory.ledger.memory_enabled(ctx.user_id):
        ctx = dataclasses.replace(ctx, memory_enabled=False)
    return ctx


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
            threading.Thread(target=tokens.warm_up, name="tokenizer-warm-up", daemon=True).start()
            threading.Thread(target=warm_up_language_id, name="language-id-warm-up", daemon=True).start()
            compiled = build_graph(_agent.memory, _agent.model, checkpointer=None, context_schema=ServerContext,
                                   max_tool_rounds=_agent.settings.max_tool_rounds)
            # the same graph as AuthenticatedGraph (how Pregel.copy makes its copies)
            _graph = AuthenticatedGraph(**{k: v for k, v in compiled.__dict__.items() if k != "__orig_class__"})
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


def shared_agent() -> MemoryAgent:
    """This process's agent (the stores the graph runs on), opened on first use: what the web page
    mounted in the LangGraph server (:mod:`memory_agent.web.mount`) reads and writes through, since
    the embedded data folder can be opened by one agent per process only.

    Raises: as :func:`make_graph`."""
    _open()
    assert _agent is not None
    return _agent
