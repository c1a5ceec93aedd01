"""Lifecycle writes of :class:`memory_agent.stores.long_term.LongTermMemory`, each journaled
(:mod:`memory_agent.stores.journal`): a live fact retired by ``maintain`` (expired or pruned), a
duplicate merged into an older fact, a fact renewed when the user confirmed it, the user's memory
switch and a session summary.

Each status change is a compare-and-set written with its audit row in one ledger transaction, so a
fact never ends without its audit row, and a fact another writer ended meanwhile is left alone. A
merge records the duplicate in ``merged_from`` in that same transaction, so a replay never repeats it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from memory_agent.core.facts import Fact, stable_id
from memory_agent.memory.lifecycle import DEFAULT_POLICY, LifecyclePolicy, expires_by_kind, review_due, validity
from memory_agent.stores.journal import JournaledWrites


class LifecycleWrites(JournaledWrites):
    """Retire, merge, renew and summaries; mixed into ``LongTermMemory``, which sets ``_embed``."""

    _embed: Callable[[str, str], list[float]]

    # ---- retire (EXPIRE, PRUNE) ----------------------------------------------------------------
    def retire(self, fact: Fact, now: datetime, operation: str, reason: str) -> bool:
        """Mark a live fact ``expired`` (``operation``: ``EXPIRE`` past its validity, ``PRUNE`` decayed)
        with its audit row (``decided_by = maintain``), and remove it from the live index. True when
        it changed; False when another writer ended it first."""
        user_id = fact.user_id
        entry = stable_id(user_id, operation, fact.id, prefix="j_")
        payload = {"fact_id": fact.id, "operation": operation, "reason": reason, "now": now.isoformat()}
        with self._writing(user_id):
            self._begin(user_id, entry, "retire", payload, now)
            return self._replay_retire(user_id, entry, payload)["written"]

    def _replay_retire(self, user_id: str, entry: str, p: dict[str, Any]) -> dict[str, Any]:
        fact = self.ledger.get_fact(user_id, p["fact_id"])
        written = fact is not None and self.ledger.change_status(
            user_id, fact.id, "expired", datetime.fromisoformat(p["now"]), audit={
                "id": stable_id(user_id, p["operation"], fact.id, prefix="a_"), "user_id": user_id, "at": p["now"],
                "operation": p["operation"], "kind": fact.kind, "content": fact.content, "decision": "expired",
                "decided_by": "maintain", "fact_id": fact.id, "reason": p["reason"]})
        self.index.delete(user_id, [p["fact_id"]])  # not live either way: expired now, or ended by another writer
        self.ledger.journal_end(user_id, entry)
        return {"fact_id": p["fact_id"], "written": written}

    # ---- merge duplicates --------------------------------------------------------------------------
    def merge(self, user_id: str, keep_id: str, dup_id: str, now: datetime, similarity: float, exact: bool,
              vector: Sequence[float] | None = None) -> bool:
        """Merge the duplicate ``dup_id`` into the older ``keep_id``: the kept fact gains the duplicate's
        sources (``merged_sources``, ``merged_from``), uses and importance; the duplicate is superseded by
        it, with the ``MERGE`` audit row, in one ledger transaction; then the live index follows.
        ``vector``: the kept fact's embedding, if the caller has it. True when merged now; False when
        either fact is no longer live (another writer ended it) or the merge was already made."""
        entry = stable_id(user_id, "merge", keep_id, dup_id, prefix="j_")
        payload = {"keep_id": keep_id, "dup_id": dup_id, "now": now.isoformat(), "similarity": similarity,
                   "exact": exact}
        with self._writing(user_id):
            self._begin(user_id, entry, "merge", payload, now)
            return self._replay_merge(user_id, entry, payload, vector)["written"]

    def _replay_merge(self, user_id: str, entry: str, p: dict[str, Any],
                      vector: Sequence[float] | None = None) -> dict[str, Any]:
        now = datetime.fromisoformat(p["now"])
        keep, dup = self.ledger.get_fact(user_id, p["keep_id"]), self.ledger.get_fact(user_id, p["dup_id"])
        written = False
        if keep is not None and dup is not None and keep.status == "confirmed" and dup.id not in keep.merged_from \
                and dup.status == "confirmed":
            merged = keep.model_copy(update={
                "merged_sources": [*keep.merged_sources, dup.source, *dup.merged_sources],
                "merged_from": [*keep.merged_from, dup.id, *dup.merged_from],
                "use_count": keep.use_count + dup.use_count,
                "importance": max(keep.importance, dup.importance),
                "last_used_at": max((t for t in (keep.last_used_at, dup.last_used_at) if t), default=None),
                "updated_at": now,
            })
            reason = "exact duplicate" if p["exact"] else f"near duplicate (cosine {p['similarity']:.3f})"
            audit = {
                "id": stable_id(user_id, "merge", keep.id, dup.id, prefix="a_"), "user_id": user_id, "at": now,
                "operation": "MERGE", "kind": keep.kind, "content": keep.content, "decision": "merged",
                "decided_by": "maintain", "fact_id": keep.id, "target_id": dup.id,
                "reason": f"{reason} of {dup.content!r}; its source is kept in merged_sources"}
            written = self.ledger.change_status(user_id, dup.id, "superseded", now, superseded_by=keep.id,
                                                update=merged, audit=audit)
        keep = self.ledger.get_fact(user_id, p["keep_id"])
        dup = self.ledger.get_fact(user_id, p["dup_id"])
        if keep is not None and keep.status == "confirmed" and dup is not None and dup.superseded_by == keep.id:
            self.index.upsert(user_id, [keep], [list(vector) if vector is not None
                                                else self._embed(user_id, keep.index_text)])
            self.index.delete(user_id, [dup.id])
        self.ledger.journal_end(user_id, entry)
        return {"fact_id": p["keep_id"], "merged_id": p["dup_id"], "written": written}

    # ---- renew -----------------------------------------------------------------------------------
    def renew(self, user_id: str, fact_id: str, now: datetime, thread_id: str | None,
              policy: LifecyclePolicy = DEFAULT_POLICY) -> bool:
        """The user confirmed a fact that was due for review: give it a new review date (and validity)
        from ``now``, audited as ``RENEW`` in the same transaction. True when it changed."""
        with self._writing(user_id):
            fact = self.ledger.get_fact(user_id, fact_id)
            if fact is None or fact.status != "confirmed" or not review_due(fact, now, policy):
                return False
            fresh = validity(fact.kind, now, policy)
            if fact.valid_until is not None and not expires_by_kind(fact.kind, policy):
                fresh["valid_until"] = fact.valid_until  # an end the user stated: a renewal is not a new end
            entry = stable_id(user_id, "renew", fact_id, now.isoformat(), prefix="j_")
            payload = {"fact_id": fact_id, "now": now.isoformat(), "thread_id": thread_id,
                       **{k: v.isoformat() if v else None for k, v in fresh.items()}}
            self._begin(user_id, entry, "renew", payload, now)
            return self._replay_renew(user_id, entry, payload)["written"]

    def _replay_renew(self, user_id: str, entry: str, p: dict[str, Any]) -> dict[str, Any]:
        now = datetime.fromisoformat(p["now"])
        fact = self.ledger.get_fact(user_id, p["fact_id"])
        written = False
        if fact is not None and fact.status == "confirmed":
            renewed = fact.model_copy(update={
                "review_at": datetime.fromisoformat(p["review_at"]) if p.get("review_at") else None,
                "valid_until": datetime.fromisoformat(p["valid_until"]) if p.get("valid_until") else None,
                "updated_at": now})
            next_review = renewed.review_at.isoformat() if renewed.review_at else "none"
            written = renewed != fact and self.ledger.update_live_fact(renewed, audit={
                "id": stable_id(user_id, "renew", fact.id, p["now"], prefix="a_"), "user_id": user_id, "at": now,
                "thread_id": p.get("thread_id"), "operation": "RENEW", "kind": fact.kind, "content": fact.content,
                "decision": "renewed", "decided_by": "user", "fact_id": fact.id,
                "reason": f"confirmed by the user; next review {next_review}"})
            self.index.upsert(user_id, [renewed], [self._embed(user_id, renewed.index_text)])
        self.ledger.journal_end(user_id, entry)
        return {"fact_id": p["fact_id"], "written": written}

    # ---- the memory switch -------------------------------------------------------------------------
    def set_memory_enabled(self, user_id: str, enabled: bool, now: datetime) -> None:
        """Turn the user's long-term memory on or off, with its ``SETTING`` audit row (journaled)."""
        entry = stable_id(user_id, "switch", str(enabled), now.isoformat(), prefix="j_")
        payload = {"enabled": enabled, "now": now.isoformat()}
        with self._writing(user_id):
            self._begin(user_id, entry, "setting", payload, now)
            self._replay_setting(user_id, entry, payload)

    def _replay_setting(self, user_id: str, entry: str, p: dict[str, Any]) -> dict[str, Any]:
        self.ledger.set_memory_enabled(user_id, p["enabled"], datetime.fromisoformat(p["now"]))
        self.ledger.journal_end(user_id, entry, audit={
            "id": stable_id(user_id, "switch", str(p["enabled"]), p["now"], prefix="a_"), "user_id": user_id,
            "at": p["now"], "operation": "SETTING", "decision": "memory on" if p["enabled"] else "memory off",
            "decided_by": "user"})
        return {"memory_enabled": p["enabled"]}

    # ---- session summaries -------------------------------------------------------------------------
    def save_summary(self, row: dict[str, Any], audit: dict[str, Any]) -> None:
        """Write the summary of one thread (``row``: the ledger's summary columns) and its audit row:
        journaled, so a summary is never left without its audit row (or the other way round)."""
        user_id = row["user_id"]
        payload = {"row": _iso(row), "audit": _iso(audit)}
        entry = stable_id(user_id, "summary", row["thread_id"], audit["id"], prefix="j_")
        with self._writing(user_id):
            self._begin(user_id, entry, "summary", payload, datetime.fromisoformat(payload["audit"]["at"]))
            self._replay_summary(user_id, entry, payload)

    def _replay_summary(self, user_id: str, entry: str, p: dict[str, Any]) -> dict[str, Any]:
        self.ledger.save_summary(p["row"])
        self.ledger.journal_end(user_id, entry, audit=p["audit"])
        return {"thread_id": p["row"]["thread_id"]}


def _iso(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with datetimes as ISO-8601 text (as the ledger stores them), for a journal payload."""
    return {k: v.isoformat() if isinstance(v, datetime) else v for k, v in row.items()}
