"""Session and episodic memory read from the stores.

The rules are :mod:`memory_agent.memory.sessions`; these functions fetch what they need from a
:class:`memory_agent.stores.long_term.LongTermMemory` (or its ledger) and hand it to them. Every
line they return still goes through :mod:`memory_agent.memory.gate` before it reaches a prompt.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from memory_agent.core.facts import Fact
from memory_agent.core.kinds import profile_kinds, profile_when_relevant
from memory_agent.memory.sessions import (
    asks_about_earlier_sessions,
    asks_for_episodes,
    episode_lines,
    presents_answers,
    profile_lines,
    relevant_summaries,
    shares_content_word,
    summary_lines,
    summary_text,
    time_range,
)
from memory_agent.stores.base import FactLedger
from memory_agent.stores.long_term import LongTermMemory


def live_facts_by_id(ledger: FactLedger, user_id: str) -> dict[str, Fact]:
    """The user's confirmed facts in the ledger, by id (one query)."""
    return {f.id: f for f in ledger.facts(user_id, status="confirmed")}


def session_context(memory: LongTermMemory, user_id: str, query: str, now: datetime, *, first_turn: bool,
                    skip_ids: Collection[str] = (), retrieved_ids: Collection[str] = ()) -> list[dict[str, Any]]:
    """Session-level lines for one turn of ``user_id`` with the message ``query`` (the ``load_memory``
    node cuts them, with the episodes, to the token budget ``memory.max_session_tokens``): on a
    thread's ``first_turn`` the live profile facts
    (:func:`memory_agent.memory.sessions.profile_lines`; of a kind marked
    ``profile_when_relevant``, preferences, only those in ``retrieved_ids`` or that say how answers are
    presented, :func:`memory_agent.memory.sessions.presents_answers`), otherwise the
    procedural facts; then the
    summaries of earlier sessions that are relevant to the message
    (:func:`memory_agent.memory.sessions.relevant_summaries`: on the first turn, or on any turn that
    asks about earlier sessions), rendered from the live facts they hold — when the message does not
    ask about earlier sessions, only those facts retrieval found relevant to it (a wrong memory is
    worse than none: "our backend uses Postgres" said beside "I'm vegetarian" stays out of a dinner
    plan). ``skip_ids``: facts
    already injected (not repeated); ``retrieved_ids``: facts retrieval found relevant to ``query``.
    Returns lines ``{"label", "content", "fact_id"?}``."""
    kinds = profile_kinds() if first_turn else ("procedural",)
    relevant = set(retrieved_ids)
    profile = [f for f in memory.ledger.live_facts_of_kinds(user_id, kinds)
               if not profile_when_relevant(f.kind) or f.id in relevant or presents_answers(f)]
    lines = profile_lines(profile, now, skip_ids)
    asked = asks_about_earlier_sessions(query)
    if first_turn or asked:
        summaries = memory.ledger.summaries(user_id)
        if summaries:
            facts = live_facts_by_id(memory.ledger, user_id)
            shown = set(skip_ids) | {line["fact_id"] for line in lines}
            for row in relevant_summaries(query, summaries, facts, now, retrieved_ids):
                new = summary_lines(row, facts, now, shown)
                if not asked:  # loaded for one relevant fact: the session's other facts stay out of the prompt
                    new = [line for line in new if line.get("fact_id") in relevant]
                shown |= {line["fact_id"] for line in new}
                lines += new
    return lines


def episodes_for(memory: LongTermMemory, user_id: str, query: str, now: datetime) -> list[dict[str, Any]]:
    """Episodes a question asks for: those in its :func:`memory_agent.memory.sessions.time_range`,
    else, for a question about decisions or events, those sharing a content word with it; oldest
    first, as lines ``{"label": "episode YYYY-MM-DD", "content", "fact_id"}``, only for episodes
    whose fact is still live and valid at ``now``."""
    span = time_range(query, now)
    if span is not None:
        rows = memory.ledger.episodes(user_id, span[0], span[1])
    elif asks_for_episodes(query):
        rows = [e for e in memory.ledger.episodes(user_id, None, now) if shares_content_word(query, e)]
    else:
        return []
    return episode_lines(rows, live_facts_by_id(memory.ledger, user_id), now) if rows else []


def rendered_summary(ledger: FactLedger, row: dict[str, Any], now: datetime) -> dict[str, Any]:
    """``row`` with ``text``: :func:`memory_agent.memory.sessions.summary_text` from the user's live
    facts at ``now`` (for people: ``/end`` in chat). Nothing is written."""
    return {**row, "text": summary_text(row, live_facts_by_id(ledger, row["user_id"]), now)}
