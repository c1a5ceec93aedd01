"""``memory_agent.app.retention`` and ``memory-agent threads prune`` on real stores (embedded and server):
old threads go, facts, audit rows and threads waiting for an approval stay."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from conftest import T0, ScriptedChatModel
from typer.testing import CliRunner

from memory_agent.app.retention import prune_threads
from memory_agent.cli.app import app

BACKENDS = ("embedded", "server")
VEGETARIAN = {"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}


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
    result = runner.invoke(app, ["--data-dir", str(tmp_path / "data"), "threads", "prune", "--older-than", "30",
                                 "--yes"])
    assert result.exit_code == 0, result.output
    assert "deleted 0 of 1 threads" in result.output
    listed = runner.invoke(app, ["--data-dir", str(tmp_path / "data"), "threads", "--user", "alice", "--json"])
    assert listed.exit_code == 0, listed.output
    assert '"t1"' in listed.output
    assert runner.invoke(app, ["--data-dir", str(tmp_path / "data"), "threads"]).exit_code == 2
