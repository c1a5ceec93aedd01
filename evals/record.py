"""Record model output for the replay model (``--model replay:FILE``, :mod:`memory_agent.models.replay`).

A person or a fresh helper plays the model through ``../shared/tools/llm_bridge.py``, an
OpenAI-compatible endpoint whose answers are written by hand; every answered call lands in the
bridge's ``QUEUE/log.jsonl``. Two ways turn that into a recording file:

- :func:`record_scenarios` runs a scenario file's turns through the real graph, as ``memory-agent
  eval scenarios`` does with memory on (same threads, clocks, approvals and probes), with a model
  that answers from the recording file what is already recorded and sends the rest to the bridge,
  where each call waits for its answer. With ``answers="offline"`` (the default) only structured
  calls (the extraction) go to the bridge and the answers come from the offline stand-in; with
  ``answers="recorded"`` the answers go to the bridge too, and the memory-off run as well.
  When it stops (done or not) it adds to the recording file the bridge log's record of every
  prompt the run met; a prompt already in the log is not asked again, so an interrupted recording
  resumes where it stopped. The recording file gets only the calls of its scenario file.
- :func:`record_redteam` does the same for a red-team file (:mod:`memory_agent.evals.redteam`).
- :func:`convert_log` merges a whole bridge log into a recording file (by prompt key; a later
  answer to the same prompt replaces an earlier one).

Replay with the same ``answers`` choice: ``--model 'replay:FILE?answers=offline'``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import httpx

from memory_agent.app.settings import Settings
from memory_agent.evals.redteam import ItemResult, load_redteam, run_redteam
from memory_agent.evals.scenario_format import load_scenarios
from memory_agent.evals.scenario_results import ScenarioResult
from memory_agent.evals.scenario_runner import make_agent_factory, run_scenarios
from memory_agent.models.replay import ReplayChatModel, load_recordings, records_from_log, save_recordings

__all__ = ["ConvertResult", "RecordError", "RecordResult", "bridge_model", "convert_log", "record_redteam",
           "record_scenarios"]

#: Seconds the recorder waits for one answer (the bridge itself gives up after its own ``--wait``,
#: 900 s by default; start it with a longer ``--wait`` for slow hands).
ANSWER_TIMEOUT = 3600.0


class RecordError(ValueError):
    """The recording cannot start or go on (no bridge at the URL, an unreadable log); the message
    says what to do."""


@dataclass
class ConvertResult:
    """What :func:`convert_log` did: records ``added`` and ``replaced`` (a new answer to a recorded
    prompt), ``total`` records in the file afterwards."""

    added: int = 0
    replaced: int = 0
    total: int = 0


@dataclass
class RecordResult:
    """What :func:`record_scenarios` did: calls answered from the file (``recorded``), calls sent to
    the bridge (``asked``), scenario runs that ended with an error, and the final conversion."""

    recorded: int
    asked: int
    errors: list[str]
    converted: ConvertResult


def convert_log(log: Path, fixtures: Path) -> ConvertResult:
    """Merge the records of a bridge log into ``fixtures`` (created when missing; its other records
    stay, in their order; new ones are appended).

    Raises:
        RecordError: the log is missing or has a line that is not a bridge log entry.
        memory_agent.models.errors.ModelError: ``fixtures`` exists but is not a recording file.
    """
    if not Path(log).is_file():
        raise RecordError(f"No bridge log at {log}: the bridge writes QUEUE/log.jsonl once a call is answered.")
    try:
        new = records_from_log(Path(log))
    except ValueError as exc:
        raise RecordError(str(exc)) from exc
    records = load_recordings(fixtures) if Path(fixtures).is_file() else {}
    result = ConvertResult()
    for rec in new:
        old = records.get(rec["key"])
        if old is None:
            result.added += 1
        elif old["response"] != rec["response"]:
            result.replaced += 1
        records[rec["key"]] = rec
    save_recordings(fixtures, records.values())
    result.total = len(records)
    return result


def bridge_model(base_url: str, *, timeout: float = ANSWER_TIMEOUT):
    """A ``ChatOpenAI`` for the bridge at ``base_url`` (``http://127.0.0.1:PORT/v1``): no retries
    (a retry would queue the same call twice) and a long timeout (a hand answers it).

    Raises:
        RecordError: nothing answers ``GET {base_url}/models``.
    """
    from langchain_openai import ChatOpenAI  # lazy: the OpenAI client is only needed to record

    url = base_url.rstrip("/")
    try:
        httpx.get(f"{url}/models", timeout=10).raise_for_status()
    except httpx.HTTPError as exc:
        start = f"python ../shared/tools/llm_bridge.py serve --port PORT --queue QUEUE --wait {int(timeout)}"
        raise RecordError(f"No bridge answers at {url} ({type(exc).__name__}: {exc}). Start it: {start}") from exc
    return ChatOpenAI(model="bridge", base_url=url, api_key=os.environ.get("OPENAI_API_KEY") or "unused",
                      timeout=timeout, max_retries=0)


def _logged(log: Path) -> dict[str, dict]:
    if not log.is_file():
        return {}
    try:
        return {r["key"]: r for r in records_from_log(log)}
    except ValueError as exc:
        raise RecordError(str(exc)) from exc


def record_scenarios(
    file: Path,
    fixtures: Path,
    *,
    queue: Path,
    base_url: str,
    answers: Literal["offline", "recorded"] = "offline",
    settings: Settings | None = None,
    on_result: Callable[[ScenarioResult], None] | None = None,
    timeout: float = ANSWER_TIMEOUT,
) -> RecordResult:
    """Run ``file``'s scenarios through the real graph, memory on (and off with ``answers="recorded"``),
    sending every call not yet recorded to the bridge; then add to ``fixtures`` the bridge log's
    record of every prompt this run met that ``fixtures`` lacked (also when the run stops early).

    A prompt is looked up in ``fixtures`` first, then in ``queue/log.jsonl`` (an interrupted run
    resumes without asking again), and only then sent to the bridge. ``fixtures`` keeps its other
    records and gets no records of other runs that share the bridge's log.

    Args:
        file: a scenario file (SCENARIOS.md format).
        fixtures: the recording file to extend (created when missing).
        queue: the bridge's ``--queue`` folder (its ``log.jsonl`` is read).
        base_url: the bridge's URL, e.g. ``http://127.0.0.1:18080/v1``.
        answers: ``"offline"``: answers by the offline stand-in, only structured calls recorded;
            ``"recorded"``: every call recorded.
        settings: embedder and ``top_k`` as for ``eval scenarios`` (``model`` is ignored).
        on_result: called after each scenario run (progress display).

    Raises:
        RecordError: no bridge at ``base_url``, or an unreadable log.
        memory_agent.models.errors.ModelError: ``fixtures`` is not a recording file, or the bridge
            stopped answering mid-run (the run stops; what was answered is kept).
        FileNotFoundError, memory_agent.evals.scenario_format.ScenarioFormatError: a bad scenario file.
    """
    scenarios = load_scenarios(file)

    def run(factory) -> list[str]:
        errors: list[str] = []
        for memory in (True, False) if answers == "recorded" else (True,):
            report = run_scenarios(scenarios, agent_factory=factory, memory=memory, on_result=on_result)
            errors += [f"{r.id} (memory {'on' if memory else 'off'}): {r.error}" for r in report.scenarios if r.error]
        return errors

    return _record(run, fixtures, queue=queue, base_url=base_url, answers=answers, settings=settings,
                   timeout=timeout)


def record_redteam(
    file: Path,
    fixtures: Path,
    *,
    queue: Path,
    base_url: str,
    settings: Settings | None = None,
    on_result: Callable[[ItemResult], None] | None = None,
    timeout: float = ANSWER_TIMEOUT,
) -> RecordResult:
    """:func:`record_scenarios` for a red-team file (:mod:`memory_agent.evals.redteam`): every item's
    turns and its later "what do you remember" turn run as ``memory-agent eval redteam`` runs them,
    extraction calls sent to the bridge, answers by the offline stand-in (replay with
    ``replay:FILE?answers=offline``).

    Raises:
        RecordError, memory_agent.models.errors.ModelError: as :func:`record_scenarios`.
        FileNotFoundError, ValueError: a bad red-team file.
    """
    load_redteam(file)  # a bad file fails before anything is asked

    def run(factory) -> list[str]:
        report = run_redteam(file, agent_factory=factory, on_result=on_result)
        return [f"{r.id}: {r.error}" for r in report.items if r.error]

    return _record(run, fixtures, queue=queue, base_url=base_url, answers="offline", settings=settings,
                   timeout=timeout)


def _record(run: Callable[[Callable], list[str]], fixtures: Path, *, queue: Path, base_url: str,
            answers: Literal["offline", "recorded"], settings: Settings | None, timeout: float) -> RecordResult:
    """Call ``run(agent_factory)`` with a model that answers from ``fixtures`` and the bridge log first and
    asks the bridge for the rest; then add to ``fixtures`` the log's record of every prompt the run met."""
    log = Path(queue) / "log.jsonl"
    existing = load_recordings(fixtures) if Path(fixtures).is_file() else {}
    model = ReplayChatModel(path=str(fixtures), records={**_logged(log), **existing}, answers=answers,
                            on_miss=bridge_model(base_url, timeout=timeout))
    factory = make_agent_factory(settings if settings is not None else Settings.model_construct(), model=model)
    errors: list[str] = []
    converted = ConvertResult()
    try:
        errors = run(factory)
    finally:
        logged = _logged(log)
        for key in model.used - existing.keys():
            if key in logged:
                existing[key] = logged[key]
                converted.added += 1
        save_recordings(fixtures, existing.values())
        converted.total = len(existing)
    return RecordResult(recorded=model.hits, asked=model.misses, errors=errors, converted=converted)
