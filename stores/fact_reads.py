"""The read side of :class:`memory_agent.stores.long_term.LongTermMemory`: ranked retrieval, the
nearest facts for reconciling a proposal, the live facts, one fact and its supersede chain.
Nothing here writes a store.

**The live snapshot.** Ranking needs the user's live facts (a BM25 index over them, and the facts
themselves); listing them from the live index is the slow part of a turn, so each process keeps a
:class:`LiveSnapshot` per user (the last 64 users). It is used while three things are unchanged:
the ledger's per-user :meth:`~memory_agent.stores.base.FactRecords.generation` (changed in the same
transaction as every ledger write to the user's facts, by any process), the live count, and this
process's index write count. The ledger is written before the live index, so a snapshot listed
while another writer is between the two would be stale under the new generation: a snapshot is
therefore kept only when its listing agrees with the ledger's confirmed facts (ids and
``updated_at``, :meth:`~memory_agent.stores.base.FactRecords.live_versions`); otherwise it serves
this one call and the next call lists again. (A user whose generation is ``""`` has no ledger
write of this version in flight, and is kept unchecked.)

**Exact cosines.** The dense half never depends on the approximate index finding every point (see
:mod:`memory_agent.stores.chroma_store` for the Chroma bug that hides a just-written fact): up to
``full_scan`` live facts, every fact of the snapshot that the index's nearest-neighbour search did
not return gets its cosine from its stored vector (read by id once per snapshot, then kept in it).
Above ``full_scan``, a search that returns fewer than the ``candidates`` asked for is completed by
an exact scan of every stored vector.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

import numpy as np
from langchain_core.embeddings import Embeddings

from memory_agent.core.facts import Fact
from memory_agent.memory.aspects import aspect_relevance
from memory_agent.memory.lexical import LexicalIndex
from memory_agent.memory.retrieval import RetrievalConfig, ScoredFact, lexical_documents, rank
from memory_agent.stores.base import FactIndex, FactLedger

log = logging.getLogger(__name__)

#: Users whose snapshot a process keeps (least recently built goes first).
SNAPSHOT_USERS = 64


@dataclass
class LiveSnapshot:
    """One listing of a user's live facts, with what is derived from it.

    Attributes:
        key: ``(ledger generation, live count, this process's index write count)`` it was built at.
        facts: the live facts by id.
        lexical: the BM25 index over them.
        vectors: stored embeddings read so far (unit length, float64), by id: the facts the
            nearest-neighbour search did not return.
    """

    key: tuple[str, int, int]
    facts: dict[str, Fact]
    lexical: LexicalIndex
    vectors: dict[str, np.ndarray] = field(default_factory=dict)


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

        Every live fact of a user with at most ``full_scan`` facts gets its exact cosine (module
        docstring); above it, the nearest ``candidates`` do. Hybrid (``config.lexical``): each fact
        also gets a BM25 score from an index of the user's own facts
        (:mod:`memory_agent.memory.lexical`), and the best ``lexical_candidates`` by BM25 join the
        candidates (one outside the nearest ones with cosine 0). Without it, the nearest
        ``candidates`` are ranked. Either way, a fact of an aspect of the user's life the query asks
        for (:mod:`memory_agent.memory.aspects`) is a candidate with that relevance. All go to
        :func:`memory_agent.memory.retrieval.rank`. ``config``
        replaces the memory's ranking knobs for this call.

        Raises:
            memory_agent.stores.base.StoreError: a store is down.
        """
        config = config or self.retrieval
        config = config if top_k is None else replace(config, top_k=top_k)
        count = self.index.count(user_id)
        if count == 0:  # nothing to rank: skip embedding (and loading the model)
            return []
        embedding = self.embeddings.embed_query(query)
        snapshot = self._snapshot(user_id, count)
        n = count if count <= config.full_scan else config.candidates
        nearest = self._nearest(user_id, snapshot, embedding, n, count)
        facts = self._with_unlisted(user_id, snapshot, [i for i, _ in nearest])
        # an aspect of the user's life the query asks for ("near home": where the user lives)
        aspect = aspect_relevance(query, facts) if config.aspects else {}
        if not config.lexical:
            candidates = [(facts[i], d) for i, d in nearest[: config.candidates] if i in facts]
            seen = {f.id for f, _ in candidates}
            candidates += [(facts[i], 1.0) for i in aspect if i not in seen]
            return rank(candidates, now, config, aspect=aspect)
        lexical = snapshot.lexical.scores(query, coverage=config.lexical_coverage)
        best_lexical = sorted(lexical, key=lexical.get, reverse=True)[: config.lexical_candidates]
        candidates = [(facts[i], d) for i, d in nearest if i in facts]
        seen = {i for i, _ in nearest}
        # cosine unknown (outside the nearest ``candidates``): distance 1, i.e. cosine 0
        candidates += [(facts[i], 1.0) for i in best_lexical if i not in seen and i in facts]
        seen |= set(best_lexical)
        candidates += [(facts[i], 1.0) for i in aspect if i not in seen]
        return rank(candidates, now, config, {i: lexical[i] for i in best_lexical}, aspect)

    def nearest_facts(self, user_id: str, embedding: Sequence[float], n: int) -> list[tuple[Fact, float]]:
        """The ``n`` live facts of the user nearest to ``embedding`` as ``(fact, cosine distance)``,
        nearest first: exact up to ``full_scan`` live facts (what reconciling a proposal compares with).

        Raises:
            memory_agent.stores.base.StoreError: a store is down.
        """
        count = self.index.count(user_id)
        if count == 0:
            return []
        snapshot = self._snapshot(user_id, count)
        nearest = self._nearest(user_id, snapshot, embedding, count if count <= self.retrieval.full_scan else n, count)
        facts = self._with_unlisted(user_id, snapshot, [i for i, _ in nearest[:n]])
        return [(facts[i], d) for i, d in nearest[:n] if i in facts]

    def _nearest(self, user_id: str, snapshot: LiveSnapshot, embedding: Sequence[float], n: int,
                 count: int) -> list[tuple[str, float]]:
        """The ``n`` nearest live fact ids as ``(id, cosine distance)``, nearest first, complete:
        when ``n`` covers every live fact, each fact of the snapshot the index's search did not
        return is scored from its stored vector; when the search returns fewer than ``n`` of more,
        every stored vector is scanned."""
        found = self.index.nearest_ids(user_id, embedding, n)
        returned = {i for i, _ in found}
        if n >= count:
            missing = [i for i in snapshot.facts if i not in returned]
        elif len(found) < n:
            missing = None  # short of what was asked: scan every stored vector
        else:
            return found
        if missing == []:
            return found
        scored = self._exact(user_id, snapshot, embedding, missing)
        scored = [(i, d) for i, d in scored if i not in returned]
        log.info("Nearest-neighbour search returned %d of %d live facts asked for; %d more scored from their "
                 "stored vectors", len(found), n, len(scored))
        return sorted(found + scored, key=lambda pair: pair[1])[:n]

    def _exact(self, user_id: str, snapshot: LiveSnapshot, embedding: Sequence[float],
               ids: list[str] | None) -> list[tuple[str, float]]:
        """Cosine distance (``1 − cos``, as the index reports it) of ``embedding`` to the stored
        vectors of ``ids`` (every live fact when ``None``); ids whose vector is gone are left out."""
        if ids is None:  # every live fact: read them all unless the snapshot has them already
            unread = None if len(snapshot.vectors) < len(snapshot.facts) else []
        else:
            unread = [i for i in ids if i not in snapshot.vectors]
        if unread is None or unread:
            for i, v in self.index.vectors(user_id, unread).items():
                a = np.asarray(v, dtype=np.float64)
                norm = np.linalg.norm(a)
                snapshot.vectors[i] = a / norm if norm else a
        keys = [i for i in (snapshot.vectors if ids is None else ids) if i in snapshot.vectors]
        if not keys:
            return []
        q = np.asarray(embedding, dtype=np.float64)
        q = q / (np.linalg.norm(q) or 1.0)
        cos = np.stack([snapshot.vectors[i] for i in keys]) @ q
        return [(i, float(1.0 - c)) for i, c in zip(keys, cos, strict=True)]

    def _with_unlisted(self, user_id: str, snapshot: LiveSnapshot, ids: list[str]) -> dict[str, Fact]:
        """The snapshot's facts, plus any of ``ids`` it lacks (written since it was listed), read by id."""
        unlisted = [i for i in ids if i not in snapshot.facts]
        if not unlisted:
            return snapshot.facts
        return {**snapshot.facts, **{f.id: f for f in self.index.get(user_id, unlisted)}}

    def _snapshot(self, user_id: str, count: int) -> LiveSnapshot:
        """The user's :class:`LiveSnapshot`: the kept one while its key holds, else a new listing,
        kept when it agrees with the ledger (module docstring)."""
        generation = self.ledger.generation(user_id)
        key = (generation, count, self.index.generation(user_id))
        kept = self._snapshots.get(user_id)
        if kept is not None and kept.key == key:
            return kept
        live = self.index.list(user_id)
        snapshot = LiveSnapshot((generation, len(live), key[2]), {f.id: f for f in live},
                                LexicalIndex([f.id for f in live], lexical_documents(live)))
        self._snapshots.pop(user_id, None)
        if generation == "" or self.ledger.live_versions(user_id) == {f.id: f.updated_at for f in live}:
            if len(self._snapshots) >= SNAPSHOT_USERS:
                self._snapshots.pop(next(iter(self._snapshots)))
            self._snapshots[user_id] = snapshot
        return snapshot

    def live(self, user_id: str) -> list[Fact]:
        """The user's live facts, oldest first: the live index's set, with last-used time and use
        count from the ledger (``commit`` records usage there, not in the index)."""
        usage = {f.id: f for f in self.ledger.facts(user_id, "confirmed")}
        facts = self.index.list(user_id)
        return [
            f.model_copy(update={"last_used_at": usage[f.id].last_used_at, "use_count": usage[f.id].use_count})
            if f.id in usage else f
            for f in facts
        ]

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
