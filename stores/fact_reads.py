"""The read side of :class:`memory_agent.stores.long_term.LongTermMemory`: ranked retrieval, the
live facts, one fact and its supersede chain. Nothing here writes a store.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from langchain_core.embeddings import Embeddings

from memory_agent.core.facts import Fact
from memory_agent.memory.lexical import LexicalIndex
from memory_agent.memory.retrieval import RetrievalConfig, ScoredFact, lexical_documents, rank
from memory_agent.stores.base import FactIndex, FactLedger


class FactReads:
    """Reads of a user's facts; mixed into ``LongTermMemory``, which sets the attributes below."""

    index: FactIndex
    ledger: FactLedger
    embeddings: Embeddings
    retrieval: RetrievalConfig
    # user id -> ((live count, index generation), BM25 index, live facts by id)
    _lexical: dict[str, tuple[tuple[int, int], LexicalIndex, dict[str, Fact]]]

    def retrieve(self, user_id: str, query: str, now: datetime, top_k: int | None = None,
                 config: RetrievalConfig | None = None) -> list[ScoredFact]:
        """The user's most relevant live facts for ``query`` at clock ``now`` (best first, ≤ top-k).

        Hybrid (``config.lexical``): every live fact of a user with at most ``full_scan`` facts gets
        its cosine from the user's own Chroma collection and its BM25 score from an index of the
        user's own facts (:mod:`memory_agent.memory.lexical`); both go to
        :func:`memory_agent.memory.retrieval.rank`. Above ``full_scan`` facts, the nearest ``candidates``
        by cosine and the best ``lexical_candidates`` by BM25 are ranked, a lexical candidate outside
        the nearest ones with cosine 0. ``config`` replaces the memory's ranking knobs for this call.
        """
        config = config or self.retrieval
        config = config if top_k is None else replace(config, top_k=top_k)
        count = self.index.count(user_id)
        if count == 0:  # nothing to rank: skip embedding (and loading the model)
            return []
        embedding = self.embeddings.embed_query(query)
        if not config.lexical:
            return rank(self.index.query(user_id, embedding, config.candidates), now, config)
        n = count if count <= config.full_scan else config.candidates
        nearest = self.index.nearest_ids(user_id, embedding, n)
        lexical_index, facts = self._lexical_index(user_id, count)
        if any(i not in facts for i, _ in nearest):  # written by another process since: rebuild
            lexical_index, facts = self._lexical_index(user_id, count, rebuild=True)
            missing = [i for i, _ in nearest if i not in facts]
            if missing:  # still missing (a write landed between the query and the listing): read them
                facts = {**facts, **{f.id: f for f in self.index.get(user_id, missing)}}
        lexical = lexical_index.scores(query, coverage=config.lexical_coverage)
        best_lexical = sorted(lexical, key=lexical.get, reverse=True)[: config.lexical_candidates]
        candidates = [(facts[i], d) for i, d in nearest if i in facts]
        seen = {i for i, _ in nearest}
        # cosine unknown (outside the nearest ``candidates``): distance 1, i.e. cosine 0
        candidates += [(facts[i], 1.0) for i in best_lexical if i not in seen and i in facts]
        return rank(candidates, now, config, {i: lexical[i] for i in best_lexical})

    def _lexical_index(self, user_id: str, count: int, rebuild: bool = False) -> tuple[LexicalIndex, dict[str, Fact]]:
        """The user's BM25 index and live facts by id, built from the user's own collection and kept
        while the live count and the index's write generation are unchanged (an edit, renewal or
        delete anywhere in this process invalidates it)."""
        key = (count, self.index.generation(user_id))
        cached = self._lexical.get(user_id)
        if cached is not None and cached[0] == key and not rebuild:
            return cached[1], cached[2]
        live = self.index.list(user_id)
        built = LexicalIndex([f.id for f in live], lexical_documents(live))
        if len(self._lexical) >= 64:
            self._lexical.pop(next(iter(self._lexical)))
        self._lexical[user_id] = ((len(live), key[1]), built, {f.id: f for f in live})
        return built, self._lexical[user_id][2]

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
