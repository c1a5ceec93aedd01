"""User control over what is kept: list, show and history of the memories, correct (edit) or
delete one, and the per-user memory switch. Erasure (``forget --since``, ``forget-user``) is in
:mod:`memory_agent.app.erasure`, the export of everything kept in :mod:`memory_agent.app.export`.

Plain functions on an open :class:`memory_agent.app.agent.MemoryAgent` that return JSON-friendly
values, so a web page (or any other front end) can call them; the ``memory-agent`` CLI
(``memory_agent.cli.memories``) is a thin layer on top. Every function is scoped to one
``user_id``; every change is written to the audit log. Times come from the caller's clock
``now`` (the context clock), never the wall clock behind its back.

Errors: :class:`MemoryNotFoundError` for a fact id the user does not have,
:class:`ControlError` for a request that cannot be carried out or a user id that names no user
(:func:`check_user`; the message says what to do).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memory_agent.app.agent import MemoryAgent
from memory_agent.core.facts import Fact, Proposal, Source, stable_id
from memory_agent.graph.context import user_id_problem
from memory_agent.memory.lifecycle import expires_by_kind
from memory_agent.memory.validation import check_edit
from memory_agent.stores.session_memory import rendered_summary


class ControlError(ValueError):
    """A user-control request that cannot be carried out (the message says what to do)."""


class MemoryNotFoundError(ControlError):
    """The user has no fact with this id."""


def check_user(user_id: object) -> str:
    """``user_id`` when it names a user; :class:`ControlError` with the reason otherwise (blank, too
    long, control or invisible characters, a tombstone id: ``memory_agent.graph.context.user_id_problem``).
    Every function here and in :mod:`memory_agent.app.export` starts with it."""
    problem = user_id_problem(user_id)
    if problem:
        raise ControlError(problem)
    return user_id  # type: ignore[return-value]


# ---- read --------------------------------------------------------------------------------------
def list_memories(agent: MemoryAgent, user_id: str) -> dict[str, Any]:
    """``{"user_id", "memory_enabled": bool, "facts": [Fact dicts]}``: the live memories, oldest first."""
    check_user(user_id)
    return {"user_id": user_id, "memory_enabled": agent.memory.ledger.memory_enabled(user_id),
            "facts": [f.model_dump(mode="json") for f in agent.memory.live(user_id)]}


def show_memory(agent: MemoryAgent, user_id: str, fact_id: str) -> dict[str, Any]:
    """One fact of the user (any status) with its provenance.

    Raises:
        MemoryNotFoundError: no such fact for this user.
    """
    check_user(user_id)
    return _fact(agent, user_id, fact_id).model_dump(mode="json")


def memory_history(agent: MemoryAgent, user_id: str, fact_id: str | None = None) -> dict[str, Any]:
    """With ``fact_id``: ``{"chain": [...]}``, its supersede chain oldest first. Without:
    ``{"facts": [...], "audit": [...]}``, every fact ever committed and the audit log.

    Raises:
        MemoryNotFoundError: ``fact_id`` given and not the user's.
    """
    check_user(user_id)
    if fact_id is not None:
        chain = agent.memory.history(user_id, fact_id)
        if not chain:
            raise MemoryNotFoundError(_missing(user_id, fact_id))
        return {"user_id": user_id, "fact_id": fact_id, "chain": [f.model_dump(mode="json") for f in chain]}
    return {"user_id": user_id, "facts": [f.model_dump(mode="json") for f in agent.memory.ledger.facts(user_id)],
            "audit": agent.memory.ledger.audit_rows(user_id)}


def recent_sessions(agent: MemoryAgent, user_id: str, now: datetime, limit: int = 10) -> list[dict[str, Any]]:
    """The user's last ``limit`` ended sessions, newest first: each summary row (``thread_id``,
    ``started_at``, ``ended_at``, ``fact_ids``) with ``text`` rendered from the live facts at ``now``
    (a deleted fact no longer shows)."""
    check_user(user_id)
    rows = agent.memory.ledger.summaries(user_id)  # newest first
    return [rendered_summary(agent.memory.ledger, row, now) for row in rows[:limit]]


# ---- write -------------------------------------------------------------------------------------
def edit_memory(agent: MemoryAgent, user_id: str, fact_id: str, content: str, now: datetime) -> dict[str, Any]:
    """Correct a live memory: the new wording becomes a new fact that supersedes the old one (the
    old one stays in the history), through the same writer and audit log as an approved update.

    Returns the new fact (dict).

    Raises:
        MemoryNotFoundError: no such fact for this user.
        ControlError: the fact is not live, or the new content is refused (empty, too long, an
            instruction to the agent).
    """
    check_user(user_id)
    old = _fact(agent, user_id, fact_id)
    if old.status != "confirmed":
        raise ControlError(f"Fact {fact_id} is {old.status}, not live: edit the live version "
                           "(see memory-agent memories history).")
    problem = check_edit(content)
    if problem:
        raise ControlError(f"The edit was refused: {problem}. Nothing was changed.")
    content = content.strip()
    proposal = Proposal(
        id=stable_id(user_id, fact_id, content, now.isoformat(), prefix="p_"), operation="UPDATE", kind=old.kind,
        content=content, topic=old.topic, source=Source(thread_id=old.source.thread_id,
                                                        message_ids=list(old.source.message_ids)),
        evidence=old.evidence, confidence=1.0, importance=old.importance, sensitivity=old.sensitivity,
        target_id=fact_id, target_content=old.content, reason="edited by the user",
        valid_until=old.valid_until if not expires_by_kind(old.kind) else None,  # an end the user stated stays
    )
    summary = agent.memory.apply(user_id, proposal, "approve", now, "user (memories edit)")
    return agent.memory.ledger.get_fact(user_id, summary["fact_id"]).model_dump(mode="json")


def delete_memory(agent: MemoryAgent, user_id: str, fact_id: str, now: datetime) -> dict[str, Any]:
    """Delete a memory for good: every version of its supersede chain leaves the live index and
    the ledger (with their usage rows and episodes), and the audit rows about them lose their
    text (a tombstone). One audit row records the deletion, without content.

    Session summaries and episodes that held it no longer show it (they keep fact ids and are
    rendered from the live facts when read). The transcript of the conversation the fact
    came from is working memory and stays; delete it with :func:`memory_agent.app.erasure.forget_since` or
    :func:`memory_agent.app.erasure.forget_user`. One journaled write
    (:meth:`memory_agent.stores.erasure_writes.ErasureWrites.delete_chain`): a delete cut short is
    finished by the next write, turn or open.

    Returns ``{"deleted": [fact ids], "audit_rows_blanked": int}``.

    Raises:
        MemoryNotFoundError: no such fact for this user.
    """
    check_user(user_id)
    _fact(agent, user_id, fact_id)
    return agent.memory.delete_chain(user_id, fact_id, now)


def set_memory_enabled(agent: MemoryAgent, user_id: str, enabled: bool, now: datetime) -> dict[str, Any]:
    """The per-user memory switch. Off: turns read no memories and write none (nothing is
    proposed); what is stored stays until deleted. Recorded in the audit log."""
    check_user(user_id)
    agent.memory.set_memory_enabled(user_id, enabled, now)
    return {"user_id": user_id, "memory_enabled": enabled}


# ---- helpers -------------------------------------------------------------------------------------
def _fact(agent: MemoryAgent, user_id: str, fact_id: str) -> Fact:
    fact = agent.memory.show(user_id, fact_id)
    if fact is None:
        raise MemoryNotFoundError(_missing(user_id, fact_id))
    return fact


def _missing(user_id: str, fact_id: str) -> str:
    return f"No fact {fact_id} for user {user_id}. See the ids with: memory-agent memories list --user ..."
