"""The run context and the input as JSON clients (``langgraph dev``, the SDK, Studio) send them: a
context dict with an ISO-8601 clock, messages whose content is a list of blocks, and the user's own
thread id in the context, which is what provenance records. The server graph runs only as the
authenticated user the server puts in the run's config, under the deployment's approval mode."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from conftest import T0, ScriptedChatModel
from langchain_core.messages import HumanMessage

from memory_agent import server
from memory_agent.app import agent as agent_module
from memory_agent.graph.context import AgentContext
from memory_agent.server import RunUserError, ServerContext, run_context

VEG = {"vegetarian": [{"kind": "preference", "content": "The user is vegetarian.", "topic": "diet"}]}


def test_json_context_becomes_a_server_context_with_a_parsed_clock():
    # LangGraph builds a dataclass context from the JSON dict as ``context_schema(**context)``.
    ctx = ServerContext(**{"user_id": "alice", "now": "2025-03-01T09:00:00Z", "approval": "never"})
    assert ctx.clock() == datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    assert ctx.approval == "never"


@pytest.mark.parametrize(("context", "words"), [({}, "The user id is empty: pass a non-blank user id"),
                                                ({"user_id": "a", "now": "yesterday"}, "ISO 8601"),
                                                ({"user_id": " "}, "user_id"),
                                                ({"user_id": "a", "approval": "sometimes"}, "approval")])
def test_bad_json_context_is_refused_with_what_to_send(context, words):
    with pytest.raises(ValueError, match=words):
        ServerContext(**context)


def test_server_graph_has_no_checkpointer_of_its_own_and_uses_our_stores(tmp_path, monkeypatch, embedder):
    monkeypatch.setattr(agent_module, "load_embedder", lambda *a, **k: embedder)
    monkeypatch.setenv("MEMORY_AGENT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MEMORY_AGENT_APPROVAL", "never")
    monkeypatch.setattr(server, "_graph", None)
    monkeypatch.setattr(server, "_agent", None)
    try:
        graph = asyncio.run(server.make_graph())
        assert graph.checkpointer is None  # the LangGraph server supplies its own
        assert graph.context_schema is ServerContext
        assert asyncio.run(server.make_graph()) is graph  # stores opened once per process
        assert server._agent.memory is not None and (tmp_path / "data" / "agent.sqlite").is_file()
        assert set(graph.get_graph().nodes) >= {"load_memory", "answer", "propose_facts", "human_approval", "commit"}
        assert isinstance(graph.copy({"checkpointer": None}), server.AuthenticatedGraph)  # as the server copies it

        said = {"messages": [HumanMessage(content="I'm vegetarian.", id="m1")]}
        with pytest.raises(RunUserError, match="no authenticated user"):
            graph.invoke(said, context={"user_id": "alice"})  # a client-filled user id alone is nobody
        as_alice = {"configurable": {"thread_id": "t1", "langgraph_auth_user": {"identity": "alice"}}}
        with pytest.raises(RunUserError, match="signs in 'alice'"):
            graph.invoke(said, as_alice, context={"user_id": "bob"})
        graph.invoke(said, as_alice, context={"now": "2025-03-01T09:00:00Z"})  # approval: never (the deployment's)
        assert [f.content for f in server._agent.memory.live("alice")] == ["The user is vegetarian."]
        assert server._agent.memory.live("bob") == []
        server._agent.memory.ledger.set_memory_enabled("alice", False, T0)  # her own switch, off
        moved = {"messages": [HumanMessage(content="I live in Oslo.", id="m2")]}
        out = graph.invoke(moved, as_alice, context={"memory_enabled": True, "now": "2025-03-01T10:00:00Z"})
        assert out["memories"] == [] and [f.content for f in server._agent.memory.live("alice")] == [
            "The user is vegetarian."]
    finally:
        if server._agent is not None:
            server._agent.close()  # releases the data folder's lock


def test_content_blocks_are_read_as_text_and_provenance_keeps_the_users_thread_id(make_agent):
    model = ScriptedChatModel(script=VEG)
    agent = make_agent(model=model)
    graph = agent.graph
    cfg = agent._config("alice", "kitchen")
    content = [{"type": "text", "text": "I am vegetarian."}]
    graph.invoke({"messages": [HumanMessage(content=content, id="m1")]}, cfg,
                 context=AgentContext("alice", T0, approval="never", thread_id="kitchen"))
    assert "[m1] user: I am vegetarian.\n" in model.extraction_calls[-1]
    (fact,) = agent.memory.live("alice")
    assert fact.source.thread_id == "kitchen" and fact.evidence == "I am vegetarian."
    assert agent.memory.ledger.threads("alice") == ["kitchen"]


class StudioUser:
    identity = "langgraph-studio-user"


@pytest.mark.parametrize(("config", "context", "words"), [
    (None, {"user_id": "alice"}, "no authenticated user"),
    ({"configurable": {"langgraph_auth_user": None}}, {}, "no authenticated user"),
    ({"configurable": {"langgraph_auth_user": StudioUser()}}, {}, "no authenticated user"),
    ({"configurable": {"langgraph_auth_user": {"identity": "alice"}}}, {"user_id": "bob"}, "signs in 'alice'"),
    ({"configurable": {"langgraph_auth_user": {"identity": "alice"}}}, {"approval": "never"}, "MEMORY_AGENT_APPROVAL"),
])
def test_a_run_without_its_own_authenticated_user_is_refused(config, context, words):
    with pytest.raises(RunUserError, match=words):
        run_context(config, context, "always")


def test_the_run_context_takes_the_user_from_authentication_and_the_mode_from_the_deployment():
    config = {"configurable": {"langgraph_auth_user": {"identity": "alice"}, "user_id": "bob"}}
    ctx = run_context(config, {"user_id": "alice", "now": "2025-03-01T09:00:00Z", "thread_id": "kitchen"}, "risky-only")
    assert (ctx.user_id, ctx.approval, ctx.thread_id, ctx.clock()) == (
        "alice", "risky-only", "kitchen", datetime(2025, 3, 1, 9, 0, tzinfo=UTC))
    assert run_context(config, AgentContext("alice", T0, approval="risky-only"), "risky-only").now == T0


def test_a_run_without_a_user_gets_a_one_line_error(make_agent):
    """What a Studio run without context, or with a context lacking user_id, is told (one line, no TypeError)."""
    from memory_agent.graph.turn import NO_CONTEXT

    agent = make_agent()
    cfg = agent._config("alice", "t-none")
    with pytest.raises(ValueError) as no_context:
        agent.graph.invoke({"messages": [HumanMessage("Hello.")]}, cfg)
    assert str(no_context.value) == NO_CONTEXT and "\n" not in NO_CONTEXT
    with pytest.raises(ValueError, match="The user id is empty") as no_user:
        agent.graph.invoke({"messages": [HumanMessage("Hello.")]}, cfg, context=ServerContext(**{}))
    assert "\n" not in str(no_user.value)


def test_the_dev_server_reloader_ignores_the_data_folder(make_agent, tmp_path, monkeypatch):
    """``langgraph dev`` reloads through uvicorn's watchfiles filter (run from the project folder, where the
    default data folder ``.memory_agent`` lives): no file the stores write restarts the server."""
    pytest.importorskip("langgraph_api", reason="needs the studio extra: pip install -e '.[studio]'")
    from uvicorn.config import Config
    from uvicorn.supervisors.watchfilesreload import FileFilter

    agent = make_agent(model=ScriptedChatModel(script=VEG))
    agent.turn("alice", "I am vegetarian.", thread_id="t1", now=T0, approval="never")
    agent.close()
    monkeypatch.chdir(tmp_path)  # the watched tree: langgraph dev watches its working folder
    watch = FileFilter(Config("langgraph_api.server:app", reload=True))  # what langgraph dev passes: no patterns
    written = [p for p in (tmp_path / "data").rglob("*") if p.is_file()]
    assert any(p.name == "agent.sqlite" for p in written) and any("chroma" in p.parts for p in written)
    assert [p for p in written if watch(p)] == []
    assert watch(tmp_path / "nodes" / "answer.py")  # a code change still reloads
