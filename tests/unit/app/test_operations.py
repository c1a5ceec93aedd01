"""``memory-agent doctor`` and ``memory-agent threads prune`` on real stores (embedded and server)."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta

import pytest
from conftest import T0, ScriptedChatModel
from typer.testing import CliRunner

from memory_agent.app.doctor import doctor
from memory_agent.app.retention import prune_threads
from memory_agent.app.settings import Settings
from memory_agent.cli.app import app

BACKENDS = ("embedded", "server")
VEGETARIAN = {"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}


def _status(checks, backend: str, check: str) -> str:
    return next(c.status for c in checks if c.backend == backend and c.check == check)


def test_doctor_finds_every_backend_usable_after_the_agent_ran(make_agent, tmp_path, backend):
    agent = make_agent(model=ScriptedChatModel(script={"vegetarian": [VEGETARIAN]}))
    agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")
    agent.close()
    checks = doctor(Settings(data_dir=tmp_path / "data", **backend.settings))
    assert [c for c in checks if c.status == "fail"] == []
    assert _status(checks, "chroma", "embedder matches") == "ok"
    store = "postgres" if backend.name == "server" else "sqlite"
    assert _status(checks, store, "commit journal") == "ok"
    if backend.name == "server":
        assert _status(checks, "postgres", "checkpointer schema") == "ok"


def test_doctor_reports_a_collection_of_another_embedder_and_a_half_written_decision(make_agent, tmp_path, backend):
    agent = make_agent()
    agent.memory.index.client.create_collection(
        "user_other", embedding_function=None,
        metadata={"user_id": "carol", "embedder": "openai:text-embedding-3-small", "dimension": 1536})
    agent.memory.ledger.journal_begin("carol", "j_x", {"proposal": {}}, T0)
    agent.close()
    checks = doctor(Settings(data_dir=tmp_path / "data", **backend.settings))
    bad = next(c for c in checks if c.check == "embedder matches")
    assert bad.status == "fail" and "carol" in bad.detail and "MEMORY_AGENT_EMBEDDER" in bad.fix
    journal = next(c for c in checks if c.check == "commit journal")
    assert journal.status == "warn" and "doctor --fix" in journal.fix


@pytest.mark.parametrize("backend", ["server"], indirect=True)
def test_doctor_on_an_empty_database_and_a_dead_chroma_says_what_to_fix_and_exits_2(backend, tmp_path, monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    for name, value in {**backend.env, "MEMORY_AGENT_CHROMA_URL": f"http://127.0.0.1:{dead}"}.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(app, ["--data-dir", str(tmp_path / "unused"), "doctor", "--json"])
    assert result.exit_code == 2, result.output
    import json

    rows = {(r["backend"], r["check"]): r for r in json.loads(result.output)}
    assert rows[("postgres", "reachable")]["status"] == "ok"
    assert rows[("postgres", "checkpointer schema")]["status"] == "fail"
    assert "doctor --fix" in rows[("postgres", "checkpointer schema")]["fix"]
    assert rows[("chroma", "reachable")]["status"] == "fail"
    assert "chroma run" in rows[("chroma", "reachable")]["fix"]


@pytest.mark.parametrize("backend", ["server"], indirect=True)
def test_doctor_fix_sets_up_postgres(backend, tmp_path, monkeypatch, embedder):
    for name, value in backend.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("memory_agent.app.doctor.load_embedder", lambda *a, **k: embedder)
    result = CliRunner().invoke(app, ["--data-dir", str(tmp_path / "unused"), "doctor", "--fix"])
    assert result.exit_code == 0, result.output
    assert "Every configured backend is usable" in result.output
    assert not (tmp_path / "unused").exists()  # server backends need no data folder


def test_prune_deletes_old_threads_but_keeps_facts_and_waiting_approvals(make_agent, backend):
    model = ScriptedChatModel(script={"vegetarian": [VEGETARIAN], "cello": [
        {"kind": "fact", "content": "The user plays the cello.", "topic": "music"}]})
    agent = make_agent(model=model)
    agent.turn("alice", "I am vegetarian.", thread_id="old", now=T0, approval="never")
    agent.turn("alice", "I play the cello.", thread_id="waiting", now=T0)  # stops at the approval
    agent.turn("bob", "Hello.", thread_id="old", now=T0)
    assert len(agent.threads("alice")) == 2

    now = datetime.now(UTC)
    kept = prune_threads(agent, 1, now=now)  # everything is minutes old
    assert {r["action"] for r in kept} == {"kept (recent)"}
    dry = prune_threads(agent, 0.5, now=now + timedelta(days=1), dry_run=True)
    assert sorted((r["user_id"], r["thread_id"], r["action"]) for r in dry) == [
        ("alice", "old", "would delete"), ("alice", "waiting", "kept (waiting for approval)"),
        ("bob", "old", "would delete")]
    assert len(agent.transcript("alice", "old")) == 2

    done = prune_threads(agent, 0.5, now=now + timedelta(days=1), user_id="alice")
    assert sorted(r["action"] for r in done) == ["deleted", "kept (waiting for approval)"]
    assert agent.transcript("alice", "old") == []
    assert [t["thread_id"] for t in agent.threads("alice")] == ["waiting"]
    assert len(agent.transcript("bob", "old")) == 2  # another user's thread is untouched
    assert [f.content for f in agent.memory.live("alice")] == ["The user is vegetarian."]
    # the approved fact's audit row stays (the summary row of "old", written when "waiting" began, too)
    assert [r["operation"] for r in agent.memory.ledger.audit_rows("alice") if r["operation"] != "SUMMARY"] == ["ADD"]
    assert len(agent.pending("alice", "waiting")) == 1


def test_threads_prune_command(make_agent, tmp_path, backend, monkeypatch):
    agent = make_agent()
    agent.turn("alice", "Hello.", thread_id="t1", now=T0)
    agent.close()
    for name, value in backend.env.items():
        monkeypatch.setenv(name, value)
    runner = CliRunner()
    result = runner.invoke(app, ["--data-dir", str(tmp_path / "data"), "threads", "prune", "--older-than", "30"])
    assert result.exit_code == 0, result.output
    assert "deleted 0 of 1 threads" in result.output
    listed = runner.invoke(app, ["--data-dir", str(tmp_path / "data"), "threads", "--user", "alice", "--json"])
    assert listed.exit_code == 0, listed.output
    assert '"t1"' in listed.output
    assert runner.invoke(app, ["--data-dir", str(tmp_path / "data"), "threads"]).exit_code == 2
