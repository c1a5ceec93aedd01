"""Ranking of a user's live facts for one query: relevance (dense + lexical), recency, importance.

``score = 0.6·similarity + 0.25·recency + 0.15·importance`` with
``recency = exp(−age / 60 days)`` (age since the fact was last updated, at the context clock).
The weights follow the seed design of this template (in the spirit of the retrieval score of
Park et al., "Generative Agents", 2023, which also mixes relevance, recency and importance).

``similarity = clip(1 − cosine distance, 0, 1)``: Chroma's cosine distance is ``1 − cos``, so
this is the cosine similarity with negatives clipped to 0. Unrelated sentences under
all-MiniLM-L6-v2 sit near 0–0.15 and close paraphrases above 0.7, so scores spread over
[0, 1] instead of crowding near 1 (as ``1 − d/2`` would).

Hybrid relevance: when the caller passes lexical scores (BM25 over the user's own memories,
:mod:`memory_agent.memory.lexical`, 0–1), ``similarity = cos + lex − cos·lex`` (a noisy-OR: either
kind of evidence raises it, neither lowers it, and with no lexical match it is the cosine as
before). On the LoCoMo dev split this lifts evidence recall@10 from 0.48 (MiniLM alone) and 0.58
(BM25 alone) to about 0.71: see ``evals/RETRIEVAL_NOTES.md`` for what each part bought.

Episodes (turns of a conversation, kind ``episode``) are searched lexically together with the turn
before them in the same thread (:func:`lexical_documents`): a reply ("Yes, last May!") is found by
the words of the question it answers.

A wrong memory is worse than none, so candidates are cut twice before top-k: by similarity
(``min_similarity``; preferences, constraints and procedural facts, which apply to many requests, use the lower
``min_similarity_profile``) and by score (``min_score``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory_agent.core.facts import EPISODE_KIND, Fact
from memory_agent.core.kinds import is_profile


@dataclass(frozen=True)
class RetrievalConfig:
    """Retrieval knobs. Scores and similarities are 0–1; ``recency_days`` is the recency
    time constant in days; ``candidates`` is how many nearest neighbours are scored.

    ``lexical`` switches the BM25 half of hybrid retrieval; ``aspects`` the relevance of an aspect of
    the user's life the query asks for (:mod:`memory_agent.memory.aspects`); ``lexical_coverage`` is the share of a
    query's IDF mass that earns lexical score 1 (:class:`memory_agent.memory.lexical.LexicalIndex`);
    ``lexical_candidates`` how many best BM25 matches join the candidates; a user with at most
    ``full_scan`` live facts gets every fact's cosine. Defaults measured on the LoCoMo dev split
    (``evals/RETRIEVAL_NOTES.md``)."""

    top_k: int = 5
    min_similarity: float = 0.25
    min_similarity_profile: float = 0.12
    min_score: float = 0.3
    recency_days: float = 60.0
    w_similarity: float = 0.6
    w_recency: float = 0.25
    w_importance: float = 0.15
    candidates: int = 30
    lexical: bool = True
    aspects: bool = True
    lexical_coverage: float = 0.5
    lexical_candidates: int = 30
    full_scan: int = 2000


@dataclass(frozen=True)
class ScoredFact:
    """A live fact with its similarity, recency and combined score (all 0–1)."""

    fact: Fact
    similarity: float
    recency: float
    score: float
    lexical: float = 0.0

    def as_dict(self) -> dict:
        """A JSON-friendly summary used in the graph state (``memories``)."""
        return {
            "id": self.fact.id,
            "kind": self.fact.kind,
            "content": self.fact.content,
            "updated_at": self.fact.updated_at.isoformat(),
            "similarity": round(self.similarity, 4),
            "lexical": round(self.lexical, 4),
            "recency": round(self.recency, 4),
            "score": round(self.score, 4),
        }


def similarity_from_distance(distance: float) -> float:
    """Cosine similarity in [0, 1] from Chroma's cosine distance (``1 − cos``, in [0, 2])."""
    return min(1.0, max(0.0, 1.0 - distance))


def cosine_similarity(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors of equal length (−1 to 1; 0 when either is all zeros).

    Raises:
        ValueError: the vectors differ in length.
    """
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def recency(updated_at: datetime, now: datetime, days: float = 60.0) -> float:
    """``exp(−age/days)`` with age in days since ``updated_at`` (future times count as age 0)."""
    age_days = max(0.0, (now - updated_at).total_seconds() / 86400.0)
    return math.exp(-age_days / days)


def hybrid_similarity(cosine: float, lexical: float) -> float:
    """Noisy-OR of a cosine similarity and a lexical score, both 0–1: ``c + l − c·l`` (0–1)."""
    return cosine + lexical - cosine * lexical


def lexical_documents(facts: Sequence[Fact]) -> list[str]:
    """The text BM25 indexes for each fact (same order): its ``index_text``; for an episode, the
    ``index_text`` of the episode before it in the same thread, then its own."""
    previous: dict[str, Fact] = {}
    before: dict[str, Fact | None] = {}
    for f in sorted((f for f in facts if f.kind == EPISODE_KIND), key=lambda f: f.created_at):
        before[f.id] = previous.get(f.source.thread_id)
        previous[f.source.thread_id] = f
    docs = []
    for f in facts:
        prev = before.get(f.id)
        docs.append(f"{prev.content}\n{f.index_text}" if prev is not None else f.index_text)
    return docs


def rank(
    candidates: Sequence[tuple[Fact, float]], now: datetime, config: RetrievalConfig = RetrievalConfig(),
    lexical: Mapping[str, float] | None = None, aspect: Mapping[str, float] | None = None,
) -> list[ScoredFact]:
    """Score ``(fact, cosine distance)`` candidates and keep the best.

    ``lexical`` maps fact ids to lexical scores (0–1; absent = 0); with it, ``similarity`` is the
    :func:`hybrid_similarity` of cosine and lexical score. ``aspect`` maps fact ids to the relevance
    of an aspect of the user's life the query asks for (:mod:`memory_agent.memory.aspects`; absent =
    0), joined to that similarity by the same noisy-OR. Drops facts that are not live or are past
    ``valid_until`` at ``now``, those under the similarity floor of their kind and those under
    ``min_score``; returns at most ``top_k``, best first.
    """
    lexical = lexical or {}
    aspect = aspect or {}
    kept: list[ScoredFact] = []
    for fact, distance in candidates:
        if fact.status != "confirmed" or not fact.is_valid_at(now):
            continue
        lex = lexical.get(fact.id, 0.0)
        sim = hybrid_similarity(hybrid_similarity(similarity_from_distance(distance), lex), aspect.get(fact.id, 0.0))
        floor = config.min_similarity_profile if is_profile(fact.kind) else config.min_similarity
        if sim < floor:
            continue
        rec = recency(fact.updated_at, now, config.recency_days)
        score = config.w_similarity * sim + config.w_recency * rec + config.w_importance * fact.importance
        if score < config.min_score:
            continue
        kept.append(ScoredFact(fact, sim, rec, score, lex))
    kept.sort(key=lambda s: s.score, reverse=True)
    return kept[: config.top_k]
