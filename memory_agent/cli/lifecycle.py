"""The memory lifecycle commands, on top of ``memory_agent.app.erasure`` and ``memory_agent.stores.maintenance``.

Commands::

    memory-agent forget --user U --since "1 hour" [--yes]
    memory-agent forget-user U [--canary TEXT ...] [--yes] [--json]
    memory-agent maintain [--user U] [--dry-run]

Exit codes: 0 success, 1 an erasure that left data behind, 2 a usage or environment problem
(or a deletion not confirmed: every command that deletes asks, unless ``--yes``).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from memory_agent.cli.common import (
    JsonFlag,
    UserOption,
    YesFlag,
    confirm_or_exit,
    dumps,
    get_console,
    read_only_agent,
)
from memory_agent.core.facts import utcnow


def forget(
    ctx: typer.Context,
    user: UserOption,
    since: Annotated[str, typer.Option("--since", help="How far back, e.g. '1 hour', '30 minutes', '2 days'.")],
    yes: YesFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """Forget the last stretch of time: facts, threads (transcripts), summaries and episodes written in it."""
    # Start-up laziness: the app layer imports the memory rules and LangChain.
    from memory_agent.app import erasure

    console = get_console()
    with read_only_agent(ctx, console, user) as agent:
        window = erasure.parse_duration(since)
        confirm_or_exit(console, f"Forget everything {user!r} said or stored in the last {since}? "
                        "This cannot be undone", yes)
        out = erasure.forget_since(agent, user, window, utcnow())
    if as_json:
        typer.echo(dumps(out))
        return
    console.print(f"Forgot since {out['since'][:19].replace('T', ' ')} UTC: {len(out['facts'])} fact(s), "
                  f"{len(out['threads'])} thread(s), {out['session_summaries']} summary(ies), "
                  f"{out['episodes']} episode(s); {out['audit_rows_blanked']} audit row(s) kept without text."
                  + (f" {len(out['revived'])} older fact(s) are live again." if out["revived"] else ""))


def forget_user(
    ctx: typer.Context,
    user: Annotated[str, typer.Argument(help="The user id to erase from every store.")],
    canary: Annotated[list[str] | None, typer.Option(
        "--canary", help="Also scan for this text after erasing (repeatable), e.g. a phrase the user said.")] = None,
    yes: YesFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """Erase a user: facts, embeddings, summaries, episodes, every thread's checkpoints, API keys; audit rows
    lose their text. Then scan every store for the user id (and --canary texts); exit 1 if anything remains."""
    # Start-up laziness: the app layer imports the memory rules and LangChain.
    from memory_agent.app import erasure

    console = get_console()
    confirm_or_exit(console, f"Erase every memory and conversation of {user!r}? This cannot be undone", yes)
    with read_only_agent(ctx, console, user) as agent:
        report = erasure.forget_user(agent, user, utcnow(), canary or (), check=False)
    if as_json:
        typer.echo(dumps(report.as_dict()))
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


def maintain(
    ctx: typer.Context,
    user: Annotated[str | None, typer.Option("--user", "-u", help="Only this user (default: every user).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Report what would change; write nothing.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Expire, list facts due for review, decay and prune unused facts, merge duplicates (keeping
    every source), and prune old checkpoints. Every change goes to the audit log."""
    # Start-up laziness: maintenance imports the stores and LangChain.
    from memory_agent.stores import maintenance

    console = get_console()
    with read_only_agent(ctx, console, user or "maintain") as agent:
        report = maintenance.maintain(agent.memory, utcnow(), users=[user] if user else None, dry_run=dry_run,
                                    checkpoints=agent.prune_checkpoints)
    data = report.as_dict()
    if as_json:
        typer.echo(dumps(data))
        return
    verb = "would be" if dry_run else "were"
    for key, label in (("expired", "expired"), ("pruned", "pruned (decayed, unused)"), ("merged", "merged"),
                       ("review_queue", "due for review (unchanged)")):
        console.print(f"{len(data[key])} fact(s) {label if key == 'review_queue' else verb + ' ' + label}")
        for item in data[key]:
            console.print(Text(f"  {item['user_id']}  {item['fact_id']}  {item['content']}", style="dim"))
    removed = sum(r["removed"] for r in data["checkpoints_pruned"])
    console.print(f"{removed} old checkpoint(s) removed from {len(data['checkpoints_pruned'])} thread(s).")
