"""CLI commands for user control and the memory lifecycle, on top of ``memory_agent.app.control``.

Commands::

    memory-agent memories edit FACT_ID "new wording" --user U
    memory-agent memories delete FACT_ID --user U
    memory-agent memories export --user U [--output FILE]
    memory-agent memories off|on --user U          # the per-user memory switch
    memory-agent forget --user U --since "1 hour"
    memory-agent forget-user U [--canary TEXT ...] [--json]
    memory-agent maintain [--user U] [--dry-run]

Registered on ``memory_agent.cli.main.app`` when that module is imported. Exit codes as in
``memory_agent.cli.main``: 0 success, 1 a fact that does not exist or an erasure that left data
behind, 2 a usage or environment problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.text import Text

from memory_agent.cli.main import (
    JsonFlag,
    _dumps,
    _read_only_agent,
    app,
    get_console,
    memories_app,
)
from memory_agent.core.facts import utcnow

UserOption = Annotated[str, typer.Option("--user", "-u", help="Whose memories.")]


def _fail(console, message: str, code: int = 1) -> None:
    console.print(f"[bold red]{escape(message)}[/]")
    raise typer.Exit(code)


@memories_app.command("edit")
def memories_edit(
    ctx: typer.Context,
    fact_id: Annotated[str, typer.Argument(help="The live fact to correct (from memories list).")],
    content: Annotated[str, typer.Argument(help="The corrected sentence, e.g. 'The user lives in Oslo.'")],
    user: UserOption,
    as_json: JsonFlag = False,
) -> None:
    """Correct a memory: the new wording supersedes the old one (kept in the history)."""
    from memory_agent.app import control

    console = get_console()
    with _read_only_agent(ctx, console, user) as agent:
        try:
            new = control.edit_memory(agent, user, fact_id, content, utcnow())
        except control.MemoryNotFoundError as exc:
            _fail(console, str(exc))
        if as_json:
            typer.echo(_dumps(new))
            return
        console.print(Text(f"edited: {new['content']}  [{new['id']}]", style="green"))
        console.print(Text(f"superseded: {fact_id}", style="magenta"))


@memories_app.command("delete")
def memories_delete(
    ctx: typer.Context,
    fact_id: Annotated[str, typer.Argument(help="The fact to delete (any version of it).")],
    user: UserOption,
    as_json: JsonFlag = False,
) -> None:
    """Delete a memory for good: every version, its embedding, and the text of its audit rows."""
    from memory_agent.app import control

    console = get_console()
    with _read_only_agent(ctx, console, user) as agent:
        try:
            out = control.delete_memory(agent, user, fact_id, utcnow())
        except control.MemoryNotFoundError as exc:
            _fail(console, str(exc))
        if as_json:
            typer.echo(_dumps(out))
            return
        console.print(f"Deleted {len(out['deleted'])} version(s): {', '.join(out['deleted'])}; "
                      f"{out['audit_rows_blanked']} audit row(s) kept without their text.")


@memories_app.command("export")
def memories_export(
    ctx: typer.Context,
    user: UserOption,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the JSON to this file.")] = None,
) -> None:
    """Print (or write) every record kept about the user, across every store, as JSON."""
    from memory_agent.app import export

    console = get_console()
    with _read_only_agent(ctx, console, user) as agent:
        text = _dumps(export.export_user(agent, user))
    if output is None:
        typer.echo(text)
    else:
        output.write_text(text + "\n", encoding="utf-8")
        console.print(f"Wrote {output} ({len(text):,} characters).")


def _switch(ctx: typer.Context, user: str, enabled: bool) -> None:
    from memory_agent.app import control

    console = get_console()
    with _read_only_agent(ctx, console, user) as agent:
        control.set_memory_enabled(agent, user, enabled, utcnow())
    state = "on" if enabled else "off: nothing is read or written until you turn it on; what is stored stays"
    console.print(f"Memory for {escape(user)} is {state}.")


@memories_app.command("off")
def memories_off(ctx: typer.Context, user: UserOption) -> None:
    """Turn long-term memory off for the user: no memories read, none proposed or written."""
    _switch(ctx, user, False)


@memories_app.command("on")
def memories_on(ctx: typer.Context, user: UserOption) -> None:
    """Turn long-term memory back on for the user."""
    _switch(ctx, user, True)


@app.command("forget")
def forget(
    ctx: typer.Context,
    user: UserOption,
    since: Annotated[str, typer.Option("--since", help="How far back, e.g. '1 hour', '30 minutes', '2 days'.")],
    as_json: JsonFlag = False,
) -> None:
    """Forget the last stretch of time: facts, threads (transcripts), summaries and episodes written in it."""
    from memory_agent.app import erasure

    console = get_console()
    with _read_only_agent(ctx, console, user) as agent:
        out = erasure.forget_since(agent, user, erasure.parse_duration(since), utcnow())
    if as_json:
        typer.echo(_dumps(out))
        return
    console.print(f"Forgot since {out['since'][:19].replace('T', ' ')} UTC: {len(out['facts'])} fact(s), "
                  f"{len(out['threads'])} thread(s), {out['session_summaries']} summary(ies), "
                  f"{out['episodes']} episode(s); {out['audit_rows_blanked']} audit row(s) kept without text."
                  + (f" {len(out['revived'])} older fact(s) are live again." if out["revived"] else ""))


@app.command("forget-user")
def forget_user(
    ctx: typer.Context,
    user: Annotated[str, typer.Argument(help="The user id to erase from every store.")],
    canary: Annotated[list[str] | None, typer.Option(
        "--canary", help="Also scan for this text after erasing (repeatable), e.g. a phrase the user said.")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Erase a user: facts, embeddings, summaries, episodes, every thread's checkpoints; audit rows
    lose their text. Then scan every store for the user id (and --canary texts); exit 1 if anything remains."""
    from memory_agent.app import erasure

    console = get_console()
    if not yes and not typer.confirm(f"Erase every memory and conversation of {user!r}? This cannot be undone"):
        raise typer.Exit(2)
    with _read_only_agent(ctx, console, user) as agent:
        report = erasure.forget_user(agent, user, utcnow(), canary or (), check=False)
    if as_json:
        typer.echo(_dumps(report.as_dict()))
    else:
        removed = ", ".join(f"{k}: {v}" for k, v in report.removed.items())
        console.print(f"Removed {removed} (audit_log rows are kept as tombstones {report.tombstone}).")
        console.print(f"Scanned {', '.join(report.scanned['stores'])} for the user id and "
                      f"{report.scanned['canaries']} canary text(s).")
        for hit in report.remaining:
            console.print(Text(f"  STILL THERE: {hit['store']} {hit['table']}.{hit['column']}: {hit['rows']} "
                               f"row(s) with {hit['needle']!r}", style="bold red"))
        if not report.remaining:
            console.print("[green]Nothing of the user remains.[/]")
    if report.remaining:
        raise typer.Exit(1)



@app.command("maintain")
def maintain(
    ctx: typer.Context,
    user: Annotated[str | None, typer.Option("--user", "-u", help="Only this user (default: every user).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Report what would change; write nothing.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Expire, list facts due for review, decay and prune unused facts, merge duplicates (keeping
    every source), and prune old checkpoints. Every change goes to the audit log."""
    from memory_agent.stores import maintenance

    console = get_console()
    with _read_only_agent(ctx, console, user or "maintain") as agent:
        report = maintenance.maintain(agent.memory, utcnow(), users=[user] if user else None, dry_run=dry_run,
                                      checkpoints=agent.prune_checkpoints)
    data = report.as_dict()
    if as_json:
        typer.echo(_dumps(data))
        return
    verb = "would be" if dry_run else "were"
    for key, label in (("expired", "expired"), ("pruned", "pruned (decayed, unused)"), ("merged", "merged"),
                       ("review_queue", "due for review (unchanged)")):
        console.print(f"{len(data[key])} fact(s) {label if key == 'review_queue' else verb + ' ' + label}")
        for item in data[key]:
            console.print(Text(f"  {item['user_id']}  {item['fact_id']}  {item['content']}", style="dim"))
    removed = sum(r["removed"] for r in data["checkpoints_pruned"])
    console.print(f"{removed} old checkpoint(s) removed from {len(data['checkpoints_pruned'])} thread(s).")
