"""The ``memory-agent`` command line: the root app, its global options, and every command group.

Commands::

    memory-agent [--data-dir PATH] [--model TEXT] [--embedder TEXT] [--approval MODE] COMMAND
    memory-agent chat --user alice@example.com [--thread T]                     (chat.py)
    memory-agent config                                                         (config.py)
    memory-agent demo [--scenarios FILE] [--locomo PATH] [--no-locomo]          (demo.py)
    memory-agent forget --user U --since "1 hour"                               (lifecycle.py)
    memory-agent forget-user U
    memory-agent maintain [--user U] [--dry-run]
    memory-agent doctor [--fix]                                                 (ops.py)
    memory-agent memories list|show|edit|delete|export|history|on|off --user U  (memories.py)
    memory-agent threads [--user U] | threads prune --older-than DAYS           (ops.py)
    memory-agent eval scenarios|locomo|locomo-qa FILE                           (evals.py)
    memory-agent web [--host 127.0.0.1] [--port 8765]                           (web.py)
    memory-agent users add|revoke USER | users list                             (users.py)
    memory-agent embedder export [--force] | embedder check                     (embedder.py)

Start-up is kept short: importing this module loads typer, rich, pydantic and the settings; the agent
(LangGraph, Chroma, the embedder) and the eval harness are imported when a command runs.

Exit codes: 0 success, 1 a fact that does not exist, 2 a usage or environment problem
(the message says what to do).
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from memory_agent.cli.chat import chat
from memory_agent.cli.config import config
from memory_agent.cli.demo import demo
from memory_agent.cli.embedder import embedder_app
from memory_agent.cli.evals import eval_app
from memory_agent.cli.lifecycle import forget, forget_user, maintain
from memory_agent.cli.memories import memories_app
from memory_agent.cli.ops import doctor, threads_app
from memory_agent.cli.users import users_app
from memory_agent.cli.web import web

OFFLINE_NOTE = (
    "is a deterministic, rule-based stand-in that is NOT a language model: "
    "it matches simple first-person statements and replays stored facts, nothing more."
)
MODEL_HELP = (
    f'Chat model. "offline" (the default) {OFFLINE_NOTE} Any LangChain provider:model string works, e.g. '
    'openai:gpt-4o-mini (needs OPENAI_API_KEY). "local" (Gemma 3 270M in-process, extra "local") is a test '
    "adversary, not a chat model. \\[env: MEMORY_AGENT_MODEL]"
)


class Approval(StrEnum):
    """When the agent asks before writing a memory."""

    always = "always"
    risky_only = "risky-only"
    never = "never"


GLOBAL_OPTIONS = ("--data-dir", "--model", "--embedder", "--approval")


class _RootGroup(TyperGroup):
    """The root command: a global option given after a command (``chat --model local``) is an error that
    says where it goes, instead of click's bare "No such option"."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except TyperException as exc:  # typer's (vendored click's) NoSuchOption carries option_name
            name = str(getattr(exc, "option_name", "") or "").split("=", 1)[0]
            if name in GLOBAL_OPTIONS:
                command = ctx.invoked_subcommand or "COMMAND"
                exc.message = (f"{name} is a global option: put it before the command, "  # type: ignore[attr-defined]
                               f"e.g. memory-agent {name} VALUE {command} ...")
                exc.possibilities = None  # type: ignore[attr-defined]
            raise


app = typer.Typer(
    cls=_RootGroup,
    help=(
        "A LangGraph agent with long-term memory: facts with provenance, your approval, and supersede.\n\n"
        f'Note: the default model, "offline", {OFFLINE_NOTE} Use --model openai:gpt-4o-mini (or any LangChain '
        "provider:model) for real answers."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


@app.callback()
def main(
    ctx: typer.Context,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Folder of the embedded stores (SQLite + Chroma). \\[env: MEMORY_AGENT_DATA_DIR; "
        "default: ./.memory_agent]", show_default=False,
    )] = None,
    model: Annotated[str | None, typer.Option("--model", help=MODEL_HELP, show_default=False)] = None,
    embedder: Annotated[str | None, typer.Option(
        "--embedder", help="Embedder: minilm (offline default, all-MiniLM-L6-v2) or "
        "openai:text-embedding-3-small. \\[env: MEMORY_AGENT_EMBEDDER]", show_default=False,
    )] = None,
    approval: Annotated[Approval | None, typer.Option(
        "--approval", help="When to ask before a memory is written: always (default), risky-only "
        "(constraints, sensitive facts, updates, retractions), never. \\[env: MEMORY_AGENT_APPROVAL]",
        show_default=False, case_sensitive=False,
    )] = None,
) -> None:
    """Global options; explicit values override MEMORY_AGENT_* environment variables and defaults."""
    explicit: dict[str, Any] = {"data_dir": data_dir, "model": model, "embedder": embedder,
                                "approval": approval.value if approval is not None else None}
    ctx.obj = {"explicit": {k: v for k, v in explicit.items() if v is not None}}


# The order here is the order of ``memory-agent --help``.
app.command("chat")(chat)
app.command("config")(config)
app.command("demo")(demo)
app.command("forget")(forget)
app.command("forget-user")(forget_user)
app.command("maintain")(maintain)
app.command("doctor")(doctor)
app.add_typer(memories_app, name="memories")
app.add_typer(threads_app, name="threads")
app.add_typer(eval_app, name="eval")
app.add_typer(users_app, name="users")
app.command("web")(web)
app.add_typer(embedder_app, name="embedder")

if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
