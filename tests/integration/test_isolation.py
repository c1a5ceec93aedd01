"""Isolation: every read, write, edit and delete is scoped to one user at the store layer.

Awkward and hostile user ids (prefixes, e-mail case, unicode forms, SQL, paths, the longest
accepted id), ids that are refused, payloads that name another user or another user's fact,
another user running or resuming a thread on the raw graph, the embedding cache, concurrent
sessions of different users in one process on real stores, and the user id's precedence over
every environment variable. Real SQLite, Chroma and MiniLM; only the chat model is the scripted fake.
"""

from __future__ import annotations

import os
import re
import threading
import unicodedata

import pytest
from conftest import T0, ScriptedChatModel, day, plant
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from typer.testing import CliRunner

from memory_agent.app import agent as agent_module
from memory_agent.app.agent import InputError, MemoryAgent
from memory_agent.app.settings import Settings
from memory_agent.core.facts import Proposal, Source
from memory_agent.graph.builder import build_graph
from memory_agent.graph.context import MAX_USER_ID_CHARS, AgentContext
from memory_agent.graph.turn import ThreadOwnerError
from memory_agent.models import embeddings as embeddings_module
from memory_agent.stores.chroma_store import collection_name

VEG = {"vegetarian": [{"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}]}


def propose(model: ScriptedChatModel, key: str, *items: dict) -> None:
    """Script the fake model: when ``key`` is in the user message, propose ``items``."""
    model.script[key] = [{"kind": "fact", "topic": "", **item} for item in items]


# ---- isolation ---------------------------------------------------------------------------------
HOSTILE_IDS = ["u1", "u10", "u1 ", "alice@example.com", "Alice@example.com", "alice@example.com.evil",
               "Jürgen", unicodedata.normalize("NFD", "Jürgen"), "ユーザー", "x' OR '1'='1", "../bob", "*",
               "a" * MAX_USER_ID_CHARS]


def test_hostile_user_ids_each_get_their_own_memories(agent, model):
    for i, user in enumerate(HOSTILE_IDS):
        propose(model, f"code {i}.", {"content": f"The user's lucky word is w{i}x.", "topic": "lucky word"})
        result = agent.turn(user, f"My code {i}.", thread_id="t", now=T0, approval="never")
        assert [c["written"] for c in result.committed] == [True], repr(user)
    assert len({collection_name(u) for u in HOSTILE_IDS}) == len(HOSTILE_IDS)
    model.script = {}
    for i, user in enumerate(HOSTILE_IDS):
        mine = f"The user's lucky word is w{i}x."
        assert [f.content for f in agent.memory.ledger.facts(user)] == [mine], repr(user)
        result = agent.turn(user, "What is my lucky word?", thread_id="q", now=day(1))
        assert [m["content"] for m in result.memories] == [mine], repr(user)
        others = [f"w{j}x" for j in range(len(HOSTILE_IDS)) if j != i]
        assert not any(w in model.memory_block() for w in others), repr(user)


@pytest.mark.parametrize(("user", "problem"), [
    ("a" * (MAX_USER_ID_CHARS + 1), "the limit is 256"),
    ("x" * 10_000, "10,000 characters"),
    ("alice\nbob", "control characters"),
    ("alice\x00", "control characters"),
    ("ali\u200bce", "invisible characters .*U\\+200B"),  # zero-width space
    ("alice\u202emoc.live", "U\\+202E"),  # right-to-left override: displays as another id
    ("alice\u2028bob", "U\\+2028"),  # line separator
    ("erased-" + "0" * 32, "tombstone of an erased user"),
])
def test_unusable_user_ids_are_refused_clearly_and_store_nothing(agent, model, user, problem):
    with pytest.raises(InputError, match=problem):
        agent.turn(user, "I am vegetarian.", thread_id="t1", now=T0)
    assert agent.memory.index.client.list_collections() == []


def test_payloads_naming_another_user_cannot_move_or_read_a_fact(agent, model):
    bob = plant(agent.memory, "bob", "The user's favourite colour is green.", topic="favourite colour")
    # a model proposal carrying user_id and ids of bob's fact: the extra field is ignored
    propose(model, "blue", {"content": "The user's favourite colour is blue.", "topic": "favourite colour",
                            "user_id": "bob", "id": bob.id, "target_id": bob.id})
    result = agent.turn("alice", "My favourite colour is blue.", thread_id="t1", now=T0)
    [pending] = result.pending
    assert pending["operation"] == "ADD" and pending["target_id"] is None
    # a resume payload naming bob: only proposal_id, action and content are read
    agent.resume("alice", "t1", [{"proposal_id": pending["id"], "action": "edit", "user_id": "bob",
                                  "content": "The user's favourite colour is navy blue.", "target_id": bob.id}],
                 now=T0)
    [mine] = agent.memory.ledger.facts("alice")
    assert mine.user_id == "alice" and mine.content == "The user's favourite colour is navy blue."
    assert agent.memory.ledger.get_fact("bob", bob.id).status == "confirmed"
    assert [f.id for f in agent.memory.live("bob")] == [bob.id]

    # every store call made for alice with bob's fact id reads, moves and deletes nothing of bob's
    assert agent.memory.show("alice", bob.id) is None and agent.memory.history("alice", bob.id) == []
    assert agent.memory.index.get("alice", [bob.id]) == []
    agent.memory.index.delete("alice", [bob.id])
    agent.memory.ledger.touch("alice", [bob.id], day(1), "turn-x")
    for op in ("UPDATE", "RETRACT"):
        forged = Proposal(id=f"p_{op}", operation=op, kind="preference", content="The user's colour is red.",
                          source=Source(thread_id="t1", message_ids=["m"]), evidence="red", target_id=bob.id)
        agent.memory.apply("alice", forged, "approve", day(1), "user")
    after = agent.memory.ledger.get_fact("bob", bob.id)
    assert after.status == "confirmed" and after.use_count == 0 and after.superseded_by is None
    assert [f.id for f in agent.memory.index.list("bob")] == [bob.id]
    # a fact whose metadata names another user is refused by the index
    with pytest.raises(ValueError, match="belong"):
        agent.memory.index.upsert("alice", [bob], [[0.1] * 384])
    # bob cannot open alice's thread, nor resume it
    with pytest.raises(InputError, match="no pending approval"):
        agent.resume("bob", "t1", "approve", now=T0)
    assert agent.transcript("bob", "t1") == []


def test_another_user_cannot_run_or_resume_a_thread_on_the_raw_graph(make_agent):
    model = ScriptedChatModel(script=VEG)
    agent = make_agent(model=model)
    graph = build_graph(agent.memory, model, InMemorySaver())
    cfg = {"configurable": {"thread_id": "t1"}}
    graph.invoke({"messages": [HumanMessage("I am vegetarian.", id="m1")]}, cfg, context=AgentContext("alice", T0))
    with pytest.raises(ThreadOwnerError):
        graph.invoke(Command(resume="approve"), cfg, context=AgentContext("mallory", T0))
    with pytest.raises(ThreadOwnerError):
        graph.invoke({"messages": [HumanMessage("hi", id="m2")]}, cfg, context=AgentContext("mallory", T0))
    assert agent.memory.live("mallory") == [] and agent.memory.live("alice") == []


def test_the_embedding_cache_is_keyed_by_user(agent, model):
    propose(model, "tea", {"kind": "preference", "content": "The user likes green tea.", "topic": "drink"})
    for user in ("alice", "bob"):
        agent.turn(user, "I like green tea.", thread_id="t1", now=T0, approval="never")
    keys = list(agent.memory._embeddings_cache)
    assert ("alice", "drink: The user likes green tea.") in keys and ("bob", "drink: The user likes green tea.") in keys
    assert all(isinstance(k, tuple) and k[0] in ("alice", "bob") for k in keys)
    assert set(agent.memory.index._collections) == {"alice", "bob"}


def test_concurrent_sessions_of_different_users_never_see_each_others_facts(agent, model):
    users = [f"user{i}@example.com" for i in range(6)]
    for i, user in enumerate(users):
        plant(agent.memory, user, f"The user's pet is called Pet{i}.", topic="pet name")
        propose(model, f"Hobby{i}", {"kind": "preference", "content": f"The user's hobby is Hobby{i}.",
                                     "topic": "hobby"})
    start = threading.Barrier(len(users))
    errors: list[BaseException] = []

    def session(i: int, user: str) -> None:
        try:
            start.wait()
            agent.turn(user, f"My hobby is Hobby{i}.", thread_id="s1", now=T0, approval="never")
            agent.turn(user, f"What is my pet called and what is my hobby? [{user}]", thread_id="s2", now=day(1))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=session, args=(i, u)) for i, u in enumerate(users)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    for i, user in enumerate(users):
        facts = sorted(f.content for f in agent.memory.ledger.facts(user))
        assert facts == [f"The user's hobby is Hobby{i}.", f"The user's pet is called Pet{i}."], user
        [prompt] = [p for p in model.answer_prompts if f"[{user}]" in str(p[-1].content)]
        block = next((str(m.content) for m in prompt if "<memories>" in str(m.content)), "")
        assert f"Pet{i}." in block, user
        assert not any(f"Pet{j}." in block or f"Hobby{j}." in block for j in range(len(users)) if j != i), user


def test_an_explicit_user_id_wins_over_every_environment_variable(make_agent, model, monkeypatch, embedder, tmp_path):
    for name in ("MEMORY_AGENT_USER", "MEMORY_AGENT_USER_ID", "USER", "LOGNAME", "USERNAME"):
        monkeypatch.setenv(name, "mallory")
    # the user id is never a setting
    assert not any(re.fullmatch(r"(default_)?user(_id)?", name) for name in Settings.model_fields)
    propose(model, "vegetarian", {"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"})
    agent = make_agent(model=model)
    agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")
    assert [f.content for f in agent.memory.ledger.facts("alice")] == ["The user is vegetarian."]
    assert agent.memory.ledger.facts("mallory") == []
    agent.close()

    # the command line: --user alice, whatever the environment says
    from memory_agent.cli.app import app

    monkeypatch.setattr(embeddings_module, "load_embedder", lambda *a, **k: embedder)
    monkeypatch.setattr(agent_module, "load_embedder", lambda *a, **k: embedder)
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "cli-data"
    env = {"COLUMNS": "200", "MEMORY_AGENT_USER": "mallory", "MEMORY_AGENT_USER_ID": "mallory", "USER": "mallory"}
    result = CliRunner().invoke(app, ["--data-dir", str(data), "chat", "--user", "alice"],
                                input="I'm vegan.\n/approve\n/exit\n", env=env)
    assert result.exit_code == 0, result.output
    with MemoryAgent.open(Settings(data_dir=data), model=ScriptedChatModel(), embedder=embedder) as check:
        assert [f.content for f in check.memory.ledger.facts("alice")] == ["The user is vegan."]
        assert check.memory.ledger.facts("mallory") == []
    assert os.environ["MEMORY_AGENT_USER"] == "mallory"


def test_a_tombstone_id_reads_nothing_of_an_erased_user(agent, model):
    """forget-user prints the tombstone its audit rows now carry; used as a user id, it is refused
    everywhere a user id is read (the graph, the control functions, the export, the CLI)."""
    from memory_agent.app import control, erasure, export

    plant(agent.memory, "alice", "The user lives in Oslo.", topic="home city")
    report = erasure.forget_user(agent, "alice", day(1))
    assert agent.memory.ledger.audit_rows(report.tombstone)  # the rows are there, under the tombstone
    with pytest.raises(InputError, match="tombstone"):
        agent.turn(report.tombstone, "What do you remember about me?", thread_id="t", now=day(2))
    for read in (control.list_memories, control.memory_history, export.export_user):
        with pytest.raises(control.ControlError, match="tombstone"):
            read(agent, report.tombstone)
