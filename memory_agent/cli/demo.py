"""``memory-agent demo``: the scripted scenarios (and LoCoMo) with memory on and off (``memory_agent.evals.demo``)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from memory_agent.cli.common import get_console, handle_errors, settings_from


def demo(
    ctx: typer.Context,
    scenarios: Annotated[Path | None, typer.Option(
        "--scenarios", help="A scenarios .jsonl file (default: the built-in ones).")] = None,
    locomo: Annotated[Path | None, typer.Option("--locomo", help="A LoCoMo JSON file or folder.")] = None,
    no_locomo: Annotated[bool, typer.Option("--no-locomo", help="Skip the LoCoMo part.")] = False,
) -> None:
    """Run the scripted demo scenarios (and LoCoMo unless --no-locomo) and print the scores."""
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
        kwargs: dict[str, Any] = {"scenarios": scenarios, "locomo": locomo, "skip_locomo": no_locomo,
                                  "console": console, "settings": settings}
        params = inspect.signature(run_demo).parameters
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
            kwargs = {k: v for k, v in kwargs.items() if k in params}
        code = run_demo(**kwargs)
    raise typer.Exit(int(code or 0))
