"""``memory-agent demo``: a two-conversation story with memory on and off; ``--details``: the scripted
scenarios (and LoCoMo) with memory on and off (``memory_agent.evals.demo``)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from memory_agent.cli.common import UsageError, get_console, handle_errors, settings_from


def demo(
    ctx: typer.Context,
    details: Annotated[bool, typer.Option(
        "--details", help="Instead of the story: every example scenario with memory on and off (scores per tag, "
        "then what each wrote) and a LoCoMo replay. Minutes.")] = False,
    scenarios: Annotated[Path | None, typer.Option(
        "--scenarios", help="With --details: a scenarios .jsonl file (default: the built-in ones).")] = None,
    locomo: Annotated[Path | None, typer.Option(
        "--locomo", help="With --details: a LoCoMo JSON file or folder.")] = None,
    no_locomo: Annotated[bool, typer.Option("--no-locomo", help="With --details: skip the LoCoMo part.")] = False,
) -> None:
    """A short story: one user, two conversations a month apart — what was remembered, superseded and
    forgotten, and the same questions with memory on and off. Offline, on a temporary folder."""
    console = get_console()
    with handle_errors(console):
        settings = settings_from(ctx)
        try:
            # Start-up laziness: the demo imports the agent (LangGraph, Chroma, the embedder).
            from memory_agent.evals.demo import run_demo
        except ImportError as exc:
            console.print(f"[bold red]The demo is not available:[/] {escape(str(exc))}. "
                          "Reinstall the project (pip install -e .).")
            raise typer.Exit(2) from None
        if not details and (scenarios is not None or locomo is not None or no_locomo):
            raise UsageError("--scenarios, --locomo and --no-locomo choose what --details runs: add --details.")
        kwargs: dict[str, Any] = {"scenarios": scenarios, "locomo": locomo, "skip_locomo": no_locomo,
                                  "console": console, "settings": settings, "details": details}
        params = inspect.signature(run_demo).parameters
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
            kwargs = {k: v for k, v in kwargs.items() if k in params}
        code = run_demo(**kwargs)
    raise typer.Exit(int(code or 0))
