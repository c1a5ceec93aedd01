"""The ONNX Runtime embedder gives the PyTorch (sentence-transformers) vectors, so collections
written by either runtime are read by the other with the same results."""

from __future__ import annotations

import numpy as np
import pytest

from memory_agent.models.embeddings import MiniLMEmbeddings, load_embedder
from memory_agent.models.minilm_onnx import mean_pool_normalise, onnx_path

SUBJECTS = ["I", "My sister", "Our team", "The landlord", "My doctor", "Grandpa", "Le client", "Mein Chef"]
VERBS = ["moved to", "prefers", "is allergic to", "decided on", "works at", "asked about", "forgot", "booked"]
OBJECTS = ["Oslo", "vegetarian food", "peanuts", "Postgres for the backend", "a bakery in Lyon",
           "the 3 pm meeting on Thursday", "her passport", "two tickets to Tokyo (¥24,000)"]
ODD = ["", "ok", "?", "🙂🙂🙂", "東京に住んでいます", "Ich wohne in Köln.", "¿Dónde está la estación?",
       "UPPER CASE SHOUTING", "tabs\tand\nnew lines", "word " * 300, "x" * 1500, "C++/C#/F# and <html>",
       "email me at someone@example.com", "2025-03-02T09:00:00Z", "ünïcödé àccents", "1 2 3 4 5 6 7 8 9 10"]


def varied_texts() -> list[str]:
    """≥ 200 texts: short and long (past the 256-token truncation), several languages and scripts."""
    made = [f"{s} {v} {o}." for i, (s, v, o) in enumerate(
        (s, v, o) for s in SUBJECTS for v in VERBS for o in OBJECTS) if i % 2 == 0]
    return made + ODD


@pytest.fixture(scope="module")
def runtimes(embedder):
    onnx = embedder.embeddings
    assert isinstance(onnx, MiniLMEmbeddings)
    onnx.embed_query("load")
    assert onnx.loaded_runtime == "onnx"  # the default when onnxruntime is installed
    return onnx, MiniLMEmbeddings(runtime="torch")


def test_onnx_vectors_match_the_torch_ones_on_varied_texts(runtimes):
    onnx, torch = runtimes
    texts = varied_texts()
    assert len(texts) >= 200
    a, b = np.array(onnx.embed_documents(texts)), np.array(torch.embed_documents(texts))
    assert torch.loaded_runtime == "torch"
    assert a.shape == b.shape == (len(texts), 384)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert (a * b).sum(axis=1).min() > 0.999
    # one query at a time (no padding) gives the same vector as inside a padded batch
    assert float(np.dot(onnx.embed_query(texts[0]), a[0])) > 0.99999


def test_onnx_and_torch_rank_a_small_corpus_identically(runtimes):
    onnx, torch = runtimes
    corpus = [f"{s} {v} {o}." for s, v, o in zip(SUBJECTS * 4, VERBS * 4, OBJECTS[::-1] * 4, strict=True)]
    queries = ["Where does the user live?", "What food can't they eat?", "Which database did we pick?",
               "When is the meeting?", "Who travels to Japan?", "Where does someone work?"]
    for runtime_a, runtime_b in [(onnx, torch)]:
        docs_a, docs_b = np.array(runtime_a.embed_documents(corpus)), np.array(runtime_b.embed_documents(corpus))
        for q in queries:
            top_a = np.argsort(-(docs_a @ np.array(runtime_a.embed_query(q))))[:5]
            top_b = np.argsort(-(docs_b @ np.array(runtime_b.embed_query(q))))[:5]
            assert top_a.tolist() == top_b.tolist(), q


def test_both_runtimes_record_the_same_embedder_identity():
    """Collections record the model, not the runtime: either reads what the other wrote."""
    names = {load_embedder("minilm", runtime=r).name for r in ("auto", "onnx", "torch")}
    assert names == {"sentence-transformers/all-MiniLM-L6-v2"}


def test_unknown_runtime_is_refused_with_the_accepted_ones():
    with pytest.raises(ValueError, match="auto, onnx, torch"):
        MiniLMEmbeddings(runtime="tensorflow")


def test_mean_pooling_ignores_padding_and_normalises():
    hidden = np.array([[[1.0, 0.0], [3.0, 0.0], [100.0, 100.0]]], dtype=np.float32)
    mask = np.array([[1, 1, 0]])
    assert mean_pool_normalise(hidden, mask).tolist() == [[1.0, 0.0]]


def test_a_damaged_graph_falls_back_to_torch_or_says_how_to_rewrite_it(tmp_path):
    damaged = onnx_path(tmp_path)
    damaged.parent.mkdir(parents=True, exist_ok=True)
    damaged.write_bytes(b"not an onnx graph")
    with pytest.raises(RuntimeError, match="embedder export --force"):
        MiniLMEmbeddings(runtime="onnx", cache_dir=tmp_path).embed_query("hello")
    auto = MiniLMEmbeddings(runtime="auto", cache_dir=tmp_path)
    assert len(auto.embed_query("hello")) == 384 and auto.loaded_runtime == "torch"
