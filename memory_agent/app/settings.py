"""All settings in one place (pydantic-settings).

Precedence: explicit arguments > environment variables (prefix ``MEMORY_AGENT_``, or a
``.env`` file) > the defaults below. The user id is never a setting: it is passed with each run.
Every field is documented in ``.env.example`` at the repository root (``tests/unit/app/test_settings.py``
checks that it lists exactly these fields); ``memory-agent config`` prints the effective values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import AliasChoices, Field, field_validator
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
        embedder_runtime: what runs ``minilm``: ``auto`` (ONNX Runtime when installed, else PyTorch),
            ``onnx`` or ``torch``; the same vectors either way (``memory_agent.models.embeddings``).
        embedder_threads: ONNX Runtime intra-op threads for ``minilm`` (1: measured fastest on a busy
            machine, docs/figures-embedder.md).
        approval: ``always`` | ``risky-only`` | ``never``.
        top_k: facts injected per turn at most.
        max_message_chars: longest accepted user message, in characters.
        max_facts_per_user: live facts one user may have; a new one over it is refused with a message.
        max_memory_tokens: tokens (cl100k_base) of the memory block the model receives per turn, its
            heading, tags and notes included (``memory_agent.memory.gate.fit_memory_block``).
        max_session_tokens: tokens (cl100k_base) of the session block (profile, earlier sessions,
            episodes) the model receives per turn, wrapper included (``memory_agent.memory.gate``).
        chroma_url: a Chroma server (``http://host:port``) instead of the embedded folder
            (``MEMORY_AGENT_CHROMA_URL`` or ``CHROMA_URL``).
        chroma_tenant, chroma_database: the Chroma server's tenant and database to use (Chroma's
            own defaults ``default_tenant`` / ``default_database``); a database per deployment keeps
            several agents apart on one server.
        database_url: a PostgreSQL URL (``postgresql://user@host:5432/db``; ``MEMORY_AGENT_DATABASE_URL``
            or ``DATABASE_URL``): the checkpointer, the fact ledger and the audit log move there.
        postgres_prepare_threshold: psycopg's ``prepare_threshold`` (default 5, psycopg's own
            default): after that many runs a query becomes a server-side prepared statement. Set
            ``none`` behind PgBouncer in transaction mode, which cannot keep prepared statements.
        postgres_pool_size: most connections this process opens to Postgres.
        max_tool_rounds: answers per turn that may call tools (``graph/builder.py``); after that many
            the model is asked without tools, so the turn ends with a reply (default 4).
        postgres_timeout: seconds to wait for a Postgres connection before the turn fails with a
            clear error (the service is down or the pool is exhausted).
    """

    model_config = SettingsConfigDict(env_prefix="MEMORY_AGENT_", env_file=".env", extra="ignore",
                                      populate_by_name=True)

    data_dir: Path = Path(".memory_agent")
    model: str = "offline"
    openai_base_url: str | None = None
    embedder: str = "minilm"
    embedder_runtime: Literal["auto", "onnx", "torch"] = "auto"
    embedder_threads: int = Field(default=1, ge=1, le=64)
    approval: Literal["always", "risky-only", "never"] = "always"
    top_k: int = Field(default=5, ge=1, le=50)
    max_message_chars: int = Field(default=8000, ge=1)
    max_facts_per_user: int = Field(default=2000, ge=1)
    max_memory_tokens: int = Field(default=600, ge=1)
    max_session_tokens: int = Field(default=400, ge=1)
    chroma_url: str | None = Field(default=None, validation_alias=AliasChoices(
        "MEMORY_AGENT_CHROMA_URL", "CHROMA_URL"))
    chroma_tenant: str = "default_tenant"
    chroma_database: str = "default_database"
    database_url: str | None = Field(default=None, validation_alias=AliasChoices(
        "MEMORY_AGENT_DATABASE_URL", "DATABASE_URL"))
    postgres_prepare_threshold: int | None = Field(default=5, ge=0)
    postgres_pool_size: int = Field(default=10, ge=1)
    postgres_timeout: float = Field(default=10.0, gt=0)
    max_tool_rounds: int = Field(default=4, ge=0, le=50)

    @field_validator("postgres_prepare_threshold", mode="before")
    @classmethod
    def _none_word(cls, value):
        """``none``, ``off`` or an empty value (from the environment) mean ``None``: never prepare."""
        if isinstance(value, str) and value.strip().lower() in ("", "none", "null", "off"):
            return None
        return value

    @field_validator("database_url", "chroma_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value):
        """An empty variable (``DATABASE_URL=``) means the embedded default, not a URL."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value):
        if value is not None and not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("DATABASE_URL must be a postgresql:// URL, e.g. postgresql://user@127.0.0.1:5432/agent")
        return value

    @property
    def uses_data_dir(self) -> bool:
        """True when some store is embedded (SQLite or Chroma on disk), so the data folder is opened
        and locked; False when both Postgres and a Chroma server are configured."""
        return not (self.database_url and self.chroma_url)


def mask_url(value: str) -> str:
    """Hide a password inside a URL (``http://user:pw@host`` → ``http://user:***@host``)."""
    try:
        parts = urlsplit(value)
    except ValueError:
        return value
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))
    return value
