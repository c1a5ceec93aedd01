"""``MemoryAgent``: the compiled graph on its stores, with input checks, for the CLI, evals and notebooks.

>>> agent = MemoryAgent.open(Settings(data_dir="/tmp/demo"))          # doctest: +SKIP
>>> result = agent.turn("alice", "I'm vegetarian.", thread_id="t1")    # doctest: +SKIP
>>> result.pending                  # proposals waiting at the approval interrupt  # doctest: +SKIP
>>> agent.resume("alice", "t1", "approve")                             # doctest: +SKIP
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.types import Command

from memory_agent.app.async_turns import AsyncTurns
from memory_agent.app.checkpoints import AgentTranscripts, checkpoint_thread_id, store_errors
from memory_agent.app.settings import Settings
from memory_agent.app.turns import (
    ANSWER_TOKEN,
    InputError,
    PendingApprovalError,
    TurnResult,
    stream_events,
    whole_answer,
)
from memory_agent.app.wiring import open_stores
from memory_agent.core.facts import stable_id
from memory_agent.graph.builder import build_graph
from memory_agent.graph.context import AgentContext, user_id_problem
from memory_agent.memory.review import approval_request
from memory_agent.memory.sessions import summary_row
from memory_agent.models.chat import load_chat_model
from memory_agent.models.embeddings import EmbedderInfo, load_embedder
from memory_agent.nodes.human_approval import parse_decisions
from memory_agent.stores.base import StoreError
from memory_agent.stores.long_term import LongTermMemory
from memory_agent.stores.session_memory import rendered_summary


def _check_thread(thread_id: object) -> str:
    if not isinstance(thread_id, str) or not thread_id.strip():
        raise InputError(f"The thread id must be a non-blank string, not {thread_id!r}.")
    return thread_id


class MemoryAgent(AsyncTurns):
    """The agent graph with its checkpointer and long-term memory.

    Build with :meth:`open` (embedded defaults from :class:`Settings`) or pass the parts. The async
    twins :meth:`aturn`, :meth:`aresume`, :meth:`astream_turn` (``memory_agent.app.async_turns``) run
    the same graph with ``ainvoke``/``astream`` on the same stores.
    """

    def __init__(self, memory: LongTermMemory, model, checkpointer, settings: Settings, closers=()):
        self.memory = memory
        self.model = model
        self.settings = settings
        self.checkpointer = checkpointer
        self.graph = build_graph(memory, model, checkpointer, max_tool_rounds=settings.max_tool_rounds)
        self.checkpoint_file: str | None = None  # the embedded checkpointer's file (the async saver opens it)
        self._async_graphs: dict = {}  # event loop -> (graph on its async saver, aclose)
        self._closers = list(closers)
        self._compactors: list = []
        self.repaired: list[dict] = []  # the half-done writes :meth:`open` finished (LongTermMemory.repair)
        # the erasing writes of long-term memory also clear working memory, through this
        memory.transcripts = AgentTranscripts(checkpointer, self.rewind_thread, self.compact_embedded_stores)

    @classmethod
    def open(cls, settings: Settings | None = None, *, model=None, embedder: EmbedderInfo | None = None) -> MemoryAgent:
        """Load the chat model and embedder the settings name (unless given), open the stores
        (:func:`memory_agent.app.wiring.open_stores`: embedded in ``settings.data_dir`` by default,
        Postgres and a Chroma server when configured) and build the graph.

        Raises:
            memory_agent.stores.data_dir.DataDirError: the folder is not writable or another process holds it.
            memory_agent.stores.base.StoreError: a store is corrupt or down.
            memory_agent.models.chat.ModelError: the chat model cannot be built.
            ValueError: unknown embedder.
        """
        settings = settings or Settings()
        model = model if model is not None else load_chat_model(settings.model, base_url=settings.openai_base_url)
        embedder = embedder or load_embedder(settings.embedder, openai_base_url=settings.openai_base_url,
                                               runtime=settings.embedder_runtime, threads=settings.embedder_threads)
        stores = open_stores(settings, embedder)
        agent = cls(stores.memory, model, stores.checkpointer, settings, closers=stores.closers)
        agent._compactors = stores.compactors
        agent.checkpoint_file = stores.checkpoint_file
        try:  # finish the writes a process that died (or lost a store) left half-done
            agent.repaired = agent.memory.repair()
        except BaseException:
            agent.close()
            raise
        return agent

    def compact_embedded_stores(self) -> None:
        """Rewrite the embedded SQLite files (ledger + checkpoints, and Chroma's own file) so text
        that was deleted does not linger in freed pages or write-ahead logs, and remove the vector
        folders of deleted Chroma collections. Used after erasing a user; a no-op for server stores."""
        for compact in self._compactors:
            compact()

    def close(self) -> None:
        """Close the stores and release the data folder (call :meth:`aclose` first in async code)."""
        self._drop_async_graphs()
        for close in self._closers:
            close()
        self._closers = []

    def __enter__(self) -> MemoryAgent:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------------------------
    def _context(self, user_id: str, thread_id: str, now: datetime | None, approval: str | None,
                 memory: bool) -> AgentContext:
        problem = user_id_problem(user_id)
        if problem:
            raise InputError(problem)
        try:
            return AgentContext(user_id=user_id, now=now, approval=approval or self.settings.approval,
                                memory_enabled=memory, thread_id=_check_thread(thread_id))
        except ValueError as exc:
            raise InputError(str(exc)) from exc

    def _config(self, user_id: str, thread_id: str) -> dict:
        return {"configurable": {"thread_id": checkpoint_thread_id(user_id, _check_thread(thread_id))}}

    def _state(self, user_id: str, thread_id: str) -> tuple[list[dict], bool]:
        """One checkpoint read: ``(pending proposals, unfinished)``."""
        with store_errors():
            snapshot = self.graph.get_state(self._config(user_id, thread_id))
        for intr in snapshot.interrupts or ():
            proposals = _asked(intr.value, snapshot.values)
            if proposals is not None:
                return proposals, False
        return [], bool(snapshot.next) and not snapshot.interrupts

    def approval_request(self, user_id: str, thread_id: str) -> dict | None:
        """The pending approval of this thread as its interrupt shows it (a ``HITLRequest`` with
        ``refused``, see :mod:`memory_agent.memory.review`), or ``None`` when nothing is pending."""
        with store_errors():
            snapshot = self.graph.get_state(self._config(user_id, thread_id))
        for intr in snapshot.interrupts or ():
            proposals = _asked(intr.value, snapshot.values)
            if proposals:
                return dict(intr.value) if "action_requests" in intr.value else approval_request(
                    proposals, intr.value.get("refused") or ())
        return None

    def check_message(self, text: str) -> str:
        """Return the message stripped, or raise :class:`InputError` (empty, or over the cap)."""
        if not isinstance(text, str) or not text.strip():
            raise InputError("The message is empty: type something to send.")
        if len(text) > self.settings.max_message_chars:
            raise InputError(
                f"The message has {len(text):,} characters; the limit is {self.settings.max_message_chars:,} "
                "(MEMORY_AGENT_MAX_MESSAGE_CHARS). Shorten it or split it."
            )
        return text.strip()

    def pending(self, user_id: str, thread_id: str) -> list[dict]:
        """Proposals waiting at this thread's approval interrupt ([] when none)."""
        return self._state(user_id, thread_id)[0]

    def unfinished(self, user_id: str, thread_id: str) -> bool:
        """True when a turn of this thread stopped between nodes (a crash or Ctrl-C), not at an approval."""
        return self._state(user_id, thread_id)[1]

    def finish_interrupted(self, user_id: str, thread_id: str, *, now: datetime | None = None) -> TurnResult | None:
        """Run the remaining nodes of a turn that stopped between nodes, from its last checkpoint,
        up to the approval interrupt or the end, under the policy the turn started with (approval
        mode, memory on/off). ``None`` when nothing was unfinished."""
        if not self.unfinished(user_id, thread_id):
            return None
        ctx = self._context(user_id, thread_id, now, None, True)
        result = self._collect(self._stream(None, self._config(user_id, thread_id), ctx), TurnResult())
        result.pending = self.pending(user_id, thread_id)
        return result

    def threads(self, user_id: str) -> list[dict]:
        """The user's threads, oldest first: ``{"thread_id", "pending": int, "unfinished": bool}``."""
        out = []
        for thread_id in self.memory.ledger.threads(user_id):
            pending, unfinished = self._state(user_id, thread_id)
            out.append({"thread_id": thread_id, "pending": len(pending), "unfinished": unfinished})
        return out

    def stream_turn(
        self, user_id: str, text: str, *, thread_id: str | None = None, now: datetime | None = None,
        approval: str | None = None, memory: bool = True, tokens: bool = False,
    ) -> Iterator[tuple[str, dict, float]]:
        """Run one turn and yield ``(node, update, seconds)`` as each node finishes (``answer`` and
        ``tools`` once per tool round). With ``tokens``, also ``(ANSWER_TOKEN, {"text": piece}, 0.0)``
        for each piece of text the model streams in the ``answer`` node (LangGraph's ``messages``
        stream mode; a model that does not stream gives its whole reply as one piece, before the
        ``answer`` update).

        Raises:
            InputError: empty or oversized message, blank user id.
            PendingApprovalError: the thread waits at an approval (resume it first).
        """
        yield from self._stream(*self._begin_turn(user_id, text, thread_id, now, approval, memory), tokens=tokens)

    def _begin_turn(self, user_id: str, text: str, thread_id: str | None, now: datetime | None,
                    approval: str | None, memory: bool) -> tuple[dict, dict, AgentContext]:
        """Check a new turn and record its thread; returns the graph's ``(input, config, context)``."""
        thread_id = thread_id or uuid.uuid4().hex
        if memory and isinstance(user_id, str) and user_id.strip():
            memory = self.memory.ledger.memory_enabled(user_id)  # the user's own switch (memories ... off)
        ctx = self._context(user_id, thread_id, now, approval, memory)
        text = self.check_message(text)
        pending, unfinished = self._state(user_id, thread_id)
        if pending:
            raise PendingApprovalError(
                f"Thread {thread_id!r} waits for an approval; answer it before sending a new message."
            )
        if unfinished:
            raise PendingApprovalError(
                f"Thread {thread_id!r} has a turn that stopped half-way; call finish_interrupted() first."
            )
        if ctx.memory_enabled and thread_id not in self.memory.ledger.thread_activity(user_id):
            self.summarize_ended_sessions(user_id, ctx.clock(), keep_open=thread_id)  # a new session starts
        self.memory.ledger.remember_thread(user_id, thread_id, ctx.clock())
        self.memory.ledger.touch_thread(user_id, thread_id, ctx.clock())
        return ({"messages": [HumanMessage(content=text, id=uuid.uuid4().hex)]}, self._config(user_id, thread_id),
                ctx)

    def _stream(self, payload, config, ctx, tokens: bool = False) -> Iterator[tuple[str, dict, float]]:
        """Run the graph; a write left half-done by an earlier store error is finished first, and a
        store error now makes the next run finish what this one left (``LongTermMemory.repair``).
        ``tokens``: also yield the answer node's streamed pieces (see :meth:`stream_turn`)."""
        last = time.perf_counter()
        modes = ["updates", "messages"] if tokens else ["updates"]
        try:
            with store_errors():
                self.memory.repair_if_due()
                modes = ["updates", "messages"] if tokens else ["updates"]
                streamed = False
                for part in self.graph.stream(payload, config=config, context=ctx, stream_mode=modes):
                    now = time.perf_counter()
                    events = stream_events(part)
                    if part[0] == "messages" and not events and not streamed:
                        # a model that does not stream: its whole reply, once (after streamed pieces the
                        # node's returned message repeats them and is skipped)
                        events = whole_answer(part)
                    streamed = streamed or any(node == ANSWER_TOKEN for node, _ in events)
                    if any(node == "answer" for node, _ in events):
                        streamed = False  # the next tool round's answer is a new message
                    for node, update in events:
                        yield node, update, 0.0 if node == ANSWER_TOKEN else now - last
                    if any(node != ANSWER_TOKEN for node, _ in events):
                        last = now
        except StoreError:
            self.memory.mark_repair_due()
            raise

    def _collect(self, events, result: TurnResult) -> TurnResult:
        for node, update, seconds in events:
            if node.startswith("__") or node == ANSWER_TOKEN:
                continue
            result.node_seconds[node] = result.node_seconds.get(node, 0.0) + seconds
            if node == "answer":
                msgs = [m for m in update.get("messages", []) if isinstance(m, AIMessage)]
                result.answer = msgs[-1].content if msgs else ""
            elif node == "load_memory":
                result.memories = update.get("memories", [])
                result.memories_left_out = update.get("memories_left_out", 0)
                result.session = update.get("session", [])
            elif node == "propose_facts":
                result.dropped = update.get("dropped", [])
            elif node == "commit":
                result.committed = update.get("committed", [])
        return result

    def turn(self, user_id: str, text: str, *, thread_id: str | None = None, now: datetime | None = None,
             approval: str | None = None, memory: bool = True) -> TurnResult:
        """Run one turn to its end or to the approval interrupt. See :meth:`stream_turn`."""
        thread_id = thread_id or uuid.uuid4().hex
        result = self._collect(self.stream_turn(user_id, text, thread_id=thread_id, now=now, approval=approval,
                                                memory=memory), TurnResult())
        result.pending = self.pending(user_id, thread_id)
        return result

    def resume(self, user_id: str, thread_id: str, decisions: Any, *, now: datetime | None = None) -> TurnResult:
        """Answer the pending approval of a thread: a ``HITLResponse`` ``{"decisions": [...]}``, one
        decision per proposal of :meth:`pending` in that order (``memory_agent.memory.review``;
        ``review.hitl_response`` builds one from decisions held by proposal id), or one of the earlier
        forms ``memory_agent.nodes.human_approval`` lists.

        The turn keeps the approval mode and memory switch it started with; ``now`` is the clock
        of the writes.

        Raises:
            InputError: nothing is pending in this thread.
            ValueError: a malformed decision (the thread stays at the approval).
        """
        ctx = self._context(user_id, thread_id, now, None, True)
        pending = self.pending(user_id, thread_id)
        if not pending:
            raise InputError(f"Thread {thread_id!r} has no pending approval.")
        parse_decisions(decisions, pending)  # raises before anything runs
        result = self._collect(self._stream(Command(resume=decisions), self._config(user_id, thread_id), ctx),
                               TurnResult())
        result.pending = self.pending(user_id, thread_id)
        return result

    def _drop_async_graphs(self) -> None:
        """Forget the async graphs; their savers' connections are closed by :meth:`aclose`."""
        self._async_graphs.clear()

    def end_session(self, user_id: str, thread_id: str, *, now: datetime | None = None) -> dict | None:
        """End a thread (``/end`` in chat): write its session summary — the thread id, its first and
        last turn, and the ids of the facts committed from it, no text (see
        ``memory_agent.memory.sessions``) — and audit it at ``now``. Returns the row with ``text``,
        the summary rendered from the live facts at ``now``; ``None`` when the thread has no turn
        yet or the user's memory is off. Ending twice replaces the summary."""
        ctx = self._context(user_id, thread_id, now, None, True)
        if not self.memory.ledger.memory_enabled(user_id):
            return None
        activity = self.memory.ledger.thread_activity(user_id).get(thread_id)
        if activity is None or not self.transcript(user_id, thread_id):
            return None
        row = summary_row(user_id, thread_id, self.memory.ledger.facts(user_id), activity[0], activity[1])
        self.memory.save_summary(row, {  # journaled: never a summary without its audit row
            "id": stable_id(user_id, thread_id, "summary", ctx.clock().isoformat(), prefix="a_"), "user_id": user_id,
            "thread_id": thread_id, "at": ctx.clock(), "operation": "SUMMARY", "decision": "written",
            "decided_by": "session end", "reason": f"{len(row['fact_ids'])} approved fact(s) of the session",
        })
        return rendered_summary(self.memory.ledger, row, ctx.clock())

    def summarize_ended_sessions(self, user_id: str, now: datetime, keep_open: str | None = None) -> list[dict]:
        """Write a summary for every thread of the user with turns after its last summary (the
        user started another session, so those ended); ``keep_open`` is the thread starting now."""
        done = {s["thread_id"]: s["ended_at"] for s in self.memory.ledger.summaries(user_id)}
        out = []
        for thread_id, (_first, last) in self.memory.ledger.thread_activity(user_id).items():
            if thread_id == keep_open or (thread_id in done and str(done[thread_id]) >= last.isoformat()):
                continue
            row = self.end_session(user_id, thread_id, now=now)
            if row is not None:
                out.append(row)
        return out

    def rewind_thread(self, user_id: str, thread_id: str, before: datetime) -> int | None:
        """Rewind a thread to its last finished turn that started before ``before`` (context clock),
        dropping every later turn (finished, cut short or waiting at an approval) from the transcript
        and the checkpointer. Returns ``None`` when the thread has no turn in that window, else the
        number of turns dropped. With no finished turn before ``before`` among the checkpoints the
        thread is deleted. Turns without a recorded time (``turn.at``) are never counted."""
        config = self._config(user_id, thread_id)
        key = config["configurable"]["thread_id"]
        cut = before.isoformat()

        def started(snapshot) -> str:
            return str((snapshot.values.get("turn") or {}).get("at") or "")

        history = list(self.graph.get_state_history(config))  # newest first
        window = {started(s) for s in history if started(s) >= cut}
        if not window:
            return None
        keep = next((s for s in history if not s.next and started(s) and started(s) < cut), None)
        saved = self.checkpointer.get_tuple(keep.config) if keep is not None else None
        self.checkpointer.delete_thread(key)
        if saved is not None:
            self.checkpointer.put({"configurable": {"thread_id": key, "checkpoint_ns": ""}}, saved.checkpoint,
                                  saved.metadata, saved.checkpoint["channel_versions"])
        return len(window)

    def prune_checkpoints(self, user_id: str) -> list[dict]:
        """Keep only the latest checkpoint of each finished thread of the user (what reading the
        transcript or continuing the thread needs); threads waiting at an approval or cut short
        are left alone. Uses the checkpointer's ``prune(..., strategy="keep_latest")`` when it has
        one (Postgres); otherwise re-writes the latest checkpoint after ``delete_thread`` (SQLite).
        Returns ``[{"thread_id", "removed": number of checkpoints}]`` for threads that changed."""
        out = []
        for thread_id in self.memory.ledger.threads(user_id):
            pending, unfinished = self._state(user_id, thread_id)
            if pending or unfinished:
                continue
            config = self._config(user_id, thread_id)
            count = sum(1 for _ in self.checkpointer.list(config))
            if count <= 1:
                continue
            try:
                self.checkpointer.prune([config["configurable"]["thread_id"]], strategy="keep_latest")
            except NotImplementedError:
                latest = self.checkpointer.get_tuple(config)
                if latest is None or latest.pending_writes:
                    continue
                self.checkpointer.delete_thread(config["configurable"]["thread_id"])
                self.checkpointer.put({"configurable": {**config["configurable"], "checkpoint_ns": ""}},
                                      latest.checkpoint, latest.metadata, latest.checkpoint["channel_versions"])
            out.append({"thread_id": thread_id, "removed": count - sum(1 for _ in self.checkpointer.list(config))})
        return out

    def transcript(self, user_id: str, thread_id: str) -> list:
        """The thread's messages (working memory) from the checkpointer."""
        return list(self.graph.get_state(self._config(user_id, thread_id)).values.get("messages", []))


def _asked(value: Any, values: dict) -> list[dict] | None:
    """The proposals an approval interrupt asks about, in action order (``None``: not an approval):
    a ``HITLRequest`` names them by ``args["proposal_id"]`` in the state's ``proposals``; an interrupt
    written by an earlier release carries them as ``proposals``."""
    if not isinstance(value, dict):
        return None
    if "proposals" in value:
        return list(value["proposals"])
    if "action_requests" not in value:
        return None
    by_id = {p["id"]: p for p in values.get("proposals") or []}
    return [by_id[a["args"]["proposal_id"]] for a in value["action_requests"] if a["args"].get("proposal_id") in by_id]
