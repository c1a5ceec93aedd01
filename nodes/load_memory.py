"""``load_memory``: retrieve this user's few relevant, live facts for the latest message."""

from __future__ import annotations

from langgraph.runtime import Runtime

from memory_agent.core.facts import Fact
from memory_agent.graph.context import AgentContext
from memory_agent.graph.state import AgentState
from memory_agent.graph.turn import check_owner, latest_user_message, message_text, start_turn
from memory_agent.memory.gate import admit, fit_memory_block, fit_session_block
from memory_agent.memory.lifecycle import is_confirmation, review_due
from memory_agent.memory.sessions import has_history, is_recall_request
from memory_agent.stores.long_term import LongTermMemory
from memory_agent.stores.session_memory import episodes_for, session_context

TURN_RESET = {"memories": [], "memories_left_out": 0, "session": [], "recall": False, "reviews_asked": [],
              "proposals": [], "dropped": [], "decisions": [], "committed": []}


def make_load_memory(memory: LongTermMemory):
    """Build the node. It writes no store: usage counts are recorded by ``commit``.

    It starts the turn: fixes its policy (``turn``), records the thread's ``owner`` on the first
    turn, and refuses a thread that another user id started (``memory_agent.graph.turn.ThreadOwnerError``).
    State in: ``messages``. State out: ``memories`` (≤ top-k dicts with id, kind, content,
    similarity, recency, score, and ``review_due`` near a review date), cut so that the rendered
    memory block fits the memory token budget, best first (``memories_left_out``: how many did not
    fit); for "what do you remember about me?" every live memory (``recall``); ``session``: lines
    of session-level memory
    (``memory_agent.memory.sessions``: the profile on a thread's first turn, the procedural facts on
    the others, earlier sessions relevant to the message, episodes a time question asks for), cut so
    that the rendered session block fits the session token budget;
    every memory and line has passed the gate (``memory_agent.memory.gate.admit``: normalised and
    screened, as the ``answer`` node renders it); ``reviews_asked``: memories shown with a review
    note; ``reviews_confirmed``: those of the previous turn when this message confirms them
    ("yes, still true"); ``turn``, ``owner``, and the other per-turn fields reset.
    """

    def load_memory(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
        ctx = runtime.context
        check_owner(state, ctx)
        update = {**TURN_RESET, "turn": start_turn(state, ctx), "owner": ctx.user_id}
        message = latest_user_message(state)
        query = message_text(message) if message is not None else ""
        # the previous answer asked to confirm memories due for review; "yes" confirms them
        update["reviews_confirmed"] = list(state.get("reviews_asked") or []) if is_confirmation(query) else []
        if not ctx.memory_enabled or not query.strip():
            return update
        now = ctx.clock()
        recall = is_recall_request(query)
        if recall:  # "what do you remember about me?": every live memory, within the token budget
            found = [_as_memory(f, now) for f in memory.live(ctx.user_id) if f.is_valid_at(now)]
        else:
            scored = memory.retrieve(ctx.user_id, query, now, top_k=memory.retrieval.candidates)
            found = [_with_review_note(s.as_dict(), s.fact, now) for s in scored]
        # The gate (memory.gate): a stored fact that reads as an instruction (written before the
        # screen knew its phrasing, or straight into the store) is never injected. It is filtered
        # before the top-k cut, so it cannot push the user's real facts out either.
        admitted = admit(found)
        safe = admitted if recall else admitted[: memory.retrieval.top_k]
        kept, left_out = fit_memory_block(safe, memory.max_memory_tokens)
        update = {**update, "memories": kept, "memories_left_out": len(left_out), "recall": recall,
                  "reviews_asked": [m["id"] for m in kept if m.get("review_due")]}
        first_turn = not has_history(state.get("messages", []))
        lines = session_context(memory, ctx.user_id, query, now, first_turn=first_turn,
                                skip_ids=[m["id"] for m in kept], retrieved_ids=[m["id"] for m in admitted])
        session = admit(lines + episodes_for(memory, ctx.user_id, query, now), what="session line")
        return {**update, "session": fit_session_block(session, memory.max_session_tokens)}

    return load_memory


def _with_review_note(memory: dict, fact: Fact, now) -> dict:
    """Mark a memory whose review date is near (``review_due``: the review date, ISO-8601), so the
    answer asks the user to confirm it; the user's reply then renews or updates it."""
    if review_due(fact, now):
        return {**memory, "review_due": fact.review_at.isoformat()}
    return memory


def _as_memory(fact: Fact, now) -> dict:
    """A live fact in the shape of ``ScoredFact.as_dict`` (no query: no similarity or score)."""
    item = {"id": fact.id, "kind": fact.kind, "content": fact.content, "updated_at": fact.updated_at.isoformat(),
            "similarity": None, "recency": None, "score": None}
    return _with_review_note(item, fact, now)
