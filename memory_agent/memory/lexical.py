"""Lexical (BM25) relevance over one user's live memories, the lexical half of hybrid retrieval.

BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009) with
the Lucene variant and its defaults ``k1 = 1.5``, ``b = 0.75``, as the ``bm25s`` library computes it
(tests/unit/memory/test_lexical.py compares the two), from postings built here: building ``bm25s``'s
whole sparse score matrix took 0.2 s for 10,000 memories at a user's first query, while a query needs
the postings of its own few terms only. Term statistics (document frequency, average length) are those of
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

Query side, for episodes only (:func:`query_tokenize`): the question words of
:data:`QUESTION_WORDS` ("what", "did", "kind", …) are dropped before stop words and stemming, so they
neither match a turn nor weigh in the IDF mass; a query made only of them keeps its full token list.
On the LoCoMo dev split this gave recall@10 +0.010 on the four tuning conversations and +0.015 on the
two held out (``evals/RETRIEVAL_NOTES.md``). Other facts keep the full query (their scores are the
recorded runs' and must not move), which is also :meth:`LexicalIndex.scores`'s default.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from bm25s.stopwords import STOPWORDS_EN  # loads bm25s (and scipy) with the module, not at a first query

__all__ = ["QUESTION_WORDS", "LexicalIndex", "query_tokenize", "tokenize"]

_WORD = re.compile(r"(?u)\b\w\w+\b")

#: Words of a question that say how it asks, not what about: dropped from an episode query's BM25 terms
#: (none is in the ``bm25s`` stop list). Chosen on LoCoMo conv-26/30/41/42 (``evals/RETRIEVAL_NOTES.md``).
QUESTION_WORDS = frozenset({
    "what", "when", "where", "who", "whom", "whose", "which", "why", "how", "did", "do", "does", "has",
    "have", "had", "were", "would", "could", "can", "should", "kind", "type", "some", "any"})


@lru_cache(maxsize=1)
def _stemmer_and_stopwords():
    import Stemmer

    return Stemmer.Stemmer("english"), frozenset(STOPWORDS_EN)


def tokenize(text: str) -> list[str]:
    """Lowercased, stop-word-free, Snowball-stemmed word tokens of ``text`` (may be empty)."""
    stemmer, stop = _stemmer_and_stopwords()
    words = [w for w in _WORD.findall(text.lower()) if w not in stop]
    return stemmer.stemWords(words) if words else []


def query_tokenize(text: str, drop_question_words: bool = False) -> list[str]:
    """The BM25 terms of a query: :func:`tokenize`, without the :data:`QUESTION_WORDS` when
    ``drop_question_words`` (dropped before stop words and stemming); a query made only of question
    words (and stop words) keeps its full token list."""
    full = tokenize(text)
    if not drop_question_words or not full:
        return full
    kept = tokenize(" ".join(w for w in _WORD.findall(text.lower()) if w not in QUESTION_WORDS))
    return kept or full


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
        self._k1, self._b = k1, b
        # postings in one pass of numpy (CSC order: by term, then document): per term, the positions of
        # the documents holding it and its count in each
        lengths = np.fromiter((len(toks) for toks in tokens), dtype=np.int64, count=self._n)
        vocab: dict[str, int] = {}
        term_ids = np.fromiter((vocab.setdefault(t, len(vocab)) for toks in tokens for t in toks),
                               dtype=np.int64, count=int(lengths.sum()))
        docs = np.repeat(np.arange(self._n, dtype=np.int64), lengths)
        width = max(self._n, 1)  # (term, document) pairs coded as one integer, term first
        pairs, counts = np.unique(term_ids * width + docs, return_counts=True)
        terms = pairs // width
        self._vocab = vocab
        self._docs = (pairs % width).astype(np.intp)
        self._tf = counts.astype(np.float64)
        self._start = np.searchsorted(terms, np.arange(len(vocab) + 1))
        # a document with no token counts as one of length 1 (bm25s, which this matches, indexes a
        # placeholder token for it)
        self._length = np.maximum(lengths, 1).astype(np.float64)
        self._avg = float(self._length.mean()) if self._n else 1.0

    def __len__(self) -> int:
        return self._n

    def _idf(self, term: str) -> float:
        """Lucene's BM25 IDF, ``ln(1 + (N − df + 0.5) / (df + 0.5))``."""
        i = self._vocab.get(term)
        df = 0 if i is None else int(self._start[i + 1] - self._start[i])
        return math.log(1.0 + (self._n - df + 0.5) / (df + 0.5))

    def _posting(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        """The positions of the documents holding ``term`` and its count in each (``None``: in none)."""
        i = self._vocab.get(term)
        if i is None:
            return None
        a, b = self._start[i], self._start[i + 1]
        return self._docs[a:b], self._tf[a:b]

    def raw_scores(self, query: str, drop_question_words: bool = False) -> list[float]:
        """Plain BM25 score of every document for ``query`` (same order as ``ids``; ≥ 0): the sum over
        the query's terms (:func:`query_tokenize`), a repeated term counted again, of
        ``idf · tf / (tf + k1 · (1 − b + b · len / avg))``."""
        return self._raw(query_tokenize(query, drop_question_words)).tolist()

    def _raw(self, terms: Sequence[str]) -> np.ndarray:
        out = np.zeros(self._n, dtype=np.float64)
        for term in terms:
            posting = self._posting(term)
            if posting is None:
                continue
            docs, tf = posting
            norm = self._k1 * (1.0 - self._b + self._b * self._length[docs] / self._avg)
            out[docs] += self._idf(term) * tf / (tf + norm)
        return out

    def scores(self, query: str, coverage: float | None = None, drop_question_words: bool = False) -> dict[str, float]:
        """Lexical relevance in [0, 1] of every document with a non-zero BM25 score, by id
        (``coverage`` overrides the index's; terms from :func:`query_tokenize`)."""
        terms = query_tokenize(query, drop_question_words)
        if not self._n or not terms:
            return {}
        mass = sum(self._idf(t) for t in terms) * (coverage or self.coverage)
        raw = self._raw(terms)
        hit = np.flatnonzero(raw > 0)
        return {self.ids[k]: s for k, s in zip(hit.tolist(), np.minimum(1.0, raw[hit] / mass).tolist(), strict=True)}

    def best(self, query: str, n: int, among: np.ndarray | None = None, coverage: float | None = None,
             drop_question_words: bool = False) -> dict[int, float]:
        """Lexical relevance in [0, 1] (as :meth:`scores`) of the ``n`` documents with the highest
        non-zero BM25 score, by position, best first (ties: earlier position first); ``among`` (a
        boolean mask by position) limits them to some documents."""
        terms = query_tokenize(query, drop_question_words)
        if not self._n or not terms or n <= 0:
            return {}
        mass = sum(self._idf(t) for t in terms) * (coverage or self.coverage)
        raw = self._raw(terms)
        hit = raw > 0
        if among is not None:
            hit &= among
        pos = np.flatnonzero(hit)
        pos = pos[np.argsort(-raw[pos], kind="stable")[:n]]
        return dict(zip(pos.tolist(), np.minimum(1.0, raw[pos] / mass).tolist(), strict=True))
