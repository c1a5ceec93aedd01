"""Long-term memory: the one object the nodes, the CLI and the evals use for facts.

It joins a :class:`memory_agent.stores.base.FactIndex` (live facts with embeddings), a
:class:`memory_agent.stores.base.FactLedger` (every fact, the audit log) and an embedder. Each side
of it is its own module:

- reads (:mod:`memory_agent.stores.fact_reads`): ``retrieve``, ``nearest_facts``, ``live``, ``show``,
  ``history``;
- planning, no writes (:mod:`memory_agent.stores.proposal_planning`): ``plan``;
- writes, every one through the journal (:mod:`memory_agent.stores.journal`: ``repair``): the
  ``commit`` node's decisions (:mod:`memory_agent.stores.fact_writes`: ``apply``, ``record_dropped``,
  ``touch``), the lifecycle (:mod:`memory_agent.stores.lifecycle_writes`: ``retire``, ``merge``,
  ``renew``, ``save_summary``) and erasure (:mod:`memory_agent.stores.erasure_writes`:
  ``delete_chain``, ``forget_since``, ``erase_user``).

This module holds what they share: the stores, the knobs and the process-local caches.
"""

from __future__ import annotations

from langchain_core.embeddings import Embeddings

from memory_agent.memory.caps import DEFAULT_MAX_FACTS_PER_USER, DEFAULT_MAX_MEMORY_TOKENS, DEFAULT_MAX_SESSION_TOKENS
from memory_agent.memory.reconcile import ReconcileConfig
from memory_agent.memory.retrieval import RetrievalConfig
from memory_agent.stores.base import FactIndex, FactLedger, Transcripts
from memory_agent.stores.erasure_writes import ErasureWrites
from memory_agent.stores.fact_reads import FactReads, LiveSnapshot
from memory_agent.stores.fact_writes import FactWrites
from memory_agent.stores.lifecycle_writes import LifecycleWrites
from memory_agent.stores.proposal_planning import ProposalPlanning


class LongTermMemory(FactReads, ProposalPlanning, FactWrites, LifecycleWrites, ErasureWrites):
    """Facts of many users, each call scoped to one ``user_id``.

    Args:
        index: live facts with embeddings (default :class:`memory_agent.stores.chroma_store.ChromaFactIndex`).
        ledger: every fact and the audit log (default :class:`memory_agent.stores.sql.ledger.SQLFactLedger`).
        embeddings: a LangChain ``Embeddings`` (default all-MiniLM-L6-v2).
        retrieval: ranking knobs; ``reconcile_config``: reconcile thresholds.
        max_facts: live facts per user (a new fact over it is refused with a message).
        max_memory_tokens: tokens of the rendered memory block per turn (``memory_agent.memory.gate``).
        max_session_tokens: tokens of the rendered session block per turn (``memory_agent.memory.gate``).

    ``transcripts`` (:class:`memory_agent.stores.base.Transcripts`, default ``None``) is the working
    memory the erasing writes also clear; ``MemoryAgent`` attaches its checkpointer there.
    """

    def __init__(
        self,
        index: FactIndex,
        ledger: FactLedger,
        embeddings: Embeddings,
        retrieval: RetrievalConfig = RetrievalConfig(),
        reconcile_config: ReconcileConfig = ReconcileConfig(),
        max_facts: int = DEFAULT_MAX_FACTS_PER_USER,
        max_memory_tokens: int = DEFAULT_MAX_MEMORY_TOKENS,
        max_session_tokens: int = DEFAULT_MAX_SESSION_TOKENS,
    ):
        self.max_session_tokens = max_session_tokens
        self.max_facts = max_facts
        self.max_memory_tokens = max_memory_tokens
        self.index = index
        self.ledger = ledger
        self.embeddings = embeddings
        self.retrieval = retrieval
        self.reconcile_config = reconcile_config
        self.transcripts: Transcripts | None = None
        self._repair_due = False  # a write failed: repair() before the next one (stores.journal)
        self._embeddings_cache: dict[tuple[str, str], list[float]] = {}  # (user_id, text) -> vector
        # user id -> the live facts listed once, their BM25 index and the stored vectors read so far: used
        # while the ledger's generation, the live count and this process's index writes are unchanged
        self._snapshots: dict[str, LiveSnapshot] = {}

    def forget_cached(self, user_id: str) -> None:
        """Drop everything this process caches about the user (query and fact embeddings, the live
        snapshot: its copy of the facts, their BM25 index and stored vectors): called when the user is
        erased, so no copy outlives the stores."""
        self._snapshots.pop(user_id, None)
        for key in [k for k in self._embeddings_cache if k[0] == user_id]:
            del self._embeddings_cache[key]

    def _embed(self, user_id: str, text: str) -> list[float]:
        """Embed one text of ``user_id``, remembering the last few hundred, so a fact embedded when
        it is planned is not embedded again when it is committed in the same process. The cache
        is keyed by ``(user_id, text)``: nothing one user's turn put there serves another user."""
        key = (user_id, text)
        vector = self._embeddings_cache.get(key)
        if vector is None:
            vector = self.embeddings.embed_documents([text])[0]
            if len(self._embeddings_cache) >= 512:
                self._embeddings_cache.pop(next(iter(self._embeddings_cache)))
            self._embeddings_cache[key] = vector
        return vector
