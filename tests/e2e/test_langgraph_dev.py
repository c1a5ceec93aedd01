"""``langgraph dev`` serves the graph of ``langgraph.json``: a real dev server (in-memory runtime)
on loopback, driven through ``langgraph-sdk`` like LangGraph Studio drives it — a turn up to the
approval interrupt, the resume, then the fact read back from our own stores.

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

import pytest

pytest.importorskip("langgraph_api", reason="needs the studio extra: pip install -e '.[studio]'")
pytest.importorskip("langgraph_cli", reason="needs the studio extra: pip install -e '.[studio]'")
sdk = pytest.importorskip("langgraph_sdk", reason="needs the studio extra: pip install -e '.[studio]'")

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
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_AGENT_")}
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
    state and no ``.env``), with the repository's ``langgraph.json``; stopped at teardown."""
    port = _free_port()
    data_dir = tmp_path / "data"
    log = tmp_path / "server.log"
    exe = Path(sys.executable).parent / "langgraph"
    cmd = [str(exe), "dev", "--config", str(ROOT / "langgraph.json"), "--host", "127.0.0.1", "--port", str(port),
           "--no-browser", "--no-reload"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=_server_env(data_dir), stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        client = sdk.get_sync_client(url=url, timeout=120.0)
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert proc.poll() is None, f"langgraph dev exited early:\n{log.read_text()[-3000:]}"
            with contextlib.suppress(Exception):
                client.assistants.search(graph_id="memory_agent")
                break
            assert time.monotonic() < deadline, f"not up in {STARTUP_SECONDS} s:\n{log.read_text()[-3000:]}"
            time.sleep(0.5)
        yield {"client": client, "proc": proc, "data_dir": data_dir, "log": log}
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
    first = client.runs.wait(thread, "memory_agent", input=said,
                             context={"user_id": "alice", "approval": "always", "now": "2025-03-01T09:00:00Z"})
    interrupts = first.get("__interrupt__") or []
    assert len(interrupts) == 1, first
    proposals = interrupts[0]["value"]["proposals"]
    assert [p["content"] for p in proposals] == ["The user lives in Oslo."]
    assert proposals[0]["source"]["thread_id"] == thread  # provenance: the server's thread id
    assert client.threads.get_state(thread)["next"] == ["human_approval"]  # the server's checkpointer holds it

    resumed = client.runs.wait(thread, "memory_agent", command={"resume": "approve"}, context={"user_id": "alice"})
    assert [(c["action"], c["written"]) for c in resumed["committed"]] == [("approve", True)]
    assert client.threads.get_state(thread)["next"] == []

    # A new thread of the same user gets the fact injected; another user does not.
    ask = {"messages": [{"role": "user", "content": "Where do I live?"}]}
    again = client.runs.wait(client.threads.create()["thread_id"], "memory_agent", input=ask,
                             context={"user_id": "alice"})
    assert [m["content"] for m in again["memories"]] == ["The user lives in Oslo."]
    other = client.runs.wait(client.threads.create()["thread_id"], "memory_agent", input=ask,
                             context={"user_id": "bob"})
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
