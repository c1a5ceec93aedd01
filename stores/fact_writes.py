"""The one writer of :class:`memory_agent.stores.long_term.LongTermMemory` (only the ``commit`` node
calls it): carry out a decision on a proposal, repair unfinished commits, audit dropped proposals,
record usage.

Write order in :meth:`FactWrites.apply` keeps the two stores in agreement and never loses the new
fact of a contradiction: the new fact goes to the ledger and the live index first; only then is
the old one marked superseded in the ledger and removed from the live index; the audit row
comes last. Every id is deterministic, so a retried commit writes nothing twice.

A process can die between those writes (SIGKILL, power, a store going down). So before the first
write, :meth:`FactWrites.apply` records the decision in the ledger's commit journal, and removes
it after the audit row. :meth:`FactWrites.repair` (run when the agent opens) writes every decision
still in the journal again; since each step is idempotent, afterwards no fact is live without its
audit row and no audit row says approved without its fact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from memory_agent.core.facts import PERSON_ONLY_RISKS, Fact, Proposal
from memory_agent.memory.injection import instruction_reason
from memory_agent.memory.lifecycle import validity
from memory_agent.stores.base import FactIndex, FactLedger


class FactWrites:
    """Writes of a user's facts and audit rows; mixed into ``LongTermMemory``, which sets the attributes below."""

    index: FactIndex
    ledger: FactLedger
    _embed: Callable[[str, str], list[float]]

    def apply(
        self, user_id: str, proposal: Proposal, action: str, now: datetime,
        decided_by: str, content: str | None = None,
    ) -> dict[str, Any]:
        """Carry out a decision on one proposal (``action``: approve | edit | reject).

        Idempotent: the fact id derives from the proposal id, so applying the same decision
        twice writes each row once. The last gate before the store, whoever decided: content the
        screen refuses (:func:`memory_agent.memory.injection.instruction_reason`), and an
        entitlement or role claim (``proposal.risk``) not decided by a person (``decided_by`` other
        than ``"user"``), are rejected with the reason in the audit row. Returns a summary
        ``{"proposal_id", "operation", "action", "fact_id", "target_id", "written"}``.

        Raises:
            ValueError: unknown action, or an edit with empty content.
        """
        if action not in ("approve", "edit", "reject"):
            raise ValueError(f"Unknown decision {action!r}: use approve, edit or reject")
        if action == "edit":
            if not content or not content.strip():
                raise ValueError("An edit needs the new content")
            proposal = proposal.model_copy(update={"content": content.strip()})
        refused = instruction_reason(proposal.content) if proposal.operation != "RETRACT" else None
        if not refused and proposal.risk in PERSON_ONLY_RISKS and decided_by != "user":
            refused = f"an {proposal.risk} claim is stored only when a person approves it"
        if refused and (action != "reject" or decided_by.startswith("policy")):  # the last gate, whoever approved
            if action != "reject":
                action, decided_by = "reject", f"validation (approved by {decided_by})"
            proposal = proposal.model_copy(update={"reason": f"refused at commit: {refused}"})
        fact_id = "f_" + proposal.id.removeprefix("p_")
        summary = {"proposal_id": proposal.id, "operation": proposal.operation, "action": action,
                   "content": proposal.content, "fact_id": None, "target_id": proposal.target_id, "written": False}
        audit = {
            "id": f"a_{proposal.id}", "user_id": user_id, "thread_id": proposal.source.thread_id, "at": now,
            "operation": proposal.operation, "kind": proposal.kind, "content": proposal.content,
            "evidence": proposal.evidence,
            "decision": {"approve": "approved", "edit": "edited"}.get(action, "rejected"),
            "decided_by": decided_by, "reason": proposal.reason, "target_id": proposal.target_id,
            "proposal": proposal.model_dump(mode="json"),
        }
        if action == "reject":
            summary["written"] = self.ledger.audit(audit)
            return summary

        entry = f"j_{proposal.id}"
        self.ledger.journal_begin(user_id, entry, {
            "proposal": proposal.model_dump(mode="json"), "action": action, "now": now.isoformat(),
            "decided_by": decided_by, "content": content}, now)
        summary = self._write(user_id, proposal, fact_id, now, audit, summary)
        self.ledger.journal_end(user_id, entry)
        return summary

    def repair(self) -> list[dict[str, Any]]:
        """Write again every decision a process began and did not finish (left in the commit journal
        by a crash or a store that went down mid-commit), each under its own user. Returns the
        summaries of :meth:`apply`; ``[]`` when nothing was left (one small query).

        Raises:
            memory_agent.stores.base.StoreError: a store is down; the journal keeps the entries for the next try.
        """
        done = []
        for entry in self.ledger.journal_open():
            p = entry["payload"]
            proposal = Proposal.model_validate(p["proposal"])
            done.append(self.apply(entry["user_id"], proposal, p["action"], datetime.fromisoformat(p["now"]),
                                   p["decided_by"], p.get("content")))
        return done

    def _write(self, user_id: str, proposal: Proposal, fact_id: str, now: datetime, audit: dict[str, Any],
               summary: dict[str, Any]) -> dict[str, Any]:
        """The writes of an approved/edited decision, in the order the module docstring gives."""
        existing = self.ledger.get_fact(user_id, fact_id)
        # The target may have changed since the proposal was made (another thread's approval):
        # act on the live head of its supersede chain, or on nothing if that was retracted. A retry
        # of this very commit keeps the target it recorded the first time.
        if existing is not None and proposal.operation == "UPDATE":
            target_id = existing.supersedes
        else:
            target_id = self._live_head(user_id, proposal.target_id)
            if target_id is None and proposal.operation == "RETRACT" and proposal.target_id:
                target = self.ledger.get_fact(user_id, proposal.target_id)
                if target is not None and target.status == "retracted":  # a retry: finish removing it
                    target_id = target.id
        if target_id != proposal.target_id:
            audit["reason"] = f"{proposal.reason}; target {proposal.target_id} is no longer live, acted on {target_id}"
            audit["target_id"] = summary["target_id"] = target_id

        if proposal.operation == "RETRACT":
            written = self._end(user_id, target_id, "retracted", now, None)
            audit["fact_id"] = target_id
            summary.update(fact_id=target_id, written=self.ledger.audit(audit) or written)
            return summary

        written = False
        if existing is None:
            fact = Fact(
                id=fact_id, user_id=user_id, kind=proposal.kind, content=proposal.content, topic=proposal.topic,
                source=proposal.source, evidence=proposal.evidence, confidence=proposal.confidence,
                importance=proposal.importance, sensitivity=proposal.sensitivity, created_at=now, updated_at=now,
                supersedes=target_id if proposal.operation == "UPDATE" else None,
                **validity(proposal.kind, now, stated_until=proposal.valid_until),
            )
            self.ledger.save_fact(fact)
            self.index.upsert(user_id, [fact], [self._embed(user_id, fact.index_text)])
            written = True
        elif existing.status == "confirmed" and not self.index.get(user_id, [fact_id]):
            # a retry after the index write failed: the ledger has the fact, the live index not yet
            self.index.upsert(user_id, [existing], [self._embed(user_id, existing.index_text)])
            written = True
        if proposal.operation == "UPDATE" and target_id and target_id != fact_id:
            written = self._end(user_id, target_id, "superseded", now, fact_id) or written
        audit["fact_id"] = fact_id
        written = self.ledger.audit(audit) or written
        summary.update(fact_id=fact_id, written=written)
        return summary

    def record_dropped(self, user_id: str, thread_id: str, item: dict[str, Any], now: datetime) -> bool:
        """Audit a proposal that never reached approval (invalid, NOOP, nothing to retract)."""
        p = item["proposal"]
        return self.ledger.audit({
            "id": f"a_{item['id']}", "user_id": user_id, "thread_id": thread_id, "at": now,
            "operation": item["decision"].upper(), "kind": p.get("kind"), "content": p.get("content"),
            "evidence": p.get("evidence"), "decision": "dropped", "decided_by": "validation",
            "reason": item.get("reason", ""), "target_id": item.get("target_id"), "proposal": p,
        })

    def touch(self, user_id: str, fact_ids: Sequence[str], now: datetime, turn_id: str) -> None:
        """Record that these facts were injected in turn ``turn_id`` at ``now`` (last-used, use
        count); idempotent per (fact, turn)."""
        if fact_ids:
            self.ledger.touch(user_id, fact_ids, now, turn_id)

    def _live_head(self, user_id: str, fact_id: str | None) -> str | None:
        """Follow ``superseded_by`` from ``fact_id`` to the fact that is live now (``None`` when
        the chain ends in a retracted or expired fact)."""
        seen: set[str] = set()
        while fact_id and fact_id not in seen:
            seen.add(fact_id)
            fact = self.ledger.get_fact(user_id, fact_id)
            if fact is None:
                return None
            if fact.status == "confirmed":
                return fact_id
            if fact.status != "superseded" or not fact.superseded_by:
                return None
            fact_id = fact.superseded_by
        return None

    def _end(self, user_id: str, fact_id: str | None, status: str, now: datetime, by: str | None) -> bool:
        """Mark a fact superseded/retracted in the ledger, then remove it from the live index."""
        if not fact_id:
            return False
        old = self.ledger.get_fact(user_id, fact_id)
        if old is None or old.status == status:
            self.index.delete(user_id, [fact_id])
            return False
        old = old.model_copy(update={"status": status, "updated_at": now, "superseded_by": by})
        self.ledger.save_fact(old)
        self.index.delete(user_id, [fact_id])
        return True
