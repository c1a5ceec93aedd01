"""Planning of :class:`memory_agent.stores.long_term.LongTermMemory`: turn the model's proposals
into validated, reconciled proposals for approval (or dropped items with a reason). Nothing here
writes a store.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from memory_agent.core.facts import Fact, Proposal, ProposedFact, Source, index_text, stable_id
from memory_agent.core.kinds import needs_approval
from memory_agent.core.messages import message_text
from memory_agent.memory.caps import CAP_FACTS, facts_cap_reason
from memory_agent.memory.reconcile import ReconcileConfig, reconcile, same_statement
from memory_agent.memory.retrieval import cosine_similarity
from memory_agent.memory.validation import check_proposal
from memory_agent.stores.base import FactIndex


class ProposalPlanning:
    """Validate and reconcile proposals; mixed into ``LongTermMemory``, which sets the attributes below."""

    index: FactIndex
    reconcile_config: ReconcileConfig
    max_facts: int
    _embed: Callable[[str, str], list[float]]
    # the 10 nearest live facts a proposal is reconciled with: exact, from the read side (fact_reads)
    nearest_facts: Callable[[str, Sequence[float], int], list[tuple[Fact, float]]]

    def plan(
        self,
        user_id: str,
        thread_id: str,
        proposed: Sequence[ProposedFact],
        messages: Sequence[BaseMessage],
    ) -> tuple[list[Proposal], list[dict[str, Any]]]:
        """Validate and reconcile model proposals; nothing is written.

        Returns ``(proposals, dropped)``: proposals to show for approval (ADD/UPDATE/RETRACT) and
        dropped items ``{"proposal": dict, "id": str, "decision": "invalid"|"noop"|"drop", "reason": str}``.
        """
        proposals: list[Proposal] = []
        dropped: list[dict[str, Any]] = []
        planned: set[str] = set()
        live_count = self.index.count(user_id)
        this_turn: list[tuple[ProposedFact, list[float]]] = []
        for i, p in enumerate(proposed):
            pid = stable_id(user_id, thread_id, ",".join(p.message_ids), str(i), p.content, prefix="p_")
            verdict = check_proposal(p, messages)
            if not verdict.ok:
                dropped.append({"id": pid, "proposal": p.model_dump(), "decision": "invalid", "reason": verdict.reason})
                continue
            embedding = self._embed(user_id, index_text(p.topic, p.content))
            twin = next((q for q, e in this_turn if _same_statement(p, q, cosine_similarity(embedding, e),
                                                                      self.reconcile_config.noop_similarity)), None)
            if twin is not None:
                dropped.append({"id": pid, "proposal": p.model_dump(), "decision": "noop",
                                "reason": f"the same statement is already proposed in this turn: {twin.content!r}"})
                continue
            this_turn.append((p, embedding))
            neighbours = self.nearest_facts(user_id, embedding, 10)
            cited = " ".join(message_text(m) for m in messages if m.id in set(p.message_ids))
            decision = reconcile(p, neighbours, self.reconcile_config, message=cited)
            target = decision.target
            if decision.operation in ("NOOP", "DROP") or (target is not None and target.id in planned):
                dropped.append({"id": pid, "proposal": p.model_dump(), "decision": decision.operation.lower(),
                                "reason": decision.reason or "already planned in this turn",
                                "target_id": target.id if target else None})
                continue
            if decision.operation == "ADD" and live_count >= self.max_facts:
                dropped.append({"id": pid, "proposal": p.model_dump(), "decision": "invalid", "cap": CAP_FACTS,
                                "reason": facts_cap_reason(live_count, self.max_facts)})
                continue
            live_count += decision.operation == "ADD"
            if target is not None:
                planned.add(target.id)
            risky = (
                decision.operation in ("UPDATE", "RETRACT")
                or needs_approval(p.kind)
                or verdict.sensitivity == "restricted"
            )
            proposals.append(Proposal(
                id=pid, operation=decision.operation, kind=p.kind,
                content=p.content.strip() if decision.operation != "RETRACT" else target.content,
                topic=p.topic.strip(), source=Source(thread_id=thread_id, message_ids=list(p.message_ids)),
                evidence=p.evidence.strip(), confidence=p.confidence, importance=p.importance,
                sensitivity=verdict.sensitivity, target_id=target.id if target else None,
                target_content=target.content if target else None, risky=risky, reason=decision.reason,
            ))
        return proposals, dropped



def _same_statement(p: ProposedFact, q: ProposedFact, similarity: float, threshold: float) -> bool:
    """Two proposals of one turn state the same thing: same operation, and
    :func:`memory_agent.memory.reconcile.same_statement`."""
    return p.operation == q.operation and same_statement(p.content, q.content, similarity, threshold)
