"""CLI commands for operating the stores: ``doctor`` and ``threads prune`` (registered on
``memory_agent.cli.main.app`` when that module is imported; heavy imports stay inside the commands)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from memory_agent.cli.main import (
    JsonFlag,
    _dumps,
    _handle_errors,
    _open_agent,
    _settings,
    app,
    get_console,
    threads_app,
)

STATUS_STYLE = {"ok": "green", "warn": "yellow", "fail": "bold red"}


@app.command()
def doctor(
    ctx: typer.Context,
    fix: Annotated[bool, typer.Option("--fix", help="Open the stores once: create missing tables (PostgresSaver "
                                      "setup()), the Chroma database, and finish half-written decisions.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Check every configured backend (reachable, schema set up, embedder matches the collections) and
    say what to fix. Exit code 0 when nothing failed, 2 otherwise."""
    from memory_agent.app.doctor import doctor as run_doctor

    console = get_console()
    with _handle_errors(console):
        settings = _settings(ctx)
        if fix:
            from memory_agent.app.agent import MemoryAgent
            from memory_agent.models.chat import load_chat_model

            with MemoryAgent.open(settings, model=load_chat_model("offline")) as agent:
                repaired = agent.memory.repair()
            console.print(f"Stores opened and set up; {len(repaired)} half-written decisions finished.")
        checks = run_doctor(settings)
    failed = any(c.status == "fail" for c in checks)
    if as_json:
        typer.echo(_dumps([c.__dict__ for c in checks]))
    else:
        table = Table(title="memory-agent doctor", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
        for column in ("backend", "check", "status", "detail / what to do"):
            table.add_column(column, overflow="fold")
        for c in checks:
            detail = escape(c.detail) + (f"\n[bold]→ {escape(c.fix)}[/]" if c.fix and c.status != "ok" else "")
            table.add_row(c.backend, c.check, f"[{STATUS_STYLE[c.status]}]{c.status}[/]", detail)
        console.print(table)
        console.print("[bold red]Some backend is not usable; see the arrows above.[/]" if failed
                      else "[green]Every configured backend is usable.[/]")
    if failed:
        raise typer.Exit(2)


@threads_app.command("prune")
def threads_prune(
    ctx: typer.Context,
    older_than: Annotated[float, typer.Option("--older-than", help="Delete threads with no activity for this "
                                              "many days (their transcripts; facts and the audit log stay).",
                                              min=0)],
    user: Annotated[str | None, typer.Option("--user", "-u", help="Only this user's threads.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only list what would be deleted.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Delete the checkpoints of old threads (working memory). Threads waiting for an approval are kept."""
    from memory_agent.app.retention import prune_threads

    console = get_console()
    with _handle_errors(console):
        settings = _settings(ctx)
        if settings.uses_data_dir and not settings.data_dir.exists():
            console.print(f"No data folder at {escape(str(settings.data_dir.resolve()))}: nothing to prune.")
            return
        agent = _open_agent(settings, read_only=True)
        try:
            rows = prune_threads(agent, older_than, user_id=user, dry_run=dry_run)
        finally:
            agent.close()
    if as_json:
        typer.echo(_dumps(rows))
        return
    gone = sum(r["action"] in ("deleted", "would delete") for r in rows)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("user", "thread", "last active", "action"):
        table.add_column(column)
    for r in rows:
        table.add_row(escape(r["user_id"]), escape(r["thread_id"]), r["last_active"] or "-", r["action"])
    if rows:
        console.print(table)
    verb = "would delete" if dry_run else "deleted"
    console.print(f"{verb} {gone} of {len(rows)} threads (no activity for {older_than:g} days).")
