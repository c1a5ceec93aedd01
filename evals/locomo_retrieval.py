"""Retrieval benchmark on LoCoMo: evidence recall of three retrievers, no LLM involved.

Every turn of each conversation is stored as an *episode* (a :class:`memory_agent.core.facts.Fact` of
kind ``episode``) in the project's own long-term store: a Chroma collection per conversation, the
conversation being the "user" (so term statistics and vectors never mix conversations). An
episode's content is ``"<speaker>: <text>"`` (plus ``[shared a photo: <BLIP caption>]`` when the
turn has one), its topic the session's date as written in the file (``"1:56 pm on 8 May, 2023"``),
its thread the session, its clock the session clock (+1 s per turn), its message id the dia id.

Each question of categories 1–4 with at least one valid evidence id is asked as the query (the
malformed ids described in the data's NOTICE.md are normalised by :mod:`memory_agent.evals.locomo`; questions
left with no valid evidence are counted as skipped). Three retrievers rank every turn:

- ``bm25``: BM25 alone (:class:`memory_agent.memory.lexical.LexicalIndex` on the same documents the
  project's retriever indexes lexically for episodes, i.e. with the previous and next turn as context,
  and the same query terms, question words dropped);
- ``dense``: the embedder alone (cosine nearest neighbours from the user's Chroma collection);
- ``project``: :meth:`memory_agent.stores.long_term.LongTermMemory.retrieve`, the code ``load_memory``
  runs, with its recency and importance terms, and with floors off and ``top_k = 50`` so that
  recall@50 can be measured. Questions are asked one day after the conversation's last session.

Metrics (0–1, means over questions): ``recall@k`` = share of a question's evidence turns among the
top k (k = 1, 5, 10, 20, 50); ``all@10`` = 1 when every evidence turn is in the top 10;
``session_any@1`` / ``@3`` = 1 when a session holding evidence is among the first 1 / 3 distinct
sessions of the ranking; ``session_recall@10`` = ``|E ∩ R| / |E|`` with ``E`` the sessions holding the
question's evidence turns and ``R`` the sessions of the top 10 turns. Latency per query in
milliseconds, including embedding the query.

:func:`split_summary` gives recall@10 and session_recall@10 of some conversations (held out while the
retriever's knobs were tuned: conv-43 and conv-44 for the current ones, ``evals/RETRIEVAL_NOTES.md``),
of the rest and of all (``memory-agent eval locomo --held-out conv-43,conv-44``).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from memory_agent.core.facts import EPISODE_KIND, Fact, Source
from memory_agent.evals.locomo import CATEGORY_NAMES, LocomoConversation, LocomoQA, dia_session
from memory_agent.memory.lexical import LexicalIndex, tokenize
from memory_agent.memory.retrieval import RetrievalConfig, lexical_documents
from memory_agent.models.embeddings import load_embedder
from memory_agent.stores.chroma_store import ChromaFactIndex, make_chroma_client
from memory_agent.stores.long_term import LongTermMemory
from memory_agent.stores.sql.ledger import SQLFactLedger

__all__ = ["CATEGORIES", "KS", "RETRIEVERS", "RetrievalReport", "default_memory_factory", "episode_facts",
           "episode_user", "percentile", "recall_metrics", "run_retrieval_benchmark", "split_summary"]

KS = (1, 5, 10, 20, 50)
CATEGORIES = (1, 2, 3, 4)
RETRIEVERS = ("bm25", "dense", "project")
METRICS = tuple(f"recall@{k}" for k in KS) + ("all@10", "session_any@1", "session_any@3", "session_recall@10")


def episode_user(conv: LocomoConversation) -> str:
    """The store's user id for a conversation: ``locomo:<sample_id>``."""
    return f"locomo:{conv.sample_id}"


def episode_facts(conv: LocomoConversation) -> list[Fact]:
    """One ``episode`` fact per turn with text (see the module docstring for the fields)."""
    user = episode_user(conv)
    facts = []
    for session in conv.sessions:
        if session.at is None:
            continue
        for i, turn in enumerate(t for t in session.turns if t.dia_id and t.text.strip()):
            content = f"{turn.speaker}: {turn.text.strip()}"
            if turn.image_caption:
                content += f" [shared a photo: {turn.image_caption}]"
            at = session.at + timedelta(seconds=i)
            facts.append(Fact(
                id=f"ep_{turn.dia_id.replace(':', '_')}", user_id=user, kind=EPISODE_KIND, content=content,
                topic=session.date_time, source=Source(thread_id=f"session{session.number}",
                                                       message_ids=[turn.dia_id]),
                evidence=turn.text, importance=0.5, created_at=at, updated_at=at,
            ))
    return facts


class _TimedEmbeddings:
    """Wraps an embedder and adds the seconds spent in ``embed_query`` to :attr:`seconds`."""

    def __init__(self, inner):
        self.inner = inner
        self.seconds = 0.0

    def embed_query(self, text: str) -> list[float]:
        t0 = time.perf_counter()
        try:
            return self.inner.embed_query(text)
        finally:
            self.seconds += time.perf_counter() - t0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)


def _dia(fact: Fact) -> str:
    return fact.source.message_ids[0]


def recall_metrics(ranking: Sequence[str], evidence: Sequence[str]) -> dict[str, float]:
    """The benchmark's metrics for one question.

    Args:
        ranking: dia ids, best first (at least 50 when the conversation has that many turns).
        evidence: the question's normalised evidence dia ids (non-empty).

    Returns:
        ``{"recall@1": …, …, "all@10": 0|1, "session_any@1": 0|1, "session_any@3": 0|1,
        "session_recall@10": …}``.

    Raises:
        ValueError: empty evidence.
    """
    ev = set(evidence)
    if not ev:
        raise ValueError("A question needs at least one evidence id to be scored")
    out = {f"recall@{k}": len(ev & set(ranking[:k])) / len(ev) for k in KS}
    out["all@10"] = float(ev <= set(ranking[:10]))
    sessions: list[int] = []
    for dia in ranking:
        s = dia_session(dia)
        if s not in sessions:
            sessions.append(s)
        if len(sessions) >= 3:
            break
    ev_sessions = {dia_session(d) for d in ev}
    out["session_any@1"] = float(bool(ev_sessions & set(sessions[:1])))
    out["session_any@3"] = float(bool(ev_sessions & set(sessions[:3])))
    out["session_recall@10"] = len(ev_sessions & {dia_session(d) for d in ranking[:10]}) / len(ev_sessions)
    return out


def split_summary(rows: Sequence[dict[str, Any]], held_out: Sequence[str],
                  metrics: Sequence[str] = ("recall@10", "session_recall@10"),
                  ) -> dict[str, dict[str, dict[str, float]]]:
    """Means of ``metrics`` per group of conversations and retriever, from a report's rows.

    Returns:
        ``{"held_out": {retriever: {"questions": n, metric: mean, …}}, "rest": …, "all": …}`` (NaN for
        a group without questions). A metric missing from the rows (``session_recall@10`` of an older
        ``results.json``) is computed from ``top10`` and ``evidence`` when it can be.
    """
    held = set(held_out)
    groups = {"held_out": lambda r: r["sample_id"] in held, "rest": lambda r: r["sample_id"] not in held,
              "all": lambda r: True}
    retrievers = list(dict.fromkeys(r["retriever"] for r in rows))
    out: dict[str, dict[str, dict[str, float]]] = {}
    for name, member in groups.items():
        out[name] = {}
        for retriever in retrievers:
            mine = [r for r in rows if r["retriever"] == retriever and member(r)]
            entry: dict[str, float] = {"questions": len(mine)}
            for m in metrics:
                values = [r[m] if m in r else recall_metrics(r["top10"], r["evidence"])[m] for r in mine]
                entry[m] = statistics.fmean(values) if values else float("nan")
            out[name][retriever] = entry
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by linear interpolation (numpy's default); NaN when empty."""
    if not values:
        return float("nan")
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo, hi = int(pos), min(int(pos) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


@dataclass
class RetrievalReport:
    """Per-question rows and summaries of a benchmark run.

    ``rows``: one dict per (question, retriever) with ``sample_id``, ``question``, ``category``,
    ``evidence``, ``retriever``, ``top10`` and the metrics. ``latency_ms``: per retriever, one
    value per query. ``skipped``: questions of categories 1–4 with no valid evidence.
    """

    source: str
    conversations: list[str] = field(default_factory=list)
    turns: int = 0
    rows: list[dict[str, Any]] = field(default_factory=list)
    latency_ms: dict[str, list[float]] = field(default_factory=lambda: {r: [] for r in RETRIEVERS})
    embed_ms: dict[str, list[float]] = field(default_factory=lambda: {r: [] for r in RETRIEVERS})
    skipped: int = 0
    seconds: float = 0.0

    def questions(self, category: int | None = None) -> int:
        """How many questions were scored (per retriever), optionally of one category."""
        return sum(1 for r in self.rows if r["retriever"] == RETRIEVERS[0]
                   and (category is None or r["category"] == category))

    def summary(self, retriever: str, category: int | None = None) -> dict[str, float]:
        """Mean of every metric for one retriever, overall or for one category (NaN when none)."""
        rows = [r for r in self.rows if r["retriever"] == retriever and (category is None or r["category"] == category)]
        return {m: statistics.fmean(r[m] for r in rows) if rows else float("nan") for m in METRICS}

    def latency(self, retriever: str) -> dict[str, float]:
        """Median and p95 query latency in milliseconds, with and without embedding the query
        (``*_excl_embedding``), and the number of queries."""
        values = self.latency_ms.get(retriever, [])
        embeds = self.embed_ms.get(retriever, [])
        rest = [v - e for v, e in zip(values, embeds, strict=False)] if embeds else values
        return {"median": percentile(values, 50), "p95": percentile(values, 95),
                "median_excl_embedding": percentile(rest, 50), "p95_excl_embedding": percentile(rest, 95),
                "n": len(values)}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: summaries per retriever (overall and per category), latency, every row."""
        cats = {str(c): {"name": CATEGORY_NAMES[c], "questions": self.questions(c)} for c in CATEGORIES}
        return {
            "source": self.source, "conversations": self.conversations, "turns": self.turns,
            "questions": self.questions(), "skipped_no_valid_evidence": self.skipped, "categories": cats,
            "seconds": round(self.seconds, 2),
            "summary": {r: {"overall": self.summary(r),
                            "per_category": {str(c): self.summary(r, c) for c in CATEGORIES},
                            "latency_ms": self.latency(r)} for r in RETRIEVERS},
            "rows": self.rows,
        }


def _questions(conv: LocomoConversation) -> tuple[list[LocomoQA], int]:
    kept, skipped = [], 0
    for q in conv.qa:
        if q.category not in CATEGORIES:
            continue
        if not q.evidence:
            skipped += 1
            continue
        kept.append(q)
    return kept, skipped


def run_retrieval_benchmark(
    conversations: Sequence[LocomoConversation],
    memory_factory: Callable[[Path], LongTermMemory],
    *,
    source: str = "",
    max_questions: int | None = None,
    recency: bool = False,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> RetrievalReport:
    """Index each conversation's turns as episodes and score the three retrievers on its questions.

    Args:
        conversations: loaded LoCoMo conversations.
        memory_factory: opens a :class:`LongTermMemory` on an empty folder (a real Chroma store).
        source: the data file's path, recorded in the report.
        max_questions: at most this many questions per conversation (a quick run), else all.
        recency: rank the ``project`` retriever with the memory's recency and importance weights
            (as ``load_memory`` does for facts); by default relevance alone (``w_similarity = 1``).
        on_progress: called with ``(stage, done, total)``; stages ``"index <sample>"`` and ``"ask <sample>"``.

    Returns:
        A :class:`RetrievalReport`.
    """
    started = time.perf_counter()
    report = RetrievalReport(source=source)
    with tempfile.TemporaryDirectory(prefix="memory-agent-locomo-retrieval-") as tmp:
        memory = memory_factory(Path(tmp))
        timer = _TimedEmbeddings(memory.embeddings)
        memory.embeddings = timer
        config = replace(memory.retrieval, top_k=max(KS), min_similarity=0.0, min_similarity_profile=0.0,
                         min_score=0.0)
        if not recency:  # rank by relevance alone: every episode has the same importance
            config = replace(config, w_similarity=1.0, w_recency=0.0, w_importance=0.0)
        for conv in conversations:
            facts = episode_facts(conv)
            if not facts:
                continue
            user = episode_user(conv)
            report.conversations.append(conv.sample_id)
            report.turns += len(facts)
            batch = 64
            for start in range(0, len(facts), batch):
                chunk = facts[start:start + batch]
                vectors = memory.embeddings.embed_documents([f.index_text for f in chunk])
                memory.ledger.save_facts(chunk, vectors, [tokenize(f.index_text) for f in chunk],
                                         memory.index.embedder_name)  # reads rank the ledger's rows
                memory.index.upsert(user, chunk, vectors)
                if on_progress:
                    on_progress(f"index {conv.sample_id}", min(start + batch, len(facts)), len(facts))
            by_id = {f.id: f for f in facts}
            bm25 = LexicalIndex(list(by_id), lexical_documents(facts, next_turn=config.lexical_next))
            now = max(f.created_at for f in facts) + timedelta(days=1)
            questions, skipped = _questions(conv)
            report.skipped += skipped
            if max_questions is not None:
                questions = questions[:max_questions]
            for n, q in enumerate(questions, start=1):
                rankings: dict[str, list[str]] = {}
                t0 = time.perf_counter()
                raw = bm25.raw_scores(q.question, drop_question_words=config.lexical_drop_question_words)
                order = sorted(range(len(raw)), key=lambda i: -raw[i])[: max(KS)]
                rankings["bm25"] = [_dia(by_id[bm25.ids[i]]) for i in order]
                report.latency_ms["bm25"].append((time.perf_counter() - t0) * 1000)
                t0 = time.perf_counter()
                vector = memory.embeddings.embed_query(q.question)
                t1 = time.perf_counter()
                hits = memory.index.query(user, vector, max(KS))
                rankings["dense"] = [_dia(f) for f, _ in hits]
                report.latency_ms["dense"].append((time.perf_counter() - t0) * 1000)
                report.embed_ms["dense"].append((t1 - t0) * 1000)
                timer.seconds = 0.0
                t0 = time.perf_counter()
                scored = memory.retrieve(user, q.question, now, config=config)
                rankings["project"] = [_dia(s.fact) for s in scored]
                report.latency_ms["project"].append((time.perf_counter() - t0) * 1000)
                report.embed_ms["project"].append(timer.seconds * 1000)
                for name in RETRIEVERS:
                    report.rows.append({"sample_id": conv.sample_id, "question": q.question, "category": q.category,
                                        "evidence": q.evidence, "retriever": name, "top10": rankings[name][:10],
                                        **recall_metrics(rankings[name], q.evidence)})
                if on_progress:
                    on_progress(f"ask {conv.sample_id}", n, len(questions))
    report.seconds = time.perf_counter() - started
    return report


def default_memory_factory(embedder=None, retrieval: RetrievalConfig | None = None) -> Callable[[Path], LongTermMemory]:
    """A factory of :class:`LongTermMemory` on an embedded Chroma folder and SQLite ledger in ``folder``,
    sharing one embedder (default all-MiniLM-L6-v2)."""
    info = embedder or load_embedder("minilm")

    def make(folder: Path) -> LongTermMemory:
        client = make_chroma_client(path=str(folder / "chroma"))
        index = ChromaFactIndex(client, info.name, info.dimension)
        ledger = SQLFactLedger(folder / "ledger.sqlite")
        return LongTermMemory(index, ledger, info.embeddings, retrieval or RetrievalConfig())

    return make
