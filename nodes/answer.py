"""``answer``: reply to the user, with the injected memories as one fenced, labelled data block."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, SystemMessage
from langgraph.runtime import Runtime

from graph.context import AgentContext
from graph.state import AgentState
from prompts import load_prompt

MAX_HISTORY_MESSAGES = 20
# zero-width and bidi controls, and C0/C1 control characters other than whitespace
_UNPRINTABLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u00ad\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def format_memory_block(memories: Sequence[dict]) -> str:
    """The memory block (``prompts/memory_block.md``) for injected memories.

    One line per memory: ``- [kind] content (since YYYY-MM-DD)``. Content is NFKC-normalised
    (fullwidth ``＜`` becomes ``<``), stripped of zero-width and control characters, put on one
    line and HTML-escaped, so a stored fact cannot close the fence (``</memories>``), open a new
    one, or start a line of its own that looks like another memory or a role label.
    """
    lines = []
    for m in memories:
        text = _UNPRINTABLE.sub("", unicodedata.normalize("NFKC", str(m["content"])))
        content = html.escape(" ".join(text.split()), quote=False)
        since = str(m.get("updated_at", ""))[:10]
        lines.append(f"- [{m['kind']}] {content}" + (f" (since {since})" if since else ""))
    return load_prompt("memory_block").replace("{memories}", "\n".join(lines))


def make_answer(model: BaseChatModel):
    """Build the node: system prompt + memory block (if any) + the last 20 messages → one reply.

    State out: ``messages`` gains one ``AIMessage``. Model errors propagate (the turn fails,
    nothing is written, the thread stays as it was before the turn's nodes ran).
    """

    def answer(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
        prompt = [SystemMessage(load_prompt("system"))]
        if state.get("memories"):
            prompt.append(SystemMessage(format_memory_block(state["memories"])))
        prompt.extend(state.get("messages", [])[-MAX_HISTORY_MESSAGES:])
        reply = model.invoke(prompt)
        text = reply.content if isinstance(reply.content, str) else str(reply.content)
        return {"messages": [AIMessage(content=text)]}

    return answer
