"""Export: every record kept about one user, across every store, as one JSON-friendly dict
(``memory-agent memories export``)."""

from __future__ import annotations

from typing import Any

from memory_agent.app.agent import MemoryAgent
from memory_agent.app.control import check_user


def export_user(agent: MemoryAgent, user_id: str) -> dict[str, Any]:
    """Every record kept about the user, across every store, as one JSON-friendly dict:

    ``settings`` (memory switch), ``facts`` (ledger, every status), ``live_index`` (the records in
    the vector store), ``audit``, ``session_summaries`` (thread, dates and the ids of the facts
    committed in it), ``episodes``, ``thread_activity`` (first
    and last turn of each thread), ``threads`` (each with its transcript from the checkpointer:
    ``{"role", "content", "id"}``).

    Raises:
        memory_agent.app.control.ControlError: the user id names no user (a tombstone id, invisible
            characters: :func:`memory_agent.app.control.check_user`).
    """
    check_user(user_id)
    ledger = agent.memory.ledger
    threads = []
    for thread_id in ledger.threads(user_id):
        messages = agent.transcript(user_id, thread_id)
        threads.append({"thread_id": thread_id, "messages": [
            {"role": m.type, "content": m.content, "id": m.id} for m in messages]})
    return {
        "user_id": user_id,
        "settings": {"memory_enabled": ledger.memory_enabled(user_id)},
        "facts": [f.model_dump(mode="json") for f in ledger.facts(user_id)],
        "live_index": [f.model_dump(mode="json") for f in agent.memory.index.list(user_id)],
        "audit": ledger.audit_rows(user_id),
        "session_summaries": ledger.summaries(user_id),
        "episodes": ledger.episodes(user_id),
        "thread_activity": {t: [a.isoformat(), b.isoformat()] for t, (a, b) in ledger.thread_activity(user_id).items()},
        "threads": threads,
    }
