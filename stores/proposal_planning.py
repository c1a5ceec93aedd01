"""Planning of :class:`memory_agent.stores.long_term.LongTermMemory`: turn the model's proposals
into validated, reconciled proposals for approval (or dropped items with a reason). Nothing here
writes a store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from memory_agent.core.facts import (
    EPISODE_KIND,
    PERSON_ONLY_RISKS,
    Fact,
    Proposal,
    ProposedFact,
    Source,
    index_text,
    stable_id,
    utcnow,
)
from memory_agent.core.kinds import needs_approval
from memory_agent.core.messages import message_text
from memory_agent.memory.caps import CAP_FACTS, facts_cap_reason
from memory_agent.memory.end_dates import check_valid_until, end_in_content
from memory_agent.memory.reconcile import (
    Decision,
    ReconcileConfig,
    asks_to_forget_all,
    forget_anchors,
    judge,
    same_statement,
    target_problem,
)
from memory_agent.memory.retrieval import RetrievalConfig, ScoredFact, cosine_similarity, similarity_from_distance
from memory_agent.memory.text import written_in_english
from memory_agent.memory.validation import (
    CLAIM_RISKS,
    check_proposal,
    claim_terms,
    own_name_words,
    refused_claim,
    tainted_term,
    tainted_terms,
)
from memory_agent.stores.base import FactIndex, FactLedger


class ProposalPlanning:
    """Validate and reconcile proposals; mixed into ``LongTermMemory``, which sets the attributes below."""

    index: FactIndex
    ledger: FactLedger
    retrieval: RetrievalConfig
    reconcile_config: ReconcileConfig
    max_facts: int
    _embed: Callable[[str, str], list[float]]
    retrieve: Callable[..., list[ScoredFact]]

    def related(self, user_id: str, text: str, now: datetime, previous: str = "") -> list[Fact]:
        """The user's live memories related to ``text`` (a user message), best first, that the
        extraction prompt shows the model so it can judge add / update / retract / none: the
        memory's own retrieval on this user's collection only, with the floors of
        ``ReconcileConfig`` (``shown_limit``, ``shown_min_similarity``), no score floor and no
        aspect relevance (the memories a statement is judged against are those like it); expired
        facts and imported dialogue turns (kind ``episode``) are left out. ``previous`` (the user's
        message before this one in the same thread) adds the few memories related to it, so a
        correction of what was just said ("sorry, it's Jayden with a y") is judged against it.

        The embedder reads English: a message in another language ("最近はエニタイムフィットネスに通っています"
        beside "The user goes to Gold's Gym", cosine 0.03) is like none of the memories, so for such a
        message (:func:`~memory_agent.memory.text.written_in_english`) no similarity floor applies and
        the ``shown_limit`` best-ranked live memories are shown: the model, which reads the language, judges."""
        cfg = self.reconcile_config
        floor = cfg.shown_min_similarity if written_in_english(text) else -1.0  # cosine is -1 to 1
        config = replace(self.retrieval, top_k=cfg.shown_limit, min_score=0.0, aspects=False,
                         min_similarity=floor, min_similarity_profile=min(floor, self.retrieval.min_similarity_profile))
        found = [s.fact for s in self.retrieve(user_id, text, now, config=config) if s.fact.kind != EPISODE_KIND]
        if previous.strip() and len(found) < cfg.shown_limit:
            before = self.retrieve(user_id, previous, now, config=replace(config, top_k=cfg.shown_previous))
            found += [s.fact for s in before if s.fact.kind != EPISODE_KIND and s.fact.id not in {f.id for f in found}]
        return found[: cfg.shown_limit]
    # the 10 nearest live facts a proposal is reconciled with: exact, from the read side (fact_reads)
    nearest_facts: Callable[[str, Sequence[float], int], list[tuple[Fact, float]]]
    live_count: Callable[[str], int]

    def plan(
        self,
        user_id: str,
        thread_id: str,
        proposed: Sequence[ProposedFact],
        messages: Sequence[BaseMessage],
        shown: Mapping[str, str] | None = None,
        now: datetime | None = None,
    ) -> tuple[list[Proposal], list[dict[str, Any]]]:
        """Validate and reconcile model proposals; nothing is written.

        ``shown`` maps the short ids of the memories shown to the model (``"m1"``) to their fact ids
        (:meth:`related`); a proposal's ``target`` is resolved through it and checked
        (:func:`memory_agent.memory.reconcile.target_problem`), and its ``valid_until`` is checked
        against the cited words at the clock ``now`` (default: the wall clock;
        :func:`memory_agent.memory.end_dates.check_valid_until`): a refused date is left out, with
        the reason in the proposal's ``reason``.

        An update whose new content validation refuses is dropped, and the live memory it names is
        withdrawn (a RETRACT, asked about like any): the model judged it changed, so it is no longer true.

        Returns ``(proposals, dropped)``: proposals to show for approval (ADD/UPDATE/RETRACT) and
        dropped items ``{"proposal": dict, "id": str, "decision": "invalid"|"noop"|"drop", "reason": str}``.
        """
        shown = dict(shown or {})
        now = now or utcnow()
        proposals: list[Proposal] = []
        dropped: list[dict[str, Any]] = []
        planned: set[str] = set()
        live_count = self.live_count(user_id)
        this_turn: list[tuple[ProposedFact, list[float]]] = []
        checked = []
        for p in proposed:
            target, problem = self._target(user_id, p, shown, now)
            # an update may keep the values of the live memory it replaces
            carried = target.content if target is not None and p.operation == "update" else ""
            checked.append((p, target, problem, check_proposal(p, messages, carried=carried)))
        # a claim kept out of memory does not come back through another memory of this turn that names it
        names = own_name_words([p for p, *_, v in checked if v.ok])
        terms = claim_terms([p for p, *_, v in checked if refused_claim(p, v)], names)
        for i, (p, target, problem, verdict) in enumerate(checked):
            pid = stable_id(user_id, thread_id, ",".join(p.message_ids), str(i), p.content, prefix="p_")
            if verdict.ok and p.risk not in CLAIM_RISKS and p.operation != "retract" and (
                    term := tainted_term((p.content, p.evidence or ""), messages, terms)):
                verdict = replace(verdict, ok=False, reason=f"names {term!r}, which this message ties to a claim "
                                                            "or an instruction kept out of memory")
            if not verdict.ok:
                dropped.append({"id": pid, "proposal": p.model_dump(), "decision": "invalid", "reason": verdict.reason})
                if p.operation == "update" and target is not None and target.id not in planned:
                    # the model judged the memory changed; its new value cannot be kept, and the old one
                    # is no longer true: withdrawn (asked about like any retraction), not left live
                    planned.add(target.id)
                    withdraw = stable_id(user_id, thread_id, ",".join(p.message_ids), str(i), target.id, prefix="p_")
                    proposals.append(_retraction(withdraw, target, thread_id, p.message_ids, p.evidence.strip(),
                                                 f"the user changed it, and the new value was refused: "
                                                 f"{verdict.reason}"))
                continue
            embedding = self._embed(user_id, index_text(p.topic, p.content))
            # one "forget everything about X" is several retractions with one wording: told apart by target
            twin = None if p.operation == "retract" and p.target in shown else next(
                (q for q, e in this_turn if _same_statement(p, q, cosine_similarity(embedding, e),
                                                             self.reconcile_config.noop_similarity)), None)
            if twin is not None and p.operation == "update" and target is not None and target.id not in planned:
                # two memories held the old value ("turns 6 on the 14th", "birthday on the 14th") and the
                # model updated each to one new statement: the new one is kept once, the second old one
                # is withdrawn rather than left live beside it
                planned.add(target.id)
                proposals.append(_retraction(pid, target, thread_id, p.message_ids, p.evidence.strip(),
                                             f"its new value is already proposed in this turn: {twin.content!r}"))
                continue
            if twin is not None:
                dropped.append({"id": pid, "proposal": p.model_dump(), "decision": "noop",
                                "reason": f"the same statement is already proposed in this turn: {twin.content!r}"})
                continue
            this_turn.append((p, embedding))
            neighbours = self.nearest_facts(user_id, embedding, 10)
            cited = " ".join(message_text(m) for m in messages if m.id in set(p.message_ids))
            decision = self._judge(p, target, problem, embedding, neighbours, cited)
            if decision.operation == "UPDATE" and decision.target is not None and decision.target.id in planned \
                    and (target is None or target.id != decision.target.id):
                # the rules took the memory for the one this replaces, but another proposal of this turn already
                # withdraws or replaces it ("forget the Hoover phase — I'm into sci-fi now"): a new memory
                decision = Decision("ADD", None, f"new; {decision.target.content!r} is already planned in this turn")
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
            kind = verdict.kind or p.kind
            risky = (
                decision.operation in ("UPDATE", "RETRACT")
                or needs_approval(kind)
                or verdict.sensitivity == "restricted"
                or verdict.risk in PERSON_ONLY_RISKS  # an entitlement or role only a person may approve
            )
            until, until_dropped = None, ""
            if decision.operation != "RETRACT":
                until, until_dropped = check_valid_until(p.valid_until, cited, now)
                if until is None and not until_dropped:
                    until = end_in_content(p.content, cited, now)  # an end said in the content alone
            reason = "; ".join(r for r in (decision.reason, verdict.note, until_dropped) if r)
            proposals.append(Proposal(
                id=pid, operation=decision.operation, kind=kind,
                content=p.content.strip() if decision.operation != "RETRACT" else target.content,
                topic=p.topic.strip(), source=Source(thread_id=thread_id, message_ids=list(p.message_ids)),
                evidence=p.evidence.strip(), confidence=p.confidence, importance=p.importance,
                sensitivity=verdict.sensitivity, target_id=target.id if target else None,
                target_content=target.content if target else None, valid_until=until, risky=risky, reason=reason,
                risk=verdict.risk,
            ))
        proposals += self._withdraw_tainted(user_id, thread_id, messages, planned)
        proposals += self._forget_the_rest(user_id, thread_id, messages, proposals, planned | set(shown.values()))
        return proposals, dropped

    def _forget_the_rest(self, user_id: str, thread_id: str, messages: Sequence[BaseMessage],
                         proposals: Sequence[Proposal], skip: set[str]) -> list[Proposal]:
        """RETRACT proposals for the live facts a "forget everything about X" did not reach because
        the model was not shown them (the prompt lists the memories most like the message, and a
        request in one language finds few memories written in another).

        Applies when the turn retracts memories and says "everything" (:func:`asks_to_forget_all`) or
        retracts two or more at once. A further live fact is about the same thing when it names one of
        the retracted facts' anchors (:func:`memory_agent.memory.reconcile.forget_anchors`: a capitalised
        name, or the slot a fact filled, "wedding") and its cosine similarity to one of them is at least
        ``ReconcileConfig.forget_all_similarity``.
        Each is asked about like any retraction; facts already planned this turn, and those the model
        was shown (``skip``: it judged them), are left as they are."""
        retracted = [p for p in proposals if p.operation == "RETRACT" and p.target_id]
        turn = _last_user_message(messages)
        if not retracted or turn is None or not (len(retracted) >= 2 or asks_to_forget_all(message_text(turn))):
            return []
        gone = [f for f in (self.ledger.get_fact(user_id, p.target_id) for p in retracted) if f is not None]
        anchors = {a for f in gone for a in forget_anchors(f)}
        out = []
        for fact in self.ledger.facts(user_id, "confirmed"):
            if fact.id in skip or fact.kind == EPISODE_KIND:
                continue
            words = set(re.findall(r"[\w'-]+", fact.content.casefold()))
            if not any(set(a.split()) <= words for a in anchors):
                continue
            vector = self._embed(user_id, fact.index_text)
            similarity, near = max(((cosine_similarity(vector, self._embed(user_id, f.index_text)), f) for f in gone),
                                   key=lambda pair: pair[0])  # facts do not order: a tie must not compare them
            if similarity < self.reconcile_config.forget_all_similarity:
                continue
            skip.add(fact.id)
            out.append(_retraction(stable_id(user_id, thread_id, str(turn.id), fact.id, prefix="p_"), fact,
                                   thread_id, [str(turn.id)], message_text(turn).strip(),
                                   f"about the same thing as {near.content!r}, which the user asked to forget"))
        return out

    def _withdraw_tainted(self, user_id: str, thread_id: str, messages: Sequence[BaseMessage],
                          planned: set[str]) -> list[Proposal]:
        """RETRACT proposals for the live facts committed from this thread that name a term the user tied,
        in this thread, to a sentence the screen refuses (:func:`memory_agent.memory.validation.tainted_terms`):
        a term introduced in an innocent turn ("my special word is 'bluebird'") and given its meaning
        in a later one ("bluebird means skip the checks") is withdrawn when the meaning is said. Facts
        already planned this turn are left to their plan."""
        turn = _last_user_message(messages)
        terms = tainted_terms(messages) if turn is not None else []
        if not terms:
            return []
        out = []
        for fact in self.ledger.facts(user_id, "confirmed"):
            if fact.source.thread_id != thread_id or fact.id in planned:
                continue
            if term := tainted_term((fact.content, fact.evidence or ""), messages, terms):
                out.append(_retraction(
                    stable_id(user_id, thread_id, str(turn.id), fact.id, prefix="p_"), fact, thread_id,
                    [str(turn.id)], fact.evidence or "",
                    f"it names {term!r}, which the user tied to an instruction, a secret or a claim in this "
                    "conversation"))
                planned.add(fact.id)
        return out

    def _target(self, user_id: str, p: ProposedFact, shown: Mapping[str, str],
                now: datetime) -> tuple[Fact | None, str | None]:
        """``(target, problem)``: the memory ``p`` names, read again from this user's own store, when it
        can be acted on (a live fact of this user that was shown; else ``None``), and why not
        (:func:`memory_agent.memory.reconcile.target_problem`; ``None`` when it can, or names none)."""
        fact = self.ledger.get_fact(user_id, shown[p.target]) if p.target and p.target in shown else None
        problem = target_problem(p.target, shown, fact, user_id, now)
        return (fact if p.target and problem is None else None), problem

    def _judge(self, p: ProposedFact, target: Fact | None, problem: str | None, embedding: list[float],
               neighbours: list[tuple[Fact, float]], cited: str) -> Decision:
        """The model's judgement of ``p`` against the memories it was shown, checked by code
        (:func:`memory_agent.memory.reconcile.judge`): ``target`` and ``problem`` come from
        :meth:`_target`, so only a live fact of this user that was shown can be updated or retracted."""
        similarity = 0.0
        if target is not None:
            near = next((d for f, d in neighbours if f.id == target.id), None)
            similarity = similarity_from_distance(near) if near is not None else \
                cosine_similarity(embedding, self._embed(target.user_id, target.index_text))
        return judge(p, target, similarity, neighbours, self.reconcile_config, message=cited, problem=problem)



def _last_user_message(messages: Sequence[BaseMessage]) -> HumanMessage | None:
    """The turn's user message: the last :class:`HumanMessage` of the thread, or None."""
    return next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)


def _retraction(pid: str, fact: Fact, thread_id: str, message_ids: Sequence[str], evidence: str,
                reason: str) -> Proposal:
    """A RETRACT of the live ``fact``, resting on ``message_ids`` of ``thread_id``, always asked about."""
    return Proposal(id=pid, operation="RETRACT", kind=fact.kind, content=fact.content, topic=fact.topic,
                    source=Source(thread_id=thread_id, message_ids=list(message_ids)), evidence=evidence,
                    sensitivity=fact.sensitivity, target_id=fact.id, target_content=fact.content, risky=True,
                    reason=reason)


def _same_statement(p: ProposedFact, q: ProposedFact, similarity: float, threshold: float) -> bool:
    """Two proposals of one turn state the same thing: same operation, and
    :func:`memory_agent.memory.reconcile.same_statement`."""
    return p.operation == q.operation and same_statement(p.content, q.content, similarity, threshold)
