"""``commit``: the only writer of long-term memory and the audit log."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graph.context import AgentContext
from graph.state import AgentState
from graph.turn import check_owner, turn_policy
from memory_agent.facts import Proposal
from memory_agent.lifecycle import renew
from memory_agent.memory import LongTermMemory


def make_commit(memory: LongTermMemory):
    """Build the node.

    Applies each decision (ADD, UPDATE → supersede, RETRACT), audits proposals dropped
    before approval, renews a memory that was due for review when the user restated it (a NOOP
    against it), records the thread under the user and bumps last-used/use count of the
    injected memories. Ids are deterministic, so a re-run writes nothing twice.
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
            results.append(memory.apply(ctx.user_id, proposal, d["action"], now, d["decided_by"], d.get("content")))
        for item in state.get("dropped") or []:
            memory.record_dropped(ctx.user_id, thread_id, item, now)
            if item.get("decision") == "noop" and item.get("target_id"):  # restated: renewed if due for review
                renew(memory, ctx.user_id, item["target_id"], now, thread_id)
        memory.touch(ctx.user_id, [m["id"] for m in state.get("memories") or []], now,
                     turn_id=f"{thread_id}/{policy.get('message_id')}")
        return {"committed": results}

    return commit
