"""The story ``memory-agent demo`` tells: one user, two conversations a month apart on a fresh store in a
temporary folder, every proposal approved; what each line made the agent remember, supersede or forget,
what it keeps, and the same questions a day later with memory on and off side by side. Everything printed
comes from the agent's results; only the user's lines (:data:`STORY`) are written in advance.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from memory_agent.evals.scenario_runner import AgentFactory

__all__ = ["STORY", "STORY_USER", "StoryResult", "run_story"]


STORY_USER = "sam@example.com"
#: The user's lines: two conversations a month apart, then questions a day after the second (UTC).
STORY = {
    "sessions": [
        ("2026-03-02T09:00:00+00:00", ["I'm vegetarian.", "I live in Lisbon.",
                                       "I work at Hooli as a product designer."]),
        ("2026-04-06T18:00:00+00:00", ["I moved to Porto in April.", "Please forget my employer.",
                                       "Keep your answers short, please."]),
    ],
    "questions_at": "2026-04-07T12:00:00+00:00",
    "questions": ["Suggest a dinner recipe for tonight.", "Where do I live these days?",
                  "Where do I work?"],
}


@dataclass
class StoryResult:
    """What the story did: per session, each line and what it wrote; the facts kept and left behind; the
    questions with the answers and recalled memories, memory on and off."""

    sessions: list[dict[str, Any]] = field(default_factory=list)
    live: list[str] = field(default_factory=list)
    history: list[dict[str, str]] = field(default_factory=list)
    questions: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"sessions": self.sessions, "live": self.live, "history": self.history,
                "questions": self.questions, "seconds": round(self.seconds, 2)}


def _writes(committed: list[dict], contents: dict[str, str]) -> list[tuple[str, str]]:
    """``(mark, text)`` per committed change: ``+`` remembered, ``~`` superseded (old → new), ``-`` forgotten.
    ``contents``: ``{fact id: content}`` of the user's facts, for the old side of a supersede."""
    out = []
    for c in committed:
        if c.get("action") == "reject" or not c.get("written"):
            continue
        if c.get("operation") == "RETRACT":
            out.append(("-", str(c.get("content") or "")))
        elif c.get("operation") == "UPDATE" and c.get("target_id") in contents:
            out.append(("~", f"{contents[c['target_id']]} → {c.get('content')}"))
        else:
            out.append(("+", str(c.get("content") or "")))
    return out


def run_story(agent_factory: AgentFactory, console: Console) -> StoryResult:
    """Play :data:`STORY` on a fresh store in a temporary folder and print it (see the module docstring)."""
    started = time.perf_counter()
    result = StoryResult()
    marks = {"+": ("green", "remembered"), "~": ("yellow", "superseded"), "-": ("magenta", "forgotten")}
    with tempfile.TemporaryDirectory(prefix="memory-agent-demo-") as tmp:
        agent = agent_factory(Path(tmp) / "store")
        try:
            for number, (at, lines) in enumerate(STORY["sessions"], start=1):
                now = datetime.fromisoformat(at)
                console.print(f"\n[bold]Conversation {number}[/] · {now:%d %B %Y}")
                session = {"at": at, "turns": []}
                for i, line in enumerate(lines):
                    turn = agent.turn(STORY_USER, line, thread_id=f"conversation-{number}",
                                      now=now + timedelta(minutes=i), approval="never")
                    contents = {f.id: f.content for f in agent.memory.ledger.facts(STORY_USER)}
                    changes = _writes(turn.committed, contents)
                    writes = [{"change": marks[m][1], "text": t} for m, t in changes]
                    session["turns"].append({"said": line, "writes": writes})
                    console.print(f"  [bold green]you>[/] {escape(line)}")
                    for m, text in changes:
                        style, label = marks[m]
                        console.print(f"       [{style}]{m} {label}:[/] {escape(text)}")
                    if not writes:
                        console.print("       [dim](nothing to remember)[/]")
                result.sessions.append(session)
            ledger = agent.memory.ledger
            result.live = [f.content for f in agent.memory.live(STORY_USER)]
            result.history = [{"content": f.content, "status": f.status} for f in ledger.facts(STORY_USER)
                              if f.status != "confirmed"]
            ask_at = datetime.fromisoformat(STORY["questions_at"])
            for k, question in enumerate(STORY["questions"], start=1):
                row: dict[str, Any] = {"question": question}
                for mode, memory in (("on", True), ("off", False)):
                    thread = f"question-{k}-{mode}"
                    turn = agent.turn(STORY_USER, question, thread_id=thread, now=ask_at, approval="always",
                                      memory=memory)
                    if turn.pending:  # asking never changes the store
                        agent.resume(STORY_USER, thread, "reject", now=ask_at)
                    row[f"answer_{mode}"] = turn.answer
                    row[f"recalled_{mode}"] = [m.get("content", "") for m in turn.memories]
                result.questions.append(row)
        finally:
            agent.close()
    result.seconds = time.perf_counter() - started

    console.print("\n[bold]What it keeps now[/] (put into prompts when relevant)")
    for content in result.live:
        console.print(f"  • {escape(content)}")
    if result.history:
        console.print("[bold]Kept only as history[/] (never put into a prompt; memory-agent memories history shows it)")
        for h in result.history:
            console.print(f"  [dim]• {escape(h['content'])} ({h['status']})[/]")
    console.print("\n[bold]A day later, in new conversations: the same questions with memory on and off[/]")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("you asked", style="bold")
    table.add_column("memory on: recalled → answer")
    table.add_column("memory off: answer")
    for row in result.questions:
        recalled = "; ".join(row["recalled_on"]) or "(nothing relevant)"
        table.add_row(escape(row["question"]), f"[green]{escape(recalled)}[/]\n→ {escape(row['answer_on'])}",
                      escape(row["answer_off"]))
    console.print(table)
    return result
