"""``memory-agent chat``: the read–answer–approve loop in the terminal.

    memory-agent chat --user alice@example.com [--thread T]

Start-up is kept short: the agent (LangGraph, Chroma, the embedder) opens in a background thread
while the first prompt waits for the user, and the embedder loads its weights in another background
thread (``warm_up``). Exit codes: 0 when the user leaves, 2 a usage or environment problem.
"""

from __future__ import annotations

import os
import select
import shlex
import sqlite3
import sys
import threading
import uuid
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from memory_agent.app.settings import Settings
from memory_agent.cli.common import (
    UsageError,
    explicit_options,
    get_console,
    handle_errors,
    is_provider_error,
    open_agent,
    require_user,
    settings_from,
)
from memory_agent.cli.memories import print_live_table
from memory_agent.cli.turn_output import print_answer_text, print_committed, run_turn, show_proposal
from memory_agent.stores.base import StoreError
from memory_agent.stores.data_dir import DataDir, DataDirError

if TYPE_CHECKING:  # pragma: no cover - typing only; the real import is lazy
    from memory_agent.app.agent import MemoryAgent

EXIT_WORDS = ("/exit", "/quit")


# ---------------------------------------------------------------------------------------------
# Opening the agent in the background
# ---------------------------------------------------------------------------------------------


def _warm_up(agent: MemoryAgent) -> None:
    """Start loading the embedder in a background thread, when the embedder supports it."""
    warm = getattr(agent.memory.embeddings, "warm_up", None)
    if callable(warm):
        warm()


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
            self._agent = open_agent(self._settings)
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


def _interactive() -> bool:
    """True when standard input and output are both terminals (else lines are read as they come)."""
    try:
        return os.isatty(sys.stdin.fileno()) and os.isatty(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # a replaced stdin/stdout (tests, notebooks)
        return False


_SESSION: Any = None  # the prompt_toolkit PromptSession of this process (history across prompts)


def _read_terminal(console: Console, prompt: str) -> str:
    """One message typed at a terminal, read with prompt_toolkit: a paste of several lines (bracketed
    paste, which prompt_toolkit turns on) stays one message, sent by Enter; there is no 4095-character
    cut of long lines. Raises ``EOFError`` (Ctrl-D) and ``KeyboardInterrupt`` (Ctrl-C)."""
    global _SESSION
    # Start-up laziness: prompt_toolkit is imported when the chat first reads from a terminal.
    from prompt_toolkit import PromptSession
    from prompt_toolkit.formatted_text import ANSI

    if _SESSION is None:
        _SESSION = PromptSession()
    with console.capture() as captured:
        console.print(prompt, end="")
    return _SESSION.prompt(ANSI(captured.get()))


def _ask(console: Console, prompt: str) -> str | None:
    """Read one message (``None`` at end of input or Ctrl-C). At a terminal a pasted block of lines is
    one message (:func:`_read_terminal`); from a pipe every line is one message."""
    try:
        if _interactive():
            return _read_terminal(console, prompt)
        return console.input(prompt)
    except (EOFError, KeyboardInterrupt):
        console.print()
        return None


# ---------------------------------------------------------------------------------------------
# Printing a turn, asking for decisions
# ---------------------------------------------------------------------------------------------


APPROVE, EDIT, REJECT = ("/approve", "/a"), ("/edit", "/e"), ("/reject", "/r")
DECISION_HELP = "Answer with /approve (/a), /edit (/e) or /reject (/r)."


def drain_typeahead(fd: int | None = None) -> list[str]:
    """Discard what was typed or pasted into the terminal before a question was shown, and return it
    as lines (``[]`` when ``fd``, standard input by default, is not a terminal).

    A paste of several lines arrives all at once: the first line is a message, the next ones wait
    in the terminal's input buffer. Read after an approval question, one of them would answer it; a
    decision must be typed after the question appears, so the waiting text is dropped first."""
    if fd is None:
        try:
            fd = sys.stdin.fileno()
        except (AttributeError, OSError, ValueError):  # a replaced stdin (tests, notebooks)
            return []
    if not os.isatty(fd):
        return []
    waiting = b""
    while select.select([fd], [], [], 0)[0]:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        waiting += chunk
    return [line for line in waiting.decode("utf-8", "replace").splitlines() if line.strip()]


def _collect_decisions(console: Console, proposals: list[dict]) -> list[dict] | None:
    """Ask for a decision on each proposal; ``None`` when the user leaves (the proposals stay pending).

    A decision is a deliberate act: only ``/approve``, ``/edit`` or ``/reject`` (or ``/a``, ``/e``,
    ``/r``) typed at the question answers it. Text typed or pasted before the question is discarded
    (:func:`drain_typeahead`, with a note), and any other answer ("yes", "a", a pasted sentence) is
    refused with :data:`DECISION_HELP`, never taken as a decision."""
    decisions = []
    for i, p in enumerate(proposals, 1):
        show_proposal(console, i, len(proposals), p)
        while True:
            dropped = drain_typeahead()
            if dropped:
                console.print(Text(f"  ignored {len(dropped)} line(s) typed or pasted before this question; "
                                   "a decision must be typed after it.", style="yellow"))
            raw = _ask(console, "  [bold]approve / edit / reject?[/] \\[/a /e /r]: ")
            if raw is None:
                return None
            choice = raw.strip().lower()
            if choice in EXIT_WORDS:
                return None
            if choice in APPROVE:
                decisions.append({"proposal_id": p["id"], "action": "approve", "content": None})
                break
            if choice in REJECT:
                decisions.append({"proposal_id": p["id"], "action": "reject", "content": None})
                break
            if choice in EDIT and p.get("operation") == "RETRACT":
                console.print("  [red]A retraction has no content to edit:[/] answer /approve (/a) or /reject (/r).")
                continue
            if choice in EDIT:
                new = _ask(console, "  new content: ")
                if new is None:
                    return None
                if not new.strip():
                    console.print("  [red]The new content is empty; decide again.[/] " + DECISION_HELP)
                    continue
                decisions.append({"proposal_id": p["id"], "action": "edit", "content": new.strip()})
                break
            console.print(f"  [red]Not a decision: {escape(raw.strip()[:60])!r}. {DECISION_HELP}[/]")
    return decisions


def _handle_pending(console: Console, agent: MemoryAgent, user: str, thread: str, pending: list[dict]) -> bool:
    """Show pending proposals, ask for decisions and resume with them as a ``HITLResponse``
    (``memory_agent.memory.review``). False when the user left instead."""
    # Start-up laziness: the review module imports LangChain's HITL types.
    from memory_agent.memory.review import hitl_response

    console.print(f"[bold]{len(pending)} memory proposal(s) wait for your decision.[/]")
    decisions = _collect_decisions(console, pending)
    if decisions is None:
        return False
    try:
        result = agent.resume(user, thread, hitl_response(decisions, pending))
    except ValueError as exc:  # malformed decision or nothing pending any more: the thread is unchanged
        console.print(f"[red]{escape(str(exc))}[/]")
        return True
    print_committed(console, result.committed, {p["id"]: p for p in pending})
    return True


def _print_pending_left(console: Console, resume: str) -> None:
    console.print(
        f"[yellow]Memory proposals are still waiting for approval.[/] Decide later with: [bold]{escape(resume)}[/]",
        soft_wrap=True,
    )


def resume_command(user: str, thread: str, explicit: dict[str, Any] | None = None) -> str:
    """The command that reopens this thread, with the global options given explicitly this time
    (so ``--data-dir`` is not lost)."""
    opts = ""
    for name, value in (explicit or {}).items():
        opts += f" --{name.replace('_', '-')} {shlex.quote(str(value))}"
    return f"memory-agent{opts} chat --user {shlex.quote(user)} --thread {shlex.quote(thread)}"


def _print_memory_off(console: Console, agent: MemoryAgent, user: str) -> None:
    """A yellow line when the user's memory switch is off (``memories off``): otherwise the agent looks as
    if it forgot everything."""
    if not agent.memory.ledger.memory_enabled(user):
        console.print(f"[yellow]Memory is off for {escape(user)}: nothing is recalled or remembered in this chat. "
                      f"Turn it on with: memory-agent memories on --user {escape(shlex.quote(user))}[/]",
                      soft_wrap=True)


def _chat_loop(console: Console, agent_for, user: str, thread: str, agent: MemoryAgent | None = None,
               resume: str = "") -> None:
    """The read–answer–approve loop. ``agent_for()`` returns the opened agent (waits for it)."""
    resume = resume or resume_command(user, thread)
    while True:
        if agent is not None:
            if agent.unfinished(user, thread):  # a crash or Ctrl-C stopped the last turn between nodes
                console.print("[dim]Finishing the turn that was interrupted…[/]")
                finished = agent.finish_interrupted(user, thread)
                if finished is not None and finished.answer:
                    print_answer_text(console, finished.answer)
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
        command = line.strip().lower()
        if command.startswith("/") and command not in ("/memories", "/help", "/end"):
            console.print(f"[red]Unknown command {escape(line.strip())}: /memories, /end, /help, /exit or /quit.[/]")
            continue
        if agent is None:
            agent = agent_for()
            _print_memory_off(console, agent, user)
        # Start-up laziness: the agent module imports LangGraph; by now the agent is open anyway.
        from memory_agent.app.agent import InputError, PendingApprovalError

        if command == "/memories":
            print_live_table(console, agent, user)
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
            run_turn(console, agent, user, thread, line)
        except (InputError, PendingApprovalError) as exc:
            console.print(f"[red]{escape(str(exc))}[/]")
        except (DataDirError, StoreError, ValueError, sqlite3.DatabaseError):
            raise
        except Exception as exc:
            if is_provider_error(exc):
                raise
            console.print(f"[red]The turn failed: {escape(type(exc).__name__)}: {escape(str(exc))}[/]")
            console.print("[dim]The turn did not finish; the chat goes on. Send the message again.[/]")


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

    Inside the chat: /memories lists your memories; /end ends the conversation and writes its summary
    (session memory); /exit or /quit (or Ctrl-D) leaves without ending it (continue later with --thread).
    At a terminal, a pasted block of several lines is one message (Enter sends it); from a pipe, each
    line is one message. Global options (--model, --data-dir, --embedder, --approval) go before
    "chat": memory-agent --model local chat --user U.
    """
    console = get_console()
    with handle_errors(console):
        require_user(user)
        if thread is not None and not thread.strip():
            raise UsageError("The thread id is empty: leave --thread out to start a new conversation.")
        settings = settings_from(ctx)
        DataDir(settings.data_dir).close()  # fail fast (locked, not writable) before the user types
        new_thread = thread is None
        thread = thread or uuid.uuid4().hex
        resume = resume_command(user, thread, explicit_options(ctx))
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
        elif settings.model.strip().split(":", 1)[0] == "local":
            console.print("[yellow]Model: local (Gemma 3 270M), a test adversary, not a chat model: it does not "
                          "follow the system prompt and takes minutes per turn on a small CPU (docs/models.md).[/]",
                          soft_wrap=True)
        if agent is not None:
            _print_memory_off(console, agent, user)
        console.print("[dim]/memories lists your memories · /end ends the conversation and writes its summary · "
                      "/exit leaves · a pasted block of lines is one message[/]")
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


