"""Results of a scenario run: per turn, session, probe and scenario, and the report of one memory
mode with its summary statistics (probes passed per tag, memories stored, injected tokens, node latency)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memory_agent.evals.token_count import token_encoding_name

__all__ = [
    "NODE_ORDER",
    "STORE_PROBE_ID",
    "ProbeResult",
    "ScenarioReport",
    "ScenarioResult",
    "SessionResult",
    "TurnRecord",
]

NODE_ORDER = ("load_memory", "answer", "tools", "propose_facts", "human_approval", "commit")
"""Graph nodes in the order they run: the order of the latency rows."""
STORE_PROBE_ID = "store"
"""The :attr:`ProbeResult.id` of a scenario's ``store`` checks."""


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

    ``injected`` holds everything injected from memory: retrieved facts (dicts with id, kind, content,
    score…, ``block`` = ``"memories"``) and session lines (label, content, ``block`` = ``"session"``);
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
