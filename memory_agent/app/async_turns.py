"""Async twins of ``MemoryAgent.turn`` / ``resume`` / ``stream_turn``, for servers (FastAPI, an asyncio
worker): the same graph (``build_graph``) on the same stores, run with ``astream``.

What is async and what still runs in a thread:

- the checkpointer: ``AsyncSqliteSaver`` (aiosqlite) on the same SQLite file, or ``AsyncPostgresSaver``
  on a psycopg ``AsyncConnectionPool`` with the same URL, one per event loop, opened on first use;
- the model in the ``answer`` node: ``ainvoke``/``astream`` (a provider's own async HTTP client);
- in a thread (LangGraph's executor, or ``asyncio.to_thread``): the other nodes and the checks before
  a turn, which read and write the fact ledger (SQLite or Postgres through the sync pool, with its
  per-user locks and journal), Chroma (embedded, or its sync HTTP client) and the embedder; the
  tools (sync functions) run in a thread of ``ToolNode``.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from langgraph.types import Command

from memory_agent.app.checkpoints import store_errors
from memory_agent.app.turns import ANSWER_TOKEN, InputError, TurnResult, stream_events
from memory_agent.app.wiring import open_async_checkpointer
from memory_agent.graph.builder import build_graph
from memory_agent.nodes.human_approval import parse_decisions
from memory_agent.stores.base import StoreError


class AsyncTurns:
    """Mixed into ``MemoryAgent`` (which provides the graph's parts and the sync helpers used here)."""

    async def _async_graph(self):
        """The graph on this event loop's async checkpointer (opened on first use)."""
        loop = asyncio.get_running_loop()
        entry = self._async_graphs.get(loop)
        if entry is None:
            with store_errors():
                saver, aclose = await open_async_checkpointer(self.settings, self.checkpoint_file)
            entry = (build_graph(self.memory, self.model, saver, max_tool_rounds=self.settings.max_tool_rounds),
                     aclose)
            self._async_graphs[loop] = entry
        return entry[0]

    async def aclose(self) -> None:
        """Close this event loop's async checkpointer connection (then :meth:`close` the agent)."""
        entry = self._async_graphs.pop(asyncio.get_running_loop(), None)
        if entry is not None:
            await entry[1]()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()
        self.close()

    async def _astream(self, payload, config, ctx, tokens: bool = False) -> AsyncIterator[tuple[str, dict, float]]:
        """:meth:`MemoryAgent._stream` with ``astream``."""

        graph = await self._async_graph()
        last = time.perf_counter()
        try:
            with store_errors():
                await asyncio.to_thread(self.memory.repair_if_due)
                modes = ["updates", "messages"] if tokens else ["updates"]
                async for part in graph.astream(payload, config=config, context=ctx, stream_mode=modes):
                    now = time.perf_counter()
                    events = stream_events(part)
                    for node, update in events:
                        yield node, update, 0.0 if node == ANSWER_TOKEN else now - last
                    if any(node != ANSWER_TOKEN for node, _ in events):
                        last = now
        except StoreError:
            self.memory.mark_repair_due()
            raise

    async def astream_turn(self, user_id: str, text: str, *, thread_id: str | None = None,
                           now: datetime | None = None, approval: str | None = None, memory: bool = True,
                           tokens: bool = False) -> AsyncIterator[tuple[str, dict, float]]:
        """Async twin of ``stream_turn`` (same events, same errors)."""
        payload, config, ctx = await asyncio.to_thread(self._begin_turn, user_id, text, thread_id, now, approval,
                                                       memory)
        async for event in self._astream(payload, config, ctx, tokens):
            yield event

    async def aturn(self, user_id: str, text: str, *, thread_id: str | None = None, now: datetime | None = None,
                    approval: str | None = None, memory: bool = True) -> TurnResult:
        """Async twin of ``turn``."""

        thread_id = thread_id or uuid.uuid4().hex
        events = [e async for e in self.astream_turn(user_id, text, thread_id=thread_id, now=now,
                                                     approval=approval, memory=memory)]
        result = self._collect(events, TurnResult())
        result.pending = await asyncio.to_thread(self.pending, user_id, thread_id)
        return result

    async def aresume(self, user_id: str, thread_id: str, decisions: Any, *, now: datetime | None = None
                      ) -> TurnResult:
        """Async twin of ``resume`` (same checks: ``InputError`` when nothing is pending, ``ValueError``
        for a malformed decision, before anything runs)."""

        ctx = self._context(user_id, thread_id, now, None, True)
        pending = await asyncio.to_thread(self.pending, user_id, thread_id)
        if not pending:
            raise InputError(f"Thread {thread_id!r} has no pending approval.")
        parse_decisions(decisions, pending)
        events = [e async for e in self._astream(Command(resume=decisions), self._config(user_id, thread_id), ctx)]
        result = self._collect(events, TurnResult())
        result.pending = await asyncio.to_thread(self.pending, user_id, thread_id)
        return result
