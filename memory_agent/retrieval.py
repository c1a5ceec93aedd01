"""Ranking of a user's live facts for one query: similarity, recency, importance.

``score = 0.6·similarity + 0.25·recency + 0.15·importance`` with
``recency = exp(−age / 60 days)`` (age since the fact was last updated, at the context clock).
The weights follow the seed design of this template (in the spirit of the retrieval score of
Park et al., "Generative Agents", 2023, which also mixes relevance, recency and importance).

``similarity = clip(1 − cosine distance, 0, 1)``: Chroma's cosine distance is ``1 − cos``, so
this is the cosine similarity with negatives clipped to 0. Unrelated sentences under
all-MiniLM-L6-v2 sit near 0–0.15 and close paraphrases above 0.7, so scores spread over
[0, 1] instead of crowding near 1 (as ``1 − d/2`` would).

A wrong memory is worse than none, so candidates are cut twice before top-k: by similarity
(``min_similarity``; preferences, constraints and procedural facts, which apply to many requests, use the lower
``min_similarity_profile``) and by score (``min_score``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memory_agent.facts import Fact

PROFILE_KINDS = frozenset({"preference", "constraint", "procedural"})


@dataclass(frozen=True)
class RetrievalConfig:
    """Retrieval knobs. Scores and similarities are 0–1; ``recency_days`` is the recency
    time constant in days; ``candidates`` is how many nearest neighbours are scored."""

    top_k: int = 5
    min_similarity: float = 0.25
    min_similarity_profile: float = 0.12
    min_score: float = 0.3
    recency_days: float = 60.0
    w_similarity: float = 0.6
    w_recency: float = 0.25
    w_importance: float = 0.15
    candidates: int = 30


@dataclass(frozen=True)
class ScoredFact:
    """A live fact with its similarity, recency and combined score (all 0–1)."""

    fact: Fact
    similarity: float
    recency: float
    score: float

    def as_dict(self) -> dict:
        """A JSON-friendly summary used in the graph state (``memories``)."""
        return {
            "id": self.fact.id,
            "kind": self.fact.kind,
            "content": self.fact.content,
            "updated_at": self.fact.updated_at.isoformat(),
            "similarity": round(self.similarity, 4),
            "recency": round(self.recency, 4),
            "score": round(self.score, 4),
        }


def similarity_from_distance(distance: float) -> float:
    """Cosine similarity in [0, 1] from Chroma's cosine distance (``1 − cos``, in [0, 2])."""
    return min(1.0, max(0.0, 1.0 - distance))


def recency(updated_at: datetime, now: datetime, days: float = 60.0) -> float:
    """``exp(−age/days)`` with age in days since ``updated_at`` (future times count as age 0)."""
    age_days = max(0.0, (now - updated_at).total_seconds() / 86400.0)
    return math.exp(-age_days / days)


def rank(
    candidates: Sequence[tuple[Fact, float]], now: datetime, config: RetrievalConfig = RetrievalConfig()
) -> list[ScoredFact]:
    """Score ``(fact, cosine distance)`` candidates and keep the best.

    Drops facts that are not live or are past ``valid_until`` at ``now``, those under the
    similarity floor of their kind and those under ``min_score``; returns at most ``top_k``,
    best first.
    """
    kept: list[ScoredFact] = []
    for fact, distance in candidates:
        if fact.status != "confirmed" or not fact.is_valid_at(now):
            continue
        sim = similarity_from_distance(distance)
        floor = config.min_similarity_profile if fact.kind in PROFILE_KINDS else config.min_similarity
        if sim < floor:
            continue
        rec = recency(fact.updated_at, now, config.recency_days)
        score = config.w_similarity * sim + config.w_recency * rec + config.w_importance * fact.importance
        if score < config.min_score:
            continue
        kept.append(ScoredFact(fact, sim, rec, score))
    kept.sort(key=lambda s: s.score, reverse=True)
    return kept[: config.top_k]
