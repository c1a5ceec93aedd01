"""The async twins of ``MemoryAgent`` (``aturn``, ``aresume``, ``astream_turn``) on real stores: concurrent
turns of different users stay apart, and an approval started async is resumed async. Embedded (SQLite
with ``AsyncSqliteSaver``) and, when Postgres answers, Postgres (``AsyncPostgresSaver`` on an
``AsyncConnectionPool``) with embedded Chroma. Only the chat model is a stand-in (the offline one)."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
from conftest import ADMIN_DATABASE_URL, T0, with_schema
from langchain_core.messages import ToolMessage

from memory_agent.app.agent import ANSWER_TOKEN, MemoryAgent
from memory_agent.app.settings import Settings
from memory_agent.models.offline.chat_model import OfflineChatModel

CITIES = {"alice": "Munich", "bob": "Paris", "carol": "Oslo", "dan": "Lima"}


@pytest.fixture(params=["sqlite", "postgres"])
def async_agent(request, tmp_path, embedder):
    settings = {"data_dir": tmp_path / "data"}
    if request.param == "postgres":
        psycopg = pytest.importorskip("psycopg")
        try:
            admin = psycopg.connect(ADMIN_DATABASE_URL, autocommit=True, connect_timeout=3)
        except psycopg.Error as exc:
            if os.environ.get("MEMORY_AGENT_TEST_SERVERS") == "required":
                pytest.fail(f"Postgres is required here but not reachable: {exc}")
            pytest.skip(f"Postgres is not reachable at {ADMIN_DATABASE_URL}")
        schema = f"async_{uuid.uuid4().hex[:8]}"
        admin.execute(f"CREATE SCHEMA {schema}")
        settings["database_url"] = with_schema(ADMIN_DATABASE_URL, schema)
    agent = MemoryAgent.open(Settings(**settings), model=OfflineChatModel(), embedder=embedder)
    yield agent
    agent.close()
    if request.param == "postgres":
        admin.execute(f"DROP SCHEMA {schema} CASCADE")
        admin.close()


def test_concurrent_async_turns_of_different_users_stay_apart(async_agent):
    async def main():
        try:
            said = await asyncio.gather(*(async_agent.aturn(u, f"I live in {c}.", thread_id="t1", now=T0,
                                                            approval="never") for u, c in CITIES.items()))
            asked = await asyncio.gather(*(async_agent.aturn(u, "Search my memories for where I live.",
                                                             thread_id="t2", now=T0) for u in CITIES))
            return said, asked
        finally:
            await async_agent.aclose()  # the async saver of this loop; the fixture closes the agent

    said, asked = asyncio.run(main())
    for (user, city), first, second in zip(CITIES.items(), said, asked, strict=True):
        assert [c["content"] for c in first.committed] == [f"The user lives in {city}."]
        assert [f.content for f in async_agent.memory.live(user)] == [f"The user lives in {city}."]
        assert city in second.answer and "tools" in second.node_seconds
        others = [c for u, c in CITIES.items() if u != user]
        assert not any(c in second.answer for c in others), (user, second.answer)
        transcript = async_agent.transcript(user, "t2")  # the async saver's checkpoints, read by the sync one
        tool_text = " ".join(m.content for m in transcript if isinstance(m, ToolMessage))
        assert city in tool_text and not any(c in tool_text for c in others)


def test_an_async_turn_waits_for_approval_and_resumes_async(async_agent):
    async def main():
        try:
            events = [e async for e in async_agent.astream_turn("erin", "I am vegetarian.", thread_id="t", now=T0,
                                                               tokens=True)]
            pending = await asyncio.to_thread(async_agent.pending, "erin", "t")
            resumed = await async_agent.aresume("erin", "t", "approve", now=T0)
            return events, pending, resumed
        finally:
            await async_agent.aclose()

    events, pending, resumed = asyncio.run(main())
    tokens = "".join(u["text"] for n, u, _ in events if n == ANSWER_TOKEN)
    answer = [u for n, u, _ in events if n == "answer"][-1]["messages"][-1].content
    assert tokens == answer and len([n for n, _, _ in events if n == ANSWER_TOKEN]) > 3
    assert [p["content"] for p in pending] == ["The user is vegetarian."]
    assert [c["action"] for c in resumed.committed] == ["approve"] and resumed.pending == []
    assert [f.content for f in async_agent.memory.live("erin")] == ["The user is vegetarian."]
