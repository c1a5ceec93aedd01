"""Lexical (BM25) relevance over one user's live memories, the lexical half of hybrid retrieval.

BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009) with
the Lucene variant and its defaults ``k1 = 1.5``, ``b = 0.75``, computed by the ``bm25s`` library
(sparse matrices, numpy only). Term statistics (document frequency, average length) are those of
**one user's own memories**: an index is built per user from that user's collection, never
across users, so one user's words cannot change another user's ranking.

Tokenisation (:func:`tokenize`): lowercase, words of two or more letters or digits, English stop
words removed (the list shipped with ``bm25s``), Snowball English stemming (``PyStemmer``), so
"lives" matches "live" and "painting" matches "painted".

The score is made absolute, not relative to the best document of the query, so that it can be
compared with a floor: ``lexical = min(1, bm25 / (coverage · Σ idf(t) over the query's terms))``
with ``coverage = 0.5``. A document that matches terms carrying half of the query's IDF mass
(each once, at average length) gets 1.0; a document matching no term gets 0.0. Query terms
absent from the user's memories count in the sum with the IDF of an unseen term.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

import bm25s  # imported with the module, not at a user's first query (about 0.15 s)

__all__ = ["LexicalIndex", "tokenize"]

_WORD = re.compile(r"(?u)\b\w\w+\b")


@lru_cache(maxsize=1)
def _stemmer_and_stopwords():
    import Stemmer
    from bm25s.stopwords import STOPWORDS_EN

    return Stemmer.Stemmer("english"), frozenset(STOPWORDS_EN)


def tokenize(text: str) -> list[str]:
    """Lowercased, stop-word-free, Snowball-stemmed word tokens of ``text`` (may be empty)."""
    stemmer, stop = _stemmer_and_stopwords()
    words = [w for w in _WORD.findall(text.lower()) if w not in stop]
    return stemmer.stemWords(words) if words else []


class LexicalIndex:
    """BM25 over the documents of one user.

    Args:
        ids: one id per document (fact ids).
        texts: the documents (see :func:`memory_agent.memory.retrieval.lexical_documents`).
        tokens: instead of ``texts``, each document already passed through :func:`tokenize` (``texts``
            is then ignored; pass ``None``).
        coverage: share (0–1] of the query's IDF mass that earns a lexical score of 1.0.
        k1, b: BM25 parameters (Lucene defaults).

    Raises:
        ValueError: ``ids`` and ``texts`` differ in length.
    """

    def __init__(self, ids: Sequence[str], texts: Sequence[str] | None, *, coverage: float = 0.5,
                 k1: float = 1.5, b: float = 0.75, tokens: Sequence[Sequence[str]] | None = None):

        if tokens is None:
            if texts is None or len(ids) != len(texts):
                raise ValueError("LexicalIndex needs one id per text")
            tokens = [tokenize(t) for t in texts]
        elif len(ids) != len(tokens):
            raise ValueError("LexicalIndex needs one id per token list")
        self.ids = list(ids)
        self.coverage = coverage
        self._n = len(tokens)
        self._df: dict[str, int] = {}
        for toks in tokens:
            for t in set(toks):
                self._df[t] = self._df.get(t, 0) + 1
        self._bm25 = None
        if self._n:
            self._bm25 = bm25s.BM25(k1=k1, b=b, method="lucene")
            # a document with no token still needs a row; a token no query can produce keeps it empty
            self._bm25.index([toks or ["\x00"] for toks in tokens], show_progress=False)

    def __len__(self) -> int:
        return self._n

    def _idf(self, term: str) -> float:
        """Lucene's BM25 IDF, ``ln(1 + (N − df + 0.5) / (df + 0.5))``."""
        df = self._df.get(term, 0)
        return math.log(1.0 + (self._n - df + 0.5) / (df + 0.5))

    def raw_scores(self, query: str) -> list[float]:
        """Plain BM25 score of every document for ``query`` (same order as ``ids``; ≥ 0)."""
        if not self._n:
            return []
        token_ids = self._bm25.get_tokens_ids(tokenize(query))
        if not token_ids:
            return [0.0] * self._n
        return [float(s) for s in self._bm25.get_scores_from_ids(token_ids)]

    def scores(self, query: str, coverage: float | None = None) -> dict[str, float]:
        """Lexical relevance in [0, 1] of every document with a non-zero BM25 score, by id
        (``coverage`` overrides the index's)."""
        terms = tokenize(query)
        if not self._n or not terms:
            return {}
        mass = sum(self._idf(t) for t in terms) * (coverage or self.coverage)
        raw = self.raw_scores(query)
        return {i: min(1.0, s / mass) for i, s in zip(self.ids, raw, strict=True) if s > 0}
