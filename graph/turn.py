"""Helpers the nodes share: message text, the turn's policy, and the thread's owner.

A turn's policy (approval mode, memory on/off, the user's thread id) is fixed by ``load_memory``
when the turn starts and kept in the state, so a resume or a finished interrupted turn runs
under the policy the turn began with, whatever the resuming call passes.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.config import get_config

from memory_agent.core.messages import message_text
from memory_agent.graph.context import AgentContext
from memory_agent.graph.state import AgentState

__all__ = ["ThreadOwnerError", "check_owner", "latest_user_message", "message_text", "start_turn", "turn_policy"]


class ThreadOwnerError(PermissionError):
    """The thread belongs to another user id than the run's context."""


def latest_user_message(state: AgentState) -> HumanMessage | None:
    """The newest ``HumanMessage`` of the thread, or ``None``."""
    for msg in reversed(state.get("messages", [])):
        if isinstance(msg, HumanMessage):
            return msg
    return None


NO_CONTEXT = ('This run has no context: pass context={"user_id": "alice@example.com"} with the run '
              "(LangGraph SDK: runs.wait(..., context=...); Studio: the run's context panel).")


def check_owner(state: AgentState, ctx: AgentContext | None) -> None:
    """Raise :class:`ThreadOwnerError` when the thread was started by another user id, ``ValueError``
    (:data:`NO_CONTEXT`) when the run has no context at all."""
    if not isinstance(ctx, AgentContext):
        raise ValueError(NO_CONTEXT)
    owner = state.get("owner")
    if owner is not None and owner != ctx.user_id:
        raise ThreadOwnerError("This thread belongs to another user; start a new thread for this user id.")


def start_turn(state: AgentState, ctx: AgentContext) -> dict[str, Any]:
    """The policy of a new turn, from the run context (written to the state by ``load_memory``)."""
    config_thread = str(get_config().get("configurable", {}).get("thread_id", ""))
    message = latest_user_message(state)
    return {
        "thread_id": ctx.thread_id or config_thread,
        "approval": ctx.approval,
        "memory_enabled": ctx.memory_enabled,
        "message_id": message.id if message is not None else None,
        "at": ctx.clock().isoformat(),  # the turn's context-clock time (forget --since rewinds by it)
    }


def turn_policy(state: AgentState, ctx: AgentContext) -> dict[str, Any]:
    """The running turn's policy as ``load_memory`` fixed it (from the context if it has not run)."""
    return state.get("turn") or start_turn(state, ctx)
