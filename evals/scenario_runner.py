"""Replay scenarios through the real graph, memory on or off, and score their probes.

Sessions of user turns run first, each a new thread at its own clock; then probe questions, each in
a fresh thread, are checked (:mod:`memory_agent.evals.scenario_checks`) on the memories injected for
the probe, on the answer and, optionally, on the user's live memories after all sessions (``store``;
one more probe, memory on only). The file format is :mod:`memory_agent.evals.scenario_format`.

>>> factory = make_agent_factory()                                     # doctest: +SKIP
>>> on = run_scenarios("evals/scenarios/examples.jsonl", agent_factory=factory, memory=True)   # doctest: +SKIP
>>> off = run_scenarios("evals/scenarios/examples.jsonl", agent_factory=factory, memory=False)  # doctest: +SKIP
>>> render_comparison(on, off, Console())  # from scenario_report        # doctest: +SKIP

Every scenario runs against a fresh store: a new temporary data folder per scenario and per
memory mode, so memory-on and memory-off runs never share anything. All agents share one chat
model and one embedder (loading the embedder takes seconds), passed in by the ``agent_factory``.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path

from memory_agent.app.agent import MemoryAgent, TurnResult
from memory_agent.app.settings import Settings
from memory_agent.evals.scenario_checks import check_expect, check_store
from memory_agent.evals.scenario_format import Scenario, load_scenarios
from memory_agent.evals.scenario_results import (
    STORE_PROBE_ID,
    ProbeResult,
    ScenarioReport,
    ScenarioResult,
    SessionResult,
    TurnRecord,
)
from memory_agent.evals.token_count import count_tokens
from memory_agent.models.chat import load_chat_model
from memory_agent.models.embeddings import load_embedder
from memory_agent.models.errors import ModelError

__all__ = ["AgentFactory", "injected_items", "make_agent_factory", "run_scenario", "run_scenarios"]

AgentFactory = Callable[[Path], MemoryAgent]
"""Opens a :class:`MemoryAgent` on the given (empty) data folder."""


def make_agent_factory(settings: Settings | None = None, *, model=None, embedder=None) -> AgentFactory:
    """A factory that opens agents on embedded stores, all sharing one chat model and one embedder.

    Args:
        settings: model, embedder and ``top_k`` to use; ``None`` means the built-in defaults
            (offline model, all-MiniLM-L6-v2), not read from the environment. ``data_dir`` is
            replaced by the folder given to the factory, and ``chroma_url`` is cleared: evaluations
            always run on embedded stores in their own folders.
        model: a chat model to reuse (default: built once from ``settings.model``).
        embedder: an ``EmbedderInfo`` to reuse (default: loaded once from ``settings.embedder``).
    """
    settings = settings if settings is not None else Settings.model_construct()
    model = model if model is not None else load_chat_model(settings.model, base_url=settings.openai_base_url)
    embedder = embedder if embedder is not None else load_embedder(settings.embedder,
                                                                   openai_base_url=settings.openai_base_url)

    def factory(data_dir: Path) -> MemoryAgent:
        run_settings = settings.model_copy(update={"data_dir": Path(data_dir), "chroma_url": None})
        return MemoryAgent.open(run_settings, model=model, embedder=embedder)

    factory.model = model  # type: ignore[attr-defined]
    factory.embedder = embedder  # type: ignore[attr-defined]
    return factory


def _merge_seconds(into: dict[str, float], more: dict[str, float]) -> None:
    for node, sec in more.items():
        into[node] = into.get(node, 0.0) + sec


def _record_committed(agent: MemoryAgent, user_id: str, committed: list[dict], rec: TurnRecord) -> None:
    for c in committed:
        op, action, content = c.get("operation"), c.get("action"), str(c.get("content") or "")
        if action == "reject":
            rec.rejected.append({"operation": str(op), "content": content})
        elif op == "ADD":
            rec.remembered.append(content)
        elif op == "UPDATE":
            old = agent.memory.show(user_id, c["target_id"]) if c.get("target_id") else None
            rec.superseded.append({"old": old.content if old else "?", "new": content})
        elif op == "RETRACT":
            rec.retracted.append(content)


def _record_dropped(dropped: list[dict], rec: TurnRecord) -> None:
    for d in dropped:
        rec.dropped.append({"content": str((d.get("proposal") or {}).get("content")),
                            "decision": str(d.get("decision")), "reason": str(d.get("reason", ""))})


def injected_items(result: TurnResult) -> list[dict]:
    """Everything the turn put into the prompt from memory, each item with the ``block`` it came
    in: ``"memories"`` (retrieved facts) or ``"session"`` (profile, summaries, procedural facts,
    episodes; the item's ``label`` says which). SCENARIOS.md counts every memory-bearing block as
    injected, so a stale value cannot hide in a side channel."""
    return ([{**m, "block": "memories"} for m in result.memories]
            + [{**m, "block": "session"} for m in result.session])


def _run_turn(agent: MemoryAgent, user_id: str, text: str, *, thread_id: str, now: datetime, memory: bool,
              approve: bool) -> tuple[TurnResult, TurnRecord]:
    """One turn; with ``approve`` False, pending proposals are rejected by resuming the thread."""
    rec = TurnRecord(at=now, text=text)
    result = agent.turn(user_id, text, thread_id=thread_id, now=now, approval="never" if approve else "always",
                        memory=memory)
    rec.answer, rec.injected = result.answer, [str(m.get("content", "")) for m in injected_items(result)]
    _merge_seconds(rec.node_seconds, result.node_seconds)
    _record_dropped(result.dropped, rec)
    committed = list(result.committed)
    if result.pending:
        resumed = agent.resume(user_id, thread_id, "reject", now=now)
        _merge_seconds(rec.node_seconds, resumed.node_seconds)
        committed += resumed.committed
    _record_committed(agent, user_id, committed, rec)
    return result, rec


def run_scenario(scenario: Scenario, agent: MemoryAgent, *, memory: bool) -> ScenarioResult:
    """Replay one scenario on ``agent`` (whose store must be fresh) and score its probes.

    Sessions: each a new thread; turn ``i`` at ``session.at + i`` seconds; ``approve: "all"`` runs
    with approval ``never`` (auto-approve), ``"none"`` with ``always`` and rejects whatever is pending.
    Probes: each a fresh thread as ``probe.user_id or scenario.user_id`` at ``probe.at``, with
    approval ``always``; any proposal is rejected, so probes never change the store. Store checks
    run after the sessions, before the probes, with memory on only, on the facts live one second
    after the last turn (confirmed and not past their ``valid_until``). Exceptions propagate.
    """
    mode = "on" if memory else "off"
    result = ScenarioResult(id=scenario.id, tags=list(scenario.tags), user_id=scenario.user_id, memory=memory)
    for i, session in enumerate(scenario.sessions, start=1):
        thread = f"{scenario.id}:session{i}:{mode}"
        sres = SessionResult(index=i, at=session.at, approve=session.approve, thread_id=thread)
        result.sessions.append(sres)
        for j, text in enumerate(session.turns):
            _, rec = _run_turn(agent, scenario.user_id, text, thread_id=thread, now=session.at + timedelta(seconds=j),
                               memory=memory, approve=session.approve == "all")
            sres.turns.append(rec)
    # live as the store keeps it one second after the last turn: a fact past its valid_until is never injected
    # and `maintain` marks it expired, as a superseded or retracted fact is kept inactive
    clock = scenario.sessions[-1].at + timedelta(seconds=len(scenario.sessions[-1].turns)) if scenario.sessions \
        else None
    result.live = [f.content for f in agent.memory.live(scenario.user_id) if clock is None or f.is_valid_at(clock)]
    if memory and scenario.store is not None:
        failed = check_store(scenario.store, result.live)
        result.probes.append(ProbeResult(id=STORE_PROBE_ID, question="(live memories after all sessions)",
                                         user_id=scenario.user_id, passed=not failed, failed=failed,
                                         needs_memory=scenario.store.live_any is not None))
    users = sorted({scenario.user_id} | {p.user_id for p in scenario.probes if p.user_id})
    before = {u: [f.id for f in agent.memory.live(u)] for u in users}
    for k, probe in enumerate(scenario.probes, start=1):
        user = probe.user_id or scenario.user_id
        thread = f"{scenario.id}:probe{k}:{mode}"
        turn, rec = _run_turn(agent, user, probe.question, thread_id=thread, now=probe.at, memory=memory,
                              approve=False)
        injected = injected_items(turn) if memory else []
        contents = [str(m.get("content", "")) for m in injected]
        failed = check_expect(probe.expect, contents, turn.answer)
        result.probes.append(ProbeResult(
            id=f"probe{k}", question=probe.question, user_id=user, passed=not failed, failed=failed,
            needs_memory=probe.expect.needs_memory, answer=turn.answer, injected=injected,
            injected_tokens=count_tokens("\n".join(contents)), node_seconds=rec.node_seconds,
        ))
    result.store_changed_by_probes = before != {u: [f.id for f in agent.memory.live(u)] for u in users}
    return result


def _crashed(scenario: Scenario, memory: bool, exc: BaseException, partial: ScenarioResult | None) -> ScenarioResult:
    res = partial or ScenarioResult(id=scenario.id, tags=list(scenario.tags), user_id=scenario.user_id, memory=memory)
    res.error = f"{type(exc).__name__}: {exc}"
    done = {p.id for p in res.probes}
    expected = ([STORE_PROBE_ID] if memory and scenario.store is not None else []) + \
        [f"probe{k}" for k in range(1, len(scenario.probes) + 1)]
    questions = {f"probe{k}": p.question for k, p in enumerate(scenario.probes, start=1)}
    for pid in expected:
        if pid not in done:
            res.probes.append(ProbeResult(id=pid, question=questions.get(pid, "(store)"), user_id=scenario.user_id,
                                          passed=False, failed=[f"not run: {res.error}"]))
    return res


def run_scenarios(
    path_or_scenarios: str | Path | Sequence[Scenario],
    *,
    agent_factory: AgentFactory,
    memory: bool,
    workdir: str | Path | None = None,
    on_result: Callable[[ScenarioResult], None] | None = None,
) -> ScenarioReport:
    """Replay every scenario through the real graph and score it (see :func:`run_scenario`).

    Args:
        path_or_scenarios: a scenario file (SCENARIOS.md format) or already loaded scenarios.
        agent_factory: opens a :class:`MemoryAgent` on a data folder (see :func:`make_agent_factory`).
        memory: long-term memory on (``True``) or off (``memory=False`` on every run).
        workdir: where the per-scenario data folders go (default: a temporary folder, removed after).
        on_result: called with each :class:`ScenarioResult` as it is done (progress display).

    Returns:
        A :class:`ScenarioReport`. A scenario whose replay raises is recorded with ``error`` set and
        all its probes failed; the run goes on.

    Raises:
        ScenarioFormatError / FileNotFoundError: the file cannot be loaded.
        memory_agent.models.errors.ModelError: the chat model cannot serve as configured, e.g. a
            ``replay:`` model met a prompt with no recording (the run stops: its figures would mean nothing).
    """
    if isinstance(path_or_scenarios, str | Path):
        source = str(path_or_scenarios)
        scenarios = load_scenarios(path_or_scenarios)
    else:
        source = "<scenarios>"
        scenarios = list(path_or_scenarios)
    started = time.perf_counter()
    results: list[ScenarioResult] = []
    with tempfile.TemporaryDirectory(prefix="memory-agent-evals-") as tmp:
        root = Path(workdir) if workdir is not None else Path(tmp)
        for n, scenario in enumerate(scenarios, start=1):
            t0 = time.perf_counter()
            data_dir = root / f"{n:03d}-{'on' if memory else 'off'}"
            agent = None
            partial: ScenarioResult | None = None
            try:
                agent = agent_factory(data_dir)
                partial = run_scenario(scenario, agent, memory=memory)
                res = partial
            except ModelError:  # a model that cannot serve as configured (a stale replay recording) stops the run
                raise
            except Exception as exc:  # one broken scenario must not stop the evaluation
                res = _crashed(scenario, memory, exc, partial)
            finally:
                if agent is not None:
                    agent.close()
            res.seconds = time.perf_counter() - t0
            results.append(res)
            if on_result is not None:
                on_result(res)
    return ScenarioReport(memory=memory, source=source, scenarios=results, seconds=time.perf_counter() - started)
