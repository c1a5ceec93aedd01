"""``answer``: reply to the user, with the injected memories as one fenced, labelled data block."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, SystemMessage
from langgraph.runtime import Runtime

from memory_agent.graph.context import AgentContext
from memory_agent.graph.state import AgentState
from memory_agent.prompts import load_prompt

MAX_HISTORY_MESSAGES = 20
# zero-width and bidi controls, and C0/C1 control characters other than whitespace
_UNPRINTABLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u00ad\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def format_memory_block(memories: Sequence[dict], left_out: int = 0) -> str:
    """The memory block (``prompts/memory_block.md``) for injected memories.

    One line per memory: ``- [kind] content (since YYYY-MM-DD)``, plus a note asking to confirm
    it with the user when its review date is near (``review_due``), and a last line saying how
    many relevant memories the token budget left out (``left_out``). Content is NFKC-normalised
    (fullwidth ``＜`` becomes ``<``), stripped of zero-width and control characters, put on one
    line and HTML-escaped, so a stored fact cannot close the fence (``</memories>``), open a new
    one, or start a line of its own that looks like another memory or a role label.
    """
    lines = []
    for m in memories:
        text = _UNPRINTABLE.sub("", unicodedata.normalize("NFKC", str(m["content"])))
        content = html.escape(" ".join(text.split()), quote=False)
        since = str(m.get("updated_at", ""))[:10]
        line = f"- [{m['kind']}] {content}" + (f" (since {since})" if since else "")
        if m.get("review_due"):
            line += " (due for review: confirm with the user that this is still true)"
        lines.append(line)
    if left_out:
        lines.append(f"- ({left_out} more relevant memories were left out: over the memory token budget)")
    return load_prompt("memory_block").replace("{memories}", "\n".join(lines))


def format_session_block(lines: Sequence[dict]) -> str:
    """Session-level memory (profile, previous sessions, procedural facts, episodes) as its own
    fenced data block (``prompts/session_block.md``): ``- [label] content``, escaped, one line each."""
    def esc(text: object) -> str:
        return html.escape(" ".join(str(text).split()), quote=False)

    out = [f"- [{esc(m['label'])}] {esc(m['content'])}" for m in lines]
    return load_prompt("session_block").replace("{session}", "\n".join(out))


def make_answer(model: BaseChatModel):
    """Build the node: system prompt + memory block (if any) + the last 20 messages → one reply.

    State out: ``messages`` gains one ``AIMessage``. Model errors propagate (the turn fails,
    nothing is written, the thread stays as it was before the turn's nodes ran).
    """

    def answer(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
        prompt = [SystemMessage(load_prompt("system"))]
        if state.get("memories"):
            prompt.append(SystemMessage(format_memory_block(state["memories"], state.get("memories_left_out", 0))))
        if state.get("session"):
            prompt.append(SystemMessage(format_session_block(state["session"])))
        prompt.extend(state.get("messages", [])[-MAX_HISTORY_MESSAGES:])
        reply = model.invoke(prompt)
        text = reply.content if isinstance(reply.content, str) else str(reply.content)
        return {"messages": [AIMessage(content=text)]}

    return answer
