"""``load_memory``: retrieve this user's few relevant, live facts for the latest message."""

from __future__ import annotations

import logging

from langgraph.runtime import Runtime

from graph.context import AgentContext
from graph.state import AgentState
from graph.turn import check_owner, latest_user_message, message_text, start_turn
from memory_agent.memory import LongTermMemory
from memory_agent.validation import instruction_reason

log = logging.getLogger(__name__)

TURN_RESET = {"memories": [], "proposals": [], "dropped": [], "decisions": [], "committed": []}


def make_load_memory(memory: LongTermMemory):
    """Build the node. It writes no store: usage counts are recorded by ``commit``.

    It starts the turn: fixes its policy (``turn``), records the thread's ``owner`` on the first
    turn, and refuses a thread that another user id started (``graph.turn.ThreadOwnerError``).
    State in: ``messages``. State out: ``memories`` (≤ top-k dicts with id, kind, content,
    similarity, recency, score), ``turn``, ``owner``, and the other per-turn fields reset.
    """

    def load_memory(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
        ctx = runtime.context
        check_owner(state, ctx)
        update = {**TURN_RESET, "turn": start_turn(state, ctx), "owner": ctx.user_id}
        message = latest_user_message(state)
        query = message_text(message) if message is not None else ""
        if not ctx.memory_enabled or not query.strip():
            return update
        # Defence in depth: a stored fact that reads as an instruction (written before the screen
        # knew its phrasing, or straight into the store) is never injected. It is filtered before
        # the top-k cut, so it cannot push the user's real facts out either.
        config = memory.retrieval
        scored = memory.retrieve(ctx.user_id, query, ctx.clock(), top_k=config.candidates)
        safe = []
        for item in scored:
            refused = instruction_reason(item.fact.content)
            if refused:
                log.warning("load_memory: fact %s not injected: %s", item.fact.id, refused)
            else:
                safe.append(item.as_dict())
        return {**update, "memories": safe[: config.top_k]}

    return load_memory
