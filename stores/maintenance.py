"""The maintenance pass over the stores, and renewal of a fact the user confirmed.

The rules (validity by kind, review dates, decay) are :mod:`memory_agent.memory.lifecycle`; its
docstring lists the steps of :func:`maintain`. Here they are applied to a
:class:`memory_agent.stores.long_term.LongTermMemory`: every change is one of its journaled writes
(:mod:`memory_agent.stores.lifecycle_writes`), to the ledger, the live index and the audit log
(``decided_by = "maintain"``, or ``"user"`` for :func:`renew`), so a pass killed at any point is
finished by ``repair()`` and a second pass at the same time changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memory_agent.core.facts import Fact, stable_id
from memory_agent.memory.lifecycle import DEFAULT_POLICY, LifecyclePolicy, decayed_importance, review_due
from memory_agent.memory.reconcile import same_statement
from memory_agent.memory.retrieval import cosine_similarity
from memory_agent.memory.text import normalise
from memory_agent.stores.long_term import LongTermMemory


@dataclass
class MaintenanceReport:
    """What one :func:`maintain` pass did; lists hold ``{"user_id", "fact_id", "content", ...}``."""

    expired: list[dict[str, Any]] = field(default_factory=list)
    review_queue: list[dict[str, Any]] = field(default_factory=list)
    pruned: list[dict[str, Any]] = field(default_factory=list)
    merged: list[dict[str, Any]] = field(default_factory=list)
    checkpoints_pruned: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {k: list(v) for k, v in self.__dict__.items()}


def maintain(memory: LongTermMemory, now: datetime, *, checkpoints: Any = None,
             users: Iterable[str] | None = None, policy: LifecyclePolicy = DEFAULT_POLICY,
             dry_run: bool = False) -> MaintenanceReport:
    """Run the maintenance pass (steps: :mod:`memory_agent.memory.lifecycle`) for ``users`` (default: every user
    with a fact). ``checkpoints`` is a callable ``(user_id) -> list of finished-thread results``
    that prunes the user's checkpoints (``MemoryAgent.prune_checkpoints``); ``None`` skips that
    step. ``dry_run`` reports without writing. Idempotent: a second pass at the same ``now``
    changes nothing."""
    report = MaintenanceReport()
    for user_id in (list(users) if users is not None else memory.ledger.users()):
        _maintain_user(memory, user_id, now, policy, report, dry_run)
        if checkpoints is not None and not dry_run:
            pruned = [{"user_id": user_id, **r} for r in checkpoints(user_id)]
            report.checkpoints_pruned += pruned
            if pruned:
                memory.ledger.audit({
                    "id": stable_id(user_id, "checkpoints", now.isoformat(), prefix="a_"), "user_id": user_id,
                    "at": now, "operation": "PRUNE_CHECKPOINTS", "decision": "pruned", "decided_by": "maintain",
                    "reason": f"{sum(r['removed'] for r in pruned)} old checkpoint(s) of {len(pruned)} finished "
                              "thread(s) removed; the latest of each is kept",
                })
    return report


def _maintain_user(memory: LongTermMemory, user_id: str, now: datetime, policy: LifecyclePolicy,
                   report: MaintenanceReport, dry_run: bool) -> None:
    live = memory.live(user_id)
    kept: list[Fact] = []
    for fact in live:
        item = {"user_id": user_id, "fact_id": fact.id, "kind": fact.kind, "content": fact.content}
        if not fact.is_valid_at(now):
            report.expired.append({**item, "valid_until": fact.valid_until.isoformat()})
            if not dry_run:
                _retire(memory, fact, now, "EXPIRE", f"valid until {fact.valid_until.isoformat()}")
            continue
        decayed = decayed_importance(fact, now, policy)
        if decayed < policy.prune_below:
            last = (fact.last_used_at or fact.updated_at).isoformat()
            reason = f"pruned: importance {fact.importance:.2f} decayed to {decayed:.3f}, unused since {last}"
            report.pruned.append({**item, "decayed_importance": round(decayed, 4), "unused_since": last})
            if not dry_run:
                _retire(memory, fact, now, "PRUNE", reason)
            continue
        if review_due(fact, now, policy):
            report.review_queue.append({**item, "review_at": fact.review_at.isoformat()})
        kept.append(fact)
    _merge_duplicates(memory, user_id, kept, now, policy, report, dry_run)


def _merge_duplicates(memory: LongTermMemory, user_id: str, facts: list[Fact], now: datetime,
                      policy: LifecyclePolicy, report: MaintenanceReport, dry_run: bool) -> None:
    if len(facts) < 2:
        return
    vectors = memory.embeddings.embed_documents([f.index_text for f in facts])
    gone: set[str] = set()
    for i, keep in enumerate(facts):  # oldest first: the older fact survives
        if keep.id in gone:
            continue
        for j in range(i + 1, len(facts)):
            dup = facts[j]
            if dup.id in gone or dup.kind != keep.kind or dup.sensitivity != keep.sensitivity:
                continue
            sim = cosine_similarity(vectors[i], vectors[j])
            if not same_statement(dup.content, keep.content, sim, policy.merge_similarity):
                continue
            exact = normalise(dup.content) == normalise(keep.content)
            gone.add(dup.id)
            report.merged.append({"user_id": user_id, "fact_id": keep.id, "merged_id": dup.id,
                                  "content": keep.content, "merged_content": dup.content,
                                  "similarity": round(sim, 4), "exact": exact})
            if dry_run:
                continue
            memory.merge(user_id, keep.id, dup.id, now, round(sim, 4), exact, vector=vectors[i])


def _retire(memory: LongTermMemory, fact: Fact, now: datetime, operation: str, reason: str) -> None:
    """Mark a live fact expired with its audit row, and remove it from the live index (journaled:
    :meth:`memory_agent.stores.lifecycle_writes.LifecycleWrites.retire`)."""
    memory.retire(fact, now, operation, reason)


def renew(memory: LongTermMemory, user_id: str, fact_id: str, now: datetime, thread_id: str | None,
          policy: LifecyclePolicy = DEFAULT_POLICY) -> bool:
    """The user confirmed a fact that was due for review: give it a new review date (and validity)
    from ``now``. Returns True when it changed; audited as ``RENEW`` (journaled:
    :meth:`memory_agent.stores.lifecycle_writes.LifecycleWrites.renew`)."""
    return memory.renew(user_id, fact_id, now, thread_id, policy)
