"""The one gate between long-term memory and the prompt: every block of memory the model reads
(retrieved memories, the profile, earlier sessions, procedural facts, episodes) and every tool result
(:func:`tool_block`) passes here.

Three steps, the same for every block:

1. **Normalise** with :func:`memory_agent.memory.text.prompt_text` (NFKC, invisible and format
   characters removed, look-alike letters folded, one line), so the screen reads exactly the text
   the model will read.
2. **Screen** with :func:`memory_agent.memory.injection.instruction_reason`: an item that reads as an
   instruction to the agent, a secret, a money entitlement or a role claim is left out, whatever
   wrote it (a fact stored before the screen knew its phrasing, or a row written straight into the
   store). :func:`admit` does this for ``load_memory``, so what the turn reports as injected is
   what the prompt holds.
3. **Fence**: one line per item, ``- [label] text``, HTML-escaped (``<`` becomes ``&lt;``), inside the
   block's tags (``<memories>``, ``<session>`` or ``<tool_result>``) under the heading of
   ``prompts/memory_block.md``, ``prompts/session_block.md`` or ``prompts/tool_block.md``, which present
   the lines as data (about the user, or returned by a tool), never as
   instructions. No stored text can close the fence or start a line of its own.

:func:`memory_block` and :func:`session_block` screen again as they render (the ``answer`` node
renders only through them), so a block built by other code cannot skip a step. Pure functions:
no store, no model, no clock.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from memory_agent.memory.injection import instruction_reason
from memory_agent.memory.text import prompt_text
from memory_agent.prompts import load_prompt

log = logging.getLogger(__name__)

REVIEW_NOTE = "due for review: confirm with the user that this is still true"


def screen(text: object) -> str | None:
    """Why ``text`` may not reach the prompt (the instruction screen on its :func:`prompt_text`
    form), or ``None`` when it may."""
    return instruction_reason(prompt_text(str(text)))


def admit(items: Iterable[Mapping[str, Any]], what: str = "memory") -> list[dict[str, Any]]:
    """The items whose ``content`` passes :func:`screen`, in their order, each as a new dict with
    ``content`` in its :func:`prompt_text` form; an empty content is left out too. Every item left
    out is logged (warning) with its ``id`` or ``fact_id`` and the reason; ``what`` names the block
    in that log line."""
    kept = []
    for item in items:
        content = prompt_text(str(item.get("content", "")))
        refused = screen(content) if content else "empty"
        if refused:
            log.warning("gate: %s %s not injected: %s", what, item.get("id") or item.get("fact_id") or "-", refused)
            continue
        kept.append({**item, "content": content})
    return kept


def fenced_line(label: object, content: object, notes: Sequence[str] = ()) -> str:
    """One line of a block: ``- [label] content (note) (note)``, each part normalised
    (:func:`prompt_text`) and HTML-escaped (``&``, ``<``, ``>``)."""
    def esc(text: object) -> str:
        return html.escape(prompt_text(str(text)), quote=False)

    return f"- [{esc(label)}] {esc(content)}" + "".join(f" ({esc(n)})" for n in notes if n)


def memory_block(memories: Sequence[Mapping[str, Any]], left_out: int = 0) -> str:
    """The ``<memories>`` block (``prompts/memory_block.md``) of retrieved memories.

    Args:
        memories: dicts with ``kind`` and ``content``; optional ``updated_at`` (ISO-8601: a
            ``since YYYY-MM-DD`` note) and ``review_due`` (a note asking to confirm it).
        left_out: relevant memories the token budget left out (a last line says how many).

    Returns:
        The block's text: one :func:`fenced_line` per memory that passes :func:`admit`.
    """
    lines = []
    for m in admit(memories):
        since = str(m.get("updated_at") or "")[:10]
        lines.append(fenced_line(m["kind"], m["content"],
                                 [f"since {since}" if since else "", REVIEW_NOTE if m.get("review_due") else ""]))
    if left_out:
        lines.append(fenced_line("note", f"{left_out} more relevant memories were left out: over the memory "
                                         "token budget"))
    return load_prompt("memory_block").replace("{memories}", "\n".join(lines))


def session_block(lines: Sequence[Mapping[str, Any]]) -> str:
    """The ``<session>`` block (``prompts/session_block.md``): profile, earlier sessions,
    procedural facts and episodes, given as dicts ``{"label", "content"}``; one
    :func:`fenced_line` per line that passes :func:`admit`."""
    kept = admit(lines, what="session line")
    return load_prompt("session_block").replace("{session}", "\n".join(fenced_line(m["label"], m["content"])
                                                                       for m in kept))


def tool_block(tool: str, lines: Sequence[Mapping[str, Any]], *, error: bool = False) -> str:
    """The ``<tool_result>`` block (``prompts/tool_block.md``) of one tool call, as the ``tools`` node
    hands it to the model: the tool's name, then one :func:`fenced_line` per line ``{"label",
    "content"}`` that passes :func:`admit` (a line refused by the screen is replaced by a note saying
    so, never shown), or ``(nothing)``. ``error``: the lines are the tool's error message."""
    kept = admit(lines, what=f"{tool} result")
    body = [fenced_line(m.get("label", "result"), m["content"]) for m in kept]
    if len(kept) < len(lines):
        body.append(fenced_line("note", f"{len(lines) - len(kept)} line(s) left out: they read as instructions"))
    return (load_prompt("tool_block").replace("{tool}", html.escape(prompt_text(tool), quote=False))
            .replace("{status}", "error" if error else "ok").replace("{lines}", "\n".join(body) or "(nothing)"))
