"""The web page's app without a browser (Starlette's test client on the real app, stores and accounts;
the chat model is the scripted fake): the answer streamed piece by piece, the security headers, the
loopback-only Host check, and sign-in edge cases. The browser tests are in ``e2e/test_web.py``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ScriptedChatModel
from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk

pytest.importorskip("asgi_csrf", reason="needs the web extra: pip install -e '.[web]'")
from starlette.testclient import TestClient  # noqa: E402

from memory_agent.app import accounts  # noqa: E402
from memory_agent.app.agent import ANSWER_TOKEN, MemoryAgent  # noqa: E402
from memory_agent.app.settings import Settings  # noqa: E402
from memory_agent.web import create_app  # noqa: E402

USER = "carol@example.com"
REPLY = "Lentil soup is a good start tonight."


class WordStreamingModel(ScriptedChatModel):
    """The scripted fake, streaming its reply one word at a time."""

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):
        for i, word in enumerate(self.reply.split(" ")):
            text = word if i == 0 else " " + word
            if run_manager:
                run_manager.on_llm_new_token(text)
            yield ChatGenerationChunk(message=AIMessageChunk(content=text))


@pytest.fixture
def web(tmp_path: Path, embedder):
    settings = Settings(data_dir=tmp_path / "data")
    key = accounts.issue_key(settings, USER)
    agent = MemoryAgent.open(settings, model=WordStreamingModel(reply=REPLY), embedder=embedder)
    client = TestClient(create_app(settings, agent=agent), base_url="http://127.0.0.1")
    yield {"client": client, "key": key, "agent": agent, "settings": settings}
    agent.close()


def _token(client: TestClient, path: str = "/signin") -> str:
    return re.search(r'name="csrftoken" value="([^"]+)"', client.get(path).text).group(1)


def _sign_in(web) -> str:
    client = web["client"]
    token = _token(client)
    assert client.post("/signin", data={"key": web["key"], "csrftoken": token}).url.path == "/chat"
    return token


@pytest.mark.parametrize("streaming", [True, False])
def test_stream_turn_yields_the_answer_as_generated(tmp_path, embedder, streaming):
    model = (WordStreamingModel if streaming else ScriptedChatModel)(reply=REPLY)
    with MemoryAgent.open(Settings(data_dir=tmp_path / "d"), model=model, embedder=embedder) as agent:
        events = list(agent.stream_turn(USER, "Hello there.", thread_id="t1", tokens=True))
        pieces = [u["text"] for node, u, _ in events if node == ANSWER_TOKEN]
        nodes = [node for node, _, _ in events]
        assert "".join(pieces) == REPLY
        assert len(pieces) == (len(REPLY.split(" ")) if streaming else 1)  # the node's own message is not repeated
        assert nodes.index(ANSWER_TOKEN) < nodes.index("answer")
        plain = list(agent.stream_turn(USER, "Hello again.", thread_id="t1"))
        assert all(node != ANSWER_TOKEN for node, _, _ in plain)


def test_chat_streams_server_sent_events(web):
    token = _sign_in(web)
    with web["client"].stream("POST", "/chat/send", data={"thread": "t1", "message": "Hello.", "csrftoken": token},
                              headers={"accept": "text/event-stream"}) as resp:
        assert resp.headers["content-type"].startswith("text/event-stream")
        body = "".join(resp.iter_text())
    tokens = re.findall(r"event: token\ndata: (.*)\n", body)
    assert len(tokens) == len(REPLY.split(" "))
    assert body.rstrip().splitlines()[-2] == "event: done"


def test_security_headers_and_loopback_hosts_only(web):
    client = web["client"]
    resp = client.get("/signin")
    csp = resp.headers["content-security-policy"]
    nonce = re.search(r"'nonce-([^']+)'", csp).group(1)
    assert f'nonce="{nonce}"' in resp.text and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert resp.headers["x-frame-options"] == "DENY" and resp.headers["x-content-type-options"] == "nosniff"
    assert resp.headers["cache-control"] == "no-store"
    assert client.get("/signin", headers={"host": "evil.example"}).status_code == 400


def test_sign_in_refuses_a_wrong_key_and_revoking_ends_the_session(web):
    client = web["client"]
    assert client.get("/memories").url.path == "/signin"
    token = _token(client)
    wrong = client.post("/signin", data={"key": "mak_not-a-key", "csrftoken": token})
    assert wrong.status_code == 401 and "not valid" in wrong.text
    _sign_in(web)
    assert client.get("/memories").url.path == "/memories"
    accounts.revoke_keys(web["settings"], USER)
    assert client.get("/memories").url.path == "/signin"
    token = _token(client)
    assert client.post("/memories/switch", data={"enabled": "off", "csrftoken": token}).status_code == 401
    assert web["agent"].memory.ledger.memory_enabled(USER) is True


def test_a_turn_cut_short_is_finished_when_its_conversation_is_opened(web):
    _sign_in(web)
    agent = web["agent"]
    agent.model.mode = "interrupt"  # the extraction is cut short (Ctrl-C, a killed worker) after the answer
    with pytest.raises(KeyboardInterrupt):
        agent.turn(USER, "Hello.", thread_id="t9")
    agent.model.mode = "script"
    assert agent.unfinished(USER, "t9")
    page = web["client"].get("/chat?thread=t9")
    assert REPLY in page.text
    assert not agent.unfinished(USER, "t9")
