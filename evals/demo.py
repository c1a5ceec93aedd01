"""``memory-agent demo``: a short story a newcomer can follow, then (``--details``) the full evaluation.

The default: the story of :mod:`memory_agent.evals.demo_story` (two conversations, then the same
questions with memory on and off), one line of the example scenarios' score, and where to go next.

With ``details``:

1. Replays a scenario file (default: this package's ``scenarios/examples.jsonl``) with memory on
   and with memory off, each scenario on a fresh embedded store in a temporary folder, and prints
   per scenario and session what was remembered, superseded and retracted, then the probes passed
   side by side (overall and per tag).
2. Unless skipped: replays the first five sessions of LoCoMo conversation ``conv-26`` — only
   ``speaker_a``'s turns are sent, as the user; each session is one thread at the session's clock;
   every proposal is approved — prints the facts kept, then asks ten single-hop questions (category
   4 as coded in the file) whose evidence lies in sessions 1–5, with memory on and off, and prints
   token F1 against the gold answers.

>>> run_demo(None, None, skip_locomo=False, console=Console(), details=True)   # doctest: +SKIP
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from memory_agent.app.agent import MemoryAgent
from memory_agent.app.settings import Settings
from memory_agent.evals.demo_story import STORY, StoryResult, run_story
from memory_agent.evals.locomo import (
    LOCOMO_SOURCE,
    LocomoConversation,
    load_locomo,
    questions_within_sessions,
    token_f1,
)
from memory_agent.evals.scenario_format import ScenarioFormatError, load_scenarios
from memory_agent.evals.scenario_report import render_comparison, render_scenario_details, report_to_dict
from memory_agent.evals.scenario_runner import AgentFactory, make_agent_factory, run_scenarios

__all__ = ["DEFAULT_LOCOMO_PATH", "STORY", "LocomoDemoResult", "StoryResult", "default_scenarios_path",
           "resolve_locomo_path", "run_demo", "run_locomo_demo", "run_story"]

DEFAULT_LOCOMO_PATH = Path("../shared/datasets/locomo/locomo_dev.json")
LOCOMO_SAMPLE_ID = "conv-26"
LOCOMO_SESSIONS = 5
LOCOMO_QUESTIONS = 10
LOCOMO_CATEGORY = 4  # single-hop, as coded in the file (see NOTICE.md of the data folder)


def default_scenarios_path() -> Path:
    """The project's own scenario file, shipped inside the ``evals`` package (``scenarios/examples.jsonl``)."""
    return Path(str(resources.files("memory_agent.evals").joinpath("scenarios", "examples.jsonl")))


def resolve_locomo_path(path: Path | None) -> Path:
    """The LoCoMo file to use: ``path`` itself, or inside a folder ``locomo_dev.json`` (else
    ``locomo10.json``); ``None`` means :data:`DEFAULT_LOCOMO_PATH` (relative to the working folder)."""
    path = Path(path) if path is not None else DEFAULT_LOCOMO_PATH
    if path.is_dir():
        for name in ("locomo_dev.json", "locomo10.json"):
            if (path / name).is_file():
                return path / name
        return path / "locomo_dev.json"
    return path


def _demo_settings(settings: Settings | None) -> Settings:
    """The settings of the demo's agents: built-in defaults (offline model, MiniLM) unless given."""
    return settings if settings is not None else Settings.model_construct()


# ==============================================================================================
# LoCoMo
# ==============================================================================================


@dataclass
class LocomoDemoResult:
    """What the LoCoMo part did: facts kept and, per question, the answers and token F1 (0–1)."""

    sample_id: str
    user_speaker: str
    turns_sent: int
    facts: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    def mean_f1(self, mode: str) -> float:
        """Mean token F1 over the questions for ``mode`` (``"on"`` or ``"off"``); NaN with no questions."""
        values = [r[f"f1_{mode}"] for r in self.rows]
        return statistics.fmean(values) if values else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (no conversation text beyond the questions, answers and kept facts)."""
        return {"sample_id": self.sample_id, "user_speaker": self.user_speaker, "turns_sent": self.turns_sent,
                "facts_kept": len(self.facts), "facts": self.facts, "questions": self.rows,
                "mean_f1_on": self.mean_f1("on"), "mean_f1_off": self.mean_f1("off"),
                "seconds": round(self.seconds, 2)}


def _ask(agent: MemoryAgent, user: str, question: str, thread: str, now, memory: bool) -> str:
    """Ask in a fresh thread; any proposal is rejected, so asking never changes the store."""
    result = agent.turn(user, question, thread_id=thread, now=now, approval="always", memory=memory)
    if result.pending:
        agent.resume(user, thread, "reject", now=now)
    return result.answer


def _evidence_speaker(conv: LocomoConversation, evidence: list[str]) -> str:
    speakers = {t.speaker for d in evidence if (t := conv.turn(d)) is not None}
    if speakers == {conv.speaker_a}:
        return "user"
    if speakers == {conv.speaker_b}:
        return "other"
    return "both" if speakers else "?"


def run_locomo_demo(
    path: Path,
    agent_factory: AgentFactory,
    console: Console,
    *,
    sample_id: str = LOCOMO_SAMPLE_ID,
    sessions: int = LOCOMO_SESSIONS,
    questions: int = LOCOMO_QUESTIONS,
    category: int = LOCOMO_CATEGORY,
) -> LocomoDemoResult | None:
    """Replay ``sessions`` sessions of one LoCoMo conversation and score ``questions`` questions.

    Only ``speaker_a``'s turns are sent (as the user ``locomo:<sample>:<speaker_a>``); each session is
    a thread at the session clock (+1 s per turn); approval ``never`` (auto-approve). Questions are
    asked a day after the last replayed session, each in a fresh thread, memory on and off.

    Returns:
        The result, or ``None`` when the file is absent (a hint on where to get it is printed)
        or the conversation is not in it.

    Raises:
        ValueError: the file is not in the LoCoMo format.
    """
    if not path.is_file():
        console.print(f"[yellow]LoCoMo: no file at {path}.[/yellow] To run this part, get {LOCOMO_SOURCE}, "
                      "keep it outside the repository and pass its path (default: "
                      f"{DEFAULT_LOCOMO_PATH}, relative to the working folder). Skipping LoCoMo.")
        return None
    conv = next((c for c in load_locomo(path) if c.sample_id == sample_id), None)
    if conv is None:
        console.print(f"[yellow]LoCoMo: conversation {sample_id!r} is not in {path}; skipping LoCoMo.[/yellow]")
        return None
    started = time.perf_counter()
    user = f"locomo:{conv.sample_id}:{conv.speaker_a}"
    replayed = [s for s in conv.sessions if s.number <= sessions and s.at is not None]
    qs = questions_within_sessions(conv, range(1, sessions + 1), category=category, limit=questions)
    console.print(f"\n[bold]LoCoMo {conv.sample_id}: sessions 1–{sessions}, {conv.speaker_a} as the user[/bold]")
    console.print(f"[dim]Data: {path} (CC BY-NC 4.0, read at run time, not copied). Only {conv.speaker_a}'s "
                  f"turns are sent; {conv.speaker_b}'s are not. Every proposal is approved.[/dim]")
    sent = 0
    with tempfile.TemporaryDirectory(prefix="memory-agent-locomo-") as tmp:
        agent = agent_factory(Path(tmp) / "store")
        try:
            with console.status("LoCoMo: replaying sessions…"):
                for s in replayed:
                    turns = [t for t in s.turns if t.speaker == conv.speaker_a and t.text.strip()]
                    for i, t in enumerate(turns):
                        agent.turn(user, t.text[: agent.settings.max_message_chars], thread_id=f"session{s.number}",
                                   now=s.at + timedelta(seconds=i), approval="never", memory=True)
                        sent += 1
            facts = [f.content for f in agent.memory.live(user)]
            result = LocomoDemoResult(conv.sample_id, conv.speaker_a, sent, facts)
            ask_at = (replayed[-1].at if replayed else None) or conv.sessions[0].at
            ask_at = ask_at + timedelta(days=1) if ask_at else None
            with console.status("LoCoMo: asking questions…"):
                for k, q in enumerate(qs, start=1):
                    on = _ask(agent, user, q.question, f"question{k}:on", ask_at, True)
                    off = _ask(agent, user, q.question, f"question{k}:off", ask_at, False)
                    result.rows.append({"question": q.question, "gold": q.answer, "evidence": q.evidence,
                                        "evidence_from": _evidence_speaker(conv, q.evidence),
                                        "answer_on": on, "answer_off": off,
                                        "f1_on": token_f1(on, q.answer), "f1_off": token_f1(off, q.answer)})
        finally:
            agent.close()
    result.seconds = time.perf_counter() - started

    console.print(f"Sent {sent} user turns from {len(replayed)} sessions; facts kept: [bold]{len(facts)}[/bold]")
    for f in facts[:10]:
        console.print(f"  • {f}", highlight=False)
    if len(facts) > 10:
        console.print(f"  … and {len(facts) - 10} more")
    table = Table(title=f"LoCoMo {conv.sample_id}: {len(qs)} single-hop questions (evidence in sessions 1–{sessions})",
                  caption="token F1: SQuAD normalisation (lowercase, no punctuation, no articles); "
                          "evidence from: whose turn holds the evidence (only the user's turns were sent)")
    table.add_column("#", justify="right")
    table.add_column("question")
    table.add_column("gold")
    table.add_column("evidence from")
    table.add_column("answer with memory (start)")
    table.add_column("F1 on", justify="right")
    table.add_column("F1 off", justify="right")
    for k, r in enumerate(result.rows, start=1):
        table.add_row(str(k), r["question"], r["gold"], r["evidence_from"], r["answer_on"][:90],
                      f"{r['f1_on']:.2f}", f"{r['f1_off']:.2f}")
    table.add_section()
    table.add_row("", "mean", "", "", "", f"{result.mean_f1('on'):.3f}", f"{result.mean_f1('off'):.3f}")
    console.print(table)
    console.print(f"Mean token F1: memory on [bold]{result.mean_f1('on'):.3f}[/bold], memory off "
                  f"[bold]{result.mean_f1('off'):.3f}[/bold] over {len(result.rows)} questions "
                  f"({result.seconds:.1f} s).")
    console.print("[dim]With the offline model these F1 figures say little: it is not a language model, its "
                  "answers only restate stored facts in the second person, so overlap with short gold answers "
                  "stays near zero either way. With --model provider:model the same run compares a real model.[/]")
    return result


# ==============================================================================================
# The demo
# ==============================================================================================


NEXT_STEPS = [
    ("memory-agent chat --user you@example.com", "talk to it yourself; you approve, edit or reject each memory"),
    ("memory-agent --model openai:gpt-4o-mini chat --user you@example.com", "the same with a real model"),
    ("memory-agent demo --details", "every example scenario with memory on and off, per tag, and a LoCoMo replay"),
    ("docs/lifecycle.md, docs/trust-boundary.md, docs/evals.md", "how memories live, what is trusted, the figures"),
]


def run_demo(
    scenarios: Path | None,
    locomo: Path | None,
    skip_locomo: bool,
    console: Console,
    settings: Settings | None = None,
    *,
    details: bool = False,
    out: Path | None = None,
) -> int:
    """Play the story (:func:`run_story`) and say where to go next; with ``details``, the scenario
    comparison and (unless ``skip_locomo``) the LoCoMo replay instead.

    Args:
        scenarios: a scenario file (SCENARIOS.md format); ``None`` = :func:`default_scenarios_path`.
            Used with ``details`` only.
        locomo: the LoCoMo file, or a folder holding ``locomo_dev.json`` / ``locomo10.json``; ``None`` =
            ``../shared/datasets/locomo/locomo_dev.json`` relative to the working folder. When absent,
            the demo says where to get it and goes on. Used with ``details`` only.
        skip_locomo: skip the LoCoMo part.
        console: where to print.
        settings: model, embedder and ``top_k`` (``None``: built-in defaults, i.e. the offline
            rule-based model and all-MiniLM-L6-v2). Stores are always embedded, in temporary folders.
        details: the full evaluation instead of the story.
        out: optional JSON file for the results (the story; with ``details``, the scenario reports on/off
            and the LoCoMo numbers).

    Returns:
        0 on success; 2 when the scenario file is missing or malformed (the error is printed).
    """
    settings = _demo_settings(settings)
    if details:
        return _run_details(scenarios, locomo, skip_locomo, console, settings, out=out)
    offline = settings.model.strip() in ("", "offline")
    console.print("[bold]memory-agent demo[/]: one user, two conversations a month apart, on a fresh store in a "
                  "temporary folder. Every memory the agent proposes is approved here; in a chat you decide.")
    console.print(f"[dim]Model: {escape(settings.model)}"
                  + (" (a rule-based stand-in, not a language model: its answers only restate what it "
                     "recalled)" if offline else "") + f"; embedder: {escape(settings.embedder)}.[/]")
    with console.status("Loading the embedder…"):
        factory = make_agent_factory(settings)
    story = run_story(factory, console)
    scores = _example_scores(factory, console)
    console.print("\n[bold]Next[/]")
    for command, what in NEXT_STEPS:
        console.print(f"  [cyan]{escape(command)}[/]  [dim]{escape(what)}[/]")
    console.print(f"[dim]The story took {story.seconds:.1f} s.[/]")
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps({"story": story.to_dict(), "example_scores": scores}, indent=2,
                                        ensure_ascii=False, default=str), encoding="utf-8")
        console.print(f"Results written to {out}")
    return 0


def _example_scores(factory: AgentFactory, console: Console) -> dict[str, Any]:
    """Replay the example scenarios (:func:`default_scenarios_path`) with memory on and off and print one line
    of probes passed; returns ``{"scenarios", "on": [passed, total], "off": [passed, total]}``."""
    loaded = load_scenarios(default_scenarios_path())
    passed = {}
    for mode, memory in (("on", True), ("off", False)):
        with console.status(f"Replaying the {len(loaded)} example scenarios with memory {mode}…"):
            passed[mode] = list(run_scenarios(loaded, agent_factory=factory, memory=memory).probes_passed())
    (on, on_total), (off, off_total) = passed["on"], passed["off"]
    console.print(f"\n[bold]Across the {len(loaded)} example scenarios[/] (evals/scenarios/examples.jsonl: supersede, "
                  f"forget, poisoning, isolation…): probes passed with memory on [bold green]{on} of {on_total}[/], "
                  f"with memory off [bold]{off} of {off_total}[/] [dim](checks of the store count with memory on "
                  "only; per tag: memory-agent demo --details)[/]")
    return {"scenarios": len(loaded), **passed}


def _run_details(scenarios: Path | None, locomo: Path | None, skip_locomo: bool, console: Console,
                 settings: Settings, *, out: Path | None = None) -> int:
    """The scenario comparison and the LoCoMo replay (``memory-agent demo --details``); see :func:`run_demo`."""
    path = Path(scenarios) if scenarios is not None else default_scenarios_path()
    try:
        loaded = load_scenarios(path)
    except FileNotFoundError:
        console.print(f"[red]No scenario file at {path}.[/red]")
        return 2
    except ScenarioFormatError as exc:
        console.print(f"[red]Malformed scenario file:[/red] {exc}")
        return 2
    console.print(f"\n[bold]Scenarios: {path.name} ({len(loaded)} scenarios), memory on vs off[/bold]")
    console.print(f"[dim]Model: {settings.model} (the offline model is rule-based, not a language model); "
                  f"embedder: {settings.embedder}; each scenario on a fresh embedded store.[/dim]")
    started = time.perf_counter()
    with console.status("Loading the embedder and the model…"):
        factory = make_agent_factory(settings)
    reports = {}
    for memory in (True, False):
        label = f"Replaying scenarios with memory {'on' if memory else 'off'}"
        with console.status(f"{label}…") as status:
            done = []

            def tick(result, status=status, label=label, done=done) -> None:
                done.append(result.id)
                status.update(f"{label}… {len(done)}/{len(loaded)}")

            reports[memory] = run_scenarios(loaded, agent_factory=factory, memory=memory, on_result=tick)
    on, off = reports[True], reports[False]
    on.source = off.source = str(path)
    render_comparison(on, off, console)
    console.print("\n[bold]What each scenario's sessions wrote (memory on)[/bold]: "
                  "[green]+ remembered[/green], [yellow]~ superseded (old → new)[/yellow], "
                  "[magenta]- retracted[/magenta]")
    render_scenario_details(on, console)
    console.print(f"[dim]Scenarios took {time.perf_counter() - started:.1f} s.[/dim]")

    locomo_result = None
    if not skip_locomo:
        locomo_path = resolve_locomo_path(locomo)
        try:
            locomo_result = run_locomo_demo(locomo_path, factory, console)
        except ValueError as exc:
            console.print(f"[red]LoCoMo file not usable:[/red] {exc}")
    if out is not None:
        payload = {"memory_on": report_to_dict(on), "memory_off": report_to_dict(off),
                   "locomo": locomo_result.to_dict() if locomo_result else None}
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(payload, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
        console.print(f"Results written to {out}")
    return 0
