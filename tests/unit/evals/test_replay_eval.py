"""``memory-agent eval scenarios FILE --model replay:REC`` runs the real graph on recorded extraction
output, stops with exit 2 naming the prompt hash when a prompt has no recording, and
``memory-agent eval record convert`` merges a bridge log into a recording file.

The bridge log entries are written here in ``llm_bridge.py``'s format; the recording through the
real bridge is ``tests/integration/test_replay_bridge.py``."""

from __future__ import annotations

import json
import os
import uuid
from datetime import datetime
from types import SimpleNamespace

import pytest
from langchain_core.messages import HumanMessage
from typer.testing import CliRunner

from memory_agent.app import agent as agent_module
from memory_agent.cli.app import app
from memory_agent.core.facts import ProposedFacts
from memory_agent.models import embeddings as embeddings_module
from memory_agent.models.replay import load_recordings
from memory_agent.nodes.propose_facts import extraction_prompt

runner = CliRunner()

SCENARIO = {"id": "diet", "tags": ["preference"], "user_id": "u1",
            "sessions": [{"at": "2026-03-02T09:00:00Z", "turns": ["I'm vegetarian."]}],
            "probes": [{"at": "2026-03-09T09:00:00Z", "question": "Plan a dinner for four friends.",
                        "expect": {"injected_any": ["vegetarian"]}}]}


@pytest.fixture
def cli_env(embedder, tmp_path, monkeypatch):
    monkeypatch.setattr(embeddings_module, "load_embedder", lambda *a, **k: embedder)
    monkeypatch.setattr(agent_module, "load_embedder", lambda *a, **k: embedder)
    for name in list(os.environ):
        if name.startswith("MEMORY_AGENT_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return {"COLUMNS": "200"}


def entry(text: str, facts: list[dict], at: str, related: tuple = ()) -> dict:
    """The bridge log entry of one extraction call at clock ``at`` showing the ``related`` memories
    (``facts`` may cite ``MID``, the recording run's id)."""
    mid = uuid.uuid4().hex
    prompt = extraction_prompt(HumanMessage(text, id=mid), related, datetime.fromisoformat(at))
    request = {"model": "bridge", "stream": False,
               "response_format": {"type": "json_schema", "json_schema": {
                   "name": "ProposedFacts", "schema": ProposedFacts.model_json_schema(), "strict": True}},
               "messages": [{"role": "user", "content": prompt}]}
    content = json.dumps({"facts": facts}).replace("MID", mid)
    return {"id": mid[:8], "request": request, "response": {"content": content}}


VEGETARIAN = [{"operation": "add", "kind": "preference", "content": "The user is vegetarian.", "topic": "diet",
               "message_ids": ["MID"], "evidence": "I'm vegetarian", "confidence": 0.9, "importance": 0.7,
               "sensitivity": "common"}]


def test_eval_scenarios_replays_recordings_and_fails_loudly_on_a_stale_one(tmp_path, cli_env):
    log = tmp_path / "log.jsonl"
    # the probe's prompt shows the memory the session stored (kind, topic, content are what it lists)
    stored = SimpleNamespace(kind="preference", topic="diet", content="The user is vegetarian.")
    log.write_text(json.dumps(entry("I'm vegetarian.", VEGETARIAN, "2026-03-02T09:00:00+00:00")) + "\n"
                   + json.dumps(entry("Plan a dinner for four friends.", [], "2026-03-09T09:00:00+00:00", (stored,)))
                   + "\n", encoding="utf-8")
    rec = tmp_path / "rec.jsonl"
    done = runner.invoke(app, ["eval", "record", "convert", str(log), "--fixtures", str(rec)], env=cli_env)
    assert done.exit_code == 0 and "2 recordings (2 new, 0 replaced)" in done.output, done.output

    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(SCENARIO) + "\n", encoding="utf-8")
    spec = f"replay:{rec}?answers=offline"
    result = runner.invoke(app, ["eval", "scenarios", str(path), "--model", spec, "--out", "sc"], env=cli_env)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "sc" / "results.json").read_text())
    assert data["model"] == spec
    assert data["memory_on"]["scenarios"][0]["sessions"][0]["turns"][0]["remembered"] == ["The user is vegetarian."]
    assert data["memory_on"]["summary"]["probes_passed"] == 1

    stale = {**SCENARIO, "sessions": [{"at": "2026-03-02T09:00:00Z", "turns": ["I'm vegan."]}]}
    path.write_text(json.dumps(stale) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["eval", "scenarios", str(path), "--model", spec, "--out", "stale"], env=cli_env)
    assert result.exit_code == 2, result.output
    assert "Model problem: No recorded model output for prompt" in " ".join(result.output.split())
    assert not (tmp_path / "stale" / "results.json").exists()


def test_convert_merges_by_prompt_and_a_new_answer_replaces_the_old(tmp_path, cli_env):
    first = entry("I'm vegetarian.", VEGETARIAN, "2026-03-02T09:00:00+00:00")
    again = entry("I'm vegetarian.", [], "2026-03-02T09:00:00+00:00")
    # the same prompt (another random id), answered differently
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(first) + "\n", encoding="utf-8")
    rec = tmp_path / "rec.jsonl"
    runner.invoke(app, ["eval", "record", "convert", str(log), "--fixtures", str(rec)], env=cli_env)
    log.write_text(json.dumps(first) + "\n" + json.dumps(again) + "\n", encoding="utf-8")
    done = runner.invoke(app, ["eval", "record", "convert", str(log), "--fixtures", str(rec)], env=cli_env)
    assert "1 recordings (0 new, 1 replaced)" in done.output, done.output
    (only,) = load_recordings(rec).values()
    assert json.loads(only["response"]["content"]) == {"facts": []}

    log.write_text(json.dumps(first)[:40] + "\n", encoding="utf-8")
    done = runner.invoke(app, ["eval", "record", "convert", str(log), "--fixtures", str(rec)], env=cli_env)
    assert done.exit_code == 2 and "line 1: not a bridge log entry" in done.output
    assert len(load_recordings(rec)) == 1  # the recording file is untouched


def test_record_run_without_a_bridge_says_how_to_start_one(tmp_path, cli_env):
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(SCENARIO) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["eval", "record", "run", str(path), "--fixtures", "rec.jsonl", "--queue", "q",
                                 "--base-url", "http://127.0.0.1:9/v1"], env=cli_env)
    assert result.exit_code == 2
    assert "No bridge answers at http://127.0.0.1:9/v1" in result.output and "llm_bridge.py serve" in result.output
