"""``memory-agent eval …``: scenario evals (memory on vs off), the LoCoMo retrieval benchmark and LoCoMo QA.

Commands::

    memory-agent eval scenarios FILE [--model M] [--out DIR]
    memory-agent eval redteam FILE [--model M] [--out DIR]
    memory-agent eval locomo FILE [--conversation ID ...] [--max-questions N] [--held-out IDS] [--out DIR]
    memory-agent eval locomo-qa FILE [--model M] [--conversation ID ...] [--max-questions N] [--out DIR]
    memory-agent eval record run|convert ...   (memory_agent.cli.record: recordings for --model replay:FILE)

Each prints a rich table, shows a progress bar while it runs, and writes ``results.json`` and a
PNG plot into ``--out`` (default ``eval_results/<command>``); the runs are ``memory_agent.evals.runs``.
They need the ``evals`` extra (matplotlib, tiktoken). Exit codes: 0 done, 2 the extra is missing or a
file is missing or not in its format (the message says which).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from memory_agent.app.settings import Settings
from memory_agent.cli.common import get_console, handle_errors, settings_from
from memory_agent.cli.record import record_app
from memory_agent.evals.locomo import LocomoConversation, load_locomo

EVALS_EXTRA = ("matplotlib", "tiktoken")
INSTALL_EVALS = "pip install 'memory-agent[evals]'"

eval_app = typer.Typer(help="Evaluations: scenarios with memory on vs off, LoCoMo retrieval recall and QA.",
                       no_args_is_help=True, rich_markup_mode="rich")

eval_app.add_typer(record_app, name="record")

ModelOpt = Annotated[str | None, typer.Option(
    "--model", help='Chat model for the agent (default: the global --model, else "offline", a rule-based '
    "stand-in that is not a language model).", show_default=False)]
ConvOpt = Annotated[list[str] | None, typer.Option(
    "--conversation", "-c", help="Only this LoCoMo sample id (repeatable), e.g. conv-26.", show_default=False)]
MaxQOpt = Annotated[int | None, typer.Option(
    "--max-questions", min=1, help="At most this many questions per conversation (a quick run).",
    show_default=False)]


def _require_evals_extra(console: Console) -> None:
    """Exit 2 with the install command when a library of the ``evals`` extra cannot be imported."""
    for name in EVALS_EXTRA:
        try:
            importlib.import_module(name)  # an optional library: imported here only to check it is installed
        except ImportError:
            console.print(f"[bold red]The eval commands need the evals extra[/] ({escape(name)} is not installed). "
                          f"Install it with: {escape(INSTALL_EVALS)}")
            raise typer.Exit(2) from None


def _settings_with_model(ctx: typer.Context, model: str | None) -> Settings:
    """The effective settings, with ``model`` instead of the configured chat model when given."""
    settings = settings_from(ctx)
    return Settings(**{**settings.model_dump(), "model": model}) if model else settings


def _load_locomo(console: Console, file: Path, conversation: list[str] | None) -> list[LocomoConversation]:
    """The LoCoMo conversations of ``file`` (only the ``conversation`` ids when given); exit 2 when the
    file is missing, not LoCoMo, or lacks a requested id."""
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


@eval_app.command("scenarios")
def scenarios_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A scenario file in the format of SCENARIOS.md (JSON Lines).")],
    model: ModelOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Output folder [default: eval_results/scenarios]",
                                             show_default=False)] = None,
) -> None:
    """Replay every scenario with memory on and with memory off through the real graph; compare."""
    console = get_console()
    _require_evals_extra(console)
    # Start-up laziness: the eval harness imports the agent (LangGraph, Chroma, the embedder).
    from memory_agent.evals.runs import output_dir, run_scenarios_eval
    from memory_agent.evals.scenario_format import ScenarioFormatError

    with handle_errors(console):
        settings = _settings_with_model(ctx, model)
        try:
            run_scenarios_eval(file, settings, output_dir(out, "scenarios"), console)
        except FileNotFoundError:
            console.print(f"[bold red]No scenario file at {escape(str(file))}.[/]")
            raise typer.Exit(2) from None
        except ScenarioFormatError as exc:
            console.print(f"[bold red]Malformed scenario file:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None


@eval_app.command("redteam")
def redteam_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A red-team file (JSON Lines; format in memory_agent.evals.redteam).")],
    model: ModelOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Output folder [default: eval_results/redteam]",
                                             show_default=False)] = None,
) -> None:
    """Say each attack in a session with approval 'never', then ask "what do you remember about me?" in a
    new one: count attacks that reached the later prompt and benign look-alikes that were refused."""
    console = get_console()
    _require_evals_extra(console)
    # Start-up laziness: the eval harness imports the agent (LangGraph, Chroma, the embedder).
    from memory_agent.evals.runs import output_dir, run_redteam_eval

    with handle_errors(console):
        try:
            code = run_redteam_eval(file, _settings_with_model(ctx, model), output_dir(out, "redteam"), console)
        except FileNotFoundError:
            console.print(f"[bold red]No red-team file at {escape(str(file))}.[/]")
            raise typer.Exit(2) from None
        except ValueError as exc:
            console.print(f"[bold red]Malformed red-team file:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
    raise typer.Exit(code)


@eval_app.command("locomo")
def locomo_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="LoCoMo JSON (e.g. ../shared/datasets/locomo/locomo_dev.json).")],
    conversation: ConvOpt = None,
    max_questions: MaxQOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Output folder [default: eval_results/locomo]",
                                             show_default=False)] = None,
    held_out: Annotated[str | None, typer.Option(
        "--held-out", help="Comma-separated sample ids reported apart (e.g. conv-43,conv-44, held out when the "
        "retriever's knobs were tuned): recall@10 and session recall@10 of them, of the rest and of all; "
        "also written to held_out.json.", show_default=False)] = None,
) -> None:
    """Evidence recall@k of BM25 alone, the embedder alone and the project's retriever (no LLM)."""
    console = get_console()
    _require_evals_extra(console)
    # Start-up laziness: the eval harness imports the agent (LangGraph, Chroma, the embedder).
    from memory_agent.evals.runs import output_dir, run_locomo_eval

    with handle_errors(console):
        convs = _load_locomo(console, file, conversation)
        held = [c.strip() for c in (held_out or "").split(",") if c.strip()]
        unknown = sorted(set(held) - {c.sample_id for c in convs})
        if unknown:
            console.print(f"[bold red]--held-out names no conversation of this run:[/] {escape(', '.join(unknown))}")
            raise typer.Exit(2)
        folder = output_dir(out, "locomo")
        results = run_locomo_eval(convs, _settings_with_model(ctx, None), folder, console,
                                  source=str(file), max_questions=max_questions)
        if held:
            _print_held_out(console, results, held, folder)


def _print_held_out(console: Console, results: dict, held: list[str], folder: Path) -> None:
    """Print recall@10 and session recall@10 of the held-out conversations, the rest and all; write
    ``held_out.json`` into ``folder``."""
    from rich.table import Table

    from memory_agent.evals.locomo_retrieval import split_summary
    from memory_agent.evals.runs import write_json

    split = split_summary(results["rows"], held)
    table = Table(title=f"LoCoMo recall@10 / session recall@10, held out: {', '.join(held)}")
    table.add_column("retriever", style="bold")
    for group in split:
        n = next(iter(split[group].values()), {}).get("questions", 0)
        table.add_column(f"{group.replace('_', '-')} ({n} q)", justify="right")
    for retriever in split["all"]:
        table.add_row(retriever, *[f"{split[g][retriever]['recall@10']:.3f} / "
                                   f"{split[g][retriever]['session_recall@10']:.3f}" for g in split])
    console.print(table)
    console.print("[dim]session recall@10: share of the sessions holding a question's evidence that hold one of "
                  "its 10 best-ranked turns.[/dim]")
    write_json(folder / "held_out.json", {"held_out": held, **split})
    console.print(f"Wrote {folder / 'held_out.json'}")


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
    console = get_console()
    _require_evals_extra(console)
    # Start-up laziness: the eval harness imports the agent (LangGraph, Chroma, the embedder).
    from memory_agent.evals.runs import output_dir, run_locomo_qa_eval

    with handle_errors(console):
        convs = _load_locomo(console, file, conversation)
        run_locomo_qa_eval(convs, _settings_with_model(ctx, model), output_dir(out, "locomo-qa"), console,
                           source=str(file), max_questions=max_questions)
