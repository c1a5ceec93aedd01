"""Shared fixtures and helpers of the test suite: one real MiniLM embedder per session, agents on real
stores, a scripted fake chat model (the only fake: it stands in for the LLM) and a fake
OpenAI-compatible server (:class:`FakeOpenAI`). Tests import helpers as ``from conftest import ...``.

Layout (no ``__init__.py``: pytest puts each test file's folder on ``sys.path``, so test file names
are unique across folders):

- ``unit/<package>/`` tests ``memory_agent.<package>`` (``app``, ``cli``, ``core``, ``evals``,
  ``memory``, ``models``, ``nodes``); ``unit/test_layout.py`` checks the repository's shape.
- ``contract/`` tests the stores (``memory_agent.stores``). ``ledger_contract.py`` and
  ``index_contract.py`` hold :class:`LedgerContract` and :class:`IndexContract`, written only against
  the role protocols of ``stores/base.py``; ``test_<backend>_ledger.py`` / ``test_<backend>_index.py``
  run them on one backend (SQLite, Postgres, Chroma) next to that backend's own tests. A new store
  backend adds ``contract/test_<backend>_ledger.py`` with a subclass of :class:`LedgerContract` that
  provides a ``ledger`` fixture (a fresh, empty ledger per test; likewise :class:`IndexContract` and an
  ``index`` fixture), and runs ``pytest tests/contract/test_<backend>_ledger.py``.
- ``integration/`` runs the agent and its graph on real stores: the memory graph, approval, commit,
  isolation, the trust boundary, bad input, faults (killed processes, servers going down), the
  LangGraph server's context and a real small LLM.
- ``e2e/`` runs what a user runs: the README's snippets and commands, the notebooks, ``langgraph dev``.
- ``load/`` holds scripts, not collected by pytest, that ``.ci/run`` runs on small counts: ``run_load.py``
  (the multi-process load check), ``kill_writes.py`` (SIGKILL at random points of commit, maintain and
  forget-user, with the checks of ``integration/fault_child.py``) and ``supersede_race.py`` (concurrent
  supersedes of one slot). ``data/`` holds the injection corpus and the ledger files release 0.1.0 wrote.

Backends: ``make_agent`` builds agents on the ``backend`` fixture. A test module that sets
``BACKENDS = ("embedded", "server")`` runs each of its tests on both: ``embedded`` = SQLite + Chroma
in ``tmp_path``; ``server`` = PostgreSQL (a database made for this test session, one schema per
test, dropped at the end) + a Chroma server (one Chroma database per test). The server is the one
``MEMORY_AGENT_TEST_CHROMA_URL`` names (``.ci/run`` starts one); Postgres is reached through
``MEMORY_AGENT_TEST_DATABASE_URL`` (default ``postgresql://postgres@127.0.0.1:5432/postgres``). Without
them the ``server`` tests are skipped, unless ``MEMORY_AGENT_TEST_SERVERS=required`` (set by CI), which
turns the skip into a failure.

The fake model answers every chat call with a fixed reply (recording the prompt it got) and,
for ``with_structured_output``, returns a ``RunnableLambda`` that reads the user message out of
the extraction prompt and produces the :class:`ProposedFacts` a test scripted for it.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import os
import re
import shutil
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableLambda
from pydantic import Field

from memory_agent.app.agent import MemoryAgent
from memory_agent.app.settings import Settings
from memory_agent.core.facts import Fact, ProposedFact, ProposedFacts, Source, stable_id
from memory_agent.memory.lexical import tokenize
from memory_agent.models.embeddings import EmbedderInfo, load_embedder
from memory_agent.stores.long_term import LongTermMemory

# The embedder's ONNX graph, exported from the shipped weights on first use, goes to a folder of this
# test session (inherited by child processes) unless MEMORY_AGENT_CACHE_DIR already names one.
if not os.environ.get("MEMORY_AGENT_CACHE_DIR"):
    os.environ["MEMORY_AGENT_CACHE_DIR"] = tempfile.mkdtemp(prefix="memory-agent-cache-")
    atexit.register(shutil.rmtree, os.environ["MEMORY_AGENT_CACHE_DIR"], True)

#: The context clock of the tests: every turn passes an explicit ``now`` built from it.
T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)

_PROMPT_MESSAGE = re.compile(r"^\[(?P<id>[^\]]+)\] user: (?P<text>.*?)\n</messages>", re.MULTILINE | re.DOTALL)


def day(n: float) -> datetime:
    """The test clock ``n`` days after :data:`T0`."""
    return T0 + timedelta(days=n)


class ScriptedChatModel(BaseChatModel):
    """A fake chat model with scripted structured output.

    - ``invoke(prompt)`` (the ``answer`` node) records ``prompt`` in :attr:`answer_prompts` and
      returns :attr:`reply`.
    - ``with_structured_output(ProposedFacts)`` (the ``propose_facts`` node) returns a runnable
      that parses ``[<message id>] user: <text>`` from the extraction prompt and, for every
      key of :attr:`script` that occurs in the text (case-insensitive), proposes the scripted
      facts. ``message_ids`` default to the message's id and ``evidence`` to the whole text.
    - :attr:`mode` ``"garbage"`` returns :attr:`garbage` (by default a string) instead of
      ``ProposedFacts``; ``"raise"`` raises like a failing output parser;
      ``"interrupt"`` raises ``KeyboardInterrupt`` (Ctrl-C mid-node).
    """

    script: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    reply: str = "Noted."
    mode: str = "script"
    garbage: Any = "Sure! The user likes cats, I think."
    answer_prompts: list[list[BaseMessage]] = Field(default_factory=list)
    extraction_calls: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        self.answer_prompts.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=self.reply))])

    def with_structured_output(self, schema, **kwargs):
        return RunnableLambda(self._propose)

    def _propose(self, messages) -> ProposedFacts:
        prompt = messages[-1].content if isinstance(messages, list) else str(messages)
        self.extraction_calls.append(prompt)
        if self.mode == "garbage":
            return self.garbage
        if self.mode == "interrupt":  # Ctrl-C in the middle of the node
            raise KeyboardInterrupt
        if self.mode == "raise":
            raise RuntimeError("OutputParserException: could not parse '<html>502 Bad Gateway</html>'")
        m = _PROMPT_MESSAGE.search(prompt)
        assert m, f"extraction prompt without a user message: {prompt[-300:]!r}"
        mid, text = m.group("id"), m.group("text")
        facts = []
        for key, items in self.script.items():
            if key.casefold() in text.casefold():
                facts += [ProposedFact(**{"message_ids": [mid], "evidence": text, **item}) for item in items]
        return ProposedFacts(facts=facts)

    def memory_block(self, call: int = -1) -> str:
        """The memory block system message of answer call ``call`` ('' when none was injected)."""
        for msg in self.answer_prompts[call]:
            if msg.type == "system" and "<memories>" in str(msg.content):
                return str(msg.content)
        return ""


@pytest.fixture(scope="session")
def embedder() -> EmbedderInfo:
    """The real all-MiniLM-L6-v2 embedder (default runtime: ONNX Runtime, graph exported once per
    session), loaded once per test session and warmed up."""
    info = load_embedder("minilm")
    info.embeddings.embed_query("warm up")
    return info


@pytest.fixture
def model() -> ScriptedChatModel:
    """A fresh scripted fake model; set ``model.script[...]`` in the test."""
    return ScriptedChatModel()


ADMIN_DATABASE_URL = os.environ.get("MEMORY_AGENT_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
SESSION_TAG = f"{os.getpid()}_{uuid.uuid4().hex[:6]}"
_counter = itertools.count()


def _servers_missing(reason: str):
    """Skip a ``server`` test, or fail it when CI said the servers are required."""
    if os.environ.get("MEMORY_AGENT_TEST_SERVERS") == "required":
        pytest.fail(f"server backends are required here but {reason}")
    pytest.skip(reason)


def with_schema(url: str, schema: str) -> str:
    """``url`` with libpq's ``options=-csearch_path=<schema>``, so every table lands in ``schema``."""
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A database made for this test session (``memory_agent_test_<pid>_<rand>``) and dropped after it,
    so parallel runs on the same Postgres never meet. Yields its URL."""
    import psycopg

    try:
        admin = psycopg.connect(ADMIN_DATABASE_URL, autocommit=True, connect_timeout=5)
    except psycopg.Error as exc:
        _servers_missing(f"Postgres is not reachable at {ADMIN_DATABASE_URL} ({exc})")
    name = f"memory_agent_test_{SESSION_TAG}"
    admin.execute(f'CREATE DATABASE "{name}"')
    base = ADMIN_DATABASE_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@dataclass
class Backend:
    """Where a test's agents keep their stores: ``settings`` go to :class:`Settings`, ``env`` to a child
    process (its ``Settings()`` reads them)."""

    name: str
    settings: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)


def pytest_generate_tests(metafunc):
    """Parametrise ``backend`` by the module's ``BACKENDS`` unless the test names its own."""
    own = any(m.args and m.args[0] == "backend" for m in metafunc.definition.iter_markers("parametrize"))
    if "backend" in metafunc.fixturenames and not own:
        metafunc.parametrize("backend", getattr(metafunc.module, "BACKENDS", ("embedded",)), indirect=True)


@pytest.fixture
def backend(request) -> Iterator[Backend]:
    """``embedded`` (the default) or ``server``: fresh, empty stores for this test either way (a server
    test's Chroma database is deleted after it; its Postgres schema goes with the session database)."""
    if request.param == "embedded":
        yield Backend("embedded")
        return
    chroma_url = os.environ.get("MEMORY_AGENT_TEST_CHROMA_URL")
    if not chroma_url:
        _servers_missing("no Chroma server configured (MEMORY_AGENT_TEST_CHROMA_URL)")
    import psycopg

    database_url = request.getfixturevalue("postgres_database")
    n = next(_counter)
    schema = f"t{n}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    settings = {"database_url": with_schema(database_url, schema), "chroma_url": chroma_url,
                "chroma_database": f"test_{SESSION_TAG}_{n}"}
    env = {"MEMORY_AGENT_DATABASE_URL": settings["database_url"], "MEMORY_AGENT_CHROMA_URL": chroma_url,
           "MEMORY_AGENT_CHROMA_DATABASE": settings["chroma_database"]}
    yield Backend("server", settings, env)
    _delete_chroma_database(chroma_url, settings["chroma_database"])


def _delete_chroma_database(url: str, name: str) -> None:
    """Best effort: a test's Chroma database on a long-lived server is removed after the test."""
    from urllib.parse import urlparse

    import chromadb

    u = urlparse(url)
    with contextlib.suppress(Exception):
        chromadb.AdminClient(chromadb.config.Settings(
            anonymized_telemetry=False, chroma_api_impl="chromadb.api.fastapi.FastAPI",
            chroma_server_host=u.hostname, chroma_server_http_port=u.port)).delete_database(name)


@pytest.fixture
def make_agent(tmp_path: Path, embedder: EmbedderInfo, backend: Backend) -> Iterator[Callable[..., MemoryAgent]]:
    """Factory ``make_agent(data_dir=None, model=None, **settings)`` → an open :class:`MemoryAgent`
    on the test's ``backend`` (embedded: real SQLite + Chroma in ``tmp_path/'data'``). Every agent is
    closed at teardown (embedded ones hold an exclusive lock on the data folder)."""
    opened: list[MemoryAgent] = []

    def _make(data_dir: Path | None = None, model: BaseChatModel | None = None, **settings) -> MemoryAgent:
        agent = MemoryAgent.open(
            Settings(data_dir=data_dir or tmp_path / "data", **{**backend.settings, **settings}),
            model=model if model is not None else ScriptedChatModel(),
            embedder=embedder,
        )
        opened.append(agent)
        return agent

    yield _make
    for agent in opened:
        agent.close()


@pytest.fixture
def agent(make_agent, model: ScriptedChatModel) -> MemoryAgent:
    """An agent on ``tmp_path/'data'`` driven by the ``model`` fixture."""
    return make_agent(model=model)


@pytest.fixture
def memory(agent):
    """The agent's real :class:`LongTermMemory` (Chroma + SQLite in ``tmp_path``)."""
    return agent.memory


def plant(memory: LongTermMemory, user_id: str, content: str, *, kind: str = "fact", topic: str = "",
          now: datetime = T0, **fields) -> Fact:
    """Write a confirmed fact straight into the ledger and the live index (bypassing the graph),
    e.g. to plant content the validation would never let through, or a ``valid_until``."""
    fields.setdefault("source", Source(thread_id="planted", message_ids=["m0"]))
    fact = Fact(
        id=stable_id(user_id, content, prefix="f_"), user_id=user_id, kind=kind, content=content, topic=topic,
        evidence=content, created_at=now, updated_at=now, **fields,
    )
    vector = memory.embeddings.embed_documents([fact.index_text])[0]
    # as a commit writes it: the vector and lexical tokens ride with the ledger row
    memory.ledger.save_fact(fact, vector, tokenize(fact.index_text), memory.index.embedder_name)
    memory.index.upsert(user_id, [fact], [vector])
    return fact


class FakeOpenAI:
    """Answers ``POST /v1/chat/completions``: plain requests with :attr:`reply`; requests with a
    ``response_format`` (structured output) with :attr:`structured`, a function of the prompt text
    that returns the message content (a string, JSON or not); ``"stream": true`` requests as server-sent
    events, one chunk per word."""

    def __init__(self) -> None:
        self.reply = "Here is my answer."
        self.structured = lambda prompt: json.dumps({"facts": []})
        self.requests: list[dict] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append(body)
                prompt = "\n".join(str(m.get("content")) for m in body["messages"])
                content = fake.structured(prompt) if body.get("response_format") else fake.reply
                if body.get("stream"):  # server-sent events, one chunk per word, as OpenAI streams
                    self._stream(body["model"], content)
                    return
                data = json.dumps({
                    "id": "c1", "object": "chat.completion", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": content}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, model: str, content: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                words = re.findall(r"\S+\s*", content) or [""]
                for i, word in enumerate([*words, None]):
                    delta = {} if word is None else {"content": word, **({"role": "assistant"} if i == 0 else {})}
                    end = "stop" if word is None else None
                    chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": model,
                             "choices": [{"index": 0, "delta": delta, "finish_reason": end}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

            def log_message(self, *args) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
