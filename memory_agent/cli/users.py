"""Who may sign in to the LangGraph server and the web page: per-user API keys
(:mod:`memory_agent.app.accounts`).

Commands::

    memory-agent users add USER       prints a new API key for USER, once (only its hash is stored)
    memory-agent users revoke USER    revokes every key of USER
    memory-agent users list [--json]  the users holding a key

Exit codes: 0 success, 2 a usage or environment problem (the message says what to do).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from memory_agent.cli.common import JsonFlag, dumps, get_console, handle_errors, settings_from

users_app = typer.Typer(help="API keys of the users who may sign in (users add|revoke|list).",
                        rich_markup_mode="rich", no_args_is_help=True)
UserArgument = Annotated[str, typer.Argument(help="The user id, e.g. alice@example.com.")]


@users_app.command("add")
def add(ctx: typer.Context, user: UserArgument) -> None:
    """Make a new API key for USER and print it, once: only its hash is kept. The user sends it as
    ``Authorization: Bearer KEY`` or ``x-api-key: KEY``. A user may hold several keys."""
    # Start-up laziness: the app layer is imported when a command runs.
    from memory_agent.app import accounts

    with handle_errors(get_console()):
        key = accounts.issue_key(settings_from(ctx), user)
    typer.echo(key)  # alone on stdout, so `KEY=$(memory-agent users add alice)` works
    Console(stderr=True, highlight=False).print(
        f"The API key of {escape(user)} is shown once: keep it secret. `memory-agent users revoke` revokes it.")


@users_app.command("revoke")
def revoke(ctx: typer.Context, user: UserArgument) -> None:
    """Revoke every API key of USER (they stop working at once; memories are kept: see forget-user)."""
    from memory_agent.app import accounts

    console = get_console()
    with handle_errors(console):
        n = accounts.revoke_keys(settings_from(ctx), user)
    console.print(f"Revoked {n} key(s) of {escape(user)}." if n else f"{escape(user)} holds no key: nothing revoked.")


@users_app.command("list")
def list_(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """The users holding at least one API key."""
    from memory_agent.app import accounts

    console = get_console()
    with handle_errors(console):
        users = accounts.list_users(settings_from(ctx))
    if as_json:
        typer.echo(dumps(users))
        return
    for user in users:
        console.print(escape(user))
    if not users:
        console.print("No user holds a key yet: `memory-agent users add USER` makes one.")
