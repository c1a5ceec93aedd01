"""Caps on what memory may hold and inject, each with a clear message when it is reached.

- **content length per fact**: ``memory_agent.memory.validation.MAX_CONTENT_CHARS`` (300 characters);
  a longer proposal or edit is refused with that reason.
- **facts per user**: ``Settings.max_facts_per_user`` (default 2,000 live facts); a new fact
  over the cap is not proposed, and the turn says why (delete some, or run ``maintain``).
- **injected tokens per turn**: ``Settings.max_memory_tokens`` (default 600); the memories that
  do not fit are left out, best first kept, and the memory block says how many were left out.
  Tokens are those of the rendered block, wrapper and notes included
  (:func:`memory_agent.memory.gate.fit_memory_block`, counted by :mod:`memory_agent.memory.tokens`).
"""

from __future__ import annotations

DEFAULT_MAX_FACTS_PER_USER = 2000
DEFAULT_MAX_MEMORY_TOKENS = 600
DEFAULT_MAX_SESSION_TOKENS = 400
CAP_FACTS = "facts_per_user"
CAP_TOKENS = "memory_tokens"


def facts_cap_reason(live: int, cap: int) -> str:
    """The message of a proposal refused because the user has ``live`` of ``cap`` facts."""
    return (f"memory is full: {live} of {cap} facts kept for this user (max_facts_per_user). Delete some "
            "(memory-agent memories delete) or run memory-agent maintain; nothing was written")
