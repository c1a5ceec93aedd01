"""The read side of :class:`memory_agent.stores.long_term.LongTermMemory`: ranked retrieval, the
nearest facts for reconciling a proposal, the live facts, one fact and its supersede chain.
Nothing here writes a store.

**One indexed read per user.** Ranking needs every live fact of the user with its embedding and its
lexical tokens. The ledger keeps both in the fact's row (``facts.embedding``, ``facts.terms``, written
in the same transaction as the fact by :meth:`~memory_agent.stores.base.FactRecords.save_fact`), so a
user met for the first time in a process costs one read of the user's rows by primary key
(:meth:`~memory_agent.stores.base.FactRecords.live_rows`), not the live index's first access to a
collection (which in embedded Chroma grows with the whole store) nor a listing of every fact. Each
process keeps a :class:`LiveSnapshot` per user (the last :data:`SNAPSHOT_USERS` users, at most
:data:`SNAPSHOT_FACTS` facts in all), used while the ledger's ``(generation, live count)``
(:meth:`~memory_agent.stores.base.FactRecords.live_key`) is unchanged: the generation changes in the same
transaction as every write to the user's facts, by any process, and it is read before the rows, so a
snapshot is never kept under a key older than what it holds.

Rows written before the ledger kept vectors (``NULL``) take theirs from the live index by id; a row the
index does not hold yet (a write in flight) is left out. Such a snapshot serves one call only: the
index's copy can change with no change of generation.

**Exact cosines.** Every live fact's cosine is a dot product with its stored unit vector (10,000 ×
384 float32 in about a millisecond), so no approximate search can miss a fact (see
:mod:`memory_agent.stores.chroma_store` for the Chroma bug that hides a just-written one). Up to
``full_scan`` live facts every fact is a candidate; above it the ``candidates`` nearest are, with the
best ``lexical_candidates`` by BM25. Candidates are scored with numpy first and only the few that can
reach the top-k are parsed into :class:`~memory_agent.core.facts.Fact` and ranked by
:func:`memory_agent.memory.retrieval.rank`, so the answer is the one ``rank`` gives over all of them.

**Episodes** are searched and ordered with their thread (:mod:`memory_agent.memory.retrieval`); other
facts keep the BM25 index, query and top-``lexical_candidates`` they had, so their scores and order do not
move (a store with both kinds keeps a second BM25 index for its episodes).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

import numpy as np
import orjson
from langchain_core.embeddings import Embeddings

from memory_agent.core.facts import EPISODE_KIND, Fact, index_text
from memory_agent.core.kinds import is_profile
from memory_agent.memory.aspects import asked_aspects, relevance_at, stated_names
from memory_agent.memory.lexical import LexicalIndex, tokenize
from memory_agent.memory.retrieval import RetrievalConfig, ScoredFact, episode_speaker, named_speaker, rank
from memory_agent.stores.base import EmbedderMismatchError, FactIndex, FactLedger

log = logging.getLogger(__name__)

#: Users whose snapshot a process keeps (least recently used goes first).
SNAPSHOT_USERS = 64
#: Live facts kept in all snapshots together (about 1.6 kB each with a 384-dimension vector).
SNAPSHOT_FACTS = 200_000
#: Scores within this of the k-th best are ranked again exactly (numpy and ``rank`` round differently).
_SCORE_SLACK = 1e-6


def _ts(value: str | None, missing: float) -> float:
    """POSIX seconds of an ISO time from a fact's JSON, or ``missing``."""
    return datetime.fromisoformat(value).timestamp() if value else missing


@dataclass
class LiveSnapshot:
    """A user's live facts as one read of the ledger gave them, in arrays (position = row).

    Attributes:
        key: ``(ledger generation, live count)`` it was read at.
        ids: fact ids, oldest first.
        records: each fact's JSON (parsed into a :class:`Fact` only when needed, kept in ``parsed``).
        vectors: ``(n, d)`` float32 unit vectors.
        updated, valid_until: POSIX seconds (``inf`` for no end).
        importance: 0–1; profile: whether the kind is a profile kind.
        tokens: each fact's lexical document as tokens (an episode's starts with the episode before it;
            the one after it is added by :meth:`lexical` ``(next_turn=True)``).
        topics, contents: each fact's topic and content (what an aspect of the user's life is matched on).
        stated: the aspects each fact states as its writer stored them
            (:func:`~memory_agent.memory.aspects.stated_names`; ``None``: matched on topic and content).
        complete: every live row had its vector in the ledger (only then is the snapshot kept).
        episode: whether each fact is an episode; prev, next: the position of the episode before / after
            it in its thread (−1: none, or not an episode); thread: its thread's number (−1: not an episode).
        said: an episode's content as tokens, by position (what its neighbours' documents add).
        speaker: the number of an episode's speaker in ``speakers`` (−1: none; ``episode_speaker``).
    """

    key: tuple[str, int]
    ids: list[str]
    records: list[str]
    vectors: np.ndarray
    updated: np.ndarray
    valid_until: np.ndarray
    importance: np.ndarray
    profile: np.ndarray
    tokens: list[list[str]]
    topics: list[str] = field(default_factory=list)
    contents: list[str] = field(default_factory=list)
    stated: list[str | None] = field(default_factory=list)
    complete: bool = True
    episode: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    prev: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    next: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    thread: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    said: dict[int, list[str]] = field(default_factory=dict)
    speaker: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    speakers: list[str] = field(default_factory=list)
    parsed: dict[int, Fact] = field(default_factory=dict)
    _lexical: LexicalIndex | None = None
    _lexical_next: LexicalIndex | None = None
    _stating: dict[str, list[int]] = field(default_factory=dict)
    _positions: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def fact(self, pos: int) -> Fact:
        """The fact at ``pos``, parsed once."""
        f = self.parsed.get(pos)
        if f is None:
            f = self.parsed[pos] = Fact.model_validate_json(self.records[pos])
        return f

    def positions(self) -> dict[str, int]:
        """Fact id → position, built on first use."""
        if self._positions is None:
            self._positions = {i: k for k, i in enumerate(self.ids)}
        return self._positions

    def aspect(self, query: str, now: float | None = None) -> dict[str, float]:
        """``{fact id: ASPECT_RELEVANCE}`` for the facts of each aspect of the user's life ``query`` asks
        for (:func:`memory_agent.memory.aspects.relevance_at` on the stored topic and content: no fact
        is parsed; the aspects its writer stored when their version is current), each aspect matched once per
        snapshot; with ``now`` (POSIX seconds), facts past their ``valid_until`` are left out."""
        valid = None if now is None else (self.valid_until > now).tolist()
        return {self.ids[k]: r for k, r in relevance_at(query, self.topics, self.contents, self.updated,
                                                          self._stating, self.stated or None, valid).items()}

    def lexical(self, next_turn: bool = False) -> LexicalIndex:
        """BM25 over the facts' lexical documents, built on first use; with ``next_turn`` an episode's
        document also holds the episode after it (:func:`~memory_agent.memory.retrieval.lexical_documents`)."""
        if next_turn and bool((self.next >= 0).any()):
            if self._lexical_next is None:
                after = self.next.tolist()
                self._lexical_next = LexicalIndex(self.ids, None, tokens=[
                    toks + self.said[q] if q >= 0 else toks for toks, q in zip(self.tokens, after, strict=True)])
            return self._lexical_next
        if self._lexical is None:
            self._lexical = LexicalIndex(self.ids, None, tokens=self.tokens)
        return self._lexical

    def distances(self, embedding: Sequence[float]) -> np.ndarray:
        """Cosine distance (``1 − cos``) of ``embedding`` to every fact, float64, by position.

        Raises:
            EmbedderMismatchError: the stored vectors have another dimension than ``embedding``.
        """
        q = np.asarray(embedding, dtype=np.float32)
        if q.shape[0] != self.vectors.shape[1]:
            raise EmbedderMismatchError(
                f"The memories of this user were embedded in {self.vectors.shape[1]} dimensions but the "
                f"configured embedder gives {q.shape[0]}. Set the embedder back (MEMORY_AGENT_EMBEDDER) "
                "or use a new data folder.")
        q = q / (np.linalg.norm(q) or 1.0)
        return 1.0 - (self.vectors @ q).astype(np.float64)


def build_snapshot(generation: str, rows: Sequence[tuple], index_vectors, embedder: str) -> LiveSnapshot:
    """A :class:`LiveSnapshot` from :meth:`~memory_agent.stores.base.FactRecords.live_rows` (columns
    :data:`~memory_agent.stores.base.LIVE_COLUMNS`); ``index_vectors(ids) -> {id: vector}`` supplies the
    vectors of rows stored without one.

    Ranking reads the columns the writer keeps (migration 7); a fact's JSON is parsed only for an episode
    (its thread and the episode before it) or a row written before those columns.

    Raises:
        EmbedderMismatchError: a row's vector was made by another embedder than ``embedder``.
    """
    if not rows:
        return LiveSnapshot(key=(generation, 0), ids=[], records=[], vectors=np.zeros((0, 0), dtype=np.float32),
                            updated=np.zeros(0), valid_until=np.zeros(0), importance=np.zeros(0),
                            profile=np.zeros(0, dtype=bool), tokens=[])
    (ids, data, blobs, embedders, terms, kinds, contents, created, updated,
     topics, importance, valid_until, aspects) = (list(c) for c in zip(*rows, strict=True))
    other = next((e for b, e in zip(blobs, embedders, strict=True) if b is not None and e != embedder), None)
    if other is not None:
        raise EmbedderMismatchError(
            f"The memories of this user were embedded with {other} but the configured embedder is {embedder}. "
            "Set the embedder back (MEMORY_AGENT_EMBEDDER) or use a new data folder.")
    # rows of a release before the ranking columns: their fields from the JSON
    for k in (k for k, w in enumerate(importance) if w is None):
        rec = orjson.loads(data[k])
        topics[k], importance[k], valid_until[k] = rec.get("topic", ""), rec.get("importance", 0.5), \
            rec.get("valid_until")
    missing = [ids[k] for k, b in enumerate(blobs) if b is None]
    fetched = index_vectors(missing) if missing else {}
    keep = [k for k, b in enumerate(blobs) if b is not None or ids[k] in fetched]
    if not missing:  # one buffer for every row: no per-row array
        matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(rows), -1)
    else:
        vecs = [np.frombuffer(blobs[k], dtype=np.float32) if blobs[k] is not None
                else np.asarray(fetched[ids[k]], dtype=np.float32) for k in keep]
        matrix = np.vstack(vecs) if vecs else np.zeros((0, 0), dtype=np.float32)
    if len(matrix):  # unit rows (the embedders give them already: then nothing is copied)
        norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))
        if not np.allclose(norms, 1.0, atol=1e-4):
            matrix = matrix / np.where(norms == 0, 1.0, norms)[:, None]
    # an episode is searched with the episodes around it in its thread (memory.retrieval.lexical_documents)
    n = len(keep)
    at = {k: p for p, k in enumerate(keep)}
    episodes = {k: orjson.loads(data[k]) for k in keep if kinds[k] == EPISODE_KIND}
    episode = np.zeros(n, dtype=bool)
    prev, nxt, thread, speaker = (np.full(n, -1, dtype=np.intp) for _ in range(4))
    said: dict[int, list[str]] = {}
    threads: dict[str, int] = {}
    speakers: dict[str, int] = {}
    last: dict[str, int] = {}
    for k in sorted(episodes, key=lambda k: datetime.fromisoformat(created[k])):
        p, name, content = at[k], episodes[k]["source"]["thread_id"], episodes[k]["content"]
        episode[p] = True
        thread[p] = threads.setdefault(name, len(threads))
        if name in last:
            prev[p], nxt[last[name]] = last[name], p
        last[name] = p
        said[p] = tokenize(content)
        who = episode_speaker(content)
        if who is not None:
            speaker[p] = speakers.setdefault(who, len(speakers))
    tokens = []
    for p, k in enumerate(keep):
        own = terms[k].split() if terms[k] is not None else tokenize(index_text(topics[k] or "", contents[k]))
        tokens.append(said[prev[p]] + own if prev[p] >= 0 else own)
    inf = float("inf")
    profile = {kind: is_profile(kind) for kind in set(kinds)}
    return LiveSnapshot(
        key=(generation, len(rows)), ids=[ids[k] for k in keep], records=[data[k] for k in keep],
        vectors=matrix.astype(np.float32, copy=False),
        updated=np.array([_ts(updated[k], 0.0) for k in keep], dtype=np.float64),
        valid_until=np.array([_ts(valid_until[k], inf) for k in keep], dtype=np.float64),
        importance=np.array([float(importance[k]) for k in keep], dtype=np.float64),
        profile=np.array([profile[kinds[k]] for k in keep], dtype=bool),
        tokens=tokens, topics=[topics[k] or "" for k in keep], contents=[contents[k] for k in keep],
        stated=[stated_names(aspects[k]) for k in keep], complete=not missing,
        episode=episode, prev=prev, next=nxt, thread=thread, said=said, speaker=speaker, speakers=list(speakers),
    )


class FactReads:
    """Reads of a user's facts; mixed into ``LongTermMemory``, which sets the attributes below."""

    index: FactIndex
    ledger: FactLedger
    embeddings: Embeddings
    retrieval: RetrievalConfig
    _snapshots: dict[str, LiveSnapshot]  # user id -> snapshot (see the module docstring)

    def retrieve(self, user_id: str, query: str, now: datetime, top_k: int | None = None,
                 config: RetrievalConfig | None = None) -> list[ScoredFact]:
        """The user's most relevant live facts for ``query`` at clock ``now`` (best first, ≤ top-k).

        Up to ``full_scan`` live facts every fact is a candidate; above it the ``candidates`` nearest by
        exact cosine are. Hybrid (``config.lexical``): the best ``lexical_candidates`` by BM25 over the
        user's own facts (:mod:`memory_agent.memory.lexical`) join the candidates, with their BM25 score
        (0–1); episodes have their own best ``lexical_candidates`` (:meth:`_lexical_scores`). Without it,
        the nearest ``candidates`` are ranked. Either way, a fact of an aspect of the
        user's life the query asks for (:mod:`memory_agent.memory.aspects`) is a candidate with that
        relevance. Ranking is :func:`memory_agent.memory.retrieval.rank`, episodes ordered with their
        boosts (:meth:`_episode_boosts`); ``config`` replaces the memory's knobs for this call.

        Raises:
            memory_agent.stores.base.StoreError: a store is down.
            memory_agent.stores.base.EmbedderMismatchError: the user's vectors have another dimension.
        """
        config = config or self.retrieval
        config = config if top_k is None else replace(config, top_k=top_k)
        snap = self._snapshot(user_id)
        if not len(snap):  # nothing to rank: skip embedding (and loading the model)
            return []
        dist = snap.distances(self.embeddings.embed_query(query))
        order = np.argsort(dist, kind="stable")
        lexical: dict[str, float] = {}
        if not config.lexical:
            chosen = order[: config.candidates]
        else:
            if len(snap) > config.full_scan:
                order = order[: config.candidates]
            lexical = self._lexical_scores(snap, query, config)
            extra = [snap.positions()[i] for i in lexical] if len(order) < len(snap) else []
            chosen = np.unique(np.concatenate([order, np.asarray(extra, dtype=order.dtype)]))
        # an aspect of the user's life the query asks for ("near home": where the user lives)
        aspect: dict[str, float] = {}
        if config.aspects and asked_aspects(query):
            aspect = snap.aspect(query, now.timestamp())
            at = snap.positions()
            chosen = np.unique(np.concatenate([chosen, np.asarray([at[i] for i in aspect], dtype=chosen.dtype)]))
        boost = self._episode_boosts(snap, dist, lexical, aspect, query, config)
        keep = self._contenders(snap, chosen, dist, lexical, aspect, now, config, boost)
        bonus = {} if boost is None else {snap.ids[k]: float(boost[k]) for k in keep if boost[k]}
        return rank([(snap.fact(int(k)), float(dist[k])) for k in keep], now, config, lexical, aspect, bonus)

    @staticmethod
    def _lexical_scores(snap: LiveSnapshot, query: str, config: RetrievalConfig) -> dict[str, float]:
        """``{fact id: lexical score}``: for facts other than episodes, those among the best
        ``lexical_candidates`` of the whole store on the index without next turns, full query (as before);
        for episodes, the best ``lexical_candidates`` episodes on the index and query the config asks for."""
        lexical: dict[str, float] = {}
        episodes = bool(snap.episode.any())
        if not episodes or not snap.episode.all():
            scores = snap.lexical().scores(query, coverage=config.lexical_coverage)
            best = sorted(scores, key=scores.get, reverse=True)[: config.lexical_candidates]
            if episodes:
                at = snap.positions()
                best = [i for i in best if not snap.episode[at[i]]]
            lexical = {i: scores[i] for i in best}
        if episodes:
            found = snap.lexical(config.lexical_next).best(
                query, config.lexical_candidates, among=None if snap.episode.all() else snap.episode,
                coverage=config.lexical_coverage, drop_question_words=config.lexical_drop_question_words)
            lexical.update((snap.ids[k], v) for k, v in found.items())
        return lexical

    @staticmethod
    def _episode_boosts(snap: LiveSnapshot, dist: np.ndarray, lexical: dict[str, float], aspect: dict[str, float],
                        query: str, config: RetrievalConfig) -> np.ndarray | None:
        """Each fact's ordering bonus by position (0 unless an episode;
        :func:`memory_agent.memory.retrieval.episode_boosts` over every live fact of the user, in numpy),
        or ``None`` when the user has no episode or every episode weight is 0."""
        if not snap.episode.any() or not (config.w_neighbour or config.w_thread or config.w_speaker):
            return None
        sim = np.clip(1.0 - dist, 0.0, 1.0)
        at = snap.positions()
        for scores in (lexical, aspect):  # the noisy-OR of rank, over every fact
            if scores:
                extra = np.zeros(len(snap))
                extra[[at[i] for i in scores]] = list(scores.values())
                sim = sim + extra - sim * extra
        ep = snap.episode
        own = np.zeros(len(snap))
        if config.w_neighbour:
            before = np.where(snap.prev >= 0, sim[np.maximum(snap.prev, 0)], 0.0)
            after = np.where(snap.next >= 0, sim[np.maximum(snap.next, 0)], 0.0)
            own += config.w_neighbour * np.maximum(before, after)
        if config.w_speaker and snap.speakers:
            named = named_speaker(query, snap.speakers)
            if named is not None:
                own += config.w_speaker * (snap.speaker == snap.speakers.index(named))
        own[~ep] = 0.0
        if config.w_thread:
            best = np.zeros(int(snap.thread.max()) + 1)
            np.maximum.at(best, snap.thread[ep], (sim + own)[ep])
            own[ep] += config.w_thread * best[snap.thread[ep]]
        return own

    @staticmethod
    def _contenders(snap: LiveSnapshot, chosen: np.ndarray, dist: np.ndarray, lexical: dict[str, float],
                    aspect: dict[str, float], now: datetime, config: RetrievalConfig,
                    boost: np.ndarray | None = None) -> np.ndarray:
        """The positions among ``chosen`` of the candidates that can be in :func:`rank`'s top-k: the same
        formula in numpy (floors on the unboosted similarity and score, order by score plus
        ``w_similarity · boost``), keeping every candidate within :data:`_SCORE_SLACK` of the k-th best."""
        if not len(chosen):
            return chosen
        t = now.timestamp()
        cos = np.clip(1.0 - dist[chosen], 0.0, 1.0)
        lex = np.array([lexical.get(snap.ids[k], 0.0) for k in chosen], dtype=np.float64)
        sim = cos + lex - cos * lex
        asp = np.array([aspect.get(snap.ids[k], 0.0) for k in chosen], dtype=np.float64)
        sim = sim + asp - sim * asp
        rec = np.exp(-np.maximum(0.0, t - snap.updated[chosen]) / 86400.0 / config.recency_days)
        score = config.w_similarity * sim + config.w_recency * rec + config.w_importance * snap.importance[chosen]
        floor = np.where(snap.profile[chosen], config.min_similarity_profile, config.min_similarity)
        ok = (snap.valid_until[chosen] > t) & (sim >= floor - _SCORE_SLACK) & (score >= config.min_score - _SCORE_SLACK)
        if not ok.any():
            return chosen[:0]
        passing = score[ok] if boost is None else score[ok] + config.w_similarity * boost[chosen[ok]]
        kth = np.sort(passing)[::-1][min(config.top_k, len(passing)) - 1]
        return chosen[ok][passing >= kth - _SCORE_SLACK]

    def nearest_facts(self, user_id: str, embedding: Sequence[float], n: int) -> list[tuple[Fact, float]]:
        """The ``n`` live facts of the user nearest to ``embedding`` as ``(fact, cosine distance)``,
        nearest first, by exact cosine over every live fact (what reconciling a proposal compares with).

        Raises:
            memory_agent.stores.base.StoreError: a store is down.
        """
        snap = self._snapshot(user_id)
        if not len(snap):
            return []
        dist = snap.distances(embedding)
        return [(snap.fact(int(k)), float(dist[k])) for k in np.argsort(dist, kind="stable")[:n]]

    def live_count(self, user_id: str) -> int:
        """How many live facts the user has (from the snapshot; one small query when it is kept)."""
        return len(self._snapshot(user_id))

    def _snapshot(self, user_id: str) -> LiveSnapshot:
        """The user's :class:`LiveSnapshot`: the kept one while the ledger's key holds, else a new read,
        kept when complete (module docstring)."""
        kept = self._snapshots.get(user_id)
        if kept is not None and kept.key == self.ledger.live_key(user_id):
            self._snapshots[user_id] = self._snapshots.pop(user_id)  # most recently used last
            return kept
        generation, rows = self.ledger.live_rows(user_id)
        snap = build_snapshot(generation, rows, lambda ids: self.index.vectors(user_id, ids),
                              self.index.embedder_name)
        self._snapshots.pop(user_id, None)
        if snap.complete:
            self._snapshots[user_id] = snap
            total = sum(len(s) for s in self._snapshots.values())
            while len(self._snapshots) > SNAPSHOT_USERS or (total > SNAPSHOT_FACTS and len(self._snapshots) > 1):
                total -= len(self._snapshots.pop(next(iter(self._snapshots))))
        return snap

    def live(self, user_id: str) -> list[Fact]:
        """The user's live facts, oldest first, with last-used time and use count: the ledger's
        confirmed facts (one indexed read; the set :meth:`retrieve` ranks)."""
        return self.ledger.facts(user_id, "confirmed")

    def show(self, user_id: str, fact_id: str) -> Fact | None:
        """One fact of this user (any status) with its provenance, or ``None``."""
        return self.ledger.get_fact(user_id, fact_id)

    def history(self, user_id: str, fact_id: str) -> list[Fact]:
        """The supersede chain through ``fact_id``: oldest version first, newest last."""
        fact = self.ledger.get_fact(user_id, fact_id)
        if fact is None:
            return []
        chain = [fact]
        seen = {fact.id}
        back = fact
        while back.supersedes and back.supersedes not in seen:
            back = self.ledger.get_fact(user_id, back.supersedes)
            if back is None:
                break
            chain.insert(0, back)
            seen.add(back.id)
        fwd = fact
        while fwd.superseded_by and fwd.superseded_by not in seen:
            fwd = self.ledger.get_fact(user_id, fwd.superseded_by)
            if fwd is None:
                break
            chain.append(fwd)
            seen.add(fwd.id)
        return chain
