"""``langgraph dev`` serves the graph of ``langgraph.json``: a real dev server (in-memory runtime)
on loopback, driven through ``langgraph-sdk`` like LangGraph Studio drives it — a turn up to the
approval interrupt (LangChain's HITL format), the resume, then the fact read back from our own
stores; and with two users holding real API keys, every attempt of one on the other's threads,
without a key, with a wrong key, or naming the other user in the run context is refused.

Needs the ``studio`` extra (``langgraph-cli[inmem]``, ``langgraph-sdk``); skipped without it.
The server gets no network: analytics, the version check, tracing and the browser are switched off
(an audit hook on a manual run saw no connection leave loopback with these settings).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("langgraph_api", reason="needs the studio extra: pip install -e '.[studio]'")
pytest.importorskip("langgraph_cli", reason="needs the studio extra: pip install -e '.[studio]'")
sdk = pytest.importorskip("langgraph_sdk", reason="needs the studio extra: pip install -e '.[studio]'")

from memory_agent.app import accounts  # noqa: E402
from memory_agent.app.agent import MemoryAgent  # noqa: E402
from memory_agent.app.settings import Settings  # noqa: E402
from memory_agent.models.chat import load_chat_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 90.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_AGENT_") and not k.endswith("_API_KEY")}
    env.update({
        "MEMORY_AGENT_DATA_DIR": str(data_dir),
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",  # the CLI would post usage data otherwise
        "LANGGRAPH_NO_VERSION_CHECK": "1",  # the server would ask PyPI for a newer langgraph-api otherwise
        "LANGSMITH_TRACING": "false",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "ANONYMIZED_TELEMETRY": "False",
    })
    return env


@pytest.fixture
def dev_server(tmp_path: Path) -> Iterator[dict]:
    """``langgraph dev`` on a free loopback port, run from an empty folder (its own ``.langgraph_api``
    state and no ``.env``), with the repository's ``langgraph.json``; stopped at teardown. Alice and
    Bob get API keys first (``keys``); ``client(key)`` is an SDK client sending one."""
    port = _free_port()
    data_dir = tmp_path / "data"
    keys = {user: accounts.issue_key(Settings(data_dir=data_dir), user) for user in ("alice", "bob")}
    log = tmp_path / "server.log"
    exe = Path(sys.executable).parent / "langgraph"
    cmd = [str(exe), "dev", "--config", str(ROOT / "langgraph.json"), "--host", "127.0.0.1", "--port", str(port),
           "--no-browser", "--no-reload"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=_server_env(data_dir), stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"

    def client(key: str | None = None, **headers: str):
        return sdk.get_sync_client(url=url, timeout=120.0, api_key=key, headers=headers or None)

    try:
        probe = client(keys["alice"])
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert proc.poll() is None, f"langgraph dev exited early:\n{log.read_text()[-3000:]}"
            with contextlib.suppress(Exception):
                probe.assistants.search(graph_id="memory_agent")
                break
            assert time.monotonic() < deadline, f"not up in {STARTUP_SECONDS} s:\n{log.read_text()[-3000:]}"
            time.sleep(0.5)
        yield {"client": probe, "make_client": client, "keys": keys, "url": url, "proc": proc, "data_dir": data_dir,
               "log": log}
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_dev_server_runs_a_turn_to_the_approval_and_resumes_it(dev_server, embedder):
    client = dev_server["client"]
    thread = client.threads.create()["thread_id"]
    said = {"messages": [{"role": "user", "content": "I live in Oslo."}]}
    first = client.runs.wait(thread, "memory_agent", input=said, context={"now": "2025-03-01T09:00:00Z"})
    interrupts = first.get("__interrupt__") or []
    assert len(interrupts) == 1, first
    [action] = interrupts[0]["value"]["action_requests"]
    assert (action["name"], action["args"]["content"]) == ("add_memory", "The user lives in Oslo.")
    assert f"thread {thread}" in action["description"]  # provenance: the server's thread id
    assert client.threads.get_state(thread)["next"] == ["human_approval"]  # the server's checkpointer holds it

    resumed = client.runs.wait(thread, "memory_agent", command={"resume": {"decisions": [{"type": "approve"}]}})
    assert [(c["action"], c["written"]) for c in resumed["committed"]] == [("approve", True)]
    assert client.threads.get_state(thread)["next"] == []

    # A new thread of the same user gets the fact injected; another user does not.
    ask = {"messages": [{"role": "user", "content": "Where do I live?"}]}
    again = client.runs.wait(client.threads.create()["thread_id"], "memory_agent", input=ask)
    assert [m["content"] for m in again["memories"]] == ["The user lives in Oslo."]
    bob = dev_server["make_client"](dev_server["keys"]["bob"])
    other = bob.runs.wait(bob.threads.create()["thread_id"], "memory_agent", input=ask)
    assert other["memories"] == []

    # The fact is in our long-term store (not the server's): stop the server, open the data folder.
    dev_server["proc"].terminate()
    dev_server["proc"].wait(timeout=20)
    with MemoryAgent.open(Settings(data_dir=dev_server["data_dir"]), model=load_chat_model("offline"),
                          embedder=embedder) as agent:
        facts = agent.memory.live("alice")
        assert [(f.content, f.source.thread_id, f.status) for f in facts] == [
            ("The user lives in Oslo.", thread, "confirmed")]
        assert thread in agent.memory.ledger.threads("alice")  # commit recorded the user → thread index
        assert agent.memory.live("bob") == []


def _refused(call, *statuses: int) -> httpx.HTTPStatusError:
    with pytest.raises(httpx.HTTPStatusError) as err:
        call()
    assert err.value.response.status_code in statuses, err.value.response.text
    return err.value


def test_two_users_each_reach_only_their_own_threads(dev_server, embedder):
    make, keys = dev_server["make_client"], dev_server["keys"]
    alice, bob = make(keys["alice"]), make(Authorization=f"Bearer {keys['bob']}")  # both ways to send a key
    said = {"messages": [{"role": "user", "content": "I live in Oslo."}]}
    thread = alice.threads.create()["thread_id"]
    first = alice.runs.wait(thread, "memory_agent", input=said)
    assert len(first["__interrupt__"]) == 1, first  # alice's thread waits at the approval

    # Bob, with his own valid key, cannot see, read, change, run on or resume Alice's thread.
    _refused(lambda: bob.threads.get(thread), 404)
    _refused(lambda: bob.threads.get_state(thread), 404)
    _refused(lambda: bob.threads.get_history(thread), 404)
    _refused(lambda: bob.threads.update(thread, metadata={"owner": "bob"}), 404)
    _refused(lambda: bob.runs.list(thread), 404)
    _refused(lambda: bob.runs.wait(thread, "memory_agent", input=said), 404)
    _refused(lambda: bob.runs.wait(thread, "memory_agent", command={"resume": {"decisions": [{"type": "approve"}]}}),
             404)
    _refused(lambda: bob.threads.delete(thread), 404)
    _refused(lambda: bob.threads.create(thread_id=thread, if_exists="do_nothing"), 409)
    _refused(lambda: bob.runs.wait(thread, "memory_agent", input=said, if_not_exists="create"), 404)
    assert thread not in {t["thread_id"] for t in bob.threads.search(limit=100)}
    assert thread in {t["thread_id"] for t in alice.threads.search(limit=100)}
    # ... nor act as Alice (or choose the approval mode) through the run context
    own = bob.threads.create()["thread_id"]
    err = _refused(lambda: bob.runs.wait(own, "memory_agent", input=said, context={"user_id": "alice"}), 403)
    assert "signs in 'bob'" in err.response.text
    err = _refused(lambda: bob.runs.wait(own, "memory_agent", input=said, context={"approval": "never"}), 403)
    assert "MEMORY_AGENT_APPROVAL" in err.response.text
    _refused(lambda: bob.runs.wait(own, "memory_agent", input=said, config={"configurable": {"user_id": "alice"}}),
             403)

    # No key, a wrong key, or Studio's header without a key: nothing at all.
    for stranger in (make(None), make("mak_" + "x" * 43), make(keys["alice"][:-2]), make(Authorization="Bearer"),
                     make(None, **{"x-auth-scheme": "langsmith"})):
        err = _refused(lambda c=stranger: c.threads.get_state(thread), 401)
        _refused(lambda c=stranger: c.threads.search(), 401)
        _refused(lambda c=stranger: c.runs.wait(None, "memory_agent", input=said), 401)
    assert "API key" in err.response.text

    # Alice's state is as she left it, and her own resume works; Bob's own turn works too.
    assert alice.threads.get_state(thread)["next"] == ["human_approval"]
    [action] = alice.threads.get_state(thread)["interrupts"][0]["value"]["action_requests"]
    edited = {"name": action["name"], "args": {**action["args"], "content": "The user lives in Oslo, Norway."}}
    resumed = alice.runs.wait(thread, "memory_agent",  # as Agent Chat UI sends an edit
                              command={"resume": {"decisions": [{"type": "edit", "edited_action": edited}]}})
    assert [(c["action"], c["written"]) for c in resumed["committed"]] == [("edit", True)]
    mine = bob.runs.wait(own, "memory_agent", input={"messages": [{"role": "user", "content": "Where do I live?"}]})
    assert mine["memories"] == [] and mine["messages"][-1]["type"] == "ai"

    # A revoked key stops working at once.
    assert accounts.revoke_keys(Settings(data_dir=dev_server["data_dir"]), "bob") == 1
    _refused(lambda: bob.threads.search(), 401)

    dev_server["proc"].terminate()
    dev_server["proc"].wait(timeout=20)
    with MemoryAgent.open(Settings(data_dir=dev_server["data_dir"]), model=load_chat_model("offline"),
                          embedder=embedder) as agent:
        assert [f.content for f in agent.memory.live("alice")] == ["The user lives in Oslo, Norway."]
        assert agent.memory.live("bob") == []
