"""What a run of ``MemoryAgent`` hands back: its result, its errors, and the events of a streamed turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk

__all__ = ["ANSWER_TOKEN", "InputError", "PendingApprovalError", "TurnResult", "stream_events"]


class InputError(ValueError):
    """A user message or id the agent will not take (the message says what to do)."""


class PendingApprovalError(RuntimeError):
    """The thread waits at an approval; answer it (``resume``) before sending a new message."""


@dataclass
class TurnResult:
    """What one run (a turn or a resume) produced.

    - ``answer``: the assistant's reply ('' for a resume).
    - ``memories``: injected memories (dicts with id, kind, content, score).
    - ``memories_left_out``: relevant memories the token budget left out.
    - ``session``: session-level memory injected (profile, earlier sessions, procedural, episodes).
    - ``pending``: proposals waiting for approval (empty when the run finished).
    - ``dropped``: proposals dropped by validation or reconcile, with reasons.
    - ``committed``: what ``commit`` wrote.
    - ``node_seconds``: wall-clock seconds per node that ran.
    """

    answer: str = ""
    memories: list[dict] = field(default_factory=list)
    memories_left_out: int = 0
    session: list[dict] = field(default_factory=list)
    pending: list[dict] = field(default_factory=list)
    dropped: list[dict] = field(default_factory=list)
    committed: list[dict] = field(default_factory=list)
    node_seconds: dict[str, float] = field(default_factory=dict)


#: The node name :meth:`MemoryAgent.stream_turn` gives a piece of the answer with ``tokens=True``
#: (the update is ``{"text": str}``).
ANSWER_TOKEN = "answer_token"


def stream_events(part: tuple[str, Any]) -> list[tuple[str, dict]]:
    """One item of ``graph.stream(..., stream_mode=[...])`` as ``(node, update)`` pairs: each node's
    update, or ``(ANSWER_TOKEN, {"text"})`` for a streamed piece of the ``answer`` node's text (pieces
    of other nodes' model calls, e.g. ``propose_facts``, and whole messages are left out)."""
    mode, data = part
    if mode == "messages":
        message, meta = data
        if (meta.get("langgraph_node") == "answer" and isinstance(message, AIMessageChunk)
                and isinstance(message.content, str) and message.content):
            return [(ANSWER_TOKEN, {"text": message.content})]
        return []
    return [(node, update if isinstance(update, dict) else {"value": update}) for node, update in data.items()]


def whole_answer(part: tuple[str, Any]) -> list[tuple[str, dict]]:
    """``[(ANSWER_TOKEN, {"text"})]`` for a whole (not streamed) message with text from the ``answer``
    node in a ``messages`` stream item, else ``[]``: how a model that does not stream shows its reply."""
    mode, data = part
    if mode != "messages":
        return []
    message, meta = data
    if (meta.get("langgraph_node") == "answer" and isinstance(message, AIMessage)
            and not isinstance(message, AIMessageChunk) and not message.tool_calls
            and isinstance(message.content, str) and message.content):
        return [(ANSWER_TOKEN, {"text": message.content})]
    return []
