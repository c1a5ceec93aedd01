"""The decisions of the ``commit`` node in :class:`memory_agent.stores.long_term.LongTermMemory`:
carry out a decision on a proposal (journaled, see :mod:`memory_agent.stores.journal`), audit
dropped proposals, record usage.

Write order in :meth:`FactWrites.apply` keeps the two stores in agreement and never loses the new
fact of a contradiction: the new fact goes to the ledger and the live index first; only then is the
old one superseded — a compare-and-set in one ledger transaction with the decision's audit row — and
removed from the live index. Every id is deterministic, so a retried commit writes nothing twice.

One live fact per slot: the decision runs under the user's write lock, acts on the live head of its
target's supersede chain (the target may have been superseded since the proposal was planned), and
supersedes only a fact that is still confirmed (``change_status`` with ``expect="confirmed"``); when
another writer ended it first, the live head is resolved again and the new fact supersedes that one.
So each fact is superseded by at most one fact and a slot keeps a single chain.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from memory_agent.core.facts import PERSON_ONLY_RISKS, Fact, Proposal
from memory_agent.core.kinds import is_episode
from memory_agent.memory.injection import instruction_reason
from memory_agent.memory.lexical import tokenize
from memory_agent.memory.lifecycle import validity
from memory_agent.memory.sessions import episode_row
from memory_agent.stores.journal import JournaledWrites


class FactWrites(JournaledWrites):
    """Writes of a user's facts and audit rows; mixed into ``LongTermMemory``, which sets the attributes below."""

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
        than ``"user"``), are rejected with the reason in the audit row. An approved decision,
        event or commitment is also a dated episode. Returns a summary
        ``{"proposal_id", "operation", "action", "fact_id", "target_id", "written"}``.

        Raises:
            ValueError: unknown action, or an edit with empty content.
            memory_agent.stores.base.StoreError: a store failed; the journal keeps the decision, and it is
                finished by the next write or turn (or the next open).
        """
        if action not in ("approve", "edit", "reject"):
            raise ValueError(f"Unknown decision {action!r}: use approve, edit or reject")
        if action == "edit" and (not content or not content.strip()):
            raise ValueError("An edit needs the new content")
        payload = {"proposal": proposal.model_dump(mode="json"), "action": action, "now": now.isoformat(),
                   "decided_by": decided_by, "content": content}
        proposal, action, decided_by = _screened(proposal, action, decided_by, content)
        summary, audit = _records(user_id, proposal, action, now, decided_by)
        if action == "reject":
            summary["written"] = self.ledger.audit(audit)
            return summary
        entry = f"j_{proposal.id}"
        with self._writing(user_id):
            payload["target"] = self._live_head(user_id, proposal.target_id)
            self._begin(user_id, entry, "commit", payload, now)
            return self._commit(user_id, entry, proposal, now, audit, summary, payload["target"])

    def _replay_commit(self, user_id: str, entry: str, p: dict[str, Any]) -> dict[str, Any]:
        """:meth:`apply` again from its journal entry (under the user's lock)."""
        proposal = Proposal.model_validate(p["proposal"])
        now = datetime.fromisoformat(p["now"])
        proposal, action, decided_by = _screened(proposal, p["action"], p["decided_by"], p.get("content"))
        summary, audit = _records(user_id, proposal, action, now, decided_by)
        if action == "reject":  # an entry of an older release, refused at commit: the audit row is all
            summary["written"] = self.ledger.journal_end(user_id, entry, audit=audit)
            return summary
        target = p["target"] if "target" in p else self._live_head(user_id, proposal.target_id)
        return self._commit(user_id, entry, proposal, now, audit, summary, target)

    def _commit(self, user_id: str, entry: str, proposal: Proposal, now: datetime, audit: dict[str, Any],
                summary: dict[str, Any], target_id: str | None) -> dict[str, Any]:
        """The steps of an approved/edited decision, each idempotent; ends with the journal entry and
        the audit row in one transaction."""
        fact_id = "f_" + proposal.id.removeprefix("p_")
        existing = self.ledger.get_fact(user_id, fact_id)
        if existing is not None and proposal.operation == "UPDATE":
            target_id = existing.supersedes  # a retry keeps the target it recorded the first time
        elif target_id is None and proposal.operation == "RETRACT" and proposal.target_id:
            target = self.ledger.get_fact(user_id, proposal.target_id)
            if target is not None and target.status == "retracted":  # a retry: finish removing it
                target_id = target.id
        _note_target(proposal, audit, summary, target_id)

        if proposal.operation == "RETRACT":
            # summaries hold fact ids and show only live facts: a retracted fact leaves them with no write
            target_id, written = self._end_live(user_id, proposal, target_id, fact_id, now, audit, summary)
            audit["fact_id"] = target_id
            summary.update(fact_id=target_id,
                           written=self.ledger.journal_end(user_id, entry, audit=audit) or written)
            return summary

        written = False
        if existing is None:
            existing = Fact(
                id=fact_id, user_id=user_id, kind=proposal.kind, content=proposal.content, topic=proposal.topic,
                source=proposal.source, evidence=proposal.evidence, confidence=proposal.confidence,
                importance=proposal.importance, sensitivity=proposal.sensitivity, created_at=now, updated_at=now,
                supersedes=target_id if proposal.operation == "UPDATE" else None,
                **validity(proposal.kind, now, stated_until=proposal.valid_until),
            )
            vector = self._embed(user_id, existing.index_text)
            self.ledger.save_fact(existing, vector, tokenize(existing.index_text), self.index.embedder_name)
            self.index.upsert(user_id, [existing], [vector])
            written = True
        elif existing.status == "confirmed" and not self.index.get(user_id, [fact_id]):
            # a retry after the index write failed: the ledger has the fact, the live index not yet
            self.index.upsert(user_id, [existing], [self._embed(user_id, existing.index_text)])
            written = True
        audit["fact_id"] = fact_id
        if proposal.operation == "UPDATE" and target_id and target_id != fact_id:
            _, ended = self._end_live(user_id, proposal, target_id, fact_id, now, audit, summary)
            written = ended or written
        if is_episode(existing.kind):  # an approved decision, event or commitment is also a dated episode
            written = self.ledger.save_episode(episode_row(existing, existing.created_at)) or written
        summary.update(fact_id=fact_id, written=self.ledger.journal_end(user_id, entry, audit=audit) or written)
        return summary

    def _end_live(self, user_id: str, proposal: Proposal, target_id: str | None, fact_id: str, now: datetime,
                  audit: dict[str, Any], summary: dict[str, Any]) -> tuple[str | None, bool]:
        """Supersede (by ``fact_id``) or retract ``target_id`` with a compare-and-set that writes the
        decision's audit row in the same transaction, then remove it from the live index. When another
        writer ended the target first, act on the live head of its chain instead (for a supersede, the
        new fact's ``supersedes`` follows). Returns ``(the fact ended or None, whether it changed now)``."""
        status = "retracted" if proposal.operation == "RETRACT" else "superseded"
        by = fact_id if status == "superseded" else None
        seen: set[str] = set()
        while target_id and target_id != fact_id and target_id not in seen:
            seen.add(target_id)
            if by is None:  # a retraction's audit row names the fact it retracts
                audit["fact_id"] = target_id
            if self.ledger.change_status(user_id, target_id, status, now, superseded_by=by, audit=audit):
                self.index.delete(user_id, [target_id])
                return target_id, True
            old = self.ledger.get_fact(user_id, target_id)
            if old is not None and old.status == status and (by is None or old.superseded_by == by):
                self.index.delete(user_id, [target_id])  # done before a crash: finish it
                return target_id, False
            head = self._live_head(user_id, target_id)
            if by is not None:  # the new fact supersedes the fact that is live now (or, if none, nothing)
                mine = self.ledger.get_fact(user_id, fact_id)
                if mine is not None and mine.supersedes != head:
                    self.ledger.update_live_fact(mine.model_copy(update={"supersedes": head}))
            target_id = head
            _note_target(proposal, audit, summary, target_id)
        return None, False

    def record_dropped(self, user_id: str, thread_id: str, item: dict[str, Any], now: datetime) -> bool:
        """Audit a proposal that never reached approval (invalid, NOOP, nothing to retract): one row,
        written or not as a whole, so it needs no journal entry."""
        p = item["proposal"]
        return self.ledger.audit({
            "id": f"a_{item['id']}", "user_id": user_id, "thread_id": thread_id, "at": now,
            "operation": item["decision"].upper(), "kind": p.get("kind"), "content": p.get("content"),
            "evidence": p.get("evidence"), "decision": "dropped", "decided_by": "validation",
            "reason": item.get("reason", ""), "target_id": item.get("target_id"), "proposal": p,
        })

    def touch(self, user_id: str, fact_ids: Sequence[str], now: datetime, turn_id: str) -> None:
        """Record that these facts were injected in turn ``turn_id`` at ``now`` (last-used, use
        count); idempotent per (fact, turn), one ledger transaction."""
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


def _screened(proposal: Proposal, action: str, decided_by: str, content: str | None) -> tuple[Proposal, str, str]:
    """The decision as it is carried out: an edit's content in place, and an instruction to the agent
    or an entitlement/role claim no person approved refused (the last gate before the store)."""
    if action == "edit":
        proposal = proposal.model_copy(update={"content": (content or "").strip()})
    refused = instruction_reason(proposal.content) if proposal.operation != "RETRACT" else None
    if not refused and proposal.risk in PERSON_ONLY_RISKS and decided_by != "user":
        refused = f"an {proposal.risk} claim is stored only when a person approves it"
    if refused and (action != "reject" or decided_by.startswith("policy")):  # the last gate, whoever approved
        if action != "reject":
            action, decided_by = "reject", f"validation (approved by {decided_by})"
        proposal = proposal.model_copy(update={"reason": f"refused at commit: {refused}"})
    return proposal, action, decided_by


def _records(user_id: str, proposal: Proposal, action: str, now: datetime,
             decided_by: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The summary :meth:`FactWrites.apply` returns and the decision's audit row."""
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
    return summary, audit


def _note_target(proposal: Proposal, audit: dict[str, Any], summary: dict[str, Any], target_id: str | None) -> None:
    """Record in the audit row and summary that the decision acts on ``target_id``, not on the target
    it was proposed against (that one is no longer live: another decision changed it since)."""
    if target_id != proposal.target_id:
        audit["reason"] = f"{proposal.reason}; target {proposal.target_id} is no longer live, acted on {target_id}"
        audit["target_id"] = summary["target_id"] = target_id
