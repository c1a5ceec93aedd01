"""A user's first read in a process ranks exactly as a warm one: ``retrieve`` reads the user's facts,
vectors and lexical tokens from the ledger row by row (``facts.embedding``, ``facts.terms``), keeps them
while the ledger's generation holds, and sees every write of another writer at the next call.

Real stores (a SQLite ledger and an embedded Chroma folder in ``tmp_path``), the real embedder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from datetime import timedelta
from pathlib import Path

from conftest import T0, day

from memory_agent.core.facts import Fact, Proposal, Source, stable_id
from memory_agent.stores.chroma_store import ChromaFactIndex, make_chroma_client
from memory_agent.stores.long_term import LongTermMemory
from memory_agent.stores.sql.ledger import SQLFactLedger

PROJECT_DIR = Path(__file__).resolve().parents[2]
TEXTS = [
    ("preference", "diet", "The user is vegetarian."), ("fact", "home", "The user lives in Oslo."),
    ("fact", "work", "The user works as a nurse at the city hospital."),
    ("preference", "music", "The user likes jazz, especially Coltrane."),
    ("project", "garden", "The user is building a raised bed for tomatoes."),
    ("fact", "pets", "The user has a rescue dog called Pixel."),
    ("event", "travel", "The user flew to Lisbon last May."),
    ("constraint", "health", "The user is allergic to peanuts."),
    ("fact", "family", "The user's sister Ana lives in Porto."),
    ("procedural", "answers", "The user wants short answers with bullet points."),
]
QUERIES = ["What should I cook tonight?", "Where does my sister live?", "Any travel memories?",
           "Tell me about my dog", "What music do I like?", "peanuts"]
_CHILD = textwrap.dedent("""
    import json, sys
    from datetime import datetime
    from memory_agent.models.embeddings import load_embedder
    from memory_agent.stores.chroma_store import ChromaFactIndex, make_chroma_client
    from memory_agent.stores.long_term import LongTermMemory
    from memory_agent.stores.sql.ledger import SQLFactLedger

    folder, now, *queries = sys.argv[1:]
    info = load_embedder("minilm")
    index = ChromaFactIndex(make_chroma_client(path=folder + "/chroma"), info.name, info.dimension)
    memory = LongTermMemory(index, SQLFactLedger(folder + "/ledger.sqlite"), info.embeddings)
    print(json.dumps([[(s.fact.id, round(s.score, 9)) for s in memory.retrieve("alice", q, datetime.fromisoformat(now))]
                      for q in queries]))
""")


def _open(folder: Path, embedder, client=None) -> LongTermMemory:
    client = client or make_chroma_client(path=str(folder / "chroma"))
    return LongTermMemory(ChromaFactIndex(client, embedder.name, embedder.dimension),
                          SQLFactLedger(folder / "ledger.sqlite"), embedder.embeddings)


def _commit(memory: LongTermMemory, user: str, kind: str, topic: str, content: str, n: int) -> str:
    p = Proposal(id=stable_id(user, content, prefix="p_"), operation="ADD", kind=kind, topic=topic, content=content,
                 source=Source(thread_id=f"t{n % 3}", message_ids=[f"m{n}"]), evidence=content,
                 importance=0.3 + 0.05 * n)
    return memory.apply(user, p, "approve", T0 + timedelta(days=n), "user")["fact_id"]


def _ranked(memory: LongTermMemory, now, digits: int = 9) -> list[list[tuple[str, float]]]:
    return [[(s.fact.id, round(s.score, digits)) for s in memory.retrieve("alice", q, now)] for q in QUERIES]


def test_a_first_retrieve_in_a_fresh_process_ranks_as_a_warm_one(tmp_path, embedder):
    memory = _open(tmp_path, embedder)
    for n, (kind, topic, content) in enumerate(TEXTS):
        _commit(memory, "alice", kind, topic, content, n)
    _commit(memory, "bob", "fact", "home", "The user lives in Lisbon.", 0)
    now = day(30)
    _ranked(memory, now)
    warm = _ranked(memory, now)
    assert any(warm) and "alice" in memory._snapshots
    env = {**os.environ, "PYTHONPATH": str(PROJECT_DIR), "HF_HUB_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path), now.isoformat(), *QUERIES], cwd=PROJECT_DIR,
                         env=env, capture_output=True, text=True, timeout=300, check=True)
    cold = [[(i, s) for i, s in q] for q in json.loads(out.stdout.strip().splitlines()[-1])]
    assert cold == warm
    assert _ranked(_open(tmp_path, embedder, memory.index.client), now) == warm  # a new object: cold in-process


def test_rows_written_before_the_ledger_kept_vectors_rank_the_same_from_the_index(tmp_path, embedder):
    new, old = _open(tmp_path / "new", embedder), _open(tmp_path / "old", embedder)
    for n, (kind, topic, content) in enumerate(TEXTS):
        _commit(new, "alice", kind, topic, content, n)
    for fact in new.ledger.facts("alice", "confirmed"):  # what an older release wrote: no vector, no tokens
        old.ledger.save_fact(fact)
        old.index.upsert("alice", [fact], embedder.embeddings.embed_documents([fact.index_text]))
    # the same text embedded again may differ in the last float32 digits
    assert _ranked(old, day(30), 6) == _ranked(new, day(30), 6)
    assert "alice" not in old._snapshots  # the index's vectors can change under one generation: not kept


def test_another_writers_commit_supersede_and_retraction_are_seen_at_the_next_call(tmp_path, embedder):
    reader = _open(tmp_path, embedder)
    writer = _open(tmp_path, embedder, reader.index.client)  # its own ledger connection and caches
    oslo = _commit(writer, "alice", "fact", "home", "The user lives in Oslo.", 0)
    assert [s.fact.id for s in reader.retrieve("alice", "Where do I live?", day(1))] == [oslo]
    move = Proposal(id="p_move", operation="UPDATE", kind="fact", topic="home", content="The user lives in Bergen.",
                    source=Source(thread_id="t", message_ids=["m9"]), evidence="moved to Bergen", target_id=oslo)
    bergen = writer.apply("alice", move, "approve", day(2), "user")["fact_id"]
    assert [s.fact.content for s in reader.retrieve("alice", "Where do I live?", day(3))] == [
        "The user lives in Bergen."]
    gone = Proposal(id="p_gone", operation="RETRACT", kind="fact", topic="home", content="forget where I live",
                    source=Source(thread_id="t", message_ids=["m10"]), evidence="forget it", target_id=bergen)
    writer.apply("alice", gone, "approve", day(4), "user")
    assert reader.retrieve("alice", "Where do I live?", day(5)) == []
    assert reader.live_count("alice") == 0


def test_a_rewrite_that_changes_the_text_drops_the_stored_vector(tmp_path, embedder):
    memory = _open(tmp_path, embedder)
    fact_id = _commit(memory, "alice", "fact", "home", "The user lives in Oslo.", 0)
    fact: Fact = memory.ledger.get_fact("alice", fact_id)
    memory.ledger.update_live_fact(fact.model_copy(update={"importance": 0.9}))  # same text: vector kept
    assert memory.ledger.live_rows("alice")[1][0][2] is not None
    memory.ledger.update_live_fact(fact.model_copy(update={"content": "The user lives in Rome."}))
    assert memory.ledger.live_rows("alice")[1][0][2] is None  # read from the index until written again


def test_the_ranking_columns_follow_every_rewrite_of_the_fact(tmp_path, embedder):
    from memory_agent.memory.aspects import ASPECTS_VERSION
    from memory_agent.stores.base import LIVE_COLUMNS

    memory = _open(tmp_path, embedder)
    fact_id = _commit(memory, "alice", "fact", "home", "The user lives in Oslo.", 0)
    col = {name: k for k, name in enumerate(LIVE_COLUMNS)}
    row = memory.ledger.live_rows("alice")[1][0]
    assert (row[col["topic"]], row[col["valid_until"]]) == ("home", None)
    assert row[col["importance"]] == 0.3 and row[col["aspects"]].split()[0] == ASPECTS_VERSION
    assert {"home", "self"} <= set(row[col["aspects"]].split()[1:])
    fact: Fact = memory.ledger.get_fact("alice", fact_id)
    memory.ledger.update_live_fact(fact.model_copy(update={
        "importance": 0.9, "valid_until": day(9), "topic": "work", "content": "The user works at a bakery."}))
    row = memory.ledger.live_rows("alice")[1][0]
    assert (row[col["topic"]], row[col["importance"]], row[col["valid_until"]]) == ("work", 0.9, day(9).isoformat())
    assert "work" in row[col["aspects"]].split() and "home" not in row[col["aspects"]].split()
    # the stored end is what a reader applies: past it, the fact is not retrieved
    assert [s.fact.id for s in memory.retrieve("alice", "Where do I work?", day(8))] == [fact_id]
    assert memory.retrieve("alice", "Where do I work?", day(10)) == []


def test_rows_without_the_ranking_columns_or_with_another_aspect_version_rank_the_same(tmp_path, embedder):
    memory = _open(tmp_path, embedder)
    for n, (kind, topic, content) in enumerate(TEXTS):
        _commit(memory, "alice", kind, topic, content, n)
    now = day(30)
    queries = [*QUERIES, "any nice day trips near home?", "what should I feed my dog?", "a bio for my job"]

    def ranked(m):
        return [[(s.fact.id, round(s.score, 9)) for s in m.retrieve("alice", q, now)] for q in queries]

    before = ranked(memory)
    assert sum(map(len, before)) > len(queries)
    conn = memory.ledger.conn
    # an aspect list stored under other patterns (a release that changed them) is matched again
    conn.execute("UPDATE facts SET aspects = 'a0000000000 pet' WHERE user_id = 'alice'")
    conn.commit()
    assert ranked(_open(tmp_path, embedder, memory.index.client)) == before
    # a row of a release before the columns: everything read from its JSON
    conn.execute("UPDATE facts SET topic = NULL, importance = NULL, valid_until = NULL, aspects = NULL")
    conn.commit()
    assert ranked(_open(tmp_path, embedder, memory.index.client)) == before
