"""``propose_facts``: ask the model for durable facts in the latest user message; code validates."""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence
from datetime import datetime

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from memory_agent.core.facts import Fact, ProposedFacts, stable_id, utcnow
from memory_agent.graph.context import AgentContext
from memory_agent.graph.state import AgentState
from memory_agent.graph.turn import latest_user_message, message_text, turn_policy
from memory_agent.memory.text import prompt_text
from memory_agent.models.errors import ModelError
from memory_agent.prompts import load_prompt
from memory_agent.stores.long_term import LongTermMemory

log = logging.getLogger(__name__)


def memory_lines(related: Sequence[Fact]) -> str:
    """The related memories as the extraction prompt lists them: ``[m<N>] (kind, topic) content``, one
    line each (``N`` from 1, best first), each text through :func:`memory_agent.memory.text.prompt_text`
    and HTML-escaped, so a stored fact cannot close the block or start a line of its own; ``(none)``
    when there are none."""
    def esc(text: str) -> str:
        return html.escape(prompt_text(text), quote=False)

    lines = [f"[m{i}] ({esc(f.kind)}, {esc(f.topic or '-')}) {esc(f.content)}" for i, f in enumerate(related, 1)]
    return "\n".join(lines) or "(none)"


def extraction_prompt(message: HumanMessage, related: Sequence[Fact] = (), now: datetime | None = None) -> str:
    """``prompts/propose_facts.md`` with the user message as ``[<message id>] user: <text>``, the
    ``related`` live memories as :func:`memory_lines`, ``prompts/propose_facts_updates.md`` (how to
    write a change) after them when there are any, and today's date (``YYYY-MM-DD (Weekday)``) at the
    clock ``now`` (default: the wall clock)."""
    text = " ".join(message_text(message).split())
    now = now or utcnow()
    updates = f"\n\n{load_prompt('propose_facts_updates').strip()}" if related else ""
    return (load_prompt("propose_facts").replace("{memories}", memory_lines(related))
            .replace("{update_rules}", updates)
            .replace("{today}", f"{now.date().isoformat()} ({now.strftime('%A')})")
            .replace("{messages}", f"[{message.id}] user: {text}"))


def make_propose_facts(memory: LongTermMemory, model: BaseChatModel):
    """Build the node. Nothing is written here (the audit rows are written by ``commit``).

    The prompt shows the model the user's related live memories (to this message, and a few to the
    user's previous one) under short ids (``m1`` …, mapped to fact ids here, never shown); the model
    judges each item add / update / retract / none and ``memory.plan`` checks every target against
    that map, this user's store and the clock.
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
        now = ctx.clock()
        earlier = [m for m in messages if isinstance(m, HumanMessage) and m is not turn]
        previous = message_text(earlier[-1]) if earlier else ""
        related = memory.related(ctx.user_id, message_text(turn), now, previous=previous)
        shown = {f"m{i}": f.id for i, f in enumerate(related, 1)}
        try:
            out = structured.invoke([HumanMessage(extraction_prompt(turn, related, now))])
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
        proposals, dropped = memory.plan(ctx.user_id, thread_id, out.facts, messages, shown=shown, now=now)
        for item in dropped:
            log.info("propose_facts: dropped %s: %s", item["proposal"].get("content"), item["reason"])
        return {"proposals": [p.model_dump(mode="json") for p in proposals], "dropped": dropped}

    return propose_facts
