"""Session and episodic memory read from (and scrubbed in) the stores.

The rules are :mod:`memory_agent.memory.sessions`; these functions fetch what they need from a
:class:`memory_agent.stores.long_term.LongTermMemory` (or its ledger) and hand it to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memory_agent.core.kinds import profile_kinds
from memory_agent.memory.sessions import (
    asks_for_episodes,
    episode_lines,
    fact_lines,
    scrub_summary,
    session_lines,
    shares_content_word,
    time_range,
)
from memory_agent.stores.base import FactLedger

if TYPE_CHECKING:  # the writers of LongTermMemory use scrub_summaries: no import cycle at run time
    from memory_agent.stores.long_term import LongTermMemory


def session_context(memory: LongTermMemory, user_id: str, budget: int, now: datetime,
                    skip_ids: Sequence[str] = ()) -> list[dict[str, Any]]:
    """What a new session of ``user_id`` starts with: the live profile facts and the session
    summaries of the ledger, as :func:`memory_agent.memory.sessions.session_lines` (token ``budget``)."""
    profile = memory.ledger.live_facts_of_kinds(user_id, profile_kinds())
    return session_lines(profile, memory.ledger.summaries(user_id), budget, now, skip_ids)


def procedural_lines(memory: LongTermMemory, user_id: str, now: datetime,
                     skip_ids: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The user's live procedural facts (how to present answers), for every turn."""
    return fact_lines(memory.ledger.live_facts_of_kinds(user_id, ["procedural"]), now, skip_ids)


def episodes_for(memory: LongTermMemory, user_id: str, query: str, now: datetime) -> list[dict[str, Any]]:
    """Episodes a question asks for: those in its :func:`memory_agent.memory.sessions.time_range`,
    else, for a question about decisions or events, those sharing a content word with it; oldest
    first, as lines ``{"label": "episode YYYY-MM-DD", "content", "fact_id"}``."""
    span = time_range(query, now)
    if span is not None:
        rows = memory.ledger.episodes(user_id, span[0], span[1])
    elif asks_for_episodes(query):
        rows = [e for e in memory.ledger.episodes(user_id, None, now) if shares_content_word(query, e)]
    else:
        return []
    return episode_lines(rows)


def scrub_summaries(ledger: FactLedger, user_id: str, texts: Sequence[str]) -> int:
    """Remove from the user's session summaries every part that contains one of ``texts``
    (:func:`memory_agent.memory.sessions.scrub_summary`) — a step of the journaled writes that retract
    or delete a fact (:mod:`memory_agent.stores.journal`), idempotent. Returns how many summaries changed."""
    changed = 0
    for row in ledger.summaries(user_id):
        new = scrub_summary(row, texts)
        if new["text"] != row["text"]:
            ledger.save_summary(new)
            changed += 1
    return changed
