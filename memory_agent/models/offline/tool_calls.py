"""Tool calls of the offline model: a request in plain words becomes a call, by rule, when the tool it
names is bound (``bind_tools``); the results it gets back are replayed as the answer.

The rules read the newest user message only, and only before any tool has answered in the turn (one
round). They understand explicit requests, not intent:

- "search my memories for X" / "look through your notes about X" → ``search_memories(query=X)``;
- "show my profile" / "what's in my profile" → ``get_user_profile()``;
- "my open items" / "what's still open" / "my to-dos" → ``list_open_items()``;
- "what time is it" / "what's the date" / "what day is it" → ``current_time()``;
- "calculate 12 * (3 + 4)" / "what is 7*6" → ``calculator(expression=...)``.

Several requests in one message give several calls, in the order above.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Callable, Collection, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage

from memory_agent.core.messages import message_text

__all__ = ["TOOL_RULES", "compose_tool_answer", "tool_calls_for", "tool_results"]

_END = r"(?=\s*(?:[.!?;]|\band\b|$))"
#: ``(tool name, pattern, arguments from the match)``, tried in order, each at most once per message.
TOOL_RULES: list[tuple[str, re.Pattern[str], Callable[[re.Match[str]], dict[str, Any]]]] = [
    ("search_memories", re.compile(
        r"\b(?:search|look\s+(?:up|through)|check|query)\s+(?:in\s+)?(?:my|your|the)\s+(?:memories|memory|notes)\s+"
        r"(?:for|about|on)\s+(?P<q>[^.!?;]+?)" + _END, re.I), lambda m: {"query": m["q"].strip()}),
    ("get_user_profile", re.compile(r"\b(?:show|give|read|list)\s+(?:me\s+)?my\s+profile\b|"
                                    r"\bwhat(?:'s|\s+is)\s+(?:in\s+)?my\s+profile\b", re.I), lambda m: {}),
    ("list_open_items", re.compile(r"\bmy\s+open\s+items\b|\bwhat(?:'s|\s+is|\s+are)\s+(?:still\s+)?open\b|"
                                   r"\bmy\s+to-?dos?\b", re.I), lambda m: {}),
    ("current_time", re.compile(r"\bwhat\s+time\s+is\s+it\b|\bwhat(?:'s|\s+is)\s+(?:the\s+)?(?:time|date)\b|"
                                r"\bwhat\s+day\s+is\s+(?:it|today)\b|\btoday's\s+date\b", re.I), lambda m: {}),
    ("calculator", re.compile(r"\b(?:calculate|compute|what(?:'s|\s+is))\s+(?P<e>[-+(\d][\d\s.()]*"
                              r"(?:(?:\*\*|//|[-+*/%])[\d\s.()]+)+)", re.I), lambda m: {"expression": m["e"].strip()}),
]
_BLOCK = re.compile(r"^<tool_result>[ \t]*\r?\n(?P<body>.*?)^</tool_result>[ \t]*$", re.M | re.S)
_LINE = re.compile(r"^\s*-\s*\[(?P<label>[^\]]*)\]\s*(?P<content>.+?)\s*$")


def _this_turn(messages: Sequence[BaseMessage]) -> tuple[HumanMessage | None, list[ToolMessage]]:
    """The newest user message and the tool results that came after it."""
    results: list[ToolMessage] = []
    for msg in reversed(messages):
        if isinstance(msg, HumanMessage):
            return msg, list(reversed(results))
        if isinstance(msg, ToolMessage):
            results.append(msg)
    return None, list(reversed(results))


def tool_calls_for(messages: Sequence[BaseMessage], tools: Collection[str]) -> list[dict[str, Any]]:
    """The tool calls (``{"name", "args", "id"}``) the newest user message asks for among ``tools``
    (names); ``[]`` once a tool has answered in this turn, or when nothing matches."""
    human, results = _this_turn(messages)
    if human is None or results:
        return []
    text = message_text(human)
    calls = []
    for name, pattern, args in TOOL_RULES:
        if name in tools and (m := pattern.search(text)):
            digest = hashlib.sha256(f"{human.id}|{text}|{name}".encode()).hexdigest()[:12]
            calls.append({"name": name, "args": args(m), "id": f"call_{digest}", "type": "tool_call"})
    return calls


def tool_results(messages: Sequence[BaseMessage]) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """This turn's tool results as ``(tool, status, [(label, content)])``, read back (unescaped) from the
    gate's ``<tool_result>`` blocks."""
    out = []
    for msg in _this_turn(messages)[1]:
        lines = []
        for block in _BLOCK.finditer(message_text(msg)):
            for line in block["body"].splitlines():
                if m := _LINE.match(line):
                    lines.append((html.unescape(m["label"]), html.unescape(m["content"])))
        out.append((msg.name or "tool", msg.status, lines))
    return out


def compose_tool_answer(messages: Sequence[BaseMessage]) -> str | None:
    """The answer after tools ran this turn: each tool's lines, or ``None`` when none ran."""
    results = tool_results(messages)
    if not results:
        return None
    parts = []
    for name, status, lines in results:
        shown = "; ".join(c.rstrip(".") for label, c in lines if label != "note") or "nothing"
        parts.append(f"{name} failed: {shown}" if status == "error" else f"{name}: {shown}")
    return "Here is what my tools returned. " + ". ".join(parts) + "."
