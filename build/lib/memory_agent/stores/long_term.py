"""Long-term memory: the one object the nodes, the CLI and the evals use for facts.

It joins a :class:`memory_agent.stores.base.FactIndex` (live facts with embeddings), a
:class:`memory_agent.stores.base.FactLedger` (every fact, the audit log) and an embedder. Reads:
:meth:`retrieve`, :meth:`live`, :meth:`show`, :meth:`history`. Planning (no writes):
:meth:`plan`. Writes (only the ``commit`` node calls it): :meth:`apply`.

Write order in :meth:`apply` keeps the two stores in agreement and never loses the new fact
of a contradiction: the new fact goes to the ledger and the live index first; only then is
the old one marked superseded in the ledger and removed from the live index; the audit row
comes last. Every id is deterministic, so a retried commit writes nothing twice.

A process can die between those writes (SIGKILL, power, a store going down). So before the first
write, :meth:`apply` records the decision in the ledger's commit journal, and removes it after the
audit row. :meth:`repair` (run when the agent opens) writes every decision still in the journal
again; since each step is idempotent, afterwards no fact is live without its audit row and no audit
row says approved without its fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.messages import BaseMessage
from memory_agent.stores.base import FactIndex, FactLedger

from memory_agent.core.facts import Fact, Proposal, ProposedFact, Source, index_text, stable_id
from memory_agent.core.kinds import APPROVAL_KINDS
from memory_agent.core.messages import message_text
from memory_agent.memory.caps import (
    CAP_FACTS,
    DEFAULT_MAX_FACTS_PER_USER,
    DEFAULT_MAX_MEMORY_TOKENS,
    DEFAULT_MAX_SESSION_TOKENS,
    facts_cap_reason,
)
from memory_agent.memory.lexical import LexicalIndex
from memory_agent.memory.lifecycle import validity
from memory_agent.memory.reconcile import ReconcileConfig, polarity, reconcile
from memory_agent.memory.retrieval import RetrievalConfig, ScoredFact, lexical_documents, rank
from memory_agent.memory.validation import check_proposal, instruction_reason, normalise


class LongTermMemory:
    """Facts of many users, each call scoped to one ``user_id``.

    Args:
        index: live facts with embeddings (default :class:`memory_agent.stores.chroma_store.ChromaFactIndex`).
        ledger: every fact and the audit log (default :class:`memory_agent.stores.sql_store.SQLiteFactLedger`).
        embeddings: a LangChain ``Embeddings`` (default all-MiniLM-L6-v2).
        retrieval: ranking knobs; ``reconcile_config``: reconcile thresholds.
        max_facts: live facts per user (a new fact over it is refused with a message).
        max_memory_tokens: estimated tokens of memories injected per turn (``memory_agent.memory.caps``).
        max_session_tokens: estimated tokens of the profile and summaries loaded when a session starts.
    """

    def __init__(
        self,
        index: FactIndex,
        ledger: FactLedger,
        embeddings: Embeddings,
        retrieval: RetrievalConfig = RetrievalConfig(),
        reconcile_config: ReconcileConfig = ReconcileConfig(),
        max_facts: int = DEFAULT_MAX_FACTS_PER_USER,
        max_memory_tokens: int = DEFAULT_MAX_MEMORY_TOKENS,
        max_session_tokens: int = DEFAULT_MAX_SESSION_TOKENS,
    ):
        self.max_session_tokens = max_session_tokens
        self.max_facts = max_facts
        self.max_memory_tokens = max_memory_tokens
        self.index = index
        self.ledger = ledger
        self.embeddings = embeddings
        self.retrieval = retrieval
        self.reconcile_config = reconcile_config
        self._embeddings_cache: dict[tuple[str, str], list[float]] = {}  # (user_id, text) -> vector
        # user id -> ((live count, index generation), BM25 index, live facts by id): rebuilt after any write
        # to the user's live facts by this process (the index's generation) or when the count changes
        self._lexical: dict[str, tuple[tuple[int, int], LexicalIndex, dict[str, Fact]]] = {}

    # ---- reads -------------------------------------------------------------------------
    def retrieve(self, user_id: str, query: str, now: datetime, top_k: int | None = None,
                 config: RetrievalConfig | None = None) -> list[ScoredFact]:
        """The user's most relevant live facts for ``query`` at clock ``now`` (best first, ≤ top-k).

        Hybrid (``config.lexical``): every live fact of a user with at most ``full_scan`` facts gets
        its cosine from the user's own Chroma collection and its BM25 score from an index of the
        user's own facts (:mod:`memory_agent.memory.lexical`); both go to
        :func:`memory_agent.memory.retrieval.rank`. Above ``full_scan`` facts, the nearest ``candidates``
        by cosine and the best ``lexical_candidates`` by BM25 are ranked, a lexical candidate outside
        the nearest ones with cosine 0. ``config`` replaces the memory's ranking knobs for this call.
        """
        config = config or self.retrieval
        config = config if top_k is None else _replace(config, top_k=top_k)
        count = self.index.count(user_id)
        if count == 0:  # nothing to rank: skip embedding (and loading the model)
            return []
        embedding = self.embeddings.embed_query(query)
        if not config.lexical:
            return rank(self.index.query(user_id, embedding, config.candidates), now, config)
        n = count if count <= config.full_scan else config.candidates
        nearest = self.index.nearest_ids(user_id, embedding, n)
        lexical_index, facts = self._lexical_index(user_id, count)
        if any(i not in facts for i, _ in nearest):  # written by another process since: rebuild
            lexical_index, facts = self._lexical_index(user_id, count, rebuild=True)
            missing = [i for i, _ in nearest if i not in facts]
            if missing:  # still missing (a write landed between the query and the listing): read them
                facts = {**facts, **{f.id: f for f in self.index.get(user_id, missing)}}
        lexical = lexical_index.scores(query, coverage=config.lexical_coverage)
        best_lexical = sorted(lexical, key=lexical.get, reverse=True)[: config.lexical_candidates]
        candidates = [(facts[i], d) for i, d in nearest if i in facts]
        seen = {i for i, _ in nearest}
        # cosine unknown (outside the nearest ``candidates``): distance 1, i.e. cosine 0
        candidates += [(facts[i], 1.0) for i in best_lexical if i not in seen and i in facts]
        return rank(candidates, now, config, {i: lexical[i] for i in best_lexical})

    def forget_cached(self, user_id: str) -> None:
        """Drop everything this process caches about the user (query and fact embeddings, the BM25
        index and its copy of the live facts): called when the user is erased, so no copy outlives
        the stores."""
        self._lexical.pop(user_id, None)
        for key in [k for k in self._embeddings_cache if k[0] == user_id]:
            del self._embeddings_cache[key]

    def _lexical_index(self, user_id: str, count: int, rebuild: bool = False) -> tuple[LexicalIndex, dict[str, Fact]]:
        """The user's BM25 index and live facts by id, built from the user's own collection and kept
        while the live count and the index's write generation are unchanged (an edit, renewal or
        delete anywhere in this process invalidates it)."""
        key = (count, self.index.generation(user_id))
        cached = self._lexical.get(user_id)
        if cached is not None and cached[0] == key and not rebuild:
            return cached[1], cached[2]
        live = self.index.list(user_id)
        built = LexicalIndex([f.id for f in live], lexical_documents(live))
        if len(self._lexical) >= 64:
            self._lexical.pop(next(iter(self._lexical)))
        self._lexical[user_id] = ((len(live), key[1]), built, {f.id: f for f in live})
        return built, self._lexical[user_id][2]

    def live(self, user_id: str) -> list[Fact]:
        """The user's live facts, oldest first: the live index's set, with last-used time and use
        count from the ledger (``commit`` records usage there, not in the index)."""
        usage = {f.id: f for f in self.ledger.facts(user_id, "confirmed")}
        facts = self.index.list(user_id)
        return [
            f.model_copy(update={"last_used_at": usage[f.id].last_used_at, "use_count": usage[f.id].use_count})
            if f.id in usage else f
            for f in facts
        ]

    def show(self, user_id: str, fact_id: str) -> Fact | None:
        """One fact of this user (any status) with its provenance, or ``None``."""
        return self.ledger.get_fact(user_id, fact_id)

    def history(self, user_id: str, fact_id: str) -> list[Fact]:
        """The supersede chain through ``fact_id``: oldest version first, newest last."""
        fact = self.ledger.get_fact(user_id, fact_id)
        if fact is None:
            return []
        chain = [fact]
        seen = {fact.id}
        back = fact
        while back.supersedes and back.supersedes not in seen:
            back = self.ledger.get_fact(user_id, back.supersedes)
            if back is None:
                break
            chain.insert(0, back)
            seen.add(back.id)
        fwd = fact
        while fwd.superseded_by and fwd.superseded_by not in seen:
            fwd = self.ledger.get_fact(user_id, fwd.superseded_by)
            if fwd is None:
                break
            chain.append(fwd)
            seen.add(fwd.id)
        return chain

    # ---- planning (no writes) ------------------------------------------------------------
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
            twin = next((q for q, e in this_turn if _same_statement(p, q, _cosine(embedding, e),
                                                                      self.reconcile_config.noop_similarity)), None)
            if twin is not None:
                dropped.append({"id": pid, "proposal": p.model_dump(), "decision": "noop",
                                "reason": f"the same statement is already proposed in this turn: {twin.content!r}"})
                continue
            this_turn.append((p, embedding))
            neighbours = self.index.query(user_id, embedding, 10)
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
                or p.kind in APPROVAL_KINDS
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

    # ---- the one writer ------------------------------------------------------------------
    def apply(
        self, user_id: str, proposal: Proposal, action: str, now: datetime,
        decided_by: str, content: str | None = None,
    ) -> dict[str, Any]:
        """Carry out a decision on one proposal (``action``: approve | edit | reject).

        Idempotent: the fact id derives from the proposal id, so applying the same decision
        twice writes each row once. Returns a summary ``{"proposal_id", "operation", "action",
        "fact_id", "target_id", "written"}``.

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
        if refused and action != "reject":  # the last gate before the store, whoever approved
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
                supersedes=target_id if proposal.operation == "UPDATE" else None, **validity(proposal.kind, now),
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

    def _embed(self, user_id: str, text: str) -> list[float]:
        """Embed one text of ``user_id``, remembering the last few hundred, so a fact embedded when
        it is planned is not embedded again when it is committed in the same process. The cache
        is keyed by ``(user_id, text)``: nothing one user's turn put there serves another user."""
        key = (user_id, text)
        vector = self._embeddings_cache.get(key)
        if vector is None:
            vector = self.embeddings.embed_documents([text])[0]
            if len(self._embeddings_cache) >= 512:
                self._embeddings_cache.pop(next(iter(self._embeddings_cache)))
            self._embeddings_cache[key] = vector
        return vector

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


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = sum(x * x for x in a) ** 0.5
    nb = sum(y * y for y in b) ** 0.5
    return dot / (na * nb) if na and nb else 0.0


def _same_statement(p: ProposedFact, q: ProposedFact, similarity: float, threshold: float) -> bool:
    """Two proposals of one turn state the same thing: same operation, and the same content or a
    close paraphrase of the same polarity."""
    if p.operation != q.operation:
        return False
    if normalise(p.content) == normalise(q.content):
        return True
    return similarity >= threshold and polarity(p.content) == polarity(q.content)


def _replace(config: RetrievalConfig, **changes) -> RetrievalConfig:
    from dataclasses import replace

    return replace(config, **changes)
