"""``memory-agent eval record …``: record model output for ``--model replay:FILE``.

Commands::

    memory-agent eval record run SCENARIOS --fixtures FILE --queue DIR [--base-url URL] [--answers offline|recorded]
    memory-agent eval record redteam FILE --fixtures FILE --queue DIR [--base-url URL]
    memory-agent eval record convert LOG --fixtures FILE

``run`` sends every call not yet recorded to ``../shared/tools/llm_bridge.py`` (started by you,
answered by a hand) and merges the bridge log into FILE; ``convert`` merges a bridge log alone
(:mod:`memory_agent.evals.record`). Exit codes: 0 done, 2 no bridge, a bad file, or the bridge
stopped answering (what was answered is kept: run again to resume).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from memory_agent.cli.common import get_console, handle_errors, settings_from

record_app = typer.Typer(help="Record model output through the llm_bridge for --model replay:FILE.",
                         no_args_is_help=True, rich_markup_mode="rich")

FixturesOpt = Annotated[Path, typer.Option("--fixtures", help="The recording file (JSON Lines) to create or extend, "
                                           "e.g. evals/recordings/examples.jsonl.")]
QueueOpt = Annotated[Path, typer.Option("--queue", help="The bridge's --queue folder (its log.jsonl is read).")]
BaseUrlOpt = Annotated[str, typer.Option("--base-url", help="The bridge's URL.")]


@record_app.command("run")
def run_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A scenario file in the format of SCENARIOS.md (JSON Lines).")],
    fixtures: FixturesOpt,
    queue: QueueOpt,
    base_url: BaseUrlOpt = "http://127.0.0.1:18080/v1",
    answers: Annotated[str, typer.Option(
        "--answers", help="offline: answers by the offline stand-in, only extraction calls recorded (replay with "
        "'replay:FILE?answers=offline'); recorded: every call goes to the bridge, memory off too.")] = "offline",
) -> None:
    """Run the scenarios' turns (memory on) through the real graph; every call not yet in --fixtures
    waits in the bridge's queue for a hand to answer (llm_bridge.py next / answer)."""
    console = get_console()
    from memory_agent.evals.record import RecordError, record_scenarios
    from memory_agent.evals.scenario_format import ScenarioFormatError

    if answers not in ("offline", "recorded"):
        console.print(f"[bold red]--answers must be offline or recorded, not {escape(answers)}.[/]")
        raise typer.Exit(2)
    with handle_errors(console):
        try:
            done = record_scenarios(
                file, fixtures, queue=queue, base_url=base_url, answers=answers, settings=settings_from(ctx),
                on_result=lambda r: console.print(f"scenario {escape(r.id)} (memory {'on' if r.memory else 'off'}) done"
                                                  + (f": [red]{escape(str(r.error))}[/]" if r.error else "")))
        except (RecordError, ScenarioFormatError, FileNotFoundError) as exc:
            console.print(f"[bold red]Cannot record:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
    _report(console, done, fixtures, "scenario")


@record_app.command("redteam")
def redteam_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A red-team file (JSON Lines; format in memory_agent.evals.redteam).")],
    fixtures: FixturesOpt,
    queue: QueueOpt,
    base_url: BaseUrlOpt = "http://127.0.0.1:18080/v1",
) -> None:
    """Run the red-team items as `eval redteam` does; every extraction call not yet in --fixtures waits in
    the bridge's queue (answers by the offline stand-in: replay with 'replay:FILE?answers=offline')."""
    console = get_console()
    from memory_agent.evals.record import RecordError, record_redteam

    with handle_errors(console):
        try:
            done = record_redteam(file, fixtures, queue=queue, base_url=base_url, settings=settings_from(ctx),
                                  on_result=lambda r: console.print(f"item {escape(r.id)} done: {r.outcome}"))
        except (RecordError, ValueError, FileNotFoundError) as exc:
            console.print(f"[bold red]Cannot record:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
    _report(console, done, fixtures, "item")


def _report(console, done, fixtures: Path, unit: str) -> None:
    """Print what a recording run did; exit 1 when a ``unit`` (scenario, red-team item) ended in an error."""
    c = done.converted
    console.print(f"{done.recorded} calls answered from recordings (the file or the bridge log), {done.asked} asked "
                  f"through the bridge; {escape(str(fixtures))} now holds {c.total} recordings ({c.added} new).")
    for error in done.errors:
        console.print(f"[red]{unit} error:[/] {escape(error)}")
    if done.errors:
        raise typer.Exit(1)


@record_app.command("convert")
def convert_cmd(
    log: Annotated[Path, typer.Argument(help="The bridge's log, QUEUE/log.jsonl.")],
    fixtures: FixturesOpt,
) -> None:
    """Merge an llm_bridge log into the recording file (by prompt hash; a later answer replaces an earlier one)."""
    console = get_console()
    from memory_agent.evals.record import RecordError, convert_log

    with handle_errors(console):
        try:
            c = convert_log(log, fixtures)
        except RecordError as exc:
            console.print(f"[bold red]Cannot convert:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
    console.print(f"{escape(str(fixtures))}: {c.total} recordings ({c.added} new, {c.replaced} replaced).")
