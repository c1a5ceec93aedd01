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
renders only through them), so a block built by other code cannot skip a step.

**Budgets.** :func:`fit_memory_block` and :func:`fit_session_block` choose what fits a token budget
by counting the block as rendered here (heading, tags, labels, date and review notes, the
left-out line) with :func:`memory_agent.memory.tokens.count_tokens`: the budget is what the model
receives. Pure functions: no store, no model, no clock.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from memory_agent.memory.injection import instruction_reason
from memory_agent.memory.text import prompt_text
from memory_agent.memory.tokens import count_tokens
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


def _memory_line(memory: Mapping[str, Any]) -> str:
    since = str(memory.get("updated_at") or "")[:10]
    return fenced_line(memory["kind"], memory["content"],
                       [f"since {since}" if since else "", REVIEW_NOTE if memory.get("review_due") else ""])


def _memory_line_of_admitted(memory: Mapping[str, Any]) -> str:
    """:func:`_memory_line` of a memory :func:`admit` returned (content already in its
    :func:`prompt_text` form, which is idempotent): only escaped, several times faster."""
    def esc(text: object) -> str:
        return html.escape(str(text), quote=False)

    since = str(memory.get("updated_at") or "")[:10]
    notes = [f"since {since}" if since else "", REVIEW_NOTE if memory.get("review_due") else ""]
    return f"- [{esc(prompt_text(str(memory['kind'])))}] {esc(memory['content'])}" + "".join(
        f" ({esc(n)})" for n in notes if n)


def _left_out_line(left_out: int) -> str:
    return fenced_line("note", f"{left_out} more relevant memories were left out: over the memory token budget")


def memory_block(memories: Sequence[Mapping[str, Any]], left_out: int = 0) -> str:
    """The ``<memories>`` block (``prompts/memory_block.md``) of retrieved memories.

    Args:
        memories: dicts with ``kind`` and ``content``; optional ``updated_at`` (ISO-8601: a
            ``since YYYY-MM-DD`` note) and ``review_due`` (a note asking to confirm it).
        left_out: relevant memories the token budget left out (a last line says how many).

    Returns:
        The block's text: one :func:`fenced_line` per memory that passes :func:`admit`.
    """
    lines = [_memory_line(m) for m in admit(memories)]
    if left_out:
        lines.append(_left_out_line(left_out))
    return load_prompt("memory_block").replace("{memories}", "\n".join(lines))


def session_block(lines: Sequence[Mapping[str, Any]]) -> str:
    """The ``<session>`` block (``prompts/session_block.md``): profile, earlier sessions,
    procedural facts and episodes, given as dicts ``{"label", "content"}``; one
    :func:`fenced_line` per line that passes :func:`admit`."""
    kept = admit(lines, what="session line")
    return load_prompt("session_block").replace("{session}", "\n".join(fenced_line(m["label"], m["content"])
                                                                       for m in kept))


# ---- token budgets: what the model receives -------------------------------------------------------
# The sum of the lines' counts estimates the block's count (BPE may merge across a line break); the
# rendered block is what is held to the budget: the estimate chooses, the exact count checks and
# fills what room the estimate left.
_JOIN_SLACK = 3


def fit_memory_block(memories: Sequence[Mapping[str, Any]], budget: int) -> tuple[list[Mapping[str, Any]],
                                                                                   list[Mapping[str, Any]]]:
    """Split ``memories`` (best first) into ``(kept, left_out)`` so that
    ``memory_block(kept, len(left_out))`` — heading, tags, date and review notes and the left-out
    line included — has at most ``budget`` tokens (:func:`memory_agent.memory.tokens.count_tokens`).
    A memory that does not fit is left out and later, shorter ones may still fit; when none fits
    (or ``budget`` is below the block's own wrapper) ``kept`` is empty and no block is rendered.
    ``memories`` are expected to have passed :func:`admit` (``load_memory`` admits first); one the
    gate would refuse is counted as if shown, so the rendered block is only shorter."""
    items = list(memories)
    lines = [_memory_line_of_admitted(m) for m in items]
    costs = [count_tokens(line) + 1 for line in lines]

    def exact(chosen: list[int]) -> int:
        shown = [lines[i] for i in chosen]
        left = len(items) - len(chosen)
        return count_tokens(load_prompt("memory_block").replace(
            "{memories}", "\n".join(shown + ([_left_out_line(left)] if left else []))))

    room = budget - count_tokens(memory_block([]))
    kept = _greedy(costs, room, stop=False)
    if len(kept) < len(items):  # room for the line saying how many were left out
        kept = _greedy(costs, room - count_tokens(_left_out_line(len(items))) - 1, stop=False)
    while kept and exact(kept) > budget:
        kept.pop()
    note = count_tokens(_left_out_line(len(items))) + 1
    used = exact(kept) if kept else budget
    for i in range(len(items)):  # fill what the estimate left unused (the last one also frees the note's room)
        last = len(kept) == len(items) - 1
        if i not in kept and kept and costs[i] <= budget - used + _JOIN_SLACK + (note if last else 0):
            trial = sorted([*kept, i])
            if (count := exact(trial)) <= budget:
                kept, used = trial, count
    # the block as memory_block renders it (the same text when the memories passed admit)
    while kept and count_tokens(memory_block([items[i] for i in kept], len(items) - len(kept))) > budget:
        kept.pop()
    chosen = set(kept)
    return [items[i] for i in kept], [m for i, m in enumerate(items) if i not in chosen]


def fit_session_block(lines: Sequence[Mapping[str, Any]], budget: int) -> list[Mapping[str, Any]]:
    """``lines`` in order while ``session_block`` of them stays within ``budget`` tokens (heading,
    tags and labels included); when some are left out, a last line ``{"label": "note", ...}`` says
    how many, and it is counted too. Empty when not even one line fits. ``lines`` are expected to
    have passed :func:`admit`, as for :func:`fit_memory_block`."""
    items = list(lines)
    costs = [count_tokens(fenced_line(m["label"], m["content"])) + 1 for m in items]

    def shown(n: int) -> list[Mapping[str, Any]]:
        left = len(items) - n
        return items[:n] + ([{"label": "note", "content": f"{left} more lines left out: over the session token "
                                                         "budget"}] if left else [])

    def exact(n: int) -> int:
        return count_tokens(session_block(shown(n)))

    room = budget - count_tokens(session_block([]))
    n = len(_greedy(costs, room, stop=True))
    if n < len(items):
        n = len(_greedy(costs, room - count_tokens(fenced_line("note", shown(0)[-1]["content"])) - 1, stop=True))
    while n and exact(n) > budget:
        n -= 1
    while n and n < len(items) and exact(n + 1) <= budget:  # fill what the estimate left unused
        n += 1
    return shown(n) if n else []


def _greedy(costs: Sequence[int], room: int, *, stop: bool) -> list[int]:
    """Indexes taken in order while their costs fit ``room``; ``stop``: at the first that does not fit,
    else skip it and try the next."""
    taken, used = [], 0
    for i, cost in enumerate(costs):
        if used + cost <= room:
            taken.append(i)
            used += cost
        elif stop:
            break
    return taken


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
