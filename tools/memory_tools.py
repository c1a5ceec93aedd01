"""Read-only tools over the run's user's long-term memory: search, profile, open items.

Each tool reads the user and the clock from the run's context (``runtime.context``, filled by the graph
and hidden from the model). Their argument schemas forbid any other argument, so a call naming a
``user_id`` is refused with an error message before the tool runs. Each returns ``(summary, lines)``
(``response_format="content_and_artifact"``): ``lines`` are ``{"label", "content"}`` dicts that the
``tools`` node renders through ``memory_agent.memory.gate.tool_block`` (screened, escaped, fenced,
labelled as data). With the user's memory off (``memories ... off`` or the turn's switch) they return
nothing. None writes: "remember that…" and "forget…" are proposals of ``propose_facts``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from langgraph.prebuilt import ToolRuntime
from pydantic import BaseModel, ConfigDict, Field

from memory_agent.core.kinds import profile_kinds
from memory_agent.graph.context import AgentContext
from memory_agent.memory.sessions import episode_lines, profile_lines, shares_content_word, summary_lines, time_range
from memory_agent.stores.long_term import LongTermMemory
from memory_agent.stores.session_memory import live_facts_by_id

#: Most lines one memory tool returns.
MAX_LINES = 20


class _Scoped(BaseModel):
    """Arguments of a memory tool: only those declared; ``runtime`` is filled by the graph."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)
    runtime: ToolRuntime[AgentContext]


class SearchArgs(_Scoped):
    query: str = Field(description="what to look for, in plain words")
    since: str | None = Field(default=None, description="only what dates from this day on (YYYY-MM-DD)")
    until: str | None = Field(default=None, description="only what dates from before this day (YYYY-MM-DD)")


def _day(value: str | None, name: str) -> datetime | None:
    """``YYYY-MM-DD`` (or a full ISO 8601 time) as an aware UTC datetime; ``ValueError`` says what to send."""
    if value is None or not str(value).strip():
        return None
    try:
        parsed = datetime.fromisoformat(str(value).strip())
    except ValueError:
        raise ValueError(f"{name} must be a date like 2025-03-01, not {value!r}") from None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def _memory_on(memory: LongTermMemory, runtime: ToolRuntime[AgentContext]) -> bool:
    """The turn's memory switch (as ``load_memory`` fixed it) and the user's own."""
    turn = (runtime.state or {}).get("turn") if isinstance(runtime.state, dict) else None
    enabled = turn["memory_enabled"] if turn else runtime.context.memory_enabled
    return bool(enabled) and memory.ledger.memory_enabled(runtime.context.user_id)


def _result(lines: list[dict[str, Any]], what: str) -> tuple[str, list[dict[str, Any]]]:
    lines = lines[:MAX_LINES]
    return (f"{len(lines)} {what}" if lines else f"no {what}"), lines


def memory_tools(memory: LongTermMemory) -> list[BaseTool]:
    """The memory tools over ``memory``: ``search_memories``, ``get_user_profile``, ``list_open_items``."""

    def search_memories(query: str, runtime: ToolRuntime[AgentContext], since: str | None = None,
                        until: str | None = None) -> tuple[str, list[dict[str, Any]]]:
        """Search what you remember about this user (facts, dated episodes, earlier sessions) for a query,
        optionally only within a time range. Use it when the user asks what you know or remember about
        something, or when an earlier conversation may hold the answer."""
        if not _memory_on(memory, runtime):
            return _result([], "memories (memory is off for this user)")
        user, now = runtime.context.user_id, runtime.context.clock()
        start, end = _day(since, "since"), _day(until, "until")
        if start is None and end is None and (span := time_range(query, now)) is not None:
            start, end = span
        ranged = start is not None or end is not None

        def inside(at: datetime) -> bool:
            return (start is None or at >= start) and (end is None or at < end)

        lines = [{"label": s.fact.kind, "content": s.fact.content, "fact_id": s.fact.id}
                 for s in memory.retrieve(user, query, now, top_k=memory.retrieval.top_k * 2)
                 if not ranged or inside(s.fact.updated_at)]
        facts = live_facts_by_id(memory.ledger, user)
        episodes = memory.ledger.episodes(user, start, end if end is not None else now) if ranged else [
            e for e in memory.ledger.episodes(user, None, now) if shares_content_word(query, e)]
        lines += episode_lines(episodes, facts, now)
        if ranged:  # earlier sessions that ended in the range, rendered from their live facts
            for row in memory.ledger.summaries(user):
                ended = _day(str(row.get("ended_at") or ""), "ended_at")
                if ended is not None and inside(ended):
                    lines += summary_lines(row, facts, now)
        seen: set[str] = set()
        unique = [line for line in lines if not (line.get("fact_id") in seen or seen.add(line.get("fact_id")))]
        return _result(unique, "memories found")

    def get_user_profile(runtime: ToolRuntime[AgentContext]) -> tuple[str, list[dict[str, Any]]]:
        """This user's profile: how they like answers presented, their restrictions and preferences."""
        if not _memory_on(memory, runtime):
            return _result([], "profile lines (memory is off for this user)")
        user, now = runtime.context.user_id, runtime.context.clock()
        return _result(profile_lines(memory.ledger.live_facts_of_kinds(user, profile_kinds()), now), "profile lines")

    def list_open_items(runtime: ToolRuntime[AgentContext]) -> tuple[str, list[dict[str, Any]]]:
        """This user's open items: commitments and to-dos they told you about that are still live."""
        if not _memory_on(memory, runtime):
            return _result([], "open items (memory is off for this user)")
        user, now = runtime.context.user_id, runtime.context.clock()
        live = [f for f in memory.ledger.live_facts_of_kinds(user, ("commitment",)) if f.is_valid_at(now)]
        return _result([{"label": "open item", "content": f.content, "fact_id": f.id} for f in live], "open items")

    return [
        StructuredTool.from_function(search_memories, args_schema=SearchArgs, response_format="content_and_artifact"),
        StructuredTool.from_function(get_user_profile, args_schema=_Scoped, response_format="content_and_artifact"),
        StructuredTool.from_function(list_open_items, args_schema=_Scoped, response_format="content_and_artifact"),
    ]
