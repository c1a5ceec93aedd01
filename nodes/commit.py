"""``commit``: writes the turn's approved decisions to long-term memory, with their audit rows."""

from __future__ import annotations

from langgraph.runtime import Runtime

from memory_agent.core.facts import Proposal, stable_id
from memory_agent.graph.context import AgentContext
from memory_agent.graph.state import AgentState
from memory_agent.graph.turn import check_owner, turn_policy
from memory_agent.stores.long_term import LongTermMemory
from memory_agent.stores.maintenance import renew


def make_commit(memory: LongTermMemory):
    """Build the node.

    Applies each decision (ADD, UPDATE → supersede, RETRACT; an approved retraction also leaves the
    session summaries, an approved decision/event/commitment is also a dated episode), audits proposals
    dropped before approval, renews a memory that was due for review when the user restated it (a NOOP
    against it), audits a "what do you remember about me?" read, records the thread under the user and
    bumps last-used/use count of the injected memories. Each decision and renewal is one journaled write
    of ``LongTermMemory`` (finished by ``repair()`` if the process dies mid-way); the rest are single
    rows. Ids are deterministic, so a re-run writes nothing twice.
    State out: ``committed`` (one summary per decision).
    """

    def commit(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
        ctx = runtime.context
        check_owner(state, ctx)
        now = ctx.clock()
        policy = turn_policy(state, ctx)
        thread_id = policy["thread_id"]
        memory.ledger.remember_thread(ctx.user_id, thread_id, now)
        if not policy["memory_enabled"]:
            return {"committed": []}
        proposals = {p["id"]: Proposal.model_validate(p) for p in state.get("proposals") or []}
        results = []
        for d in state.get("decisions") or []:
            proposal = proposals.get(d["proposal_id"])
            if proposal is None:
                continue
            if d["action"] == "reject" and d.get("message"):  # the person's reason goes to the audit row
                proposal = proposal.model_copy(update={"reason": "; ".join(
                    r for r in (proposal.reason, f"rejected by the user: {d['message']}") if r)})
            results.append(memory.apply(ctx.user_id, proposal, d["action"], now, d["decided_by"], d.get("content")))
        for fact_id in state.get("reviews_confirmed") or []:  # "yes" to the review note of the last answer
            renew(memory, ctx.user_id, fact_id, now, thread_id)
        for item in state.get("dropped") or []:
            memory.record_dropped(ctx.user_id, thread_id, item, now)
            if item.get("decision") == "noop" and item.get("target_id"):  # restated: renewed if due for review
                renew(memory, ctx.user_id, item["target_id"], now, thread_id)
        memory.touch(ctx.user_id, [m["id"] for m in state.get("memories") or []], now,
                     turn_id=f"{thread_id}/{policy.get('message_id')}")
        if state.get("recall"):  # "what do you remember about me?": the read is audited too
            memory.ledger.audit({
                "id": stable_id(ctx.user_id, thread_id, str(policy.get("message_id")), "recall", prefix="a_"),
                "user_id": ctx.user_id, "thread_id": thread_id, "at": now, "operation": "RECALL",
                "decision": "shown", "decided_by": "user",
                "reason": f"{len(state.get('memories') or [])} memories shown on request"
                + (f", {state.get('memories_left_out')} left out (token budget)" if state.get("memories_left_out")
                   else ""),
            })
        return {"committed": results}

    return commit
