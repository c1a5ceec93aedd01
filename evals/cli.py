"""``memory-agent eval …``: scenario evals (memory on vs off), the LoCoMo retrieval benchmark and LoCoMo QA.

Commands::

    memory-agent eval scenarios FILE [--model M] [--out DIR]
    memory-agent eval locomo FILE [--conversation ID ...] [--max-questions N] [--out DIR]
    memory-agent eval locomo-qa FILE [--model M] [--conversation ID ...] [--max-questions N] [--out DIR]

Each prints a rich table, shows a progress bar while it runs, and writes ``results.json`` and a
PNG plot into ``--out`` (default ``eval_results/<command>``). Heavy modules (the graph, Chroma,
the embedder, matplotlib) are imported inside the commands, so ``memory-agent --help`` stays fast.
Exit codes: 0 done, 2 a file that is missing or not in its format (the message says which).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

eval_app = typer.Typer(help="Evaluations: scenarios with memory on vs off, LoCoMo retrieval recall and QA.",
                       no_args_is_help=True, rich_markup_mode="rich")

ModelOpt = Annotated[str | None, typer.Option(
    "--model", help='Chat model for the agent (default: the global --model, else "offline", a rule-based '
    "stand-in that is not a language model).", show_default=False)]
ConvOpt = Annotated[list[str] | None, typer.Option(
    "--conversation", "-c", help="Only this LoCoMo sample id (repeatable), e.g. conv-26.", show_default=False)]
MaxQOpt = Annotated[int | None, typer.Option(
    "--max-questions", min=1, help="At most this many questions per conversation (a quick run).",
    show_default=False)]


def _out(out: Path | None, name: str) -> Path:
    path = Path(out) if out is not None else Path("eval_results") / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def _write_json(path: Path, payload: Any) -> None:
    def clean(v):
        if isinstance(v, float) and math.isnan(v):
            return None
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        if isinstance(v, list):
            return [clean(x) for x in v]
        return v

    path.write_text(json.dumps(clean(payload), indent=2, ensure_ascii=False, default=str), encoding="utf-8")


def _progress(console) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True)


def _settings_with_model(ctx: typer.Context, model: str | None):
    from memory_agent.app.settings import Settings
    from memory_agent.cli.main import _settings

    settings = _settings(ctx)
    return Settings(**{**settings.model_dump(), "model": model}) if model else settings


def _load_locomo(console, file: Path, conversation: list[str] | None):
    from memory_agent.evals.locomo import load_locomo

    if not Path(file).is_file():
        console.print(f"[bold red]No LoCoMo file at {escape(str(file))}.[/] Pass the path of locomo_dev.json or "
                      "locomo10.json (the data is CC BY-NC: keep it outside the repository, e.g. "
                      "../shared/datasets/locomo/locomo_dev.json).")
        raise typer.Exit(2)
    try:
        convs = load_locomo(file)
    except ValueError as exc:
        console.print(f"[bold red]Not a LoCoMo file:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    if conversation:
        unknown = sorted(set(conversation) - {c.sample_id for c in convs})
        if unknown:
            console.print(f"[bold red]No conversation {', '.join(unknown)} in {escape(str(file))}[/]; it has "
                          f"{', '.join(c.sample_id for c in convs)}.")
            raise typer.Exit(2)
        convs = [c for c in convs if c.sample_id in set(conversation)]
    return convs


# ---------------------------------------------------------------------------------------------
# scenarios
# ---------------------------------------------------------------------------------------------


def run_scenarios_eval(file: Path, settings, out: Path, console) -> dict[str, Any]:
    """Replay ``file`` with memory on and off, print the comparison, write ``results.json`` and
    ``scenarios.png`` into ``out``; returns the results dict (``memory_on``, ``memory_off``, ``model``).

    Raises:
        FileNotFoundError, memory_agent.evals.scenario_format.ScenarioFormatError: the file cannot be loaded.
    """
    from memory_agent.evals.plots import plot_scenarios
    from memory_agent.evals.scenario_format import load_scenarios
    from memory_agent.evals.scenario_report import render_comparison, report_to_dict
    from memory_agent.evals.scenario_runner import make_agent_factory, run_scenarios

    scenarios = load_scenarios(file)
    out = _out(out, "scenarios")
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
    _write_json(out / "results.json", results)
    plot_scenarios(results["memory_on"], results["memory_off"], out / "scenarios.png",
                   title=f"{Path(file).name}: probes passed per tag")
    console.print(f"Wrote {out / 'results.json'} and {out / 'scenarios.png'}")
    return results


@eval_app.command("scenarios")
def scenarios_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A scenario file in the format of SCENARIOS.md (JSON Lines).")],
    model: ModelOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Output folder [default: eval_results/scenarios]",
                                             show_default=False)] = None,
) -> None:
    """Replay every scenario with memory on and with memory off through the real graph; compare."""
    from memory_agent.evals.scenario_format import ScenarioFormatError

    from memory_agent.cli.main import _handle_errors, get_console

    console = get_console()
    with _handle_errors(console):
        settings = _settings_with_model(ctx, model)
        try:
            run_scenarios_eval(file, settings, _out(out, "scenarios"), console)
        except FileNotFoundError:
            console.print(f"[bold red]No scenario file at {escape(str(file))}.[/]")
            raise typer.Exit(2) from None
        except ScenarioFormatError as exc:
            console.print(f"[bold red]Malformed scenario file:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None


# ---------------------------------------------------------------------------------------------
# locomo (retrieval)
# ---------------------------------------------------------------------------------------------


def retrieval_table(results: dict[str, Any]) -> Table:
    """A rich table: per retriever, overall metrics, recall@10 per category and p95 latency."""
    from memory_agent.evals.locomo_retrieval import CATEGORIES, METRICS

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


@eval_app.command("locomo")
def locomo_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="LoCoMo JSON (e.g. ../shared/datasets/locomo/locomo_dev.json).")],
    conversation: ConvOpt = None,
    max_questions: MaxQOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Output folder [default: eval_results/locomo]",
                                             show_default=False)] = None,
) -> None:
    """Evidence recall@k of BM25 alone, the embedder alone and the project's retriever (no LLM)."""
    from memory_agent.cli.main import _handle_errors, get_console

    console = get_console()
    with _handle_errors(console):
        convs = _load_locomo(console, file, conversation)
        run_locomo_eval(convs, _settings_with_model(ctx, None), _out(out, "locomo"), console,
                        source=str(file), max_questions=max_questions)


def run_locomo_eval(convs, settings, out: Path, console, *, source: str = "",
                    max_questions: int | None = None) -> dict[str, Any]:
    """Run :func:`memory_agent.evals.locomo_retrieval.run_retrieval_benchmark`, print the table, write
    ``results.json`` and ``recall_at_k.png`` into ``out``; returns the results dict."""
    from memory_agent.evals.locomo_retrieval import default_memory_factory, run_retrieval_benchmark
    from memory_agent.evals.plots import plot_recall_curves

    from memory_agent.models.embeddings import load_embedder

    out = _out(out, "locomo")
    embedder = load_embedder(settings.embedder, openai_base_url=settings.openai_base_url)
    with _progress(console) as progress:
        tasks: dict[str, Any] = {}

        def tick(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(stage, total=total)
            progress.update(tasks[stage], completed=done)

        report = run_retrieval_benchmark(convs, default_memory_factory(embedder), source=source,
                                         max_questions=max_questions, on_progress=tick)
    results = report.to_dict()
    results["embedder"] = embedder.name
    console.print(retrieval_table(results))
    console.print("[dim]recall@k: share of a question's evidence turns in the top k; all@10: every evidence turn "
                  "in the top 10; session_any@k: a session holding evidence among the first k sessions ranked. "
                  f"Skipped (no valid evidence id): {results['skipped_no_valid_evidence']}. Latency includes "
                  "embedding the query (not for BM25).[/dim]")
    _write_json(out / "results.json", results)
    plot_recall_curves(results, out / "recall_at_k.png")
    console.print(f"Wrote {out / 'results.json'} and {out / 'recall_at_k.png'}")
    return results


# ---------------------------------------------------------------------------------------------
# locomo-qa
# ---------------------------------------------------------------------------------------------


@eval_app.command("locomo-qa")
def locomo_qa_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="LoCoMo JSON (e.g. ../shared/datasets/locomo/locomo_dev.json).")],
    model: ModelOpt = None,
    conversation: ConvOpt = None,
    max_questions: MaxQOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Output folder [default: eval_results/locomo-qa]",
                                             show_default=False)] = None,
) -> None:
    """Replay conversations into memory, answer categories 1–4 with memory on and off: token F1
    (and an LLM-judge accuracy when a real model is configured)."""
    from memory_agent.cli.main import _handle_errors, get_console

    console = get_console()
    with _handle_errors(console):
        convs = _load_locomo(console, file, conversation)
        run_locomo_qa_eval(convs, _settings_with_model(ctx, model), _out(out, "locomo-qa"), console,
                           source=str(file), max_questions=max_questions)


def run_locomo_qa_eval(convs, settings, out: Path, console, *, source: str = "",
                       max_questions: int | None = None) -> dict[str, Any]:
    """Run :func:`memory_agent.evals.locomo_qa.run_locomo_qa`, print the table, write ``results.json``,
    ``locomo_qa.png`` and (with a judge) ``judge_prompt.md`` into ``out``; returns the results dict."""
    import tempfile

    from memory_agent.evals.locomo import CATEGORY_NAMES
    from memory_agent.evals.locomo_qa import judge_prompt, run_locomo_qa
    from memory_agent.evals.plots import plot_locomo_qa
    from memory_agent.evals.scenario_runner import make_agent_factory

    out = _out(out, "locomo-qa")
    factory = make_agent_factory(settings)
    offline = settings.model.strip() in ("", "offline")
    judge = None
    if not offline:
        from memory_agent.models.chat import load_chat_model

        judge = load_chat_model(settings.model, base_url=settings.openai_base_url)
    with _progress(console) as progress, tempfile.TemporaryDirectory(prefix="memory-agent-locomo-qa-") as tmp:
        tasks: dict[str, Any] = {}

        def tick(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(stage, total=total)
            progress.update(tasks[stage], completed=done)

        report = run_locomo_qa(convs, factory, Path(tmp), model_name=settings.model, judge=judge, source=source,
                               max_questions=max_questions, on_progress=tick)
    results = report.to_dict()
    table = Table(title=f"LoCoMo QA, model {settings.model} ({results['questions']} questions)")
    table.add_column("category", style="bold")
    table.add_column("questions", justify="right")
    keys = ["f1_on", "f1_off", "recall_on", "recall_off", "evidence_injected"] + (
        ["judge_on", "judge_off"] if report.judged else [])
    for k in keys:
        table.add_column(k.replace("_", " ").replace("recall", "gold-token recall"), justify="right")
    for c, s in results["summary"]["per_category"].items():
        table.add_row(CATEGORY_NAMES[int(c)], str(s["questions"]), *[f"{s[k]:.3f}" for k in keys])
    table.add_section()
    table.add_row("all", str(results["questions"]), *[f"{results['summary']['overall'][k]:.3f}" for k in keys])
    console.print(table)
    if offline:
        console.print("[dim]The offline model is a rule-based stand-in, not a language model: its answers restate "
                      "the injected memories, so F1 against short gold answers stays low (long answers, low "
                      "precision). Gold-token recall: share of the gold answer's tokens in the answer. Evidence "
                      "injected: an evidence turn among the memories injected (memory on). No LLM judge without "
                      "a real model.[/dim]")
    else:
        (out / "judge_prompt.md").write_text(judge_prompt(), encoding="utf-8")
    _write_json(out / "results.json", results)
    plot_locomo_qa(results, out / "locomo_qa.png")
    console.print(f"Wrote {out / 'results.json'} and {out / 'locomo_qa.png'}")
    return results
