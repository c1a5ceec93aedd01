"""The lexical half of hybrid retrieval (``memory_agent.memory.lexical``): stemming tokens, BM25
scores on an absolute 0-1 scale, one index per user, refreshed by every write. The last two run on
the agent's real stores."""

from __future__ import annotations

from datetime import timedelta

import pytest
from conftest import T0, plant

from memory_agent.memory.lexical import LexicalIndex, tokenize
from memory_agent.memory.retrieval import hybrid_similarity


def test_tokenize_stems_and_drops_stop_words():
    assert tokenize("The user is painting; they painted it!") == ["user", "paint", "paint"]
    assert tokenize("the and of") == []


def test_lexical_scores_are_absolute_and_zero_without_a_match():
    index = LexicalIndex(["a", "b", "c"], ["The user lives in Oslo.", "The user plays the cello.", "Postgres."])
    scores = index.scores("Which city does the user live in, Oslo?")
    assert set(scores) == {"a", "b"}  # 'user' matches b too; 'c' has no term of the query
    assert 0 < scores["b"] < scores["a"] <= 1.0
    assert index.scores("weather tomorrow") == {} and LexicalIndex([], []).scores("anything") == {}
    assert hybrid_similarity(0.4, 0.0) == 0.4 and hybrid_similarity(0.4, 1.0) == pytest.approx(1.0)


def test_bm25_matches_the_bm25s_library():
    """The postings of LexicalIndex give the scores of ``bm25s`` (Lucene variant, k1 1.5, b 0.75) on
    documents of many lengths, some without any token, and queries with repeated and unseen terms."""
    import random

    import bm25s

    rng = random.Random(7)
    words = ["oslo", "cello", "vegan", "postgres", "kafka", "dog", "greyhound", "paris", "tea", "run",
             "garden", "python", "rust", "lisbon", "piano"]
    docs = [[rng.choice(words) for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 13]))] for _ in range(300)]
    index = LexicalIndex([str(k) for k in range(len(docs))], None, tokens=docs)
    reference = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    reference.index([d or ["\x00"] for d in docs], show_progress=False)
    for query in ("oslo cello", "tea tea garden", "rust piano lisbon unseenword", "nothing here", "dog"):
        terms = tokenize(query)
        ids = reference.get_tokens_ids(terms)
        expected = reference.get_scores_from_ids(ids) if ids else [0.0] * len(docs)
        assert index.raw_scores(query) == pytest.approx([float(x) for x in expected], rel=1e-5, abs=1e-9), query


def test_bm25_statistics_are_per_user(memory):
    """Another user's facts never change a user's lexical scores (the index is the user's own)."""
    for content in ("The user lives in Oslo.", "The user plays the cello."):
        plant(memory, "alice", content)
    before = memory.retrieve("alice", "Where does the user live? Oslo?", T0)
    for i in range(20):
        plant(memory, "bob", f"The user visited Oslo on trip {i}.")
    after = memory.retrieve("alice", "Where does the user live? Oslo?", T0)
    assert [(s.fact.id, round(s.lexical, 6)) for s in before] == [(s.fact.id, round(s.lexical, 6)) for s in after]
    assert before[0].fact.content == "The user lives in Oslo." and before[0].lexical > 0
    assert all(s.fact.user_id == "alice" for s in after)


def test_a_write_refreshes_the_users_lexical_index(memory):
    plant(memory, "alice", "The user lives in Oslo.")
    assert memory.retrieve("alice", "kayak", T0) == []
    plant(memory, "alice", "The user owns a red kayak.")  # through the index, as another process would
    got = memory.retrieve("alice", "kayak", T0 + timedelta(seconds=1))
    assert [s.fact.content for s in got] == ["The user owns a red kayak."]
