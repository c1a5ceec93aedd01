"""Ranking retrieved facts (``memory_agent.memory.retrieval``): cosine distance to similarity, the
floors per kind, superseded and expired facts left out, the score's weights and ``top_k``."""

from __future__ import annotations

import pytest
from conftest import T0, day

from memory_agent.core.facts import Fact, Source
from memory_agent.memory.retrieval import RetrievalConfig, rank, similarity_from_distance


def make_fact(user_id: str, fid: str, content: str, **fields) -> Fact:
    """A confirmed fact created at ``T0`` unless overridden."""
    base = {"kind": "fact", "source": Source(thread_id="t", message_ids=["m"]), "evidence": content,
            "created_at": T0, "updated_at": T0}
    return Fact(id=fid, user_id=user_id, content=content, **{**base, **fields})


def test_rank_maps_cosine_distance_and_filters():
    assert [similarity_from_distance(d) for d in (0.0, 0.25, 1.0, 1.5, 2.0)] == [1.0, 0.75, 0.0, 0.0, 0.0]
    live = make_fact("u", "f_live", "live", importance=0.5)
    gone = make_fact("u", "f_gone", "gone", status="superseded")
    expired = make_fact("u", "f_old", "old", valid_until=day(1))
    far = make_fact("u", "f_far", "far")
    pref = make_fact("u", "f_pref", "pref", kind="preference")
    scored = rank([(live, 0.2), (gone, 0.0), (expired, 0.0), (far, 0.8), (pref, 0.85)], day(2), RetrievalConfig())
    assert [s.fact.id for s in scored] == ["f_live", "f_pref"]  # fact floor 0.25, preference floor 0.12
    assert scored[0].similarity == pytest.approx(0.8)
    assert scored[0].score == pytest.approx(0.6 * 0.8 + 0.25 * scored[0].recency + 0.15 * 0.5)
    assert scored[0].recency < 1.0
    top1 = rank([(live, 0.2), (pref, 0.1)], day(2), RetrievalConfig(top_k=1))
    assert [s.fact.id for s in top1] == ["f_pref"]


def test_equal_scores_rank_in_one_order_whatever_order_the_candidates_come_in():
    """A query the embedder cannot read (another language) resembles none of a turn's facts: similarity 0,
    the same recency and importance, so the scores tie; the ranking (and so the extraction prompt that
    lists it) must not depend on the order the store listed them in."""
    facts = [make_fact("u", f"f_{i}", content, importance=0.7) for i, content in
             enumerate(["The user works as a UX designer.", "The user has a son named Elis.",
                        "The user is on parental leave."])]
    newer = make_fact("u", "f_new", "The user lives in Umeå.", importance=0.7, updated_at=day(1))
    config = RetrievalConfig(min_similarity=-1.0, min_similarity_profile=-1.0, min_score=0.0)
    orders = {tuple(s.fact.id for s in rank([(f, 1.2) for f in candidates], day(2), config))
              for candidates in (facts + [newer], [newer] + facts[::-1], facts[1:] + [newer, facts[0]])}
    assert len(orders) == 1
    [order] = orders
    assert order[0] == "f_new"  # more recent, so a higher score
