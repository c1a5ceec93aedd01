"""``load_memory``: retrieve this user's few relevant, live facts for the latest message."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graph.context import AgentContext
from graph.state import AgentState
from graph.turn import check_owner, latest_user_message, message_text, start_turn
from memory_agent.caps import fit_to_budget
from memory_agent.facts import Fact
from memory_agent.lifecycle import review_due
from memory_agent.memory import LongTermMemory

TURN_RESET = {"memories": [], "memories_left_out": 0, "proposals": [], "dropped": [], "decisions": [],
              "committed": []}


def make_load_memory(memory: LongTermMemory):
    """Build the node. It writes no store: usage counts are recorded by ``commit``.

    It starts the turn: fixes its policy (``turn``), records the thread's ``owner`` on the first
    turn, and refuses a thread that another user id started (``graph.turn.ThreadOwnerError``).
    State in: ``messages``. State out: ``memories`` (≤ top-k dicts with id, kind, content,
    similarity, recency, score, and ``review_due`` near a review date), cut to the memory token
    budget, best first (``memories_left_out``: how many did not fit), ``turn``, ``owner``, and the
    other per-turn fields reset.
    """

    def load_memory(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
        ctx = runtime.context
        check_owner(state, ctx)
        update = {**TURN_RESET, "turn": start_turn(state, ctx), "owner": ctx.user_id}
        message = latest_user_message(state)
        query = message_text(message) if message is not None else ""
        if not ctx.memory_enabled or not query.strip():
            return update
        now = ctx.clock()
        scored = memory.retrieve(ctx.user_id, query, now)
        kept, left_out = fit_to_budget([_with_review_note(s.as_dict(), s.fact, now) for s in scored],
                                       memory.max_memory_tokens)
        return {**update, "memories": kept, "memories_left_out": len(left_out)}

    return load_memory


def _with_review_note(memory: dict, fact: Fact, now) -> dict:
    """Mark a memory whose review date is near (``review_due``: the review date, ISO-8601), so the
    answer asks the user to confirm it; the user's reply then renews or updates it."""
    if review_due(fact, now):
        return {**memory, "review_due": fact.review_at.isoformat()}
    return memory
