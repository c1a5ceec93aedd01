"""Helpers every CLI command shares: the console, the effective settings, error handling, opening the agent.

Exit codes of every command: 0 success, 1 a fact that does not exist (or an erasure that left data
behind), 2 a usage or environment problem (the message says what to do).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from memory_agent.app.settings import Settings
from memory_agent.graph.context import user_id_problem
from memory_agent.memory import tokens
from memory_agent.memory.text import warm_up as warm_up_language_id
from memory_agent.models.errors import ModelError
from memory_agent.stores.base import StoreError
from memory_agent.stores.data_dir import DataDirError

if TYPE_CHECKING:  # pragma: no cover - typing only; the real import is lazy (open_agent)
    from memory_agent.app.agent import MemoryAgent

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
UserOption = Annotated[str, typer.Option("--user", "-u", help="Whose memories.")]
YesFlag = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation (for scripts).")]


class UsageError(ValueError):
    """A problem with the command line itself (message says what to do)."""


# Width of the output when stdout is not a terminal (a pipe, a file, a CI log, a notebook): rich would
# otherwise assume 80 columns and wrap table cells into one-word lines. Wide enough that no table of
# this CLI wraps; ``COLUMNS`` still wins when set. ``--json`` stays the machine-readable path.
PIPED_WIDTH = 1000


def get_console() -> Console:
    """A rich console on the current stdout (created per command, so test runners capture it).

    On a terminal rich uses the terminal's width. Otherwise the width is ``$COLUMNS`` when set, else
    :data:`PIPED_WIDTH`, so tables are not wrapped at rich's 80-column fallback."""
    console = Console(highlight=False, soft_wrap=False)
    if not console.is_terminal and not os.environ.get("COLUMNS", "").strip().isdigit():
        console = Console(highlight=False, soft_wrap=False, width=PIPED_WIDTH)
    return console


def explicit_options(ctx: typer.Context) -> dict[str, Any]:
    """The global options given on the command line, ``{setting name: value}`` (set by the root callback)."""
    return dict((ctx.obj or {}).get("explicit", {}))


def settings_from(ctx: typer.Context) -> Settings:
    """Effective settings: explicit global options > ``MEMORY_AGENT_*`` environment > defaults.

    Raises pydantic ``ValidationError`` (a ``ValueError``) for a bad value."""
    return Settings(**explicit_options(ctx))


def require_user(user: str) -> str:
    """The user id as given; :class:`UsageError` when it is blank, too long or has control characters
    (``memory_agent.graph.context.user_id_problem``). Only ``--user`` names the user: no environment variable does."""
    problem = user_id_problem(user)
    if problem:
        raise UsageError(problem)
    return user


def is_provider_error(exc: BaseException) -> bool:
    """Errors raised by provider SDKs (e.g. no OpenAI key) that are configuration problems."""
    root = type(exc).__module__.split(".", 1)[0]
    return root in ("openai", "langchain_openai", "httpx", "anthropic")


@contextlib.contextmanager
def handle_errors(console: Console) -> Iterator[None]:
    """Turn known problems into one red line and ``typer.Exit(2)`` (no traceback); other errors pass."""
    try:
        yield
    except (typer.Exit, typer.Abort):
        raise
    except DataDirError as exc:
        console.print(f"[bold red]Data folder problem:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    except StoreError as exc:  # includes EmbedderMismatchError
        console.print(f"[bold red]Store problem:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    except sqlite3.DatabaseError as exc:  # a damaged SQLite file can fail past the ledger's own checks
        console.print(f"[bold red]Store problem:[/] SQLite: {escape(str(exc))}. If agent.sqlite in the data "
                      "folder is damaged, move it aside and restore a backup.")
        raise typer.Exit(2) from None
    except ValueError as exc:  # InputError, ModelError, bad settings (pydantic ValidationError), unknown embedder
        name = type(exc).__name__
        label = "Model problem" if isinstance(exc, ModelError) else {
            "InputError": "Input problem", "ValidationError": "Settings problem", "UsageError": "Usage problem",
        }.get(name, "Error")
        message = _validation_message(exc) if name == "ValidationError" else str(exc)
        console.print(f"[bold red]{label}:[/] {escape(message)}")
        raise typer.Exit(2) from None
    except Exception as exc:
        if not is_provider_error(exc):
            raise
        console.print(
            f"[bold red]Model provider problem:[/] {escape(type(exc).__name__)}: {escape(str(exc))}\n"
            "Check the provider's API key (e.g. OPENAI_API_KEY) and --model / --embedder, "
            'or use the default --model offline --embedder minilm.'
        )
        raise typer.Exit(2) from None


def _validation_message(exc: Any) -> str:
    """A short message for a pydantic ``ValidationError`` of :class:`Settings`."""
    try:
        problems = [f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg')} (got {e.get('input')!r})"
                    for e in exc.errors()]
    except Exception:  # pragma: no cover - not a pydantic error after all
        return str(exc)
    return ("; ".join(problems) + ". Fix the option or the MEMORY_AGENT_<NAME> environment variable "
            "(or .env entry) of that setting.")


def open_agent(settings: Settings, *, read_only: bool = False) -> MemoryAgent:
    """Open the agent on ``settings``; the caller closes it.

    ``read_only`` commands (``memories ...``) never run the graph, so they use the offline
    model: listing memories must not need a provider API key. Otherwise the embedder starts
    loading its weights, and the token counter its file, in background threads while the stores open.
    """
    # Start-up laziness: the agent, the chat models and the embedder pull in LangGraph, Chroma and
    # torch, so they are imported when a command opens the agent, not when the CLI starts.
    from memory_agent.app.agent import MemoryAgent
    from memory_agent.models import embeddings
    from memory_agent.models.chat import load_chat_model

    if read_only:
        return MemoryAgent.open(settings, model=load_chat_model("offline"))
    embedder = embeddings.load_embedder(settings.embedder, openai_base_url=settings.openai_base_url,
                                        runtime=settings.embedder_runtime, threads=settings.embedder_threads)
    warm = getattr(embedder.embeddings, "warm_up", None)
    if callable(warm):
        warm()
    # the budgets' token counter reads its BPE file (~0.3 s) on first use: read it while the stores open
    threading.Thread(target=tokens.warm_up, name="tokenizer-warm-up", daemon=True).start()
    threading.Thread(target=warm_up_language_id, name="language-id-warm-up", daemon=True).start()
    return MemoryAgent.open(settings, embedder=embedder)


@contextlib.contextmanager
def read_only_agent(ctx: typer.Context, console: Console, user: str) -> Iterator[MemoryAgent]:
    """Open the stores for a command that does not run the graph and always close them (releases the
    data-folder lock). Errors become exit code 2 (:func:`handle_errors`); a data folder that does not
    exist is a usage problem, not created."""
    with handle_errors(console):
        require_user(user)
        settings = settings_from(ctx)
        if settings.uses_data_dir and not settings.data_dir.exists():
            raise UsageError(f"There is no data folder at {settings.data_dir.resolve()}: nothing was stored there. "
                             "Check --data-dir (or MEMORY_AGENT_DATA_DIR).")
        agent = open_agent(settings, read_only=True)
        try:
            yield agent
        finally:
            agent.close()


def confirm_or_exit(console: Console, question: str, yes: bool) -> None:
    """Ask ``question`` (y/N) unless ``yes`` (``--yes``); the same for every command that deletes.

    Reads the answer from standard input (a terminal or a pipe). Anything but yes, or no input at all,
    prints that nothing changed and raises ``typer.Exit(2)``."""
    if yes:
        return
    try:
        agreed = typer.confirm(question, default=False)
    except typer.Abort:  # end of input, Ctrl-C
        agreed = False
        console.print()
    if not agreed:
        console.print("Nothing was changed. Answer y to go ahead, or add --yes to skip the question.")
        raise typer.Exit(2)


def dumps(value: Any) -> str:
    """``value`` as indented JSON (non-ASCII kept, unknown types via ``str``)."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def short_time(value: Any) -> str:
    """A datetime (or ISO string) as ``YYYY-MM-DD HH:MM:SS``; empty for ``None``."""
    text = value.isoformat() if hasattr(value, "isoformat") else str(value or "")
    return text[:19].replace("T", " ")
