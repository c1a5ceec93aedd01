"""``memory_agent.app.doctor`` and ``memory-agent doctor [--fix]`` on real stores (embedded and server):
what each backend's checks report and what they tell the user to fix."""

from __future__ import annotations

import json
import socket

import pytest
from conftest import T0, ScriptedChatModel
from typer.testing import CliRunner

from memory_agent.app.doctor import doctor
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


@pytest.mark.parametrize("backend", ["embedded"], indirect=True)
def test_a_data_folder_with_data_under_a_new_database_url_is_reported_and_never_half_used(
        make_agent, tmp_path, backend, postgres_database, monkeypatch, embedder):
    """Facts written in the folder, then DATABASE_URL alone set: Chroma would stay in the folder and the
    ledger move to Postgres. Doctor says what is where and how to move; commands refuse instead of reading
    the folder's index and an empty ledger. With CHROMA_URL too the folder is not opened: a warning."""
    from memory_agent.models import embeddings as embeddings_module

    agent = make_agent(model=ScriptedChatModel(script={"vegetarian": [VEGETARIAN]}))
    agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")
    agent.close()
    data = tmp_path / "data"
    monkeypatch.setattr(embeddings_module, "load_embedder", lambda *a, **k: embedder)
    monkeypatch.setenv("DATABASE_URL", postgres_database)
    result = CliRunner().invoke(app, ["--data-dir", str(data), "doctor", "--json"])
    assert result.exit_code == 2, result.output
    row = next(r for r in json.loads(result.output) if r["check"] == "sqlite data left behind")
    assert row["status"] == "fail" and "1 fact(s) of 1 user(s), 1 thread(s)" in row["detail"]
    assert "DATABASE_URL" in row["detail"] and "unset DATABASE_URL" in row["fix"] and "mv " in row["fix"]
    for command in (["memories", "list", "--user", "alice"], ["memories", "show", "f_x", "--user", "alice"]):
        refused = CliRunner().invoke(app, ["--data-dir", str(data), *command], env={"COLUMNS": "300"})
        assert refused.exit_code == 2, refused.output
        assert "commands would read one and write the other" in refused.output
    checks = doctor(Settings(data_dir=data, database_url=postgres_database, chroma_url="http://127.0.0.1:9"))
    left = next(c for c in checks if c.check == "sqlite data left behind")
    assert left.status == "warn" and "no command reads it" in left.detail
    monkeypatch.delenv("DATABASE_URL")
    assert not [c for c in doctor(Settings(data_dir=data)) if "left behind" in c.check]
