"""The graph state of one thread, kept by the checkpointer between turns."""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict


class AgentState(TypedDict, total=False):
    """State of one thread.

    - ``messages``: the transcript (working memory), merged by ``add_messages``.
    - ``memories``: the facts injected this turn (dicts from ``ScoredFact.as_dict``).
    - ``memories_left_out``: relevant memories not injected because of the token budget.
    - ``session``: session-level memory lines ``{"label", "content"}`` (``memory_agent.memory.sessions``).
    - ``recall``: the message asked what the agent remembers about the user.
    - ``reviews_asked``: ids of memories injected with a review note this turn;
      ``reviews_confirmed``: those of the previous turn that this message confirmed.
    - ``proposals``: validated, reconciled proposals awaiting approval (``Proposal`` dicts).
    - ``dropped``: proposals dropped by validation or reconcile this turn, with the reason.
    - ``decisions``: one per proposal: ``{"proposal_id", "action", "content"?, "message"?, "decided_by"}``.
    - ``committed``: what ``commit`` wrote this turn.
    - ``owner``: the user id that started the thread (no other user id may run it).
    - ``turn``: the running turn's policy, fixed when it starts: ``{"thread_id", "approval",
      "memory_enabled", "message_id"}`` (see ``memory_agent.graph.turn``).
    """

    messages: Annotated[list[AnyMessage], add_messages]
    memories: list[dict[str, Any]]
    memories_left_out: int
    session: list[dict[str, Any]]
    recall: bool
    reviews_asked: list[str]
    reviews_confirmed: list[str]
    proposals: list[dict[str, Any]]
    dropped: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    committed: list[dict[str, Any]]
    owner: str
    turn: dict[str, Any]
