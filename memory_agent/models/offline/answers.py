"""Answers of the offline model: the ``<memories>`` block of the system messages, replayed in the second person."""

from __future__ import annotations

import html
import re

from langchain_core.messages import BaseMessage, SystemMessage

from memory_agent.core.messages import message_text
from memory_agent.models.offline.vocabulary import NO_CONJUGATION

__all__ = ["NO_MEMORY_REPLY", "OFFLINE_NOTE", "compose_answer", "memories_from"]

_BASE = {"is": "are", "was": "were", "has": "have", "does": "do", "doesn't": "don't", "isn't": "aren't",
         "wasn't": "weren't", "hasn't": "haven't", "goes": "go"}
_MEMORY_BLOCK = re.compile(r"^<memories>[ \t]*\r?\n(?P<body>.*?)^</memories>[ \t]*$", re.M | re.S)
_MEMORY_LINE = re.compile(r"^\s*-\s*\[[\w -]+\]\s*(?P<content>.+?)(?:\s+\(since\s+\d{4}-\d{2}-\d{2}\))?\s*$")
_THE_USER = re.compile(r"\b[Tt]he user(?:'s\b|\s+(?P<v>[A-Za-z]+(?:n't)?)\b|\b)")
NO_MEMORY_REPLY = ("I don't have any stored information about you that is relevant to this. I'm running "
                   "offline without a language model, so I can't give a fuller answer.")
OFFLINE_NOTE = "I'm running offline without a language model, so this is all I can tell you from memory."


def _base(verb: str) -> str:
    """Base form of a third-person verb, for "the user lives" -> "you live"."""
    low = verb.lower()
    if low in _BASE:
        return _BASE[low]
    if low in NO_CONJUGATION or not low.endswith("s") or low.endswith(("ss", "us", "is")):
        return verb
    if low.endswith("ies"):
        return verb[:-3] + "y"
    return verb[:-2] if re.search(r"(?:ss|sh|ch|x|z|o)es$", low) else verb[:-1]


def _second_person(content: str) -> str:
    """Third person to second: "The user's editor" -> "your editor", "The user lives" -> "you live"."""

    def swap(m: re.Match[str]) -> str:
        if m[0].endswith("'s"):
            return "your"
        return f"you {_base(m['v'])}" if m["v"] else "you"

    return _THE_USER.sub(swap, content)


def memories_from(messages: list[BaseMessage]) -> list[str]:
    """The memory contents (unescaped, without kind or date) of the system messages' ``<memories>`` blocks."""
    found: list[str] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            for block in _MEMORY_BLOCK.finditer(message_text(message)):
                for line in block["body"].splitlines():
                    m = _MEMORY_LINE.match(line)
                    if m and (content := html.unescape(m["content"]).strip()) and content not in found:
                        found.append(content)
    return found


def compose_answer(messages: list[BaseMessage]) -> str:
    """The plain-invoke answer: the remembered facts in the second person, or a fixed "nothing stored" reply.

    Only ``SystemMessage`` memory blocks are read (a user cannot inject memories) and the user's
    words are never repeated. An empty list gives the "nothing stored" reply.
    """
    facts = [f for f in (_second_person(c).strip().rstrip(".") for c in memories_from(messages)) if f]
    if not facts:
        return NO_MEMORY_REPLY
    return f"From what I remember about you: {'; '.join(facts)}. {OFFLINE_NOTE}"
