"""What the chat prints of a turn: the memories injected, the answer as it streams (tool calls in
between), the proposals refused, proposals to decide, and what was committed."""

from __future__ import annotations

import contextlib
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:  # pragma: no cover - typing only; the real import is lazy
    from memory_agent.app.agent import MemoryAgent


def _print_memories_injected(console: Console, memories: list[dict]) -> None:
    for m in memories:
        console.print(Text(f"  remembered: [{m.get('kind', '')}] {m.get('content', '')}", style="dim"))


def _print_answer(console: Console, update: dict) -> None:
    # Start-up laziness: langchain_core is imported with the agent, not when the CLI starts.
    from langchain_core.messages import AIMessage

    msgs = [m for m in update.get("messages", []) if isinstance(m, AIMessage)]
    if not msgs:
        return
    content = msgs[-1].content
    print_answer_text(console, content if isinstance(content, str) else str(content))


def print_answer_text(console: Console, text: str) -> None:
    console.print(Text("assistant: ", style="bold cyan") + Text(text))


def print_committed(console: Console, committed: list[dict], proposals: dict[str, dict]) -> None:
    """One line per decision: written / superseded / retracted / rejected."""
    for c in committed:
        content = c.get("content") or ""
        p = proposals.get(c.get("proposal_id", ""), {})
        if c.get("action") == "reject":
            console.print(Text(f"  rejected: {content}", style="yellow"))
            continue
        again = "" if c.get("written") else " (already stored)"
        if c.get("operation") == "RETRACT":
            console.print(Text(f"  retracted: {content}{again}  [{c.get('fact_id')}]", style="magenta"))
            continue
        console.print(Text(f"  written: {content}{again}  [{c.get('fact_id')}]", style="green"))
        if c.get("operation") == "UPDATE" and c.get("target_id"):
            old = p.get("target_content") or c["target_id"]
            console.print(Text(f"  superseded: {old}  [{c['target_id']}]", style="magenta"))


def _print_refused(console: Console, dropped: list[dict]) -> None:
    """One line per proposal that validation refused or a cap stopped, with the reason (nothing refused is
    stored, and a cap is never silent)."""
    for d in dropped:
        if (d.get("decision") == "invalid" or d.get("cap")) and (d.get("proposal") or {}).get("content"):
            console.print(Text(f"  not remembered: {d['proposal']['content']}  ({d.get('reason')})", style="yellow"))


def show_proposal(console: Console, index: int, total: int, p: dict) -> None:
    risky = Text(" RISKY", style="bold red") if p.get("risky") else Text("")
    head = Text(f"Proposed memory {index}/{total}: ", style="bold") + Text(
        f"{p.get('operation')} {p.get('kind')}", style="bold yellow") + risky
    console.print(head)
    op = p.get("operation")
    if op == "RETRACT":
        console.print(Text(f"  forget:   {p.get('target_content') or p.get('content')}  [{p.get('target_id')}]"))
    elif op == "UPDATE" and p.get("target_content"):  # old → new
        console.print(Text(f"  update:   {p.get('target_content')}  [{p.get('target_id')}]"))
        console.print(Text(f"        →   {p.get('content')}"))
    else:
        console.print(Text(f"  content:  {p.get('content')}"))
    if p.get("valid_until") and op != "RETRACT":  # stored as the instant it stops holding: show the last day
        last = datetime.fromisoformat(str(p["valid_until"])) - timedelta(seconds=1)
        console.print(Text(f"  until:    {last.date().isoformat()} (the user's words; the memory expires after it)"))
    console.print(Text(f"  evidence: \"{p.get('evidence')}\""))
    source = p.get("source") or {}
    console.print(Text(f"  source:   message {', '.join(source.get('message_ids') or [])}", style="dim"))
    if p.get("sensitivity") == "restricted":
        console.print(Text("  sensitive: restricted category (health, religion, finances, location, ...)", style="dim"))
    if p.get("reason"):
        console.print(Text(f"  why:      {p['reason']}", style="dim"))


def _print_tool_calls(console: Console, update: dict) -> bool:
    """One dim line per tool the answer calls; False when it calls none (it is the final answer)."""
    calls = [c for m in update.get("messages", []) for c in (getattr(m, "tool_calls", None) or [])]
    for c in calls:
        args = ", ".join(f"{k}={v!r}" for k, v in (c.get("args") or {}).items())
        console.print(Text(f"  tool: {c.get('name')}({args})", style="dim"))
    return bool(calls)


def run_turn(console: Console, agent: MemoryAgent, user: str, thread: str, text: str) -> None:
    """Stream one turn: memories (dim), the answer's tokens as they arrive (tool calls in between),
    then the proposals refused and the auto-commits."""
    # Start-up laziness: the agent module imports LangGraph; by now the agent is open anyway.
    from memory_agent.app.agent import ANSWER_TOKEN

    proposals: dict[str, dict] = {}
    streamed = False  # answer tokens printed since the last answer update
    with contextlib.ExitStack() as status:  # a spinner between the answer and the proposals (terminal only)
        for node, update, _seconds in agent.stream_turn(user, text, thread_id=thread, tokens=True):
            status.close()
            if node == ANSWER_TOKEN:
                if not streamed:
                    console.print(Text("assistant: ", style="bold cyan"), end="")
                    streamed = True
                console.print(Text(update["text"]), end="", soft_wrap=True)
            elif node == "load_memory":
                _print_memories_injected(console, update.get("memories") or [])
                if update.get("memories_left_out"):
                    console.print(Text(f"  {update['memories_left_out']} more relevant memories left out: over the "
                                       "memory token budget (MEMORY_AGENT_MAX_MEMORY_TOKENS)", style="yellow"))
            elif node == "answer":
                if streamed:
                    console.print()
                calls = _print_tool_calls(console, update)
                if not streamed and not calls:  # nothing streamed: the whole answer at once
                    _print_answer(console, update)
                streamed = False
                if not calls:
                    status.enter_context(console.status("[dim]looking for something to remember…[/]",
                                                        spinner="dots"))
            elif node == "propose_facts":
                proposals = {p["id"]: p for p in update.get("proposals") or []}
                _print_refused(console, update.get("dropped") or [])
            elif node == "commit" and update.get("committed"):
                print_committed(console, update["committed"], proposals)
