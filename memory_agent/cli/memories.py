"""``memory-agent memories ...``: see, correct, delete and export one user's long-term memories.

Commands::

    memory-agent memories list|history --user U [--json]
    memory-agent memories show FACT_ID --user U [--json]
    memory-agent memories edit FACT_ID "new wording" --user U
    memory-agent memories delete FACT_ID --user U
    memory-agent memories export --user U [--output FILE]
    memory-agent memories off|on --user U          # the per-user memory switch

The writes go through ``memory_agent.app.control``. Exit codes: 0 success, 1 a fact that does not
exist, 2 a usage or environment problem.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from memory_agent.cli.common import (
    JsonFlag,
    UserOption,
    YesFlag,
    confirm_or_exit,
    dumps,
    get_console,
    read_only_agent,
    short_time,
)
from memory_agent.core.facts import utcnow

if TYPE_CHECKING:  # pragma: no cover - typing only
    from memory_agent.app.agent import MemoryAgent

memories_app = typer.Typer(help="See, correct, delete and export the long-term memories of one user.",
                           no_args_is_help=True,
                           rich_markup_mode="rich")


# ---------------------------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------------------------


def _facts_table(console: Console, facts: list, title: str) -> Table:
    """Live facts as a table: id, kind, content, updated, use count."""
    narrow = console.width < 110
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("id", no_wrap=True, style="cyan")
    table.add_column("kind", no_wrap=True)
    table.add_column("content", overflow="fold", min_width=16, ratio=1)
    table.add_column("updated", no_wrap=True)
    table.add_column("uses", justify="right", no_wrap=True)
    for f in facts:
        updated = short_time(f.updated_at)
        table.add_row(Text(f.id), Text(f.kind), Text(f.content), Text(updated[:10] if narrow else updated[:16]),
                      Text(str(f.use_count)))
    return table


def _print_fact_versions(console: Console, facts: list, title: str) -> None:
    """Facts of any status as a list (readable at any width): id, kind, status and links, then the content."""
    console.print(Text(title, style="bold"))
    styles = {"confirmed": "green", "superseded": "yellow", "retracted": "magenta", "expired": "dim"}
    for f in facts:
        head = Text("  ") + Text(f.id, style="cyan") + Text(f"  [{f.kind}]  ") + Text(
            f.status, style=styles.get(f.status, "")) + Text(f"  {short_time(f.updated_at)}", style="dim")
        console.print(head)
        console.print(Text(f"      {f.content}"))
        if f.supersedes:
            console.print(Text(f"      supersedes {f.supersedes}", style="dim"))
        if f.superseded_by:
            console.print(Text(f"      superseded by {f.superseded_by}", style="dim"))


def print_live_table(console: Console, agent: MemoryAgent, user: str) -> None:
    """The user's live memories as a table (or a line saying there are none); warns when memory is off."""
    if not agent.memory.ledger.memory_enabled(user):
        console.print(f"[yellow]Memory is off for {escape(user)}:[/] nothing is read or written "
                      "(turn it on with: memory-agent memories on --user ...).")
    facts = agent.memory.live(user)
    if not facts:
        console.print(f"No memories for {escape(user)} yet.")
        return
    console.print(_facts_table(console, facts, f"Memories of {user} ({len(facts)})"))


def _fact_panel(console: Console, fact) -> None:
    table = Table(show_header=False, box=None, title=f"Fact {fact.id}", title_justify="left")
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    data = fact.model_dump(mode="json")
    source = data.pop("source", {}) or {}
    for key, value in data.items():
        table.add_row(key, Text("" if value is None else str(value)))
    table.add_row("thread", Text(str(source.get("thread_id", ""))))
    table.add_row("message ids", Text(", ".join(source.get("message_ids") or [])))
    console.print(table)


def _not_found(console: Console, user: str, fact_id: str) -> None:
    """Say the fact does not exist and exit 1."""
    console.print(f"[bold red]No fact {escape(fact_id)} for user {escape(user)}.[/] "
                  "See the ids with: memory-agent memories list --user ...")
    raise typer.Exit(1)


def _fail(console: Console, message: str, code: int = 1) -> None:
    console.print(f"[bold red]{escape(message)}[/]")
    raise typer.Exit(code)


def _audit_row(row: dict) -> dict:
    out = dict(row)
    if isinstance(out.get("proposal"), str):
        with contextlib.suppress(ValueError):
            out["proposal"] = json.loads(out["proposal"])
    return out


def _print_audit(console: Console, audit: list[dict]) -> None:
    table = Table(title=f"Audit log ({len(audit)})", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("at", no_wrap=True)
    table.add_column("decision", no_wrap=True)
    table.add_column("by", overflow="fold")
    table.add_column("content", overflow="fold", min_width=16, ratio=1)
    table.add_column("fact", overflow="fold", style="cyan")
    for r in audit:
        content = Text(str(r.get("content") or ""))
        if r.get("reason"):
            content.append(f" ({r['reason']})", style="dim")
        table.add_row(Text(short_time(r.get("at"))[:16]), Text(f"{r.get('operation')} {r.get('decision')}"),
                      Text(str(r.get("decided_by") or "")), content, Text(str(r.get("fact_id") or "")))
    console.print(table)


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------


@memories_app.command("list")
def memories_list(
    ctx: typer.Context,
    user: UserOption,
    as_json: JsonFlag = False,
) -> None:
    """List the user's live memories (id, kind, content, updated, use count)."""
    console = get_console()
    with read_only_agent(ctx, console, user) as agent:
        if as_json:
            typer.echo(dumps([f.model_dump(mode="json") for f in agent.memory.live(user)]))
        else:
            print_live_table(console, agent, user)


@memories_app.command("show")
def memories_show(
    ctx: typer.Context,
    fact_id: Annotated[str, typer.Argument(help="The fact id (from memories list / history).")],
    user: Annotated[str, typer.Option("--user", "-u", help="Whose memory.")],
    as_json: JsonFlag = False,
) -> None:
    """Show one fact with every field and its provenance (thread, message ids, evidence, status, links)."""
    console = get_console()
    with read_only_agent(ctx, console, user) as agent:
        fact = agent.memory.show(user, fact_id)
        if fact is None:
            _not_found(console, user, fact_id)
        elif as_json:
            typer.echo(dumps(fact.model_dump(mode="json")))
        else:
            _fact_panel(console, fact)


@memories_app.command("history")
def memories_history(
    ctx: typer.Context,
    user: UserOption,
    fact_id: Annotated[str | None, typer.Argument(
        help="A fact id: show its supersede chain. Omit for everything.", show_default=False)] = None,
    as_json: JsonFlag = False,
) -> None:
    """With FACT_ID: the supersede chain, oldest first. Without: every fact ever committed and the audit log."""
    console = get_console()
    with read_only_agent(ctx, console, user) as agent:
        if fact_id is not None:
            chain = agent.memory.history(user, fact_id)
            if not chain:
                _not_found(console, user, fact_id)
            if as_json:
                typer.echo(dumps({"user_id": user, "fact_id": fact_id,
                                  "chain": [f.model_dump(mode="json") for f in chain]}))
            else:
                _print_fact_versions(console, chain, f"History of {fact_id} (oldest first, newest last)")
            return
        facts = agent.memory.ledger.facts(user)
        audit = [_audit_row(r) for r in agent.memory.ledger.audit_rows(user)]
        if as_json:
            typer.echo(dumps({"user_id": user, "facts": [f.model_dump(mode="json") for f in facts],
                              "audit": audit}))
            return
        if not facts and not audit:
            console.print(f"No history for {escape(user)} yet.")
            return
        if facts:
            _print_fact_versions(console, facts, f"Every fact of {user} ({len(facts)}), oldest first")
        else:
            console.print(f"No fact was ever committed for {escape(user)}.")
        _print_audit(console, audit)


# ---------------------------------------------------------------------------------------------
# Correcting, deleting, exporting, the memory switch
# ---------------------------------------------------------------------------------------------


@memories_app.command("edit")
def memories_edit(
    ctx: typer.Context,
    fact_id: Annotated[str, typer.Argument(help="The live fact to correct (from memories list).")],
    content: Annotated[str, typer.Argument(help="The corrected sentence, e.g. 'The user lives in Oslo.'")],
    user: UserOption,
    as_json: JsonFlag = False,
) -> None:
    """Correct a memory: the new wording supersedes the old one (kept in the history)."""
    # Start-up laziness: control imports the memory rules and LangChain.
    from memory_agent.app import control

    console = get_console()
    with read_only_agent(ctx, console, user) as agent:
        try:
            new = control.edit_memory(agent, user, fact_id, content, utcnow())
        except control.MemoryNotFoundError as exc:
            _fail(console, str(exc))
        if as_json:
            typer.echo(dumps(new))
            return
        console.print(Text(f"edited: {new['content']}  [{new['id']}]", style="green"))
        console.print(Text(f"superseded: {fact_id}", style="magenta"))


@memories_app.command("delete")
def memories_delete(
    ctx: typer.Context,
    fact_id: Annotated[str, typer.Argument(help="The fact to delete (any version of it).")],
    user: UserOption,
    yes: YesFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """Delete a memory for good: every version, its embedding, and the text of its audit rows."""
    # Start-up laziness: control imports the memory rules and LangChain.
    from memory_agent.app import control

    console = get_console()
    with read_only_agent(ctx, console, user) as agent:
        confirm_or_exit(console, f"Delete memory {fact_id} of {user!r} for good, every version? "
                        "This cannot be undone", yes)
        try:
            out = control.delete_memory(agent, user, fact_id, utcnow())
        except control.MemoryNotFoundError as exc:
            _fail(console, str(exc))
        if as_json:
            typer.echo(dumps(out))
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
    # Start-up laziness: the app layer imports the memory rules and LangChain.
    from memory_agent.app import export

    console = get_console()
    with read_only_agent(ctx, console, user) as agent:
        text = dumps(export.export_user(agent, user))
    if output is None:
        typer.echo(text)
    else:
        output.write_text(text + "\n", encoding="utf-8")
        console.print(f"Wrote {output} ({len(text):,} characters).")


def _switch(ctx: typer.Context, user: str, enabled: bool) -> None:
    # Start-up laziness: control imports the memory rules and LangChain.
    from memory_agent.app import control

    console = get_console()
    with read_only_agent(ctx, console, user) as agent:
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
