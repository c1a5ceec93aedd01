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

Episodes (turns of a conversation, kind ``episode``) are searched lexically together with the turns
before and after them in the same thread (:func:`lexical_documents`): a reply ("Yes, last May!") is
found by the words of the question it answers, a question by the words of its answer. Their BM25 query
drops question words (:func:`memory_agent.memory.lexical.query_tokenize`).

Episodes are also *ordered* with their context (:func:`episode_boosts`): an episode's ordering key adds
``w_neighbour · max(sim of the turn before, sim of the turn after)``, ``w_thread · max sim in its
thread`` and ``w_speaker`` when the query names exactly one speaker of the user's episodes and the
episode is theirs (times ``w_similarity``, so with relevance alone the key is
``sim + 0.3·max(prev, next) + 0.2·speaker + 0.2·best such sum in the thread``). The floors and the reported
similarity and score stay unboosted: the boost reorders the candidates that pass, adds none. Facts of
other kinds get no boost and their scores are computed as before. On LoCoMo these changes together
lifted recall@10 from 0.712 to 0.791 on the four conversations the knobs were tuned on and from 0.697
to 0.760 on the two held out (``evals/RETRIEVAL_NOTES.md``).

A wrong memory is worse than none, so candidates are cut twice before top-k: by similarity
(``min_similarity``; preferences, constraints and procedural facts, which apply to many requests, use the lower
``min_similarity_profile``) and by score (``min_score``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
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
    (``evals/RETRIEVAL_NOTES.md``).

    Episodes only (kind ``episode``; other facts are scored and ordered as without these):
    ``lexical_next`` adds the next turn of the thread to an episode's lexical document;
    ``lexical_drop_question_words`` drops question words from the BM25 query;
    ``w_neighbour``, ``w_thread``, ``w_speaker`` weigh the ordering boosts of :func:`episode_boosts`.
    Their values were chosen (each from a few) on LoCoMo conv-26/30/41/42 with a throw-away harness
    and checked on conv-43/44, held out (``evals/RETRIEVAL_NOTES.md``); 0 / ``False`` turns one off."""

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
    lexical_next: bool = True
    lexical_drop_question_words: bool = True
    w_neighbour: float = 0.3
    w_thread: float = 0.2
    w_speaker: float = 0.2


@dataclass(frozen=True)
class ScoredFact:
    """A live fact with its similarity, recency and combined score (all 0–1).

    ``boost`` (episodes only, else 0) is the :func:`episode_boosts` bonus in similarity units: facts are
    ordered by :attr:`order` = ``score + w_similarity · boost``; ``score`` itself is unboosted."""

    fact: Fact
    similarity: float
    recency: float
    score: float
    lexical: float = 0.0
    boost: float = 0.0
    order: float | None = None

    def __post_init__(self) -> None:
        if self.order is None:
            object.__setattr__(self, "order", self.score)

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
        } | ({"boost": round(self.boost, 4)} if self.boost else {})


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


def episode_neighbours(facts: Sequence[Fact]) -> tuple[dict[str, Fact], dict[str, Fact]]:
    """``(before, after)``: for each episode id, the episode just before / after it in its thread
    (by ``created_at``; absent at either end of the thread)."""
    previous: dict[str, Fact] = {}
    before: dict[str, Fact] = {}
    after: dict[str, Fact] = {}
    for f in sorted((f for f in facts if f.kind == EPISODE_KIND), key=lambda f: f.created_at):
        prev = previous.get(f.source.thread_id)
        if prev is not None:
            before[f.id] = prev
            after[prev.id] = f
        previous[f.source.thread_id] = f
    return before, after


def lexical_documents(facts: Sequence[Fact], next_turn: bool = True) -> list[str]:
    """The text BM25 indexes for each fact (same order): its ``index_text``; for an episode, the
    content of the episode before it in the same thread, its own ``index_text``, then (``next_turn``,
    :attr:`RetrievalConfig.lexical_next`) the content of the episode after it, one per line."""
    before, after = episode_neighbours(facts)
    docs = []
    for f in facts:
        parts = [before[f.id].content] if f.id in before else []
        parts.append(f.index_text)
        if next_turn and f.id in after:
            parts.append(after[f.id].content)
        docs.append("\n".join(parts))
    return docs


def episode_speaker(content: str) -> str | None:
    """The speaker of an episode, lowercased: the text before the first ``:`` of its content
    (``"Caroline: …"`` → ``"caroline"``); ``None`` without one."""
    head, colon, _ = content.partition(":")
    head = head.strip().lower()
    return head if colon and head else None


def named_speaker(query: str, speakers: Iterable[str]) -> str | None:
    """The one speaker (lowercased, from ``speakers``) that ``query`` names as a whole word, ignoring
    case; ``None`` when it names none or several."""
    text = query.lower()
    named = [s for s in set(speakers) if re.search(r"\b" + re.escape(s) + r"\b", text)]
    return named[0] if len(named) == 1 else None


def episode_boosts(similarities: Sequence[tuple[Fact, float]], query: str | None,
                   config: RetrievalConfig = RetrievalConfig()) -> dict[str, float]:
    """The ordering bonus of each episode among ``(fact, similarity)`` pairs (facts of other kinds get
    none), in similarity units.

    With ``own_j = w_neighbour · max(sim before j, sim after j) + w_speaker · [query names exactly one
    speaker and j is theirs]``, the bonus of episode ``i`` is ``own_i + w_thread · max over the episodes j
    of its thread (i included) of (sim_j + own_j)``: the thread term takes the best *boosted* turn, as
    the measuring harness did (``/tmp/recall/harness.py``, ``evals/RETRIEVAL_NOTES.md``). Neighbours,
    threads and speakers are those of the episodes given; a missing neighbour counts 0.

    The snapshot path (:meth:`memory_agent.stores.fact_reads.FactReads.retrieve`) computes the same over
    every live fact of the user in numpy; this is its reference, used by :func:`rank` when the
    caller passes no boosts."""
    eps = [(f, s) for f, s in similarities if f.kind == EPISODE_KIND]
    if not eps or not (config.w_neighbour or config.w_thread or config.w_speaker):
        return {}
    sim = {f.id: s for f, s in eps}
    before, after = episode_neighbours([f for f, _ in eps])
    speakers = {f.id: episode_speaker(f.content) for f, _ in eps}
    named = named_speaker(query, {s for s in speakers.values() if s}) if query and config.w_speaker else None
    own = {}
    for f, _ in eps:
        nb = max(sim[before[f.id].id] if f.id in before else 0.0, sim[after[f.id].id] if f.id in after else 0.0)
        theirs = named is not None and speakers[f.id] == named
        own[f.id] = config.w_neighbour * nb + (config.w_speaker if theirs else 0.0)
    best: dict[str, float] = {}
    for f, s in eps:
        best[f.source.thread_id] = max(best.get(f.source.thread_id, 0.0), s + own[f.id])
    return {f.id: own[f.id] + config.w_thread * best[f.source.thread_id] for f, _ in eps}


def rank(
    candidates: Sequence[tuple[Fact, float]], now: datetime, config: RetrievalConfig = RetrievalConfig(),
    lexical: Mapping[str, float] | None = None, aspect: Mapping[str, float] | None = None,
    boost: Mapping[str, float] | None = None, query: str | None = None,
) -> list[ScoredFact]:
    """Score ``(fact, cosine distance)`` candidates and keep the best.

    ``lexical`` maps fact ids to lexical scores (0–1; absent = 0); with it, ``similarity`` is the
    :func:`hybrid_similarity` of cosine and lexical score. ``aspect`` maps fact ids to the relevance
    of an aspect of the user's life the query asks for (:mod:`memory_agent.memory.aspects`; absent =
    0), joined to that similarity by the same noisy-OR. Drops facts that are not live or are past
    ``valid_until`` at ``now``, those under the similarity floor of their kind and those under
    ``min_score``; returns at most ``top_k``, best first by ``score + w_similarity · boost`` (equal ones
    newest first, then by content, so the order never depends on the candidates' order).

    ``boost`` maps episode ids to their ordering bonus (:func:`episode_boosts`; absent = 0); when it is
    ``None`` it is computed over the candidates themselves, the speaker bonus only with ``query``. Facts of
    other kinds are never boosted, so their scores and their order among themselves are as without it.
    """
    lexical = lexical or {}
    aspect = aspect or {}
    sims = [(fact, hybrid_similarity(hybrid_similarity(similarity_from_distance(distance), lexical.get(fact.id, 0.0)),
                                     aspect.get(fact.id, 0.0))) for fact, distance in candidates]
    if boost is None:
        boost = episode_boosts([(f, s) for f, s in sims if f.status == "confirmed"], query, config)
    kept: list[ScoredFact] = []
    for fact, sim in sims:
        if fact.status != "confirmed" or not fact.is_valid_at(now):
            continue
        lex = lexical.get(fact.id, 0.0)
        floor = config.min_similarity_profile if is_profile(fact.kind) else config.min_similarity
        if sim < floor:
            continue
        rec = recency(fact.updated_at, now, config.recency_days)
        score = config.w_similarity * sim + config.w_recency * rec + config.w_importance * fact.importance
        if score < config.min_score:
            continue
        bonus = boost.get(fact.id, 0.0) if fact.kind == EPISODE_KIND else 0.0
        order = score + config.w_similarity * bonus if bonus else score
        kept.append(ScoredFact(fact, sim, rec, score, lex, bonus, order))
    # equal scores (facts of one turn a query in another language resembles not at all: similarity 0,
    # the same recency and importance) are ordered by time, then content, never by where the store
    # happened to list them: the same memories in the same order, run after run
    kept.sort(key=lambda s: (s.order, s.fact.updated_at, s.fact.content), reverse=True)
    return kept[: config.top_k]
