"""``propose_facts``: ask the model for durable facts in the latest user message; code validates."""

from __future__ import annotations

import logging

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from memory_agent.core.facts import ProposedFacts, stable_id
from memory_agent.graph.context import AgentContext
from memory_agent.graph.state import AgentState
from memory_agent.graph.turn import latest_user_message, message_text, turn_policy
from memory_agent.models.errors import ModelError
from memory_agent.prompts import load_prompt
from memory_agent.stores.long_term import LongTermMemory

log = logging.getLogger(__name__)


def extraction_prompt(message: HumanMessage) -> str:
    """``prompts/propose_facts.md`` with the user message as ``[<message id>] user: <text>``."""
    text = " ".join(message_text(message).split())
    return load_prompt("propose_facts").replace("{messages}", f"[{message.id}] user: {text}")


def make_propose_facts(memory: LongTermMemory, model: BaseChatModel):
    """Build the node. Nothing is written here (the audit rows are written by ``commit``).

    State out: ``proposals`` (validated, reconciled ``Proposal`` dicts) and ``dropped``
    (invalid, NOOP, or malformed model output, each with its reason). Malformed structured
    output never fails the turn: the proposals are dropped and the reason recorded. A
    ``ModelError`` (a model that cannot serve as configured, e.g. a replayed prompt with no
    recording) propagates and fails the turn.
    """
    structured = model.with_structured_output(ProposedFacts)

    def propose_facts(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
        ctx = runtime.context
        policy = turn_policy(state, ctx)
        if not policy["memory_enabled"]:
            return {"proposals": [], "dropped": []}
        messages = state.get("messages", [])
        turn = latest_user_message(state)
        if turn is None:
            return {"proposals": [], "dropped": []}
        thread_id = policy["thread_id"]
        try:
            out = structured.invoke([HumanMessage(extraction_prompt(turn))])
            if not isinstance(out, ProposedFacts):
                out = ProposedFacts.model_validate(out)
        except ModelError:
            raise
        except Exception as exc:  # malformed output or a failing model must not fail the turn
            log.warning("propose_facts: model output dropped: %s", exc)
            item = {"id": stable_id(ctx.user_id, thread_id, str(turn.id), prefix="p_"),
                    "proposal": {"content": None}, "decision": "invalid",
                    "reason": f"malformed model output: {type(exc).__name__}: {str(exc)[:300]}"}
            return {"proposals": [], "dropped": [item]}
        proposals, dropped = memory.plan(ctx.user_id, thread_id, out.facts, messages)
        for item in dropped:
            log.info("propose_facts: dropped %s: %s", item["proposal"].get("content"), item["reason"])
        return {"proposals": [p.model_dump(mode="json") for p in proposals], "dropped": dropped}

    return propose_facts
