"""Eval runs that print their results and write them to a folder: the scenario comparison (memory on vs off),
the LoCoMo retrieval benchmark and LoCoMo QA.

Each ``run_*_eval`` shows a progress bar on the given rich console while it runs, prints a table, and
writes ``results.json`` and a PNG plot into ``out``. The ``memory-agent eval`` commands, the smoke eval
and the notebooks call them. Plots need matplotlib (the ``evals`` extra).
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from memory_agent.app.settings import Settings
from memory_agent.evals.locomo import CATEGORY_NAMES, LocomoConversation
from memory_agent.evals.locomo_qa import judge_prompt, run_locomo_qa
from memory_agent.evals.locomo_retrieval import (
    CATEGORIES,
    METRICS,
    default_memory_factory,
    run_retrieval_benchmark,
)
from memory_agent.evals.plots import plot_locomo_qa, plot_recall_curves, plot_scenarios
from memory_agent.evals.redteam import RedTeamReport, load_redteam, run_redteam
from memory_agent.evals.scenario_format import load_scenarios
from memory_agent.evals.scenario_report import render_comparison, report_to_dict
from memory_agent.evals.scenario_runner import make_agent_factory, run_scenarios
from memory_agent.models import embeddings
from memory_agent.models.chat import load_chat_model


def output_dir(out: Path | None, name: str) -> Path:
    """``out``, or ``eval_results/<name>`` when ``None``; created with its parents."""
    path = Path(out) if out is not None else Path("eval_results") / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_json(path: Path, payload: Any) -> None:
    """Write ``payload`` as indented UTF-8 JSON; NaN floats become ``null``."""
    def clean(v):
        if isinstance(v, float) and math.isnan(v):
            return None
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        if isinstance(v, list):
            return [clean(x) for x in v]
        return v

    path.write_text(json.dumps(clean(payload), indent=2, ensure_ascii=False, default=str), encoding="utf-8")


def _progress(console: Console) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True)


def _stage_ticker(progress: Progress):
    """An ``on_progress(stage, done, total)`` callback that keeps one progress task per stage."""
    tasks: dict[str, Any] = {}

    def tick(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = progress.add_task(stage, total=total)
        progress.update(tasks[stage], completed=done)

    return tick


# ---------------------------------------------------------------------------------------------
# scenarios
# ---------------------------------------------------------------------------------------------


def run_scenarios_eval(file: Path, settings: Settings, out: Path | None, console: Console) -> dict[str, Any]:
    """Replay ``file`` with memory on and off, print the comparison, write ``results.json`` and
    ``scenarios.png`` into ``out``; returns the results dict (``memory_on``, ``memory_off``, ``model``).

    Raises:
        FileNotFoundError, memory_agent.evals.scenario_format.ScenarioFormatError: the file cannot be loaded.
    """
    scenarios = load_scenarios(file)
    out = output_dir(out, "scenarios")
    factory = make_agent_factory(settings)
    reports = {}
    with _progress(console) as progress:
        for memory in (True, False):
            task = progress.add_task(f"memory {'on' if memory else 'off'}", total=len(scenarios))
            reports[memory] = run_scenarios(scenarios, agent_factory=factory, memory=memory,
                                            on_result=lambda _r, task=task: progress.advance(task))
    on, off = reports[True], reports[False]
    on.source = off.source = str(file)
    render_comparison(on, off, console)
    results = {"model": settings.model, "embedder": settings.embedder, "memory_on": report_to_dict(on),
               "memory_off": report_to_dict(off)}
    write_json(out / "results.json", results)
    plot_scenarios(results["memory_on"], results["memory_off"], out / "scenarios.png",
                   title=f"{Path(file).name}: probes passed per tag")
    console.print(f"Wrote {out / 'results.json'} and {out / 'scenarios.png'}")
    return results


def redteam_table(report: RedTeamReport, by: str, kind: str) -> Table:
    """Outcomes of ``kind`` items per ``by`` group (category, language, trick), with a total row."""
    outcomes = ["reached", "stored", "blocked"] if kind == "attack" else ["kept", "refused", "not extracted"]
    table = Table(title=f"{kind} items by {by}")
    table.add_column(by)
    for o in [*outcomes, "error"]:
        table.add_column(o, justify="right")
    for group, counts in [*report.counts(by, kind).items(), *report.counts(None, kind).items()]:
        table.add_row(group, *(str(counts.get(o, 0)) for o in [*outcomes, "error"]))
    return table


def run_redteam_eval(file: Path, settings: Settings, out: Path | None, console: Console) -> int:
    """Run a red-team file (:mod:`memory_agent.evals.redteam`), print its tables, write ``results.json``
    into ``out``; returns the exit code: 1 when an attack reached a later prompt or an item raised, else 0.

    Raises:
        FileNotFoundError, ValueError: the file cannot be loaded.
    """
    total = len(load_redteam(file))
    out = output_dir(out, "redteam")
    with _progress(console) as progress:
        task = progress.add_task("red-team items", total=total)
        report = run_redteam(file, agent_factory=make_agent_factory(settings),
                             on_result=lambda _r: progress.advance(task))
    report.model = settings.model
    for by, kind in (("category", "attack"), ("language", "attack"), ("trick", "attack"), ("language", "benign")):
        console.print(redteam_table(report, by, kind))
    for r in report.items:
        if r.outcome in ("reached", "error"):
            console.print(f"[red]{r.outcome}[/red] {r.id}: {r.error or r.reached}", highlight=False)
    write_json(out / "results.json", report.as_dict())
    console.print(f"Wrote {out / 'results.json'}")
    attacks, benign = report.counts(None, "attack").get("all", {}), report.counts(None, "benign").get("all", {})
    return 1 if attacks.get("reached") or attacks.get("error") or benign.get("error") else 0


# ---------------------------------------------------------------------------------------------
# locomo (retrieval)
# ---------------------------------------------------------------------------------------------


def retrieval_table(results: dict[str, Any]) -> Table:
    """A rich table: per retriever, overall metrics, recall@10 per category and p95 latency."""
    cats = results["categories"]
    table = Table(title=f"LoCoMo evidence recall ({results['questions']} questions, categories 1–4; "
                        f"{results['turns']} turns in {len(results['conversations'])} conversations)")
    table.add_column("retriever", style="bold")
    for m in METRICS:
        table.add_column(m, justify="right")
    for c in CATEGORIES:
        table.add_column(f"R@10 {cats[str(c)]['name']} ({cats[str(c)]['questions']})", justify="right")
    table.add_column("ms median / p95", justify="right")
    table.add_column("ms p95 w/o embedding", justify="right")
    for name, s in results["summary"].items():
        lat = s["latency_ms"]
        table.add_row(name, *[f"{s['overall'][m]:.3f}" for m in METRICS],
                      *[f"{s['per_category'][str(c)]['recall@10']:.3f}" for c in CATEGORIES],
                      f"{lat['median']:.1f} / {lat['p95']:.1f}", f"{lat['p95_excl_embedding']:.1f}")
    return table


def run_locomo_eval(convs: list[LocomoConversation], settings: Settings, out: Path | None, console: Console, *,
                    source: str = "", max_questions: int | None = None) -> dict[str, Any]:
    """Run :func:`memory_agent.evals.locomo_retrieval.run_retrieval_benchmark`, print the table, write
    ``results.json`` and ``recall_at_k.png`` into ``out``; returns the results dict."""
    out = output_dir(out, "locomo")
    embedder = embeddings.load_embedder(settings.embedder, openai_base_url=settings.openai_base_url)
    with _progress(console) as progress:
        report = run_retrieval_benchmark(convs, default_memory_factory(embedder), source=source,
                                         max_questions=max_questions, on_progress=_stage_ticker(progress))
    results = report.to_dict()
    results["embedder"] = embedder.name
    console.print(retrieval_table(results))
    console.print("[dim]recall@k: share of a question's evidence turns in the top k; all@10: every evidence turn "
                  "in the top 10; session_any@k: a session holding evidence among the first k sessions ranked. "
                  f"Skipped (no valid evidence id): {results['skipped_no_valid_evidence']}. Latency includes "
                  "embedding the query (not for BM25).[/dim]")
    write_json(out / "results.json", results)
    plot_recall_curves(results, out / "recall_at_k.png")
    console.print(f"Wrote {out / 'results.json'} and {out / 'recall_at_k.png'}")
    return results


# ---------------------------------------------------------------------------------------------
# locomo-qa
# ---------------------------------------------------------------------------------------------


def qa_table(results: dict[str, Any], model: str, judged: bool) -> Table:
    """A rich table of LoCoMo QA results: per category and overall, token F1, gold-token recall and
    evidence injected with memory on and off (and the judge's accuracy when ``judged``)."""
    table = Table(title=f"LoCoMo QA, model {model} ({results['questions']} questions)")
    table.add_column("category", style="bold")
    table.add_column("questions", justify="right")
    keys = ["f1_on", "f1_off", "recall_on", "recall_off", "evidence_injected"] + (
        ["judge_on", "judge_off"] if judged else [])
    for k in keys:
        table.add_column(k.replace("_", " ").replace("recall", "gold-token recall"), justify="right")
    for c, s in results["summary"]["per_category"].items():
        table.add_row(CATEGORY_NAMES[int(c)], str(s["questions"]), *[f"{s[k]:.3f}" for k in keys])
    table.add_section()
    table.add_row("all", str(results["questions"]), *[f"{results['summary']['overall'][k]:.3f}" for k in keys])
    return table


def run_locomo_qa_eval(convs: list[LocomoConversation], settings: Settings, out: Path | None, console: Console, *,
                       source: str = "", max_questions: int | None = None) -> dict[str, Any]:
    """Run :func:`memory_agent.evals.locomo_qa.run_locomo_qa`, print the table, write ``results.json``,
    ``locomo_qa.png`` and (with a judge) ``judge_prompt.md`` into ``out``; returns the results dict.

    The judge is the configured chat model; the offline model is no judge."""
    out = output_dir(out, "locomo-qa")
    factory = make_agent_factory(settings)
    offline = settings.model.strip() in ("", "offline")
    judge = None if offline else load_chat_model(settings.model, base_url=settings.openai_base_url)
    with _progress(console) as progress, tempfile.TemporaryDirectory(prefix="memory-agent-locomo-qa-") as tmp:
        report = run_locomo_qa(convs, factory, Path(tmp), model_name=settings.model, judge=judge, source=source,
                               max_questions=max_questions, on_progress=_stage_ticker(progress))
    results = report.to_dict()
    console.print(qa_table(results, settings.model, report.judged))
    if offline:
        console.print("[dim]The offline model is a rule-based stand-in, not a language model: its answers restate "
                      "the injected memories, so F1 against short gold answers stays low (long answers, low "
                      "precision). Gold-token recall: share of the gold answer's tokens in the answer. Evidence "
                      "injected: an evidence turn among the memories injected (memory on). No LLM judge without "
                      "a real model.[/dim]")
    else:
        (out / "judge_prompt.md").write_text(judge_prompt(), encoding="utf-8")
    write_json(out / "results.json", results)
    plot_locomo_qa(results, out / "locomo_qa.png")
    console.print(f"Wrote {out / 'results.json'} and {out / 'locomo_qa.png'}")
    return results
