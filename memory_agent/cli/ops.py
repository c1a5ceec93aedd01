"""Commands for operating the stores.

Commands::

    memory-agent doctor [--fix] [--json]
    memory-agent threads --user U [--json]
    memory-agent threads prune --older-than DAYS [--user U] [--dry-run] [--json]

Exit codes: 0 success, 2 a usage or environment problem (``doctor``: some backend failed).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from memory_agent.cli.chat import resume_command
from memory_agent.cli.common import (
    JsonFlag,
    YesFlag,
    confirm_or_exit,
    dumps,
    explicit_options,
    get_console,
    handle_errors,
    open_agent,
    read_only_agent,
    settings_from,
)

STATUS_STYLE = {"ok": "green", "warn": "yellow", "fail": "bold red"}

threads_app = typer.Typer(help="List a user's threads (--user), or prune old ones (threads prune).",
                          rich_markup_mode="rich")


def doctor(
    ctx: typer.Context,
    fix: Annotated[bool, typer.Option("--fix", help="Open the stores once: create missing tables (PostgresSaver "
                                      "setup()), the Chroma database, and finish half-written decisions.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Check every configured backend (reachable, schema set up, embedder matches the collections) and
    say what to fix. Exit code 0 when nothing failed, 2 otherwise."""
    # start-up laziness: the app layer loads chromadb and langgraph, which --help does not need
    from memory_agent.app.doctor import doctor as run_doctor

    console = get_console()
    with handle_errors(console):
        settings = settings_from(ctx)
        if fix:
            with open_agent(settings, read_only=True) as agent:
                repaired = agent.repaired + agent.memory.repair()
            console.print(f"Stores opened and set up; {len(repaired)} unfinished writes completed.")
        checks = run_doctor(settings)
    failed = any(c.status == "fail" for c in checks)
    if as_json:
        typer.echo(dumps([c.__dict__ for c in checks]))
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


@threads_app.callback(invoke_without_command=True)
def threads(
    ctx: typer.Context,
    user: Annotated[str | None, typer.Option("--user", "-u", help="Whose threads to list.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """List a user's conversation threads and the memory proposals waiting in each."""
    if ctx.invoked_subcommand:
        return
    console = get_console()
    if user is None:
        console.print("[bold red]Usage problem:[/] pass --user to list a user's threads, e.g. "
                      "memory-agent threads --user alice@example.com (or: memory-agent threads prune --help)")
        raise typer.Exit(2)
    with read_only_agent(ctx, console, user) as agent:
        rows = agent.threads(user)
        if as_json:
            console.print_json(dumps(rows))
            return
        if not rows:
            console.print(f"No threads for {escape(user)} yet.")
            return
        table = Table(title=f"Threads of {escape(user)} (oldest first)", box=box.SIMPLE_HEAD)
        table.add_column("thread")
        table.add_column("waiting proposals", justify="right")
        for row in rows:
            waiting = str(row["pending"]) + (" (turn cut short)" if row["unfinished"] else "")
            table.add_row(escape(row["thread_id"]), waiting)
        console.print(table)
        waiting = [r["thread_id"] for r in rows if r["pending"] or r["unfinished"]]
        if waiting:
            command = resume_command(user, waiting[0], explicit_options(ctx))
            console.print(f"[dim]Continue one with: {escape(command)}[/]", soft_wrap=True)


@threads_app.command("prune")
def threads_prune(
    ctx: typer.Context,
    older_than: Annotated[float, typer.Option("--older-than", help="Delete threads with no activity for this "
                                              "many days (their transcripts; facts and the audit log stay).",
                                              min=0)],
    user: Annotated[str | None, typer.Option("--user", "-u", help="Only this user's threads.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only list what would be deleted.")] = False,
    yes: YesFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """Delete the checkpoints of old threads (working memory). Threads waiting for an approval are kept."""
    # start-up laziness: the app layer loads chromadb and langgraph, which --help does not need
    from memory_agent.app.retention import prune_threads

    console = get_console()
    with handle_errors(console):
        settings = settings_from(ctx)
        if settings.uses_data_dir and not settings.data_dir.exists():
            console.print(f"No data folder at {escape(str(settings.data_dir.resolve()))}: nothing to prune.")
            return
        if not dry_run:
            whose = "every user's" if user is None else f"{user!r}'s"
            confirm_or_exit(console, f"Delete the transcripts of {whose} threads with no activity for "
                            f"{older_than:g} days? This cannot be undone", yes)
        agent = open_agent(settings, read_only=True)
        try:
            rows = prune_threads(agent, older_than, user_id=user, dry_run=dry_run)
        finally:
            agent.close()
    if as_json:
        typer.echo(dumps(rows))
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
