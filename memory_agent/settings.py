"""All settings in one place (pydantic-settings).

Precedence: explicit arguments > environment variables (prefix ``MEMORY_AGENT_``, or a
``.env`` file) > the defaults below. The user id is never a setting: it is passed with each run.
Every field is documented in ``.env.example`` at the repository root (``tests/test_settings.py``
checks that it lists exactly these fields); ``memory-agent config`` prints the effective values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Effective configuration of the agent.

    Fields:
        data_dir: folder of the embedded stores (SQLite file and Chroma files).
        model: ``offline`` (the rule-based stand-in, not a language model), ``local`` or
            ``local:<gguf path>`` (llama.cpp in-process, extra ``local``), or any
            ``provider:model`` string for LangChain's ``init_chat_model``
            (e.g. ``openai:gpt-4o-mini``).
        openai_base_url: base URL of an OpenAI-compatible server (``OPENAI_BASE_URL`` also works).
        embedder: ``minilm`` (offline default) or ``openai:text-embedding-3-small``.
        approval: ``always`` | ``risky-only`` | ``never``.
        top_k: facts injected per turn at most.
        max_message_chars: longest accepted user message, in characters.
        max_facts_per_user: live facts one user may have; a new one over it is refused with a message.
        max_memory_tokens: estimated tokens of memories injected per turn (``memory_agent.caps``).
        max_session_tokens: estimated tokens of profile facts and session summaries loaded when a
            session starts (``memory_agent.sessions``).
        chroma_url: a Chroma server (``http://host:port``) instead of the embedded folder.
    """

    model_config = SettingsConfigDict(env_prefix="MEMORY_AGENT_", env_file=".env", extra="ignore")

    data_dir: Path = Path(".memory_agent")
    model: str = "offline"
    openai_base_url: str | None = None
    embedder: str = "minilm"
    approval: Literal["always", "risky-only", "never"] = "always"
    top_k: int = Field(default=5, ge=1, le=50)
    max_message_chars: int = Field(default=8000, ge=1)
    max_facts_per_user: int = Field(default=2000, ge=1)
    max_memory_tokens: int = Field(default=600, ge=1)
    max_session_tokens: int = Field(default=400, ge=1)
    chroma_url: str | None = None
