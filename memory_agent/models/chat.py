"""Chat models: the offline stand-in by default, any LangChain chat model by name."""

from __future__ import annotations

import os

from langchain_core.language_models import BaseChatModel

from memory_agent.models.errors import ModelError
from memory_agent.models.local import load_local_model
from memory_agent.models.offline.chat_model import OfflineChatModel
from memory_agent.models.replay import load_replay_model

__all__ = ["load_chat_model"]


def load_chat_model(spec: str = "offline", *, base_url: str | None = None) -> BaseChatModel:
    """Build a chat model from a ``provider:model`` string.

    Args:
        spec: ``"offline"`` for :class:`memory_agent.models.offline.chat_model.OfflineChatModel` (rule-based,
            not a language model); ``"local"`` or ``"local:<gguf path>"`` for a GGUF model served
            in-process by llama.cpp on 127.0.0.1 (:mod:`memory_agent.models.local`, optional extra
            ``local``); ``"replay:FILE"`` or ``"replay:FILE?answers=offline"`` for recorded model
            output looked up by prompt hash (:mod:`memory_agent.models.replay`); or e.g.
            ``"openai:gpt-4o-mini"`` for LangChain's ``init_chat_model``. With ``base_url`` (or
            ``OPENAI_BASE_URL``) an ``openai:`` model talks to any OpenAI-compatible server.

    Raises:
        ModelError: the spec is malformed, the provider/model is unknown, or a replay file is
            missing or malformed. At call time a replay model raises ``RecordingMissingError``
            (a ``ModelError``) for a prompt that has no recording.
    """
    spec = (spec or "").strip()
    if spec in ("", "offline"):
        return OfflineChatModel()
    if spec == "local" or spec.startswith("local:"):
        return load_local_model(spec)
    if spec.startswith("replay:"):
        return load_replay_model(spec)
    if ":" not in spec:
        raise ModelError(
            f"Unknown model {spec!r}. Use 'offline', 'local', 'replay:FILE' or 'provider:model', "
            "e.g. 'openai:gpt-4o-mini'."
        )
    from langchain.chat_models import init_chat_model  # lazy: langchain's provider registry is slow to import

    provider, model = spec.split(":", 1)
    kwargs = {}
    base_url = base_url or os.environ.get("OPENAI_BASE_URL")
    if provider == "openai" and base_url:
        kwargs["base_url"] = base_url
    try:
        return init_chat_model(model, model_provider=provider, **kwargs)
    except ImportError as exc:
        raise ModelError(
            f"The provider {provider!r} needs its LangChain package (e.g. pip install langchain-{provider}): {exc}"
        ) from exc
    except Exception as exc:  # init_chat_model raises ValueError, pydantic errors, OpenAIError (no key)
        raise ModelError(f"Cannot build the chat model {spec!r}: {exc}") from exc
